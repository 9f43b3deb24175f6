"""Anti-Aircraft & Aircraft excerpt: who fires first, the fire limits, the K/S and AA damage
legends, bombs over 500#, the missed-target procedure and the modifiers that apply
(charts/aa_rules/fire.chart). Each assertion cites the paragraph as printed."""

from __future__ import annotations

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def aa(corpus):
    return corpus.project.games["aa_rules"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "aa_rules" / "aa_rules.py", "aa_rules_more_generated")


def value(game, address: str, **keys: str):
    return lookup(game.chart(address), None, keys, 0).values()


def test_fire_order(aa) -> None:
    # Anti-Aircraft a: "AA fire is first; Effects are immediate."
    assert value(aa, "fire_order", fire_situation="normal")["fires_first"] == "aa"
    # NOTE 1: within 12" of the target before an AA gun is within 30", the attacker may fire first
    assert value(aa, "fire_order", fire_situation="within_12_first")["fires_first"] == "aircraft"
    # NOTE 1: an AA gun farther down the flight path comes into immediate effect at that point
    assert value(aa, "fire_order", fire_situation="aa_further_down")["fires_first"] == "aa"


def test_fire_limits(aa, gen) -> None:
    # Anti-Aircraft b: "One AA unit may fire at only one plane."
    assert value(aa, "fire_limits", fire_limit="planes_per_aa_unit")["maximum"] == 1
    # NOTE 2: "One function may be performed per aircraft per turn."
    assert gen.lookup_fire_limits(fire_limit="functions_per_aircraft")["maximum"] == 1


def test_firepower_results_legend(aa) -> None:
    # Bombing e: "K" is a kill, "S" is suppression of troops or immobilization for vehicles; above that no effect
    assert value(aa, "firepower_results", firepower_result="K") == {"meaning": "Kill"}
    assert value(aa, "firepower_results", firepower_result="S") == {
        "meaning": "Suppression of troops or immobilization for vehicles"
    }
    assert value(aa, "firepower_results", firepower_result="above") == {"meaning": "No effect"}


def test_aa_damage_results_legend(aa) -> None:
    # Anti-Aircraft f: "KIA" destroys the plane, "Compartment Hit" aborts it, "N" is no effect
    assert value(aa, "aa_damage_results", aa_damage_result="KIA") == {"effect": "Destroys the plane"}
    assert value(aa, "aa_damage_results", aa_damage_result="Compartment Hit") == {"effect": "Causes it to abort"}
    assert value(aa, "aa_damage_results", aa_damage_result="N") == {"effect": "No effect"}


def test_bombs_over_500_checked_twice(aa) -> None:
    # Bombing d: "For bombs over 500# in size, check for effect twice for each bomb."
    assert value(aa, "bomb_effect_checks", bomb_size="over_500") == {"checks": 2}
    # the single check of a smaller bomb is implied, not printed: no row for it
    assert [m.id for m in aa.enums["bomb_size"].members] == ["over_500"]


def test_missed_target(aa) -> None:
    # Bombing f: other targets within a 4" radius at 1/2 the original to-hit percentage
    assert value(aa, "missed_target", miss_procedure="bomb") == {
        "radius": 4,
        "to_hit": "1/2 the original to-hit percentage",
        "divided_by": 2,
    }
    # Tank Buster Aircraft c: the same procedure, "but use only a 3" radius"
    assert value(aa, "missed_target", miss_procedure="tank_buster")["radius"] == 3


def test_missed_target_radii_agree_with_strafing_geometry(aa, corpus) -> None:
    # Bombing f (4") and Tank Buster Aircraft c (3") are held equal in both charts by `same` invariants
    names = {i.id for i in aa.invariants}
    assert {"bomb_miss_radius", "tank_buster_miss_radius"} <= names
    assert value(aa, "strafing_geometry", distance="bomb_miss_radius")["inches"] == 4
    held = ("`bomb_miss_radius`", "`tank_buster_miss_radius`", "`tank_buster_miss_halving`")
    assert not [d for d in corpus.diagnostics if any(name in d.message for name in held)]


def test_fire_modifiers(aa) -> None:
    # Tank Buster Aircraft b: "using all applicable modifiers except Firer Moving"
    assert value(aa, "fire_modifiers", fire_kind="tank_buster")["not_applied"] == "Firer Moving"
    # Cannons and Rockets c: all modifiers apply, including height disadvantage; d: not plummeting fire
    cannons = value(aa, "fire_modifiers", fire_kind="cannons_rockets")
    assert cannons["modifiers"] == "All modifiers apply, including height disadvantage."
    assert cannons["not_applied"] == "Strafing is not considered plummeting fire."
    # Bombing e: "All appropriate modifiers apply."
    assert value(aa, "fire_modifiers", fire_kind="bombing") == {
        "modifiers": "All appropriate modifiers apply.",
        "not_applied": None,
    }


def test_tank_buster_armour(aa, gen) -> None:
    # Tank Buster Aircraft b.3: "Use armor thickness numbers to the right of the slash, unless the
    # to-hit dice roll ends in a 0"
    right = [n for n in range(1, 101) if n % 10]
    assert {gen.lookup_tank_buster_armour(n)["side"] for n in right} == {"right of the slash"}
    ends_in_0 = [gen.lookup_tank_buster_armour(n)["side"] for n in range(10, 101, 10)]
    assert ends_in_0 == ["left of the slash (the roll ends in 0)"] * 10
    # 00 is read as 100 on percentile dice, and ends in 0
    assert lookup(aa.chart("tank_buster_armour"), "00", {}, 0).values()["side"].startswith("left")


def test_aircraft_table_columns(aa, gen) -> None:
    # "Columns 1 & 2: Country of Origin and Aircraft Name." (L78): one line for two columns
    assert gen.lookup_aircraft_table_columns(1) == gen.lookup_aircraft_table_columns(2)
    assert gen.lookup_aircraft_table_columns(2)["contents"] == "Country of Origin and Aircraft Name."
    # "Column 6: To-hit percentages for Vehicles or Infantry in the order: MG's/Cannons/Bombs/Rockets." (L86)
    assert gen.lookup_aircraft_table_columns(6)["contents"].endswith("MG's/Cannons/Bombs/Rockets.")
    # "Column 11: Pertinent notes and dates of service." (L96): eleven columns, no twelfth
    assert gen.lookup_aircraft_table_columns(11)["contents"] == "Pertinent notes and dates of service."
    with pytest.raises(ValueError):
        gen.lookup_aircraft_table_columns(12)
