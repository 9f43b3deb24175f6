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
    assert c.percent == 100.0  # the ambiguous print is declared, the miss procedure a formula and a limit


def test_the_complete_inconsistencies_are_kept_and_reported(items, corpus: Compilation) -> None:
    # Cannons and Rockets b's "cannon or rocket firepower" against the Table of Aircraft's columns, whose
    # only firepower is the machine guns' (AA-051): a conflict, C481. Strafing Attack c's 12" with its own
    # 1/285 figure against NOTE 1's 12" in any scale (AA-076): facts printed two ways, C418. The print that
    # reads more than one way (the damage dice, the IL-2 note, bombs over 500#, the miss procedure, MG and
    # tank buster to-hit, 50% of the targets, NOTE 2's functions): `ambiguous`, kept, C481
    complete = {i.id: i for i in items if i.kind == "inconsistency" and i.status == "complete"}
    assert list(complete) == [
        "AA-017", "AA-018", "AA-019", "AA-024", "AA-033", "AA-042", "AA-047", "AA-051", "AA-057", "AA-064",
        "AA-076", "AA-080",
    ]
    found = reported(corpus, "aa_rules", {"C418", "C481"})
    assert cited([complete["AA-051"]], "conflict") == {"cannon_rocket_firepower"}
    assert cited([complete["AA-076"]], "invariant") == {"twelve_inches_scale"}
    assert found["cannon_rocket_firepower"][0].code == "C481" and found["twelve_inches_scale"][0].code == "C418"
    assert cited([complete["AA-033"]], "conflict") == {"miss_order", "miss_rounding"}
    assert cited([complete["AA-017"]], "conflict") == {"damage_dice"}
    for item in complete.values():
        for name in cited([item], "conflict"):
            assert found[name][0].code == "C481", (item.id, name)
