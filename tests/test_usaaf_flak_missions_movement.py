"""USAAF (seed 001): FLAK division strength and windows, target-system chits, the free
escort missions, the once-per-turn limits, movement and endurance as computed values.

Each assertion cites its rule; the charts are in charts/usaaf/flak.chart, missions.chart and movement.chart, the
9.2 worked example in charts/usaaf/examples.chart.
"""

from __future__ import annotations

import os

import pytest

from compiler.build.project import load
from compiler.engine.formulas import evaluate
from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def usaaf(corpus):
    return corpus.project.games["usaaf"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_more_generated")


def value(game, address: str, roll: str | None = None, **keys: str):
    return lookup(game.chart(address), roll, keys, 0).values()


def compute(game, name: str, **context: int | bool) -> int:
    formula = game.formula(name)
    assert formula is not None, name
    return evaluate(game, formula, context)


# ---- FLAK -----------------------------------------------------------------------------------------


def test_flak_division_strength(usaaf) -> None:
    # USAAF 3.1: a "full-strength" side of "2" and a "reduced" side of "1"
    assert value(usaaf, "flak_division_strength", flak_side="full") == {"strength": 2}
    assert value(usaaf, "flak_division_strength", flak_side="reduced") == {"strength": 1}


def test_flak_division_entry(usaaf) -> None:
    # USAAF 3.1: divisions begin play full-strength side up, and reinforcements come into play that way
    assert value(usaaf, "flak_division_entry", flak_entry="set_up")["strength"] == 2
    assert value(usaaf, "flak_division_entry", flak_entry="reinforcement")["strength"] == 2
    # USAAF 24.2: flipped back to the full strength side; a reclaimed division returns at two-step strength
    assert value(usaaf, "flak_division_entry", flak_entry="flipped")["strength"] == 2
    reclaimed = value(usaaf, "flak_division_entry", flak_entry="reclaimed")
    assert reclaimed == {"strength": 2, "printed": "a reclaimed FLAK division would return at two-step strength"}


def test_reclaimed_division_invariant_holds_and_fires(usaaf, corpus, tmp_path) -> None:
    # USAAF 24.2 "two-step strength" is 3.1's full-strength "2": a `same` invariant (C417) ties them
    inv = {i.id: i for i in usaaf.invariants}["reclaimed_flak_division"]
    assert inv is not None
    assert not [d for d in corpus.diagnostics if d.code == "C417" and "`reclaimed_flak_division`" in d.message]
    # a copy in which the reclaimed division returns at 1 is reported
    folder = tmp_path / "charts" / "usaaf"
    folder.mkdir(parents=True)
    for src in (ROOT / "charts" / "usaaf").glob("*.chart"):
        text = src.read_text(encoding="utf-8")
        if src.name == "flak.chart":
            text = text.replace("reclaimed:     2,", "reclaimed:     1,")
        (folder / src.name).write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        comp = load([tmp_path / "charts"])
    finally:
        os.chdir(cwd)
    found = [d.code for d in comp.diagnostics if "`reclaimed_flak_division`" in d.message]
    assert found == ["C417"]


def test_flak_movement_windows(usaaf) -> None:
    # USAAF 24.1: redeployment until the Transport Net is destroyed, once a game turn, once in Game Turn 3
    redeploy = value(usaaf, "flak_movement", flak_action="redeploy")
    assert (redeploy["until"], redeploy["per_game_turn"], redeploy["game_turn_3"]) == ("tn", 1, 1)
    assert redeploy["when"] == "game_turn_start"  # USAAF 24.1 "at the very start of each new game turn"
    # USAAF 24.2: replacement until the AFV & Heavy Weapons system is destroyed, "at that time"
    replace = value(usaaf, "flak_movement", flak_action="replace")
    assert (replace["until"], replace["per_game_turn"], replace["game_turn_3"]) == ("afv", 1, 1)
    # USAAF 23.2 runs production twice in Game Turn 3; 24.1 redeploys FLAK only once
    assert value(usaaf, "cycles_per_game_turn", period="gt3")["german_cycles"] == 2


def test_flak_die_rolls(usaaf) -> None:
    assert value(usaaf, "flak_die_rolls", flak_rule="regular") == {"rolls": 1}  # USAAF 19.2: one die roll
    # USAAF 19.3 optional: "three FLAK die rolls every time the regular rules would allow him one"
    assert value(usaaf, "flak_die_rolls", flak_rule="double_fused") == {"rolls": 3}


def test_flak_reactions(usaaf) -> None:
    # USAAF 19.2 option 1: bombers pass safely over, that many bombers' bombs have no effect
    passing = value(usaaf, "flak_reactions", flak_reaction="pass_over")
    assert passing["bombers"] == "All involved bomber units pass safely over the target"
    assert "dropped their bombs without effect" in passing["bombs"]
    # USAAF 19.2 option 2: all bomb factors delivered, that many bombers eliminated
    pressing = value(usaaf, "flak_reactions", flak_reaction="press_on")
    assert pressing["bombers"] == "The number of bomber units equal to the FLAK result are eliminated"


# ---- target-system chits and free escort missions ----------------------------------------------------


def test_target_chits(usaaf) -> None:
    # USAAF 3.4: the "Air" chit, then two more pulled; 4.2/20.4: three held
    chits = {k: value(usaaf, "target_chits", chit_step=k)["chits"] for k in ("air_chit", "drawn", "held")}
    assert chits == {"air_chit": 1, "drawn": 2, "held": 3}
    assert chits["air_chit"] + chits["drawn"] == chits["held"]


def test_chits_to_draw(usaaf, gen) -> None:
    # USAAF 20.4: draw enough chits "to bring the total in his possession back up to three"
    assert [compute(usaaf, "chits_to_draw", chits_held=n) for n in range(4)] == [3, 2, 1, 0]
    # USAAF 3.4 is the same rule at set up: holding the Air chit, two more are drawn
    assert gen.compute_chits_to_draw(chits_held=1) == 2


def test_escort_missions(usaaf) -> None:
    strafing = value(usaaf, "escort_missions", escort_mission="airfield_strafing")
    assert strafing["german_defense"] == 10  # USAAF 5.1: "using a German defense strength of 10"
    assert strafing["order"] == 1  # USAAF 6.3: "conduct airfield strafing first"
    # USAAF 6.3: "one generalized battle each game turn"; 5.1: "prior to any other US planes moving onto the map"
    assert strafing["battles"].startswith("One generalized battle each game turn, prior to any other US planes")
    busting = value(usaaf, "escort_missions", escort_mission="flak_busting")
    assert busting["german_defense"] is None  # USAAF 6.1: the FLAK strength in the hex, not a number
    assert busting["order"] == 2  # USAAF 6.3: "followed by FLAK attack(s)"
    assert busting["us_attack"].startswith("One combat factor per fighter group")  # USAAF 6.1
    # USAAF 6.4: the Germans' losses are FLAK factors, from that FLAK hex (6.1)
    losses = value(usaaf, "crt_results", crt_battle="flak_busting")
    assert (losses["left"], losses["right_losses"]) == ("attacker", "flak_factors")
    assert losses["german_losses"] == "That FLAK hex"


def test_strafing_odds_against_defense_10(gen) -> None:
    # USAAF 5.1 with 15.1-15.2: the strafing fighters' total against a defense of 10
    assert gen.odds_crt_odds(26, 10) == "2:1"
    assert gen.odds_crt_odds(5, 10) == "1:2"
    # USAAF 6.1: FLAK busting, one factor per fighter group, against at most 4 FLAK SP (7.2): 8 groups
    assert gen.odds_crt_odds(8, 4) == "2:1"


def test_turn_limits(usaaf) -> None:
    def limit(key: str) -> tuple[int, str]:
        row = value(usaaf, "turn_limits", turn_limit=key)
        return row["maximum"], row["per"]

    assert limit("mission_turns") == (18, "game_turn")  # USAAF 8.3: at most 18 mission turns
    assert limit("missions_per_unit") == (1, "game_turn")  # USAAF 6.3: one type of mission per unit
    assert limit("strafing_battles") == (1, "game_turn")  # USAAF 6.3: one generalized battle
    assert limit("flak_attacks_per_fighter") == (1, "game_turn")  # USAAF 6.3
    assert limit("interceptions_per_hex") == (1, "mission_turn")  # USAAF 14.2
    assert limit("attacks_per_unit") == (1, "mission_turn")  # USAAF 16.1
    assert limit("attacked_per_unit") == (1, "mission_turn")  # USAAF 16.1


# ---- movement and endurance ------------------------------------------------------------------------


def test_german_movement(usaaf) -> None:
    # USAAF 8.2: a unit taking off has its movement factor reduced by one that turn
    assert compute(usaaf, "german_movement", movement_factor=5, taking_off=True) == 4
    assert compute(usaaf, "german_movement", movement_factor=5) == 5
    # USAAF 10.1: staging does not lose the climbing movement point
    assert compute(usaaf, "german_movement", movement_factor=5, taking_off=True, staging=True) == 5


def test_us_bomber_movement(usaaf, gen) -> None:
    # USAAF 19.1: reduced by one point during the mission turn of bombing
    assert compute(usaaf, "us_bomber_movement", movement_factor=4, bombing_this_turn=True) == 3
    # USAAF 11.1: once it has bombed, +1 per move, "just one point, total"; 13.1: also after jettisoning
    assert compute(usaaf, "us_bomber_movement", movement_factor=4, bombs_gone=True) == 5
    assert gen.compute_us_bomber_movement(movement_factor=4) == 4


def test_landing_mission_turn(usaaf, gen) -> None:
    # USAAF 9.2: endurance 4, take off on Mission Turn 3, land during Mission Turn 6
    assert compute(usaaf, "landing_mission_turn", endurance=4, take_off_mission_turn=3) == 6
    assert gen.compute_landing_mission_turn(endurance=4, take_off_mission_turn=3) == 6
    # USAAF 9.2 counts both the turn of take off and the turn of landing: endurance 1 lands the same turn
    assert compute(usaaf, "landing_mission_turn", endurance=1, take_off_mission_turn=3) == 3
    # USAAF 9.3: free to take off again during the next mission turn
    assert compute(usaaf, "next_take_off", endurance=4, take_off_mission_turn=3) == 7


def test_endurance_example_is_held(usaaf, corpus) -> None:
    # USAAF 9.2's worked example is an `example` of the formula, and the charts agree (no C460)
    examples = {e.id: e for e in usaaf.examples}
    assert "endurance_4_take_off_3" in examples
    assert not [d for d in corpus.diagnostics if d.code == "C460" and d.span.file.startswith("charts/usaaf")]


def test_formula_inputs_keep_the_order_written(usaaf) -> None:
    # USAAF 8.2/10.1's formula tests two flags in one condition; its inputs (and so the generated
    # signature) follow the order written, not a set's order, which changed with the hash seed
    from compiler.engine.formulas import inputs

    formula = usaaf.formula("german_movement")
    assert inputs(usaaf, formula) == ("taking_off", "staging", "movement_factor")
