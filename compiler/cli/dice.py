"""`chartc dice EXPR [EXPR]`: a roll written as in a chart, its exact distribution for the terminal."""

from __future__ import annotations

import json

import click

from compiler.cli.common import JSON_FORMATS, echo_lines, format_option, usage_error
from compiler.query.dice import DiceProblem, dice_json, dice_lines, distribution


@click.command("dice")
@click.argument("expressions", metavar="EXPR [EXPR]", nargs=-1, required=True)
@format_option(JSON_FORMATS, "human: a table and bar plot for the terminal; json: exact fractions for tools.")
def dice_command(expressions: tuple[str, ...], fmt: str) -> None:
    """Print the exact distribution of a roll written as after `roll` in a chart: each result's
    chance, the chance of at least and at most it, and a bar plot; a second EXPR is shown side by
    side.

    \b
    Examples:
      chartc dice 2d6
      chartc dice "highest 3 of 4d6" "exploding 3d6 depth 2"
      chartc dice "1d6 then minus 3 then minimum 0" --format json
    Any dice form of the chart language: NdS, d66, percentile, lower/higher of NdS, highest/lowest
    K of NdS (drop lowest/highest K of NdS), NdS versus MdT, exploding NdS depth D, `zero reads 0`
    after dice with a d10, and the roll's steps after the dice (`then minus N`, `then plus N`,
    `then times N`, `then doubled`, `then halved round down|up`, `then minimum N`, `then maximum
    N`; `NdS minus N min M` is the older spelling). A roll the language refuses (C405) is refused.
    """
    if len(expressions) > 2:
        raise usage_error(f"give one or two expressions, not {len(expressions)}")
    try:
        found = [distribution(e) for e in expressions]
    except DiceProblem as problem:
        raise usage_error(str(problem)) from None
    if fmt == "json":
        click.echo(json.dumps(dice_json(found), indent=2, ensure_ascii=False))
    else:
        echo_lines(dice_lines(found))
