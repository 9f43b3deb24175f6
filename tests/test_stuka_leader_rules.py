"""Stuka Leader: the rules transcribed for the outside count (issue 30) hold the values the rulebook
prints. "L79" is a line of the seed; each assertion cites it. Lookups go through the model
(`compiler.engine.lookup`) and, where a player would call it, through the generated module.
"""

from __future__ import annotations

from collections import deque

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module

APPROACH = ("north", "east", "south", "west")
PRE_APPROACH = (
    "north_pre",
    "northeast_pre",
    "east_pre",
    "southeast_pre",
    "south_pre",
    "southwest_pre",
    "west_pre",
    "northwest_pre",
)


@pytest.fixture(scope="module")
def sl(corpus):
    return corpus.project.games["stuka_leader"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "stuka_leader" / "stuka_leader.py", "stuka_leader_rules_generated")


def value(game, address: str, roll: str | None = None, drm: int = 0, **keys: str):
    return lookup(game.chart(address), roll, keys, drm).values()


def ids(game, enum: str) -> list[str]:
    return [m.id for m in game.enums[enum].members]


def _printed_adjacency() -> dict[str, set[str]]:
    """The adjacencies L79-81 print: the Center Area touches the four Approach Areas; an Approach Area
    touches the two Approach Areas beside it and the three Pre-Approach Areas on its side (L400: "the
    three Northern Pre-Approach Areas"); a Pre-Approach Area touches the two beside it."""
    adjacent: dict[str, set[str]] = {a: set() for a in ("center", *APPROACH, *PRE_APPROACH)}

    def touch(a: str, b: str) -> None:
        adjacent[a].add(b)
        adjacent[b].add(a)

    for i, approach in enumerate(APPROACH):
        touch("center", approach)
        touch(approach, APPROACH[(i + 1) % 4])
        for k in (-1, 0, 1):  # north: northwest, north, northeast
            touch(approach, PRE_APPROACH[(2 * i + k) % 8])
    for i, pre in enumerate(PRE_APPROACH):
        touch(pre, PRE_APPROACH[(i + 1) % 8])
    return adjacent


def test_area_range_is_the_shortest_path_over_the_printed_adjacencies(sl) -> None:
    # L78 "Always use the shortest path when calculating the Range for an Attack or Movement."
    adjacent = _printed_adjacency()
    for start in adjacent:
        distance = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in adjacent[here]:
                if there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        assert value(sl, "area_range", area=start) == distance, start


def test_area_range_adjacencies_as_printed(sl) -> None:
    # L79 the Center Area's adjacent Areas are the four Approach Areas
    center = value(sl, "area_range", area="center")
    assert sorted(a for a, r in center.items() if r == 1) == sorted(APPROACH)
    # L80 an Approach Area: the Center Area, two Approach Areas and three Pre-Approach Areas (six)
    assert sum(1 for r in value(sl, "area_range", area="east").values() if r == 1) == 6
    # L81 a corner Pre-Approach Area touches two Pre-Approach and two Approach Areas; the others one
    assert sum(1 for r in value(sl, "area_range", area="northeast_pre").values() if r == 1) == 4
    assert sum(1 for r in value(sl, "area_range", area="north_pre").values() if r == 1) == 3
    # the farthest Areas: opposite Pre-Approach Areas, 4 apart
    assert value(sl, "area_range", area="north_pre")["south_pre"] == 4


def test_the_display_has_13_areas(sl) -> None:
    # L78 "one Center Area, four Approach Areas, and eight Pre-Approach Areas"; the Center Area is the Target Area (L79)
    kinds = [m.get("kind") for m in sl.enums["area"].members]
    assert (kinds.count("center"), kinds.count("approach"), kinds.count("pre_approach")) == (1, 4, 8)
    assert value(sl, "area_range", area="Target Area")["center"] == 0


