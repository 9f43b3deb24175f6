"""`chartc odds`: the exact chance of each row of a chart read by dice, at one DRM."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from compiler.cli.common import (
    JSON_FORMATS,
    as_printed_option,
    ask,
    attack_option,
    charts_option,
    defense_option,
    drm_option,
    echo_lines,
    forces_from,
    format_option,
    key_option,
    parse_keys,
    pause_cyclic_gc,
    read_drms_option,
    set_option,
    shift_option,
    when_option,
)

if TYPE_CHECKING:
    from compiler import model
    from compiler.query.odds import ChanceReport


@click.command("odds")
@click.argument("address")
@key_option
@when_option
@set_option
@read_drms_option
@drm_option
@attack_option
@defense_option
@shift_option
@format_option(JSON_FORMATS, "human: a table for the terminal; json: exact fractions for tools.")
@click.option(
    "--follow",
    is_flag=True,
    help="The exact chance of each final outcome of the chart's chained results (roll on another chart, roll "
    "again, a roll in a cell), followed to the end.",
)
@as_printed_option
@charts_option
def odds_command(
    address: str,
    keys: tuple[str, ...],
    when: tuple[str, ...],
    sets: tuple[str, ...],
    read_drms: bool,
    drm: int,
    attack: int | None,
    defense: int | None,
    shift: int,
    fmt: str,
    follow: bool,
    as_printed: bool,
    charts_dir: Path,
) -> None:
    """Print the exact chance of each row of chart ADDRESS (GAME/CHART, e.g. ia2/R9) at --drm.

    Shows each row's chance as a fraction and a percentage, the chance that no row is selected
    (when there is one), the expected value of each integer column (hits, points) and the
    distribution of the modified roll. (The command keeps its name; in chartc, *odds* otherwise
    means only a CRT's odds ratio.) With --when/--set the DRM is the chart's DRMs read in that
    context (with --read-drms and neither, every flag false), plus --drm. On a CRT,
    --attack/--defense pick the odds column, moved by the CRT's column shifts in that context and
    by --shift, as for `chartc lookup`. A chart not read by
    dice or a wrong key is a usage error. With --follow: the exact chance of each final outcome of
    the chain the chart starts (a loop with an exit is solved exactly; one without is an error).
    """
    pause_cyclic_gc()
    if follow:
        if forces_from(attack, defense, shift) is not None:
            raise click.UsageError("--attack/--defense/--shift do not apply with --follow")
        _follow(address, keys, when, sets, read_drms, drm, fmt, as_printed, charts_dir)
        return
    from compiler.engine.context import refuse_read_drms
    from compiler.query.odds import chance_json, chance_lines, chance_report

    forces = forces_from(attack, defense, shift)

    def question(game: model.Game, chart: model.Chart) -> ChanceReport:
        if read_drms:
            refuse_read_drms([chart])
        return chance_report(game, chart, parse_keys(keys), drm, when, sets, forces, read_drms)

    _, _, report = ask(address, charts_dir, question, as_printed)
    if fmt == "json":
        click.echo(chance_json(report))
    else:
        echo_lines(chance_lines(report))


def _follow(
    address: str,
    keys: tuple[str, ...],
    when: tuple[str, ...],
    sets: tuple[str, ...],
    read_drms: bool,
    drm: int,
    fmt: str,
    as_printed: bool,
    charts_dir: Path,
) -> None:
    """`odds --follow`: the exact chance of each final outcome of the chain."""
    from compiler.engine.context import refuse_read_drms
    from compiler.engine.follow import ChainOdds, chain_odds, reachable_charts
    from compiler.query.follow import chain_odds_json, chain_odds_lines

    def question(game: model.Game, chart: model.Chart) -> ChainOdds:
        if read_drms:
            refuse_read_drms(reachable_charts(game, chart))
        return chain_odds(game, chart, parse_keys(keys), drm, when, sets, read_drms)

    _, _, report = ask(address, charts_dir, question, as_printed)
    if fmt == "json":
        click.echo(chain_odds_json(report))
    else:
        echo_lines(chain_odds_lines(report))
