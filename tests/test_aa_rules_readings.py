"""Anti-Aircraft & Aircraft excerpt: the print that reads more than one way (charts/aa_rules/readings.chart),
each an `ambiguous` finding of `chartc check` with the reading kept, and the missed-target procedure's
halving and stop as a formula and a limit. Each assertion cites the paragraph as printed."""

from __future__ import annotations

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def aa(corpus):
    return corpus.project.games["aa_rules"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "aa_rules" / "aa_rules.py", "aa_rules_readings_generated")


@pytest.fixture(scope="module")
def findings(corpus) -> dict[str, object]:
    return {
        d.message.split("`")[1]: d
        for d in corpus.diagnostics
        if d.span.file == "charts/aa_rules/readings.chart" and d.message.startswith("ambiguous print")
    }


def test_every_ambiguous_print_is_a_kept_finding(findings) -> None:
    # each names the print, its readings and the one the charts hold; `kept` makes it a note (C481)
    assert sorted(findings) == sorted([
        "damage_dice", "il2_scope", "column_other", "over_500_scope", "miss_order", "functions",
        "strafing_line_scale", "mg_to_hit", "tank_buster_to_hit", "miss_rounding", "every_other_one",
    ])
    assert {d.code for d in findings.values()} == {"C481"}
    # Anti-Aircraft f: "roll 2 dice" against the bands 01-35 / 01-40
    dice = findings["damage_dice"].message
    assert "`two ten-sided dice, percentile` (the charts hold this) or `two six-sided dice, summed`" in dice
    # the IL-2 note reads three ways; the example (35 -> 40) keeps +5 points on the AAMG table
    assert "reads three ways, `+5 points, the AAMG table` (the charts hold this)" in findings["il2_scope"].message


def test_the_damage_roll_is_percentile(aa) -> None:
    # Anti-Aircraft f: "roll 2 dice" ... "the MMG No Damage roll becomes 01-40 instead of 01-35": read as d%
    assert aa.chart("aamg_damage").dice.form.name == "PERCENTILE"
    read = lookup(aa.chart("unclear_print"), None, {"point": "damage_dice"}, 0).values()
    assert read == {"read_as": "Two ten-sided dice read as a percentile roll, 01-00"}


def test_the_strafing_to_hit_readings_are_the_charts_cells(aa) -> None:
    # Strafing Attack: MG's prints no to-hit step (L33-L41); Tank Buster b names no to-hit table (L59)
    for kind in ("mg_strafing", "tank_buster"):
        assert lookup(aa.chart("attack_kinds"), None, {"attack_kind": kind}, 0).values()["to_hit"] is None
    # Cannons and Rockets a: "Refer to the % to-hit columns in the Table of Aircraft"
    cannons = lookup(aa.chart("attack_kinds"), None, {"attack_kind": "cannons_rockets"}, 0).values()
    assert cannons["to_hit"] is not None
    # Strafing Attack c: 12" (:" in 1/285): a figure of its own for 1/285, lost in the print
    line = lookup(aa.chart("strafing_geometry"), None, {"distance": "strafing_line"}, 0).values()
    assert (line["inches"], line["scale"]) == (12, "per_scale")


def test_a_missed_target_halves_the_to_hit_and_stops_at_one_hit(gen) -> None:
    # Bombing f: other targets "at 1/2 the original to-hit percentage": 40 % gives 20 %, 35 % gives 17 % (down)
    assert gen.compute_missed_target_to_hit(original_to_hit=40) == 20
    assert gen.compute_missed_target_to_hit(original_to_hit=35) == 17
    assert gen.compute_missed_target_to_hit(original_to_hit=1) == 0
    # Bombing f: "As soon as a target is hit (if any), stop": one other target at most (Tank Buster c too)
    bound = gen.limit_targets_hit_after_a_miss()
    assert (bound["kind"], bound["max"]) == ("at_most", 1)


def test_cannons_attack_every_other_target(gen) -> None:
    # Cannons and Rockets e: "only 50% of the targets in the target area (every other one)": 6 gives 3,
    # 5 gives 3 (the first, third and fifth), 1 gives 1
    assert [gen.compute_cannon_targets(targets_in_area=n) for n in (6, 5, 1, 0)] == [3, 3, 1, 0]


def test_the_player_asks_on_the_command_line(run) -> None:
    # Bombing f at 35 %: chartc compute answers 17; the stop rule is a limit lookup answers
    done = run("compute", "aa_rules/missed_target_to_hit", "--set", "original_to_hit=35")
    assert done.exit_code == 0 and "Result: 17" in done.output
    done = run("lookup", "aa_rules/targets_hit_after_a_miss")
    assert done.exit_code == 0 and "at most 1" in done.output
    # NOTE 2: one function a turn; each weapon is one
    done = run("lookup", "aa_rules/unclear_print", "--key", "point=functions")
    assert "Each weapon an aircraft fires (bombs, rockets, cannons, MG's) is one function" in done.output
