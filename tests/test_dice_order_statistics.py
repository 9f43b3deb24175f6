"""Keep/drop forms counted by order statistics and exploding dice, exactly, at any size a roll may
have (`compiler.model.dice`): against throw-by-throw enumeration on small dice (the default run)
and against icepool on a list of large ones (the slow run, with the `bench` extra).
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.validate import validate_json
from compiler.cli import cli
from compiler.emit.json import emit_game_json
from compiler.emit.python.module import emit_game_python
from compiler.model.dice import Dice
from tests.conftest import ROOT, compile_text, import_module


def _throws(dice: Dice) -> dict[int, Fraction]:
    """Every throw of the dice, one by one (an exploding die's extra throws included, each branch
    weighted by its chance), read as the rules read it: the slow, obvious count."""
    faces = range(0, 10) if dice.sides == 10 and dice.zero == 0 else range(1, dice.sides + 1)
    found: dict[int, Fraction] = {}

    def exploding(depth: int) -> dict[int, Fraction]:  # one die that may roll again `depth` times
        out: dict[int, Fraction] = {}
        for face in faces:
            if face == faces[-1] and depth:
                for more, p in exploding(depth - 1).items():
                    out[face + more] = out.get(face + more, Fraction(0)) + p / len(faces)
            else:
                out[face] = out.get(face, Fraction(0)) + Fraction(1, len(faces))
        return out

    if dice.form == "explode":
        die = exploding(dice.depth)
        for throw in itertools.product(die.items(), repeat=dice.count):
            total = sum(v for v, _ in throw)
            chance = Fraction(1)
            for _, p in throw:
                chance *= p
            found[total] = found.get(total, Fraction(0)) + chance
        return dict(sorted(found.items()))
    for throw in itertools.product(faces, repeat=dice.count):
        ordered = sorted(throw)
        result = {
            "lower": ordered[0],
            "higher": ordered[-1],
            "highest": sum(ordered[len(ordered) - dice.keep :]),
            "lowest": sum(ordered[: dice.keep]),
            "sum": sum(ordered),
        }[dice.form]
        found[result] = found.get(result, Fraction(0)) + Fraction(1, len(faces) ** dice.count)
    return dict(sorted(found.items()))


SMALL = [
    Dice(form, count, sides, keep=keep, zero=zero)
    for form in ("lower", "higher", "highest", "lowest", "sum")
    for count in range(1, 6)
    for sides in (2, 3, 6, 10)
    for zero in (10, 0)
    for keep in (range(1, count) if form in ("highest", "lowest") else [0])
    if not (form in ("lower", "higher") and count < 2) and sides**count <= 10**4 and (zero == 10 or sides == 10)
] + [
    Dice("explode", count, sides, depth=depth, zero=zero)
    for count in (1, 2, 3)
    for sides in (2, 6, 10)
    for depth in (1, 2, 3)
    for zero in (10, 0)
    if (zero == 10 or sides == 10) and (sides * depth) ** count <= 5000
]


@pytest.mark.parametrize("dice", SMALL, ids=lambda d: f"{d.form}-{d.count}d{d.sides}-k{d.keep}-z{d.zero}-x{d.depth}")
def test_counted_as_every_throw_counts(dice: Dice) -> None:
    assert dice.outcomes == _throws(dice)


def test_a_large_keep_is_exact_and_whole() -> None:
    # 10d10 keep the highest 3: the rows of a chart the enumeration refused (10^10 throws, C405)
    outcomes = Dice("highest", 10, 10, keep=3).outcomes
    assert sum(outcomes.values()) == 1
    assert (min(outcomes), max(outcomes)) == (3, 30)
    assert outcomes[3] == Fraction(1, 10**10)  # every die a 1
    assert outcomes[30] == 1 - Fraction(9**10 + 10 * 9**9 + 45 * 9**8, 10**10)  # three or more 10s
    sum_20d6 = Dice("sum", 20, 6).outcomes
    assert sum_20d6[20] == sum_20d6[120] == Fraction(1, 6**20)
    assert sum_20d6[70] == max(sum_20d6.values())  # the middle total is the likeliest


def test_exploding_dice_stop_at_their_depth() -> None:
    # exploding 1d6 depth 2: a 6 rolls again and adds, twice at most; the third roll's 6 stays 6
    outcomes = Dice("explode", 1, 6, depth=2).outcomes
    assert outcomes == {
        **{face: Fraction(1, 6) for face in range(1, 6)},
        **{6 + face: Fraction(1, 36) for face in range(1, 6)},
        **{12 + face: Fraction(1, 216) for face in range(1, 7)},
    }
    assert Dice("explode", 1, 6, depth=2).text == (
        "1d6 exploding to depth 2: a top face rolls again and adds"
    )


def test_the_language_rolls_what_the_enumeration_refused(tmp_path) -> None:
    comp = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'chart [K] "Keep" { roll highest 3 of 10d10 column r: text rows { 3-15: "a" 16-30: "b" } }\n'
        'chart [S] "Sum" { roll 20d6 column r: text rows { 20-69: "a" 70-120: "b" } }\n'
        'chart [X] "Boom" { roll exploding 2d6 depth 3 column r: text rows { 2-12: "a" 13+: "b" } }\n',
    )
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    assert game.chart("K").dice.outcomes == Dice("highest", 10, 10, keep=3).outcomes
    assert game.chart("X").dice.depth == 3 and game.chart("X").dice.max == 2 * (6 * 3 + 6)


# The slow run: large dice against icepool, which counts them its own way.
EXPRESSIONS = [
    ("highest 3 of 10d10", Dice("highest", 10, 10, keep=3)),
    ("highest 3 of 5d10", Dice("highest", 5, 10, keep=3)),
    ("lowest 4 of 20d6", Dice("lowest", 20, 6, keep=4)),
    ("highest 29 of 30d6", Dice("highest", 30, 6, keep=29)),
    ("lower of 12d8", Dice("lower", 12, 8)),
    ("higher of 30d20", Dice("higher", 30, 20)),
    ("highest 2 of 6d10 zero reads 0", Dice("highest", 6, 10, keep=2, zero=0)),
    ("20d6", Dice("sum", 20, 6)),
    ("30d10", Dice("sum", 30, 10)),
    ("exploding 3d6 depth 4", Dice("explode", 3, 6, depth=4)),
    ("exploding 1d10 depth 10", Dice("explode", 1, 10, depth=10)),
    ("exploding 4d10 depth 2 zero reads 0", Dice("explode", 4, 10, depth=2, zero=0)),
]


def _icepool(dice: Dice) -> dict[int, Fraction]:
    icepool = pytest.importorskip("icepool")
    die = icepool.z(10) if dice.sides == 10 and dice.zero == 0 else icepool.d(dice.sides)
    match dice.form:
        case "highest":
            rolled = die.highest(dice.count, dice.keep)
        case "lowest":
            rolled = die.lowest(dice.count, dice.keep)
        case "lower":
            rolled = die.lowest(dice.count, 1)
        case "higher":
            rolled = die.highest(dice.count, 1)
        case "sum":
            rolled = dice.count @ die
        case "explode":
            rolled = dice.count @ die.explode(depth=dice.depth)
        case _:
            raise AssertionError(dice.form)
    return dict(zip(rolled.outcomes(), rolled.probabilities(), strict=True))


@pytest.mark.slow
@pytest.mark.parametrize(("text", "dice"), EXPRESSIONS, ids=[t for t, _ in EXPRESSIONS])
def test_large_dice_agree_with_icepool(text: str, dice: Dice) -> None:
    assert dice.outcomes == _icepool(dice), text


# The example game tests/data/charts/dicelab end to end: chances, lookup, odds, the JSON and the module.
DICELAB = ROOT / "tests" / "data" / "charts"


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--charts", str(DICELAB)])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_example_game_reads_exploding_dice_by_their_chances() -> None:
    # dicelab F, exploding 2d6 depth 3: 7 or less only when neither die shows a 6 (19 of the 25
    # pairs of 1-5 sum to 7 or less); 13+ needs a 6 and 6 more from its re-roll and the other die
    game = load([DICELAB / "dicelab"]).project.games["dicelab"]
    chart = game.chart("F")
    assert sum(p for r, p in chart.dice.outcomes.items() if r <= 7) == Fraction(19, 36)
    assert sum(p for r, p in chart.dice.outcomes.items() if r >= 13) == Fraction(1, 6)
    assert (chart.dice.min, chart.dice.max) == (2, 48)  # each die at most 6+6+6+6: three re-rolls
    odds = _run("odds", "dicelab/F")
    assert "7-    19/36 (52.8%)  Pinned" in odds and "13+   1/6 (16.7%)    Broken" in odds
    assert "48: 1/1679616 (0.0%)" in odds  # four 6s on each die, the last kept as it is
    covered = json.loads(_run("odds", "dicelab/F", "--when", "cover", "--format", "json"))
    assert [r["probability"]["exact"] for r in covered["rows"]] == ["25/36", "89/432", "43/432"]
    assert "roll 13 -> row 13+" in _run("lookup", "dicelab/F", "13")
    # dicelab B, highest 3 of 10d10: the 30 needs three 10s or more, 1 - P(0, 1 or 2 tens)
    assert "27-30  2446257043/5000000000 (48.9%)  Destroyed" in _run("odds", "dicelab/B")
    assert game.chart("B").dice.outcomes[30] == 1 - Fraction(9**10 + 10 * 9**9 + 45 * 9**8, 10**10)


def test_the_example_games_json_and_module_carry_the_depth(tmp_path) -> None:
    game = load([DICELAB / "dicelab"]).project.games["dicelab"]
    text = emit_game_json(game)
    validate_json(text)
    firefight = next(c for c in json.loads(text)["charts"] if c["address"] == "F")
    assert firefight["dice"]["form"] == "explode" and firefight["dice"]["depth"] == 3
    assert {o["roll"] for o in firefight["dice"]["outcomes"]} == set(game.chart("F").dice.outcomes)
    module = tmp_path / "dicelab_mod.py"
    module.write_text(emit_game_python(game), encoding="utf-8")
    mod = import_module(module, "dicelab_mod")
    rolls = {mod.roll_f(random.Random(seed))["natural"] for seed in range(2000)}
    assert rolls <= set(game.chart("F").dice.outcomes) and max(rolls) >= 13
