"""Stuka Leader: the Sequence of Play, the Dogfight rolls and their modifiers, the Escort
Mission, Victories and Aces, Experience, Medics, the VP and Stress lists, the Bandit skill levels,
the Pilot counters and the computed values (Damaged Targets, Stress recovery).

Each assertion cites the rulebook section (Stuka Leader numbers only the Sequence of Play steps)
and the seed line (`L437` is line 437 of ../shared/seeds/004_83762fba2fb4fc58.txt).
"""

from __future__ import annotations

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, compile_text, import_module


@pytest.fixture(scope="module")
def sl(corpus):
    return corpus.project.games["stuka_leader"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "stuka_leader" / "stuka_leader.py", "stuka_leader_more_generated")


def value(game, address: str, roll: str | None, drm: int = 0, **keys: str):
    return lookup(game.chart(address), roll, keys, drm).values()


# ---- Sequence of Play, Event cards, Mission counts ----------------------------------------------


def test_sequence_of_play_has_27_steps_in_five_phases(gen) -> None:
    # Sequence of Play (L254-263): PRE-FLIGHT 1-5, TARGET-BOUND FLIGHT 6-12, OVER-TARGET 13-19,
    # HOME-BOUND FLIGHT 20-21, DEBRIEFING 22-27
    phases = [gen.lookup_sequence_of_play(n)["phase"] for n in range(1, 28)]
    assert (
        phases
        == ["pre_flight"] * 5 + ["target_bound"] * 7 + ["over_target"] * 7 + ["home_bound"] * 2 + ["debriefing"] * 6
    )
    with pytest.raises(ValueError):
        gen.lookup_sequence_of_play(28)


def test_sequence_of_play_steps_as_printed(sl) -> None:
    # L260 "8. Remove proper number of Fuel Barrels" (its heading, L350: "Remove Correct Number")
    assert value(sl, "sequence_of_play", "8") == {
        "phase": "target_bound",
        "step": "Remove proper number of Fuel Barrels",
    }
    assert value(sl, "step_headings", "8") == {"heading": "Remove Correct Number of Fuel Barrels"}  # L350
    # L261 "15. Sites and Bandits Attack (One Pilot may Suppress; Pilot under Attack may use Evasion; ...)"
    assert value(sl, "sequence_of_play", "15")["step"] == (
        "Sites and Bandits Attack (One Pilot may Suppress; Pilot under Attack may use Evasion; "
        "Pilot may attempt to Bail Out)"
    )
    assert value(sl, "step_headings", "15")["heading"] == "Sites and Bandits Attack"  # L392
    # L262 "21. Pilots and Damaged Aircraft roll for Safe Landing"
    assert value(sl, "sequence_of_play", "21")["step"] == "Pilots and Damaged Aircraft roll for Safe Landing"
    # L583 "21. Wounded Pilots and Damaged Aircraft Roll for Safe Landing"
    assert value(sl, "step_headings", "21")["heading"] == "Wounded Pilots and Damaged Aircraft Roll for Safe Landing"
    # L263 "27. Activate Medic to heal Pilots" (its heading, L631: "Use Medic to Heal Pilots")
    assert value(sl, "sequence_of_play", "27")["step"] == "Activate Medic to heal Pilots"


def test_event_cards_are_read_at_steps_6_11_20(sl, gen) -> None:
    # L344 step 6 "resolve the Event in the top section"; L368 step 11 "middle section"; L582 step 20 "bottom section"
    steps = {n: gen.lookup_sequence_of_play(n)["step"] for n in range(1, 28)}
    assert {n: s for n, s in steps.items() if "Event card" in s} == {
        6: "Draw Target-Bound Event card",
        11: "Draw Over-Target Event card",
        20: "Draw Home-Bound Event card",
    }
    # Event Cards (L157-159): top during the Target-Bound step, middle Over-Target, bottom Home-Bound
    assert value(sl, "event_card_sections", None, event_section="top")["phase"] == "target_bound"
    assert value(sl, "event_card_sections", None, event_section="middle")["phase"] == "over_target"
    assert value(sl, "event_card_sections", None, event_section="bottom")["phase"] == "home_bound"


