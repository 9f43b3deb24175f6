"""Interceptor Ace Vol. 2: the DRM lists, rolls and reference tables the rules print in prose.

Charts in charts/ia2/card_drms.chart, prose_rolls.chart and prose_tables.chart; each assertion cites
the rule (seed 000). Lookups through the model (`compiler.engine.lookup`) and the generated module.
"""

from __future__ import annotations

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_more_generated")


def value(ia2, address: str, roll: str | None, **keys: str):
    return lookup(ia2.chart(address), roll, keys, 0).values()


# ---- DRM lists of charts printed on the player aid cards ---------------------------------------


def test_a3_drms(ia2, gen) -> None:
    a3 = ia2.chart("A3")
    assert a3.kind == "drms" and a3.rows == ()
    # IA2 6.1: -1 to the F/B Attack roll if the raid target is A/F; 7.12: "a die roll on 1d6 of 4, with a
    # -1 modifier because the target is A/F, results in a net result of 3"
    assert gen.drm_a3(a3_roll="fb_attack", raid_target_af=True) == -1
    assert 4 + gen.drm_a3(a3_roll="fb_attack", raid_target_af=True) == 3
    # the A/F modifier is for the F/B Attack roll only, not the fighter sweep check
    assert gen.drm_a3(a3_roll="fighter_sweep", raid_target_af=True) == 0
    # IA2 6.1: +1 when checking the Fighter Sweep Encounter if flying a jet fighter
    assert gen.drm_a3(a3_roll="fighter_sweep", flying_jet=True) == 1
    assert gen.drm_a3(a3_roll="fb_attack", flying_jet=True) == 0


def test_b7_landing_drms(ia2, gen) -> None:
    assert ia2.chart("B7").kind == "drms"
    # IA2 7.4.5: forced deadstick landing at +1 drm
    assert gen.drm_b7(forced_landing=True) == 1
    # IA2 7.4.8: LW +1, SW +2 to the landing roll; KIA nothing
    assert gen.drm_b7(pilot_injury="lw") == 1
    assert gen.drm_b7(pilot_injury="SW") == 2
    assert gen.drm_b7(pilot_injury="kia") == 0
    # IA2 R6 (10.5): +1 landing at 10-14 and 15-19, +2 at 20+; nothing below 10
    assert [gen.drm_b7(fatigue_points=f) for f in (9, 10, 14, 15, 19, 20, 30)] == [0, 1, 1, 1, 1, 2, 2]
    # IA2 7.5: +1 or +2 when the landing weather is not good
    assert gen.drm_b7(weather_modifier=0) == 0
    assert gen.drm_b7(weather_modifier=2) == 2
    # IA2 10.12: a Green pilot applies +1 drm to landing rolls
    assert gen.drm_b7(green_pilot=True) == 1
    # IA2 11.10.1: Me 163B-1 always +1 emergency landing and +1 engine out; +2 skid damaged; +2 fuel tank hit
    assert gen.drm_b7(flying_me163=True) == 2
    assert gen.drm_b7(flying_me163=True, landing_skid_damaged=True, fuel_tank_hit=True) == 6
    # the skid and fuel tank modifiers are the Me 163B-1's
    assert gen.drm_b7(landing_skid_damaged=True, fuel_tank_hit=True) == 0
    # the Me 163's emergency +1 is the forced landing's: not counted twice
    assert gen.drm_b7(flying_me163=True, forced_landing=True) == 2
    # IA2 10.15.3 Scramble from Parchim: +1 on the Landing Chart for damage on the runway
    assert gen.drm_b7(runway_damage=True) == 1
    # IA2 7.12: "a 9 modified by +1 for the damaged engine"; at Fatigue 16 R6 adds +1 (the example's +2
    # is the known contradiction of example fatigue_16_landing)
    assert gen.drm_b7(engine_damaged=True, fatigue_points=16) == 2


def test_b8_parachute_drms(gen) -> None:
    # IA2 7.6: parachuting from a DE result applies +1
    assert gen.drm_b8(de_result=True) == 1
    # IA2 7.4.8: LW +2, SW +3 to the parachute roll
    assert gen.drm_b8(crewman_injury="lw") == 2
    assert gen.drm_b8(crewman_injury="sw") == 3
    # IA2 R6 (10.5): +1 at 5-9 and 10-14, +2 at 15-19 and 20+
    assert [gen.drm_b8(fatigue_points=f) for f in (4, 5, 9, 10, 14, 15, 20)] == [0, 1, 1, 1, 1, 2, 2]


