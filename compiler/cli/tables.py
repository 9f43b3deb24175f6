"""`chartc import` (a spreadsheet or pasted table to a draft `.chart`) and `chartc export` (a
chart's table as CSV, or a whole game for Foundry VTT, Tabletop Simulator or VASSAL)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from compiler.build.reader import ReadError, read_bytes
from compiler.cli.common import (
    EXIT_FINDINGS,
    charts_option,
    find_chart,
    format_option,
    load_clean_game,
    usage_error,
)
from compiler.cli.printing import printing_options
from compiler.diagnostics.textsafe import printable
from compiler.errata.printing import Printing
from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text
from compiler.tools.platforms import PackError, Platform, export_game, find_foundry_cli, foundry_cli_version
from compiler.tools.table_export import export_csv, export_reason
from compiler.tools.table_import import NAME, ImportError_, draft, read_sheet, report


def _formatted(text: str) -> str:
    """The draft in chartc fmt's layout when it parses (a draft with corrupt cells does not)."""
    try:
        return format_text(text)
    except (FormatSyntaxError, UnsafeFormat):
        return text


@click.command("import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write the draft to this file instead of standard output.",
)
@click.option("--name", help="The chart's name (default: from the file name).")
@click.option("--title", help="The chart's title (default: from the file name).")
@click.option(
    "--encoding",
    help="The text file's encoding (`cp1252`, `latin-1`, `utf-16`) [default: UTF-8, else cp1252].",
)
def import_command(file: Path, out: Path | None, name: str | None, title: str | None, encoding: str | None) -> None:
    """Draft a chart from FILE: a .csv, .tsv, .xlsx or .ods table (first sheet), or a Markdown or
    pasted text table (.md, .txt).

    Reads a CSV separated by commas, semicolons, tabs, bars or spaces, in UTF-8 or cp1252 (what
    Excel saves outside the US; --encoding names another), with or without a header row. Row
    labels may be printed as a rulebook prints them (`3-6`, `11+`, `1 or less`, `01-05`, `00`).
    Guesses the dice from the ranges, keys from the columns before the range column, a grid (a
    CRT: an odds rule and its result codes) when the heads across are odds or numbers. Every
    spreadsheet corruption (a date where a range or a value was, a time where odds were, 0 where
    `00` was, a dash that is not a hyphen) and every range cell that is no range is reported with
    its cell and written into the draft as `??CELL`. Exit codes: 0 a clean draft, 1 cells to fix, 2 a file
    that cannot be read as a table (or past the limits: 16 MiB, 1,001 rows, 64 columns, 4,096
    characters a cell).
    """
    stem = re.sub(r"[^A-Za-z0-9_]+", "_", file.stem).strip("_") or "imported"
    chart_name = name or (stem if NAME.fullmatch(stem) else f"chart_{stem}")
    if not NAME.fullmatch(chart_name):
        raise usage_error(f"--name `{chart_name}` is not a name (letters, digits and `_`, not first a digit)")
    try:
        data = read_bytes(file, file.parent)
        sheet = read_sheet(file, data, encoding)
        result = draft(sheet.rows, chart_name, title or file.stem.replace("_", " "))
    except ReadError as exc:
        raise usage_error(exc.describe(str(file))) from exc
    except ImportError_ as exc:
        raise usage_error(str(exc)) from exc
    text = result.text if result.findings else _formatted(result.text)
    if out is None:
        click.echo(printable(text, keep="\n"), nl=False)
    else:
        out.write_text(text, encoding="utf-8")
    for note in sheet.notes:
        click.echo(printable(f"{file}: note: {note}"), err=True)
    for line in report(str(file), result.findings).splitlines():
        click.echo(printable(line), err=True)
    if result.findings:
        sys.exit(EXIT_FINDINGS)


