"""Stuka Leader: every transcribed chart holds the values the rulebook prints.

Stuka Leader prints no chart IDs; each assertion cites the rulebook section (and, where the rules
number it, the Sequence of Play step). Lookups go through `compiler.engine.lookup` (the model) and, for the
generated module, through `generated/stuka_leader/stuka_leader.py`.
"""

from __future__ import annotations

import pytest

from compiler.engine.lookup import LookupProblem, lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def sl(corpus):
    return corpus.project.games["stuka_leader"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "stuka_leader" / "stuka_leader.py", "stuka_leader_generated")


def value(game, address: str, roll: str | None, drm: int = 0, **keys: str):
    return lookup(game.chart(address), roll, keys, drm).values()


def test_stuka_leader_findings_are_the_books_inconsistencies(corpus) -> None:
    # Every Stuka Leader finding is a place where the rulebook prints one fact two ways (C418: kept as
    # printed, each citing both places, the invariant saying why it is kept), two places in words that
    # disagree (C481: a conflict kept as printed), the Campaign Sheets it does not print (C308), or a
    # formula the print lets leave its domain (C476): no gaps, no off-table DRMs, no threshold list that
    # goes down (C408).
    found = sorted(
        (d.code, d.message.split("`")[1])
        for d in corpus.diagnostics
        if d.span.file.startswith("charts/stuka_leader")
    )
    assert found == [
        ("C308", "campaigns"),  # only France 1940, Short and Medium, is quoted (L166, L638)
        ("C418", "ace_included_skill_count"),  # L228 one included Skill; L658 none, one, or two or more
        ("C418", "france_1940_bandit_types"),  # L185 D.520, MS.406 and Hurricane; L361 D.520 and Hurricane
        ("C418", "medic_cost"),  # L232 2/4/6 SO each; L632 two SO
        ("C418", "minor_result_wording"),  # L538 "equal to the first number"; L571 "equal to or greater than"
        ("C418", "over_target_event_middle"),  # L260 step 11 in TARGET-BOUND FLIGHT; L158 during Over-Target
        ("C418", "rank_ladders"),  # L94 six Pilot levels; L360 five Bandit Skill Levels (no Skilled)
        ("C418", "safe_landing_title"),  # L262 "Pilots and Damaged Aircraft"; L583 "Wounded Pilots and ..."
        ("C418", "site_counter_back"),  # L47 a Bandit on the other side; L47, L131 the same Site information
        ("C418", "unfit_maneuvering"),  # L92 Unfit cannot Maneuver; L435 Unfit may select Tight Turn
        ("C418", "weapon_counters_against_bombers"),  # L109 not Bombers; L388, L461, L511 against Bombers
        ("C418", "zeal_notation_label"),  # L107 prints no label; L333, L596 Zeal
        ("C476", "end_of_day_stress"),  # Debriefing 23-24: no floor at 0 Stress (a Drop Tank's -1 at 0)
        ("C481", "bail_out_section"),  # L394 the Dogfighting section, L573 page 19; the rules are L234-L248
        ("C481", "promotion_xp_deducted"),  # L627 the new Level's Promotion number; L629 subtracts the 5
    ]