def test_b12_initiative_drms(ia2, gen, run) -> None:
    # IA2 7.2.2.7: an opposed roll, your 1d6 against the enemy's, read by the net differential
    assert ia2.chart("B12").kind == "roll" and ia2.chart("B12").partial
    # IA2 7.2.2.9: Agile aircraft add 2, as long as they have not suffered engine or controls damage
    assert gen.drm_b12(agile=True) == 2
    assert gen.drm_b12(agile=True, engine_or_controls_damaged=True) == 0
    # IA2 7.8.8: +1 for an Ace; 7.2.2.10 example: +1 for the MW-50 boost
    assert gen.drm_b12(pilot_ace=True, mw50=True) == 2
    # IA2 7.4.8: LW -1, SW -2 to the initiative roll; R6: -1 from 15 Fatigue Points
    assert gen.drm_b12(pilot_injury="lw") == -1
    assert gen.drm_b12(pilot_injury="sw") == -2
    assert [gen.drm_b12(fatigue_points=f) for f in (14, 15, 19, 20)] == [0, -1, -1, -1]
    # IA2 7.12 (line 599): "18 speed + 2 Agile aircraft + 1 Ace pilot + 1 MW50" with no damage is +4
    assert gen.drm_b12(agile=True, pilot_ace=True, mw50=True) == 4
    # the modified differential -1 is on the chart: the DRM breakdown is printed with the row
    r = run("lookup", "ia2/B12", "--when", "pilot_ace", "--set", "speed_difference=-3", "--", "1")
    assert r.exit_code == 0 and "roll 1 - DRM 2 = -1 -> row -1" in r.output and "No change in position" in r.output
    # IA2 7.2.2.10: speeds 19 (+1 MW-50) against the P-47's 21, dice 2 against 4: "a 3 point difference,
    # gaining the P-47 an improvement in position"
    assert gen.drm_b12(speed_difference=-2, mw50=True) == -1
    assert gen.lookup_b12(-2, drm=-1) == {"result": "The enemy gains an improvement in position"}
    # the Allied fighter's modifiers count against you: IA2 10.6 Ace +1, 10.6.1 S.A. +1 for him
    assert gen.drm_b12(allied_ace=True, allied_sa=True) == -2
    assert gen.drm_b12(p47_loaded=True) == 1


def test_initiative_allied_drms(gen) -> None:
    # IA2 10.6: Ace +1 on the initiative roll; 10.6.1: S.A. +1
    assert gen.drm_initiative_allied(allied_ace=True, allied_sa=True) == 2
    # IA2 7.2.2.9: the Spitfire and P-51 are Agile (+2) unless engine or controls are damaged
    assert gen.drm_initiative_allied(allied_agile=True) == 2
    assert gen.drm_initiative_allied(allied_agile=True, allied_engine_or_controls_damaged=True) == 0
    # IA2 10.15.3 Scramble from Parchim: a loaded P-47D applies -1 to his Initiative roll
    assert gen.drm_initiative_allied(p47_loaded=True) == -1


def test_w1_wingman_drms(gen) -> None:
    # IA2 7.7: Gunnery -1, Aim -1 to the wingman's roll; "with both skills he would receive -2"
    assert gen.drm_w1(wingman_gunnery=True) == -1
    assert gen.drm_w1(wingman_aim=True) == -1
    assert gen.drm_w1(wingman_gunnery=True, wingman_aim=True) == -2
    # IA2 7.9.1 example: "The result is a 4 on table [W1], which results in 6 random hits (airframe)
    # instead of the DE result, and Wingman damaged"; "Your wingman obtains a 6, which results in 4
    # random hits (airframe) and Wingman Damaged"
    assert gen.lookup_w1(4) == {"result": "DE and Wingman Damaged"}
    assert gen.lookup_w1(6) == {"result": "4 random hits (airframe) and Wingman Damaged"}


# ---- rolls stated in prose ----------------------------------------------------------------------


def test_straggler(ia2) -> None:
    # IA2 5.2.5: a straggler on "an additional 1 on 1d6"; 7.12: "The result is a 3 ... so we attack the
    # bomber formation"
    assert value(ia2, "straggler", "1")["result"].startswith("Straggler: apply 4 random engine hits")
    assert value(ia2, "straggler", "3")["result"].startswith("No straggler")
    assert value(ia2, "straggler", "6")["result"].startswith("No straggler")