@click.command("export")
@click.argument("address")
@format_option(("csv",), "csv: a chart's table (`chartc import` reads it back).", default="csv", alias="csv")
@click.option(
    "--to",
    "platform",
    type=click.Choice(["foundry", "tts", "vassal"]),
    help="Export the whole game GAME for a platform: a Foundry VTT module of RollTables, a Lua 5.2 "
    "module for Tabletop Simulator, a VASSAL module extension (docs/platforms.md).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="CSV: write to this file instead of standard output. --to: the folder to write into "
    "[default: exports/GAME/PLATFORM].",
)
@click.option(
    "--foundry-cli",
    type=click.Path(path_type=Path, file_okay=False),
    help="With --to foundry: the folder of Foundry's CLI (@foundryvtt/foundryvtt-cli 3.x, from npm) or of "
    "the node_modules holding it [default: $CHARTC_FOUNDRY_CLI, node_modules here or above, npm's global folder].",
)
@charts_option
@printing_options
def export_command(
    address: str, fmt: str, platform: str | None, out: Path | None, foundry_cli: Path | None, charts_dir: Path,
    printing: Printing,
) -> None:
    """Write the table of chart ADDRESS (GAME/CHART) as CSV: key values, the range as printed (or the
    value read by), then each column; `chartc import` reads a plain table back. An availability grid
    is written as printed (items down, months across), a DRM list as its DRMs; an odds rule and a
    chart printed elsewhere have no rows to write. With --to, write the whole game ADDRESS (GAME) for
    Foundry VTT, Tabletop Simulator or VASSAL. --as-printed and --printing NAME export the charts as
    that printing reads them (the CSV of a chart as the book prints it; a platform export of one
    round of errata).

    \b
    --to foundry  a Foundry VTT module folder: module.json, the compendium's JSON sources
                  (src/charts/, one RollTable per chart and key value) and, when Node.js and
                  Foundry's CLI are found, the packed compendium (packs/charts/)
    --to tts      GAME.lua: each chart's lookup, DRMs from a context, chances, chained results
    --to vassal   GAME.vmdx: the aid's pages as chart windows and a dice button per chart
    """
    if platform is not None:
        _export_platform(address, platform, out, foundry_cli, charts_dir, printing)
        return
    if "/" not in address:
        raise usage_error(f"`{address}` names no chart: give GAME/CHART for a CSV, or --to PLATFORM for a whole game")
    if out is not None and out.is_dir():
        raise usage_error(f"--out {out} is a folder: a CSV goes to a file")

    _, chart = find_chart(address, charts_dir, printing)
    reason = export_reason(chart)
    if reason is not None:
        raise usage_error(f"`{address}` cannot be exported: {reason}")
    text = export_csv(chart)
    if out is None:
        for line in text.splitlines():
            click.echo(printable(line))
    else:
        out.write_text(text, encoding="utf-8")


def _export_platform(
    game_id: str, platform: str, out: Path | None, foundry_cli: Path | None, charts_dir: Path, printing: Printing
) -> None:
    """`export GAME --to PLATFORM`: the game checked, then written by compiler/tools/platforms.py."""
    if "/" in game_id:
        raise usage_error(f"--to exports a whole game: give GAME, not `{game_id}`")
    game = load_clean_game(game_id, charts_dir, printing)
    target = out if out is not None else Path("exports") / game_id / platform
    if foundry_cli is not None:
        if platform != "foundry":
            raise usage_error("--foundry-cli goes with --to foundry")
        if find_foundry_cli(foundry_cli) is None:
            raise usage_error(f"--foundry-cli {foundry_cli}: no @foundryvtt/foundryvtt-cli package there")
    try:
        done = export_game(game, Platform(platform), target, foundry_cli)
    except PackError as exc:
        for line in str(exc).splitlines()[-5:]:
            click.echo(printable(f"error: Foundry's CLI failed: {line}"), err=True)
        sys.exit(EXIT_FINDINGS)
    except OSError as exc:
        raise usage_error(f"cannot write {target}: {exc.strerror or exc}") from exc
    click.echo(printable(f"exported {game_id} for {platform}: {done.summary}"))
    if done.packed is not None:
        entry = find_foundry_cli(foundry_cli)
        version = foundry_cli_version(entry) if entry is not None else "?"
        click.echo(printable(f"packed the compendium into {done.packed} with Foundry's CLI {version}"))
    if done.note is not None:
        click.echo(printable(done.note))
