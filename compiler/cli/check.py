"""`chartc check`: parse and check chart sources and print every finding in the chosen format;
with `--fix`, apply the findings' fixes first (`--diff`: show them), then report what is left."""

from __future__ import annotations

import difflib
import sys
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.build.project import chart_files, display_path, load
from compiler.build.reader import ReadError, read_bytes
from compiler.build.writer import replace_source
from compiler.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    default_charts_dir,
    echo_lines,
    format_option,
    load_project,
    strict_option,
    usage_error,
)
from compiler.cli.printing import printing_options
from compiler.diagnostics import (
    Applicability,
    as_strict,
    count_by_severity,
    github_overflow,
    has_errors,
    render_github,
    render_human,
    render_json,
    render_sarif,
    render_short,
)
from compiler.diagnostics.fixes import apply_fixes
from compiler.diagnostics.registry import KEPT_AS_PRINTED
from compiler.diagnostics.render import FORMATS
from compiler.diagnostics.textsafe import printable
from compiler.errata.printing import Printing
from dsl.aid_order import ORDER_FILE

if TYPE_CHECKING:
    from compiler.build.project import Compilation
    from compiler.diagnostics import Diagnostic, Fix

# `--fix` applies, checks again and applies what the last pass left (an overlapping fix, or one the
# first fixes made possible), at most this many times.
FIX_PASSES = 10


def effective(comp: Compilation, strict: bool) -> list[Diagnostic]:
    """The findings to report; with --strict, warnings count as errors."""
    return as_strict(comp.diagnostics) if strict else comp.diagnostics


def summary(comp: Compilation, diags: list[Diagnostic]) -> str:
    """`checked 12 charts in 1 game: 0 errors, 1 warning, 2 notes (1 kept as printed), 0 suppressed`:
    the notes that list the book's own inconsistencies, kept as printed, are counted apart."""
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
    for d in diags:
        click.echo(render_human(d, comp.sources))
        click.echo()


def _echo_github(comp: Compilation, diags: list[Diagnostic]) -> None:
    """Annotations first (GitHub caps them per step), then the full human report for the log."""
    echo_lines(render_github(d) for d in diags)
    overflow = github_overflow(diags)
    if overflow:
        click.echo(overflow)
    _echo_human(comp, diags)


def print_diagnostics(comp: Compilation, fmt: str, strict: bool) -> int:
    """Print the findings in format FMT; the exit code they call for."""
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
        hint = fixable_hint(diags)
        if hint:
            click.echo(hint, err=fmt == "short")
        click.echo(summary(comp, diags), err=fmt == "short")
    return EXIT_FINDINGS if has_errors(diags) else EXIT_OK


def fixable_hint(diags: list[Diagnostic]) -> str | None:
    """`2 findings can be fixed with `chartc check --fix` (1 more with `--unsafe-fixes`)`, or None."""
    safe = sum(1 for d in diags if d.fix is not None and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.applicability is Applicability.UNSAFE)
    if not safe and not unsafe:
        return None
    more = f" ({unsafe} more with `--unsafe-fixes`)" if safe and unsafe else ""
    if not safe:
        return f"{_findings(unsafe)} can be fixed with `chartc check --fix --unsafe-fixes`"
    return f"{_findings(safe)} can be fixed with `chartc check --fix`{more}"


def _findings(n: int) -> str:
    return f"{n} finding{'s' if n != 1 else ''}"


# ---- --fix and --diff ---------------------------------------------------------------------------------


def _source_paths(comp: Compilation) -> dict[str, Path]:
    """Every file the check read, by the name its findings' spans carry."""
    paths: dict[str, Path] = {}
    for folder in comp.game_dirs.values():
        for path in [*chart_files(folder), folder / ORDER_FILE]:
            shown = display_path(path)
            if shown in comp.sources:
                paths[shown] = path
    return paths


def _wanted(fix: Fix | None, unsafe: bool) -> bool:
    if fix is None or not fix.edits or len({e.span.file for e in fix.edits}) != 1:
        return False
    return fix.applicability is Applicability.SAFE or (unsafe and fix.applicability is Applicability.UNSAFE)