def test_scrounging(gen) -> None:
    # IA2 7.9.2 Limited Scrounging: 4-5 systems repaired for the next sortie on 1d6 4-6
    assert gen.lookup_limited_scrounging(4)["result"] == "The damage is repaired in time for the next sortie"
    assert gen.lookup_limited_scrounging(3)["result"].startswith("Normal repairs (7.4.2)")
    # IA2 7.9.2 Scrounging: 6+ systems, a new aircraft for the next sortie on 1d6 4-6
    assert gen.lookup_scrounging_new_aircraft(6)["result"] == "You receive a new aircraft for the next sortie"
    assert gen.lookup_scrounging_new_aircraft(1)["result"].startswith("Normal repairs (7.4.2)")


def test_cooperative_assist(gen) -> None:
    # IA2 10.2: "On a 1 or a 2, he will find himself starting a new combat in a disadvantaged status"
    assert "Disadvantaged" in gen.lookup_cooperative_assist(2)["result"]
    assert gen.lookup_cooperative_assist(3)["result"] == "No new combat"


def test_me163_out_of_fuel(gen) -> None:
    # IA2 11.10.1: out of fuel disengagement succeeds on a 1d6 1-4, fails on a 5-6
    assert gen.lookup_me163_out_of_fuel(4) == {"result": "Disengagement succeeds"}
    assert gen.lookup_me163_out_of_fuel(5) == {"result": "Disengagement fails"}


def test_crew_injury_armored(ia2) -> None:
    # IA2 11.2.3: /R7 and /R8 "pilot injury on a roll of 2-6, and "no effect" on a roll of 7-12" (2d6)
    assert value(ia2, "crew_injury_armored", "6") == {"result": "Pilot injury"}
    assert value(ia2, "crew_injury_armored", "7") == {"result": "No effect"}
    assert value(ia2, "crew_injury_armored", "12") == {"result": "No effect"}
    assert ia2.chart("crew_injury_armored").drms == ()


# ---- reference tables ---------------------------------------------------------------------------


def test_escort_range_legend(gen) -> None:
    # IA2 4.6 map legend: A1 "Initial range - May 1943", A5 "1x150Gal. belly tank - Feb. 1944",
    # B1 "2x75Gal. Tanks - Nov. 1943", C3 "2x108Gal. wing tanks - Mar. 1944"
    assert gen.lookup_escort_range(escort_arc="a1") == {
        "fighter": "P-47 Thunderbolt",
        "configuration": "Initial range",
        "from": "1943-05",
    }
    assert gen.lookup_escort_range(escort_arc="A5")["from"] == "1944-02"
    assert gen.lookup_escort_range(escort_arc="b1") == {
        "fighter": "P-38 Ligthning",
        "configuration": "2x75Gal. Tanks",
        "from": "1943-11",
    }
    assert gen.lookup_escort_range(escort_arc="c3")["configuration"] == "2x108Gal. wing tanks"
    assert gen.lookup_escort_range(escort_arc="c1")["from"] == "1943-12"


def test_standard_maneuvers(gen) -> None:
    # IA2 7.2.2.2: "Tight Turn. Improve position by one (or by two, if agile). Barrel Roll. Avoid 2 hits."
    assert gen.lookup_standard_maneuvers(standard_maneuver="tight_turn")["effect"] == (
        "Improve position by one (or by two, if agile)."
    )
    assert gen.lookup_standard_maneuvers(standard_maneuver="Barrel Roll")["effect"] == "Avoid 2 hits."


def test_injury_effects(gen) -> None:
    # IA2 7.4.8: LW miss 1 sortie, landing +1, parachute +2, initiative -1, -1 random hit
    lw = gen.lookup_injury_effects(injury="lw")
    assert (lw["duration"], lw["landing"], lw["parachute"], lw["initiative"]) == ("Miss 1 sortie.", 1, 2, -1)
    assert lw["firing"] == "-1 random hit"
    # SW: 2d6 on the Serious Wound Resolution Chart (C2); landing +2, parachute +3, initiative -2
    sw = gen.lookup_injury_effects(injury="SW")
    assert sw["sorties_chart"] == {"chart": "C2"}
    assert (sw["landing"], sw["parachute"], sw["initiative"]) == (2, 3, -2)
    # SW of the pilot: "you must immediately attempt to break off combat"; other crewmen: a temporary crewman
    assert sw["pilot"].startswith("You must immediately attempt to break off combat")
    assert "temporary crewman" in sw["crewman"] and "temporary crewman" in lw["crewman"]
    # KIA: no duration or DRMs printed; "If the pilot is KIA, the game ends at that point."
    kia = gen.lookup_injury_effects(injury="kia")
    assert kia["pilot"] == "The game ends at that point"
    assert {k: v for k, v in kia.items() if k not in ("pilot", "crewman")} == dict.fromkeys(
        ("duration", "sorties_chart", "landing", "parachute", "initiative", "firing")
    )


