"""Interceptor Ace Vol. 2: setup charts, awards, optional-rule rolls and reference data hold the
values the rulebook prints. Each assertion cites its chart ID or rule."""

from __future__ import annotations

import pytest

from compiler import model
from compiler.engine.lookup import LookupProblem, lookup
from compiler.model.calendar import Month
from tests.conftest import ROOT, import_module


def value(ia2, address: str, roll: str | None, drm: int = 0, **keys: str):
    return lookup(ia2.chart(address), roll, keys, drm).values()


def record(ia2, enum: str, name: str) -> model.Member:
    member = ia2.enums[enum].member(name)
    assert member is not None, name
    return member


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_generated_reference")


def test_base_zones(ia2) -> None:
    # IA2 4.6.2: DUTCH BASES – Schiphol, Venlo, Volkel, Woensdrecht ... BERLIN BASES – ..., Parchim
    zones = {}
    for m in ia2.enums["base"].members:
        if m.get("listed") == "4.6.2":
            zones.setdefault(m.get("zone"), []).append(m.label)
    assert zones["dutch"] == ["Schiphol", "Venlo", "Volkel", "Woensdrecht"]
    assert len(zones["bremen"]) == 9 and "Schwerin-Gorries" in zones["bremen"]
    assert zones["french"] == ["Beaumont-le-Roger", "Poix-Nord", "St. Trond", "Tille", "Vannes"]
    assert zones["munster"] == ["Handorf", "Rheine"]
    assert zones["frankfurt"] == ["Ansbach", "Frankfurt", "Königsberg", "Wiesbaden"]
    assert zones["berlin"] == ["Brandenburg-Briest", "Brandis", "Oranienburg", "Parchim"]
    # 4.6 says 36 bases; 4.6.2 lists 35
    assert sum(len(v) for v in zones.values()) == 35
    # 4.4 example: Beaumont-le-Roger, in the French Base Zone; 4.6.3 example: Poix-Nord, in the French Zone
    assert record(ia2, "base", "Poix-Nord").get("zone") == "french"
    assert ia2.enums["zone"].member("France").id == "french"  # R1 prints "St. Trond (France)"


def test_families_and_aircraft(ia2) -> None:
    # IA2 9.1: Bf 109 (18 aircraft), FW 190 (12), Bf 110 (2) ... Go 229 (1)
    counts = {m.label: m.get("aircraft") for m in ia2.enums["family"].members}
    assert counts == {
        "Bf 109": 18,
        "FW 190": 12,
        "Bf 110": 2,
        "Me 410": 1,
        "Ju 88": 1,
        "Do 335": 1,
        "Me 163": 1,
        "Me 262": 2,
        "He 162": 1,
        "Go 229": 1,
    }
    # 4.6.4: the Bf 109 family has four types: G-6, G-14, G-10, K-4
    assert [m.label for m in ia2.enums["aircraft_type"].members if m.get("family") == "bf109"] == [
        "Bf 109G-6",
        "Bf 109G-14",
        "Bf 109G-10",
        "Bf 109K-4",
    ]
    # section 11 availability dates
    assert record(ia2, "aircraft", "Bf 109G-6/U3").get("available") == "1944-04"  # 11.1.7
    assert record(ia2, "aircraft", "Bf 109G-6 (late)").get("available") == "1944-05"  # 11.1.8
    assert record(ia2, "aircraft", "Bf 109G-14").get("available") == "1944-07"  # 11.1.9
    assert record(ia2, "aircraft", "Bf 109K-4").get("available") == "1944-10"  # 11.1.11
    assert record(ia2, "aircraft", "FW 190D-9").get("available") == "1944-09"  # 11.2.4 initial series
    assert record(ia2, "aircraft", "FW 190D-9 (late)").get("available") == "1944-11"  # 11.2.4 late series
    assert record(ia2, "aircraft", "Ta 152H-1").get("family") == "fw190"  # 11.2.5 part of the FW 190 family
    assert record(ia2, "aircraft", "Me 262A-1a").get("available") == "1944-07"  # 11.7
    assert record(ia2, "aircraft", "Go 229A-0").get("available") == "1945-04"  # 11.9
    assert record(ia2, "aircraft", "Me 163B-1").get("interceptor") == "jet"  # 11.10.1 subject to 7.11
    # 9.1: FW 190 (12 aircraft) — the twelve the rules name, besides the 1943-44 FW 190A-5 of 10.15.2
    fw = [m for m in ia2.enums["aircraft"].members if m.get("family") == "fw190" and m.id != "fw190a5"]
    assert len(fw) == 12
    # 8.2: the Fw190A-8/R8 requires a Prestige Level of 3; 9.7: the A-8/R7 needs 2; 4.2.2: G-6/AS needs 2
    assert record(ia2, "aircraft", "Fw190A-8/R8").get("prestige") == 3
    assert record(ia2, "aircraft", "FW 190A-8/R7").get("prestige") == 2
    assert record(ia2, "aircraft", "Bf 109G-6/AS").get("prestige") == 2
    # R3 prints the row name "Bf 109G-/U3/R6"
    assert record(ia2, "aircraft", "Bf 109G-/U3/R6").id == "bf109g6u3r6"