def test_step_11_phase_disagrees_with_event_cards(corpus) -> None:
    # Print defect kept as printed: L260 puts "11. Draw Over-Target Event card" in TARGET-BOUND FLIGHT,
    # L158 reads the middle section "during the Over-Target step": `chartc check` reports the
    # invariant's C417, citing both; the other three Event card invariants hold.
    found = [d.message.split("`")[1] for d in corpus.diagnostics if d.span.file == "charts/stuka_leader/sequence.chart"]
    assert found == ["over_target_event_middle", "safe_landing_title"]
    names = {i.id for i in corpus.project.games["stuka_leader"].invariants}
    assert {
        "target_bound_event_top",
        "over_target_event_middle",
        "home_bound_event_bottom",
        "event_draws_three",
    } <= names


def test_mission_counts(sl) -> None:
    # L155 "You will draw Event cards three times during each Mission."
    assert value(sl, "mission_counts", None, mission_count="event_draws")["count"] == 3
    # L69 "You have five Turns to Destroy the Target."
    assert value(sl, "mission_counts", None, mission_count="turns")["count"] == 5
    # L382 "Each Turn a Pilot may declare one enemy (Target, Site or Bandit) to Attack"
    assert value(sl, "mission_counts", None, mission_count="attacks_per_turn")["count"] == 1
    # L325 "spend one Situational Awareness counter to perform an extra Attack"
    assert value(sl, "mission_counts", None, mission_count="sa_extra_attacks")["count"] == 1
    # L303 Primary plus one Secondary Mission; L304 a Pilot flies one of them, not both
    assert value(sl, "mission_counts", None, mission_count="missions_per_day")["count"] == 2
    assert value(sl, "mission_counts", None, mission_count="missions_per_pilot")["count"] == 1


# ---- Dogfight rolls ---------------------------------------------------------------------------


def test_maneuver_roll_bands(gen) -> None:
    # L442 "The die roll result ranges are: 2 or less, 3 to 5, 6 to 8, and 9 or higher."
    bands = [gen.lookup_maneuver_roll(n)["band"] for n in range(1, 11)]
    assert bands[0] == bands[1] == "The Maneuver's 2 or less result"
    assert bands[2] == bands[4] == "The Maneuver's 3 to 5 result"
    assert bands[5] == bands[7] == "The Maneuver's 6 to 8 result"
    assert bands[8] == bands[9] == "The Maneuver's 9 or higher result"


def test_maneuver_roll_modifiers(gen) -> None:
    # L437 "add your Pilot's AtA stat, the Aircraft Maneuver value, and the WP Penalty. Subtract the
    # Bandit's AtA Skill."
    # L438 "WP Penalty: Aircraft receive a -1 penalty for each WP of Rockets or Drop Tanks carried."
    assert gen.drm_maneuver_roll(pilot_ata=2, aircraft_mn=1, wp_carried=0, bandit_ata=0) == 3
    assert gen.drm_maneuver_roll(pilot_ata=0, aircraft_mn=0, wp_carried=2, bandit_ata=0) == -2
    # a D.520's AtA Modifier of -3 (L468) is subtracted: +3
    assert gen.drm_maneuver_roll(pilot_ata=0, aircraft_mn=0, wp_carried=0, bandit_ata=-3) == 3
    # DeRuyter Shaken (-2 AtA, L467), MN +1, one WP of Rockets, against a +1 Bandit: -2 + 1 - 1 - 1
    assert gen.drm_maneuver_roll(pilot_ata=-2, aircraft_mn=1, wp_carried=1, bandit_ata=1) == -3
    assert gen.lookup_maneuver_roll(5, drm=-3)["band"] == "The Maneuver's 2 or less result"


