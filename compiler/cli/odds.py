"""`chartc odds`: the exact chance of each row of a chart read by dice, at one DRM."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from compiler.cli.common import JSON_FORMATS, ChartQuestion, chart_question_options, echo_lines, format_option
from compiler.engine.follow import ChainOdds, chain_odds, reachable_charts
from compiler.query.follow import chain_odds_json, chain_odds_lines
from compiler.query.odds import chance_json, chance_lines, chance_report

if TYPE_CHECKING:
    from compiler import model
    from compiler.query.odds import ChanceReport


@click.command("odds")
@click.argument("address")
@chart_question_options
@format_option(JSON_FORMATS, "human: a table for the terminal; json: exact fractions for tools.")
@click.option(
    "--follow",
    is_flag=True,
    help="The exact chance of each final outcome of the chart's chained results (roll on another chart, roll "
    "again, a roll in a cell), followed to the end.",
)
def odds_command(
    address: str,
    question: ChartQuestion,
    fmt: str,
    follow: bool,
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
    if follow:
        question.refuse_forces("with --follow")
        _follow(address, question, fmt)
        return

    forces = question.forces()

    def asked(game: model.Game, chart: model.Chart) -> ChanceReport:
        question.check_read_drms([chart])
        return chance_report(
            game, chart, question.key_values(), question.drm, question.when, question.sets, forces, question.read_drms
        )

    _, report = question.ask(address, asked)
    if fmt == "json":
        click.echo(chance_json(report))
    else:
        echo_lines(chance_lines(report))


def _follow(
    address: str,
    question: ChartQuestion,
    fmt: str,
) -> None:
    """`odds --follow`: the exact chance of each final outcome of the chain."""
    def asked(game: model.Game, chart: model.Chart) -> ChainOdds:
        question.check_read_drms(reachable_charts(game, chart))
        return chain_odds(
            game, chart, question.key_values(), question.drm, question.when, question.sets, question.read_drms
        )

    _, report = question.ask(address, asked)
    if fmt == "json":
        click.echo(chain_odds_json(report))
    else:
        echo_lines(chain_odds_lines(report))
