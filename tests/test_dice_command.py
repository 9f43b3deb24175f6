"""`chartc dice EXPR [EXPR]` (issue 36 item 5): a roll written as in a chart, its exact chances, at
least / at most and a bar plot; two side by side; `--format json`; against icepool in the slow run."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.query.dice import DiceProblem, distribution


def _run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["dice", *args])
    assert result.exit_code == code, result.output
    return result.output


def test_2d6_distribution_at_least_at_most_and_bars() -> None:
    out = _run("2d6").splitlines()
    assert out[0] == "2d6: 2 to 12, mean 7.00"
    seven = next(line for line in out if line.startswith("   7  "))
    # 6 of 36 throws sum to 7; 21 of 36 reach 7 or more, and 21 reach 7 or less
    assert seven.split()[:5] == ["7", "1/6", "(16.7%)", "58.3%", "58.3%"]
    two = next(line for line in out if line.startswith("   2  "))
    assert two.rstrip().endswith("█" * 4)  # 1/36 against the likeliest 6/36 on a 24-cell bar
    assert seven.rstrip().endswith("█" * 24)


def test_keep_explode_and_minus_forms_exactly() -> None:
    keep = distribution("highest 3 of 4d6")
    assert keep.outcomes[18] == Fraction(21, 1296)  # three or four 6s: 1 + 4 * 5 of 6^4 throws
    assert keep.at_least[18] == keep.outcomes[18] and keep.at_most[3] == Fraction(1, 1296)
    assert distribution("drop lowest 1 of 4d6").outcomes == keep.outcomes
    # IA2 7.1.5: 1d6 minus 3, never below 0: 1-3 all read 0
    flak = distribution("1d6 minus 3 min 0")
    assert flak.outcomes == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    assert flak.mean == 1
    boom = distribution("exploding 1d6 depth 1")  # a 6 rolls once more and adds
    assert 6 not in boom.outcomes and boom.outcomes[12] == Fraction(1, 36)
    assert boom.mean == Fraction(7, 2) * Fraction(7, 6)  # E[d6] times 1 + 1/6 for the second roll
    assert distribution("1d10 zero reads 0").low == 0
    assert distribution("d66").high == 66 and distribution("percentile").outcomes[100] == Fraction(1, 100)


def test_two_expressions_side_by_side() -> None:
    out = _run("1d6", "1d6 minus 3 min 0").splitlines()
    assert out[:2] == ["A: 1d6: 1 to 6, mean 3.50", "B: 1d6 minus 3 min 0 (1d6, -3, minimum 0): 0 to 3, mean 1.00"]
    zero = next(line for line in out if line.startswith("   0  "))
    six = next(line for line in out if line.startswith("   6  "))
    assert zero.split()[:4] == ["0", "50%", "100%", "50%"]  # only B rolls a 0
    assert six.split()[:4] == ["6", "16.7%", "16.7%", "100%"] and len(six.split()) == 5  # only A rolls a 6
    labels = next(line for line in out if line.startswith(" ") and "A:" in line)
    header = next(line for line in out if line.startswith("roll"))
    assert labels.index("B:") == header.rindex("chance") == zero.index("50%")


def test_json_holds_exact_fractions() -> None:
    doc = json.loads(_run("lower of 2d10", "--format", "json"))
    [lower] = doc["expressions"]
    assert (lower["expression"], lower["min"], lower["max"]) == ("lower of 2d10", 1, 10)
    first = lower["outcomes"][0]
    # the lower of two d10s is 1 unless neither die shows a 1: 1 - 81/100
    assert first["probability"] == {"exact": "19/100", "float": 0.19}
    assert first["at_least"]["exact"] == "1/1" and lower["outcomes"][-1]["at_most"]["exact"] == "1/1"
    assert lower["mean"]["exact"] == "77/20"  # sum over k of P(lower >= k) = sum (11-k)^2/100
    assert json.loads(_run("2d6", "--json")) == json.loads(_run("2d6", "--format", "json"))


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("2x6", "`2x6` is not a roll: unexpected `2x6`"),
        ("30d100", "2971 different results, more than the 1000 chartc tabulates"),
        ("exploding 2d6 depth 0", "a die may roll again 1 to 10 times"),
        ('2d6 } chart [E] "E" {', "is not a roll"),
    ],
)
def test_a_roll_the_language_refuses_is_a_usage_error(expr: str, message: str) -> None:
    assert message in _run(expr, code=2)
    with pytest.raises(DiceProblem, match="roll"):
        distribution(expr)


def _brute(throws: list[int], *steps: tuple[str, int]) -> dict[int, Fraction]:
    """Each equally likely throw's natural roll through the steps by hand, counted."""
    rolls = []
    for roll in throws:
        for kind, n in steps:
            roll = {"add": roll + n, "times": roll * n, "halve_down": roll // 2, "halve_up": -(-roll // 2),
                    "minimum": max(roll, n), "maximum": min(roll, n)}[kind]
        rolls.append(roll)
    return {r: Fraction(c, len(rolls)) for r, c in sorted(Counter(rolls).items())}


