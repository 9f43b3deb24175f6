"""Anti-Aircraft & Aircraft (miniatures rules excerpt): the values the excerpt prints.

Each assertion cites the rule paragraph (section and letter, as printed).
"""

from __future__ import annotations

import pytest

from compiler.engine.lookup import LookupProblem, lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def aa(corpus):
    return corpus.project.games["aa_rules"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "aa_rules" / "aa_rules.py", "aa_rules_generated")


def value(game, address: str, roll: str | None, drm: int = 0, **keys: str):
    return lookup(game.chart(address), roll, keys, drm).values()


def test_only_the_aamg_tables_and_the_books_two_inconsistencies_are_reported(corpus) -> None:
    # (the print that reads two ways, readings.chart, is tests/test_aa_rules_readings.py's)
    found = sorted(
        (d.code, d.span.file, d.message)
        for d in corpus.diagnostics
        if d.span.file.startswith("charts/aa_rules") and d.span.file != "charts/aa_rules/readings.chart"
    )
    # Anti-Aircraft f: the AAMG Damage Caused Table (p. 32) is not in the excerpt; only MMG No Damage 01-35 is
    # quoted, and its IL-2 variant inherits the gap (only 01-40 is known)
    assert [(code, file) for code, file, _ in found] == [("C308", "charts/aa_rules/aircraft.chart")] * 2 + [
        ("C418", "charts/aa_rules/aircraft.chart"),
        ("C481", "charts/aa_rules/attacks.chart"),
    ]
    assert "partial chart `aamg_damage`: rolls 36-100 select no row" in found[0][2]
    assert "partial chart `il2_aamg`: rolls 41-100 select no row" in found[1][2]
    # Strafing Attack c gives its 12" a 1/285 figure of its own; NOTE 1's 12" is "(any scale)": kept as printed
    assert found[2][2].startswith("invariant `twelve_inches_scale`")
    # Cannons and Rockets b's "cannon or rocket firepower": no column of the Table of Aircraft holds it
    assert found[3][2].startswith("conflict `cannon_rocket_firepower`")


def test_aa_column_choice(aa) -> None:
    # Anti-Aircraft d: strafing uses the "Low" column; bombing or dive-bombing the "Med" column
    assert value(aa, "aa_column_choice", None, attack="strafing") == {"column": "low"}
    assert value(aa, "aa_column_choice", None, attack="Bombing") == {"column": "med"}
    assert value(aa, "aa_column_choice", None, attack="dive_bombing") == {"column": "med"}


def test_building_defence(aa) -> None:
    # Strafing Attack d: CA defense of 2 for wooden buildings and 3 for stone buildings
    assert value(aa, "building_defence", None, building="wooden")["ca_defence"] == 2
    assert value(aa, "building_defence", None, building="Stone buildings")["ca_defence"] == 3
    # "If a building containing infantry is hit and damaged by aircraft MG fire, apply the MG firepower
    # against the infantry as well."
    inside = value(aa, "building_defence", None, building="stone")["infantry_inside"]
    assert inside.endswith("against the infantry as well")


def test_strafing_geometry(aa) -> None:
    def inches(distance: str) -> int:
        return value(aa, "strafing_geometry", None, distance=distance)["inches"]

    assert inches("flight_path") == 140  # Strafing Attack b: cross the board or extend 140 inches
    assert inches("strafing_line") == 12  # Strafing Attack c: within 12" of either side of the target's center
    assert inches("target_area") == 30  # Strafing Attack c: target area no longer than 30 inches
    assert inches("fire_first_target") == 12  # NOTE 1: within 12" of the intended target ...
    assert inches("fire_first_aa") == 30  # NOTE 1: ... before an AA gun comes within 30" of the plane
    assert inches("bomb_miss_radius") == 4  # Bombing f: other targets within a 4" radius at 1/2 to-hit
    assert inches("tank_buster_miss_radius") == 3  # Tank Buster Aircraft c: only a 3" radius
    # Strafing Attack c as printed, with the 1/285-scale figure lost
    assert '(:" in 1/285)' in value(aa, "strafing_geometry", None, distance="strafing_line")["printed"]


def test_aamg_damage_partial(aa, gen) -> None:
    # Anti-Aircraft f, IL-2 note: "the MMG No Damage roll becomes 01-40 instead of 01-35" -> base band 01-35
    assert value(aa, "aamg_damage", "01", mg="MMG") == {"result": "No Damage"}
    assert value(aa, "aamg_damage", "35", mg="mmg") == {"result": "No Damage"}
    with pytest.raises(LookupProblem, match="declared partial"):
        lookup(aa.chart("aamg_damage"), "36", {"mg": "mmg"}, 0)
    assert gen.lookup_aamg_damage(35, mg="mmg") == {"result": "No Damage"}
    with pytest.raises(gen.NoRowError):
        gen.lookup_aamg_damage(40, mg="mmg")  # 36-40 is No Damage only for the IL-2 (il2_aamg below)


def test_il2_aamg_derived(aa, gen) -> None:
    # Anti-Aircraft f, NOTE: "For the IL-2 Sturmovik, add 5% to the numbers in the table (e.g., the MMG No
    # Damage roll becomes 01-40 instead of 01-35)."
    chart = aa.chart("il2_aamg")
    assert [r.range.printed for r in chart.rows] == ["01-40"]
    assert [r.range.printed for r in aa.chart("aamg_damage").rows] == ["01-35"]  # the base is unchanged
    assert value(aa, "il2_aamg", "01", mg="MMG") == {"result": "No Damage"}  # 01 stays the first face
    assert value(aa, "il2_aamg", "36", mg="mmg") == {"result": "No Damage"}
    assert value(aa, "il2_aamg", "40", mg="mmg") == {"result": "No Damage"}
    # the base table is partial and so is its variant (it inherits the declaration): 41+ is not printed
    assert chart.partial == aa.chart("aamg_damage").partial
    with pytest.raises(LookupProblem, match="declared partial"):
        lookup(chart, "41", {"mg": "mmg"}, 0)
    assert gen.lookup_il2_aamg(40, mg="mmg") == {"result": "No Damage"}
    with pytest.raises(gen.NoRowError):
        gen.lookup_il2_aamg(41, mg="mmg")
