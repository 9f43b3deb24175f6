"""The newer dice forms and rows below zero through the whole pipeline: parse, resolve, chances
(against brute force), `chartc lookup`/`odds`, the generated Python and the schema-valid JSON."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler import model
from compiler.build.render import render_outputs
from compiler.checks.dice import unreachable_reason
from compiler.cli import cli
from compiler.engine.chances import chances, dice_variants
from compiler.engine.repeated import repeated_chances
from compiler.model.dice import Dice
from dsl.ast import Span
from tests.conftest import codes, compile_text, import_module

SPAN = Span("t.chart", 1, 1, 1, 2)

CHARTS = """game t { title "Dice forms" }
context fb_attack: flag "F/B attack"
context veteran: flag "Veteran pilot"
# IA2 7.2.2.7: each side rolls 1d6 and the difference decides who has the initiative
chart [I1] "Opposed initiative" {
  rule "7.2.2.7"
  roll 1d6 versus 1d6
  column side: text "Initiative"
  rows {
    -5--1: "Allied"
    0:     "Roll again"
    1-5:   "German"
  }
}
# a CRT column printed down to modified rolls below zero
chart [C1] "Combat" {
  roll 1d6
  column result: text "Result"
  drm odds_down "Attacker in woods" -3 when fb_attack
  rows {
    -2-:   "AE"
    -1-0:  "AR"
    1-3:   "EX"
    4+:    "DR"
  }
}
chart [A1] "Ability" {
  roll highest 3 of 4d6
  column result: text "Result"
  rows {
    3-8:   "Poor"
    9-14:  "Fair"
    15-18: "Good"
  }
}
# USAAF 19.3 optional: three FLAK rolls instead of one, each read separately
chart [F1] "FLAK" {
  roll 1d10
  zero reads 0
  repeat 3
  column hits: int "Hits"
  rows {
    0-6: 0
    7-8: 1
    9:   2
  }
}
# Stuka Leader evasion: a veteran rolls two D10 and uses the lower, anyone else one D10
chart [E1] "Evasion" {
  roll lower of 2d10 when veteran
  roll 1d10
  column result: text "Result"
  rows {
    1-3: "Hit"
    4-0: "Evaded"
  }
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    comp = compile_text(tmp_path_factory.mktemp("forms"), CHARTS)
    assert codes(comp) == []
    return comp.project.games["t"]


def test_negative_rows_read_as_printed(game) -> None:
    rows = {r.range.printed: (r.range.low, r.range.high) for r in game.chart("C1").rows}
    assert rows == {"-2-": (None, -2), "-1-0": (-1, 0), "1-3": (1, 3), "4+": (4, None)}
    assert [(r.range.low, r.range.high) for r in game.chart("I1").rows] == [(-5, -1), (0, 0), (1, 5)]


def test_opposed_roll_chances_match_brute_force(game) -> None:
    chart = game.chart("I1")
    result = chances(chart, (), 0)
    diffs = Counter(a - b for a, b in itertools.product(range(1, 7), repeat=2))
    allied = F(sum(n for d, n in diffs.items() if d < 0), 36)
    german = F(sum(n for d, n in diffs.items() if d > 0), 36)
    brute = [allied, F(diffs[0], 36), german]
    assert [ro.probability for ro in result.rows] == brute == [F(15, 36), F(6, 36), F(15, 36)]


def test_modified_rolls_below_zero_select_their_rows(game) -> None:
    # 1d6 - 3: a natural 1 is -2 (AE), 2-3 are -1..0 (AR), 4-6 are 1..3 (EX)
    result = chances(game.chart("C1"), (), -3)
    assert [ro.probability for ro in result.rows] == [F(1, 6), F(2, 6), F(3, 6), F(0)] and result.no_row == 0


def test_repeated_roll_chances_match_brute_force(game) -> None:
    chart = game.chart("F1")
    single = chances(chart, (), 0)
    repeated = repeated_chances(single, chart.repeat)
    throws = list(itertools.product(range(10), repeat=3))  # a 0-9 d10, three rolls

    def row_of(face: int) -> int:
        return 0 if face <= 6 else 1 if face <= 8 else 2

    for index, ro in enumerate(repeated.rows):
        seen = sum(1 for t in throws if index in map(row_of, t))
        count = sum(list(map(row_of, t)).count(index) for t in throws)
        assert ro.at_least_once == F(seen, len(throws))
        assert ro.expected_count == F(count, len(throws))
    assert repeated.rows[2].at_least_once == F(271, 1000)  # 1 - 0.9^3


def test_generated_module_rolls_and_reads_every_form(game, tmp_path: Path) -> None:
    outputs = render_outputs_for(game)
    path = tmp_path / "t_forms.py"
    path.write_text(outputs["t/t.py"], encoding="utf-8")
    module = import_module(path, "t_forms")
    assert module.lookup_i1(-3) == {"side": "Allied"}
    assert module.lookup_c1(1, drm=-3) == {"result": "AE"}
    assert module.lookup_f1(0) == {"hits": 0}
    with pytest.raises(ValueError, match="cannot be rolled"):
        module.lookup_f1(10)  # a 0-9 die has no 10
    rng = random.Random(1944)
    three = module.rolls_f1(rng)
    assert len(three) == 3 and all(0 <= r["natural"] <= 9 for r in three)
    assert {module.roll_a1(rng)["natural"] for _ in range(500)} <= set(range(3, 19))
    assert {module.roll_i1(rng)["natural"] for _ in range(500)} == set(range(-5, 6))


def render_outputs_for(game) -> dict[str, str]:
    """The JSON, Python and HTML of the one game (the JSON validated against the schema)."""
    return render_outputs(model.Project({game.id: game}))


def test_json_carries_the_forms(game) -> None:
    doc = json.loads(render_outputs_for(game)["t/t.json"])  # render_outputs validates the schema
    dice = {c["address"]: c["dice"] for c in doc["charts"]}
    assert dice["I1"]["form"] == "versus" and dice["I1"]["versus"] == {"count": 1, "sides": 6}
    assert (dice["I1"]["min"], dice["I1"]["max"]) == (-5, 5)
    assert dice["A1"]["form"] == "highest" and dice["A1"]["keep"] == 3
    assert dice["A1"]["text"] == "4d6, keep the highest 3"
    assert dice["F1"]["zero_reads"] == 0 and dice["F1"]["repeat"] == 3
    rows = {c["address"]: c["rows"] for c in doc["charts"]}
    assert [(r["range"]["min"], r["range"]["max"]) for r in rows["C1"]][:2] == [(None, -2), (-1, 0)]


def test_player_aid_prints_the_dice_as_a_rulebook(game) -> None:
    html = render_outputs_for(game)["t/t.html"]
    assert "Roll (4d6, keep the highest 3)" in html
    assert "Roll (1d10 (0 reads as 0)), 3 times" in html
    assert "-5--1" in html


@pytest.fixture
def charts_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "forms.chart").write_text(CHARTS, encoding="utf-8")
    return tmp_path / "charts"


