"""Dice arithmetic: a roll is the dice, then its steps in the order the rule states (the DRMs where
the rule adds them, minus/plus N, doubled/times N, halved rounded as printed, minimum, maximum).

What a player types is always what the dice show. The engine's chances are held to a brute-force
enumeration of every face written here independently; the corpus's two cases (IA2 7.1.5 and
10.16) are held to the rule's words through lookup, odds, the generated module, the vectors and the
checker.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.build.validate import Schema, validator
from compiler.emit.json import emit_game_json
from compiler.engine.chances import chances, modified_distribution, table_rolls
from compiler.engine.lookup import LookupProblem, lookup
from compiler.tools.fmt import format_text, syntax_tree_without_spans
from compiler.tools.vectors import game_vectors
from tests.conftest import ROOT, codes, compile_text, import_module

HEADER = 'game t { title "T" }\ncontext iff: flag "FuG25 IFF hit"\n'


def _brute(count: int, sides: int, steps: list[tuple[str, object]], drm: int) -> dict[int, Fraction]:
    """Every ordered throw of `count` dice of `sides` faces, each equally likely, summed and then
    taken through `steps` ("drms" adds `drm`), as a player works it out with pencil and paper."""
    seen: Counter[int] = Counter()
    throws = list(itertools.product(range(1, sides + 1), repeat=count))
    for faces in throws:
        roll = sum(faces)
        for kind, amount in steps:
            if kind == "drms":
                roll += drm
            elif kind == "add":
                roll += int(str(amount))
            elif kind == "times":
                roll *= int(str(amount))
            elif kind == "halve":
                roll = math.floor(roll / 2) if amount == "down" else math.ceil(roll / 2)
            elif kind == "minimum":
                roll = max(roll, int(str(amount)))
            else:
                roll = min(roll, int(str(amount)))
        seen[roll] += 1
    return {roll: Fraction(n, len(throws)) for roll, n in sorted(seen.items())}


def _written(kind: str, amount: object) -> str:
    """A step as the chart language writes it."""
    match kind:
        case "drms":
            return "then drms"
        case "add":
            n = int(str(amount))
            return f"then minus {-n}" if n < 0 else f"then plus {n}"
        case "times":
            return "then doubled" if amount == 2 else f"then times {amount}"
        case "halve":
            return f"then halved round {amount}"
        case _:
            return f"then {kind} {amount}"


PIPELINES = [
    # IA2 7.1.5 and 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)", the drm on the roll
    (1, 6, [("drms", 0), ("add", -3), ("minimum", 0), ("maximum", 3)]),
    # the DRMs after the arithmetic, as a rule may say ("halve the roll, then apply the modifiers")
    (2, 6, [("halve", "down"), ("drms", 0), ("minimum", 1)]),
    (2, 6, [("halve", "up"), ("drms", 0)]),
    (1, 6, [("drms", 0), ("times", 2), ("add", 1)]),
    (3, 6, [("drms", 0), ("times", 3), ("halve", "down"), ("maximum", 20), ("minimum", 4)]),
    (1, 10, [("add", -5), ("drms", 0), ("halve", "up")]),  # below zero: rounded up is toward +inf
]


@pytest.mark.parametrize(("count", "sides", "steps"), PIPELINES, ids=lambda v: str(v))
def test_exact_chances_match_a_brute_force_enumeration(tmp_path: Path, count: int, sides: int, steps) -> None:
    text = " ".join(_written(k, a) for k, a in steps)
    reach = sorted({r for drm in range(-2, 3) for r in _brute(count, sides, steps, drm)})
    rows = " ".join(f'{r}: "{r}"' for r in reach)
    chart_text = f'chart c "C" {{ roll {count}d{sides} {text} column r: text rows {{ {rows} }} }}'
    comp = compile_text(tmp_path, HEADER + chart_text)
    chart = comp.project.games["t"].chart("c")
    assert chart is not None and [s.text for s in chart.pipeline] == [_written(k, a)[5:] for k, a in steps]
    # the rolls the table is printed for: the arithmetic without its clamps, which hold a roll inside
    printed = [(k, a) for k, a in steps if k not in ("minimum", "maximum")]
    assert table_rolls(chart) == list(_brute(count, sides, printed, 0))
    for drm in range(-2, 3):
        want = _brute(count, sides, steps, drm)
        assert modified_distribution(chart, drm) == want, drm
        got = {str(ro.row.values[0]): ro.probability for ro in chances(chart, (), drm).rows if ro.probability}
        assert got == {str(r): p for r, p in want.items()}, drm


def test_the_drms_come_right_after_the_dice_unless_a_step_places_them(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path,
        HEADER
        + 'chart a "A" { roll 1d6 then doubled column r: int rows { 1-14: 1 } }\n'
        + 'chart b "B" { roll 1d6 then doubled then drms column r: int rows { 1-14: 1 } }\n',
    )
    game = comp.project.games["t"]
    a, b = game.chart("a"), game.chart("b")
    assert a is not None and b is not None
    assert [s.text for s in a.pipeline] == ["drms", "doubled"] and [s.text for s in b.pipeline] == ["doubled", "drms"]
    # a die of 3 with a +1 DRM: (3 + 1) x 2 = 8 when the DRM is on the die, 3 x 2 + 1 = 7 after
    assert lookup(a, "3", {}, 1).modified == 8 and lookup(b, "3", {}, 1).modified == 7


def test_the_older_spellings_are_steps(tmp_path: Path) -> None:
    # `1d6 minus 3 min 0` is the dice, the DRMs, minus 3, minimum 0 (IA2 7.1.5: the DRMs are on the
    # roll, before the subtraction); `modified clamp LOW to HIGH` ends the steps
    comp = compile_text(
        tmp_path,
        HEADER
        + 'chart old "Old" { roll 1d6 minus 3 min 0 column r: int rows { 0-4: 1 } }\n'
        + 'chart new "New" { roll 1d6 then drms then minus 3 then minimum 0 column r: int rows { 0-4: 1 } }\n'
        + 'chart cap "Cap" { roll 1d10 then doubled modified clamp 1 to 10 column r: int rows { 1-10: 1 } }\n',
    )
    game = comp.project.games["t"]
    old, new, cap = game.chart("old"), game.chart("new"), game.chart("cap")
    assert old is not None and new is not None and cap is not None
    assert [s.text for s in old.pipeline] == [s.text for s in new.pipeline] == ["drms", "minus 3", "minimum 0"]
    assert lookup(old, "3", {}, 1).modified == 1  # 3 + 1 - 3, where the DRM was once added after: 0 + 1
    assert [s.text for s in cap.pipeline] == ["drms", "doubled", "minimum 1", "maximum 10"]
    assert [lookup(cap, str(n), {}, 0).modified for n in (1, 5, 6, 10)] == [2, 10, 10, 10]


# ---- the corpus: IA2 7.1.5 flak and 10.16 Operation Bodenplatte -------------------------------------


def test_ia2_flak_reads_the_die(run) -> None:
    # IA2 7.1.5: "Roll 1d6 ... and subtract 3. This will be the number of random hits the bomber will
    # have taken from flak (from zero to 3, maximum.)": a player who rolls a 2 takes 0 hits
    out = run("lookup", "ia2/flak", "2").output
    assert out.splitlines() == [
        "ia2/flak Flak damage to bombers (rule 7.1.5)",
        "  roll 1d6 2, -3 -> -1, minimum 0 -> 0, maximum 3 -> 0",
        "  modified roll 0 -> row 0",
        "  Random Airframe hits: 0",
        "  Damage chart: \u2013",
    ]
    six = json.loads(run("lookup", "ia2/flak", "6", "--json").output)
    assert (six["natural"], six["modified"], six["values"]) == (6, 3, {"hits": 3, "damage": {"chart": "B3"}})
    assert six["steps"] == [
        {"step": "drms", "amount": 0, "roll": 6},
        {"step": "add", "amount": -3, "roll": 3},
        {"step": "minimum", "amount": 0, "roll": 3},
        {"step": "maximum", "amount": 3, "roll": 3},
    ]
    refused = run("lookup", "ia2/flak", "0")  # the die has no 0 face (before, 0 was read as 0 hits)
    assert refused.exit_code == 1 and "0 cannot be rolled on 1d6: natural rolls run 1 to 6" in refused.output


def test_bodenplatte_flak_adds_the_iff_drm_to_the_die(run, ia2) -> None:
    # IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)" and "Add a +1 drm to the Flak
    # attack roll if you have taken an FuG25 IFF hit": the die plus 1, less 3, held to 0..3
    chart = ia2.chart("bodenplatte_flak")
    without = {ro.row.values[0]: ro.probability for ro in chances(chart, (), 0).rows}
    assert without == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    hit = {ro.row.values[0]: ro.probability for ro in chances(chart, (), 1).rows}
    assert hit == {0: Fraction(1, 3), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 3)}  # dice 1-2: 0; 6: 3
    assert chances(chart, (), 1).no_row == 0  # no roll falls off the table: 6 + 1 - 3 = 4 reads 3
    out = run("lookup", "ia2/bodenplatte_flak", "6", "--when", "iff_hit").output
    iff = "FuG25 IFF hit (Dutch A/F Objective Area box)"
    assert f"  roll 1d6 6, {iff} +1 -> 7, -3 -> 4, minimum 0 -> 4, maximum 3 -> 3\n" in out
    assert "  Random hits: 3\n" in out
    odds = run("odds", "ia2/bodenplatte_flak", "--when", "iff_hit").output
    assert "  the roll: 1d6, then drms, -3, minimum 0, maximum 3\n" not in odds
    assert "  the roll: 1d6, then DRMs, -3, minimum 0, maximum 3\n" in odds
    assert "  0     1/3 (33.3%)  0 | \u2013\n" in odds and "  3     1/3 (33.3%)  3 | see B6\n" in odds
    doc = json.loads(run("odds", "ia2/bodenplatte_flak", "--when", "iff_hit", "--json").output)
    assert doc["pipeline"][0] == {"step": "drms"} and [r["probability"]["exact"] for r in doc["rows"]] == [
        "1/3",
        "1/6",
        "1/6",
        "1/3",
    ]


def test_the_checker_finds_nothing_off_the_flak_tables(corpus) -> None:
    # before the steps were data, 10.16's +1 was added after "subtract 3" and the minimum, and a die
    # of 6 made a modified 4 off the table (C305)
    flak = [d for d in corpus.diagnostics if "flak" in d.message and d.span.file.startswith("charts/ia2")]
    # the print's own question (where the +1 goes, whether the 3 maximum holds with it) is the one finding:
    # a conflict kept as printed (C481, a note), nothing off the table
    assert [(d.code, d.message.split("`")[1]) for d in flak] == [("C481", "bodenplatte_flak_maximum")]


def test_the_books_do_arithmetic_on_a_roll_only_in_ia2_flak(corpus) -> None:
    # The four books searched for "subtract", "halve", "half", "double", "maximum", "minimum", "add"
    # and "rounded" applied to a roll: IA2 7.1.5 and 10.16 ("Roll 1d6 and subtract 3 ... from 0 to 3,
    # maximum") are the two. Elsewhere an addition to a roll is a DRM, and the halving, doubling and
    # rounding count something else (USAAF 22.1 production, Stuka Leader's Damaged Target Hits and
    # VPs, AA f's to-hit percentage); docs/language.md "Where the books do arithmetic on a roll"
    with_steps = sorted(f"{game_id}/{c.address}" for game_id, game in corpus.project.games.items()
                        for c in game.charts if c.arithmetic)
    assert with_steps == ["ia2/bodenplatte_flak", "ia2/flak"]
    # Stuka Leader L437: "roll a D10, add your Pilot's AtA stat, the Aircraft Maneuver value, and the
    # WP Penalty. Subtract the Bandit's AtA Skill": the d10 and four DRMs, no other step
    maneuver = corpus.project.games["stuka_leader"].chart("maneuver_roll")
    assert [s.kind.value for s in maneuver.roll_steps] == ["drms"]
    assert [d.id for d in maneuver.drms] == ["pilot_ata", "mn", "wp", "bandit_ata"]


def test_the_generated_module_takes_the_die(ia2) -> None:
    gen = import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_roll_steps")
    assert [gen.lookup_flak(die)["hits"] for die in range(1, 7)] == [0, 0, 0, 1, 2, 3]  # IA2 7.1.5
    assert [gen.lookup_bodenplatte_flak(die, drm=1)["hits"] for die in range(1, 7)] == [0, 0, 1, 2, 3, 3]  # 10.16
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"{bad} cannot be rolled on 1d6"):
            gen.lookup_flak(bad)
    rolled = gen.roll_bodenplatte_flak(random.Random(4), drm=gen.drm_bodenplatte_flak(iff_hit=True))
    natural = random.Random(4).randint(1, 6)
    roll = natural + 1 - 3
    assert rolled["natural"] == natural and rolled["modified"] == max(0, min(3, roll))
    assert rolled["steps"] == (("drms", 1, natural + 1), ("add", -3, roll), ("minimum", 0, max(0, roll)),
                               ("maximum", 3, max(0, min(3, roll))))
    assert rolled["values"] == gen.lookup_bodenplatte_flak(natural, drm=1)


def test_the_vectors_are_die_faces_and_the_results(ia2) -> None:
    # `chartc vectors`: each natural roll the dice show, the modified roll after the steps, the row
    entry = next(e for e in game_vectors(ia2)["charts"] if e["chart"] == "flak")  # type: ignore[index]
    (case,) = entry["cases"]
    assert [(n, m) for n, m, _ in case["rolls"]] == [(1, 0), (2, 0), (3, 0), (4, 1), (5, 2), (6, 3)]
    boden = next(e for e in game_vectors(ia2)["charts"] if e["chart"] == "bodenplatte_flak")  # type: ignore[index]
    with_iff = next(c for c in boden["cases"] if c["context"] == {"iff_hit": True})
    assert [(n, m) for n, m, _ in with_iff["rolls"]] == [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 3)]


# ---- the checks reason about the steps' results ---------------------------------------------------


def _findings(tmp_path: Path, chart: str) -> list[str]:
    comp = compile_text(tmp_path, HEADER + chart)
    return [f"{d.code}: {d.message}" for d in comp.diagnostics]


def test_gaps_are_the_results_no_row_holds(tmp_path: Path) -> None:
    # a doubled 1d6 reads 2, 4, ..., 12: odd numbers are never rolled, so they are no gap
    whole = 'chart d "D" { roll 1d6 then doubled column r: int rows { 2: 1 4: 2 6: 3 8: 4 10: 5 12: 6 } }'
    assert _findings(tmp_path / "a", whole) == []
    short = 'chart d "D" { roll 1d6 then doubled column r: int rows { 2: 1 4: 2 6: 3 10: 5 12: 6 } }'
    assert _findings(tmp_path / "b", short) == ["C302: roll 8 selects no row of chart `d`"]


def test_reach_and_unreachable_rows_follow_the_steps(tmp_path: Path) -> None:
    # 1d6 - 3, minimum 0 reads 0..3: a row `4` can never be selected without a DRM
    rows = "rows { 0: 0 1: 1 2: 2 3: 3 4: 4 }"
    unreachable = f'chart f "F" {{ roll 1d6 then minus 3 then minimum 0 column r: int {rows} }}'
    assert _findings(tmp_path / "a", unreachable) == [
        "C306: row `4` of chart `f` can never be selected: 1d6, -3, minimum 0 rolls 0 to 3"
    ]
    # the +1 on the die makes a 4 after "subtract 3" (C305) unless a maximum holds it
    drm = 'drm iff "IFF" +1 when iff'
    rows = "rows { 0: 0 1: 1 2: 2 3: 3 }"
    off = f'chart f "F" {{ roll 1d6 then drms then minus 3 then minimum 0 column r: int {drm} {rows} }}'
    found = _findings(tmp_path / "b", off)
    assert found == ["C305: modified roll 4 (DRM `iff` +1) falls off the highest row of chart `f`"]
    held = off.replace("then minimum 0", "then minimum 0 then maximum 3")
    assert _findings(tmp_path / "c", held) == []


# ---- the language: worked examples, fmt, JSON ------------------------------------------------------


def test_a_worked_example_reads_the_steps(tmp_path: Path) -> None:
    chart = (
        'chart f "F" { rule "10.16" roll 1d6 then drms then minus 3 then minimum 0 then maximum 3 '
        'column hits: int drm iff "IFF" +1 when iff rows { 0: 0 1: 1 2: 2 3: 3 } }\n'
    )
    good = (
        'example e "Flak with the IFF hit" { rule "10.16" chart f roll 6 when iff '
        "expect modified 3 expect hits = 3 }"
    )
    assert codes(compile_text(tmp_path / "a", HEADER + chart + good)) == []
    wrong = good.replace("expect modified 3", "expect modified 4")  # 6 + 1 - 3 = 4, but at most 3
    assert codes(compile_text(tmp_path / "b", HEADER + chart + wrong)) == ["C460"]


def test_fmt_keeps_the_steps_on_the_roll_line() -> None:
    roll = "  roll 1d6   then drms\n    then minus 3 then  minimum 0\n"
    text = HEADER + 'chart f "F" {\n' + roll + '  column r: int\n  rows {\n    0-3: 1\n  }\n}\n'
    formatted = format_text(text, "f.chart")
    assert "  roll 1d6 then drms then minus 3 then minimum 0\n" in formatted
    assert format_text(formatted, "f.chart") == formatted
    assert syntax_tree_without_spans(formatted, "f.chart") == syntax_tree_without_spans(text, "f.chart")


def test_the_game_json_carries_the_steps_and_the_schema_holds_them(tmp_path: Path) -> None:
    chart = 'chart f "F" { roll 2d6 then halved round up then drms then maximum 5 column r: int rows { 1-5: 1 } }'
    comp = compile_text(tmp_path, HEADER + chart)
    doc = json.loads(emit_game_json(comp.project.games["t"]))
    (f,) = doc["charts"]
    assert f["pipeline"] == [{"step": "halve", "rounding": "up"}, {"step": "drms"}, {"step": "maximum", "amount": 5}]
    assert f["dice"]["text"] == "2d6" and [o["roll"] for o in f["dice"]["outcomes"]] == list(range(2, 13))
    schema = validator(Schema.GAME)
    assert list(schema.iter_errors(doc)) == []
    f["pipeline"] = [{"step": "maximum", "amount": 5}]  # a pipeline without its DRM step
    assert list(schema.iter_errors(doc))
    f["pipeline"] = [{"step": "drms"}, {"step": "halve", "rounding": "nearest"}]
    assert list(schema.iter_errors(doc))


def test_lookup_refuses_a_face_the_dice_cannot_show(ia2) -> None:
    with pytest.raises(LookupProblem, match="7 cannot be rolled on 1d6"):
        lookup(ia2.chart("bodenplatte_flak"), "7", {}, 0)


def test_rows_after_arithmetic_hold_numbers_and_natural_rows_hold_faces(tmp_path: Path) -> None:
    # on a d10 a printed `0` is the die's 0 face, read as 10; after "subtract 5, minimum 0" a row's
    # `0` is the number 0. A `natural` row still reads what the die shows.
    rows = "rows { 0 natural: 9 0: 0 1-5: 1 }"
    text = f'chart h "H" {{ roll 1d10 then minus 5 then minimum 0 zero reads 10 column r: int {rows} }}'
    comp = compile_text(tmp_path, HEADER + text)
    assert codes(comp) == []
    chart = comp.project.games["t"].chart("h")
    assert chart is not None
    assert [(r.range.low, r.range.high) for r in chart.rows if r.range] == [(10, 10), (0, 0), (1, 5)]
    assert [lookup(chart, die, {}, 0).values()["r"] for die in ("0", "3", "5", "7", "9")] == [9, 0, 0, 1, 1]
