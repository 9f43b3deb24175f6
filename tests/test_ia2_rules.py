"""Interceptor Ace Vol. 2: the rule items issue 30's outside count found, as data.

The charts, records and formulas of charts/ia2 that hold the rules beyond the printed tables (effects
of states, costs, procedures, the book's facts printed twice), read through the generated module
(`generated/ia2/ia2.py`) and the model. Each assertion cites the rule and its seed-000 line.
"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_rules_generated")


def _field(ia2, enum: str, member: str, field: str):
    (m,) = [m for m in ia2.enums[enum].members if m.id == member]
    return m.record[field]


def test_components_and_markers(gen) -> None:
    # IA2 3.4/3.8: 342 counters, 60 combat cards, 20 double-sided Aircraft Display Mats, 7 + 1 Player Aid Cards
    counts = {c: gen.lookup_components(component=c)["count"] for c in ("counters", "combat_cards", "aircraft_mats")}
    assert counts == {"counters": 342, "combat_cards": 60, "aircraft_mats": 20}
    assert gen.lookup_components(component="d10")["count"] == 2  # 3.8: 2 ten-sided dice
    # 3.4.2: "Eight NCO Rank markers (four pairs, left and right)"
    assert (gen.lookup_markers(marker="nco_rank")["counters"], gen.lookup_markers(marker="nco_rank")["pairs"]) == (8, 4)


def test_ammunition_markers(gen) -> None:
    # IA2 4.4.2: 6 ammo points are 3 markers on the "2" side; 4.5: 4 are 2 markers
    assert gen.compute_ammo_markers_2(ammo_points=6) == 3 and gen.compute_ammo_markers_1(ammo_points=6) == 0
    assert gen.compute_ammo_markers_2(ammo_points=4) == 2
    assert (gen.compute_ammo_markers_2(ammo_points=5), gen.compute_ammo_markers_1(ammo_points=5)) == (2, 1)


def test_separation(gen) -> None:
    # IA2 5.2.4: 2+ engines destroyed, or 1 destroyed and 2 damaged, or 4 damaged (or worse)
    def sep(destroyed: int, damaged: int) -> int:
        return gen.compute_separation(engines_destroyed=destroyed, engines_damaged=damaged)

    assert [sep(2, 0), sep(1, 2), sep(0, 4), sep(1, 3)] == [1, 1, 1, 1]
    assert [sep(1, 1), sep(0, 3), sep(0, 0)] == [0, 0, 0]


def test_scoring_and_victory_points(gen) -> None:
    # IA2 5.2.2-5.2.5: fighter 1, bomber in formation 3, separation 2, straggler 1
    cases = ("fighter_kill", "formation_kill", "separation", "straggler_kill")
    assert [gen.lookup_scoring_rules(scoring=s)["points"] for s in cases] == [1, 3, 2, 1]
    assert gen.lookup_scoring_rules(scoring="rocket_out_of_formation")["result"].startswith("Not a Separation")
    # 7.12: 10 kills (5 fighters, 5 bombers) are 20 points; 8.2: a P-47D and a B-17 are 4
    total = gen.compute_victory_point_total
    assert total(fighter_kills=5, bomber_destructions=5, separations=0, straggler_kills=0) == 20
    assert total(fighter_kills=1, bomber_destructions=1, separations=0, straggler_kills=0) == 4


def test_sequence_and_interception(gen) -> None:
    # IA2 6.1: the raid on A1, weather on B9, take-off on A3, sweeps on A3, interception on B1
    order = [gen.lookup_game_play_outline(play_step=s)["order"] for s in ("raid", "weather", "takeoff", "interception")]
    assert order == [1, 2, 3, 5]
    # 7.12: "A dice roll of 11. We are up sun"; 10.7: "You roll a 4 ... the encounter is Head on"
    assert gen.lookup_b1(11)["encounter"] == "Out of the Sun" and gen.lookup_b1(4)["encounter"] == "Head on"
    # 4.6.3: March 1944, 11 on the Raid Chart is Brunswick in the Ruhr target zone
    assert gen.lookup_a1(11, month="1944-03") == {"target": "brunswick", "zone": "ruhr"}


def test_orientations_printed_two_ways(ia2, corpus) -> None:
    # IA2 7.1.2 lists Head On, Advantaged, Disadvantaged, Tailing, Tailed; 7.2.2 lists Out of the Sun instead
    # of Tailed, under "Starting Orientation" (7.1.2: Tailing "is not a starting orientation"); C418 says so
    found = {d.message.split("`")[1] for d in corpus.diagnostics if d.code == "C418"}
    assert {"tailed_listed", "sun_listed", "tailing_start", "sun_range", "sun_return_fire"} <= found
    lists = ia2.chart("orientation_lists")
    listed = {r.keys[0]: (r.values[1], r.values[2]) for r in lists.rows}
    assert listed["tailed"] == (1, 0) and listed["out_of_the_sun"] == (0, 1) and listed["head_on"] == (1, 1)


def test_hit_changes(gen) -> None:
    # IA2 7.1.8 each gunner hit -1; 7.1.7 small target -1 at long range; 7.1.13 extended burst +1;
    # 10.7 vertical climb +2; 7.4.8 LW -1, SW -2; 7.2.2.2 barrel roll avoids 2
    changes = ("gunner_hit", "small_target", "extended_burst", "vertical_climb", "pilot_lw", "pilot_sw", "barrel_roll")
    assert [gen.lookup_hit_changes(hit_change=h)["hits"] for h in changes] == [-1, -1, 1, 2, -1, -2, -2]


def test_positions(gen) -> None:
    # IA2 7.2.2.7: tailed gaining 2 is head to head, disadvantaged gaining 2 advantaged; never past tailing
    assert gen.lookup_positions(encounter="tailed")["position"] == 1
    head_on = gen.lookup_positions(encounter="head_on")["position"]
    assert gen.compute_position_after(position=1, positions_gained=2) == head_on == 3
    assert gen.compute_position_after(position=2, positions_gained=2) == 4
    assert gen.compute_position_after(position=5, positions_gained=3) == 5
    assert gen.compute_position_after(position=1, positions_gained=-2) == 1  # the enemy tails you at best
    # 7.2.2.9: an agile aircraft's tight turn gains 2, not after engine or controls damage
    agility = ("agile", "agile_damaged", "not_agile")
    assert [gen.lookup_tight_turn(agility=a)["positions"] for a in agility] == [2, 1, 1]
    # 7.2.2.8, 11.10.1: the jets lose a position before initiative, the Me 163B-1 does not
    jets = ("me262", "he162", "go229", "me163")
    assert [gen.lookup_jet_positions(family=f)["positions"] for f in jets] == [1, 1, 1, 0]


def test_initiative_chart_reads_the_examples(gen) -> None:
    # IA2 7.2.2.10: FW 190A-8/R7 speed 19 + 1 MW-50 against the P-47's 21, dice 2 against 4: 3 to the P-47
    drm = gen.drm_b12(speed_difference=-2, mw50=True)
    assert (drm, gen.lookup_b12(-2, drm=drm)["result"]) == (-1, "The enemy gains an improvement in position")
    # 7.12: "The net differential is 1 in favor of the P-47D ... there is no change in position"
    assert gen.lookup_b12(-1) == {"result": "No change in position"}


def test_disengaging(gen) -> None:
    # IA2 7.3: only tailing or advantaged; tailing is automatic, advantaged rolls on R5
    assert gen.lookup_disengaging(disengaging_side="you", encounter="head_on")["result"].startswith("You cannot")
    tailing = gen.lookup_disengaging(disengaging_side="you", encounter="tailing")["result"]
    assert tailing.startswith("Instead of firing: automatic")
    assert gen.lookup_disengaging(disengaging_side="enemy", encounter="advantaged")["chart"] == "[R5]"
    # 7.3.3: an Me 163B-1 out of fuel must try, as a piston-engined fighter
    assert "piston-engined" in gen.lookup_disengage_triggers(disengage_trigger="out_of_fuel")["you"]
    # 7.2.3.1-7.2.3.2: a damaged wingman can neither attack nor assist
    assert gen.lookup_wingman_status(wingman_state="damaged") == {"attack": "No", "assist": "No"}


def test_experience_and_prestige(gen) -> None:
    # IA2 7.7: 1 Experience Point per 4 sorties (7.12: 20 missions, 5 XP); Leadership: 1 per 3 for the others
    assert gen.compute_experience_points(sorties_flown=20) == 5
    assert gen.compute_experience_points(sorties_flown=20, led_by_leadership=True) == 6
    # 8.2: one level per Prestige Point, tracked no further than 7
    assert [gen.compute_prestige_level(prestige_points_received=p) for p in (0, 2, 5, 7, 12)] == [0, 2, 5, 7, 7]
    # 7.9.1: a Staffel Leader order with two Wingman Damaged results costs 3 Fatigue Points
    assert gen.compute_staffel_leader_fatigue(wingman_damaged_results=2) == 3


def test_costs_of_changing_aircraft(gen) -> None:
    # IA2 8.1 A-E and 4.6.1/4.6.4/9.2/9.3: Prestige Points and sorties lost
    def cost(change: str) -> tuple[int | None, int | None]:
        row = gen.lookup_aircraft_changes(aircraft_change=change)
        return row["prestige"], row["sorties_lost"]

    assert cost("same_family") == (1, 0)
    assert cost("other_family") == (2, 2)
    assert cost("reassignment") == (2, 1)
    assert cost("r1_transfer") == (0, 1)
    assert cost("new_base") == (1, 0)
    # 9.3: the upgrade to the FW 190A-8/R8 in September 1944: A-8 type automatic, 3 within the R8's 1-4
    assert gen.lookup_r2_september_1944(6, aircraft_type="fw190a8") == {"result": "automatic"}
    assert gen.lookup_r3_september_1944(3, aircraft="fw190a8r8") == {"result": "available"}
    assert gen.lookup_r3_september_1944(5, aircraft="fw190a8r8") == {"result": "not available"}


def test_units_and_missions(gen) -> None:
    # IA2 R1 note 4, 11.7: four missions a month July-September 1944, eight from October (4 from January 1945)
    me262 = [gen.lookup_unit_missions_per_month(limited_unit="kdo_nowotny", month=m)["missions"] for m in
             ("1944-06", "1944-08", "1944-10", "1945-02")]  # fmt: skip
    assert me262 == [None, 4, 8, 4]
    # R1 note 6, 11.6: EGR 335's Do 335 from 9/44, four missions a month
    assert gen.lookup_unit_missions_per_month(limited_unit="egr335", month="1944-09")["missions"] == 4
    assert gen.lookup_unit_rules(unit="egr335")["from"] == "1944-09"
    # 11.9, R1 note 7: a lost Go 229A-0 is replaced by a He 162A-2
    assert gen.lookup_loss_replacement(lost_aircraft="go229a0")["replacement"] == "he162a2"


def test_records(ia2) -> None:
    # IA2 7.2.2.9: the Bf 109s and the Me 163 are agile, except the Bf 109G-6/R6 (11.1.3)
    agile = sorted(m.id for m in ia2.enums["aircraft"].members if m.record.get("agile") is True)
    assert "bf109g6r6" not in agile and "me163b1" in agile and len(agile) == 16
    # 7.1.8: the Bf 110, Me 410 and Ju 88 carry a rear gunner
    assert _field(ia2, "aircraft", "ju88c6a", "crew") == 2 and _field(ia2, "aircraft", "fw190a8", "crew") == 1
    # 10.14: an Oberfeldwebel promotes to Leutnant, an Oberst to Generalmajor
    assert _field(ia2, "rank", "oberfeldwebel", "promotes_to") == "leutnant"
    assert _field(ia2, "rank", "oberst", "promotes_to") == "generalmajor"
    # 10.4: Späte's JG 7 posting is dated March 1944, in an Me 262A-1b (available from July 1944: C412)
    assert _field(ia2, "ace_posting", "spaete_jg7", "month") == "1944-03"


def test_operation_bodenplatte_and_the_komet(gen) -> None:
    # IA2 10.16: Bf 109 (not from Munich), FW 190 and Me 262 take part; the heavy fighters too
    assert gen.lookup_bodenplatte_aircraft(family="bf109")["takes_part"].startswith("Yes: any type, not based in")
    assert gen.lookup_bodenplatte_aircraft(family="me163")["takes_part"] is None
    # 11.10.1: speed -2 each round after the endurance limit, not below 16
    speeds = [gen.compute_komet_speed_after(komet_speed=22, rounds_after_limit=r) for r in (0, 1, 3, 5)]
    assert speeds == [22, 20, 16, 16]


def test_the_1943_44_errata(gen) -> None:
    # IA2 appendix, Chart [B11] (optional): P-38 cannon 4 and MG 5; P-51 outer MGs 3; Spitfire cannon 3, MG 4
    weapons = ("p38_cannon", "p51_outer_mg", "spitfire_mg")
    assert [gen.lookup_ia1_allied_ammo(allied_weapon=w)["rounds"] for w in weapons] == [4, 3, 4]
    assert gen.lookup_ia1_errata(ia1_errata="a3")["text"].startswith("There should not be an asterisk on the August")
