"""Choices: a cell that offers outcomes for the player to choose from (`one of [a, b]`), distinct
from a roll in the cell, which is random; and a chart of rule values, read by nothing (one row).

Stuka Leader's Ace award (Dogfighting: Aces, L474-476, L621): "their choice of a +1 AtA or a +1 AtG
counter", and +1 VP at the end of the Campaign if the Ace is still alive.
"""

from __future__ import annotations

import json
from pathlib import Path

from compiler import model
from compiler.emit.json import emit_game_json
from compiler.engine.lookup import lookup
from compiler.tools.table_export import export_csv
from dsl import ast
from dsl.parser import parse_text
from tests.conftest import ROOT, codes, compile_text, import_module

ACES = ("+1 AtA counter", "+1 AtG counter")

# IA2 R1 footnote 3: II/ZG 76 flies the Bf 110G-2/R3 w. Wf.Gr.21 or, as an optional start, the Me 410A-1/U2
LAB = """
game t { title "T" }
enum aircraft { bf110 "Bf 110G-2/R3 w. Wf.Gr.21" me410 "Me 410A-1/U2" one "One" }
chart [S] start "Start" {
  rule "4.1"
  roll 1d6
  column aircraft: aircraft "Aircraft"
  rows {
    1-4: one of [bf110, me410]
    5:   one
    6:   -> 1d3 { 1-2: bf110; 3: me410 }
  }
}
"""


def test_a_choice_parses_into_its_options_and_one_stays_a_value() -> None:
    chart = parse_text(LAB, "c.chart").source.charts[0]
    choice, named = chart.rows[0].values[0], chart.rows[1].values[0]
    assert choice.kind is ast.ValueKind.CHOICE and choice.text == "one of [bf110, me410]"
    assert [o.text for o in choice.options] == ["bf110", "me410"]
    assert named.kind is ast.ValueKind.NAME and named.text == "one"  # a member named `one` is still a value


def test_a_choice_is_read_and_its_chance_is_its_rows(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, LAB)
    assert codes(comp) == []
    chart = comp.project.games["t"].chart("S")
    assert chart is not None
    row = lookup(chart, "3", {}, 0).row
    assert row.values[0] == model.Choice((model.MemberId("bf110"), model.MemberId("me410")))
    assert json.loads(emit_game_json(comp.project.games["t"]))["charts"][0]["rows"][0]["values"] == {
        "aircraft": {"choice": ["bf110", "me410"]}
    }


def test_lookup_odds_and_export_show_a_choice(run) -> None:
    out = run("lookup", "stuka_leader/ace_award").output
    counter = "Counter (placed on the Pilot card during Debriefing)"
    assert f"{counter}: your choice of +1 AtA counter or +1 AtG counter" in out
    assert "VP at the end of the Campaign, if the Ace is still alive: 1" in out
    doc = json.loads(run("lookup", "stuka_leader/ace_award", "--json").output)
    assert doc["values"] == {"counter": {"choice": list(ACES)}, "vp": 1}
    assert run("export", "stuka_leader/ace_award", "--csv").output.splitlines()[1] == (
        '"one of [""+1 AtA counter"", ""+1 AtG counter""]",1'
    )


def test_the_chance_table_prints_the_choice(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from compiler.cli import cli

    compile_text(tmp_path, LAB)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli, ["odds", "t/S"]).output
    assert "1-4   2/3 (66.7%)  your choice of Bf 110G-2/R3 w. Wf.Gr.21 or Me 410A-1/U2" in out


def test_the_module_and_the_aid_carry_the_choice(corpus_outputs) -> None:
    gen = import_module(ROOT / "generated" / "stuka_leader" / "stuka_leader.py", "stuka_choice")
    assert gen.lookup_ace_award() == {"counter": {"choice": ACES}, "vp": 1}
    html = corpus_outputs()["stuka_leader/stuka_leader.html"]
    assert '<td class="text">your choice of +1 AtA counter or +1 AtG counter</td>' in html


def test_a_chart_of_rule_values_is_read_by_nothing(corpus) -> None:
    chart = corpus.project.games["stuka_leader"].chart("ace_award")
    assert chart is not None and chart.kind is model.ChartKind.REFERENCE and chart.keys == ()
    assert lookup(chart, None, {}, 0).values()["vp"] == 1
    assert export_csv(chart).splitlines()[0] == (
        "Counter (placed on the Pilot card during Debriefing),"
        '"VP at the end of the Campaign, if the Ace is still alive"'
    )


def test_a_roll_in_a_cell_may_not_give_a_choice(tmp_path: Path) -> None:
    text = LAB.replace("-> 1d3 { 1-2: bf110; 3: me410 }", "-> 1d3 { 1-2: bf110; 3: one of [bf110, me410] }")
    comp = compile_text(tmp_path, text)
    [finding] = [d for d in comp.diagnostics if d.code == "C455"]
    assert finding.message == (
        "a roll in column `aircraft` gives a choice: the outcomes of a roll are results, not choices"
    )
