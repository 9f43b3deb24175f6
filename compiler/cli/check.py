"""`chartc check`: parse and check chart sources and print every finding in the chosen format."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.cli.common import EXIT_FINDINGS, EXIT_OK, LazyChoice, echo_lines, load_project

if TYPE_CHECKING:
    from compiler.build.project import Compilation
    from compiler.diagnostics import Diagnostic


def effective(comp: Compilation, strict: bool) -> list[Diagnostic]:
    """The findings to report; with --strict, warnings count as errors."""
    from compiler.diagnostics import as_strict

    return as_strict(comp.diagnostics) if strict else comp.diagnostics


def summary(comp: Compilation, diags: list[Diagnostic]) -> str:
    """`checked 12 charts in 1 game: 0 errors, 1 warning, 2 notes (1 kept as printed), 0 suppressed`:
    the notes that list the book's own inconsistencies, kept as printed, are counted apart."""
    from compiler.diagnostics import count_by_severity
    from compiler.diagnostics.registry import KEPT_AS_PRINTED

    def n(count: int, word: str) -> str:
        return f"{count} {word}{'s' if count != 1 else ''}"

    counts = count_by_severity(diags)
    games = len(comp.project.games)
    charts = sum(len(g.charts) for g in comp.project.games.values())
    kept = sum(1 for d in diags if d.code in KEPT_AS_PRINTED)
    notes = n(counts["note"], "note") + (f" ({kept} kept as printed)" if kept else "")
    return (
        f"checked {n(charts, 'chart')} in {n(games, 'game')}: {n(counts['error'], 'error')}, "
        f"{n(counts['warning'], 'warning')}, {notes}, {len(comp.suppressed)} suppressed"
    )


def _echo_human(comp: Compilation, diags: list[Diagnostic]) -> None:
    from compiler.diagnostics import render_human

    for d in diags:
        click.echo(render_human(d, comp.sources))
        click.echo()


def _echo_github(comp: Compilation, diags: list[Diagnostic]) -> None:
    """Annotations first (GitHub caps them per step), then the full human report for the log."""
    from compiler.diagnostics import github_overflow, render_github

    echo_lines(render_github(d) for d in diags)
    overflow = github_overflow(diags)
    if overflow:
        click.echo(overflow)
    _echo_human(comp, diags)


def print_diagnostics(comp: Compilation, fmt: str, strict: bool) -> int:
    """Print the findings in format FMT; the exit code they call for."""
    from compiler.diagnostics import has_errors, render_json, render_sarif, render_short

    diags = effective(comp, strict)
    if fmt == "json":
        click.echo(render_json(diags, comp.suppressed), nl=False)
    elif fmt == "sarif":
        click.echo(render_sarif(diags, comp.suppressed, version()), nl=False)
    elif fmt == "short":
        echo_lines(render_short(d) for d in diags)
    elif fmt == "github":
        _echo_github(comp, diags)
    else:
        _echo_human(comp, diags)
    if fmt not in ("json", "sarif"):
        click.echo(summary(comp, diags), err=fmt == "short")
    return EXIT_FINDINGS if has_errors(diags) else EXIT_OK


def version() -> str:
    """chartc's installed version (`0` when run from a source tree without install)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("chartc")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"


def _formats() -> tuple[str, ...]:
    from compiler.diagnostics.render import FORMATS

    return FORMATS


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=LazyChoice(_formats),
    default="human",
    show_default=True,
    help="human: rustc-style blocks; short: one line per finding; json: schemas/diagnostics.schema.json; "
    "github: workflow annotations, then the human report; sarif: SARIF 2.1.0 for code scanning.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--as-printed", is_flag=True, help="Check the charts as printed, without errata.")
def check(paths: tuple[Path, ...], fmt: str, strict: bool, as_printed: bool) -> None:
    """Check chart sources (default: charts/) and report every finding.

    Exit codes: 0 clean (warnings and notes allowed), 1 errors (or warnings with --strict),
    2 usage error, 3 internal error. `allow CODE "reason"` in a chart silences a warning or note.
    """
    comp = load_project(paths, as_printed)
    sys.exit(print_diagnostics(comp, fmt, strict))