def test_bail_out(sl) -> None:
    # Bail Out!: "A modified roll of 2- is UNSUCCESSFUL; A modified roll of 3+ is SUCCESSFUL"
    assert value(sl, "bail_out", "2")["result"] == "UNSUCCESSFUL"
    assert value(sl, "bail_out", "3")["result"] == "SUCCESSFUL"
    assert value(sl, "bail_out", "0")["result"] == "SUCCESSFUL"  # the 0 face is 10
    # L237 "If a Pilot is unsuccessful on their Bail Out attempt, they are KIA and removed from the campaign."
    assert value(sl, "bail_out", "2")["effect"].startswith("The Pilot is KIA and removed from the campaign.")
    # L248 "Any Pilot that performs a Successful Bail Out is returned to the Squadron with +2 Stress"
    assert value(sl, "bail_out", "3")["stress"] == 2
    # Bail Out! modifiers: Miss One Day Wounds -1, Miss Two Days Wounds -2, Damaged -1, Destroyed -2
    chart = sl.chart("bail_out")
    assert [(d.id, d.value) for d in chart.drms] == [
        ("miss_one_day", -1),
        ("miss_two_days", -2),
        ("damaged", -1),
        ("destroyed", -2),
    ]
    assert value(sl, "bail_out", "4", drm=-2)["result"] == "UNSUCCESSFUL"  # 4 - 2 (Aircraft Destroyed) = 2
    assert value(sl, "bail_out", "1", drm=-6)["result"] == "UNSUCCESSFUL"  # every modifier: the 2- row is open-ended


def test_bail_out_generated(gen) -> None:
    # Bail Out! modifiers through the standalone module
    assert gen.drm_bail_out(aircraft_destroyed=True) == -2
    assert gen.drm_bail_out(miss_one_day_wound=True, aircraft_damaged=True) == -2
    assert gen.drm_bail_out(miss_two_days_wound=True) == -2
    assert gen.drm_bail_out() == 0
    drm = gen.drm_bail_out(miss_two_days_wound=True, aircraft_destroyed=True)
    assert gen.lookup_bail_out(7, drm=drm)["result"] == "SUCCESSFUL"  # 7 - 4 = 3
    assert gen.lookup_bail_out(6, drm=drm)["result"] == "UNSUCCESSFUL"  # 6 - 4 = 2


def test_out_of_fuel(sl) -> None:
    # Over-Target, Mission End: 3- Out of Fuel, 4+ sufficient fuel
    assert value(sl, "out_of_fuel", "3")["result"].startswith("Out of Fuel. Aircraft crashes and is lost.")
    assert value(sl, "out_of_fuel", "4")["result"].startswith("Aircraft has sufficient fuel remaining.")
    assert value(sl, "out_of_fuel", "1")["result"].startswith("Out of Fuel")


def test_safe_landing(sl) -> None:
    # Home-Bound Flight, step 21: 3- Crash, 4+ Safe Landing
    assert value(sl, "safe_landing", "3") == {"result": "Crash. Aircraft is destroyed and Pilot is killed."}
    assert value(sl, "safe_landing", "4") == {"result": "Safe Landing."}
    assert value(sl, "safe_landing", "0") == {"result": "Safe Landing."}


def test_bogey_placement(sl) -> None:
    # Pre-Flight, Dogfight Missions: 1-2 West, 3-4 North, 5-6 South, 7 East, 8-10 Center Area
    assert value(sl, "bogey_placement", "2") == {"area": "west"}
    assert value(sl, "bogey_placement", "3") == {"area": "north"}
    assert value(sl, "bogey_placement", "6") == {"area": "south"}
    assert value(sl, "bogey_placement", "7") == {"area": "east"}
    assert value(sl, "bogey_placement", "8") == {"area": "center"}
    assert value(sl, "bogey_placement", "0") == {"area": "center"}  # 10 on the D10


def test_gun_attack_position(sl, gen) -> None:
    # Dogfighting, Attacking: +1 if Advantaged, +3 if Tailing (+0 Neutral, the DeRuyter example)
    chart = sl.chart("gun_attack_position")
    assert chart.kind == "drms" and chart.rows == ()
    assert gen.drm_gun_attack_position(attacker_position="advantaged") == 1
    assert gen.drm_gun_attack_position(attacker_position="tailing") == 3
    assert gen.drm_gun_attack_position(attacker_position="neutral") == 0


