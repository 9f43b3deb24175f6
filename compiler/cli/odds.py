"""`chartc odds`: the exact chance of each row of a chart read by dice, at one DRM."""

from __future__ import annotations

from pathlib import Path

import click

from compiler.cli.common import (
    as_printed_option,
    ask,
    attack_option,
    charts_option,
    defense_option,
    drm_option,
    echo_lines,
    forces_from,
    key_option,
    parse_keys,
    shift_option,
)


@click.command("odds")
@click.argument("address")
@key_option
@drm_option
@attack_option
@defense_option
@shift_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "json"]),
    default="human",
    show_default=True,
    help="human: a table for the terminal; json: exact fractions for tools.",
)
@as_printed_option
@charts_option
def odds_command(
    address: str,
    keys: tuple[str, ...],
    drm: int,
    attack: int | None,
    defense: int | None,
    shift: int,
    fmt: str,
    as_printed: bool,
    charts_dir: Path,
) -> None:
    """Print the exact chance of each row of chart ADDRESS (GAME/CHART, e.g. ia2/R9) at --drm.

    Shows each row's chance as a fraction and a percentage, the chance that no row is selected
    (when there is one), the expected value of each integer column (hits, points) and the
    distribution of the modified roll. (The command keeps its name; in chartc, *odds* otherwise
    means only a CRT's odds ratio.) On a CRT, --attack/--defense pick the odds column, moved by
    the CRT's column shifts and --shift, as for `chartc lookup`. A chart not read by dice or a wrong
    key is a usage error.
    """
    from compiler.query.reports import chance_json, chance_lines, chance_report

    forces = forces_from(attack, defense, shift)
    _, _, report = ask(
        address, charts_dir, lambda game, chart: chance_report(game, chart, parse_keys(keys), drm, forces), as_printed
    )
    if fmt == "json":
        click.echo(chance_json(report))
    else:
        echo_lines(chance_lines(report))