def test_position_change_stops_at_tailing_and_tailed(sl, gen) -> None:
    # L456 Neutral + "+4 Pos": Tailing, "ignore the third and fourth Position adjustments"
    assert gen.lookup_position_change(position="neutral")["pos_plus4"] == "tailing"
    # L445-447 toward Tailing one step at a time: Tailed +2 Pos is Neutral, Disadvantaged +1 Pos Neutral
    assert value(sl, "position_change", position="tailed")["pos_plus2"] == "neutral"
    assert value(sl, "position_change", position="disadvantaged")["pos_plus1"] == "neutral"
    # L452 "-2 Pos" from Advantaged is Disadvantaged; from Disadvantaged it stops at Tailed
    assert value(sl, "position_change", position="advantaged")["pos_minus2"] == "disadvantaged"
    assert value(sl, "position_change", position="disadvantaged")["pos_minus2"] == "tailed"
    # L454 "Td/D -> N", L455 "D -> A": only from those Positions
    assert value(sl, "position_change", position="tailed")["td_d_to_n"] == "neutral"
    assert value(sl, "position_change", position="advantaged")["td_d_to_n"] == "advantaged"
    assert value(sl, "position_change", position="disadvantaged")["d_to_a"] == "advantaged"
    # L448-450, L453: the Atk results leave the Position as it is
    for position in ("tailing", "advantaged", "neutral", "disadvantaged", "tailed"):
        row = value(sl, "position_change", position=position)
        assert row["atk_plus4"] == row["atk_minus1"] == row["ne"] == position


def test_positions_that_may_attack(sl) -> None:
    # L458-459 an Attack from Neutral, Advantaged or Tailing; Disadvantaged or Tailed cannot Attack
    may = {p: value(sl, "positions", position=p)["may_attack"] for p in ids(sl, "position")}
    assert may == {"tailing": "yes", "advantaged": "yes", "neutral": "yes", "disadvantaged": "no", "tailed": "no"}


def test_weapon_attack_reads_the_attack_numbers(sl) -> None:
    # L112-116: n Hits from the n-th Attack Number; the rows agree with `weapon_attack_numbers`
    for weapon in ("fritz_x", "bomb_250kg"):
        numbers = value(sl, "weapon_attack_numbers", weapon=weapon)["hits"]
        for roll in range(-3, 19):
            hits = sum(1 for n in numbers if n is not None and roll >= n)
            if numbers[0] is None and hits:  # L118 "-": that many Hits cannot be scored (the Fritz X's 1)
                hits += 1
            drm = roll - 10 if roll > 10 else roll - 1
            natural = "10" if roll > 10 else "1"
            assert value(sl, "weapon_attack", natural, drm, weapon=weapon)["hits"] == hits, (weapon, roll)


def test_weapon_attack_drms(gen) -> None:
    # L502 the Pilot's AtG modifiers; L557 Radio Coordination +2 on all AtG Attack rolls; L647 High Stress +1
    assert gen.drm_weapon_attack(pilot_atg=-2) == -2  # DeRuyter's Okay AtG (L467)
    assert gen.drm_weapon_attack(radio_coordination=True, high_stress=True) == 3
    # L505 a 250kg rolls 10: two Hits; DeRuyter's -2 makes it 8: one Hit
    assert gen.lookup_weapon_attack(10, weapon="bomb_250kg")["hits"] == 2
    assert gen.lookup_weapon_attack(10, weapon="bomb_250kg", drm=gen.drm_weapon_attack(pilot_atg=-2))["hits"] == 1


def test_what_each_weapon_may_attack(sl) -> None:
    # L109 Weapon counters "can Attack Sites and Targets, but not Bandits or Bombers"
    assert value(sl, "weapon_targets", attacker_weapon="weapon_counters") == {
        "target": "yes",
        "site": "yes",
        "bandit": "no",
        "bomber": "no",
    }
    # L511 AtA Rockets "may only be used against Bombers"; L139 Bandits "can only be Attacked by Guns"
    assert value(sl, "weapon_targets", attacker_weapon="ata_rockets")["bomber"] == "yes"
    bandit = {w: value(sl, "weapon_targets", attacker_weapon=w)["bandit"] for w in ids(sl, "attacker_weapon")}
    assert [w for w, may in bandit.items() if may == "yes"] == ["guns"]
    # L511-513 Range 1; L514 NUKE
    assert value(sl, "special_weapons", special_weapon="hs293")["range"] == 1
    assert value(sl, "special_weapons", special_weapon="hs293")["naval_only"] == "yes"
    assert value(sl, "vp_adjustments", vp_item="nuke")["vp"] == -5


