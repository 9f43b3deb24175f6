"""`chartc list`: a game's charts (or every game's) with ID, title, rule, how each is read and
its status; then its record sets (enums with fields) with their number of records and fields."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.build.project import PathError, find_game_dirs
from compiler.cli.common import (
    EXIT_FINDINGS,
    JSON_FORMATS,
    charts_option,
    echo_lines,
    format_option,
    load_game_folder,
    usage_error,
)
from compiler.cli.printing import printing_options
from compiler.diagnostics.suggest import known_values_hint
from compiler.diagnostics.textsafe import printable
from compiler.engine.formulas import inputs
from compiler.engine.limits import limit_variables
from compiler.engine.records import record_sets
from compiler.errata.printing import Printing
from compiler.model import ChartKind
from compiler.model.odds import OddsForm
from compiler.model.text import pipeline_text

if TYPE_CHECKING:
    from compiler import model


@dataclass(frozen=True)
class ChartEntry:
    """One line of `chartc list`: a chart as a reader finds it."""

    game: str
    address: str
    chart_id: str | None
    title: str
    rule: str | None
    read_by: str
    status: str


def read_by(chart: model.Chart) -> str:
    """How a chart is read: its dice, its value, or its keys (`1d6 by interceptor`)."""
    if chart.odds is not None:
        return "attack strength" if chart.odds.form is OddsForm.STRENGTH else "attack and defense factors"
    if chart.dice is not None:
        base = pipeline_text(chart) or chart.dice_text  # `1d6, -3, minimum 0, maximum 3` after arithmetic
    elif chart.value_key is not None:
        base = f"value {chart.value_key.id}"
    else:
        base = ""
    keys = ", ".join(k.id for k in chart.keys)
    if not keys:
        return base
    return f"{base} by {keys}" if base else f"keys {keys}"


def status(chart: model.Chart) -> str:
    """`partial`, `external`, `DRMs only`, `odds rule` or empty: what a reader should know."""
    parts = []
    match chart.kind:
        case ChartKind.EXTERNAL:
            parts.append("external")
        case ChartKind.DRMS:
            parts.append("DRMs only")
        case ChartKind.ODDS:
            parts.append("odds rule")
        case ChartKind.ROLL | ChartKind.VALUE | ChartKind.REFERENCE:
            pass
    if chart.partial is not None:
        parts.append("partial")
    return ", ".join(parts)


def entries(game: model.Game) -> list[ChartEntry]:
    """The charts of a game in declaration order, then its formulas (`chartc compute` reads them),
    then its limits (`chartc lookup` reads them)."""
    charts = [ChartEntry(game.id, c.address, c.chart_id, c.title, c.rule, read_by(c), status(c)) for c in game.charts]
    formulas = [
        ChartEntry(game.id, f.id, None, f.title, f.rule, _context_words(tuple(inputs(game, f))), "formula")
        for f in game.formulas
    ]
    limits = [
        ChartEntry(game.id, lim.id, None, lim.title, lim.rule, _context_words(limit_variables(lim)), "limit")
        for lim in game.limits
    ]
    return charts + formulas + limits


def record_entries(game: model.Game) -> list[tuple[ChartEntry, int, tuple[str, ...]]]:
    """The game's record sets in the order of the source, each as a line of the table (read by
    `12 records: family, type, ...`, status `records`) with its number of records and its field ids."""
    out = []
    for e in record_sets(game):
        fields = tuple(f.id for f in e.fields)
        read = f"{len(e.members)} records: {', '.join(fields)}"
        out.append((ChartEntry(game.id, e.id, None, e.label, e.rule, read, "records"), len(e.members), fields))
    return out


def _context_words(variables: tuple[str, ...]) -> str:
    return "context " + ", ".join(variables) if variables else "always"


# The widest a column of the human table gets (chart, title, rule, read by, status): a longer cell
# is cut with `…` so that a line fits a wide terminal; `--format json` keeps every cell whole.
COLUMN_CAPS = (None, 56, 32, 44, 24)  # the address is never cut: it is what a user copies


def _cut(text: str, cap: int | None) -> str:
    return text if cap is None or len(text) <= cap else text[: cap - 1].rstrip() + "…"


def table_lines(rows: list[ChartEntry]) -> list[str]:
    """The entries as aligned columns with a heading, each cell cut to its column's cap."""
    head = ("chart", "title", "rule", "read by", "status")
    whole = [(f"{e.game}/{e.address}", e.title, e.rule or "", e.read_by, e.status) for e in rows]
    cells = [tuple(_cut(cell, cap) for cell, cap in zip(row, COLUMN_CAPS, strict=True)) for row in whole]
    widths = [max(len(row[i]) for row in [head, *cells]) for i in range(len(head))]
    return [
        printable("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()) for row in [head, *cells]
    ]


@click.command("list")
@click.argument("game", required=False)
@charts_option
@format_option(JSON_FORMATS, "human: aligned columns; json: an array of the charts.")
@printing_options
def list_command(game: str | None, charts_dir: Path, fmt: str, printing: Printing) -> None:
    """List the charts of GAME (default: every game in --charts): chart address, title, rule,
    dice or keys, and status (partial, external, DRMs only, odds rule), then its formulas (`chartc
    compute` reads them: status formula) and its limits (`chartc lookup` reads them: status limit);
    then its record sets, enums with fields (`chartc lookup GAME/ENUM` reads them: status records,
    read by `N records: FIELD, ...`; in JSON also `records` and `fields`).

    With --as-printed or --printing NAME, the charts as that printing reads them (an errata may
    retitle a chart or add one).

    Exit codes: 0 listed, 1 a game has errors (its charts are still listed), 2 no such game (or
    no such printing).
    """
    try:  # the game folders `check` finds: a missing or empty folder is a usage error, as there
        folders = {g: f for g, f in find_game_dirs([charts_dir]).items() if not g.startswith(".")}
    except PathError as exc:
        raise usage_error(str(exc)) from exc
    if game is not None and game not in folders:
        hint = known_values_hint(game, [(g, None) for g in folders], "games")
        raise usage_error(f"no game `{game}` in {charts_dir}; {hint}")
    rows: list[ChartEntry] = []
    records: list[tuple[ChartEntry, int, tuple[str, ...]]] = []
    errors = 0
    for game_id in [game] if game is not None else list(folders):
        comp = load_game_folder(folders[game_id], printing)
        errors += sum(d.severity.value == "error" for d in comp.diagnostics)
        loaded = comp.project.games.get(game_id)
        if loaded is not None:
            rows.extend(entries(loaded))
            records.extend(record_entries(loaded))
    if fmt == "json":
        listed = [asdict(r) for r in rows] + [asdict(r) | {"records": n, "fields": list(f)} for r, n, f in records]
        click.echo(json.dumps(listed, indent=2, ensure_ascii=True))
    else:
        echo_lines(table_lines(rows + [r for r, _, _ in records]))
    if errors:
        click.echo(f"warning: {errors} error(s) in these charts; run `chartc check {charts_dir}`", err=True)
        sys.exit(EXIT_FINDINGS)
