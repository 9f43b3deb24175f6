"""Errata on a formula's `requires` and `domain` (issue 31, "what is left"): `change requires ...`,
`remove requires`, `change domain ...`, `remove domain` reach `compute`, the checks, the game JSON,
the generated module's docstring and the errata sheet; `--as-printed` reads the print."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED, UpTo
from compiler.tools.diff import ChangeKind, diff_projects
from tests.conftest import codes, compile_text

# USAAF 9.2: a German unit lands on mission turn take-off + endurance - 1; 8.3: a game turn has at
# most 18 mission turns; 9.3: a unit still aloft after mission turn 18 is landed. The print below
# is wrong on purpose (17 turns), as a book's would be, and the errata corrects it.
GAME = '''game t { title "Test game" }
limit mission_turns "Mission turns in a game turn" { rule "8.3" counts "mission turns in one game turn" at most 18 }
context take_off: int "Mission turn of take off" 1-18
context endurance: int "Endurance" 1-6
formula landing "Landing mission turn" {
  rule "9.2"
  result take_off + endurance - 1
  requires take_off + endurance - 1 <= 17
  domain 1 to 17
}
'''

ERRATA = '''errata e2 "Errata, second printing" {
  order 2
  amend landing {
    change requires take_off + endurance - 1 <= 18 because "9.3: landed after mission turn 18"
    change domain within mission_turns because "8.3: 18 mission turns"
  }
}
'''


def _compute(tmp_path: Path, *extra: str) -> Result:
    args = ["compute", "t/landing", "--set", "take_off=15", "--set", "endurance=4",
            "--charts", str(tmp_path / "charts"), *extra]
    return CliRunner().invoke(cli, args)


def test_compute_reads_the_corrected_requires_and_the_print_refuses(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    assert comp.diagnostics == []
    r = _compute(tmp_path)
    assert r.exit_code == 0, r.output
    assert "  Result: 18\n" in r.output  # 15 + 4 - 1, allowed by 9.3 as corrected
    assert ("  Errata: Errata, second printing (requires printed take_off + endurance - 1 <= 17; domain printed "
            "1 to 17): 9.3: landed after mission turn 18: 8.3: 18 mission turns") in r.output
    printed = _compute(tmp_path, "--as-printed")
    assert printed.exit_code == 1  # the print stops at 17
    assert "applies only where take_off + endurance - 1 <= 17" in printed.output


def test_the_checks_read_the_corrected_domain(tmp_path: Path) -> None:
    # as printed, 17 + 1 - 1 = 17 ... but 15 + 4 - 1 = 18 is refused by `requires`, so no C475;
    # a print whose domain is narrower than its requires is C475, and the errata's domain clears it
    wrong = GAME.replace("<= 17", "<= 18")
    assert "C475" in codes(compile_text(tmp_path / "print", wrong))
    fixed = wrong + 'errata e1 "E" { amend landing { change domain 1 to 18 because "8.3" } }\n'
    assert "C475" not in codes(compile_text(tmp_path / "fixed", fixed))


def test_every_output_shows_the_corrected_statements(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    out = render_outputs(comp.project)
    [formula] = json.loads(out["t/t.json"])["formulas"]
    assert formula["requires"]["text"] == "take_off + endurance - 1 <= 18"
    assert formula["domain"] == {"min": 0, "max": 18, "within": "mission_turns"}
    assert formula["corrected"] == ["requires", "domain"] and formula["errata"] == ["e2"]
    assert formula["printed_requires"]["text"] == "take_off + endurance - 1 <= 17"
    assert formula["printed_domain"] == {"min": 1, "max": 17, "within": None}
    assert "printed" not in formula  # the result is as printed
    docstring = " ".join(out["t/t.py"].split())  # the docstring wraps at 120 columns
    assert ("Errata e2: requires printed take_off + endurance - 1 <= 17; domain printed 1 to 17; "
            "9.3: landed after mission turn 18; 8.3: 18 mission turns.") in docstring
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, load([tmp_path / "charts"]).project)
    assert [(c.kind, c.where, c.old, c.new, c.rule) for c in changes] == [
        (ChangeKind.FORMULA, "formula Landing mission turn: requires", "take_off + endurance - 1 <= 17",
         "take_off + endurance - 1 <= 18", "9.2"),
        (ChangeKind.FORMULA, "formula Landing mission turn: domain", "1 to 17", "0 to 18", "9.2"),
    ]
    assert {c.reason for c in changes} == {"9.3: landed after mission turn 18; 8.3: 18 mission turns"}


def test_removed_and_added_statements_read_not_in_the_print(tmp_path: Path) -> None:
    removed = GAME.replace("  domain 1 to 17\n", "") + (
        'errata e1 "E1" { order 1 amend landing { remove requires because "9.3 is optional" } }\n'
        'errata e3 "E3" { order 3 amend landing { change domain 1+ because "no end" } }\n')
    comp = compile_text(tmp_path, removed)
    assert comp.diagnostics == []
    [formula] = comp.project.games["t"].formulas
    assert formula.requires is None and formula.domain is not None and formula.domain.text == "1+"
    assert formula.as_printed() == ("requires printed take_off + endurance - 1 <= 17", "domain not in the print")
    [doc] = json.loads(render_outputs(comp.project)["t/t.json"])["formulas"]
    assert doc["printed_domain"] is None and doc["requires"] is None
    # `--printing e1`: the first round only, `requires` gone but no domain yet
    [up_to] = load([tmp_path / "charts"], UpTo("e1")).project.games["t"].formulas
    assert up_to.requires is None and up_to.domain is None and up_to.errata == ("e1",)
    args = ["compute", "t/landing", "--set", "take_off=18", "--set", "endurance=6", "--charts",
            str(tmp_path / "charts")]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0 and "  Result: 23\n" in r.output, r.output  # 18 + 6 - 1: `requires` removed


@pytest.mark.parametrize(
    ("amend", "code", "message"),
    [
        ("change requires take_off + endurance - 1 <= 16", None, None),  # passing: a real correction
        ("change requires take_off + endurance - 1 <= 17", "C603", "to the requires it has"),
        ("change domain 1 to 17", "C603", "to the domain it has"),
        ("remove requires remove requires", "C601", "removes the `requires` of formula `landing`, which it does"),
        ('retitle "L"', "C601", "`change requires ...`, `change domain ...`, `remove requires` and `remove domain`"),
    ],
)
def test_statement_errata_that_change_nothing_or_name_nothing(tmp_path: Path, amend: str, code: str | None,
                                                              message: str | None) -> None:
    comp = compile_text(tmp_path, GAME + f'errata e1 "E" {{ amend landing {{ {amend} }} }}')
    if code is None:
        assert comp.diagnostics == []
        return
    found = [d for d in comp.diagnostics if d.code == code]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_two_errata_changing_one_requires_must_say_which_wins(tmp_path: Path) -> None:
    twice = GAME + ('errata e1 "E1" { order 1 amend landing { change requires take_off <= 18 } }\n'
                    'errata e3 "E3" { order 3 amend landing { change requires endurance <= 5 change result 1 } }\n')
    twice = twice.replace("change result 1", "")
    [found] = [d for d in compile_text(tmp_path, twice).diagnostics if d.code == "C602"]
    assert "the requires of formula `landing`" in found.message
    # a change to the domain does not clash with one to `requires`
    apart = twice.replace("change requires endurance <= 5", "change domain 0 to 18")
    assert "C602" not in codes(compile_text(tmp_path / "apart", apart))


def test_a_requires_errata_on_a_chart_names_the_formula_form(tmp_path: Path) -> None:
    chart = 'chart [R4] "Escape" { roll 1d6 column result: text rows { 1-2: "Safe" 3-6: "Combat" } }\n'
    comp = compile_text(tmp_path, GAME + chart + 'errata e1 "E" { amend R4 { remove domain } }')
    [found] = [d for d in comp.diagnostics if d.code == "C601"]
    assert "changes a formula's `domain`, but it amends chart `R4`" in found.message