def test_r1_starting_units(ia2) -> None:
    # IA2 R1 is read by 1d20: roll 1 gives I/JG 1, II/JG 1 and III/JG 1 "Oesau" ("randomly determine
    # your starting unit", 4.1: a 1d3 in the cell), roll 15 I/ZG 1; each sends the reader to its unit's row
    roll_1 = value(ia2, "R1", "1")
    assert isinstance(roll_1["unit"], model.SubRoll) and roll_1["unit"].dice.text == "1d3"
    assert [o.value for o in roll_1["unit"].outcomes] == ["i_jg1", "ii_jg1", "iii_jg1"]
    assert roll_1["bases"] == model.ChartRef("starting_unit_bases", chained=True)
    assert value(ia2, "R1", "15")["unit"] == "i_zg1"
    # R1: I/JG 1 "Oesau", 1-4: FW 190A-6; 5-6: FW 190A-7, Wiesbaden (Frankfurt) 3/44,
    # Husum (Bremen) 8/44, FW 190A-8/R2
    i_jg1 = value(ia2, "starting_unit_bases", None, unit="I/JG 1")
    aircraft = i_jg1["aircraft"]
    assert isinstance(aircraft, model.SubRoll)
    assert [(o.range.printed, o.value) for o in aircraft.outcomes] == [("1-4", "FW 190A-6"), ("5-6", "FW 190A-7")]
    assert (i_jg1["base"], i_jg1["date"]) == ("wiesbaden", "1944-03")
    assert (i_jg1["transfer_base"], i_jg1["transfer_date"], i_jg1["transfer_aircraft"]) == (
        "husum",
        "1944-08",
        "fw190a8r2",
    )
    assert i_jg1["notes"] == "Parchim (Berlin) 2/45, He 162A-2"
    # R1: III/JG 1 Volkel (Dutch) 3/44 -> Rheine (Münster) 8/44, Bf 109G-14
    iii_jg1 = value(ia2, "starting_unit_bases", None, unit="iii_jg1")
    assert (iii_jg1["base"], iii_jg1["transfer_base"], iii_jg1["transfer_aircraft"]) == ("volkel", "rheine", "bf109g14")
    # R1: roll 15 I/ZG 1 Ju 88C-6a, St. Trond (France) 3/44, Salzwedel (Bremen) 7/44
    i_zg1 = value(ia2, "starting_unit_bases", None, unit="I/ZG 1")
    assert (i_zg1["aircraft"], i_zg1["base"], i_zg1["transfer_date"]) == ("Ju 88C-6a", "st_trond", "1944-07")
    # R1: roll 16 II/ZG 26 Wunstorf (Bremen) -> Königsberg (Frankfurt) 5/44
    assert value(ia2, "starting_unit_bases", None, unit="II/ZG 26")["transfer_base"] == "koenigsberg"
    # R1 footnote 5: JV 44 requires being a Knight's Cross holder
    assert "Knight's Cross holder" in ia2.chart("starting_unit_bases").footnotes[4].text
    assert ia2.chart("R1").partial and ia2.chart("starting_unit_bases").partial
    with pytest.raises(LookupProblem):
        lookup(ia2.chart("starting_unit_bases"), None, {"unit": "JV 44"}, 0)  # its row is lost
    with pytest.raises(LookupProblem):
        lookup(ia2.chart("R1"), "14", {}, 0)  # rolls 3-14 and 17-20 are lost
    # 9.7's example reads roll 13: "the result is a 13, so you are assigned to II(Sturm)/JG 300"
    assert value(ia2, "R1", "13")["unit"] == "ii_sturm_jg300"