def test_bandit_maneuver_column(sl) -> None:
    # Sites and Bandits Attack, Bandits Maneuver: "Tg" Tailing, "A / N" Advantaged or Neutral, "D", "Td"
    assert value(sl, "bandit_maneuver_column", None, position="tailing") == {"column": "Tg"}
    assert value(sl, "bandit_maneuver_column", None, position="Advantaged") == {"column": "A / N"}
    assert value(sl, "bandit_maneuver_column", None, position="neutral") == {"column": "A / N"}
    assert value(sl, "bandit_maneuver_column", None, position="disadvantaged") == {"column": "D"}
    assert value(sl, "bandit_maneuver_column", None, position="tailed") == {"column": "Td"}


def test_year_range_periods(sl) -> None:
    # Campaign Setup, Selecting Squadron Pilots: the make-up headings 1936 - 1941, 1942 - 1943,
    # 1944 - 1945 and the open-ended 1946 - ???? are the game's periods (years, no calendar printed)
    assert [(p.id, p.label, p.first, p.last, p.open_end) for p in sl.periods] == [
        ("y1936_1941", "1936 - 1941", "1936-01", "1941-12", False),
        ("y1942_1943", "1942 - 1943", "1942-01", "1943-12", False),
        ("y1944_1945", "1944 - 1945", "1944-01", "1945-12", False),
        ("y1946", "1946 - ????", "1946-01", "9999-12", True),
    ]
    assert sl.calendar is None or not sl.calendar


def test_squadron_makeup(sl) -> None:
    # Campaign Setup, Selecting Squadron Pilots: Rank Levels by year range (period) and Campaign length
    cols = ("newbie", "green", "average", "skilled", "veteran")
    assert [(k.id, k.enum.id) for k in sl.chart("squadron_makeup").keys] == [
        ("period", "period"),
        ("duration", "duration"),
    ]

    def ranks(period: str, duration: str) -> tuple:
        row = value(sl, "squadron_makeup", None, period=period, duration=duration)
        return tuple(row[c] for c in cols)

    # 1936 - 1941: "1 Newbie, 2 Green, 3 Average, 1 Skilled and 1 Veteran" / 1, 2, 5, 1, 1 / 1, 2, 6, 2, 1
    assert ranks("1936 - 1941", "Short") == (1, 2, 3, 1, 1)
    assert ranks("y1936_1941", "medium") == (1, 2, 5, 1, 1)
    assert ranks("y1936_1941", "long") == (1, 2, 6, 2, 1)
    # 1942 - 1943: "1 Newbie, 2 Green, 4 Average, 1 Skilled, 0 Veteran" / 1, 2, 5, 1, 1 / 1, 2, 6, 2, 1
    assert ranks("1942 - 1943", "short") == (1, 2, 4, 1, 0)
    assert ranks("y1942_1943", "medium") == (1, 2, 5, 1, 1)
    assert ranks("y1942_1943", "long") == (1, 2, 6, 2, 1)
    # 1944 - 1945: "1 Newbie, 3 Green, 3 Average, 1 Skilled, 0 Veteran" / 1, 3, 4, 1, 1 / 1, 3, 5, 2, 1
    assert ranks("1944 - 1945", "short") == (1, 3, 3, 1, 0)
    assert ranks("y1944_1945", "medium") == (1, 3, 4, 1, 1)
    assert ranks("y1944_1945", "long") == (1, 3, 5, 2, 1)
    # 1946 - ????: as 1942 - 1943
    assert ranks("1946 - ????", "short") == (1, 2, 4, 1, 0)
    assert ranks("y1946", "medium") == (1, 2, 5, 1, 1)
    assert ranks("y1946", "long") == (1, 2, 6, 2, 1)


def test_squadron_makeup_adds_up_to_squadron_size(sl) -> None:
    # "Squadrons shall consist of 8/10/12 Pilots": every printed make-up adds up to its size.
    # Kept as a test: the language's `sum ... per column reaches` invariant sums pair/triple parts down
    # a column against an enum field (at least), not int cells across a row against another chart's triple.
    cols = ("newbie", "green", "average", "skilled", "veteran")
    for period in ("y1936_1941", "y1942_1943", "y1944_1945", "y1946"):
        size = value(sl, "squadron_size", None)["pilots"]
        for part, duration in enumerate(("short", "medium", "long")):
            row = value(sl, "squadron_makeup", None, period=period, duration=duration)
            assert sum(row[c] for c in cols) == size[part], (period, duration)


