"""`chartc analyze`: a CRT's design figures — per column and DRM, the chance of each result and
the expected step losses."""

from __future__ import annotations

from pathlib import Path

import click

from compiler.cli.common import (
    JSON_FORMATS,
    ask,
    charts_option,
    echo_lines,
    format_option,
    summed_drms_or_none,
)
from compiler.cli.printing import printing_options
from compiler.errata.printing import Printing
from compiler.query.analyze import analysis_json, analysis_lines, crt_analysis


@click.command("analyze")
@click.argument("address")
@click.option(
    "--drm",
    "drm",
    multiple=True,
    callback=summed_drms_or_none,
    metavar="N",
    help="A die roll modifier: analyse only the modified rolls at this DRM (repeatable: the values add up; "
    "default: every total the chart's DRMs reach, and 0).",
)
@format_option(JSON_FORMATS, "human: a table per column; json: exact fractions, for tools.")
@printing_options
@charts_option
def analyze_command(address: str, drm: int | None, fmt: str, printing: Printing, charts_dir: Path) -> None:
    """Print the design analysis of CRT ADDRESS (GAME/CHART, e.g. crtlab/CRT).

    For every column and DRM total: the exact chance of each result, in the declared result order
    (worst for the attacker first), and the expected value of each integer field of the results
    (step losses). A chart that is not a CRT is a usage error.
    """
    drms = None if drm is None else (drm,)
    _, _, result = ask(address, charts_dir, lambda game, chart: crt_analysis(game, chart, drms), printing)
    if fmt == "json":
        click.echo(analysis_json(result))
    else:
        echo_lines(analysis_lines(result))
