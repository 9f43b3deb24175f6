"""`chartc fmt`: rewrite chart files in the one canonical layout (see `compiler.tools.fmt`)."""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from compiler.build.reader import ReadError, read_bytes
from compiler.build.writer import replace_source
from compiler.cli.common import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, default_charts_dir, usage_error
from compiler.diagnostics.textsafe import printable
from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text


@dataclass(frozen=True)
class _Outcome:
    """What formatting one file found: its new text, or why there is none."""

    path: Path
    before: str
    after: str | None
    problem: str | None = None
    unsafe: bool = False


def chart_files_under(paths: list[Path]) -> list[Path]:
    """Every `.chart` file at PATHS: files as given, folders searched recursively, sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.chart") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise usage_error(f"no such file or folder: {path}")
    return found


def _format_file(path: Path) -> _Outcome:
    try:
        before = read_bytes(path, path.parent).decode("utf-8")
    except ReadError as exc:
        return _Outcome(path, "", None, exc.describe(str(path)))
    except UnicodeDecodeError as exc:
        return _Outcome(path, "", None, f"{path}: not UTF-8 ({exc.reason})")
    try:
        return _Outcome(path, before, format_text(before, str(path)))
    except FormatSyntaxError as exc:
        return _Outcome(path, before, None, f"{path}:{exc.line}:{exc.col}: {exc.message}")
    except UnsafeFormat as exc:
        return _Outcome(path, before, None, f"{path}: not formatted: {exc}", unsafe=True)


def _diff(outcome: _Outcome) -> str:
    assert outcome.after is not None
    name = str(outcome.path)
    lines = difflib.unified_diff(
        outcome.before.splitlines(keepends=True), outcome.after.splitlines(keepends=True), name, name
    )
    return "".join(lines)


def _default_paths() -> list[Path]:
    return [default_charts_dir()]


@click.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a file would be reformatted.")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print what would change as a unified diff.")
def fmt_command(paths: tuple[Path, ...], check: bool, show_diff: bool) -> None:
    """Rewrite chart files in the canonical layout (default: the charts folder).

    Aligns table rows and grid cells, puts one statement per line, normalises spacing and
    indentation and keeps every comment; `# fmt: off` ... `# fmt: on` lines are left alone. A
    file is written only when its new text builds the same syntax tree and formats to itself.

    Exit codes: 0 nothing to do (or files reformatted), 1 a file would be reformatted (--check,
    --diff) or does not parse, 3 the formatter could not keep a file's meaning (nothing written:
    a bug in chartc fmt, please report it).
    """
    files = chart_files_under(list(paths) or _default_paths())
    outcomes = [_format_file(path) for path in files]
    changed = [o for o in outcomes if o.after is not None and o.after != o.before]
    write = not (check or show_diff)
    for outcome in outcomes:
        if outcome.problem is not None:
            click.echo(f"error: {printable(outcome.problem)}", err=True)
    for outcome in changed:
        if show_diff:
            for line in _diff(outcome).splitlines():
                click.echo(printable(line))
        if write:
            assert outcome.after is not None

            replace_source(outcome.path, outcome.path.parent, outcome.after.encode("utf-8"))
            click.echo(f"reformatted {printable(str(outcome.path))}", err=True)
        elif not show_diff:
            click.echo(f"would reformat {printable(str(outcome.path))}", err=True)
    click.echo(_summary(outcomes, changed, write), err=True)
    sys.exit(_exit_code(outcomes, changed, write))


def _summary(outcomes: list[_Outcome], changed: list[_Outcome], write: bool) -> str:
    failed = sum(o.after is None for o in outcomes)
    unchanged = len(outcomes) - len(changed) - failed
    verb = "reformatted" if write else "would be reformatted"
    parts = [f"{len(changed)} file{'s' * (len(changed) != 1)} {verb}", f"{unchanged} unchanged"]
    if failed:
        parts.append(f"{failed} not formatted")
    return ", ".join(parts)


def _exit_code(outcomes: list[_Outcome], changed: list[_Outcome], write: bool) -> int:
    if any(o.unsafe for o in outcomes):
        return EXIT_INTERNAL
    if any(o.after is None for o in outcomes) or (changed and not write):
        return EXIT_FINDINGS
    return EXIT_OK
