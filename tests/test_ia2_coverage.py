"""docs/coverage/ia2.md: the outside count of Interceptor Ace Vol. 2, marked against charts/ia2.

Every citation in the `where` column names data of the compiled game (a chart, example, invariant,
enum, member, context variable, errata, period or formula); the statuses and gap labels are the
issue's; the counts at the bottom are the table's; every chart of the game is cited by some row
(a chart no row cites would be data nobody counted).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from compiler.model.chart import ChartKind
from tests.conftest import ROOT

COVERAGE = ROOT / "docs" / "coverage" / "ia2.md"
STATUSES = {"complete", "partial", "missing", "narrative"}
GAPS = {"arithmetic", "choice", "limit", "conflict", "ambiguous", "domain", "procedure", "state", "board", "transcribe"}
KINDS = {
    "chart", "example", "formula", "invariant", "enum", "member", "context", "errata", "period", "limit", "conflict"
}


def _rows(path: Path = COVERAGE) -> list[dict[str, str]]:
    names = ["id", "lines", "rule", "kind", "item", "states", "status", "where", "gap"]
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\| IA2[AB]-\d{3} \|", line):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            assert len(cells) == len(names), line
            rows.append(dict(zip(names, cells, strict=True)))
    return rows


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return _rows()


def _citations(where: str) -> list[tuple[str, str]]:
    if where == "-":
        return []
    out = []
    for item in where.split(","):
        kind, _, name = item.strip().partition(":")
        out.append((kind, name))
    return out


def _resolves(game, kind: str, name: str) -> bool:
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


def test_the_list_holds_both_outside_parts_in_order(rows) -> None:
    # IA2 seed lines 1-620 (part 1, IA2A-001..473) then 621-1222 (part 2, IA2B-001..309)
    ids = [r["id"] for r in rows]
    assert ids == [f"IA2A-{n:03}" for n in range(1, 474)] + [f"IA2B-{n:03}" for n in range(1, 310)]


def test_statuses_and_gaps_are_the_issues(rows) -> None:
    for r in rows:
        assert r["status"] in STATUSES, r["id"]
        if r["status"] == "complete":
            assert r["gap"] == "-" and r["where"] != "-", r["id"]
        elif r["status"] in {"partial", "missing"}:
            assert r["gap"] in GAPS - {"transcribe"}, r["id"]  # a transcribe gap is done, not left
        else:
            assert len(r["gap"]) > 10, r["id"]  # narrative: the reason it is out of scope
        if r["status"] == "partial":
            assert r["where"] != "-", r["id"]


def test_every_citation_names_data_of_the_game(rows, ia2) -> None:
    unresolved = [
        (r["id"], kind, name)
        for r in rows
        for kind, name in _citations(r["where"])
        if kind not in KINDS or not _resolves(ia2, kind, name)
    ]
    assert unresolved == []


def test_every_chart_is_cited(rows, ia2) -> None:
    cited = {name for r in rows for kind, name in _citations(r["where"]) if kind == "chart"}
    uncited = [
        c.chart_id or c.slug
        for c in ia2.charts
        if c.kind is not ChartKind.EXTERNAL and not ({c.chart_id, c.slug} & cited)
    ]
    assert uncited == []


def test_every_example_is_cited(rows, ia2) -> None:
    cited = {name for r in rows for kind, name in _citations(r["where"]) if kind == "example"}
    assert [e.id for e in ia2.examples if e.id not in cited] == []


def test_the_counts_are_the_tables(rows) -> None:
    counts = Counter(r["status"] for r in rows)
    text = COVERAGE.read_text(encoding="utf-8")
    rest = len(rows) - counts["narrative"]
    assert f"- rows: {len(rows)}" in text
    for status in ("complete", "partial", "missing"):
        assert f"- {status}: {counts[status]}\n" in text
    assert f"- narrative: {counts['narrative']} (counted apart)" in text
    assert f"= {100 * counts['complete'] / rest:.1f} %" in text
