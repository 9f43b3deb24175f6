"""`chartc import` (a spreadsheet or pasted table to a draft `.chart`) and `chartc export` (a
chart's table as CSV)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from compiler.cli.common import EXIT_FINDINGS, charts_option, find_chart, usage_error
from compiler.diagnostics.textsafe import printable


def _formatted(text: str) -> str:
    """The draft in chartc fmt's layout when it parses (a draft with corrupt cells does not)."""
    from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text

    try:
        return format_text(text)
    except (FormatSyntaxError, UnsafeFormat):
        return text


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), help="Write the draft here, not to stdout.")
@click.option("--name", help="The chart's name (default: from the file name).")
@click.option("--title", help="The chart's title (default: from the file name).")
def import_command(file: Path, out: Path | None, name: str | None, title: str | None) -> None:
    """Draft a chart from FILE: a .csv, .tsv, .xlsx or .ods table (first sheet), or a Markdown or
    pasted text table (.md, .txt).

    Guesses the dice from the ranges, keys from the columns before the range column, a grid (a
    CRT) when the heads across are odds or numbers. Every spreadsheet corruption (a date where a
    range was, a time where odds were, 0 where `00` was, a dash that is not a hyphen) is reported
    with its cell and left in the draft as found. Exit codes: 0 a clean draft, 1 cells to fix, 2
    a file that cannot be read as a table.
    """
    from compiler.build.reader import ReadError, read_bytes
    from compiler.tools.table_import import NAME, ImportError_, draft, read_table, report

    stem = re.sub(r"[^A-Za-z0-9_]+", "_", file.stem).strip("_") or "imported"
    chart_name = name or (stem if NAME.fullmatch(stem) else f"chart_{stem}")
    if not NAME.fullmatch(chart_name):
        raise usage_error(f"--name `{chart_name}` is not a name (letters, digits and `_`, not first a digit)")
    try:
        data = read_bytes(file, file.parent)
        result = draft(read_table(file, data), chart_name, title or file.stem.replace("_", " "))
    except ReadError as exc:
        raise usage_error(exc.describe(str(file))) from exc
    except ImportError_ as exc:
        raise usage_error(str(exc)) from exc
    text = result.text if result.findings else _formatted(result.text)
    if out is None:
        click.echo(printable(text, keep="\n"), nl=False)
    else:
        out.write_text(text, encoding="utf-8")
    for line in report(str(file), result.findings).splitlines():
        click.echo(printable(line), err=True)
    if result.findings:
        sys.exit(EXIT_FINDINGS)


@click.command("export")
@click.argument("address")
@click.option("--csv", "as_csv", is_flag=True, required=True, help="Write CSV (the one format so far).")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), help="Write the CSV here, not to stdout.")
@charts_option
def export_command(address: str, as_csv: bool, out: Path | None, charts_dir: Path) -> None:
    """Write the table of chart ADDRESS (GAME/CHART) as CSV: key values, the range as printed (or the
    value read by), then each column; `chartc import` reads a plain table back. An availability grid
    is written as printed (items down, months across), a DRM list as its DRMs; an odds rule and a
    chart printed elsewhere have no rows to write."""
    from compiler.tools.table_export import export_csv, export_reason

    _, chart = find_chart(address, charts_dir)
    reason = export_reason(chart)
    if reason is not None:
        raise usage_error(f"`{address}` cannot be exported: {reason}")
    text = export_csv(chart)
    if out is None:
        for line in text.splitlines():
            click.echo(printable(line))
    else:
        out.write_text(text, encoding="utf-8")
