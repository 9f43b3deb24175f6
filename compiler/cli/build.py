"""`chartc build`: check the charts, then write (or with --check, compare) every output."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, assert_never

import click

from compiler.build import pdfs
from compiler.build import record as build_record
from compiler.build.games import BuildOptions, build_games, check_games, write_games
from compiler.build.project import CHART_SUFFIX, PathError, find_game_dirs, read_sources
from compiler.build.render import OutputError, WorkerTimeout
from compiler.build.validate import InvalidOutput
from compiler.build.writer import WriteError, check_out_dir, orphan_games
from compiler.cli import REPORT_URL
from compiler.cli.common import (
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_OK,
    default_charts_dir,
    echo_lines,
    find_games,
    strict_option,
    usage_error,
)
from compiler.cli.printing import printing_options, unknown_printing
from compiler.diagnostics import Severity, count_by_severity, render_short
from compiler.diagnostics.textsafe import printable, printable_lines
from compiler.errata.printing import AsCorrected, AsPrinted, Printing, UnknownPrinting, UpTo, printing_key
from dsl.parser_cache import default_cache_dir

if TYPE_CHECKING:
    from compiler.build.journal import Recovery
    from compiler.diagnostics import Diagnostic


class _Recovered(Protocol):
    @property
    def recovery(self) -> Recovery: ...


_R = TypeVar("_R", bound=_Recovered)


def whole_tree(paths: tuple[Path, ...]) -> bool:
    """True when the PATHs name whole charts trees (folders of game folders), not single games."""
    roots = paths or (default_charts_dir(),)
    return all(p.is_dir() and not any(c.suffix == CHART_SUFFIX for c in p.iterdir() if c.is_file()) for p in roots)


def rebuild_command(
    paths: tuple[Path, ...],
    out_dir: Path,
    paper: str,
    large_print: bool,
    pdf: bool,
    printing: Printing,
    landscape: bool = False,
) -> str:
    """The `chartc build ...` command line that brings the outputs up to date."""
    args = "".join(f" {p}" for p in paths) + (f" --paper {paper}" if paper != "a4" else "")
    args += (" --landscape" if landscape else "") + (" --large-print" if large_print else "")
    args += (" --pdf" if pdf else "") + printing_args(printing)
    return f"chartc build{args} --out {out_dir}"


def printing_args(printing: Printing) -> str:
    """The options that name `printing` on a command line (none for every errata applied)."""
    match printing:
        case AsCorrected():
            return ""
        case AsPrinted():
            return " --as-printed"
        case UpTo(errata=name):
            return f" --printing {name}"
        case _:
            assert_never(printing)


def default_out(printing: Printing) -> Path:
    """Where a build of `printing` writes without --out: `generated`, `build/as-printed`, or
    `build/up-to-NAME` for `--printing NAME` (one folder per printing: never another's outputs)."""
    return Path("generated") if isinstance(printing, AsCorrected) else Path("build") / printing_key(printing)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder [default: generated; build/as-printed with --as-printed; build/up-to-NAME with "
    "--printing NAME].",
)
@click.option(
    "--check", "check_only", is_flag=True, help="Write nothing; exit 1 if any output is missing, stale or orphaned."
)
@printing_options
@click.option(
    "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Page size of the player aid."
)
@click.option(
    "--landscape",
    is_flag=True,
    help="Player aid on landscape pages: three narrow charts side by side, wide tables whole.",
)
@click.option("--large-print", is_flag=True, help="Player aid with 12 pt table cells and 10 pt notes (more pages).")
@click.option(
    "--pdf", is_flag=True, help="Also write the player aid as <game>.pdf (needs the `pdf` extra: WeasyPrint)."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Build the games in this many processes [default: one per CPU with --pdf; one per idle CPU when the "
         "charts hold 512 KiB or more; else 1].",
)
@strict_option
@click.option("--quiet", "-q", is_flag=True, help="Print no warnings and no count of the findings (errors print).")
def build(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    check_only: bool,
    printing: Printing,
    paper: str,
    landscape: bool,
    large_print: bool,
    pdf: bool,
    jobs: int | None,
    strict: bool,
    quiet: bool,
) -> None:
    """Check the charts, then write JSON, Python and HTML (and with --pdf, PDF) for every game into --out.

    Like `chartc check --format short`, the build prints each warning and the count of warnings and
    notes on stderr (--quiet: not). Nothing is written when any error is found (with --strict, any
    warning): the previous outputs stay as they were.
    A build without --pdf leaves existing PDFs alone: it neither deletes them nor calls them orphans.
    """
    if out_dir is None:
        out_dir = default_out(printing)
    options = {"paper": paper, "landscape": landscape, "large_print": large_print, "pdf": pdf,
               "printing": printing_key(printing), "strict": strict, "whole_tree": whole_tree(paths)}
    if check_only and not pdf:  # a PDF also depends on WeasyPrint, Pango and the fonts: see compiler.build.pdfs
        recorded = _recorded_up_to_date(paths, out_dir, options)
        if recorded is not None:
            if not quiet:
                echo_lines((printable(line) for line in recorded[1]), err=True)
            click.echo(printable(f"{recorded[0]} generated files in {out_dir} are up to date"))
            sys.exit(EXIT_OK)
    # imported after the recorded check above, which needs neither the model nor the emitters

    game_dirs = find_games(paths)
    try:
        check_out_dir(out_dir, game_dirs)
    except WriteError as exc:
        raise usage_error(str(exc)) from exc
    step, failed = (check_games, "build --check failed") if check_only else (write_games, "build failed")
    try:
        build_options = BuildOptions(printing, paper, large_print, pdf, strict, landscape)
        with closing(build_games(game_dirs, build_options, jobs, out_dir)) as builds:
            done = _on_disk(lambda: step(out_dir, builds, whole_tree(paths)), out_dir, failed)
    except OutputError as exc:
        click.echo(printable(f"build failed: {exc}; nothing was written"), err=True)
        sys.exit(EXIT_FINDINGS)
    except BrokenProcessPool:  # a worker killed (by a signal, out of memory): the lock is freed, no output changed
        click.echo("build failed: a worker process ended without sending its game (killed, or out of memory); "
                   "nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    except WorkerTimeout as exc:  # a hung worker (a layout that never ends): the workers are killed, the lock freed
        click.echo(f"build failed: {exc}; the workers were stopped and nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    except UnknownPrinting as exc:  # --printing NAME of a game without errata NAME: nothing was written
        raise unknown_printing(exc) from exc
    except InvalidOutput as exc:  # chartc's emitter and its schema disagree: not the charts' fault

        click.echo(printable(f"chartc hit an internal error: {exc}; nothing was written. This is a bug in chartc, "
                             f"not in your charts: please report it on {REPORT_URL} with the charts."), err=True)
        sys.exit(EXIT_INTERNAL)
    if done.failing:
        echo_lines((render_short(d) for d in done.failing), err=True)
        click.echo(f"build failed: {_why_failed(done.failing)}; nothing was written (run `chartc check` for details)",
                   err=True)
        sys.exit(EXIT_FINDINGS)
    report = found_lines(done.reported)
    if not quiet:
        echo_lines(report, err=True)
    if done.stale is not None:
        stale = done.stale
        if stale.clean:
            _record(done.game_ids, done.sources, options, out_dir, done.digests, done.pdf_keys, report)
            click.echo(printable(f"{len(done.digests)} generated files in {out_dir} are up to date"))
            sys.exit(EXIT_OK)
        echo_lines((printable(f"missing:  {out_dir / rel}") for rel in stale.missing), err=True)
        for rel in stale.changed:
            click.echo(printable(f"stale:    {out_dir / rel}"), err=True)
            click.echo(printable_lines(stale.diffs[rel]), err=True)
        echo_lines(
            (printable(f"orphaned: {out_dir / rel} (no chart source produces it)") for rel in stale.orphaned), err=True
        )
        fix = rebuild_command(paths, out_dir, paper, large_print, pdf, printing, landscape)
        click.echo(printable(f"generated files are out of date: run `{fix}`"), err=True)
        sys.exit(EXIT_FINDINGS)
    assert done.written is not None
    changed = done.written.changed
    _record(done.game_ids, done.sources, options, out_dir, done.digests, done.pdf_keys, report)
    games = f"{len(done.game_ids)} game{'s' if len(done.game_ids) != 1 else ''}"
    files = f"{len(changed)} file{'s' if len(changed) != 1 else ''}"
    kept = f"; {done.pdfs_reused} PDF{'s' if done.pdfs_reused != 1 else ''} unchanged" if done.pdfs_reused else ""
    click.echo(printable(f"built {games} into {out_dir}: {files} changed{kept}"))


def found_lines(reported: list[Diagnostic]) -> list[str]:
    """What a build prints of the findings that did not fail it: each warning in the short format,
    then `15 warnings, 18 notes (`chartc check` prints each note)`; nothing when there are none."""
    if not reported:
        return []
    counts = count_by_severity(reported)
    warnings, notes = counts[Severity.WARNING.value], counts[Severity.NOTE.value]
    lines = [render_short(d) for d in reported if d.severity is Severity.WARNING]
    counted = f"{warnings} warning{'s' if warnings != 1 else ''}, {notes} note{'s' if notes != 1 else ''}"
    return [*lines, counted + (" (`chartc check` prints each note)" if notes else "")]


def _recorded_up_to_date(
    paths: tuple[Path, ...], out_dir: Path, options: dict[str, object]
) -> tuple[int, list[str]] | None:
    """`build --check` without compiling: the number of outputs and the lines the recorded build
    reported when the charts, chartc and the options are those of the build recorded for `out_dir`
    and every output is on disk as that build wrote it (`compiler.build.record`); None when the full
    check must run (it reports why)."""
    try:
        game_dirs = find_game_dirs(list(paths) or [default_charts_dir()])  # the one configuration, as find_games
        check_out_dir(out_dir, game_dirs)
    except (PathError, WriteError):
        return None
    sources = read_sources(game_dirs)
    if sources is None:
        return None
    game_ids = sorted(game_dirs)
    digests = {name: build_record.source_digest(text) for name, text in sources.items()}
    key = build_record.inputs_key(game_ids, digests, options)
    if options["whole_tree"]:
        game_ids = sorted(game_ids + orphan_games(out_dir, game_ids))
    return build_record.up_to_date(default_cache_dir(), out_dir, key, game_ids)


def _record(
    game_ids: list[str],
    sources: Mapping[str, str],
    options: dict[str, object],
    out_dir: Path,
    digests: Mapping[str, str],
    pdf_keys: Mapping[str, str],
    report: list[str],
) -> None:
    """Remember that `out_dir` now holds the outputs with these digests for these inputs, and the
    lines the build reported (see `_recorded_up_to_date`); `sources` maps each file read to its
    `build_record.source_digest`; `pdf_keys` the key of each PDF's inputs (`compiler.build.pdfs`)."""
    key = build_record.inputs_key(game_ids, sources, options)
    build_record.save(default_cache_dir(), out_dir, key, digests, report)
    if pdf_keys:
        pdfs.save(default_cache_dir(), out_dir, pdf_keys, digests)


def _why_failed(failing: list[Diagnostic]) -> str:
    """`2 error(s) and 1 warning(s) (--strict fails on warnings)`: what failed the build."""
    found = Counter(d.severity for d in failing)
    counted = [f"{found[s]} {s.value}(s)" for s in (Severity.ERROR, Severity.WARNING) if found[s]]
    return " and ".join(counted) + (" (--strict fails on warnings)" if found[Severity.WARNING] else "")


def _on_disk(step: Callable[[], _R], out_dir: Path, failed: str) -> _R:
    """Run a step of the writer (a build or `--check`): print what recovering an interrupted build
    did, or the writer's refusal (exit 1)."""
    try:
        result = step()
    except WriteError as exc:
        click.echo(printable(f"{failed}: {exc}"), err=True)
        sys.exit(EXIT_FINDINGS)
    echo_lines((printable(line) for line in result.recovery.lines(out_dir)), err=True)
    return result