def test_injury_effects_agree_with_the_drm_lists(gen) -> None:
    # the same 7.4.8 numbers, once as the injury table and once as the B7/B8/B12 DRMs
    for injury in ("lw", "sw"):
        row = gen.lookup_injury_effects(injury=injury)
        assert row["landing"] == gen.drm_b7(pilot_injury=injury)
        assert row["parachute"] == gen.drm_b8(crewman_injury=injury)
        assert row["initiative"] == gen.drm_b12(pilot_injury=injury)


def test_starting_experience(gen) -> None:
    # IA2 4.4.2 / 7.7: standard game 0 (officer) or 1 (NCO); 7.7 / 10.13: combined 1 or 2
    def xp(mode: str, track: str) -> int:
        return gen.lookup_starting_experience(game_mode=mode, rank_track=track)["experience"]

    assert [xp("standard", "officer"), xp("standard", "nco")] == [0, 1]
    assert [xp("combined", "officer"), xp("combined", "nco")] == [1, 2]
    # IA2 3.4.2 names no rank: "in March 1943 with 1 Experience Point", a standard game "0 Experience Points"
    nco = gen.lookup_starting_experience(game_mode="standard", rank_track="nco")
    assert nco["as_3_4_2"] == 0 and nco["spend"].startswith("You may spend your experience point")


def test_ability_fatigue(gen) -> None:
    # IA2 7.9.1: Rotte Leader 1, Schwarm Leader 1, Staffel Leader 1, Gruppe Leader 2, Geschwader Leader 3
    costs = {a: gen.lookup_ability_fatigue(ability=a)["fatigue"] for a in (
        "rotte_leader", "schwarm_leader", "staffel_leader", "gruppe_leader", "geschwader_leader", "old_dog",
    )}  # fmt: skip
    assert costs == {
        "rotte_leader": 1,
        "schwarm_leader": 1,
        "staffel_leader": 1,
        "gruppe_leader": 2,
        "geschwader_leader": 3,
        "old_dog": 1,  # 7.9.2 "This ability costs you 1 Fatigue Point."
    }
    # IA2 7.9.2 Night Owl: "You reduce your Fatigue by 1 point"; Feldwebel ability
    assert gen.lookup_ability_fatigue(ability="night_owl")["fatigue"] == -1
    assert gen.lookup_ability_fatigue(ability="night_owl")["first_rank"] == "feldwebel"
    # the scrounging abilities cost nothing the rules state
    assert gen.lookup_ability_fatigue(ability="scrounging")["fatigue"] is None
    # IA2 7.9.1 example: a Staffel attack (1) with two Wingman Damaged results (+1 each) costs 3
    staffel = gen.lookup_ability_fatigue(ability="staffel_leader")
    assert staffel["fatigue"] + 2 * staffel["extra"] == 3 and staffel["extra_when"].startswith("each Wingman Damaged")
    assert gen.compute_staffel_leader_fatigue(wingman_damaged_results=2) == 3


def test_night_owl_frequency(gen) -> None:
    # IA2 7.9.2: "once per month (or a bi-monthly period from January 1945 on)"
    assert gen.lookup_night_owl_frequency(month="1944-12") == {"frequency": "Once per month"}
    assert gen.lookup_night_owl_frequency(month="1945-01") == {"frequency": "Once per bi-monthly period"}


def test_fatigue_accrual(gen) -> None:
    # IA2 10.5: each sortie flown +1 Fatigue Point; each sortie NOT flown removes 1; leave sets it to zero
    assert gen.lookup_fatigue_accrual(fatigue_event="sortie_flown")["change"] == 1
    assert gen.lookup_fatigue_accrual(fatigue_event="sortie_not_flown")["change"] == -1
    assert gen.lookup_fatigue_accrual(fatigue_event="annual_leave")["how"].endswith("set at zero.")
    # 10.5 example: 9, +1 for the Rotte Leader ability, +1 for the sortie flown = 11
    rotte = gen.lookup_ability_fatigue(ability="rotte_leader")["fatigue"]
    assert 9 + rotte + gen.lookup_fatigue_accrual(fatigue_event="sortie_flown")["change"] == 11


