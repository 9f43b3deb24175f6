"""What a DRM means on a roll read digit by digit (C413): d66 and percentile rolls need a `drm_meaning`
statement, since adding to a two-digit reading has no obvious meaning."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.dice import DiceForm
from dsl.ast import Span


def check_drm_meaning(chart: model.Chart, sink: Sink) -> None:
    """C413: DRMs on a d66 or percentile roll without a `drm_meaning` statement saying what they do."""
    dice = chart.dice
    if (
        not chart.drms
        or dice is None
        or dice.form not in (DiceForm.D66, DiceForm.PERCENTILE)
        or chart.drm_meaning is not None
    ):
        return
    first = chart.drms[0].span
    if not _inside(first, chart.span):  # a derived chart's DRMs are its base's, reported there
        return
    sink.emit(
        codes.DRM_ON_DIGIT_ROLL,
        f"a DRM on a {dice.form} roll has no obvious meaning in chart `{chart.address}`",
        first,
        'say what it does, e.g. `drm_meaning "the DRM is added to the two-digit result"`',
    )


def _inside(span: Span, outer: Span) -> bool:
    return span.file == outer.file and (outer.line, outer.col) <= (span.line, span.col) <= (
        outer.end_line,
        outer.end_col,
    )
