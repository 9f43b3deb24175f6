"""Domains of computed values and records: a formula declares the values its result may take
(`domain 1 to 18`, `domain 0+`, `domain within LIMIT`) and the inputs it applies to (`requires`); a
record field its values (`xp: int "XP" 0-99`). A result outside the domain over the inputs' declared
ranges is C475 with the inputs that give it (C476 where the formula keeps the book's gap).

USAAF 9.2: a unit lands on mission turn take-off + endurance - 1; 8.3: at most 18 mission turns; 9.3:
planes aloft after the 18th are considered landed. Stuka Leader Debriefing 26: a Pilot is promoted
only when his Experience points reach the Promotion number; Debriefing 23-24: no floor at 0 Stress.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, codes, compile_text, import_module

TURNS = """
game t { title "T" }
limit mission_turns "Mission turns" { rule "8.3" at most 18 }
context take_off: int "Mission turn of take off" 1-18 within mission_turns
context endurance: int "Endurance" 1+
formula landing "Landing mission turn" {
  rule "9.2"
  result take_off + endurance - 1
  domain within mission_turns
}
"""


def test_a_result_outside_its_domain_names_the_inputs(tmp_path: Path) -> None:
    [finding] = compile_text(tmp_path, TURNS).diagnostics
    assert finding.code == "C475" and finding.severity.value == "warning"
    # an endurance without an upper end is tried at each value past its last named one: 19 is the first out
    assert finding.message == (
        "formula `landing` gives 19 for take_off 1, endurance 19: outside its domain 0 to 18 (limit `mission_turns`)"
    )
    assert [label.message for label in finding.labels] == ["the domain: 0 to 18"]


def test_requires_keeps_the_formula_to_the_inputs_it_applies_to(tmp_path: Path) -> None:
    guarded = TURNS.replace("  domain within", "  requires take_off + endurance - 1 <= 18\n  domain within")
    assert codes(compile_text(tmp_path, guarded)) == []


def test_the_corpus_formulas_keep_to_their_domains(corpus, run) -> None:
    usaaf = corpus.project.games["usaaf"]
    landing = usaaf.formula("landing_mission_turn")
    assert landing is not None and landing.domain is not None
    assert (landing.domain.low, landing.domain.high, landing.domain.within) == (0, 18, "mission_turns")
    # 9.2: endurance 4 from mission turn 3 lands on 6; 9.3: from 17, the unit is aloft at the end (no turn)
    assert run("compute", "usaaf/landing_mission_turn", "--set", "take_off_mission_turn=3", "--set",
               "endurance=4").output.splitlines()[-1] == "  Result: 6"
    late = run("compute", "usaaf/landing_mission_turn", "--set", "take_off_mission_turn=17", "--set", "endurance=4")
    assert late.exit_code == 1 and "applies only where take_off_mission_turn + endurance - 1 <= 18" in late.output
    # Debriefing 26: 6 XP, promotion number 5 -> 1 kept; 3 XP is no promotion
    assert run("compute", "stuka_leader/xp_after_promotion", "--set", "xp=6", "--set",
               "promotion_number=5").output.splitlines()[-1] == "  Result: 1"
    refused = run("compute", "stuka_leader/xp_after_promotion", "--set", "xp=3", "--set", "promotion_number=5")
    assert refused.exit_code == 1 and "applies only where xp >= promotion_number" in refused.output
    # Debriefing 23-24: a Drop Tank's -1 on a 0 Stress Target takes 0 Stress to -1: the book's gap, kept
    [stress] = [d for d in corpus.diagnostics if d.code == "C476"]
    assert stress.message.startswith(
        "formula `end_of_day_stress` gives -1 for rested no, stress 0, cool 0, mission_stress 0, dot_stress 0, "
        "drop_tank yes: outside its domain 0+; kept as printed: "
    )
    assert not [d for d in corpus.diagnostics if d.code == "C475"]


def test_the_module_refuses_inputs_a_formula_does_not_apply_to() -> None:
    gen = import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_domains")
    assert gen.compute_landing_mission_turn(take_off_mission_turn=3, endurance=4) == 6
    with pytest.raises(ValueError, match="applies only where take_off_mission_turn"):
        gen.compute_landing_mission_turn(take_off_mission_turn=17, endurance=4)
    # 9.3: a unit landing on mission turn 18 does not take off again that game turn
    assert gen.compute_next_take_off(take_off_mission_turn=3, endurance=4) == 7
    with pytest.raises(ValueError, match="applies only where landing_mission_turn < 18"):
        gen.compute_next_take_off(take_off_mission_turn=15, endurance=4)


def test_a_record_outside_its_field_domain(tmp_path: Path) -> None:
    # IA2 8.2: Prestige Levels run 0 to 7 (Level 7: no availability roll)
    text = (
        'game t { title "T" }\n'
        'enum aircraft { fields { prestige: int "Prestige Level" 0-7 } a "A" { prestige: 9 } }\n'
    )
    [finding] = compile_text(tmp_path, text).diagnostics
    assert (finding.code, finding.message) == ("C475", "`a` (aircraft) has prestige 9, outside its domain 0-7")
    not_int = text.replace("prestige: int", "prestige: text").replace("prestige: 9", 'prestige: "9"')
    assert codes(compile_text(tmp_path / "text", not_int)) == ["C332"]


def test_a_backwards_domain_is_refused(tmp_path: Path) -> None:
    text = TURNS.replace("domain within mission_turns", "domain 18 to 1")
    [finding] = [d for d in compile_text(tmp_path, text).diagnostics if d.code == "C472"]
    assert finding.message == "the domain of formula `landing` runs backwards (18 to 1)"
