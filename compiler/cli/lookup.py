"""`chartc lookup`: the row a natural roll plus DRM selects, or the CRT column for given forces."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from compiler import model
    from compiler.query.lookup import LookupResult, OddsColumnAnswer


@click.command("lookup")
@click.argument("address")
@click.argument("roll", required=False)
@key_option
@drm_option
@attack_option
@defense_option
@shift_option
@click.option("--json", "as_json", is_flag=True, help="Print the selected row as JSON.")
@as_printed_option
@charts_option
def lookup_command(
    address: str,
    roll: str | None,
    keys: tuple[str, ...],
    drm: int,
    attack: int | None,
    defense: int | None,
    shift: int,
    as_json: bool,
    as_printed: bool,
    charts_dir: Path,
) -> None:
    """Print the row ROLL (+ --drm) selects on chart ADDRESS (GAME/CHART, e.g. ia2/R4).

    ROLL is the natural roll as printed on the dice (0 on a d10 is 10, 00 on a percentile roll is
    100), or the value of a value-keyed chart; leave it out for charts read by keys only.
    Exits 1 when no row is selected (a gap, or a modified roll off the table).
    """
    from compiler.query.lookup import OddsColumnAnswer, answer
    from compiler.query.reports import lookup_json, lookup_lines, odds_column_json, odds_column_lines

    forces = forces_from(attack, defense, shift)

    def question(game: model.Game, chart: model.Chart) -> LookupResult | OddsColumnAnswer:
        return answer(game, chart, roll, parse_keys(keys), drm, forces)

    game, _, result = ask(address, charts_dir, question, as_printed)
    if isinstance(result, OddsColumnAnswer):
        if as_json:
            click.echo(odds_column_json(game, result))
        else:
            echo_lines(odds_column_lines(game, result))
    elif as_json:
        click.echo(lookup_json(game, result))
    else:
        echo_lines(lookup_lines(game, result))