def test_r2_aircraft_types(ia2) -> None:
    # IA2 R2, Bf 109G-6: ✓ 3/44-6/44, 1-5 in 7/44, 1-3 in 8/44, 1-2 in 9/44, 1 in 10/44-12/44, - in 1/45
    assert value(ia2, "R2", "6", aircraft_type="bf109g6", month="1944-06") == {"result": "automatic"}
    assert value(ia2, "R2", "5", aircraft_type="Bf 109G-6", month="1944-07") == {"result": "available"}
    assert value(ia2, "R2", "6", aircraft_type="bf109g6", month="1944-07") == {"result": "not available"}
    assert value(ia2, "R2", "3", aircraft_type="bf109g6", month="1944-08") == {"result": "available"}
    assert value(ia2, "R2", "2", aircraft_type="bf109g6", month="1944-10") == {"result": "not available"}
    assert value(ia2, "R2", "1", aircraft_type="bf109g6", month="1945-01") == {"result": "not available"}
    # 13 cells for 14 months: the April 1945 cell is reported missing
    with pytest.raises(LookupProblem):
        lookup(ia2.chart("R2"), "1", {"aircraft_type": "bf109g6", "month": "1945-04"}, 0)


def test_r3_aircraft_subtypes(ia2) -> None:
    # IA2 R3, Bf 109G-6: ✓ 3/44-7/44, then - (the G-6 (late) takes over, 4.6.4 example)
    assert value(ia2, "R3", "6", aircraft="bf109g6", month="1944-07") == {"result": "automatic"}
    assert value(ia2, "R3", "1", aircraft="bf109g6", month="1944-08") == {"result": "not available"}
    assert value(ia2, "R3", "1", aircraft="bf109g6", month="1945-04") == {"result": "not available"}


def _sorties(ia2, **context: str) -> str:
    from compiler.engine.limits import read_limit

    limit = ia2.limit("sorties_per_month")
    answer = read_limit(limit, {k: model.MemberId(v) if k != "month" else Month(v) for k, v in context.items()})
    assert answer.bound is not None, (context, answer.possible)
    return answer.bound.text


def test_sorties_per_month(ia2, gen) -> None:
    # IA2 4.3.3 / 6.0: 8 sorties a month; from January 1945, only 4
    assert _sorties(ia2, month="1944-03", family_flown="bf109", unit_assigned="i_jg1") == "exactly 8"
    assert _sorties(ia2, month="1945-01") == "exactly 4"
    assert _sorties(ia2, month="1945-05") == "exactly 4"
    # 11.7, R1 note 4: the Me 262 from July to September 1944, four missions a month; eight from October
    assert _sorties(ia2, month="1944-08", family_flown="me262") == "at most 4"
    assert _sorties(ia2, month="1944-10", family_flown="me262", unit_assigned="kdo_nowotny") == "exactly 8"
    # 11.6, R1 note 6: the Do 335A with EGR 335, four missions a month (from 9/44)
    assert _sorties(ia2, month="1944-09", family_flown="do335", unit_assigned="egr335") == "at most 4"
    assert gen.limit_sorties_per_month(month="1945-03") == {
        "kind": "exactly", "min": 4, "max": 4, "text": "exactly 4",
        "cite": "4.3.3, 6.0: only 4 missions each month from January 1945 (fuel shortages)",
    }
    assert gen.limit_sorties_per_month(month="1944-08", family_flown="me262")["max"] == 4
    with pytest.raises(ValueError, match="depends on a value left as None"):
        gen.limit_sorties_per_month(month="1944-08")


