"""docs/coverage/stuka_leader.md: the outside count of the Stuka Leader rulebook, marked against
charts/stuka_leader. The rules every list keeps are tests/test_coverage_lists.py's; here is what this
list holds: its complete inconsistencies are C418 or C481 findings citing both places."""

from __future__ import annotations

import pytest

from compiler.build.project import Compilation
from scripts.coverage_report import Item, counts
from tests.test_coverage_lists import cited, items_of, reported


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return items_of("stuka_leader")


def test_the_list_keeps_every_outside_row_in_order(items) -> None:
    # the outside reader listed SL-001 .. SL-587, seed lines 31-664
    assert [i.id for i in items] == [f"SL-{n:03d}" for n in range(1, 588)]
    assert items[0].lines == "31" and items[-1].lines == "663-664"


def test_the_share_complete(items) -> None:
    assert counts(items).percent >= 95  # issue 30's goal; the rest waits for the constructs named in `gap`


def test_a_complete_inconsistency_is_reported_citing_both_places(items, corpus: Compilation) -> None:
    # each a C418 of the invariant it cites, or a C481 of the conflict it cites (kept as printed, with the
    # book's words), with labels at the other places
    kept = reported(corpus, "stuka_leader", {"C418"}) | reported(corpus, "stuka_leader", {"C481"})
    complete = [i for i in items if i.kind == "inconsistency" and i.status == "complete"]
    # L47/L131, L92/L435, L94/L360, L107/L333, L109/L511, L185/L361, L228/L658, L232/L632, L538/L571; the
    # Bail Out cross-references L394/L573/L234 (SL-329) and the Promotion number L627/L629 (SL-559); and
    # L610's -1 Stress on a 0 Stress Target (SL-542, a formula's domain: the test below)
    assert [i.id for i in complete] == [
        f"SL-{n:03d}" for n in (16, 61, 64, 77, 79, 143, 171, 181, 329, 474, 542, 559)
    ]
    for i in (i for i in complete if i.id != "SL-542"):
        names = cited([i], "invariant", "conflict")
        assert names and names <= set(kept), i.id
        # a C418 labels the second fact and the invariant; a C481 labels every place after the first
        least = 2 if cited([i], "invariant") else 1
        assert all(len(kept[name][0].labels) >= least for name in names), i.id


def test_the_stress_floor_the_print_omits_is_a_finding(items, corpus: Compilation) -> None:
    # Debriefing 23 (L610): "If it is a 0 Stress Target, the Pilot still receives a -1 Stress" (SL-542), and
    # 24 (L612) sets no minimum after the Cool recovery (SL-543): end_of_day_stress's domain 0+ is kept,
    # so check lists the -1 as a note (C476) naming the Drop Tank
    by_id = {i.id: i for i in items}
    for item_id in ("SL-542", "SL-543"):
        assert by_id[item_id].status == "complete" and "end_of_day_stress" in cited([by_id[item_id]], "formula")
    (found,) = reported(corpus, "stuka_leader", {"C476"})["end_of_day_stress"]
    assert "gives -1" in found.message and "drop_tank yes" in found.message
