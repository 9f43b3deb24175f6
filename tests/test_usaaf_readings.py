"""USAAF: the print that reads more than one way and the places that disagree in words, each a kept finding
of `chartc check` (charts/usaaf/readings.chart, targets.chart, game.chart), and the rules they brought in as
data: the swarming choice (14.2), a city's destruction points (20.1), the counter-mix cap on US arrivals
(1.4, 21.2), the Fuel Index floor (22.9). Each assertion cites the rule as printed."""

from __future__ import annotations

import pytest

from compiler.engine.lookup import lookup
from tests.conftest import ROOT, import_module


@pytest.fixture(scope="module")
def usaaf(corpus):
    return corpus.project.games["usaaf"]


@pytest.fixture(scope="module")
def gen():
    return import_module(ROOT / "generated" / "usaaf" / "usaaf.py", "usaaf_readings_generated")


@pytest.fixture(scope="module")
def findings(corpus) -> dict[str, object]:
    return {
        d.message.split("`")[1]: d
        for d in corpus.diagnostics
        if d.span.file.startswith("charts/usaaf/") and d.code in {"C480", "C481", "C482", "C483"}
    }


def test_every_reading_is_a_kept_finding_citing_its_print(findings) -> None:
    assert {d.code for d in findings.values()} == {"C481"}
    # 19.3: "three FLAK die rolls every time the regular rules would allow him one": added, not the best
    flak = findings["three_flak_rolls"].message
    assert "`the three results added` (the charts hold this) or `the best of three`" in flak
    # 25.0: Essen's run `36/246/2` reads Mtl 36/24, MV 6/2 or Mtl 36/2, MV 46/2
    assert "`Mtl 36/24, MV 6/2` (the charts hold this) or `Mtl 36/2, MV 46/2`" in findings["essen_mtl_mv"].message
    # 22.4's "Electrical Power" is no head of the table: neither EE nor EP is marked
    assert "`neither: no head is Electrical Power` (the charts hold this)" in findings["electrical_power"].message
    # 7.5 "For more details, see rule 11.1"; 11.1 is the no-loitering rule: two places, both cited
    stacks = findings["stack_rearranging"].message
    assert "7.5 says" in stacks and "11.1 says" in stacks


def test_the_readings_kept_are_what_lookup_answers(usaaf) -> None:
    def read(point: str) -> str:
        return lookup(usaaf.chart("unclear_print"), None, {"point": point}, 0).values()["read_as"]

    # 9.6: only units that can land in friendly German territory return to play
    assert read("no_friendly_territory").startswith("Eliminated")
    # 22.9: "thereafter ... at the start of each game turn": from the next game turn
    assert read("first_turn_at_zero").startswith("The next game turn")
    # 17.3 "If such US fighters are attacked": combat against bomberless escorts is the German's choice
    assert lookup(usaaf.chart("battles"), None, {"battle": "bomberless_escorts"}, 0).values()["takes_place"] == "may"
    # 12.2: just prior to "the" US Airfield Strafing Phase (12.1's "any/all" reads the same one phase)
    called = lookup(usaaf.chart("calls"), None, {"call": "luftwaffe_withdrawal"}, 0).values()["called"]
    assert called == "Just prior to the start of the US Airfield Strafing Phase"


def test_the_target_table_cells_kept(usaaf) -> None:
    def cell(city: str, column: str) -> tuple[int, ...]:
        return lookup(usaaf.chart("target_systems"), None, {"city": city}, 0).values()[column]

    # 25.0: the two-way runs read as kept: Leipzig `10/718/12` EE 10/7, EP 18/12; Magdeburg `18/186/4`
    # EE 18/18, EP 6/4; Bremen MV 6/7 kept with more points than factors
    assert (cell("leipzig", "ee"), cell("leipzig", "ep")) == ((10, 7), (18, 12))
    assert (cell("magdeburg", "ee"), cell("magdeburg", "ep")) == ((18, 18), (6, 4))
    assert cell("bremen", "mv") == (6, 7)


def test_swarming_is_the_germans_choice(gen, run) -> None:
    # 14.2: "if there are three US bombers in the hex, he may choose not to attack all three, going after
    # two, or just one": a choice, not a roll
    assert gen.lookup_swarming_targets(3)["attacked"] == {"choice": (1, 2, 3)}
    assert gen.lookup_swarming_targets(1)["attacked"] == 1
    done = run("lookup", "usaaf/swarming_targets", "3")
    assert done.exit_code == 0 and "your choice of 1, 2 or 3" in done.output


def test_a_citys_points_need_its_first_number(gen, run) -> None:
    # 20.1: "if six bomb factors are dropped on Cologne's "Chm" component, four destruction points are
    # immediately yielded"; more factors give no more (readings), fewer go to the Less Than Minimum table
    assert gen.compute_city_points(bomb_factors_dropped=6, cell_factors=6, cell_points=4) == 4
    assert gen.compute_city_points(bomb_factors_dropped=12, cell_factors=6, cell_points=4) == 4
    with pytest.raises(ValueError):
        gen.compute_city_points(bomb_factors_dropped=5, cell_factors=6, cell_points=4)
    done = run("compute", "usaaf/city_points", "--set", "bomb_factors_dropped=5", "--set", "cell_factors=6",
               "--set", "cell_points=4")
    assert done.exit_code == 1 and "applies only where bomb_factors_dropped >= cell_factors" in done.output


def test_us_arrivals_stop_at_the_counter_mix(gen) -> None:
    # 21.1: eight P51 units a game turn; 21.2: with only seven P51 counters left, seven come in and the
    # eighth is neither carried over nor changed into another type
    assert gen.compute_us_units_received(us_units_due=8, us_counters_left=7) == 7
    assert gen.compute_us_units_received(us_units_due=8, us_counters_left=20) == 8
    assert gen.compute_us_units_received(us_units_due=4, us_counters_left=0) == 0


def test_the_fuel_index_stops_at_zero(gen) -> None:
    # 22.9: -1 a game turn, -2 with Chm or EP destroyed, -3 with both; "once hits zero ... no further
    # tracking": 11 - 1 is 10, 1 - 2 is 0 (kept reading), 2 - 3 is 0
    assert gen.compute_fuel_index_after(fuel_index=11, fuel_decrease=1) == 10
    assert gen.compute_fuel_index_after(fuel_index=1, fuel_decrease=2) == 0
    assert gen.compute_fuel_index_after(fuel_index=2, fuel_decrease=3) == 0