def test_awards(ia2) -> None:
    # IA2 7.8.2 EK2 after 1 point; 7.8.3 EK1 after 3; 7.8.4 Ehrenpokal 10; 7.8.6 German Cross 20
    assert value(ia2, "awards", None, award="EK2")["at"] == 1
    assert value(ia2, "awards", None, award="EK1")["at"] == 3
    assert value(ia2, "awards", None, award="ehrenpokal")["at"] == 10
    assert value(ia2, "awards", None, award="german_cross")["at"] == 20
    # 7.8.7: Knight's Cross roll at 30, Oakleaves 40, Swords 60; Diamonds automatic at 100
    assert [
        value(ia2, "awards", None, award=a)["at"] for a in ("knights_cross", "oakleaves", "swords", "diamonds")
    ] == [30, 40, 60, 100]
    assert value(ia2, "awards", None, award="diamonds")["how"].startswith("automatic")
    # 7.8.5: clasp after 20, 60, 100 flights; only the first confers a Prestige Point
    assert [
        (value(ia2, "awards", None, award=a)["at"], value(ia2, "awards", None, award=a)["prestige"])
        for a in ("clasp_bronze", "clasp_silver", "clasp_gold")
    ] == [(20, 1), (60, 0), (100, 0)]
    assert value(ia2, "awards", None, award="clasp_silver")["counted"] == "flights"
    # 7.8.8: Ace after 5 kills, a Prestige Point
    ace = value(ia2, "awards", None, award="ace")
    assert (ace["at"], ace["counted"], ace["how"], ace["prestige"]) == (5, "kills", "automatic (7.8.8)", 1)
    assert ace["effect"].startswith("Wingmen and pilots receive +1 on the Initiative Chart [B12]")
    # 7.8.7.5: each later award of the Knight's Cross costs a sortie (the trip to Berlin); not the first
    knight = ("knights_cross", "oakleaves", "swords", "diamonds")
    assert [value(ia2, "awards", None, award=a)["sorties_lost"] for a in knight] == [None, 1, 1, 1]


def test_knights_cross_roll(ia2) -> None:
    # IA2 7.8.7: success on a 1d6 roll of "1"
    assert value(ia2, "knights_cross", "1") == {"result": "Awarded"}
    assert value(ia2, "knights_cross", "2") == {"result": "Not awarded"}


def test_promotion(ia2, gen) -> None:
    # IA2 7.9.3: promotion on a 1d6 roll of 1-4; -2 Knight's Cross; -1 per EK1/Ehrenpokal/German Cross;
    # -1 per 10 kills
    assert value(ia2, "promotion", "4")["result"].startswith("Promoted")
    assert value(ia2, "promotion", "5") == {"result": "Not promoted"}
    assert value(ia2, "promotion", "6", drm=-2)["result"].startswith("Promoted")
    assert [(d.id, d.value) for d in ia2.chart("promotion").drms] == [
        ("knights_cross", -2),
        ("ek1", -1),
        ("ehrenpokal", -1),
        ("german_cross", -1),
        ("kills", -1),
    ]
    assert gen.drm_promotion(knights_cross_holder=True, ek1_in_period=True) == -3
    assert gen.drm_promotion(knights_cross_holder=True, kills_in_period=19) == -3  # 19 kills: one step
    # 7.9.3: attempts after June 1944, October 1944, February 1945 (4th, 8th, 12th month)
    assert value(ia2, "promotion_attempts", None, promotion_attempt="first") == {"service": 4, "after": "1944-06"}
    assert value(ia2, "promotion_attempts", None, promotion_attempt="final") == {"service": 12, "after": "1945-02"}
    # 10.14: Generalmajor, 1d6 1-4 posted to a Headquarters
    assert value(ia2, "generalmajor", "4")["result"].startswith("Posted")


def test_ranks(ia2) -> None:
    # IA2 7.9.1 officers use one ability per sortie; 7.9.2 NCOs up to TWO
    assert record(ia2, "rank", "Hauptmann").get("per_sortie") == 1
    assert record(ia2, "rank", "Unteroffizier").get("per_sortie") == 2
    assert record(ia2, "rank", "Oberfeldwebel").get("abilities") == "all the previous, Old Dog"
    assert record(ia2, "rank", "Captain").id == "hauptmann"


