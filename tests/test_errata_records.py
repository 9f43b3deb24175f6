"""Errata on reference data (issue 31): a record field amended through its enum, with its reason; and
one game whose errata amend a CRT grid cell, a record field and a DRM, each shown in every output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.errata.printing import AS_PRINTED
from compiler.tools.diff import diff_projects, errata_sheet_html
from tests.conftest import codes, compile_text
from tests.test_errata_cells import ERRATA as CELL_ERRATA
from tests.test_errata_cells import GAME as CRT_GAME

RECORDS = '''enum aircraft "Aircraft" {
  fields { ammo: int "Ammunition"  speed: int "Speed" }
  bf109g6 "Bf 109G-6" { ammo: 4 speed: 3 }
  fw190a8 "FW 190A-8" { ammo: 5 speed: 2 }
}
context fb: flag "F/B attack"
chart [R4] escape "Escape Chart" { rule "7.1.10" roll 1d6 column result: text "Result"
  drm fb "F/B Attack" +1 when fb
  rows { 2-: "Safe escape"  3+: "Combat" } }
'''

ERRATA = '''errata rec2021 "Official errata (2021), records" { date "2021-03"
  amend aircraft { change record bf109g6 field ammo to 6 because "9.1: the G-6 carries 6 ammunition" }
  amend R4 { change drm fb to +2 because "7.1.10: an F/B attack is +2" }
}
'''


def test_errata_change_a_record_field(tmp_path: Path) -> None:
    # IA2 errata 2021 style: an aircraft record's printed ammunition corrected
    comp = compile_text(tmp_path, 'game t { title "Test game" }\n' + RECORDS + ERRATA)
    assert comp.diagnostics == []
    g6, a8 = comp.project.games["t"].enums["aircraft"].members
    assert (g6.get("ammo"), g6.printed, g6.errata, g6.because) == (
        6, {"ammo": "4"}, ("rec2021",), ("9.1: the G-6 carries 6 ammunition",))
    assert (a8.get("ammo"), a8.errata) == (5, ())
    printed = compile_text(tmp_path / "p", 'game t { title "Test game" }\n' + RECORDS)
    assert printed.project.games["t"].enums["aircraft"].members[0].get("ammo") == 4


@pytest.mark.parametrize(
    "amend, code, message",
    [
        ("change record bf109g7 field ammo to 6", "C601", "changes record `bf109g7`, which enum `aircraft`"),
        ("change record bf109g6 field amo to 6", "C601", "changes field `amo`, which record `bf109g6` does not give"),
        ("change record bf109g6 field ammo to 4", "C603", "to the value it already has (`4`)"),
        ("change 1-2 column x to 3", "C601", "whose records take only `change record MEMBER field FIELD to VALUE`"),
    ],
)
def test_record_errata_naming_nothing_or_doing_nothing(tmp_path: Path, amend: str, code: str, message: str) -> None:
    errata = f'errata e1 "E" {{ amend aircraft {{ {amend} }} }}'
    comp = compile_text(tmp_path, 'game t { title "T" }\n' + RECORDS + errata)
    found = [d for d in comp.diagnostics if d.code == code]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_a_record_field_on_a_chart_and_two_errata_on_one_field(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "T" }\n' + RECORDS
                        + 'errata e1 "E" { amend R4 { change record bf109g6 field ammo to 6 } }')
    assert [d.message for d in comp.diagnostics if d.code == "C601"] == [
        "errata `e1` changes a record field, but it amends chart `R4`"]
    twice = ('errata e1 "E1" { order 1 amend aircraft { change record bf109g6 field ammo to 6 } }\n'
             'errata e2 "E2" { order 2 amend aircraft { change record bf109g6 field ammo to 7 } }\n')
    assert "C602" in codes(compile_text(tmp_path / "b", 'game t { title "T" }\n' + RECORDS + twice))
    settled = twice.replace("order 2 amend", "order 2 overrides e1 amend")
    comp = compile_text(tmp_path / "c", 'game t { title "T" }\n' + RECORDS + settled)
    assert "C602" not in codes(comp) and comp.project.games["t"].enums["aircraft"].members[0].get("ammo") == 7


def test_a_crt_cell_a_record_field_and_a_drm_corrected_in_every_output(tmp_path: Path) -> None:
    # issue 31's acceptance: one game's errata amend a CRT grid cell, a record field and a DRM
    compile_text(tmp_path, CRT_GAME + RECORDS + CELL_ERRATA + ERRATA)
    amended = load([tmp_path / "charts"])
    assert amended.diagnostics == []
    out = render_outputs(amended.project)
    doc = json.loads(out["t/t.json"])
    g6 = next(e for e in doc["enums"] if e["id"] == "aircraft")["members"][0]
    assert g6["fields"]["ammo"] == 6 and g6["errata"]["printed"] == {"ammo": "4"}
    r4 = next(c for c in doc["charts"] if c["address"] == "R4")
    assert r4["drms"][0]["printed"]["value"] == 1 and r4["drms"][0]["because"] == ["7.1.10: an F/B attack is +2"]
    html = out["t/t.html"]
    assert '<td>DR<sup class="errata">E1</sup></td>' in html and '(printed +1)</span><sup class="errata">E2' in html
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, amended.project)
    assert [(c.chart, c.where, c.old, c.new, c.reason) for c in changes if c.chart in ("R4", "aircraft", "CRT")] == [
        ("CRT", "odds 2:1, roll 3-4: Result", "EX (Exchange)", "DR (Defender retreats)",
         "15.1: a 2:1 attack that rolls 3-4 retreats the defender"),
        ("R4", "DRM F/B Attack", "+1", "+2", "7.1.10: an F/B attack is +2"),
        ("aircraft", "record Bf 109G-6: Ammunition", "4", "6", "9.1: the G-6 carries 6 ammunition"),
    ]
    sheet = errata_sheet_html(changes, {"t": "Test game"}, "as printed", "with errata")
    assert "<td>4 → 6</td><td>9.1: the G-6 carries 6 ammunition</td>" in sheet


NOTES = '''game t { title "T" }
chart [N1] noted "Noted chart" { rule "8.1" roll 1d6 column result: text "Result"
  footnote 1 "Roll twice at night."
  note "Only bombers."
  rows { 1-3: "Miss"  4-6: "Hit" } }
'''


def test_errata_reword_a_footnote_and_a_note(tmp_path: Path) -> None:
    # a footnote and a note corrected by the errata, each kept as printed in the marks
    comp = compile_text(tmp_path, NOTES + 'errata n1 "Notes errata" { amend N1 { change footnote 1 to '
                        '"Roll once at night." because "8.1 says once" change note 1 to "Only heavy bombers." } }')
    assert comp.diagnostics == []
    n1 = comp.project.games["t"].chart("N1")
    assert [f.text for f in n1.footnotes] == ["Roll once at night."] and n1.notes == ("Only heavy bombers.",)
    assert n1.errata.printed_notes == (("n1", "footnote 1", "Roll twice at night."), ("n1", "note 1", "Only bombers."))
    out = render_outputs(comp.project)
    chart = json.loads(out["t/t.json"])["charts"][0]
    printed = {"errata": "n1", "which": "footnote 1", "text": "Roll twice at night."}
    assert chart["errata"]["printed_notes"][0] == printed
    assert "Footnote 1 as printed: Roll twice at night. Note 1 as printed: Only bombers. Reason: 8.1 says once." in (
        out["t/t.html"])
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, load([tmp_path / "charts"]).project)
    assert [(c.where, c.old, c.new) for c in changes] == [
        ("footnote 1", "Roll twice at night.", "Roll once at night."),
        ("note 1", "Only bombers.", "Only heavy bombers."),
    ]


@pytest.mark.parametrize(
    "amend, code",
    [("change footnote 2 to \"x\"", "C601"), ("change note 3 to \"x\"", "C601"),
     ("change note 1 to \"Only bombers.\"", "C603")],
)
def test_note_errata_naming_nothing_or_doing_nothing(tmp_path: Path, amend: str, code: str) -> None:
    comp = compile_text(tmp_path, NOTES + f'errata n1 "E" {{ amend N1 {{ {amend} }} }}')
    assert codes(comp) == [code]