def test_bandit_maneuver_rolls(gen) -> None:
    # L531 choice: "Add the Bandit's AtA Skill and subtract the Friendly Aircraft's MN."
    assert gen.drm_bandit_maneuver_choice(bandit_ata=1, aircraft_mn=2) == -1
    # L532 success: "Add the Bandit's AtA Skill, and subtract your Pilot's AtA stat, your Aircraft's MN
    # stat and any WP penalty" (the -1 per WP penalty subtracted: +1 per WP)
    assert gen.drm_bandit_maneuver_success(bandit_ata=1, pilot_ata=1, aircraft_mn=1, wp_carried=2) == 1
    # L281 Escort Mission: a generic Bomber has a -2 Maneuver, subtracted: +2 to the Bandit
    assert gen.drm_bandit_maneuver_success(bandit_ata=0, pilot_ata=0, aircraft_mn=-2, wp_carried=0) == 2
    # L524 "Bandits Maneuver using the same rules as your Fast Pilots": the same four ranges
    assert gen.lookup_bandit_maneuver_success(9)["band"] == "The Maneuver's 9 or higher result"


def test_gun_attack_modifiers(gen) -> None:
    # L464-465 "add your Pilot's AtA stat and subtract the Bandit's AtA skill. Add +1 ... Advantaged.
    # Add +3 ... Tailing."
    assert gen.drm_gun_attack(pilot_ata=0, bandit_ata=-3, attacker_position="neutral") == 3  # L468
    assert gen.drm_gun_attack(pilot_ata=1, bandit_ata=0, attacker_position="tailing") == 4
    # L448-453: "+2 Atk ... add 2 to its Attack roll"; "-1 Atk ... subtract 1"
    assert gen.drm_gun_attack(attacker_position="advantaged", maneuver="atk_plus2") == 3
    assert gen.drm_gun_attack(maneuver="atk_minus1") == -1
    # L647 High Stress: "+1 to all his Attack and Suppression rolls for the Turn"
    assert gen.drm_gun_attack(high_stress=True) == 1


def test_gun_attack_hits_on_the_gun_rating(gen) -> None:
    # L463 "You Destroy the Bandit or Bomber if the modified die roll is equal to or greater than the
    # Aircraft's Gun rating." L468: DeRuyter rolls 4, +3 against the D.520: 7, his Guns' 7: Destroyed
    drm = gen.drm_gun_attack(pilot_ata=0, bandit_ata=-3, attacker_position="neutral")
    hit = gen.lookup_gun_attack(4, gun_rating="r7", drm=drm)["result"]
    assert hit.startswith("Hit: the Bandit or Bomber is Destroyed")
    assert gen.lookup_gun_attack(3, gun_rating="r7", drm=drm)["result"] == "Miss"  # 3 + 3 = 6


def test_gun_attack_maneuver_results_are_one_group(sl) -> None:
    # only this Turn's one Maneuver result applies: the four Atk DRMs are a `one` group
    drms = {d.id: (d.value, d.group) for d in sl.chart("gun_attack").drms}
    assert drms["atk_plus1"] == (1, "maneuver_atk") and drms["atk_plus4"] == (4, "maneuver_atk")
    assert drms["atk_minus1"] == (-1, "maneuver_atk") and drms["tailing"] == (3, None)


def test_bandit_and_site_attack_modifiers(gen) -> None:
    # L536 "Add the Bandit's AtA Skill, and subtract your Pilot's AtA stat, and your Aircraft's Robustness stat."
    assert gen.drm_bandit_attack_modifiers(bandit_ata=1, pilot_ata=2, robustness=1) == -2
    # L535 "An He 162 has a Robust rating of -1 ... it adds +1 to their Attack rolls."
    assert gen.drm_bandit_attack_modifiers(robustness=-1) == 1
    assert gen.drm_site_attack_modifiers(robustness=-1) == 1
    # L539 "Damaged Aircraft receive a -1 to their Robustness rating": +1 to the attack
    assert gen.drm_bandit_attack_modifiers(robustness=0, aircraft_damaged=True) == 1
    # L555 Fire Director: "all Sites suffer -1 on their Attack rolls"
    assert gen.drm_site_attack_modifiers(fire_director_destroyed=True) == -1
    # L574: the P-47 (+0 AtA) against Protz (+0 AtA) adds nothing
    assert gen.drm_bandit_attack_modifiers(bandit_ata=0, pilot_ata=0) == 0