def test_skills_and_maneuvers(ia2) -> None:
    # IA2 7.7: GUNNERY (5), AIM (6), PRECISION (3), SIXTH SENSE (4), EXPERT (3), LEADERSHIP (3), A.C.M. (4)
    costs = {
        s: value(ia2, "skills", None, skill=s)["cost"]
        for s in ("GUNNERY", "AIM", "PRECISION", "SIXTH SENSE", "EXPERT", "LEADERSHIP", "A.C.M.")
    }
    assert costs == {
        "GUNNERY": 5,
        "AIM": 6,
        "PRECISION": 3,
        "SIXTH SENSE": 4,
        "EXPERT": 3,
        "LEADERSHIP": 3,
        "A.C.M.": 4,
    }
    assert value(ia2, "skills", None, skill="gunnery")["crew"] == "All crew"
    # IA2 10.8: Cuban Eight 1, Chandelle 3, Immelmann 3, Split-S 4 experience points
    assert [
        value(ia2, "advanced_maneuvers", None, maneuver=m)["cost"]
        for m in ("cuban_eight", "chandelle", "immelmann", "split_s")
    ] == [1, 3, 3, 4]
    assert value(ia2, "advanced_maneuvers", None, maneuver="Immelmann")["effect"] == "Avoid all damage, improve x 2"


def test_prestige_costs(ia2) -> None:
    # IA2 8.1: A 1 point same family, B 2 points different family, C 2 reassignment, D 1, E 1
    assert [value(ia2, "prestige_costs", None, prestige_use=u)["points"] for u in "abcde"] == [1, 2, 2, 1, 1]
    assert value(ia2, "prestige_costs", None, prestige_use="c")["use"].startswith("Reassignment to a new unit")


def test_flak(ia2, gen) -> None:
    # IA2 7.1.5: "Roll 1d6 ... and subtract 3 ... (from zero to 3, maximum.)": random Airframe hits
    # on [B3]; the roll typed is the die
    flak = ia2.chart("flak")
    assert (flak.dice.min, flak.dice.max) == (1, 6)
    assert [value(ia2, "flak", str(die))["hits"] for die in range(1, 7)] == [0, 0, 0, 1, 2, 3]
    assert value(ia2, "flak", "2") == {"hits": 0, "damage": None}  # a player who rolls a 2 takes 0
    assert value(ia2, "flak", "6") == {"hits": 3, "damage": model.ChartRef("B3")}
    with pytest.raises(LookupProblem, match="0 cannot be rolled on 1d6"):
        lookup(flak, "0", {}, 0)
    assert [gen.lookup_flak(die)["hits"] for die in range(1, 7)] == [0, 0, 0, 1, 2, 3]
    assert ia2.chart("B3").kind == "external"
    # the three results of B3 the 7.12 example reads: a chart of its own, so the flak's chain ends at B3
    assert value(ia2, "b3_in_examples", "5", b3_column="airframe") == {"hit": "Controls"}


def test_bomb_detonation(ia2) -> None:
    # IA2 7.1.4: on a 2d6 "2" or "12" the interceptor takes 1d6 random airframe damage hits
    assert value(ia2, "bomb_detonation", "2")["result"].startswith("The interceptor takes 1d6")
    assert value(ia2, "bomb_detonation", "12")["result"].startswith("The interceptor takes 1d6")
    assert value(ia2, "bomb_detonation", "7") == {"result": "No damage", "as_7_4": "No damage"}
    # IA2 7.4 prints it again as "1d6 random damage" (no location): kept, and C417 reports the two
    assert value(ia2, "bomb_detonation", "2")["as_7_4"] == "The interceptor takes 1d6 random damage"


def test_crash_enroute(ia2, gen) -> None:
    # IA2 7.4.3: 1d10, on a result of 1 or less the damaged aircraft crashes; -1 each: leaking tanks,
    # KIA/SW pilot, copilot
    assert value(ia2, "crash_enroute", "1")["result"].startswith("The damaged aircraft crashes")
    assert value(ia2, "crash_enroute", "3", drm=-3)["result"].startswith("The damaged aircraft crashes")
    assert value(ia2, "crash_enroute", "2")["result"].startswith("The damaged aircraft reaches")
    assert gen.drm_crash_enroute(leaking_fuel=True, pilot_ksw=True, copilot_ksw=True) == -3
    # 7.4.3: credit on a 1d6 roll of 1-2
    assert value(ia2, "crash_credit", "2") == {"result": "Credit for the kill"}
    assert value(ia2, "crash_credit", "3") == {"result": "No credit"}


def test_named_ace(ia2) -> None:
    # IA2 10.6.2: roll 1d10, on a roll of 6+ the Ace is a named ace
    assert value(ia2, "named_ace", "5") == {"result": "Not a named ace"}
    assert value(ia2, "named_ace", "6")["result"].startswith("A named ace")
    assert value(ia2, "named_ace", "0")["result"].startswith("A named ace")