def test_squadron_size(sl) -> None:
    # Campaign Setup, Selecting Squadron Pilots: "Squadrons shall consist of 8/10/12 Pilots." (any year):
    # a chart of rule values, read by nothing
    assert sl.chart("squadron_size").keys == ()
    assert value(sl, "squadron_size", None) == {"pilots": (8, 10, 12)}


def test_promotion_costs(sl) -> None:
    # Campaign Setup, Pilot Promotion Costs: Newbie = 2/4/6, Green = 3/6/9, Average = 4/8/12,
    # Skilled = 5/10/15, Veteran = 6/12/18 (Short / Medium / Long)
    def cost(rank: str) -> tuple:
        return value(sl, "promotion_costs", None, promote_from=rank)["cost"]

    assert cost("newbie") == (2, 4, 6)  # also Campaign xx/xx/xx Notation: "a Newbie Pilot is 2/4/6 SO points"
    assert cost("Green") == (3, 6, 9)
    assert cost("average") == (4, 8, 12)
    assert cost("skilled") == (5, 10, 15)
    assert cost("veteran") == (6, 12, 18)
    # the example: Medium campaign, Average -> Skilled costs 8, then Skilled -> Veteran 10 more
    assert cost("average")[1] == 8 and cost("skilled")[1] == 10


def test_so_costs(sl) -> None:
    # The xx/xx/xx notation (Short / Medium / Long) wherever the rules price an item in SO points
    def so(item: str) -> tuple:
        row = value(sl, "so_costs", None, so_item=item)
        return row["flow"], row["cost"]

    assert so("pilot_skill") == ("pay", (1, 2, 3))  # Campaign Setup, Pilot Skills: 1/2/3
    assert so("medic") == ("pay", (2, 4, 6))  # Campaign Setup, Medic: 2/4/6 each to activate
    assert so("recon_priority") == ("pay", (1, 2, 3))  # Pre-Flight 1, Recon Priority: 1/2/3
    assert so("priority_rr") == ("pay", (5, 8, 11))  # Debriefing 24, Priority R&R: 5/8/11
    assert so("schnapps") == ("pay", (3, 6, 9))  # Debriefing 24, Schnapps Counter: 3/6/9
    assert so("one_more_or_fewer") == ("pay", (3, 6, 9))  # Optional Rules, Flying 1 Fewer or 1 More: 3/6/9
    assert so("random_squadron") == ("gain", (6, 12, 18))  # Optional Rules, Random Squadron Selection: gain 6/12/18
    assert so("high_stress") == ("pay", (3, 6, 9))  # Optional Rules, High Stress Attacks/Suppression: 3/6/9
    assert so("expansion_targets") == ("pay", (5, 8, 10))  # Optional Rules, Expansion Targets: 5/8/10 (as printed)


def test_weapon_attack_numbers(sl) -> None:
    # Weapon Counters, Attack Number examples (the counters are not printed):
    # Fritz X "cannot score 1 Hit ... 1-7, you Miss ... 8 scores 2 Hits ... 9 or 10 ... 3 Hits ... 11+ ... 4 Hits"
    assert value(sl, "weapon_attack_numbers", None, weapon="Fritz X") == {"hits": (None, 8, 9, 11)}
    # 250kg "1-6, you Miss ... 7-9 scores 1 Hit ... 10+ scores 2 Hits"
    assert value(sl, "weapon_attack_numbers", None, weapon="250kg") == {"hits": (7, 10)}
    assert value(sl, "weapon_attack_numbers", None, weapon="250kg Bomb") == {
        "hits": (7, 10)
    }  # Suppression example's name
    assert any("not printed" in n for n in sl.chart("weapon_attack_numbers").notes)


