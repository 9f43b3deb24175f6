"""docs/coverage/stuka_leader.md: the outside count of the Stuka Leader rulebook, marked against
charts/stuka_leader.

Every row of the outside reader's list (SL-001 to SL-587) is marked once; every `where` citation names
data of the compiled game and every chart, formula and worked example is cited by some row; a complete
inconsistency cites an invariant `chartc check` reports (C417, both places); a complete worked example
cites `example` blocks the charts agree with; the counts at the bottom are the table's. The helpers are
tests/test_usaaf_coverage.py's.
"""

from __future__ import annotations

import re

import pytest

from compiler.model.game import Game
from tests.conftest import ROOT
from tests.test_usaaf_coverage import check_counts, check_statuses, citations, coverage_rows, uncited, unresolved

COVERAGE = ROOT / "docs" / "coverage" / "stuka_leader.md"


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return coverage_rows("stuka_leader", "SL")


@pytest.fixture(scope="module")
def sl(corpus) -> Game:
    return corpus.project.games["stuka_leader"]


def test_the_list_keeps_every_outside_row_in_order(rows) -> None:
    # the outside reader listed SL-001 .. SL-587, seed lines 31-664
    assert [r["id"] for r in rows] == [f"SL-{n:03d}" for n in range(1, 588)]
    assert rows[0]["lines"] == "31" and rows[-1]["lines"] == "663-664"


def test_statuses_and_gaps_are_the_issues(rows) -> None:
    check_statuses(rows)
    # each row short of complete says why, under the counts
    text = COVERAGE.read_text(encoding="utf-8")
    for r in rows:
        if r["status"] in {"partial", "missing"}:
            assert re.search(rf"^- {r['id']} \({r['status']}, `{r['gap']}`\): \S", text, re.M), r["id"]


def test_every_citation_names_data_of_the_game(rows, sl) -> None:
    assert unresolved(rows, sl) == []


def test_every_chart_formula_and_example_is_cited(rows, sl) -> None:
    assert uncited(rows, sl) == []


def test_the_counts_are_the_tables(rows) -> None:
    share = check_counts(rows, COVERAGE)
    assert share >= 95  # issue 30's goal; the rest waits for the constructs named in `gap`


def test_a_complete_inconsistency_is_reported_citing_both_places(rows, corpus) -> None:
    # an inconsistency is complete only when `chartc check` reports it: a C417 of the invariant it cites,
    # with labels at the second place and at the invariant
    reported = {
        d.message.split("`")[1]: d
        for d in corpus.diagnostics
        if d.code == "C417" and d.span.file.startswith("charts/stuka_leader")
    }
    complete = [r for r in rows if r["kind"] == "inconsistency" and r["status"] == "complete"]
    # L47/L131, L92/L435, L94/L360, L107/L333, L109/L511, L185/L361, L228/L658, L232/L632, L538/L571
    assert [r["id"] for r in complete] == [f"SL-{n:03d}" for n in (16, 61, 64, 77, 79, 143, 171, 181, 474)]
    for r in complete:
        cited = [name for kind, name in citations(r["where"]) if kind == "invariant"]
        assert cited and all(name in reported for name in cited), r["id"]
        assert all(len(reported[name].labels) >= 2 for name in cited), r["id"]


def test_a_complete_worked_example_is_checked_by_example_blocks(rows, corpus, sl) -> None:
    # each cites example blocks, none of which `chartc check` finds disagreeing with the charts
    ids = {e.id for e in sl.examples}
    failing = {d.message.split("`")[1] for d in corpus.diagnostics if d.code in ("C460", "C461", "C463")}
    for r in rows:
        if r["kind"] == "example" and r["status"] == "complete":
            cited = {name for kind, name in citations(r["where"]) if kind == "example"}
            assert cited and cited <= ids and not cited & failing, r["id"]


def test_a_chart_that_disappears_is_caught(rows, sl) -> None:
    broken = [dict(rows[0], id="SL-999", where="chart:sheets, chart:no_such_chart")]
    assert unresolved(broken, sl) == [("SL-999", "chart", "no_such_chart")]