def test_defensive_fire_and_rear_gunner(gen, sl) -> None:
    # L541 "Modifiers are Attacking Aircrafts AtA and Friendly Robustness" (signs not printed: subtracted as L536)
    assert gen.drm_defensive_fire_modifiers(pilot_ata=2, robustness=-1) == -1
    # L143 "the rear gunner uses the FF to hit numbers, -1"
    assert gen.drm_rear_gunner() == -1
    assert any("not their signs" in n for n in sl.chart("defensive_fire_modifiers").notes)


def test_escort_mission(sl, gen) -> None:
    # L281 "the Bomber has a -2 Maneuver and Gunner: [9]"; L282 "a Transport ... -1 Maneuver and NO defensive ability"
    assert gen.lookup_escorted_aircraft(escorted="bomber") == {"maneuver": -2, "gunner": (9,), "defence": "Gunner: [9]"}
    assert gen.lookup_escorted_aircraft(escorted="transport") == {
        "maneuver": -1,
        "gunner": None,
        "defence": "NO defensive ability",
    }
    # L283 Minor: No Effect; L284 Major: turns around; L286 Destroyed: -1VP
    assert value(sl, "escort_bandit_results", None, scored_result="minor") == {
        "effect": "Treat it as No Effect.",
        "vp": None,
    }
    assert value(sl, "escort_bandit_results", None, scored_result="Major")["effect"].startswith(
        "That Bomber / Transport immediately turns around"
    )
    assert value(sl, "escort_bandit_results", None, scored_result="destroyed")["vp"] == -1


# ---- Campaign: costs, victories, experience, medic, VP, stress ----------------------------------


def test_fuel_barrels_and_rockets_cost(sl) -> None:
    # L233 "Fuel Barrels cost two SO for three Barrels."
    assert value(sl, "so_flat_costs", None, so_flat_item="fuel_barrels")["so"] == 2
    assert value(sl, "so_flat_costs", None, so_flat_item="fuel_barrels")["buys"] == 3
    # L176 "You must pay 1 Special Option point for every Rocket counter you equip per Mission."
    assert value(sl, "so_flat_costs", None, so_flat_item="rocket")["so"] == 1


def test_victories_and_bandit_skills(sl, gen) -> None:
    # L477 one victory per enemy counter; L478 Legendary Bandit or final Target hits: 2; L507 last AtA Objective: not 2
    assert gen.lookup_victories(victory_for="enemy_counter")["victories"] == 1
    assert gen.lookup_victories(victory_for="legendary_bandit")["victories"] == 2
    assert gen.lookup_victories(victory_for="target_final_hits")["victories"] == 2
    assert gen.lookup_victories(victory_for="last_ata_objective")["victories"] == 1
    # L360 "Newbie, Green, Average, Veteran, and Legendary": five levels, no Skilled
    assert [m.id for m in sl.enums["bandit_skill"].members] == ["newbie", "green", "average", "veteran", "legendary"]
    # L466/L469: Veteran or Legendary Bandits are removed from the Campaign; L470 Legendary counts 2
    assert value(sl, "bandit_skill_levels", None, bandit_skill="veteran")["destroyed"].startswith("Remove the counter")
    assert value(sl, "bandit_skill_levels", None, bandit_skill="average")["destroyed"].startswith("Place the Bandit")
    assert value(sl, "bandit_skill_levels", None, bandit_skill="legendary")["victories"] == 2


def test_ace_awards(gen) -> None:
    # L471 "Each time a Pilot Destroys a total of five enemy counters ... up to 2 times"; L476 Aces Expansion: none
    assert [gen.compute_ace_awards(victories=v) for v in (4, 5, 9, 10, 15, 30)] == [0, 1, 1, 2, 2, 2]
    assert gen.compute_ace_awards(victories=10, aces_expansion_pilot=True) == 0