def hits(thresholds: tuple, roll: int) -> int:
    """Weapon Counters, Attack Number: the number of Hits a modified roll scores (`None` = cannot score that many)."""
    return max([n for n, t in enumerate(thresholds, start=1) if t is not None and roll >= t], default=0)


def test_weapon_attack_numbers_reproduce_the_examples(sl) -> None:
    fritz = value(sl, "weapon_attack_numbers", None, weapon="fritz_x")["hits"]
    assert [hits(fritz, r) for r in range(1, 13)] == [0] * 7 + [2, 3, 3, 4, 4]  # 1-7 Miss, 8: 2, 9-10: 3, 11+: 4
    kg250 = value(sl, "weapon_attack_numbers", None, weapon="bomb_250kg")["hits"]
    assert [hits(kg250, r) for r in range(1, 12)] == [0] * 6 + [1, 1, 1, 2, 2]  # 1-6 Miss, 7-9: 1, 10+: 2
    # Sites and Bandits Attack example: "My result is a 10. The Target suffers two Hits."
    assert hits(kg250, 10) == 2


def test_bandit_attack_numbers(sl) -> None:
    # Attack Resolution example (P-47 vs Protz): 2 or lower no effect, 3-5 YELLOW Wound (Minor),
    # 6 RED Wound and Damaged (Major), 7 or higher Destroyed -> Minor / Major / Destroyed at 3/6/7
    assert value(sl, "bandit_attack_numbers", None, bandit="P-47") == {"attack": (3, 6, 7)}
    results = ("Missed", "Minor", "Major", "Destroyed")
    p47 = value(sl, "bandit_attack_numbers", None, bandit="p47")["attack"]
    assert [results[hits(p47, r)] for r in (2, 3, 5, 6, 7, 10)] == [
        "Missed",
        "Minor",
        "Minor",
        "Major",
        "Destroyed",
        "Destroyed",
    ]


def test_mission_colours(sl) -> None:
    # Campaign Sheets: Green = No Stress / Fuel. Yellow = 1 Stress / Fuel. Red = 2 Stress / Fuel.
    assert value(sl, "mission_colours", None, dot_colour="green") == {"stress": 0, "fuel": 0}
    assert value(sl, "mission_colours", None, dot_colour="Yellow") == {"stress": 1, "fuel": 1}
    assert value(sl, "mission_colours", None, dot_colour="red") == {"stress": 2, "fuel": 2}


def test_maneuver_results(sl) -> None:
    # Dogfighting, Fast Pilots Maneuver and Attack: the result codes of the Dogfight Sheet
    assert value(sl, "maneuver_results", None, maneuver_result="NE")["effect"].startswith("No effect.")
    assert value(sl, "maneuver_results", None, maneuver_result="+4 Pos") == {
        "effect": "Adjust the Aircraft Position by 4 Toward Tailing."
    }
    assert value(sl, "maneuver_results", None, maneuver_result="-2 Pos") == {
        "effect": "Adjust the Aircraft Position by 2 Toward Tailed."
    }
    assert "subtract 1 from its Attack roll" in value(sl, "maneuver_results", None, maneuver_result="-1 Atk")["effect"]
    assert value(sl, "maneuver_results", None, maneuver_result="D -> A") == {
        "effect": "If the Aircraft is Disadvantaged, change its Position to Advantaged."
    }


def test_special_sites(sl) -> None:
    # Sites and Bandits Attack, Special Site Counters
    assert value(sl, "special_sites", None, special_site="Target of Opportunity") == {
        "effect": "If you Destroy this Site, gain 1 VP."
    }
    assert "-1 on their Attack rolls" in value(sl, "special_sites", None, special_site="fire_director")["effect"]
    assert (
        "gain +2 on all AtG Attack rolls"
        in value(sl, "special_sites", None, special_site="radio_coordination")["effect"]
    )