def test_approach_track(ia2, gen) -> None:
    # IA2 10.7: front 1 (1-2), 2 (3-4), 3 (5-6); flank starboard 2/4/6; flank port 3/5/7; tail 6/7/8
    tracks = {
        o: [value(ia2, "approach_track", str(r), orientation=o)["track"] for r in (1, 3, 5)]
        for o in ("front", "flank_starboard", "flank_port", "tail")
    }
    assert tracks == {"front": [1, 2, 3], "flank_starboard": [2, 4, 6], "flank_port": [3, 5, 7], "tail": [6, 7, 8]}
    assert value(ia2, "approach_track", "2", orientation="Flank (port)") == {"track": 3, "chart": model.ChartRef("P1")}
    assert gen.lookup_approach_track(6, orientation="tail")["track"] == 8
    # 10.7 Head on: 1-3 Level, 4-6 Low; Disadvantaged no escorts: 1d10 9 is a Vertical Climb
    assert value(ia2, "head_on_altitude", "3") == {"altitude": "Level"}
    assert value(ia2, "head_on_altitude", "4") == {"altitude": "Low"}
    assert value(ia2, "vertical_climb", "9")["result"].startswith("Vertical Climb box")
    assert value(ia2, "vertical_climb", "0") == {"result": "No Vertical Climb"}


def test_eastern_front_awards(ia2) -> None:
    # IA2 10.11: 0-2 victories no awards, 3-7 EK2, 8+ EK2 and EK1; Prestige Level 1, or 2 if an Ace (5+)
    assert value(ia2, "eastern_front_awards", "2") == {"awards": "No awards", "prestige_level": 1}
    assert value(ia2, "eastern_front_awards", "4") == {"awards": "EK2", "prestige_level": 1}
    assert value(ia2, "eastern_front_awards", "5") == {"awards": "EK2", "prestige_level": 2}
    assert value(ia2, "eastern_front_awards", "20") == {"awards": "EK2, EK1", "prestige_level": 2}


def test_combined_victory_levels(ia2) -> None:
    # IA2 10.13: DEFEAT 0-36, DRAW 37-70, MARGINAL 71-140, SUBSTANTIAL 141-210, DECISIVE 211+
    assert value(ia2, "combined_victory_levels", "36") == {"level": "DEFEAT"}
    assert value(ia2, "combined_victory_levels", "37") == {"level": "DRAW"}
    assert value(ia2, "combined_victory_levels", "140") == {"level": "MARGINAL VICTORY"}
    assert value(ia2, "combined_victory_levels", "210") == {"level": "SUBSTANTIAL VICTORY"}
    assert value(ia2, "combined_victory_levels", "211") == {"level": "DECISIVE VICTORY"}


def test_bodenplatte(ia2, gen) -> None:
    # IA2 10.16: friendly Flak "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)" on [B6], and "Add
    # a +1 drm to the Flak attack roll" after an FuG25 IFF hit: the +1 is on the die, before the 3
    assert value(ia2, "bodenplatte_flak", "5") == {"hits": 2, "damage": model.ChartRef("B6")}
    assert gen.drm_bodenplatte_flak(iff_hit=True) == 1
    assert value(ia2, "bodenplatte_flak", "3", drm=1) == {"hits": 1, "damage": model.ChartRef("B6")}
    assert value(ia2, "bodenplatte_flak", "6", drm=1)["hits"] == 3  # 6 + 1 - 3 = 4, at most 3
    assert gen.lookup_bodenplatte_flak(6, drm=1)["hits"] == 3
    # 10.16: Allied fighters 1-2 Spitfire IX, 3-4 Spitfire XIV, 5-7 P-47D, 8-0 P-51D
    assert [value(ia2, "bodenplatte_fighters", r)["fighter"] for r in ("2", "3", "7", "0")] == [
        "Spitfire IX",
        "Spitfire XIV",
        "P-47D",
        "P-51D",
    ]