def apply_fixes_to_project(
    paths: tuple[Path, ...], printing: Printing, unsafe: bool
) -> tuple[Compilation, dict[Path, tuple[str, str]], int]:
    """The fixes of the findings at PATHS applied in memory, pass after pass (each checks the text
    the last one left, as `--fix` will leave it on disk): the last check, `{file: (text before, text
    after)}` for each file changed, and how many fixes were applied. A file keeps its line ends and
    byte-order mark."""
    comp = load_project(paths, printing)
    files = _source_paths(comp)
    before: dict[Path, str] = {}
    now: dict[Path, str] = {}
    applied = 0
    for _ in range(FIX_PASSES):
        by_file: dict[str, list[Fix]] = {}
        for d in comp.diagnostics:
            if d.fix is not None and _wanted(d.fix, unsafe):
                by_file.setdefault(d.fix.edits[0].span.file, []).append(d.fix)
        changed = False
        for name, found in by_file.items():
            path = files.get(name)
            if path is None:
                continue
            if path not in now:
                try:
                    now[path] = before[path] = read_bytes(path, path.parent).decode("utf-8")
                except (ReadError, UnicodeDecodeError):
                    continue  # its C102 is reported; nothing in it can be fixed
            text, taken = apply_fixes(now[path], found)
            if text != now[path]:
                now[path], applied, changed = text, applied + len(taken), True
        if not changed:
            break
        unsaved = {p.resolve(): t.replace("\r\n", "\n").replace("\r", "\n") for p, t in now.items()}
        comp = load(list(paths) or [default_charts_dir()], printing=printing, unsaved=unsaved)
    return comp, {p: (before[p], t) for p, t in now.items() if t != before[p]}, applied


def _diff_lines(path: Path, before: str, after: str) -> list[str]:
    name = str(path)
    return [
        printable(line.rstrip("\r\n"))
        for line in difflib.unified_diff(before.splitlines(True), after.splitlines(True), name, name)
    ]


def _fix_summary(verb: str, applied: int, files: int, left: list[Diagnostic], unsafe: bool) -> str:
    """`fixed 3 findings in 2 files` (`would fix`), and how many unsafe fixes `--unsafe-fixes` would add."""
    text = f"{verb} {_findings(applied)} in {files} file{'s' if files != 1 else ''}"
    waiting = sum(1 for d in left if d.fix is not None and d.fix.applicability is Applicability.UNSAFE)
    if waiting and not unsafe:
        text += f"; {waiting} more with `--unsafe-fixes`"
    return text


def fix_command(paths: tuple[Path, ...], fmt: str, strict: bool, printing: Printing, unsafe: bool, diff: bool) -> int:
    """`check --fix` (write the fixed files, then report what is left) or `check --diff` (print the
    fixes as a unified diff, write nothing; exit 1 when there is one)."""
    comp, changed, applied = apply_fixes_to_project(paths, printing, unsafe)
    if diff:
        for path, (before, after) in changed.items():
            echo_lines(_diff_lines(path, before, after))
        click.echo(_fix_summary("would fix", applied, len(changed), comp.diagnostics, unsafe), err=True)
        return EXIT_FINDINGS if changed else print_diagnostics_quiet(comp, strict)
    for path, (_, after) in changed.items():
        try:
            replace_source(path, path.parent, after.encode("utf-8"))
        except (ReadError, OSError) as exc:
            raise usage_error(f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}") from exc
    click.echo(_fix_summary("fixed", applied, len(changed), comp.diagnostics, unsafe), err=True)
    return print_diagnostics(comp, fmt, strict)


def print_diagnostics_quiet(comp: Compilation, strict: bool) -> int:
    """The exit code the findings call for, printing nothing."""
    return EXIT_FINDINGS if has_errors(effective(comp, strict)) else EXIT_OK


def version() -> str:
    """chartc's installed version (`0` when run from a source tree without install)."""
    try:
        return installed("chartc")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"


def _formats() -> tuple[str, ...]:
    return FORMATS


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@format_option(
    _formats,
    "human: rustc-style blocks with each fix; short: one line per finding; json: "
    "schemas/diagnostics.schema.json (with each fix's edits); github: workflow annotations, then the human "
    "report; sarif: SARIF 2.1.0 for code scanning (fixes as artifactChanges).",
)
@strict_option
@printing_options
@click.option(
    "--fix", is_flag=True, help="Apply the safe fixes to the chart files, then report the findings that are left."
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="With --fix or --diff: apply the unsafe fixes too (the closest name for a misspelt one, an open end...).",
)
@click.option("--diff", is_flag=True, help="Write nothing; print the fixes --fix would apply as a unified diff.")
def check(
    paths: tuple[Path, ...], fmt: str, strict: bool, printing: Printing, fix: bool, unsafe_fixes: bool, diff: bool
) -> None:
    """Check chart sources (default: charts/) and report every finding.

    A finding whose fix is obvious carries it (shown as `fix (safe)` or `fix (unsafe)`). --fix applies
    the safe ones and writes each changed file in one step, then checks again and reports what is left;
    --unsafe-fixes adds the unsafe ones; --diff prints the change instead of writing it.

    Exit codes: 0 clean (warnings and notes allowed), 1 errors (or warnings with --strict; with --diff,
    also any fix to apply), 2 usage error, 3 internal error. `allow CODE "reason"` in a chart silences
    a warning or note.
    """
    if unsafe_fixes and not (fix or diff):
        raise usage_error("--unsafe-fixes goes with --fix or --diff")
    if fix or diff:
        sys.exit(fix_command(paths, fmt, strict, printing, unsafe_fixes, diff))
    comp = load_project(paths, printing)
    sys.exit(print_diagnostics(comp, fmt, strict))