def test_mission_xp_and_promotion(gen) -> None:
    # L619 "+1 Experience point"; L620 "+1 additional" if the Target was Destroyed and no Pilot lost; L346 Abort: none
    assert gen.compute_mission_xp() == 1
    assert gen.compute_mission_xp(target_destroyed=True) == 2
    assert gen.compute_mission_xp(target_destroyed=True, pilot_lost=True) == 1
    assert gen.compute_mission_xp(aborted=True, target_destroyed=True) == 0
    # L629: 6 Experience points, 5 to promote to Green: 1 carries over
    assert gen.compute_xp_after_promotion(xp=6, promotion_number=5) == 1


def test_medic_options(sl) -> None:
    # L633-635: two Stress; a Miss One Day Wound; a Miss Two Day Wound becomes Miss One Day
    assert value(sl, "medic_options", None, medic_option="remove_stress") == {
        "effect": "Remove two Stress from one Pilot."
    }
    assert value(sl, "medic_options", None, medic_option="two_days_to_one")["effect"].startswith(
        "Replace a Miss Two Day"
    )
    assert len(sl.enums["medic_option"].members) == 3


def test_vp_adjustments(sl, gen) -> None:
    assert len(sl.enums["vp_item"].members) == 12
    get = lambda m: gen.lookup_vp_adjustments(vp_item=m)["vp"]  # noqa: E731
    assert get("target_of_opportunity") == 1  # L553
    assert get("escort_exits_west") == 1  # L280
    assert get("escort_exits_east") == 0  # L285
    assert get("escort_destroyed") == -1  # L286
    assert get("nuke") == -5  # L514
    assert get("one_more_aircraft") == -1 and get("one_fewer_aircraft") == 1  # L642
    assert get("ace_survives") == 1  # L475
    assert get("legendary_trade") == 3  # L196, L624
    assert get("target_damaged") is None  # L605: one-half of the Target's VPs (damaged_target_vp)


def test_stress_adjustments(gen) -> None:
    get = lambda m: gen.lookup_stress_adjustments(stress_item=m)["stress"]  # noqa: E731
    assert get("suppression") == 1  # L562
    assert get("evasion") == 1 and get("unfit_evasion") == 1  # L565, L568
    assert get("high_stress") == 1  # L647
    assert get("bail_out") == 2  # L248
    assert get("drop_tank") == -1  # L610
    assert get("schnapps") == -2 and get("medic") == -2  # L617, L633
    assert get("zeal") is None  # L332 "remove 1-2 Stress": no one number
    assert get("recovery") is None and get("rest") is None  # L612, L614: the Cool rating (stress_recovery)


def test_pilot_counters_and_horrido(sl) -> None:
    # L330 "Situational Awareness is renewed after each Mission."
    assert (
        value(sl, "pilot_counters", None, pilot_counter="sa")["regain"]
        == "Situational Awareness is renewed after each Mission."
    )
    # L332 "You may expend a Zeal counter to instantly remove 1-2 Stress."
    assert value(sl, "pilot_counters", None, pilot_counter="zeal")["use"] == (
        "You may expend a Zeal counter to instantly remove 1-2 Stress."
    )
    # L338 "treat the Attack roll as being a "10", before applying modifiers"
    assert '"10", before applying modifiers' in value(sl, "horrido_uses", None, horrido_use="attack_10")["effect"]
    assert len(sl.enums["horrido_use"].members) == 3  # L336-338


# ---- Computed values --------------------------------------------------------------------------


def test_damaged_targets_half_value(gen) -> None:
    # L605 "at least one-half of the Hits needed ... (rounded down)"; "one-half of the Target's VPs, rounding down"
    assert gen.compute_damaged_target_hits(target_hits=5) == 2
    assert gen.compute_damaged_target_hits(target_hits=3) == 1
    assert gen.compute_damaged_target_vp(target_vp=5) == 2
    # L606 "If you Destroy the Target on the second attempt, gain one-half the Target's VPs, rounding up"
    assert gen.compute_damaged_target_destroyed_vp(target_vp=5) == 3
    # the two halves add up to the Target's VP, whatever it is
    for v in range(0, 100):
        assert gen.compute_damaged_target_vp(target_vp=v) + gen.compute_damaged_target_destroyed_vp(target_vp=v) == v
    # print quirk: a 1-Hit Target is "Damaged" by 0 Hits (one-half of 1, rounded down)
    assert gen.compute_damaged_target_hits(target_hits=1) == 0


