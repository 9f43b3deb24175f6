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


def test_the_96_flights_are_a_conflict_with_the_sortie_schedule(corpus: Compilation) -> None:
    # IA2 7.8.5's Game Note and 10.15: "96 flights"; 4.3.3/6.0: 8 sorties a month March-December 1944 and
    # 4 a month January-May 1945, 8 x 10 + 4 x 5 = 100 (IA2A-382, IA2B-181): C481 citing the three places
    (found,) = reported(corpus, "ia2", {"C481"})["flights_in_the_game"]
    assert "(96)" in found.message and "(100)" in found.message
    assert [label.message for label in found.labels][:2] == ["10.15", "4.3.3, 6.0"]
    rows = {i.id: i for i in items_of("ia2")}
    for item_id in ("IA2A-382", "IA2B-181"):
        assert rows[item_id].status == "complete" and "flights_in_the_game" in cited([rows[item_id]], "conflict")
