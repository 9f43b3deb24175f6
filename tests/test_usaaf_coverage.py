"""docs/coverage/usaaf.md: the outside count of the USAAF rulebook, marked against charts/usaaf.

The list's first six columns are the outside reader's (a reader who had not seen charts/); the marking
adds `status`, `where` and `gap`. These tests hold the marking to the issue's rules: every citation
names data of the compiled game, every chart, formula and worked example of the game is cited by some
row (data no row counts would make the share lie), a `transcribe` gap is done rather than left, and the
counts at the bottom are the table's. The helpers are shared with tests/test_aa_rules_coverage.py.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from compiler.model.game import Game
from tests.conftest import ROOT

COLUMNS = ("id", "lines", "rule", "kind", "item", "states", "status", "where", "gap")
STATUSES = {"complete", "partial", "missing", "narrative"}
GAPS = {"arithmetic", "choice", "limit", "conflict", "ambiguous", "domain", "procedure", "state", "board", "transcribe"}
KINDS = {
    "chart", "example", "formula", "invariant", "enum", "member", "context", "errata", "period", "limit", "conflict"
}


def coverage_rows(game_id: str, prefix: str) -> list[dict[str, str]]:
    """The table's rows of docs/coverage/<game>.md, cell by cell."""
    rows = []
    for line in (ROOT / "docs" / "coverage" / f"{game_id}.md").read_text(encoding="utf-8").splitlines():
        if re.match(rf"^\| {prefix}-\d{{3}} \|", line):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            assert len(cells) == len(COLUMNS), line
            rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return rows


def citations(where: str) -> list[tuple[str, str]]:
    if where == "-":
        return []
    return [tuple(item.strip().split(":", 1)) for item in where.split(",")]  # type: ignore[misc]


def resolves(game: Game, kind: str, name: str) -> bool:
    match kind:
        case "chart":
            return game.chart(name) is not None
        case "example":
            return any(e.id == name for e in game.examples)
        case "formula":
            return game.formula(name) is not None
        case "invariant":
            return any(i.id == name for i in game.invariants)
        case "enum":
            return name in game.enums
        case "member":
            enum, _, member = name.partition(".")
            return enum in game.enums and any(m.id == member for m in game.enums[enum].members)
        case "context":
            return name in game.context
        case "errata":
            return any(e.id == name for e in game.errata)
        case "period":
            return any(p.id == name for p in game.periods)
        case "limit":
            return game.limit(name) is not None
        case "conflict":
            return any(c.id == name for c in game.conflicts)
    return False


def check_statuses(rows: list[dict[str, str]]) -> None:
    for r in rows:
        assert r["status"] in STATUSES, r["id"]
        if r["status"] == "complete":
            assert r["gap"] == "-" and r["where"] != "-", r["id"]
        elif r["status"] in {"partial", "missing"}:
            assert r["gap"] in GAPS - {"transcribe"}, r["id"]  # what the language holds today is transcribed
        else:
            assert r["where"] == "-" and len(r["gap"]) > 10, r["id"]  # narrative: the reason, counted apart
        if r["status"] == "partial":
            assert r["where"] != "-", r["id"]


def unresolved(rows: list[dict[str, str]], game: Game) -> list[tuple[str, str, str]]:
    return [
        (r["id"], kind, name)
        for r in rows
        for kind, name in citations(r["where"])
        if kind not in KINDS or not resolves(game, kind, name)
    ]


def uncited(rows: list[dict[str, str]], game: Game) -> list[str]:
    """Charts (externals included: a table the book names is a row too), formulas and examples no row cites."""
    cited = {(kind, name) for r in rows for kind, name in citations(r["where"])}
    charts = [c.chart_id or c.slug for c in game.charts if not {("chart", c.chart_id), ("chart", c.slug)} & cited]
    formulas = [f.id for f in game.formulas if ("formula", f.id) not in cited]
    return charts + formulas + [e.id for e in game.examples if ("example", e.id) not in cited]


def check_counts(rows: list[dict[str, str]], path: Path) -> float:
    counts = Counter(r["status"] for r in rows)
    text = path.read_text(encoding="utf-8")
    rest = len(rows) - counts["narrative"]
    assert f"- rows: {len(rows)}\n" in text
    for status in ("complete", "partial", "missing"):
        assert f"- {status}: {counts[status]}\n" in text
    assert f"- narrative: {counts['narrative']} (counted apart)\n" in text
    share = 100 * counts["complete"] / rest
    assert f"- complete = {counts['complete']} / ({len(rows)} - {counts['narrative']}) = {share:.1f} %\n" in text
    return share


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return coverage_rows("usaaf", "USAAF")


@pytest.fixture(scope="module")
def usaaf(corpus) -> Game:
    return corpus.project.games["usaaf"]


def test_the_list_keeps_every_outside_row_in_order(rows) -> None:
    # the outside reader listed USAAF-001 .. USAAF-284, seed lines 10-447
    assert [r["id"] for r in rows] == [f"USAAF-{n:03}" for n in range(1, 285)]
    assert rows[0]["lines"] == "10-76" and rows[-1]["lines"] == "425, 427, 440"


def test_statuses_and_gaps_are_the_issues(rows) -> None:
    check_statuses(rows)


def test_every_citation_names_data_of_the_game(rows, usaaf) -> None:
    assert unresolved(rows, usaaf) == []


def test_every_chart_formula_and_example_is_cited(rows, usaaf) -> None:
    assert uncited(rows, usaaf) == []


def test_the_counts_are_the_tables(rows) -> None:
    share = check_counts(rows, ROOT / "docs" / "coverage" / "usaaf.md")
    assert share > 85  # 240 of 279: the rest waits for the constructs named in `gap`


def test_an_inconsistency_marked_complete_is_reported_by_check(rows, corpus) -> None:
    # USAAF 2.3 vs 22.9 (USAAF-206), 8.3 vs 24.1 (-103), 7.1 vs 9.4 (-081): each a C417 citing both places
    reported = {
        d.message.split("`")[1]
        for d in corpus.diagnostics
        if d.span.file.startswith("charts/usaaf") and d.code in {"C411", "C414", "C417", "C418", "C481"}
    }
    for r in rows:
        if r["kind"] == "inconsistency" and r["status"] == "complete":
            cited = {name for kind, name in citations(r["where"]) if kind in {"invariant", "period", "conflict"}}
            assert cited & reported, r["id"]


def test_a_chart_that_disappears_is_caught(rows, usaaf) -> None:
    # a citation of a chart the game does not declare is reported
    broken = [dict(rows[0], id="USAAF-999", status="complete", where="chart:tracks, chart:no_such_chart", gap="-")]
    assert unresolved(broken, usaaf) == [("USAAF-999", "chart", "no_such_chart")]