def test_cli_lookup_takes_a_negative_natural_roll(charts_dir: Path) -> None:
    # an opposed roll's natural result is negative; `--` keeps click from reading -3 as an option
    result = CliRunner().invoke(cli, ["lookup", "t/I1", "--charts", str(charts_dir), "--", "-3"])
    assert result.exit_code == 0, result.output
    assert "roll -3 -> row -5--1" in result.output and "Allied" in result.output
    below = CliRunner().invoke(cli, ["lookup", "t/C1", "2", "--drm", "-3", "--charts", str(charts_dir)])
    assert below.exit_code == 0 and "row -1-0" in below.output and "AR" in below.output


def test_cli_odds_shows_repeated_roll_chances(charts_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["odds", "t/F1", "--charts", str(charts_dir)])
    assert result.exit_code == 0, result.output
    assert "rolled 3 times, each roll read separately:" in result.output
    assert "271/1000 (27.1%)" in result.output  # row 9 at least once in three rolls
    doc = json.loads(CliRunner().invoke(cli, ["odds", "t/F1", "--charts", str(charts_dir), "--format", "json"]).output)
    assert doc["repeat"]["times"] == 3
    assert doc["repeat"]["rows"][2]["at_least_once"]["exact"] == "271/1000"
    assert doc["repeat"]["rows"][0]["expected_count"]["exact"] == "21/10"  # 3 x 7/10