def test_tours_of_duty(ia2) -> None:
    # IA2 10.15.2 Armored Knights: June 1944, FW 190A8/R8, II(Sturm)/JG 300, Rheine (Münster Bases), 15 bomber victories
    ak = record(ia2, "tour", "Armored Knights")
    assert (ak.get("start"), ak.get("aircraft"), ak.get("unit"), ak.get("base")) == (
        "1944-06",
        "fw190a8r8",
        "ii_sturm_jg300",
        "rheine",
    )
    assert record(ia2, "base", ak.get("base")).get("zone") == "munster"
    assert (ak.get("prestige_level"), ak.get("victory")) == (3, "15 bomber victories")
    # Flying Peas: July 1944, Me 163B-1, III/JG 400, Brandis, Hauptmann, 2 XP, Prestige Level 5
    fp = record(ia2, "tour", "flying_peas")
    assert (
        fp.get("start"),
        fp.get("aircraft"),
        fp.get("base"),
        fp.get("rank"),
        fp.get("experience"),
        fp.get("prestige_level"),
    ) == ("1944-07", "me163b1", "brandis", "hauptmann", 2, 5)
    # Knight's Cross Holders: January 1945, Me 262A-1a, JV 44, Brandenburg-Briest, Major, 24 bomber victories
    kc = record(ia2, "tour", "Knight's Cross Holders")
    assert (kc.get("start"), kc.get("unit"), kc.get("rank"), kc.get("victory")) == (
        "1945-01",
        "jv44",
        "major",
        "24 bomber victories",
    )
    # The Abbeville Boys: March 1943, FW 190A-5, Vitry-en-Artois, requires Interceptor Ace 1943-44
    ab = record(ia2, "tour", "The Abbeville Boys")
    assert (ab.get("start"), ab.get("aircraft"), ab.get("base")) == ("1943-03", "fw190a5", "vitry_en_artois")
    assert [m.id for m in ia2.enums["tour"].members] == [
        "abbeville_boys",
        "armored_knights",
        "the_escorts",
        "flying_peas",
        "knights_cross_holders",
    ]


def test_historical_missions(ia2) -> None:
    # IA2 10.15.3 Defend Oranienburg A/F: April 10, 1945, Me 262A-1b, JV 44, Brandenburg-Briest
    m = record(ia2, "mission", "Defend Oranienburg A/F")
    assert (m.get("date"), m.get("month"), m.get("aircraft"), m.get("unit"), m.get("base")) == (
        "April 10, 1945",
        "1945-04",
        "me262a1b",
        "jv44",
        "brandenburg_briest",
    )
    # Intercept Raid on Schweinfurt: August 17, 1943, Bf 109G-6/R6, II/JG 27, Wiesbaden; B-17F, no escorts
    s = record(ia2, "mission", "schweinfurt")
    assert (s.get("month"), s.get("aircraft"), s.get("unit"), s.get("base"), s.get("enemy")) == (
        "1943-08",
        "bf109g6r6",
        "ii_jg27",
        "wiesbaden",
        "B-17F formation. No escorts.",
    )
    # First Raid on Berlin: March 6, 1944, FW 190A-8/R6, II/JG 1, Rheine; Scramble from Parchim: He 162A-2,
    # I/JG 1, Parchim
    assert record(ia2, "mission", "First Raid on Berlin").get("aircraft") == "fw190a8r6"
    p = record(ia2, "mission", "Scramble from Parchim")
    assert (p.get("date"), p.get("aircraft"), p.get("unit"), p.get("base")) == (
        "April 15, 1945",
        "he162a2",
        "i_jg1",
        "parchim",
    )


def test_jet_aces(ia2) -> None:
    # IA2 10.4: Bär starts a Major with 191 kills, Prestige Points 3, Level 7; Galland 97 kills, 7 points
    baer = record(ia2, "jet_ace", "baer")
    assert (baer.get("rank"), baer.get("starting_kills"), baer.get("prestige_points"), baer.get("prestige_level")) == (
        "major",
        191,
        3,
        7,
    )
    assert baer.get("skills") == "Parachute, A.C.M., Aim"
    galland = record(ia2, "jet_ace", "galland")
    assert (galland.get("rank"), galland.get("starting_kills"), galland.get("prestige_points")) == ("general", 97, 7)
    assert (
        record(ia2, "jet_ace", "steinhoff").get("rank") == "oberstleutnant"
    )  # printed "Starting Rank: Oberstleutnant"
    assert record(ia2, "jet_ace", "schnoerrer").get("rank") == "leutnant"
    assert len(ia2.enums["jet_ace"].members) == 8  # "eight of the most important Jet Aces"
