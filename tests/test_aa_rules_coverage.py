"""docs/coverage/aa_rules.md: the outside count of the "Anti-Aircraft & Aircraft" excerpt, marked against
charts/aa_rules, held to the same rules as USAAF's list (tests/test_usaaf_coverage.py): every citation
resolves, every chart, formula and example is cited, no `transcribe` gap is left, the counts are the
table's, and an inconsistency marked complete is a finding of `chartc check`."""

from __future__ import annotations

import pytest

from compiler.model.game import Game
from tests.conftest import ROOT
from tests.test_usaaf_coverage import check_counts, check_statuses, citations, coverage_rows, uncited, unresolved


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return coverage_rows("aa_rules", "AA")


@pytest.fixture(scope="module")
def aa(corpus) -> Game:
    return corpus.project.games["aa_rules"]


def test_the_list_keeps_every_outside_row_in_order(rows) -> None:
    # the outside reader listed AA-001 .. AA-096, seed lines 5-98
    assert [r["id"] for r in rows] == [f"AA-{n:03}" for n in range(1, 97)]
    assert (rows[0]["lines"], rows[-1]["lines"]) == ("5", "98")


def test_statuses_and_gaps_are_the_issues(rows) -> None:
    check_statuses(rows)


def test_every_citation_names_data_of_the_game(rows, aa) -> None:
    assert unresolved(rows, aa) == []


def test_every_chart_formula_and_example_is_cited(rows, aa) -> None:
    assert uncited(rows, aa) == []


def test_the_counts_are_the_tables(rows) -> None:
    share = check_counts(rows, ROOT / "docs" / "coverage" / "aa_rules.md")
    assert share > 84  # 80 of 95: the rest is ambiguous print, a conflict, procedures and a halving


def test_an_inconsistency_marked_complete_is_reported_by_check(rows, corpus) -> None:
    # Strafing Attack c's 12" with its own 1/285 figure against NOTE 1's 12" in any scale (AA-076)
    reported = {
        d.message.split("`")[1]
        for d in corpus.diagnostics
        if d.span.file.startswith("charts/aa_rules") and d.code in {"C417", "C418"}
    }
    complete = [r for r in rows if r["kind"] == "inconsistency" and r["status"] == "complete"]
    assert [r["id"] for r in complete] == ["AA-076"]
    for r in complete:
        assert {name for kind, name in citations(r["where"]) if kind == "invariant"} & reported, r["id"]
