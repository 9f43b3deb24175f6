"""`chartc analyze`: a CRT's design figures — per column and DRM, the chance of each result and
the expected step losses."""

from __future__ import annotations

from pathlib import Path

import click

from compiler.cli.common import as_printed_option, ask, charts_option, echo_lines, whole_number


@click.command("analyze")
@click.argument("address")
@click.option(
    "--drm",
    "drm",
    default=None,
    callback=whole_number,
    metavar="N",
    help="Analyse only this DRM total (default: every total the chart's DRMs reach, and 0).",
)
@click.option("--json", "as_json", is_flag=True, help="Exact fractions as JSON, for tools.")
@as_printed_option
@charts_option
def analyze_command(address: str, drm: int | None, as_json: bool, as_printed: bool, charts_dir: Path) -> None:
    """Print the design analysis of CRT ADDRESS (GAME/CHART, e.g. crtlab/CRT).

    For every column and DRM total: the exact chance of each result, in the declared result order
    (worst for the attacker first), and the expected value of each integer field of the results
    (step losses). A chart that is not a CRT is a usage error.
    """
    from compiler.query.analyze import analysis_json, analysis_lines, crt_analysis

    drms = None if drm is None else (drm,)
    _, _, result = ask(address, charts_dir, lambda game, chart: crt_analysis(game, chart, drms), as_printed)
    if as_json:
        click.echo(analysis_json(result))
    else:
        echo_lines(analysis_lines(result))
