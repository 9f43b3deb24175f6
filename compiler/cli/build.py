"""`chartc build`: check the charts, then write (or with --check, compare) every output."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

import click

from compiler.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    echo_lines,
    load_project,
    usage_error,
)
from compiler.textsafe import printable, printable_lines

if TYPE_CHECKING:
    from compiler.journal import Recovery


class _Recovered(Protocol):
    @property
    def recovery(self) -> Recovery: ...


_R = TypeVar("_R", bound=_Recovered)


def whole_tree(paths: tuple[Path, ...]) -> bool:
    """True when the PATHs name whole charts trees (folders of game folders), not single games."""
    from compiler.cli.common import default_charts_dir
    from compiler.project import CHART_SUFFIX

    roots = paths or (default_charts_dir(),)
    return all(p.is_dir() and not any(c.suffix == CHART_SUFFIX for c in p.iterdir() if c.is_file()) for p in roots)


def rebuild_command(
    paths: tuple[Path, ...], out_dir: Path, paper: str, large_print: bool, pdf: bool, as_printed: bool
) -> str:
    """The `chartc build ...` command line that brings the outputs up to date."""
    args = "".join(f" {p}" for p in paths) + (f" --paper {paper}" if paper != "a4" else "")
    args += (
        (" --large-print" if large_print else "") + (" --pdf" if pdf else "") + (" --as-printed" if as_printed else "")
    )
    return f"chartc build{args} --out {out_dir}"


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder [default: generated; build/as-printed with --as-printed].",
)
@click.option(
    "--check", "check_only", is_flag=True, help="Write nothing; exit 1 if any output is missing, stale or orphaned."
)
@click.option(
    "--as-printed", is_flag=True, help="Ignore every errata: build the charts exactly as the rulebook prints them."
)
@click.option(
    "--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Page size of the player aid."
)
@click.option("--large-print", is_flag=True, help="Player aid with 12 pt table cells and 10 pt notes (more pages).")
@click.option(
    "--pdf", is_flag=True, help="Also write the player aid as <game>.pdf (needs the `pdf` extra: WeasyPrint)."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="With --pdf: render the player aids of several games in this many processes [default: one per CPU].",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def build(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    check_only: bool,
    as_printed: bool,
    paper: str,
    large_print: bool,
    pdf: bool,
    jobs: int | None,
    strict: bool,
) -> None:
    """Check the charts, then write JSON, Python and HTML (and with --pdf, PDF) for every game into --out.

    Nothing is written when any error is found: the previous outputs stay as they were.
    A build without --pdf leaves existing PDFs alone: it neither deletes them nor calls them orphans.
    """
    if out_dir is None:
        out_dir = Path("build/as-printed") if as_printed else Path("generated")
    options = {"paper": paper, "large_print": large_print, "pdf": pdf, "as_printed": as_printed, "strict": strict,
               "whole_tree": whole_tree(paths)}
    if check_only and not pdf:  # a PDF also depends on WeasyPrint, Pango and the fonts: always rendered
        recorded = _recorded_up_to_date(paths, out_dir, options)
        if recorded is not None:
            click.echo(printable(f"{recorded} generated files in {out_dir} are up to date"))
            sys.exit(EXIT_OK)
    # imported after the recorded check above, which needs neither the model nor the emitters
    from compiler.build import OutputError, render_outputs, render_pdfs
    from compiler.diagnostics import Severity, render_short
    from compiler.writer import WriteError, check_out_dir, stale_outputs, write_outputs

    comp = load_project(paths, as_printed)
    try:
        check_out_dir(out_dir, comp.game_dirs)
    except WriteError as exc:
        raise usage_error(str(exc)) from exc
    failing = (Severity.ERROR, Severity.WARNING) if strict else (Severity.ERROR,)
    errors = [d for d in comp.diagnostics if d.severity in failing]
    if errors:
        echo_lines((render_short(d) for d in errors), err=True)
        found = Counter(d.severity for d in errors)
        counted = [f"{found[s]} {s.value}(s)" for s in failing if found[s]]
        why = " and ".join(counted) + (" (--strict fails on warnings)" if found[Severity.WARNING] else "")
        click.echo(f"build failed: {why}; nothing was written (run `chartc check` for details)", err=True)
        sys.exit(EXIT_FINDINGS)
    try:
        outputs: dict[str, str | bytes] = dict(render_outputs(comp.project, paper, large_print))
        if pdf:
            outputs.update(render_pdfs({rel: text for rel, text in outputs.items() if isinstance(text, str)}, jobs))
            outputs = dict(sorted(outputs.items()))
    except OutputError as exc:
        click.echo(printable(f"build failed: {exc}; nothing was written"), err=True)
        sys.exit(EXIT_FINDINGS)
    game_ids = sorted(comp.project.games)
    if whole_tree(paths):  # a whole charts tree: outputs of games whose charts are gone are orphans
        from compiler.writer import orphan_games

        game_ids = sorted(game_ids + orphan_games(out_dir, game_ids))
    if check_only:
        stale = _on_disk(lambda: stale_outputs(out_dir, outputs, game_ids), out_dir, "build --check failed")
        if stale.clean:
            _record(comp.project.games, comp.sources, options, out_dir, outputs)
            click.echo(printable(f"{len(outputs)} generated files in {out_dir} are up to date"))
            sys.exit(EXIT_OK)
        echo_lines((printable(f"missing:  {out_dir / rel}") for rel in stale.missing), err=True)
        for rel in stale.changed:
            click.echo(printable(f"stale:    {out_dir / rel}"), err=True)
            click.echo(printable_lines(stale.diffs[rel]), err=True)
        echo_lines(
            (printable(f"orphaned: {out_dir / rel} (no chart source produces it)") for rel in stale.orphaned), err=True
        )
        fix = rebuild_command(paths, out_dir, paper, large_print, pdf, as_printed)
        click.echo(printable(f"generated files are out of date: run `{fix}`"), err=True)
        sys.exit(EXIT_FINDINGS)
    changed = _on_disk(lambda: write_outputs(out_dir, outputs, game_ids), out_dir, "build failed").changed
    _record(comp.project.games, comp.sources, options, out_dir, outputs)
    games = f"{len(game_ids)} game{'s' if len(game_ids) != 1 else ''}"
    files = f"{len(changed)} file{'s' if len(changed) != 1 else ''}"
    click.echo(printable(f"built {games} into {out_dir}: {files} changed"))


def _recorded_up_to_date(paths: tuple[Path, ...], out_dir: Path, options: dict[str, object]) -> int | None:
    """`build --check` without compiling: the number of outputs when the charts, chartc and the
    options are those of the build recorded for `out_dir` and every output is on disk as that build
    wrote it (`compiler.build_record`); None when the full check must run (it reports why)."""
    from compiler import build_record
    from compiler.project import PathError, find_game_dirs, read_sources
    from compiler.writer import WriteError, check_out_dir, orphan_games
    from dsl.parser_cache import default_cache_dir

    try:
        game_dirs = find_game_dirs(list(paths) or [Path("charts")])
        check_out_dir(out_dir, game_dirs)
    except (PathError, WriteError):
        return None
    sources = read_sources(game_dirs)
    if sources is None:
        return None
    game_ids = sorted(game_dirs)
    key = build_record.inputs_key(game_ids, sources, options)
    if options["whole_tree"]:
        game_ids = sorted(game_ids + orphan_games(out_dir, game_ids))
    return build_record.up_to_date(default_cache_dir(), out_dir, key, game_ids)


def _record(
    games: Mapping[str, object],
    sources: Mapping[str, str],
    options: dict[str, object],
    out_dir: Path,
    outputs: Mapping[str, str | bytes],
) -> None:
    """Remember that `out_dir` now holds `outputs` for these inputs (see `_recorded_up_to_date`)."""
    from compiler import build_record
    from dsl.parser_cache import default_cache_dir

    key = build_record.inputs_key(sorted(games), sources, options)
    build_record.save(default_cache_dir(), out_dir, key, outputs)


def _on_disk(step: Callable[[], _R], out_dir: Path, failed: str) -> _R:
    """Run a step of the writer (a build or `--check`): print what recovering an interrupted build
    did, or the writer's refusal (exit 1)."""
    from compiler.writer import WriteError

    try:
        result = step()
    except WriteError as exc:
        click.echo(printable(f"{failed}: {exc}"), err=True)
        sys.exit(EXIT_FINDINGS)
    echo_lines((printable(line) for line in result.recovery.lines(out_dir)), err=True)
    return result