def test_pilot_quality_effects(gen) -> None:
    # IA2 10.6: Green 1 less random hit; Veteran 1 extra; Ace 1 extra and +1 on the initiative roll
    assert gen.lookup_pilot_quality_effects(pilot_quality="green")["hits"] == "1 less random hit"
    assert gen.lookup_pilot_quality_effects(pilot_quality="trained") == {"hits": "the default", "initiative": None}
    assert gen.lookup_pilot_quality_effects(pilot_quality="ace")["initiative"] == 1
    assert gen.lookup_pilot_quality_effects(pilot_quality="ace")["initiative"] == gen.drm_initiative_allied(
        allied_ace=True
    )


def test_allied_skill_effects(gen) -> None:
    # IA2 10.6.1: S.A. gives a +1 to the Initiative Roll; Sixth Sense converts the first DE to 2 random hits
    assert gen.lookup_allied_skill_effects(allied_skill="sa") == {"effect": "+1 to the Initiative Roll."}
    assert "2 random hits" in gen.lookup_allied_skill_effects(allied_skill="sixth_sense")["effect"]
    assert gen.lookup_allied_skill_effects(allied_skill="acm")["effect"].startswith("One less random hit")


def test_spitfire_ace(ia2, gen) -> None:
    # IA2 10.6.2: James "Johnnie" Johnson, 38 victories, Spitfire IX (March 44-January 45), Spitfire XIV
    # (February 45-May 45), RCAF 127th Wing, Reflexes, Gunnery, A.C.M.
    assert gen.lookup_spitfire_ace(month="1945-01")["aircraft"] == "Spitfire IX"
    ace = gen.lookup_spitfire_ace(month="1945-02")
    assert (ace["ace"], ace["victories"], ace["aircraft"]) == ('James "Johnnie" Johnson', "38", "Spitfire XIV")
    assert ace["skills"] == "Reflexes, Gunnery, A.C.M."
    # printed only for March 1944 to May 1945
    assert ia2.chart("spitfire_ace").partial
    with pytest.raises(gen.NoRowError):
        gen.lookup_spitfire_ace(month="1943-08")


def test_green_pilot_penalties(gen) -> None:
    # IA2 10.12: 1 less random hit (pilot and wingman); +1 drm to landing rolls (pilot only)
    assert gen.lookup_green_pilot_penalties(green_penalty="fewer_hits")["applies_to"] == "pilot and wingman"
    landing = gen.lookup_green_pilot_penalties(green_penalty="landing")
    assert landing == {"limitation": "You apply +1 drm to landing rolls.", "applies_to": "pilot only"}
    assert gen.drm_b7(green_pilot=True) == 1


def test_combining_games_aircraft(gen) -> None:
    # IA2 10.13: Bf 109G-6 instead of the Bf 109G-6 20mm; Bf 109G-6/U4 instead of the Bf 109G-6 30mm
    # "Note that the new versions of these aircraft included in Interceptor Ace 1944-45 are lacking the MW-50"
    lacking = {"mw50": "Lacking (10.13)"}
    assert gen.lookup_combined_substitutions(ia1_aircraft="bf109g6_20mm") == {"use": "bf109g6", **lacking}
    assert gen.lookup_combined_substitutions(ia1_aircraft="Bf 109G-6 30mm") == {"use": "bf109g6u4", **lacking}
    assert gen.lookup_combined_substitutions(ia1_aircraft="fw190a7r2") == {"use": "fw190a7r2", **lacking}
    # IA2 10.13: Bf 109G-1/R6 not Agile; FW 190A-7/R6 speed 19 if loaded, 20 after firing or jettisoning
    assert gen.lookup_combined_modifications(ia1_modified="bf109g1r6") == {"change": "not Agile."}
    assert gen.lookup_combined_modifications(ia1_modified="fw190a7r6")["change"].startswith("speed 19 if loaded")
    assert "Speed 19, no MW-50" in gen.lookup_combined_modifications(ia1_modified="bf109g6r4")["change"]


def test_aircraft_loss_penalty(gen) -> None:
    # IA2 10.17: each time you lose your aircraft you lose 1 victory point
    for cause in ("written_off", "bail_out", "crash_landing"):
        assert gen.lookup_aircraft_loss_penalty(aircraft_loss=cause) == {"vp": -1}


