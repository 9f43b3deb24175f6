"""Anti-Aircraft & Aircraft (miniatures rules excerpt): the attacks by aircraft as data (issue 30): how
each attack hits, does damage and flies, the steps of an attack, the MG strafing targets, the tables the
AA damage is rolled on, the judge, the tank buster's hits, what may not be done, and the tables printed
elsewhere in the ruleset.

Each assertion cites the paragraph (heading and letter, as printed; "L33" is seed line 33). The charts are
in charts/aa_rules/attacks.chart, fire.chart and ruleset_tables.chart.
"""

from __future__ import annotations

import pytest

from compiler.engine.formulas import evaluate
from compiler.engine.lookup import lookup
from compiler.model.chart import ChartKind
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def aa(corpus):
    return corpus.project.games["aa_rules"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "aa_rules" / "aa_rules.py", "aa_rules_attacks_generated")


def value(game, address: str, **keys: str):
    return lookup(game.chart(address), None, keys, 0).values()


def test_how_each_attack_hits_and_damages(aa) -> None:
    bombing = value(aa, "attack_kinds", attack_kind="bombing")
    # Bombing c: % to-hit from the Table of Aircraft; e: the Defense/Firepower table with the HE Firepower
    assert (bombing["to_hit"].address, bombing["damage"].address) == ("Table-of-Aircraft", "Defense-Firepower")
    assert bombing["firepower"] == "The HE Firepower of the bomb load"
    # Cannons and Rockets b: against an AFV, check for hit location
    cannons = value(aa, "attack_kinds", attack_kind="cannons_rockets")
    assert "an AFV: check for hit location" in cannons["rules"]
    # Cannons and Rockets e: only 50% of the targets (every other one) by any one aircraft
    assert cannons["share_of_targets"] == 50
    # Strafing Attack (L33) names no to-hit for MG strafing; Tank Buster Aircraft b: as other direct AP fire
    assert value(aa, "attack_kinds", attack_kind="mg_strafing")["to_hit"] is None
    assert value(aa, "attack_kinds", attack_kind="tank_buster")["damage"].address == "Hit-Location"


def test_flight_paths_are_the_strafing_ones(aa, corpus) -> None:
    # Strafing b-c: 140 inches, 30 inches; Cannons and Rockets e and Tank Buster d: "the same as for strafing"
    for kind in ("mg_strafing", "cannons_rockets", "tank_buster"):
        row = value(aa, "attack_kinds", attack_kind=kind)
        assert (row["flight_path"], row["target_area"]) == (140, 30), kind
    held = [i.id for i in aa.invariants if i.id.startswith(("cannon_", "tank_buster_flight", "tank_buster_target"))]
    assert held == ["cannon_flight_line", "cannon_target_area", "tank_buster_flight_path", "tank_buster_target_area"]
    assert not [d for d in corpus.diagnostics if any(f"`{name}`" in d.message for name in held)]
    # L33 uses "the MG firepower column": column 4 of the Table of Aircraft (L82)
    assert not [d for d in corpus.diagnostics if "`mg_firepower_column`" in d.message]


def test_the_flight_path_crosses_the_board_or_runs_140_inches(aa, gen) -> None:
    # Strafing Attack b: "either cross the board or extend 140 inches, whichever is less"
    formula = aa.formula("flight_path_length")
    assert evaluate(aa, formula, {"board_crossing": 72}) == 72
    assert evaluate(aa, formula, {"board_crossing": 200}) == 140
    assert gen.compute_flight_path_length(board_crossing=140) == 140


def test_steps_targets_and_the_judge(aa, gen) -> None:
    # Bombing a-c in order; Strafing Attack: declare the flight path, then the entrance point (a)
    steps = {m.id: value(aa, "attack_steps", attack_step=m.id) for m in aa.enums["attack_step"].members}
    assert [(s["attack"], s["order"]) for s in steps.values()] == [
        ("bombing", 1), ("bombing", 2), ("bombing", 3), ("mg_strafing", 1), ("mg_strafing", 2),
    ]
    # Strafing Attack (L33): infantry, guns, buildings, soft vehicles and open-topped AFV's
    assert [m.id for m in aa.enums["strafe_target"].members] == [
        "infantry", "guns", "buildings", "soft_vehicles", "open_topped_afv",
    ]
    assert gen.lookup_mg_strafing_targets(strafe_target="open_topped_afv") == {"strafe": "may"}
    # Bombing b and Column 10: the judge provides the load, before the game; Strafing c: settles disputes
    assert value(aa, "judge", judge_duty="load")["does"].endswith("prior to the start of the game")
    assert value(aa, "judge", judge_duty="disputes") == {"does": "Settles any dispute"}


def test_aa_damage_is_rolled_on_the_guns_table(aa) -> None:
    # Anti-Aircraft f: a flak gun's own Damage Caused table; MG's: the AAMG Damage Caused Table (p. 32)
    assert value(aa, "aa_damage_tables", aa_gun="flak_gun")["roll_on"].address == "Damage-Caused"
    assert value(aa, "aa_damage_tables", aa_gun="mg")["roll_on"].address == "aamg_damage"
    assert value(aa, "aa_damage_tables", aa_gun="mg")["dice"] == "2 dice, if a hit is registered"


def test_tank_buster_hits(aa) -> None:
    # Tank Buster Aircraft b.1: the Number of Hits table if applicable; b.2: the asterisked category is a deck hit
    assert value(aa, "tank_buster_hits", tank_buster_fire="number_of_hits")["roll_on"].address == "Number-of-Hits"
    assert value(aa, "tank_buster_hits", tank_buster_fire="deck_hit")["roll_on"].address == "Hit-Location"


def test_what_may_not_be_done(aa) -> None:
    # Anti-Aircraft c: moving AA guns may not be fired; NOTE 2: no MG strafing in a cannon, rocket or
    # tank-buster turn, no rockets and cannons and MG's from the same aircraft in the same turn
    for action in ("fire_moving_aa", "mg_strafe_same_turn", "fire_all_weapons"):
        assert value(aa, "conduct", action=action) == {"allowed": "may_not"}, action


def test_the_miss_procedure_halves_the_to_hit_in_both_places(aa, corpus) -> None:
    # Bombing f: 1/2 the original to-hit percentage; Tank Buster c: "the procedure detailed in section 2 (part f.)"
    assert value(aa, "missed_target", miss_procedure="tank_buster")["divided_by"] == 2
    assert not [d for d in corpus.diagnostics if "`tank_buster_miss_halving`" in d.message]


def test_the_twelve_inches_conflict_cites_both_rows(corpus) -> None:
    # Strafing Attack c: 12" with its own 1/285 figure; NOTE 1: 12" (any scale)
    (found,) = [d for d in corpus.diagnostics if "`twelve_inches_scale`" in d.message]
    assert found.code == "C418"
    assert "is `A figure per scale`, but" in found.message and "is `In any scale`" in found.message
    assert {label.span.line for label in found.labels} != {found.span.line}


def test_the_tables_printed_elsewhere_are_declared(aa) -> None:
    externals = {c.chart_id for c in aa.charts if c.kind is ChartKind.EXTERNAL}
    assert externals == {
        "AA-Table", "Damage-Caused", "Defense-Firepower", "Table-of-Aircraft", "Hit-Location", "Number-of-Hits",
    }
