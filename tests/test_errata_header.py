"""Errata on the game header (issue 31, "a calendar or period entry"): `change calendar`, `change
period`, `add period`, `remove period` in an `amend GAME { ... }` reach every month and period key,
the checks, the game JSON, the player aid's key and the errata sheet; `--as-printed` and
`--printing NAME` read the header as it stood."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.build.validate import Schema, validator
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED, UpTo
from compiler.tools.diff import HEADER, ChangeKind, diff_projects
from tests.conftest import codes, compile_text

# IA2 10.6 (R7, Pilot Quality by period): "1944 late" and "1945". The errata below are a test's:
# they move June 1944 into the late period (and so into the calendar), as a publisher's would.
GAME = '''game t { title "Test game" calendar 1944-07 to 1945-05
  period late_1944 "1944 late" 1944-07 to 1944-12
  period y1945 "1945" 1945-01 to 1945-05 }
chart [R7] quality "Pilot Quality" {
  rule "10.6"
  key period
  column quality: text "Quality"
  rows { late_1944: "Trained" y1945: "Green" }
}
'''

ERRATA = '''errata e1 "Official errata" {
  order 1
  amend t {
    change calendar 1944-06 to 1945-05 because "the campaign opens in June 1944"
    change period late_1944 "1944 late" 1944-06 to 1944-12 because "June belongs to late 1944"
  }
}
'''


def _lookup(tmp_path: Path, *extra: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["lookup", "t/R7", "--key", "period=1944-06", "--charts", str(tmp_path / "charts"),
                                 *extra])
    return r.exit_code, r.output


def test_a_corrected_period_is_read_by_every_key(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    assert comp.diagnostics == []
    code, out = _lookup(tmp_path)
    assert code == 0 and "Trained" in out, out  # June 1944 is late 1944, as corrected
    code, out = _lookup(tmp_path, "--as-printed")
    assert code == 2 and "1944-06" in out, out  # as printed, no period holds June 1944


def test_every_output_shows_the_corrected_header(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    out = render_outputs(comp.project)
    doc = json.loads(out["t/t.json"])
    validator(Schema.GAME).validate(doc)
    header = doc["game"]
    assert header["calendar"] == {"first": "1944-06", "last": "1945-05"}
    assert header["periods"][0] == {"id": "late_1944", "label": "1944 late", "first": "1944-06", "last": "1944-12"}
    assert header["errata"] == [
        {"part": "calendar", "id": None, "printed": "1944-07 to 1945-05", "corrected": "1944-06 to 1945-05",
         "errata": ["e1"], "because": ["the campaign opens in June 1944"]},
        {"part": "period", "id": "late_1944", "printed": '"1944 late" 1944-07 to 1944-12',
         "corrected": '"1944 late" 1944-06 to 1944-12', "errata": ["e1"], "because": ["June belongs to late 1944"]},
    ]
    html = out["t/t.html"]
    assert ('E1: period late_1944, printed &#34;1944 late&#34; 1944-07 to 1944-12, now &#34;1944 late&#34; '
            '1944-06 to 1944-12 (reason: June belongs to late 1944).') in html
    assert "E1: calendar, printed 1944-07 to 1945-05, now 1944-06 to 1945-05" in html
    module = " ".join(out["t/t.py"].split())  # the module's docstring, wrapped at 120 columns
    assert ("Errata e1: calendar printed 1944-07 to 1945-05, now 1944-06 to 1945-05; the campaign opens in June "
            "1944.") in module
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, load([tmp_path / "charts"]).project)
    assert [(c.chart, c.kind, c.where, c.old, c.new, c.reason) for c in changes] == [
        (HEADER, ChangeKind.CALENDAR, "calendar", "1944-07 to 1945-05", "1944-06 to 1945-05",
         "the campaign opens in June 1944"),
        (HEADER, ChangeKind.PERIOD, "period late_1944", '"1944 late" 1944-07 to 1944-12',
         '"1944 late" 1944-06 to 1944-12', "June belongs to late 1944"),
    ]
    assert all(c.cite == "Official errata" for c in changes)
    printed = json.loads(render_outputs(load([tmp_path / "charts"], AS_PRINTED).project)["t/t.json"])
    assert "errata" not in printed["game"] and printed["game"]["calendar"]["first"] == "1944-07"


def test_added_and_removed_periods_by_printing(tmp_path: Path) -> None:
    second = ('errata e2 "Second errata" { order 2 overrides e1 amend t { change calendar 1944-06 to 1946-05\n'
              '  add period y1946 "1945-46" 1945-06 to 1946-05 because "the campaign runs into 1946" } }\n')
    chart = GAME.replace('y1945: "Green" }', 'y1945: "Green" y1946: "Green" }')
    compile_text(tmp_path, chart + ERRATA + second)
    comp = load([tmp_path / "charts"])
    assert comp.diagnostics == []
    [calendar, late, y1946] = comp.project.games["t"].header_errata
    assert late.errata == ("e1",)
    assert (calendar.printed, calendar.corrected, calendar.errata) == ("1944-07 to 1945-05", "1944-06 to 1946-05",
                                                                        ("e1", "e2"))
    assert (y1946.id, y1946.printed, y1946.corrected) == ("y1946", None, '"1945-46" 1945-06 to 1946-05')
    up_to = load([tmp_path / "charts"], UpTo("e1"))
    assert "C201" in codes(up_to)  # up to e1 there is no period y1946 for the row to name
    assert [p.id for p in up_to.project.games["t"].periods] == ["late_1944", "y1945"]
    # a removed period is gone from the `period` key: R7's row for it now names nothing (C201)
    remove = 'errata e3 "E3" { amend t { remove period y1945 because "1945 is not played" } }\n'
    removed = compile_text(tmp_path / "removed", GAME + remove)
    assert "C201" in codes(removed) and "C201" not in codes(compile_text(tmp_path / "kept", GAME))
    [gone] = removed.project.games["t"].header_errata
    assert (gone.id, gone.printed, gone.corrected) == ("y1945", '"1945" 1945-01 to 1945-05', None)


@pytest.mark.parametrize(
    ("amend", "code", "message"),
    [
        ('change period late_1944 "1944 late" 1944-07 to 1944-11 add period y1944x "x" 1944-12 to 1944-12',
         None, None),  # passing: a real correction
        ('change period late_1944 "1944 late" 1944-07 to 1944-12', "C603", "to the label and months it has"),
        ("change calendar 1944-07 to 1945-05", "C603", "the calendar of game `t` to the months it has"),
        ('add period y1945 "1945" 1945-01 to 1945-05', "C603", "adds period `y1945`, which game `t` declares"),
        ("remove period late_1945", "C601", "names period `late_1945`, which game `t` does not declare"),
        ('retitle "T"', "C601", "whose header takes only `change calendar`, `change period`"),
    ],
)
def test_header_errata_that_change_nothing_or_name_nothing(tmp_path: Path, amend: str, code: str | None,
                                                           message: str | None) -> None:
    comp = compile_text(tmp_path, GAME + f'errata e1 "E" {{ amend t {{ {amend} }} }}')
    if code is None:
        assert [d for d in comp.diagnostics if d.code.startswith("C60")] == []
        return
    found = [d for d in comp.diagnostics if d.code == code]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_a_misspelt_period_is_offered_the_right_one(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + 'errata e1 "E" { amend t { remove period late_1494 } }')
    [found] = [d for d in comp.diagnostics if d.code == "C601"]
    assert "late_1944" in (found.help or "")


def test_two_errata_changing_one_period_must_say_which_wins(tmp_path: Path) -> None:
    twice = GAME + (
        'errata e1 "E1" { order 1 amend t { change period late_1944 "1944 late" 1944-07 to 1944-11 } }\n'
        'errata e2 "E2" { order 2 amend t { change period late_1944 "Late 1944" 1944-07 to 1944-12 } }\n')
    [found] = [d for d in compile_text(tmp_path, twice).diagnostics if d.code == "C602"]
    assert "period `late_1944`" in found.message
    comp = compile_text(tmp_path / "b", twice.replace("order 2 amend", "order 2 overrides e1 amend"))
    assert "C602" not in codes(comp)
    [mark] = comp.project.games["t"].header_errata
    assert mark.corrected == '"Late 1944" 1944-07 to 1944-12' and mark.errata == ("e1", "e2")


def test_a_header_errata_on_a_chart_names_the_game_form(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + 'errata e1 "E" { amend R7 { remove period y1945 } }')
    [found] = [d for d in comp.diagnostics if d.code == "C601"]
    assert "changes the game's calendar or periods, but it amends chart `R7`" in found.message