def test_alternative_dice_chances_are_per_dice(game) -> None:
    chart = game.chart("E1")
    # one D10: 1-3 is 3 in 10; the lower of two D10 is 3 or less unless both dice show 4+: 1 - (7/10)^2
    assert [ro.probability for ro in chances(chart, (), 0).rows] == [F(3, 10), F(7, 10)]
    [alt] = chart.dice_alternatives
    [_, variant] = dice_variants(chart)
    assert variant.dice == alt.dice and alt.dice.text == "lower of 2d10"
    throws = list(itertools.product(range(1, 11), repeat=2))
    hit = F(sum(1 for t in throws if min(t) <= 3), len(throws))
    assert [ro.probability for ro in chances(variant, (), 0).rows] == [hit, 1 - hit] == [F(51, 100), F(49, 100)]


def test_reachability_is_the_union_of_the_dice(tmp_path: Path) -> None:
    text = """game t { title "T" }
context veteran: flag "Veteran pilot"
chart [E2] "Evasion" {
  roll higher of 2d10 when veteran
  roll 1d6
  column result: text "Result"
  rows {
    1-6:  "Hit"
    7-10: "Evaded"
    11+:  "Never"
  }
}
"""
    comp = compile_text(tmp_path, text)
    # 7-10 only the veteran's two D10 reach: not unreachable; 11+ no dice reaches
    found = [(d.code, d.message) for d in comp.diagnostics]
    assert found == [("C306", "row `11+` of chart `E2` can never be selected: higher of 2d10 or 1d6 rolls 1 to 10")]


def test_generated_roll_uses_the_alternative_that_holds(game, tmp_path: Path) -> None:
    path = tmp_path / "t_alt.py"
    path.write_text(render_outputs_for(game)["t/t.py"], encoding="utf-8")
    module = import_module(path, "t_alt")
    rng = random.Random(1944)
    veteran = Counter(module.roll_e1(rng, veteran=True)["values"]["result"] for _ in range(4000))
    novice = Counter(module.roll_e1(rng)["values"]["result"] for _ in range(4000))
    assert 0.47 < veteran["Hit"] / 4000 < 0.55 and 0.26 < novice["Hit"] / 4000 < 0.34  # 51% and 30%
    with pytest.raises(ValueError, match="veteran"):
        module.roll_e1(rng, veteran="yes")


def test_json_and_aid_carry_the_alternatives(game) -> None:
    outputs = render_outputs_for(game)
    [chart] = [c for c in json.loads(outputs["t/t.json"])["charts"] if c["address"] == "E1"]
    [alt] = chart["dice"]["alternatives"]
    assert alt["when"] == {"op": "flag", "var": "veteran"} and alt["dice"]["form"] == "lower"
    # the alternative's chances are shaped as the chart's: the natural roll's distribution, Hit first
    natural = alt["chances"]["keys"][0]["distributions"][alt["chances"]["drms"].index(0)]
    assert alt["chances"]["distributions"][natural]["rows"][0]["exact"] == "51/100"
    assert "Roll (lower of 2d10 if Veteran pilot, else 1d10)" in outputs["t/t.html"]


def test_cli_odds_gives_each_alternative(charts_dir: Path) -> None:
    result = CliRunner().invoke(cli, ["odds", "t/E1", "--charts", str(charts_dir)])
    assert result.exit_code == 0, result.output
    assert "when Veteran pilot, roll lower of 2d10 instead:" in result.output
    assert "51/100 (51%)" in result.output and "3/10 (30%)" in result.output


