"""The corpus inventories (docs/corpus/*.md) against charts/ and the README (issue 15): the README's
corpus tables are scripts/corpus_report.py's output, every finding of `chartc check charts` is
explained in its item's row, every chart of charts/ is in its game's inventory, and each inventory
reaches 95 % of what its book prints in full."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from compiler.build.project import Compilation
from compiler.diagnostics import Diagnostic
from compiler.model.chart import ChartKind
from compiler.model.game import Game

from .conftest import ROOT


@pytest.fixture(scope="module")
def report():
    # registered while it runs: its dataclasses resolve their annotations through sys.modules
    name = "corpus_report_under_test"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "corpus_report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@pytest.fixture(scope="module")
def books(report):
    return report.inventories()


def owner(game: Game, diag: Diagnostic) -> str:
    """The name the finding is about, as an inventory row writes it: a chart's ID (or slug), an
    invariant, a period, or an enum record `enum.member`."""
    s = diag.span

    def inside(span) -> bool:
        return span is not None and span.file == s.file and span.line <= s.line <= span.end_line

    for chart in game.charts:
        if inside(chart.span):
            return chart.chart_id or chart.slug
    for invariant in game.invariants:
        if inside(invariant.span):
            return invariant.id
    for period in game.periods:
        if inside(period.span):
            return period.id
    for declared in (*game.formulas, *game.limits, *game.conflicts, *game.ambiguities):
        if inside(declared.span):
            return declared.id
    for enum in game.enums.values():
        for member in enum.members:
            if inside(member.span):
                return f"{enum.id}.{member.id}"
    raise AssertionError(f"no chart, invariant, period or record holds {diag.code} at {s.file}:{s.line}")


def coverage_names(game_id: str) -> set[str]:
    """The names docs/coverage/<game>.md cites (`chart:R4` -> `R4`): the outside count that replaces the
    inventory (issue 30) explains and counts what it cites (an enum explains a finding at its records)."""
    path = ROOT / "docs" / "coverage" / f"{game_id}.md"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return set(re.findall(r"\b(?:chart|invariant|formula|period|enum|member|limit|conflict):([A-Za-z0-9_.\-]+)", text))


def findings(comp: Compilation) -> set[tuple[str, str, str]]:
    """(game, code, name) of every finding, allowed ones included; the C461 notes on worked examples
    are the examples table's (test_examples.py)."""
    diags = list(comp.diagnostics) + [s.diagnostic for s in comp.suppressed]
    found = set()
    for diag in diags:
        if diag.code == "C461":
            continue
        game_id = Path(diag.span.file).parts[1]
        found.add((game_id, diag.code, owner(comp.project.games[game_id], diag)))
    return found


def test_the_corpus_record_holds_the_corpus_tables(report) -> None:
    # docs/records/corpus.md is the script's output: an inventory change must reach it
    page = report.PAGE.read_text(encoding="utf-8")
    assert f"{report.BEGIN}\n{report.tables()}\n{report.END}" in page


def test_every_finding_is_explained_in_its_items_row(books, corpus, corpus_as_printed) -> None:
    # e.g. IA2 4.6 vs 4.6.2: C481 `bases_count`; USAAF 23.1 vs 22.8: C411 `gt4`, kept as printed (C484);
    # Stuka L260 vs L158: C418
    found = findings(corpus) | findings(corpus_as_printed)
    assert ("usaaf", "C484", "gt4") in found  # `kept C411 at 1944-05`
    assert ("usaaf", "C308", "target_systems") in found  # 25.0: the mapsheet's table has no Berlin row
    assert ("stuka_leader", "C418", "sequence_of_play") in found  # kept as printed, still explained
    assert ("ia2", "C481", "bases_count") in found  # IA2 4.6 counts 36 bases, 4.6.2 lists 35
    assert ("ia2", "C484", "mission.schweinfurt") in found  # C412 kept: 10.15.3 August 1943 vs 11.1 March 1944
    unexplained = sorted(
        (game, code, name)
        for game, code, name in found
        if not any(f"{code} `{name}`" in item.findings for item in books[game])
        and not {name, name.split(".")[0]} & coverage_names(game)
    )
    assert unexplained == []


def test_an_unexplained_finding_is_caught(books) -> None:
    # the same match the test above uses: a finding of a chart no row names is not explained
    rows = books["ia2"]
    assert any("C308 `R7`" in item.findings for item in rows)  # 10.6: rows above Veteran 1 Skill lost
    assert not any("C308 `R5`" in item.findings for item in rows)  # R5 (7.3) is complete as printed


