"""docs/coverage/usaaf.md: the outside count of the USAAF rulebook, marked against charts/usaaf.

The rules every list keeps (citations resolve, every chart, formula and example is counted, no
`transcribe` gap left, the counts are the table's, a complete inconsistency is a finding of `chartc
check`) are tests/test_coverage_lists.py's; here is what USAAF's list holds."""

from __future__ import annotations

import pytest

from compiler.build.project import Compilation
from scripts.coverage_report import Item, counts
from tests.test_coverage_lists import cited, items_of, reported


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return items_of("usaaf")


def test_the_list_keeps_every_outside_row_in_order(items) -> None:
    # the outside reader listed USAAF-001 .. USAAF-284, seed lines 10-447
    assert [i.id for i in items] == [f"USAAF-{n:03}" for n in range(1, 285)]
    assert items[0].lines == "10-76" and items[-1].lines == "425, 427, 440"


def test_the_share_complete(items) -> None:
    c = counts(items)
    assert (c.items, c.narrative) == (284, 5)
    assert c.percent > 95  # the rest waits for the constructs named in `gap` (sums over units, the map)


def test_the_books_timing_and_stacking_conflicts_are_findings(items, corpus: Compilation) -> None:
    # USAAF 2.3 vs 22.9 and 20.7 (USAAF-206), 8.3 vs 24.1 (-103): facts printed two ways, kept (C418);
    # 7.1's six units a hex vs 9.4's no limit at a base (-081): a conflict, kept (C481)
    by_id = {i.id: i for i in items}
    kept = reported(corpus, "usaaf", {"C418", "C481"})
    expected = {
        "USAAF-206": {"war_now_ends_fuel_timing": "C418", "war_now_ends_shortened_timing": "C418"},
        "USAAF-103": {"flak_movement_step": "C418"},
        "USAAF-081": {"units_at_a_base": "C481"},
    }
    for item_id, names in expected.items():
        assert by_id[item_id].status == "complete"
        assert cited([by_id[item_id]], "invariant", "conflict") == set(names)
        assert {name: kept[name][0].code for name in names} == names
