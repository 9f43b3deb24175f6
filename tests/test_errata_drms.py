"""Errata on a chart's DRMs (issue 31): a value, a condition, a DRM removed or added, each with its
reason, and the correction shown by lookup, JSON, the module, the aid and the errata sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED
from compiler.tools.diff import diff_projects
from tests.conftest import codes, compile_text

GAME = '''game t { title "Test game" }
context fb: flag "F/B attack"
context night: flag "Night"
context leader: flag "Gruppe Leader"
enum side { piston "Piston-engined" jet "Jet or Rocket" }
chart [R4] escape "Escape Chart" { rule "7.1.10" roll 1d6 key side column result: text "Result"
  drm fb "F/B Attack" +1 when fb
  drm night_drm "Night" -2 when night
  rows { piston 2-: "Safe escape"  piston 3+: "Combat"  jet 4-: "Safe escape"  jet 5+: "Combat" } }
'''

ERRATA = '''errata e2021 "Official errata (2021)" { date "2021-03"
  amend R4 {
    change drm fb to +2 because "7.1.10: an F/B attack is +2"
    remove drm night_drm because "the night rules are optional"
    add drm leader "Gruppe Leader" -1 when leader because "7.9.1's Gruppe Leader -1 applies here too"
  }
}
'''


def test_errata_change_remove_and_add_drms(tmp_path: Path) -> None:
    # IA2 errata 2021 style: R4's F/B Attack DRM corrected to +2, Night removed, Gruppe Leader added
    comp = compile_text(tmp_path, GAME + ERRATA)
    assert comp.diagnostics == []
    r4 = comp.project.games["t"].chart("R4")
    fb, leader = r4.drms
    assert (fb.id, fb.value, fb.printed.value, fb.errata, fb.because) == (
        "fb", 2, 1, ("e2021",), ("7.1.10: an F/B attack is +2",))
    assert (leader.id, leader.value, leader.added, leader.printed) == ("leader", -1, True, None)
    [night] = r4.errata.removed_drms
    assert (night.id, night.value, night.errata, night.because) == (
        "night_drm", -2, ("e2021",), ("the night rules are optional",))


def test_every_output_shows_the_corrected_drm(tmp_path: Path, monkeypatch) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    out = render_outputs(comp.project)
    r4 = json.loads(out["t/t.json"])["charts"][0]
    assert r4["drms"][0] == {
        "id": "fb", "label": "F/B Attack", "value": 2, "when": {"op": "flag", "var": "fb"}, "footnote": None,
        "errata": ["e2021"], "because": ["7.1.10: an F/B attack is +2"],
        "printed": {"value": 1, "when": {"op": "flag", "var": "fb"}},
    }
    assert r4["drms"][1]["printed"] is None  # added by the errata
    assert [d["id"] for d in r4["errata"]["removed_drms"]] == ["night_drm"]
    html = out["t/t.html"]
    assert 'F/B Attack <span class="was">(printed +1)</span><sup class="errata">E1</sup>' in html
    assert 'Gruppe Leader <span class="was">(not in the print)</span><sup class="errata">E1</sup>' in html
    assert "Removed DRMs: Night \u22122." in html
    assert "+2 F/B Attack (errata e2021, printed +1: 7.1.10: an F/B attack is +2)" in out["t/t.py"]
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["lookup", "t/R4", "2", "--key", "side=piston", "--when", "fb", "--charts", "charts"])
    assert r.exit_code == 0, r.output
    assert "roll 2 + DRM 2 = 4 -> row 3+" in r.stdout and "Result: Combat" in r.stdout
    assert "Errata: Official errata (2021) (DRM F/B Attack printed +1): 7.1.10: an F/B attack is +2" in r.stdout
    r = CliRunner().invoke(cli, ["lookup", "t/R4", "2", "--key", "side=piston", "--when", "fb", "--charts", "charts",
                                 "--as-printed"])
    assert "roll 2 + DRM 1 = 3 -> row 3+" in r.stdout and "Errata" not in r.stdout


def test_errata_sheet_lists_each_drm_change_with_its_reason(tmp_path: Path) -> None:
    compile_text(tmp_path, GAME + ERRATA.replace(
        'remove drm night_drm', 'change drm fb when fb and night because "only at night" remove drm night_drm'))
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, load([tmp_path / "charts"]).project)
    assert [(c.where, c.old, c.new, c.reason) for c in changes] == [
        ("DRM F/B Attack", "+1", "+2", "7.1.10: an F/B attack is +2; only at night"),
        ("DRM F/B Attack: when", "F/B attack", "F/B attack and Night", "7.1.10: an F/B attack is +2; only at night"),
        ("DRM Gruppe Leader", None, "-1", "7.9.1's Gruppe Leader -1 applies here too"),
        ("DRM Night", "-2", None, "the night rules are optional"),
    ]
    assert {c.rule for c in changes} == {"7.1.10"}


@pytest.mark.parametrize(
    "amend, code, message",
    [
        ("change drm fbb to +2", "C601", "names DRM `fbb`, which chart `R4` does not have"),
        ("remove drm weather", "C601", "names DRM `weather`"),
        ("change drm fb to +1", "C603", "changes DRM `fb` of chart `R4` to the value it already has (+1)"),
        ('add drm fb "F/B" +2 when fb', "C603", "adds DRM `fb`, which chart `R4` already has"),
        ("change drm fb when fb", "C603", "changes DRM `fb` of chart `R4` to the condition it has"),
    ],
)
def test_drm_errata_naming_nothing_or_doing_nothing(tmp_path: Path, amend: str, code: str, message: str) -> None:
    comp = compile_text(tmp_path, GAME + f'errata e1 "E" {{ amend R4 {{ {amend} }} }}')
    found = [d for d in comp.diagnostics if d.code == code]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_two_errata_changing_one_drm_must_say_which_wins(tmp_path: Path) -> None:
    twice = GAME + ('errata e1 "E1" { order 1 amend R4 { change drm fb to +2 } }\n'
                    'errata e2 "E2" { order 2 amend R4 { change drm fb to +3 } }\n')
    assert "C602" in codes(compile_text(tmp_path, twice))
    comp = compile_text(tmp_path / "b", twice.replace("order 2 amend", "order 2 overrides e1 amend"))
    assert "C602" not in codes(comp) and comp.project.games["t"].chart("R4").drms[0].value == 3


GROUPED = '''game t { title "Grouped" }
enum maneuver { atk_plus1 "+1 Atk" atk_plus2 "+2 Atk" none "None" }
context maneuver: maneuver "Maneuver result"
chart [M1] gun "Gun Attack" { roll 1d10 column result: text "Result"
  drm_group maneuver_atk "Maneuver Atk result" one {
    drm atk_plus1 "+1 Atk" +1 when maneuver == atk_plus1
    drm atk_plus2 "+2 Atk" +2 when maneuver == atk_plus2
  }
  rows { 1-6: "Miss"  7+: "Hit" } }
'''


def test_errata_amend_a_drm_inside_a_drm_group(tmp_path: Path) -> None:
    # Stuka Leader's Gun Attack keeps its Maneuver Atk DRMs in a `drm_group ... one`: an errata that
    # corrects one of them must reach it (it was C601 "no such DRM")
    errata = ('errata e1 "Errata" { amend M1 { change drm atk_plus2 to +3 because "the card says +3"\n'
              '  remove drm atk_plus1 because "no +1 result on the cards" } }\n')
    comp = compile_text(tmp_path, GROUPED + errata)
    assert comp.diagnostics == []
    m1 = comp.project.games["t"].chart("M1")
    [plus2] = m1.drms
    assert (plus2.id, plus2.value, plus2.printed.value, plus2.errata) == ("atk_plus2", 3, 2, ("e1",))
    assert m1.drm_groups[0].members == ("atk_plus2",)
    assert [d.id for d in m1.errata.removed_drms] == ["atk_plus1"]
    r = CliRunner().invoke(cli, ["lookup", "t/M1", "4", "--set", "maneuver=atk_plus2", "--charts",
                                 str(tmp_path / "charts")])
    assert r.exit_code == 0, r.output
    assert "roll 4 + DRM 3 = 7 -> row 7+" in r.stdout and "Result: Hit" in r.stdout


def test_removing_every_drm_of_a_group_removes_the_group(tmp_path: Path) -> None:
    # a new user's aid printed "Maneuver Atk result: only one of can apply." for an emptied group
    errata = ('errata e1 "Errata" { amend M1 { remove drm atk_plus1 because "a"\n'
              '  remove drm atk_plus2 because "b" } }\n')
    comp = compile_text(tmp_path, GROUPED + errata)
    assert comp.diagnostics == []
    m1 = comp.project.games["t"].chart("M1")
    assert (m1.drms, m1.drm_groups) == ((), ())
    assert "only one of" not in render_outputs(comp.project)["t/t.html"]
