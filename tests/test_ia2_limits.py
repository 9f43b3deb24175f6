"""Interceptor Ace Vol. 2: the caps and allowances the rules state in words (charts/ia2/limits.chart)
and the decisions they leave to the player (charts/ia2/choices.chart), read as a player asks them:
`chartc lookup` and the generated module (`limit_<id>`, `lookup_<id>`). Each assertion cites the rule
and its seed-000 line.
"""

from __future__ import annotations

import pytest

from compiler.build.project import Compilation
from tests.conftest import ROOT, import_module
from tests.test_coverage_lists import items_of, reported


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_limits_generated")


def bound(answer) -> tuple[str, int | None, int | None]:
    return answer["kind"], answer["min"], answer["max"]


def test_sorties_per_month_of_the_jet_and_prototype_units(gen) -> None:
    # IA2 11.7 / R1 note 4 (lines 134, 1174): the Me 262 flies at most 4 missions a month July-September 1944
    spm = gen.limit_sorties_per_month
    assert bound(spm(month="1944-08", family_flown="me262")) == ("at_most", None, 4)
    # ... "You may fly eight missions per month normally from October 1944"
    assert bound(spm(month="1944-10", family_flown="me262")) == ("exactly", 8, 8)
    # 4.3.3 (line 97): from January 1945 only 4 missions each month, for every family
    assert bound(spm(month="1945-02", family_flown="me262")) == ("exactly", 4, 4)
    # 11.6 / R1 note 6 (lines 136, 1170): the Do 335A with EGR 335 "starting in 9/44": four a month
    assert bound(spm(month="1944-10", family_flown="do335", unit_assigned="egr335")) == ("at_most", None, 4)
    assert bound(spm(month="1944-10", family_flown="fw190", unit_assigned="egr335")) == ("exactly", 8, 8)


def test_lookup_reads_the_me262_limit(run) -> None:
    # the case: `lookup ia2/sorties_per_month --key month=1944-08` answered 8 for the Me 262
    out = run("lookup", "ia2/sorties_per_month", "--key", "month=1944-08", "--key", "family_flown=me262").output
    assert "at most 4 (rule 11.7, R1 note 4" in out
    # with the family left out, lookup lists what still may apply (4 for the Me 262 or the Do 335, else 8)
    out = run("lookup", "ia2/sorties_per_month", "--key", "month=1944-08").output
    assert "depends on family_flown" in out and "exactly 8 otherwise" in out


def test_passes_before_the_escort(gen) -> None:
    passes = gen.limit_passes_before_escort
    # IA2 7.1.3 (line 281): disadvantaged with escorts present you must conduct fighter combat first
    assert bound(passes(escorted=True, encounter_now="disadvantaged")) == ("at_most", None, 0)
    # ... "(exception: Gruppe Leader ability [7.9.1])"; 7.1.11: a second pass with it
    assert passes(escorted=True, encounter_now="disadvantaged", gruppe_leader=True)["kind"] == "unlimited"
    # 7.1.11 (line 311): with an escort, fighter combat begins at the end of the first pass
    assert bound(passes(escorted=True, encounter_now="head_on")) == ("at_most", None, 1)
    # 11.10.1: the Me 163B-1 may make a second pass without first fighting the escorts
    assert bound(passes(escorted=True, encounter_now="advantaged", flying_me163=True)) == ("at_most", None, 2)
    # 7.1.6 (line 293): with no escorts you may wheel around for another pass; 7.9.1 Geschwader Leader
    # (line 549): treat the formation as having no escorts
    assert passes(escorted=False, encounter_now="head_on")["kind"] == "unlimited"
    assert passes(escorted=True, encounter_now="disadvantaged", geschwader_leader=True)["kind"] == "unlimited"