def test_generated_module_matches_the_rulebook(gen) -> None:
    # same printed values, through the standalone module
    assert gen.lookup_out_of_fuel(3)["result"].startswith("Out of Fuel")
    assert gen.lookup_safe_landing(4) == {"result": "Safe Landing."}
    assert gen.lookup_bogey_placement(7) == {"area": "east"}
    assert gen.lookup_squadron_makeup(period="y1944_1945", duration="short")["green"] == 3
    assert gen.lookup_squadron_size() == {"pilots": (8, 10, 12)}
    assert gen.lookup_promotion_costs(promote_from="veteran") == {"cost": (6, 12, 18)}
    assert gen.lookup_so_costs(so_item="priority_rr") == {"flow": "pay", "cost": (5, 8, 11)}
    assert gen.lookup_weapon_attack_numbers(weapon="fritz_x") == {"hits": (None, 8, 9, 11)}
    assert gen.lookup_bandit_attack_numbers(bandit="p47") == {"attack": (3, 6, 7)}
    with pytest.raises(ValueError):
        gen.lookup_bail_out(11)


def test_lookup_rejects_unknown_keys(sl) -> None:
    with pytest.raises(LookupProblem):  # before the first period, 1936 - 1941
        lookup(sl.chart("squadron_makeup"), None, {"period": "1930", "duration": "short"}, 0)
    with pytest.raises(LookupProblem):
        lookup(sl.chart("squadron_makeup"), None, {"period": "late", "duration": "short"}, 0)
    # the book's words for a period: a year of "1944 - 1945" reads that period (Squadron Setup: 1 Newbie,
    # 3 Green, 3 Average, 1 Skilled, 0 Veteran for a Short Campaign), as the heading's label does
    by_year = lookup(sl.chart("squadron_makeup"), None, {"period": "1944", "duration": "short"}, 0)
    by_label = lookup(sl.chart("squadron_makeup"), None, {"period": "1944 - 1945", "duration": "short"}, 0)
    assert by_year.values() == by_label.values() == {"newbie": 1, "green": 3, "average": 3, "skilled": 1, "veteran": 0}
    assert lookup(sl.chart("squadron_makeup"), None, {"period": "1947", "duration": "long"}, 0).keys[0][1].id == "y1946"
    assert "year_range" not in sl.enums  # the stand-in enum is gone: the headings are periods


def test_evasion_rolls_two_d10_and_uses_the_lower(sl, run) -> None:
    import json
    from fractions import Fraction

    # Evasion: "roll 2 dice, and use the lower result of the two Attack rolls"; the P-47 example:
    # a modified 2 or lower fails, 3-5 Minor, 6 Major, 7+ Destroyed
    destroyed = "Destroyed: the Aircraft is Destroyed (the Pilot may Bail Out)"
    assert value(sl, "bandit_attack", "7", bandit="p47") == {"result": destroyed}
    doc = json.loads(run("odds", "stuka_leader/bandit_attack", "--key", "bandit=p47", "--format", "json").output)
    # one D10 fails on 1-2 (1/5); evasive, the lower of two fails unless both show 3+: 1 - (8/10)^2 = 9/25
    assert Fraction(doc["rows"][0]["probability"]["exact"]) == Fraction(1, 5)
    [evasive] = doc["alternatives"]
    assert Fraction(evasive["rows"][0]["exact"]) == Fraction(9, 25)
    # and 7+ needs both dice at 7+: (4/10)^2 = 4/25
    assert Fraction(evasive["rows"][3]["exact"]) == Fraction(4, 25)
    r = run("odds", "stuka_leader/bandit_attack", "--key", "bandit=p47", "--when", "evasive")
    assert r.exit_code == 0 and "9/25 (36%)" in r.output and "instead (rolled in the context given):" in r.output
