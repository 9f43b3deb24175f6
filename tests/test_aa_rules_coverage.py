"""docs/coverage/aa_rules.md: the outside count of the "Anti-Aircraft & Aircraft" excerpt, marked against
charts/aa_rules. The rules every list keeps are tests/test_coverage_lists.py's; here is what this
list holds."""

from __future__ import annotations

import pytest

from compiler.build.project import Compilation
from scripts.coverage_report import Item, counts
from tests.test_coverage_lists import cited, items_of, reported


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return items_of("aa_rules")


def test_the_list_keeps_every_outside_row_in_order(items) -> None:
    # the outside reader listed AA-001 .. AA-096, seed lines 5-98
    assert [i.id for i in items] == [f"AA-{n:03}" for n in range(1, 97)]
    assert (items[0].lines, items[-1].lines) == ("5", "98")


def test_the_share_complete(items) -> None:
    c = counts(items)
    assert (c.items, c.narrative) == (96, 1)
    assert c.percent > 84  # the rest is ambiguous print, a conflict, procedures and a halving


def test_the_one_complete_inconsistency_is_kept_and_reported(items, corpus: Compilation) -> None:
    # Strafing Attack c's 12" with its own 1/285 figure against NOTE 1's 12" in any scale (AA-076): C418
    complete = [i for i in items if i.kind == "inconsistency" and i.status == "complete"]
    assert [i.id for i in complete] == ["AA-076"]
    (found,) = reported(corpus, "aa_rules", {"C418"})["twelve_inches_scale"]
    assert cited(complete, "invariant") == {"twelve_inches_scale"} and found.labels