def test_hits_to_destroy(sl) -> None:
    # L123 a Site with at least 1 Hit; L139 one Gun Hit a Bandit; L466 "the B-29 which requires 2 hits"
    hits = {e: value(sl, "hits_to_destroy", enemy=e)["hits"] for e in ids(sl, "enemy")}
    assert hits == {"site": 1, "bandit": 1, "bomber": 1, "b29": 2, "target": None, "objective_target": None}


def test_movement(sl) -> None:
    # L398 one adjacent Area, "EXCEPTION: Jets may move two adjacent Areas", "(Escorted Bombers must move)"
    aircraft = value(sl, "movement", mover="aircraft")
    assert (aircraft["areas"], aircraft["must_move"]) == (1, "no")
    assert value(sl, "movement", mover="jet")["areas"] == 2
    assert value(sl, "movement", mover="escorted_bombers")["must_move"] == "yes"
    # L407 each Bogey / Bandit "may move one Area each Turn but is not required to move"
    assert value(sl, "movement", mover="bogeys_bandits")["areas"] == 1
    # L402-403 a Bandit follows a Disadvantaged or Tailed Aircraft; L405 never a Jet
    assert value(sl, "move_when_engaged", propulsion="piston", position="tailed")["follows"] == "yes"
    assert value(sl, "move_when_engaged", propulsion="piston", position="neutral")["follows"] == "no"
    assert value(sl, "move_when_engaged", propulsion="jet", position="tailed")["follows"] == "no"
    # L408-409 a Bogey with a target in range stays; otherwise one Area closer
    assert value(sl, "bogey_movement", bogey_situation="in_range")["areas"] == 0
    assert value(sl, "bogey_movement", bogey_situation="none_in_range")["areas"] == 1


def test_defensive_fire_arcs(sl) -> None:
    # L488 Gunners "may only fire at Attacking Aircraft that are Advantaged on or Tailing them"; L489 Turrets any
    gunner = value(sl, "defensive_fire_arcs", bomber_gun="gunner")
    assert [p for p, fires in gunner.items() if fires == "yes"] == ["tailing", "advantaged"]
    assert set(value(sl, "defensive_fire_arcs", bomber_gun="turret").values()) == {"yes"}


def test_site_range_and_altitude(sl) -> None:
    # L548 Range 0 Sites fire only in their Area; L550 Range 1 at Range 0 and 1
    assert value(sl, "site_range", site_range_notation="none")["max_range"] == 0
    assert value(sl, "site_range", site_range_notation="range1")["max_range"] == 1
    # L545 H or L, or both; L546 the Lt MG (Low only) cannot target Faber at High
    assert value(sl, "site_altitude", site_notation="low", altitude="high")["can_attack"] == "no"
    assert value(sl, "site_altitude", site_notation="both", altitude="high")["can_attack"] == "yes"
    assert value(sl, "sites_named", site_named="Light Machinegun")["notation"] == "low"  # L564's name for it


def test_attack_results(sl) -> None:
    # L539/L572 Major: Damaged, a RED Wound counter; L538/L571 Minor: a YELLOW one
    assert value(sl, "attack_results", attacking="site", attack_result="major")["wound"] == "red"
    assert value(sl, "attack_results", attacking="bandit", attack_result="minor")["wound"] == "yellow"
    assert value(sl, "attack_results", attacking="bandit", attack_result="major")["damaged"] == "yes"
    # L538 prints the Bandit's Minor as "equal to the first number", L571 the Site's "equal to or greater than"
    bandit = value(sl, "attack_results", attacking="bandit", attack_result="minor")["roll"]
    site = value(sl, "attack_results", attacking="site", attack_result="minor")["roll"]
    assert (bandit, site) == (
        "equal to the first number but less than the second number",
        "equal to or greater than the first number but less than the second number",
    )


