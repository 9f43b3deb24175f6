"""`chartc vectors`: test vectors of a game's roll charts and odds rules, as deterministic JSON."""

from __future__ import annotations

from pathlib import Path

import click

from compiler.cli.common import (
    charts_option,
    format_option,
    load_clean_game,
)
from compiler.cli.printing import printing_options
from compiler.errata.printing import Printing
from compiler.tools.vectors import vectors_text


@click.command("vectors")
@click.argument("game_id", metavar="GAME")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the vectors to this file instead of standard output.",
)
@format_option(("json",), "json: the one format so far (deterministic, one file per game).", default="json", alias=None)
@charts_option
@printing_options
def vectors_command(game_id: str, out: Path | None, fmt: str, charts_dir: Path, printing: Printing) -> None:
    """Write test vectors for GAME: for each roll chart, key combinations x DRM contexts x every
    natural roll -> the modified roll, the row selected and the exact chance of each row; for each
    odds rule, attack x defense x column shift -> the column read.

    \b
    Bounded and deterministic: each DRM context variable takes a flag's false and true, an enum's
    members, and for ints and months the values the chart's conditions name, one either side, and
    the ends of its range. Up to 48 key combination x context cases per chart are taken whole;
    beyond that 48 are sampled with a random generator seeded by GAME/CHART (the first case
    always kept), so the same charts always give the same file. Rows are indexes into the chart's
    `rows` in the game's JSON of the same printing (`printing`: `amended`, `as-printed` with
    --as-printed, `up-to-NAME` with --printing NAME); null means no row.
    """
    game = load_clean_game(game_id, charts_dir, printing)
    text = vectors_text(game)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8", newline="\n")
