"""`chartc diff`: the changes between two chart trees (paths or git revisions), per chart and cell."""

from __future__ import annotations

import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.cli.common import (
    EXIT_FINDINGS,
    JSON_FORMATS,
    default_charts_dir,
    echo_lines,
    format_option,
    load_project,
    usage_error,
)
from compiler.cli.git_tree import GitTreeError, export_charts
from compiler.cli.printing import pick_printing
from compiler.diagnostics.textsafe import printable
from compiler.errata.printing import AsCorrected, Printing, describe
from compiler.tools.diff import changes_json, changes_lines, diff_projects, errata_sheet_html

if TYPE_CHECKING:
    from contextlib import ExitStack


def chart_tree(arg: str, stack: ExitStack) -> tuple[Path, str]:
    """A chart tree to diff and its label: an existing path, or a git revision of this repository
    (its charts folder, as configured for every command, exported into a temporary folder that
    lives as long as `stack`)."""
    path = Path(arg)
    if path.exists():
        return path, arg
    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="chartc-diff-"))
    try:
        return export_charts(arg, Path(folder), default_charts_dir()), f"{arg} (git)"
    except GitTreeError as exc:
        raise usage_error(str(exc)) from exc


def printing_label(label: str, printing: Printing) -> str:
    """A side's label with the printing it was read in, unless every errata applied: `charts/ia2
    (up to errata `ia2_1943_44`)`."""
    return label if isinstance(printing, AsCorrected) else f"{label} ({describe(printing)})"


@click.command("diff")
@click.argument("old")
@click.argument("new", required=False)
@format_option(JSON_FORMATS, "human: one line per change, in the field's words; json: the changes, for tools.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(path_type=Path, dir_okay=False, writable=True),
    help="Also write a printable errata sheet to this file.",
)
@click.option(
    "--old-as-printed",
    "--as-printed",
    "old_as_printed",
    is_flag=True,
    help="Read OLD without its errata (NEW keeps them): `diff charts charts --old-as-printed` lists what the "
    "errata change. Here --as-printed is the same flag: it reads OLD alone as printed.",
)
@click.option(
    "--old-printing",
    metavar="ERRATA",
    help="Read OLD as it stood after errata ERRATA (its errata in order up to and including it).",
)
@click.option("--new-as-printed", is_flag=True, help="Read NEW without its errata.")
@click.option(
    "--new-printing",
    metavar="ERRATA",
    help="Read NEW as it stood after errata ERRATA: `diff charts/ia2 --old-as-printed --new-printing "
    "ia2_1943_44` lists that round of errata only.",
)
@click.option("--exit-code", is_flag=True, help="Exit 1 when there are changes, 0 when there are none (as git diff).")
def diff_command(
    old: str,
    new: str | None,
    fmt: str,
    html_file: Path | None,
    old_as_printed: bool,
    old_printing: str | None = None,
    new_as_printed: bool = False,
    new_printing: str | None = None,
    exit_code: bool = False,
) -> None:
    """List the changes from chart tree OLD to NEW, per chart and cell, in the field's words.

    OLD and NEW are paths (a charts folder or a game folder) or git revisions of this repository
    (`HEAD~1`, a tag). Reordered rows are no change; a moved range or renamed key is one change.
    `chartc diff charts charts --old-as-printed` lists what the errata change. Each side may be read
    in a printing of its own (--old-printing, --new-as-printed, --new-printing); without NEW, NEW is
    OLD in another printing: `chartc diff charts/ia2 --old-printing ia2_1943_44` lists the errata
    that come after ia2_1943_44. With --exit-code the exit code says whether anything changed (1) or
    not (0).
    """
    old_reads = pick_printing(old_as_printed, old_printing, "--old-as-printed", "--old-printing")
    new_reads = pick_printing(new_as_printed, new_printing, "--new-as-printed", "--new-printing")
    if new is None and old_reads == new_reads:
        raise usage_error("give NEW, or read OLD in two printings (--old-as-printed, --old-printing, "
                          "--new-as-printed, --new-printing)")
    with ExitStack() as stack:
        old_path, old_label = chart_tree(old, stack)
        new_path, new_label = chart_tree(new, stack) if new is not None else (old_path, old_label)
        a = load_project((old_path,), old_reads)
        b = load_project((new_path,), new_reads)
    old_label, new_label = printing_label(old_label, old_reads), printing_label(new_label, new_reads)
    for comp, label in ((a, old_label), (b, new_label)):
        errors = [d for d in comp.diagnostics if d.severity.value == "error"]
        if errors:
            click.echo(
                printable(f"warning: {label} has {len(errors)} error(s); its charts may be incomplete"), err=True
            )
    changes = diff_projects(a.project, b.project)
    if fmt == "json":
        click.echo(changes_json(changes, old_label, new_label))
    else:
        echo_lines(changes_lines(changes))
        click.echo(f"{len(changes)} change{'s' if len(changes) != 1 else ''}", err=True)
    if html_file is not None:
        titles = {
            **{g.id: g.title for g in a.project.games.values()},
            **{g.id: g.title for g in b.project.games.values()},
        }
        try:
            html_file.write_text(errata_sheet_html(changes, titles, old_label, new_label), encoding="utf-8")
        except OSError as exc:
            raise usage_error(f"cannot write the errata sheet to {html_file}: {exc.strerror or exc}") from exc
    if exit_code and changes:
        sys.exit(EXIT_FINDINGS)