def test_aircraft_reactions(sl) -> None:
    # L559 Suppress first, then Evade; L562, L565 +1 Stress each; L560 a Hit cancels, L563 no damage
    suppression = value(sl, "aircraft_reactions", reaction="suppression")
    evasion = value(sl, "aircraft_reactions", reaction="evasion")
    assert (suppression["order"], evasion["order"]) == (1, 2)
    assert (suppression["stress"], evasion["stress"]) == (1, 1)
    assert (suppression["cancels"], suppression["damages"]) == ("yes", "no")
    assert suppression["pilots"] == 1  # L261 "One Pilot may Suppress"


def test_pilot_status_and_the_deruyter_card(sl, gen) -> None:
    # L92 Unfit: no Maneuvering, Attacks or Suppression, may still Evade; L317 not assigned to a Mission
    unfit = value(sl, "pilot_status_effects", pilot_status="unfit")
    assert (unfit["maneuver"], unfit["attack"], unfit["suppress"], unfit["evade"], unfit["assign"]) == (
        "no",
        "no",
        "no",
        "yes",
        "no",
    )
    # L467 DeRuyter (Newbie): 0-2 Okay (Slow, +0, -2), 3-4 Shaken (-2, -4), 5+ Unfit
    assert gen.lookup_pilot_card_deruyter(0, pilot_card_quoted="deruyter_newbie")["status"] == "okay"
    assert gen.lookup_pilot_card_deruyter(4, pilot_card_quoted="deruyter_newbie")["atg"] == -4
    assert gen.lookup_pilot_card_deruyter(12, pilot_card_quoted="deruyter_newbie")["status"] == "unfit"


def test_track_never_covers_the_last_space(gen) -> None:
    # L592 "A counter is never moved to cover the last space on the track."
    assert gen.compute_track_space_after(track_space=1, track_spaces=6, card_steps=2) == 3
    assert gen.compute_track_space_after(track_space=4, track_spaces=6, card_steps=3) == 5
    assert gen.compute_track_space_after(track_space=5, track_spaces=6, card_steps=1) == 5


def test_counters_drawn(gen) -> None:
    # L312 two Sites in each of the four Approach Areas and two in the Center Area
    assert gen.compute_counters_drawn(approach_count=2, center_count=2) == 10
    # L355 2 Bogeys for the Center Area and 1 for each Approach Area
    assert gen.compute_counters_drawn(approach_count=1, center_count=2) == 6


def test_promotion_ladder_and_attack_steps(sl) -> None:
    # L624 Newbie to Green, ..., Veteran to Legendary
    ladder = {r: value(sl, "promotion", pilot_rank=r)["next"] for r in ids(sl, "pilot_rank")}
    assert ladder == {
        "newbie": "green",
        "green": "average",
        "average": "skilled",
        "skilled": "veteran",
        "veteran": "legendary",
        "legendary": None,
    }
    # L377, L392, L395 Fast Pilots step 14, Sites and Bandits 15, Slow Pilots 16
    steps = {a: value(sl, "attack_steps", attacker=a)["step"] for a in ids(sl, "attacker")}
    assert steps == {"fast_pilots": 14, "sites_bandits": 15, "slow_pilots": 16}


def test_france_1940(sl) -> None:
    # L166 Medium: eight Days, 32 SO, 27 Fuel, 33+ VP Great; L638 Short: 4 Days, 16 or more VP Great
    assert value(sl, "campaigns", campaign="France 1940", duration="medium") == {
        "year": "y1936_1941",
        "days": 8,
        "so": 32,
        "fuel": 27,
        "great": 33,
    }
    assert value(sl, "campaigns", campaign="france_1940", duration="short")["great"] == 16


def test_a_player_asks_the_command_line(run) -> None:
    # `chartc lookup` answers the book's words: the Range from the East Approach Area to the Center Area
    # (L544: adjacent, Range 1), and the Position after "+4 Pos" from Neutral (L456: Tailing)
    out = run("lookup", "stuka_leader/area_range", "--key", "area=East Approach Area").output
    assert "Center: 1" in out and "W Appr: 2" in out
    out = run("lookup", "stuka_leader/position_change", "--key", "position=Neutral").output
    assert "+4 Pos: Tailing" in out
    out = run("lookup", "stuka_leader/weapon_attack", "0", "--key", "weapon=Fritz X", "--drm", "1").output
    assert "Hits: 4" in out  # L119 "A modified roll of 11+ scores 4 Hits."