def test_escorts_cannot_normally_be_avoided(gen) -> None:
    # IA2 7.2.1 (line 362): "you normally cannot avoid combat with the escorts (exceptions: 7.1.10, 7.9.1)"
    assert bound(gen.limit_escort_combats_avoided()) == ("forbidden", 0, 0)
    assert bound(gen.limit_escort_combats_avoided(escaped_on_r4=True)) == ("at_most", None, 1)
    assert bound(gen.limit_escort_combats_avoided(geschwader_leader=True)) == ("at_most", None, 1)


def test_firing_limits_against_bombers(gen) -> None:
    # IA2 7.1.6 (line 289): a Pass is up to 3 rounds, possibly 4 with Wfr.Gr. 21 or R4M rockets
    assert bound(gen.limit_rounds_per_pass()) == ("at_most", None, 3)
    assert bound(gen.limit_rounds_per_pass(rockets_fitted=True)) == ("at_most", None, 4)
    # 7.1.6 (line 293): after firing once at close range the interceptor must break off
    assert bound(gen.limit_close_range_firings()) == ("at_most", None, 1)
    # 7.1.3 (line 281): the basic game fires all unjammed forward weapons together; 10.10.1 selects them
    assert bound(gen.limit_forward_weapons_held()) == ("forbidden", 0, 0)
    assert gen.limit_forward_weapons_held(weapon_selection_used=True)["kind"] == "unlimited"
    # 10.10.1 (line 898): one selection, at the beginning of each pass or round
    assert bound(gen.limit_weapon_selections(weapon_selection_used=True)) == ("exactly", 1, 1)


def test_extended_burst_requirements(gen) -> None:
    burst = gen.limit_extended_bursts
    # IA2 7.1.13 (line 331): at medium or long range, with 2 ammo points left in a forward weapon
    assert bound(burst(range_now="medium", forward_ammo_left=2)) == ("at_most", None, 1)
    assert bound(burst(range_now="long", forward_ammo_left=5)) == ("at_most", None, 1)
    assert bound(burst(range_now="close", forward_ammo_left=5)) == ("at_most", None, 0)
    assert bound(burst(range_now="medium", forward_ammo_left=1)) == ("at_most", None, 0)
    # ... not if the only firing weapons have unlimited ammo; 10.10.1 (line 899): not with only MGs selected
    assert bound(burst(range_now="long", forward_ammo_left=4, only_unlimited_ammo=True)) == ("at_most", None, 0)
    assert burst(range_now="long", forward_ammo_left=4, only_mgs_selected=True)["cite"].startswith("10.10.1")
    # the ammo left decides at medium range: left out, the module refuses to guess
    with pytest.raises(ValueError):
        burst(range_now="medium")


def test_flak_hits_only_on_bombers(gen) -> None:
    # IA2 7.1.5 (line 285): "from zero to 3, maximum"; "Only bombers take flak damage"
    assert bound(gen.limit_flak_hits(flak_target="bomber")) == ("between", 0, 3)
    assert bound(gen.limit_flak_hits(flak_target="fighter")) == ("exactly", 0, 0)


def test_wfr_gr21_rockets_agree_with_the_load_chart(gen, corpus: Compilation) -> None:
    # IA2 7.1.14 (line 351): single-engine fighters could carry only two, the twin-engine Bf 110 four
    assert bound(gen.limit_wfr_gr21_rockets(family_flown="bf110")) == ("at_most", None, 4)
    assert [gen.limit_wfr_gr21_rockets(family_flown=f)["max"] for f in ("bf109", "fw190")] == [2, 2]
    # the chart wfr_gr21_load prints the same counts: held equal by `same` invariants, none reported
    names = {"bf109_rockets", "fw190_rockets", "bf110_rockets"}
    assert names <= {i.id for i in corpus.project.games["ia2"].invariants}
    assert not names & set(reported(corpus, "ia2", {"C417", "C418"}))


def test_engaging_the_bombers(gen) -> None:
    # IA2 7.4.1 (line 434): slower than the bombers, you cannot intercept the formation
    assert bound(gen.limit_bomber_interceptions(speed_difference=-1)) == ("forbidden", 0, 0)
    # 7.2.2.10 (line 385): not in the endurance box after fighter combat
    assert bound(gen.limit_bomber_interceptions(speed_difference=3, after_fighter_combat=True)) == ("forbidden", 0, 0)
    # faster and no fighter combat in this box: the rules set no count here
    with pytest.raises(ValueError, match="no case applies"):
        gen.limit_bomber_interceptions(speed_difference=3)


