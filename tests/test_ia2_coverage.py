"""docs/coverage/ia2.md: the outside count of Interceptor Ace Vol. 2, marked against charts/ia2. The
rules every list keeps are tests/test_coverage_lists.py's; here is what this list holds."""

from __future__ import annotations

from compiler.build.project import Compilation
from scripts.coverage_report import counts
from tests.test_coverage_lists import cited, items_of, reported


def test_the_list_holds_both_outside_parts_in_order() -> None:
    # IA2 seed lines 1-620 (part 1, IA2A-001..473) then 621-1222 (part 2, IA2B-001..309)
    ids = [i.id for i in items_of("ia2")]
    assert ids == [f"IA2A-{n:03}" for n in range(1, 474)] + [f"IA2B-{n:03}" for n in range(1, 310)]


def test_the_share_complete() -> None:
    c = counts(items_of("ia2"))
    assert (c.items, c.narrative) == (782, 17)
    assert c.percent > 85  # the rest waits for the constructs named in `gap`


def test_the_jet_aces_ranks_are_kept_findings(corpus: Compilation) -> None:
    # 10.4 heads Weissenberger and Spaete Major (Starting Rank Hauptmann), Steinhoff Oberst
    # (Oberstleutnant): three facts printed two ways, kept as printed (C418), each cited by the list
    kept = reported(corpus, "ia2", {"C418"})
    names = {"weissenberger_rank", "steinhoff_rank", "spaete_rank"}
    assert names <= set(kept)
    assert names <= cited(items_of("ia2"), "invariant")
