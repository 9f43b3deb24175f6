"""The outside count of each rulebook (docs/coverage/<game>.md): well formed, every citation names
data charts/ holds, every chart, formula and worked example is counted by some row, an item marked
complete is what `chartc check` and the examples back, the counts under each list are its table's,
and docs/records/coverage.md is what scripts/coverage_report.py prints.

The rules every list keeps are here, once; what one game's list holds (its ids, its findings, its
share) is in tests/test_<game>_coverage.py."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from compiler.build.project import Compilation
from compiler.model.game import Game
from scripts.coverage_report import Item, counts, problems, read_list, read_lists, resolve_citations, table
from tests.conftest import ROOT, compile_text

GAMES = ("aa_rules", "ia2", "stuka_leader", "usaaf")
# issue 30: what an item short of complete lacks; `transcribe` (the language holds it today) is done, not left
GAPS = {"arithmetic", "choice", "limit", "conflict", "ambiguous", "domain", "procedure", "state", "board"}
# the findings that report an inconsistency of the book, citing its places
INCONSISTENCY_CODES = {"C411", "C414", "C417", "C418", "C480", "C481"}


def items_of(game: str) -> list[Item]:
    return read_list(ROOT / "docs" / "coverage" / f"{game}.md")


def cited(items: list[Item], *kinds: str) -> set[str]:
    return {name for i in items for kind, _, name in (w.partition(":") for w in i.where) if kind in kinds}


def reported(corpus: Compilation, game: str, codes: set[str]) -> dict[str, list]:
    """The findings of `codes` in charts/<game>, by the name each reports (its first `quoted` word)."""
    found: dict[str, list] = {}
    for d in corpus.diagnostics:
        if d.code in codes and d.span.file.startswith(f"charts/{game}/") and "`" in d.message:
            found.setdefault(d.message.split("`")[1], []).append(d)
    return found


def test_every_game_has_its_outside_list() -> None:
    assert tuple(read_lists()) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_a_list_is_well_formed(game: str) -> None:
    items = items_of(game)
    assert items, f"docs/coverage/{game}.md lists nothing"
    assert problems(items) == []


@pytest.mark.parametrize("game", GAMES)
def test_statuses_and_gaps_are_the_issues(game: str) -> None:
    for i in items_of(game):
        if i.status in ("partial", "missing"):
            assert i.gap in GAPS, i.id  # a `transcribe` gap is done rather than left
        if i.status == "complete":
            assert i.gap == "-", i.id
        if i.status == "partial":
            assert i.where, i.id  # partial: some of it is data, cited
        if i.status == "narrative":
            assert len(i.gap) > 10, i.id  # the reason it is out of scope


@pytest.mark.parametrize("game", GAMES)
def test_each_row_short_of_complete_says_why(game: str) -> None:
    # issue 30: an item that stays partial says precisely why, under the list (`- ID (status, `gap`): why`)
    text = (ROOT / "docs" / "coverage" / f"{game}.md").read_text(encoding="utf-8")
    for i in items_of(game):
        if i.status in {"partial", "missing"}:
            assert re.search(rf"^- {i.id} \({i.status}, `{i.gap}`\): \S", text, re.M), i.id


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_names_data_in_charts(game: str, corpus: Compilation) -> None:
    assert resolve_citations(items_of(game), corpus.project.games[game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_chart_formula_and_example_is_counted(game: str, corpus: Compilation) -> None:
    # data no row cites would be data nobody counted, and the share would lie; an external chart (a
    # table the book names but does not print) is an item too
    g: Game = corpus.project.games[game]
    charts = cited(items_of(game), "chart")
    uncited = [c.chart_id or c.slug for c in g.charts if not {c.chart_id, c.slug} & charts]
    uncited += [f.id for f in g.formulas if f.id not in cited(items_of(game), "formula")]
    uncited += [e.id for e in g.examples if e.id not in cited(items_of(game), "example")]
    assert uncited == []


@pytest.mark.parametrize("game", GAMES)
def test_the_counts_under_the_list_are_its_tables(game: str) -> None:
    items = items_of(game)
    c = counts(items)
    text = (ROOT / "docs" / "coverage" / f"{game}.md").read_text(encoding="utf-8")
    assert f"- rows: {c.items}\n" in text
    for status, n in (("complete", c.complete), ("partial", c.partial), ("missing", c.missing)):
        assert f"- {status}: {n}\n" in text, status
    assert f"- narrative: {c.narrative} (counted apart)\n" in text
    assert f"- complete = {c.complete} / ({c.items} - {c.narrative}) = {c.percent:.1f} %\n" in text


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_inconsistency_is_a_finding_of_check(game: str, corpus: Compilation) -> None:
    # issue 30: an inconsistency is complete only when `chartc check` reports it citing both places; a
    # comment or a note is invisible. Each citation of the row names what the finding reports: an
    # invariant (C417/C418; C414 for a count), a conflict or ambiguous print (C480/C481), the calendar's
    # period (C411), a chart the book prints cut (`partial`, C308 where rows are missing), an example
    # that contradicts the charts (C461), a record dated before its aircraft (C412, by its label), a
    # formula the print lets leave its domain (C476), a C411 or C412 kept as printed (C484)
    found = reported(corpus, game, INCONSISTENCY_CODES | {"C308", "C412", "C461", "C476", "C484"})
    g: Game = corpus.project.games[game]
    for i in items_of(game):
        if i.kind == "inconsistency" and i.status == "complete":
            names = cited([i], "invariant", "conflict", "period", "example", "formula")
            cut = [c for c in map(g.chart, cited([i], "chart")) if c is not None and c.partial]
            names |= {c.chart_id or c.slug for c in cut} | {c.slug for c in cut}
            if cut and not names & set(found):
                continue  # a chart the book prints cut, declared `partial` with the reason (in every output)
            for member in cited([i], "member"):
                enum_id, _, member_id = member.partition(".")
                m = g.enums[enum_id].member(member_id) if enum_id in g.enums else None
                names |= {m.label} if m is not None else set()
            assert names & set(found), i.id


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_worked_example_is_checked_by_its_blocks(game: str, corpus: Compilation) -> None:
    # a worked example is complete when `example` blocks check the outcome the book prints; none of the
    # blocks it cites may be one the charts contradict unannounced (C460), one declared contradicted that
    # agrees (C462), or one that cannot be read (C463). C461 (a contradiction the block declares) stays.
    # An example that states a fact rather than a roll (IA2 4.6.4: four Bf 109 types) may be checked by
    # the invariants that hold the fact instead (C414/C417 when it breaks).
    failing = set(reported(corpus, game, {"C460", "C462", "C463"}))
    ids = {e.id for e in corpus.project.games[game].examples}
    for i in items_of(game):
        if i.kind == "example" and i.status == "complete":
            blocks = cited([i], "example")
            assert blocks or cited([i], "invariant"), i.id
            assert blocks <= ids and not blocks & failing, i.id


def test_the_coverage_record_is_current() -> None:
    run = subprocess.run(
        [sys.executable, "scripts/coverage_report.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_coverage_record_holds_each_games_counts() -> None:
    # the record's first table is the lists' counts (USAAF's, say, is its list's `- rows:` line's)
    record = (ROOT / "docs" / "records" / "coverage.md").read_text(encoding="utf-8")
    for game in GAMES:
        c = counts(items_of(game))
        row = f"| {game} | {c.items} | {c.narrative} | {c.complete} | {c.partial} | {c.missing} | {c.percent:.1f} % |"
        assert row in record, game


GAME = """
game t { title "T" }
context fb_attack: flag "F/B attack"
chart [R4] escape "Escape Chart" {
  rule "7.1.10"
  roll 1d6
  column result: text "Result"
  rows { 1-2: "Safe escape" 3-6: "Combat" }
}
"""


HEADER = "# T\n\n| id | lines | rule | kind | item | states | status | where | gap |\n" + "|---" * 9 + "|\n"


def _item(status: str, where: tuple[str, ...], gap: str = "-") -> Item:
    return Item("t", "T-001", "315-323", "7.1.10", "table", "Escape Chart", status, where, gap)


def test_a_citation_of_a_chart_that_is_gone_fails(tmp_path: Path) -> None:
    # IA2 7.1.10: the Escape Chart is [R4]; a list citing [R5] cites nothing of this game
    game = compile_text(tmp_path, GAME).project.games["t"]
    assert resolve_citations([_item("complete", ("chart:R4", "chart:escape"))], game) == []
    assert resolve_citations([_item("complete", ("chart:R5",))], game) == [
        "T-001: `chart:R5` names nothing in charts/t"
    ]
    assert resolve_citations([_item("complete", ("context:fb_attack", "example:nope"))], game) == [
        "T-001: `example:nope` names nothing in charts/t"
    ]
    # a limit is a limit, not a chart of the same name
    assert resolve_citations([_item("complete", ("limit:escape",))], game) == [
        "T-001: `limit:escape` names nothing in charts/t"
    ]


def test_a_list_without_gaps_or_citations_is_refused() -> None:
    assert problems([_item("complete", ("chart:R4",))]) == []
    assert problems([_item("complete", ())]) == ["T-001: complete, but cites no data (`where`)"]
    assert problems([_item("missing", ())]) == [
        "T-001: missing without a gap (the language it lacks, or why it is narrative)"
    ]
    assert problems([_item("partial", ("R4",), "transcribe")]) == ["T-001: `R4` is not a citation KIND:NAME"]


def test_counts_leave_narrative_apart(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text(
        HEADER + "| T-001 | 1 | - | table | A | x | complete | chart:R4 | - |\n"
        "| T-002 | 2 | - | effect | B | x | missing | - | limit |\n"
        "| T-003 | 3 | - | narrative | C | x | narrative | - | history only |\n",
        encoding="utf-8",
    )
    c = counts(read_list(path))
    assert (c.items, c.complete, c.missing, c.narrative, c.ruled) == (3, 1, 1, 1, 2)
    assert c.percent == 50.0


def test_the_gaps_are_counted_per_game(tmp_path: Path) -> None:
    # the record's second table: USAAF's two `limit` items short of complete are counted under `limit`
    path = tmp_path / "t.md"
    path.write_text(
        HEADER + "| T-001 | 1 | 7.1 | limit | A | x | partial | chart:R4 | limit |\n"
        "| T-002 | 2 | 9.4 | limit | B | x | missing | - | limit |\n",
        encoding="utf-8",
    )
    assert "| limit | 2 |" in table({"t": read_list(path)})
    assert Counter(i.gap for i in read_list(path)) == {"limit": 2}
