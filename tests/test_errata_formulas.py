"""Errata on a formula's result (issue 31: "a formula's constant"): `amend FORMULA { change result
to EXPR because "..." }` reaches `compute`, the game JSON, the generated module's docstring and the
errata sheet, and `--as-printed` computes the printed result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED
from compiler.tools.diff import ChangeKind, diff_projects
from tests.conftest import codes, compile_text

# IA2 7.7: "one Experience Point for every 3 sorties flown (4 when not led by a Leadership pilot)"
GAME = '''game t { title "Test game" }
context sorties_flown: int "Sorties flown" 0-300
context led_by_leadership: flag "Led by a Leadership pilot"
formula experience_points "Experience Points gained" {
  rule "7.7"
  result if led_by_leadership then floor(sorties_flown / 3) else floor(sorties_flown / 4)
}
'''

ERRATA = '''errata e2 "Errata, second printing" {
  amend experience_points {
    change result to if led_by_leadership then floor(sorties_flown / 2) else floor(sorties_flown / 4)
      because "1 point per 2 sorties when led"
  }
}
'''


def _compute(tmp_path: Path, *extra: str) -> str:
    args = ["compute", "t/experience_points", "--set", "sorties_flown=12", "--when", "led_by_leadership",
            "--charts", str(tmp_path / "charts"), *extra]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    return r.output


def test_an_errata_corrects_a_formulas_constant_and_compute_says_so(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    assert comp.diagnostics == []
    out = _compute(tmp_path)
    assert "  Result: 6\n" in out  # 12 sorties led: floor(12 / 2), as corrected
    assert ("  Errata: Errata, second printing (printed if led_by_leadership then floor(sorties_flown / 3) else "
            "floor(sorties_flown / 4)): 1 point per 2 sorties when led") in out
    printed = _compute(tmp_path, "--as-printed")
    assert "  Result: 4\n" in printed and "Errata" not in printed  # floor(12 / 3) as printed
    doc = json.loads(_compute(tmp_path, "--json"))
    assert doc["value"] == 6 and doc["errata"] == [{
        "formula": "experience_points", "ids": ["e2"], "because": ["1 point per 2 sorties when led"],
        "printed": "if led_by_leadership then floor(sorties_flown / 3) else floor(sorties_flown / 4)",
        "as_printed": ["printed if led_by_leadership then floor(sorties_flown / 3) else floor(sorties_flown / 4)"]}]


def test_every_output_shows_the_corrected_formula(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, GAME + ERRATA)
    out = render_outputs(comp.project)
    [formula] = json.loads(out["t/t.json"])["formulas"]
    assert formula["text"] == "if led_by_leadership then floor(sorties_flown / 2) else floor(sorties_flown / 4)"
    assert (formula["errata"], formula["because"]) == (["e2"], ["1 point per 2 sorties when led"])
    printed = "if led_by_leadership then floor(sorties_flown / 3) else floor(sorties_flown / 4)"
    assert formula["printed"]["text"] == printed
    assert "Errata e2: printed if led_by_leadership then floor(sorties_flown / 3)" in out["t/t.py"]
    changes = diff_projects(load([tmp_path / "charts"], AS_PRINTED).project, load([tmp_path / "charts"]).project)
    assert [(c.kind, c.chart, c.reason, c.rule) for c in changes] == [
        (ChangeKind.FORMULA, "experience_points", "1 point per 2 sorties when led", "7.7")]
    as_printed = json.loads(render_outputs(load([tmp_path / "charts"], AS_PRINTED).project)["t/t.json"])
    assert "errata" not in as_printed["formulas"][0]


@pytest.mark.parametrize(
    ("amend", "code", "message"),
    [
        ('change result to floor(sorties_flown / 4)', None, None),  # passing: a real correction
        ('change result to if led_by_leadership then floor(sorties_flown / 3) else floor(sorties_flown / 4)',
         "C603", "changes formula `experience_points` to the result it has"),
        ('retitle "XP"', "C601", "amends formula `experience_points`, which takes only `change result to EXPRESSION`"),
    ],
)
def test_formula_errata_that_change_nothing_or_the_wrong_thing(tmp_path: Path, amend: str, code: str | None,
                                                               message: str | None) -> None:
    comp = compile_text(tmp_path, GAME + f'errata e1 "E" {{ amend experience_points {{ {amend} }} }}')
    if code is None:
        assert comp.diagnostics == []
        return
    found = [d for d in comp.diagnostics if d.code == code]
    assert len(found) == 1 and message in found[0].message, comp.diagnostics


def test_two_errata_changing_one_formula_must_say_which_wins(tmp_path: Path) -> None:
    twice = GAME + ('errata e1 "E1" { order 1 amend experience_points { change result to sorties_flown } }\n'
                    'errata e2 "E2" { order 2 amend experience_points { change result to 2 * sorties_flown } }\n')
    assert "C602" in codes(compile_text(tmp_path, twice))
    comp = compile_text(tmp_path / "b", twice.replace("order 2 amend", "order 2 overrides e1 amend"))
    assert "C602" not in codes(comp)
    [formula] = comp.project.games["t"].formulas
    assert formula.errata == ("e1", "e2")


def test_change_result_on_a_chart_names_the_formula_form(tmp_path: Path) -> None:
    chart = 'chart [R4] "Escape" { roll 1d6 column result: text rows { 1-2: "Safe" 3-6: "Combat" } }\n'
    comp = compile_text(tmp_path, GAME + chart + 'errata e1 "E" { amend R4 { change result to 3 } }')
    [found] = [d for d in comp.diagnostics if d.code == "C601"]
    assert "changes a formula's result, but it amends chart `R4`" in found.message


def test_a_formula_named_like_a_chart_is_c202(tmp_path: Path) -> None:
    # found by a new user: `formula fire` beside `chart fire` made `amend fire` reach only the chart,
    # and `chartc list` showed two `t/fire` rows
    chart = 'chart fire "Fire" { roll 1d6 column result: text rows { 1-6: "Hit" } }\n'
    comp = compile_text(tmp_path, GAME + chart + 'formula fire "Fire" { rule "1" result 4 }\n')
    [found] = [d for d in comp.diagnostics if d.code == "C202"]
    assert "`fire`" in found.message
    other = 'formula fire_points "F" { rule "1" result 4 }\n'
    assert "C202" not in codes(compile_text(tmp_path / "ok", GAME + chart + other))


def test_lookup_json_carries_the_errata_of_a_drm_that_applied(tmp_path: Path) -> None:
    # `lookup` printed `Errata: ... (DRM ... printed +1)`; `lookup --json` said nothing of it
    chart = ('context woods: flag "Woods"\nchart [F1] "Fire" { roll 1d6 column result: text\n'
             '  drm woods "Woods" +1 when woods\n  rows { 1-3: "Miss" 4+: "Hit" } }\n'
             'errata e1 "First" { amend F1 { change drm woods to +2 because "the card says +2" } }\n')
    compile_text(tmp_path, GAME + chart)
    args = ["lookup", "t/F1", "2", "--when", "woods", "--json", "--charts", str(tmp_path / "charts")]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["values"] == {"result": "Hit"}  # 2 + 2 = 4
    assert doc["drm_errata"] == [{"drm": "woods", "ids": ["e1"], "printed": 1, "because": ["the card says +2"]}]


def test_a_formula_using_a_corrected_formula_says_so(tmp_path: Path) -> None:
    # a new user: `compute halved` changed value after an errata on the formula it uses, silently
    used = 'formula award_points "Award points" { rule "7.8" result experience_points * 2 }\n'
    compile_text(tmp_path, GAME + used + ERRATA)
    r = CliRunner().invoke(cli, ["compute", "t/award_points", "--set", "sorties_flown=12", "--when",
                                 "led_by_leadership", "--charts", str(tmp_path / "charts")])
    assert r.exit_code == 0, r.output
    assert "  Result: 12\n" in r.output  # 2 * floor(12 / 2)
    assert "  Errata: Errata, second printing (experience_points printed if led_by_leadership" in r.output
