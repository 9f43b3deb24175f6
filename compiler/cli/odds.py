"""`chartc odds`: the exact chance of each row of a chart read by dice, at one DRM."""

from __future__ import annotations

from pathlib import Path

import click

from compiler.cli.common import ask, echo_lines, parse_keys, whole_number
from compiler.query.reports import chance_json, chance_lines, chance_report


@click.command("odds")
@click.argument("address")
@click.option(
    "--key",
    "keys",
    multiple=True,
    metavar="NAME=VALUE",
    help="A key of the chart, by id or printed label (repeatable).",
)
@click.option(
    "--drm",
    default="0",
    callback=whole_number,
    metavar="N",
    show_default=True,
    help="Total die roll modifier added to the natural roll.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json"]),
    default="human",
    show_default=True,
    help="human: a table for the terminal; json: exact fractions for tools.",
)
@click.option("--as-printed", is_flag=True, help="Read the chart as printed, without errata.")
@click.option("--charts", "charts_dir", type=click.Path(path_type=Path), default=Path("charts"), show_default=True)
def odds_command(address: str, keys: tuple[str, ...], drm: int, fmt: str, as_printed: bool, charts_dir: Path) -> None:
    """Print the exact chance of each row of chart ADDRESS (GAME/CHART, e.g. ia2/R9) at --drm.

    Shows each row's chance as a fraction and a percentage, the chance that no row is selected
    (when there is one), the expected value of each integer column (hits, points) and the
    distribution of the modified roll. (The command keeps its name; in chartc, *odds* otherwise
    means only a CRT's odds ratio.) A chart not read by dice or a wrong key is a usage error.
    """
    _, _, report = ask(
        address, charts_dir, lambda game, chart: chance_report(game, chart, parse_keys(keys), drm), as_printed
    )
    if fmt == "json":
        click.echo(chance_json(report))
    else:
        echo_lines(chance_lines(report))