def test_alternative_keywords_never_shadow_the_roll_or_a_key(tmp_path: Path) -> None:
    # a context variable named like the roll's own `drm` and like the chart's key `side`
    text = """game t { title "T" }
enum side { allied "Allied" german "German" }
context drm: int "Modifiers already counted"
context side: flag "On the attacking side"
chart [E3] "Evasion" {
  key side
  roll lower of 2d10 when side and drm > 1
  roll 1d10
  column result: text "Result"
  rows {
    * 1-3: "Hit"
    * 4-0: "Evaded"
  }
}
"""
    comp = compile_text(tmp_path, text)
    assert codes(comp) == []
    path = tmp_path / "t_names.py"
    path.write_text(render_outputs_for(comp.project.games["t"])["t/t.py"], encoding="utf-8")
    module = import_module(path, "t_names")
    rolled = module.roll_e3(random.Random(7), side="allied", drm=0, side_=True, drm_=2)
    assert rolled["drm"] == 0 and 1 <= rolled["natural"] <= 10


@pytest.mark.parametrize(
    "dice, low, high, reason",
    [
        (Dice("d66", 2, 6), 39, 39, "39 is not a d66 roll: the ones digit is 1-6"),
        (Dice("d66", 2, 6), 71, 71, "71 is not a d66 roll: the tens digit is 1-6"),
        (Dice("d66", 2, 6), 17, 19, "`17-19` holds no d66 roll: the ones digit is 1-6"),
        (Dice("d66", 2, 6), 100, 100, "100 lies outside d66, which rolls 11 to 66"),
        (Dice("sum", 1, 6), 0, 0, "0 is not a face of a d6 (1 to 6)"),
        (Dice("sum", 1, 10), 11, 17, "`11-17` lies outside 1d10, which rolls 1 to 10"),
        (Dice("sum", 1, 10), 3, 5, None),  # rollable: no reason to give
    ],
)
def test_unreachable_rows_name_the_real_reason(dice: Dice, low: int, high: int, reason: str | None) -> None:
    printed = str(low) if low == high else f"{low}-{high}"
    assert unreachable_reason(dice, model.DieRange(low, high, printed, SPAN)) == reason


def test_lookup_reads_the_natural_roll_with_the_dice_of_the_context(tmp_path: Path) -> None:
    # `roll 2d6 when not vet` + `roll 1d6`: a veteran rolls one die, so a natural 12 cannot occur;
    # with every flag false (`--read-drms`) two dice are rolled, so a natural 1 cannot (a new user's
    # charts took both, as a plain 1d6 chart refuses "7 cannot be rolled on 1d6")
    text = """game t { title "T" }
context vet: flag "Veteran"
chart a "Alt" {
  roll 2d6 when not vet
  roll 1d6
  column r: text "R"
  drm v "Vet" +1 when vet
  rows { 1-6: "low" 7+: "high" }
}
"""
    compile_text(tmp_path, text)
    charts = str(tmp_path / "charts")
    refused = {
        ("12", "--when", "vet"): "12 cannot be rolled on 1d6, the dice rolled in this context: "
        "natural rolls run 1 to 6",
        ("1", "--read-drms"): "1 cannot be rolled on 2d6, the dice rolled in this context: "
        "natural rolls run 2 to 12",
    }
    for args, message in refused.items():
        result = CliRunner().invoke(cli, ["lookup", "t/a", *args, "--charts", charts])
        assert result.exit_code == 1 and f"error: {message}\n" in result.output, result.output
    read = {("6", "--when", "vet"): "high", ("2", "--read-drms"): "low", ("12",): "high", ("1",): "low"}
    for args, row in read.items():
        # without a context the dice are not known: any roll of 2d6 or 1d6 is read
        result = CliRunner().invoke(cli, ["lookup", "t/a", *args, "--charts", charts])
        assert result.exit_code == 0 and result.output.endswith(f"R: {row}\n"), result.output