def test_defensive_text_or_wingman(gen) -> None:
    # IA2 7.2.3 (line 389): "You do not get to do both in the same combat round."
    assert bound(gen.limit_defensive_helps()) == ("at_most", None, 1)


def test_rank_abilities_per_sortie(gen) -> None:
    # IA2 7.9.2 (lines 553, 557, 560, 564): an NCO uses up to TWO abilities per sortie, not the same one twice
    assert bound(gen.limit_abilities_per_sortie(rank_track_now="nco")) == ("at_most", None, 2)
    assert bound(gen.limit_same_ability_per_sortie(rank_track_now="nco")) == ("at_most", None, 1)
    # 7.9.1 (lines 531, 543, 548): an officer "may use only one ability per sortie"
    assert bound(gen.limit_abilities_per_sortie(rank_track_now="officer")) == ("at_most", None, 1)


def test_night_owl_annual_leave_and_awards(gen) -> None:
    # IA2 7.9.2 Night Owl (line 562): once per month, once per bi-monthly period from January 1945
    assert gen.limit_night_owl_uses(month="1944-11")["cite"] == "7.9.2: once per month"
    assert "bi-monthly" in gen.limit_night_owl_uses(month="1945-01")["cite"]
    # 10.5 (line 807): leave for a week (two sorties), once during the game
    assert bound(gen.limit_annual_leaves()) == ("at_most", None, 1)
    assert bound(gen.limit_annual_leave_sorties()) == ("exactly", 2, 2)
    # 7.8.3 (line 503): one had to have the EK2 before receiving the EK1
    assert bound(gen.limit_ek1_awards(ek2_holder=False)) == ("forbidden", 0, 0)
    # 7.8.5 Game Note (line 508): the Gold clasp is not obtainable, but is for a combined career
    assert bound(gen.limit_gold_clasp()) == ("forbidden", 0, 0)
    assert gen.limit_gold_clasp(combined_career=True)["kind"] == "unlimited"
    # R1 note 5, 4.6.1 (lines 135, 168): JV 44 requires a Knight's Cross holder
    assert bound(gen.limit_jv44_reassignments(knights_cross_holder=False)) == ("exactly", 0, 0)


def test_advanced_combat_and_maneuvers(gen) -> None:
    # IA2 11.5 (line 1165), 10.7 (line 875): the Ju 88C-6a cannot attack from approach track 1 nor make
    # vertical climb or dive attacks, and may not use advanced maneuvers
    assert bound(gen.limit_approach_track_1_attacks(aircraft_flown="ju88c6a")) == ("forbidden", 0, 0)
    assert bound(gen.limit_vertical_attacks(aircraft_flown="ju88c6a")) == ("forbidden", 0, 0)
    assert bound(gen.limit_advanced_maneuver_uses(aircraft_flown="ju88c6a")) == ("forbidden", 0, 0)
    # 10.8 (line 892): each advanced maneuver once per sortie
    assert bound(gen.limit_advanced_maneuver_uses(aircraft_flown="bf109g6")) == ("at_most", None, 1)
    # 10.12 (line 914): a Green pilot may not purchase any Advanced Maneuvers skill; 10.8 prints four
    assert bound(gen.limit_advanced_maneuvers_bought(green_pilot=True)) == ("forbidden", 0, 0)
    assert bound(gen.limit_advanced_maneuvers_bought()) == ("at_most", None, 4)
    # 10.12 (line 916): trained after five combat missions or on becoming an Ace
    assert bound(gen.limit_green_missions()) == ("at_most", None, 5)
    assert bound(gen.limit_green_missions(pilot_ace=True)) == ("exactly", 0, 0)