def test_target_stress_and_recovery(gen) -> None:
    # L610 Drop Tank -1 Stress, "If it is a 0 Stress Target, the Pilot still receives a -1 Stress"
    assert gen.compute_target_stress(dot_stress=2, drop_tank=True) == 1
    assert gen.compute_target_stress(dot_stress=0, drop_tank=True) == -1
    # L612 recover the Cool rating; L614 Cool + 2 when resting
    assert gen.compute_stress_recovery(cool=1) == 1
    assert gen.compute_stress_recovery(cool=1, rested=True) == 3
    # L613: 3 + 1 (Site) + 1 (Target) - 1 (Cool) = 4; L615: 7 - 1 - 2 = 4
    assert gen.compute_end_of_day_stress(stress=3, mission_stress=1, dot_stress=1, cool=1) == 4
    assert gen.compute_end_of_day_stress(stress=7, mission_stress=0, dot_stress=0, cool=1, rested=True) == 4
    # L616 Priority R&R: "remove Stress equal to 2 plus each Pilot's respective Cool rating"
    assert gen.compute_priority_rr_relief(cool=2) == 4


def test_the_worked_examples_hold(gen) -> None:
    # every example of examples.chart the module can run holds
    assert gen.check_examples() == []


# ---- Signed int ranges (the language change the AtA stats need) -------------------------------


def test_signed_context_range(tmp_path) -> None:
    # `-5-5` declares a signed range; a per-N DRM counts negative steps (a D.520's AtA -3 subtracted: +3)
    comp = compile_text(
        tmp_path,
        'game t { title "t" }\n'
        'context ata: int "AtA" -5-5\n'
        'context low: int "Low" -3--1\n'
        'context back: int "Back" 2--2\n'
        'chart m "M" {\n  roll 1d10\n  column r: text "R"\n  drm ata "AtA" -1 per ata\n'
        '  rows { 2-: "a" 3-5: "b" 6-8: "c" 9+: "d" }\n}\n',
    )
    assert [d.code for d in comp.diagnostics] == ["C332"]  # `2--2` runs backwards
    var = comp.project.games["t"].context["ata"]
    assert (var.low, var.high) == (-5, 5)
    low = comp.project.games["t"].context["low"]
    assert (low.low, low.high) == (-3, -1)


def test_signed_range_in_the_cli(run) -> None:
    r = run("lookup", "stuka_leader/maneuver_roll", "4", "--set", "bandit_ata=-3")
    assert r.exit_code == 0 and "Bandit's AtA Skill (subtracted) +3 (-3 x -1)" in r.output and "= 7" in r.output
    r = run("lookup", "stuka_leader/maneuver_roll", "4", "--set", "bandit_ata=-6")
    assert r.exit_code != 0 and "outside its declared range -5-5" in r.output


def test_formula_inputs_follow_the_condition_order(tmp_path, gen) -> None:
    # `if target_destroyed and not pilot_lost` (L620): the inputs are in the order the formula names
    # them, not a set's, so two builds write the same signature
    from compiler.engine.formulas import inputs

    comp = compile_text(
        tmp_path,
        'game t { title "t" }\n'
        'context zeta: flag "Z"\ncontext alpha: flag "A"\ncontext mid: flag "M"\n'
        'formula f "F" { rule "1" result if zeta and not (alpha or mid) then 2 else 1 }\n',
    )
    game = comp.project.games["t"]
    assert inputs(game, game.formula("f")) == ("zeta", "alpha", "mid")
    import inspect

    assert list(inspect.signature(gen.compute_mission_xp).parameters) == ["aborted", "target_destroyed", "pilot_lost"]
