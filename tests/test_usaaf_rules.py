"""USAAF (seed 001): the rules as data beyond the tables: what the hexes allow, what the players may and
may not do, air combat and how a CRT result reads, escorts, the calls, fog of war, units out of play,
set-up, the tracks, the production steps and the tables of the mapsheet (issue 30).

Each assertion cites its rule. The charts are in charts/usaaf/{map,conduct,combat,planning,
withdrawal_abort,fog_of_war,setup,bombing,mapsheet}.chart and the additions to the older files; the
coverage list that counts them is docs/coverage/usaaf.md.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from compiler.build.project import load
from compiler.engine.formulas import evaluate
from compiler.engine.lookup import LookupProblem, lookup
from compiler.model.chart import ChartKind
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def usaaf(corpus):
    return corpus.project.games["usaaf"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_rules_generated")


def value(game, address: str, roll: str | None = None, **keys: str):
    return lookup(game.chart(address), roll, keys, 0).values()


def test_what_a_hex_allows(usaaf) -> None:
    # 3.1: FLAK set up in target city hexes only, "no FLAK unit may be set up in any kind of non-city hex"
    assert value(usaaf, "hex_rules", hex_kind="target_city")["flak_set_up"] == "may"
    assert [value(usaaf, "hex_rules", hex_kind=k)["flak_set_up"] for k in ("other_land", "airfield", "all_sea")] == [
        "may_not", "may_not", "may_not",
    ]
    # 3.2: German aircraft set up on airfields
    assert value(usaaf, "hex_rules", hex_kind="airfield")["aircraft_set_up"] == "may"
    # 9.5: may pass over an all-sea hex, may not end a move there; 9.7: the same west or south of the line
    for kind in ("all_sea", "beyond_allied_line"):
        hex_rule = value(usaaf, "hex_rules", hex_kind=kind)
        assert (hex_rule["german_end_move"], hex_rule["german_fly_over"]) == ("may_not", "may")
    # 9.7: all land and coastal hexes are German controlled at the start of play; the sea is not land
    assert value(usaaf, "hex_rules", hex_kind="other_land")["controlled_at_start"] == "german"
    assert value(usaaf, "hex_rules", hex_kind="all_sea")["controlled_at_start"] is None
    # 9.7: the line comes into effect at the start of Game Turn 7
    assert value(usaaf, "dated_rules", dated_rule="allied_line")["from"] == "gt7"


def test_movement_costs(usaaf) -> None:
    # 11.3: one movement point per hex entered, whatever the facing; 8.1: the same entering the map
    assert value(usaaf, "movement_costs", move_cost="hex_entered") == {"points": 1}
    assert value(usaaf, "movement_costs", move_cost="entry") == {"points": 1}


def test_what_the_players_may_and_may_not_do(usaaf, gen) -> None:
    def rule(chart: str, action: str) -> tuple[str | None, str]:
        row = value(usaaf, f"conduct_{chart}", **{f"{chart}_action": action})
        return row["player"], row["allowed"]

    assert rule("planning", "strike_outside_held_systems") == ("us", "may_not")  # 4.2 only his three systems
    assert rule("planning", "change_target") == ("us", "may_not")  # 4.4
    assert rule("planning", "designate_together") == ("us", "must")  # Note to 6.0
    assert rule("planning", "abandon_chit") == ("us", "may_not")  # 20.4
    assert rule("movement", "initiate_in_landing_turn") == ("german", "may_not")  # 9.2
    assert rule("movement", "initiate_while_staging") == ("german", "may_not")  # 10.2
    assert rule("movement", "land_when_due") == ("german", "must")  # 9.6 "must still land that mission turn"
    assert rule("movement", "rearrange_stacks") == (None, "may")  # 7.5 both players
    assert rule("combat", "initiate_against_fighters") == ("us", "may_not")  # 11.5 they only defend
    assert rule("combat", "swarm_bomberless") == ("german", "may_not")  # 17.3 "en masse"
    # 11.1: "all aircraft of both sides must move at least one hex per mission turn when they're aloft"
    assert value(usaaf, "conduct_movement", movement_action="loiter")["number"] == 1
    assert gen.lookup_conduct_planning(planning_action="withhold_target_system")["allowed"] == "may"  # 20.5
    assert value(usaaf, "movement_phases", phase="us_entry") == {"us": "must", "german": "may_not"}  # 8.1
    assert value(usaaf, "movement_phases", phase="combat") == {"us": "may_not", "german": "may_not"}  # 16.2


def test_air_combat_in_a_hex(usaaf) -> None:
    # 17.2: the tight escorts' counter-interception first, mandatory; then the interception (14.1: must)
    counter = value(usaaf, "battles", battle="counter_interception")
    interception = value(usaaf, "battles", battle="interception")
    assert (counter["order"], counter["attacker"], counter["takes_place"]) == (1, "us", "must")
    assert (interception["order"], interception["attacker"], interception["takes_place"]) == (2, "german", "must")
    assert interception["attack"].startswith("Only the German units surviving the counter-interception")  # 17.2
    assert interception["swarming"] == "may"  # 14.2
    assert value(usaaf, "battles", battle="bomberless_escorts")["swarming"] == "may_not"  # 17.3
    # 14.2 Note: escorts all eliminated in the counter-interception: the bombers may be swarmed
    assert value(usaaf, "swarming", escorts_in_hex="all_eliminated") == {"german": "may"}


def test_reading_a_crt_result(usaaf, gen) -> None:
    # 15.5: attacker left of the slash, aircraft units, defender first
    air = value(usaaf, "crt_results", crt_battle="air_combat")
    assert (air["left"], air["left_losses"], air["right_losses"], air["first"]) == (
        "attacker", "aircraft_units", "aircraft_units", "defender",
    )
    # 5.2: the Germans take strafing losses from any planes anywhere on the map
    assert value(usaaf, "crt_results", crt_battle="airfield_strafing")["german_losses"] == (
        "Any planes he has anywhere on the map"
    )
    # 15.5: a zero result: unscathed; each whole-number increment: one aircraft eliminated
    assert value(usaaf, "crt_result_value", "0")["losses"].startswith("Unscathed")
    assert value(usaaf, "crt_result_value", "3")["losses"].startswith("One aircraft of that side eliminated")
    # 15.4: attacking at 3:1 and rolling a 3 gives 1/3; the CRT is on the mapsheet, the other cells are not
    assert gen.lookup_crt(3, odds="3:1")["losses"] == (1, 3)
    with pytest.raises(LookupProblem):
        lookup(usaaf.chart("CRT"), "4", {"odds": "3:1"}, 0)


def test_the_crt_answers_a_player_on_the_command_line() -> None:
    # 15.4 as a player asks it: the die shows 3 at 3:1
    done = subprocess.run(
        [sys.executable, "-m", "compiler.cli", "lookup", "usaaf/CRT", "3", "--key", "odds=3:1"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Losses: attacker / defender: 1/3" in done.stdout


def test_escorts_and_calls(usaaf) -> None:
    # 4.3: tight escorts under the bombers' counters; 11.2: never affected by FLAK shots at their bombers
    tight = value(usaaf, "escorts", escort="tight")
    assert tight["shown"].startswith("By placing the fighter counters beneath the bomber counters")
    assert tight["flak"] == "Never affected by FLAK shots taken at their bombers"
    # 17.3: bomberless escorts fly to the exit hex by the most direct route
    assert value(usaaf, "escorts", escort="bomberless")["mission"].startswith("Flies to the exit hex")
    # 12.2, 13.2: a withdrawal or an abort may not be undone until the start of the next game turn
    withdrawal = value(usaaf, "calls", call="luftwaffe_withdrawal")
    abort = value(usaaf, "calls", call="mission_abort")
    assert (withdrawal["player"], withdrawal["undone"]) == ("german", "next_game_turn_start")
    assert (abort["player"], abort["undone"]) == ("us", "next_game_turn_start")
    assert abort["called"] == "At the end of the German move in the current mission turn"  # 13.2
    assert abort["effect"].startswith("All or nothing")  # 13.1


def test_fog_of_war(usaaf) -> None:
    assert value(usaaf, "fog_of_war", information="german_ground_stacks")["us"] == "May not examine them"  # 18.2
    # 18.5 and 22.6: the production record from the start of every new game turn after the first
    assert value(usaaf, "fog_of_war", information="production_record")["from"] == "gt2"
    assert value(usaaf, "fog_of_war", information="fuel_index")["us"] == "Always knows it"  # 22.9


def test_units_out_of_play(usaaf) -> None:
    # 5.2, 6.2, 8.1, 9.6: out of play until the start of the next game turn
    for state, side in (("strafed", "us"), ("flak_busted", "us"), ("held_back", "us"), ("landed_off_base", "german")):
        row = value(usaaf, "out_of_play", out_of_play=state)
        assert (row["player"], row["until"]) == (side, "next_game_turn_start"), state
    assert value(usaaf, "out_of_play", out_of_play="landed_off_base")["then"] == "Automatically returned to play"


def test_end_of_the_mission_turns(usaaf) -> None:
    # 9.3: German planes still in the air have landed safely; 4.2: US units still on the map lengthen the war
    ended = value(usaaf, "last_mission_turn", mission_end="all_flown")
    assert ended["german_aloft"] == "All considered to have landed safely at friendly bases"
    assert ended["us_on_map"].address == "war_now_ends"


def test_set_up_order_and_counters(usaaf, gen) -> None:
    # 3.1 first, then 3.2, 3.3, 3.4 ("Next")
    steps = ("flak", "german_aircraft", "allied", "target_systems")
    assert [value(usaaf, "set_up", set_up_step=s)["order"] for s in steps] == [1, 2, 3, 4]
    # 3.2 on the ground text side up; 8.2 flipped to the iconic side on take-off
    assert value(usaaf, "counter_sides", counter_side="text_side") == {"status": "On the ground (3.2)"}
    # 3.1: a FLAK unit with a "2" in its upper-left corner enters at the start of Game Turn 2
    assert gen.lookup_flak_reinforcements(2)["game_turn"] == "gt2"
    assert value(usaaf, "flak_reinforcements", "10")["game_turn"] == "gt10"


def test_tracks_and_game_turns_agree(usaaf, corpus) -> None:
    # 2.5's ten game turns are the ten periods; 8.3's eighteen mission turns are the track's
    held = {
        "ten_game_turns", "eighteen_mission_turns", "mission_turns_steps", "four_flak_points", "entry_costs_as_any_hex",
    }
    assert held <= {i.id for i in usaaf.invariants}
    assert not [d for d in corpus.diagnostics if any(f"`{name}`" in d.message for name in held)]


def test_german_production_steps(usaaf, gen) -> None:
    # 22.1: at the start of each game turn, in the order given; 22.5: new figures at the start of the next
    order = ("increase", "halving", "switching", "fuel")
    steps = {s: value(usaaf, "german_production_steps", production_step=s) for s in order}
    assert [steps[s]["order"] for s in order] == [1, 2, 3, 4]
    assert {step["when"] for step in steps.values()} == {"game_turn_start"}
    assert steps["switching"]["takes_effect"] == "next_game_turn_start"
    # 22.5: eight Me109G less the two given up for one TA152 leaves six
    assert evaluate(usaaf, usaaf.formula("production_left"), {"production": 8, "old_units": 2}) == 6
    assert gen.compute_production_left(production=8, old_units=2) == 6
    # 21.1: the US units arrive at the end of each game turn; 22.1: German aircraft at the start of the next
    assert value(usaaf, "arrivals", side="us")["when"] == "game_turn_end"
    assert value(usaaf, "arrivals", side="german")["when"] == "next_game_turn_start"


def test_bombing_in_a_target_hex(usaaf) -> None:
    # 19.2: the reaction is declared before the FLAK die roll on the FLAK Table (mapsheet)
    reaction = value(usaaf, "target_hex_steps", target_hex_step="reaction")
    flak = value(usaaf, "target_hex_steps", target_hex_step="flak_roll")
    assert (reaction["order"], flak["order"]) == (1, 2)
    assert flak["roll_on"].address == "FLAK-Table"
    # 19.1: a bomber strikes its target by ending a move in that hex
    assert value(usaaf, "bomber_mission", mission_leg="bombing")["route"] == (
        "Strikes its target by ending a move in that target hex"
    )
    # 20.3: no carry over, no spill over
    assert value(usaaf, "bomb_damage", damage_spread="carry_over")["allowed"] == "may_not"
    assert value(usaaf, "bomb_damage", damage_spread="spill_over")["instead"] == "It's simply wasted effort"


def test_the_mapsheet_tables_are_declared(usaaf) -> None:
    # named by the rules, printed on the mapsheet (or in a 25.0 this text does not hold)
    externals = {c.chart_id for c in usaaf.charts if c.kind is ChartKind.EXTERNAL}
    assert externals == {
        "FLAK-Table", "War-Shortened", "Less-Than-Minimum", "Other-Effects", "Bombing-Missions", "Planes-Due-to-Land",
    }


def test_records(usaaf) -> None:
    # 1.1-1.2: US fighter groups and bomber wings
    units = {m.id: m.get("unit") for m in usaaf.enums["us_aircraft"].members}
    assert units == {"b17": "bomber_wing", "b24": "bomber_wing"} | dict.fromkeys(("p47", "p51", "p38"), "fighter_group")
    # 22.4: Abrasives, Aircraft and Ball Bearing halve production; "Electrical Power" reads EE or EP
    halving = [m.id for m in usaaf.enums["target_system"].members if m.get("halves_production")]
    assert halving == ["abr", "air", "bb"]


# ---- the book's own inconsistencies, each reported citing both places --------------------------------


def _copy(tmp_path, edits: dict[str, tuple[str, str]]):
    folder = tmp_path / "charts" / "usaaf"
    folder.mkdir(parents=True)
    for src in (ROOT / "charts" / "usaaf").glob("*.chart"):
        text = src.read_text(encoding="utf-8")
        if src.name in edits:
            old, new = edits[src.name]
            assert old in text
            text = text.replace(old, new)
        (folder / src.name).write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return load([tmp_path / "charts"])
    finally:
        os.chdir(cwd)


def test_the_timing_conflicts_cite_both_places(corpus) -> None:
    # 2.3 "At the end of each game turn" against 22.9 "at the start of each game turn"
    (fuel,) = [d for d in corpus.diagnostics if "`war_now_ends_fuel_timing`" in d.message]
    assert fuel.code == "C418" and fuel.span.file == "charts/usaaf/victory.chart"
    assert [label.span.file for label in fuel.labels] == ["charts/usaaf/victory.chart", "charts/usaaf/victory.chart"]
    assert "`At the end of each game turn`, but" in fuel.message and "`At the start of each game turn`" in fuel.message
    # 8.3 step VIII at the end of the game turn against 24.1 "at the very start of each new game turn"
    (flak,) = [d for d in corpus.diagnostics if "`flak_movement_step`" in d.message]
    assert flak.span.file == "charts/usaaf/sequence.chart"
    assert "charts/usaaf/flak.chart" in [label.span.file for label in flak.labels]


def test_a_timing_that_agreed_would_not_be_reported(tmp_path) -> None:
    # were 24.1's redeployment at the end of the game turn, 8.3 and 24.1 would agree
    edit = ("redeploy: tn,  1, 1, game_turn_start", "redeploy: tn,  1, 1, game_turn_end")
    comp = _copy(tmp_path, {"flak.chart": edit})
    # the invariant keeps the print (`kept`), so facts that agree are C417 "delete `kept`", not a C418 note
    (agreed,) = [d for d in comp.diagnostics if "`flak_movement_step`" in d.message]
    assert agreed.code == "C417" and "delete `kept`" in (agreed.help or "")
    assert [d.code for d in comp.diagnostics if "`war_now_ends_fuel_timing`" in d.message] == ["C418"]