def test_tour_of_duty_and_one_of_a_kind(gen) -> None:
    # IA2 10.15.2 (lines 959-960): 20 missions actually flown, one aircraft family, no base change
    assert bound(gen.limit_tour_missions(tour_of_duty=True)) == ("exactly", 20, 20)
    assert bound(gen.limit_tour_families(tour_of_duty=True)) == ("exactly", 1, 1)
    assert bound(gen.limit_tour_base_changes(tour_of_duty=True)) == ("forbidden", 0, 0)
    # ... "unless stated in the Tour of Duty's Special Rules"
    assert gen.limit_tour_base_changes(tour_of_duty=True, tour_allows_base_change=True)["kind"] == "unlimited"
    # 10.13 (line 937): the Bf 109G-6/R4 is a one of a kind
    assert bound(gen.limit_bf109g6r4_aircraft()) == ("at_most", None, 1)


def test_me163_limits(gen) -> None:
    # IA2 11.10.1 (line 1188): a fuel limit of 1 endurance box
    assert bound(gen.limit_me163_endurance(aircraft_flown="me163b1")) == ("exactly", 1, 1)
    # lines 1191-1194: 2 passes, or 1 pass and 3 rounds against fighters, or 6 rounds against fighters
    assert bound(gen.limit_me163_passes_limit(flying_me163=True)) == ("at_most", None, 2)
    rounds = [gen.limit_me163_fighter_rounds(flying_me163=True, me163_passes=p)["max"] for p in (0, 1, 2)]
    assert rounds == [6, 3, 0]


def test_choices_are_offered_not_rolled(gen, run) -> None:
    # IA2 7.1.9 (line 309): after each pass "decide whether to attack again or to break off"
    assert gen.lookup_decisions(decision="after_pass")["options"] == {"choice": ("Attack again", "Break off")}
    # 7.2.2.3 (lines 375-378): three options while the wingman can assist, two when he cannot
    assert len(gen.lookup_decisions(decision="disadvantaged_or_tailed")["options"]["choice"]) == 3
    assert len(gen.lookup_decisions(decision="disadvantaged_no_wingman")["options"]["choice"]) == 2
    # 7.4.5 (lines 460-462): forced down, bail out or a forced deadstick landing
    forced = gen.lookup_decisions(decision="forced_down")["options"]["choice"]
    assert forced[0].startswith("Bail out") and "deadstick" in forced[1]
    # 7.9 (line 524): officer or NCO; 10.7 (line 874): four attack orientations
    assert gen.lookup_promotion_track_choice()["track"] == {"choice": ("officer", "nco")}
    orientations = gen.lookup_attack_orientation_choice()["orientation"]["choice"]
    assert orientations == ("front", "flank_starboard", "flank_port", "tail")
    # 10.11 (line 902): Expert in the Bf 109 or the FW 190; 10.12 (line 913): Tight Turn or Barrel Roll
    assert gen.lookup_eastern_front_expert()["family"] == {"choice": ("bf109", "fw190")}
    assert gen.lookup_green_card_maneuver()["maneuver"] == {"choice": ("tight_turn", "barrel_roll")}
    # R1 note 3 (line 133): II/ZG 76 flies the Bf 110G-2/R3 w. Wf.Gr.21 or, optionally, the Me 410A-1/U2
    assert gen.lookup_unit_rules(unit="ii_zg76")["aircraft"] == {"choice": ("bf110g2r3wfr", "me410a1u2")}
    out = run("lookup", "ia2/unit_rules", "--key", "unit=ii_zg76").output
    assert "your choice of Bf 110G-2/R3 w. Wf.Gr.21 or Me 410A-1/U2" in out
    # 10.6.1 (line 843): an Allied pilot's Reflexes once per sortie, position or first fire
    assert bound(gen.limit_allied_reflexes_uses(allied_reflexes_skill=True)) == ("at_most", None, 1)
    assert gen.lookup_decisions(decision="allied_reflexes")["options"]["choice"][1] == "Fire first in a round"