def _exploding_die(faces: tuple[int, ...], top: int, depth: int) -> int:
    """One exploding die from `depth` + 1 faces thrown in turn: a top face takes the next one."""
    total = 0
    for again, face in enumerate(faces):
        total += face
        if face != top or again == depth:
            break
    return total


def test_steps_are_counted_as_a_brute_force_count() -> None:
    d6 = range(1, 7)
    # IA2 7.1.5: "roll 1d6 and subtract 3 ... from zero to 3", both spellings
    flak = _brute(list(d6), ("add", -3), ("minimum", 0), ("maximum", 3))
    for expr in ("1d6 then drms then minus 3 then minimum 0 then maximum 3", "1d6 then minus 3 then minimum 0"):
        got = distribution(expr)
        assert got.outcomes == flak and got.low == 0 and got.high == 3, expr
    assert [s.kind for s in distribution("1d6 then minus 3 then minimum 0").steps] == ["add", "minimum"]
    # the keep form through steps: every throw of 3d6, its two highest, halved up, plus 1
    keep = [sum(sorted(t)[1:]) for t in itertools.product(d6, repeat=3)]
    assert distribution("highest 2 of 3d6 then halved round up then plus 1").outcomes == _brute(
        keep, ("halve_up", 0), ("add", 1)
    )
    # exploding dice through steps: each die from 3 faces thrown in turn (6^3 equally likely each)
    boom = [
        _exploding_die(a, 6, 2) + _exploding_die(b, 6, 2)
        for a, b in itertools.product(itertools.product(d6, repeat=3), repeat=2)
    ]
    want = _brute(boom, ("times", 2), ("add", -5), ("minimum", 1), ("maximum", 30))
    expr = "exploding 2d6 depth 2 then doubled then minus 5 then minimum 1 then maximum 30"
    assert distribution(expr).outcomes == want
    out = _run("1d6 then minus 3 then minimum 0").splitlines()
    assert out[0] == "1d6 then minus 3 then minimum 0 (1d6, -3, minimum 0): 0 to 3, mean 1.00"
    [doc] = json.loads(_run("1d6 then minus 3 then minimum 0", "--json"))["expressions"]
    assert doc["dice"] == "1d6" and doc["steps"] == [{"step": "add", "amount": -3}, {"step": "minimum", "amount": 0}]


def test_at_most_two_expressions() -> None:
    assert "give one or two expressions, not 3" in _run("1d6", "2d6", "3d6", code=2)


# The slow run: each answer against icepool's (issue 36: "answers equal icepool's on a list of expressions").
def _icepool(expr: str):  # type: ignore[no-untyped-def]
    icepool = pytest.importorskip("icepool")
    d6, d10 = icepool.d6, icepool.d10
    return {
        "3d6": 3 @ d6,
        "2d6": 2 @ d6,
        "20d6": 20 @ d6,
        "highest 3 of 4d6": d6.highest(4, 3),
        "drop lowest 1 of 4d6": d6.highest(4, 3),
        "highest 3 of 10d10": d10.highest(10, 3),
        "lowest 2 of 3d6": d6.lowest(3, 2),
        "lower of 2d10": d10.lowest(2, 1),
        "higher of 2d10": d10.highest(2, 1),
        "d66": 10 * d6 + d6,
        "percentile": icepool.d100,
        "1d6 minus 3 min 0": (d6 - 3).clip(0, None),
        "1d6 then minus 3 then minimum 0 then maximum 3": (d6 - 3).clip(0, 3),
        "1d6 versus 1d6": d6 - d6,
        "1d10 zero reads 0": icepool.z(10),
        "exploding 1d6 depth 3": d6.explode(depth=3),
        "exploding 2d10 depth 2": 2 @ d10.explode(depth=2),
    }[expr]


ICEPOOL = [
    "3d6", "2d6", "20d6", "highest 3 of 4d6", "drop lowest 1 of 4d6", "highest 3 of 10d10", "lowest 2 of 3d6",
    "lower of 2d10", "higher of 2d10", "d66", "percentile", "1d6 minus 3 min 0",
    "1d6 then minus 3 then minimum 0 then maximum 3", "1d6 versus 1d6",
    "1d10 zero reads 0", "exploding 1d6 depth 3", "exploding 2d10 depth 2",
]


@pytest.mark.slow
@pytest.mark.parametrize("expr", ICEPOOL)
def test_answers_equal_icepools(expr: str) -> None:
    die = _icepool(expr)
    want = dict(zip(die.outcomes(), die.probabilities(), strict=True))
    doc = json.loads(_run(expr, "--format", "json"))
    [got] = doc["expressions"]
    assert {o["roll"]: Fraction(o["probability"]["exact"]) for o in got["outcomes"]} == want
    assert {o["roll"]: Fraction(o["at_least"]["exact"]) for o in got["outcomes"]} == {
        r: sum((p for s, p in want.items() if s >= r), Fraction(0)) for r in want
    }