def test_me163_combat_limits(gen) -> None:
    # IA2 11.10.1: 2 passes; or 1 pass and 3 rounds; or 6 rounds of combat against fighters
    assert gen.lookup_me163_combat_limits(me163_limit="bombers") == {"passes": 2, "rounds": 0}
    assert gen.lookup_me163_combat_limits(me163_limit="mixed") == {"passes": 1, "rounds": 3}
    assert gen.lookup_me163_combat_limits(me163_limit="fighters") == {"passes": 0, "rounds": 6}


def test_engine_damage_speed(gen) -> None:
    # IA2 7.4.1: a damaged engine -2; one engine of a twin knocked out -4; radial: 1 from the first hit,
    # -2 at the second
    assert gen.lookup_engine_damage_speed(engine_damage="damaged") == {"speed": -2}
    assert gen.lookup_engine_damage_speed(engine_damage="twin_out") == {"speed": -4}
    assert gen.lookup_engine_damage_speed(engine_damage="radial_first") == {"speed": -1}
    assert gen.lookup_engine_damage_speed(engine_damage="radial_second") == {"speed": -2}
    # 7.12: "18 (speed 2 due to damaged engine)": the Bf 109G-14/U4's 20 less 2
    assert 20 + gen.lookup_engine_damage_speed(engine_damage="damaged")["speed"] == 18


def test_dated_rules(gen) -> None:
    # IA2 10.16: Operation Bodenplatte is the first mission in January 1945 (launched 1 January 1945)
    assert gen.lookup_dated_rules(dated_rule="bodenplatte")["from"] == "1945-01"
    # IA2 4.3.3: four sorties a month from January 1945: the same month as sorties_per_month's change
    assert gen.lookup_dated_rules(dated_rule="four_sorties")["from"] == "1945-01"
    assert gen.limit_sorties_per_month(month="1945-01")["text"] == "exactly 4"
    assert gen.limit_sorties_per_month(month="1944-12", family_flown="fw190")["text"] == "exactly 8"


def test_b12_replaces_the_external_declaration(ia2) -> None:
    # B12 was declared external, then a DRM list; now a partial chart with the rows the examples read
    assert ia2.chart("B12").kind == "roll"
    assert [r.range.printed for r in ia2.chart("B12").rows] == ["-4", "-3", "-1"]
    assert ia2.chart("C2").kind == "external"


# ---- the firepower column of the combat cards (7.1.6): a partial odds rule ------------------------


def test_firepower_column(ia2, gen) -> None:
    fp = ia2.chart("firepower_column")
    assert fp.odds is not None and fp.odds.columns == ("6-", "8", "12", "24")
    assert fp.partial is not None  # the combat cards are not in the rulebook
    # IA2 7.1.6: "an aircraft that has 9 FP total would use the "8" column"
    assert gen.odds_firepower_column(9) == "8"
    # 7.1.6: "The left most column, "6-" means "6 or less." Aircraft with 1 to 6 FP would use that column."
    assert [gen.odds_firepower_column(n) for n in (1, 6)] == ["6-", "6-"]
    # 7.12: "the 12 FP the P-47 will get to hit us" (seed line 594); "he attacks the P-47 with 24 FP" (602)
    assert (gen.odds_firepower_column(12), gen.odds_firepower_column(24)) == ("12", "24")
    # 7.1.6 "Excess firepower does not count": more than 24 reads the highest printed column
    assert gen.odds_firepower_column(30) == "24"
    with pytest.raises(ValueError):  # 7.1.6: firepower is 1 or more
        gen.odds_firepower_column(0)


def test_firepower_column_partial_is_said(corpus, run) -> None:
    # the C308 note names the printed columns; the lookup says so when the firepower lies between them
    (note,) = [d for d in corpus.diagnostics if d.code == "C308" and "`firepower_column`" in d.message]
    assert "only columns 6-, 8, 12, 24 are printed" in note.message
    between = run("lookup", "ia2/firepower_column", "--attack", "10").output
    assert "strength 10 -> 8 (10 reads the 8 column)" in between
    assert "the rule is declared partial" in between
    # 3 FP lies in the 6- column itself (7.1.6 "1 to 6 FP"): nothing to hedge
    assert "declared partial" not in run("lookup", "ia2/firepower_column", "--attack", "3").output