def test_the_limit_items_are_complete() -> None:
    # the items this data holds are marked complete in docs/coverage/ia2.md, each citing a limit or a choice
    rows = {i.id: i for i in items_of("ia2")}
    for item_id in ("IA2A-069", "IA2A-189", "IA2A-222", "IA2A-419", "IA2B-183", "IA2B-282"):
        assert rows[item_id].status == "complete" and any(w.startswith("limit:") for w in rows[item_id].where)
    for item_id in ("IA2A-210", "IA2A-396", "IA2B-112", "IA2B-154"):
        assert rows[item_id].status == "complete" and any(w.startswith("chart:") for w in rows[item_id].where)


def test_the_books_inconsistencies_are_reported(corpus: Compilation) -> None:
    # each is a conflict `chartc check` lists as a kept note (C481) citing both places with their values
    found = reported(corpus, "ia2", {"C481"})
    expected = {
        # IA2 7.3.1 (line 410) cites "(10.11)" for out of ammo; 7.1.16 (line 357) names 10.9 and 10.10
        "out_of_ammo_section": ("(10.11)", "(10.9, 10.10)"),
        # 7.4.2 (line 445) vs the scrounging abilities of 7.9.2 (lines 555, 558)
        "scrounging_exception": ("(jammed weapons and crew injuries)", "(4-5 and 6+ damaged systems)"),
        # 4.6.4 (line 208) vs 8.2's example (line 620): R2 then R3, or R3 alone
        "a6_to_a8r2_rolls": ("(R2, then R3)", "(R3)"),
        # 10.4 (line 755) starts Galland as a General, a rank 7.9.1 and 10.14 do not have
        "galland_rank": ("(General)", "(Leutnant to Generalmajor)"),
        "skills_outside_7_7": ("(Gunnery, Aim,", "(Parachute, Landing, S.A., Reflexes)"),
        # 8.2: one Prestige Level per award; 10.15.2 The Escorts holds 3 awards at Level 2, Armored Knights
        # none at Level 3 (the tours' records)
        "escorts_prestige": ("(3)", "(2)"),
        "armored_knights_prestige": ("(0)", "(3)"),
        # 7.1.13 (line 331) vs the 1943-44 errata (line 1219): [C3] standard or optional
        "c3_chart": ("(the standard chart printed in the rules)", "(the optional, kinder and gentler chart)"),
    }
    for name, values in expected.items():
        (finding,) = found[name]
        assert all(v in finding.message for v in values), name
        assert finding.labels, name  # a label at the second place
    rows = {i.id: i for i in items_of("ia2")}
    assert rows["IA2B-192"].status == "complete" and "conflict:escorts_prestige" in rows["IA2B-192"].where


def test_prerequisites_as_counts(gen) -> None:
    # IA2 4.2.2 (line 90): a newer type only with a sufficient Prestige Level, waived for the first
    # aircraft of some starting rolls (the Bf 109G-6/AS needs Prestige Level 2: its record's prestige)
    assert bound(gen.limit_aircraft_above_prestige_level()) == ("exactly", 0, 0)
    assert bound(gen.limit_aircraft_above_prestige_level(first_aircraft_from_start=True)) == ("at_most", None, 1)
    # 7.7 (line 483): skipped sorties do not count toward experience points
    assert bound(gen.limit_skipped_sorties_for_experience()) == ("exactly", 0, 0)
    # 10.8 (line 892): Maneuver 1 must be learned before Maneuver 2, etc.
    assert bound(gen.limit_advanced_maneuvers_skipped()) == ("exactly", 0, 0)


def test_the_disadvantaged_example_offers_the_three_choices(corpus: Compilation) -> None:
    # IA2 7.12 (lines 593-597): "We are now faced with 3 choices": checked by an example block, not failing
    ia2 = corpus.project.games["ia2"]
    assert "disadvantaged_three_choices" in {e.id for e in ia2.examples}
    failing = reported(corpus, "ia2", {"C460", "C461", "C462", "C463"})
    assert "disadvantaged_three_choices" not in failing