def test_every_chart_and_formula_is_in_its_games_inventory(books, corpus) -> None:
    # a chart added to charts/ without an inventory row is not counted: the share would lie
    missing = []
    for game_id, game in corpus.project.games.items():
        names = {name for item in books[game_id] for name in item.names} | coverage_names(game_id)
        for chart in game.charts:
            if chart.kind is ChartKind.EXTERNAL:  # referred to, not printed ([B3], [B6], [C2], [P1])
                continue
            if chart.slug not in names and (chart.chart_id or chart.slug) not in names:
                missing.append(f"{game_id}/{chart.slug}")
        missing += [f"{game_id}/{f.id}" for f in game.formulas if f.id not in names]
    # IA2's reference data (4.6.2, 9.1, 11, ...) are enums, row 56 "reference data"
    assert missing == []


def test_the_file_column_names_the_files_that_declare_the_charts(books, corpus) -> None:
    # docs/corpus/ia2.md's `file` column follows the chart files (renamed after what they hold)
    checked = []
    for game_id, items in books.items():
        game = corpus.project.games[game_id]
        declared = {name: Path(c.span.file).stem for c in game.charts for name in (c.slug, c.chart_id) if name}
        declared |= {f.id: Path(f.span.file).stem for f in game.formulas}
        for item in items:
            for file in item.files:
                assert (ROOT / "charts" / game_id / f"{file}.chart").is_file(), f"{game_id} row {item.line}: {file}"
            for name in item.names if item.files else ():
                if name in declared:
                    assert declared[name] in item.files, f"{game_id} row {item.line}: `{name}` is in {declared[name]}"
                    checked.append(name)
    assert {"R4", "B12", "W1", "straggler", "escort_range", "me163_out_of_fuel"} <= set(checked)


def test_a_file_column_is_read_up_to_its_remark(report) -> None:
    table = "\n".join([
        "## Printed in full", "",
        "| # | charts | item | rule | file | status | findings | remarks |",
        "|---|---|---|---|---|---|---|---|",
        "| 1 | `B12` | Initiative | 7.2 | card_drms (combat.chart's `external [B12]` replaced) | transcribed | | |",
        "| 2 | `x`, `y` | Two | 1 | prose_tables, prose_rolls | transcribed | | |",
    ])
    [one, two] = report.parse_inventory("ia2", table)
    assert one.files == ("card_drms",) and two.files == ("prose_tables", "prose_rolls")


def test_each_inventory_reaches_95_percent_and_says_why_for_the_rest(report, books) -> None:
    status = report.Status
    for game, items in books.items():
        done = sum(item.status in (status.TRANSCRIBED, status.PARTIAL) for item in items)
        assert done / len(items) >= 0.95, game
    # IA2 7.1.6: the combat cards' firepower columns are not printed: a partial odds rule
    (firepower,) = [i for i in books["ia2"] if i.names == ("firepower_column",)]
    assert firepower.rule == "7.1.6" and firepower.status is status.PARTIAL
    assert not [i for i in books["ia2"] if i.status is status.NOT_EXPRESSIBLE]
    # USAAF 7.4: a stack moves at its slowest unit's factor, a min over a list
    (stack,) = [i for i in books["usaaf"] if i.status is status.NOT_EXPRESSIBLE]
    assert stack.rule == "7.4" and "min" in stack.remarks


def test_the_counts_table_reads_the_statuses(report) -> None:
    text = (
        "# x\n\n## Printed in full\n\n"
        "| # | charts | item | rule | status | findings | remarks |\n|---|---|---|---|---|---|---|\n"
        "| 1 | `a` | A | 1.1 | transcribed | | |\n"
        "| 2 | `b` | B | 1.2 | partial (issue 15) | C308 `b`: one row | |\n"
        "| 3 | — | C | 1.3 | **not expressible** | | needs `x | y` |\n"
        "\nafter\n"
    )
    items = report.parse_inventory("t", text)
    status = report.Status
    assert [i.status for i in items] == [status.TRANSCRIBED, status.PARTIAL, status.NOT_EXPRESSIBLE]
    assert items[2].remarks == "needs `x | y`"  # a `|` inside backticks stays in its cell
    assert items[1].names == ("b",)
    assert report.counts_table({"t": items}).splitlines()[2] == "| t | 3 | 1 | 1 | 1 | 66.7 % |"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("| 1 | `a` | A | 1.1 | done | | |", "status 'done' is none of"),
        ("| 1 | `a` | A | 1.1 | not expressible | | |", "must say why"),
        ("| 1 | `a` | A | 1.1 | transcribed | |", "6 cells under 7 columns"),
    ],
)
def test_a_bad_inventory_row_is_refused(report, row: str, message: str) -> None:
    header = "| # | charts | item | rule | status | findings | remarks |\n|---|---|---|---|---|---|---|"
    text = f"## Printed in full\n\n{header}\n{row}\n"
    with pytest.raises(report.InventoryError, match=message):
        report.parse_inventory("t", text)
