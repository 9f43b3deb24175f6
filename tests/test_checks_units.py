"""Unit tests of the checks on hand-built models: no parsing, one check at a time."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from compiler import model
from compiler.checks.limits import check_limits
from compiler.checks.periods import check_periods
from compiler.diagnostics import Sink
from compiler.model.calendar import Month
from dsl.ast import Span
from tests.conftest import compile_text

SPAN = Span("t.chart", 1, 1, 1, 10)


CHART = model.Chart(
    game="t",
    chart_id="D1",
    slug=None,
    title="D",
    rule=None,
    kind=model.ChartKind.ROLL,
    dice=None,
    value_key=None,
    keys=(),
    columns=(),
    drms=(),
    clamp=None,
    footnotes=(),
    notes=(),
    partial=None,
    rows=(),
    grid=None,
    source_file="t.chart",
    span=SPAN,
)


def _month(text: str) -> Month:
    month = Month.parse(text)
    assert month is not None
    return month


def test_a_drm_span_beyond_4300_digits_gives_a_short_c415() -> None:
    """Issue 11: a 4,300-digit DRM needed a 4,301-digit number in its C415 message (Python
    refuses to print it). The parser now bounds literals; the check must not rely on that."""
    big = int("9" * 4300)
    drms = (model.Drm("a", "a", big, None, None, SPAN), model.Drm("b", "b", -big, None, None, SPAN))
    sink = Sink()
    assert check_limits(replace(CHART, drms=drms), sink) is False
    messages = [d.message for d in sink.items]
    assert (
        "chart `D1` is too large to check: DRMs spanning less than -10^12 to more than 10^12 (at most 64 apart)"
        in messages
    )
    assert all(len(m) < 200 for m in messages)


def test_period_holes_are_counted_not_listed() -> None:
    """Periods 0001-01 and 9999-12 leave a hole of 119,986 months: reported as a span."""
    periods = (
        model.Period("first", "First", _month("0001-01"), _month("0001-01"), SPAN),
        model.Period("last", "Last", _month("9999-12"), _month("9999-12"), SPAN),
    )
    game = model.Game("t", "T", None, None, periods, {}, {})
    sink = Sink()
    check_periods(game, sink)
    assert [d.message for d in sink.items] == ["no period covers 0001-02 to 9999-11, between `first` and `last`"]


def test_months_compare_by_calendar_order() -> None:
    assert _month("0999-12") < _month("1944-07") < _month("1944-10")
    assert _month("1944-12").next() == "1945-01" and _month("1945-01").previous() == "1944-12"
    assert _month("1944-07") == "1944-07" and Month.parse("1944-13") is None


def test_a_short_row_of_a_partial_availability_grid_is_a_c308(tmp_path: Path) -> None:
    """C308 for availability grids is a check now (it was emitted by the resolver)."""
    text = (
        'game t { title "T" calendar 1944-07 to 1944-08 }\nenum side { piston jet }\n'
        'chart [R2] "Available" { roll 1d6 partial "the August column is torn" '
        "availability side by month [1944-07, 1944-08] { piston: ✓ | 1-3  jet: - } }\n"
    )
    comp = compile_text(tmp_path, text)
    gap, short = comp.diagnostics
    assert gap.message == "partial chart `R2`: rolls 1-6 select no row for side `jet`, month `1944-08`"
    assert short.code == "C308" and (short.span.line, short.span.col) == (3, 136)
    assert short.message == "partial chart `R2`: row `jet` gives 1 of 2 cells; 1944-08 missing"
    assert short.help == "declared partial: the August column is torn"
