"""Size limits (C415): a chart too large to check and tabulate exactly is refused, so checking
time grows linearly with the number of charts. Messages never print numbers longer than 12 digits."""

from __future__ import annotations

from collections.abc import Callable

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.messages import number, signed

# The largest printed charts known have ~100 rows and ~50 key values.
MAX_ROWS = 1000
MAX_KEY_COMBINATIONS = 256
MAX_DRMS = 64
MAX_DRM_SPAN = 64
# The chance tables a build writes grow with key combinations x DRM totals x rows; beyond this many
# cells a single chart's JSON would run to megabytes and take minutes.
MAX_CHANCES = 100_000


def check_limits(chart: model.Chart, sink: Sink) -> bool:
    """Report (C415) a chart too large to check and tabulate exactly; True when it is not."""
    keys, rows, drms = chart.keys, chart.rows, chart.drms
    combos = 1
    for k in keys:
        combos *= max(1, len(k.enum.members))
    low, high = model.drm_span(drms, chart.clamp)
    totals = high - low + 1
    problems: list[tuple[bool, Callable[[], str]]] = [
        (len(rows) > MAX_ROWS, lambda: f"{len(rows)} rows (at most {MAX_ROWS})"),
        (combos > MAX_KEY_COMBINATIONS, lambda: f"{combos} key combinations (at most {MAX_KEY_COMBINATIONS})"),
        (len(drms) > MAX_DRMS, lambda: f"{len(drms)} DRMs (at most {MAX_DRMS})"),
        (
            high - low > MAX_DRM_SPAN,
            lambda: f"DRMs spanning {signed(low)} to {signed(high)} (at most {MAX_DRM_SPAN} apart)",
        ),
        (
            combos * totals * max(1, len(rows)) > MAX_CHANCES,
            lambda: (
                f"{combos} key combinations x {number(totals)} DRM totals x {len(rows)} rows: more chances to "
                f"compute than {MAX_CHANCES}"
            ),
        ),
    ]
    found = [text() for bad, text in problems if bad]
    for text in found:
        sink.emit(
            codes.CHART_TOO_LARGE,
            f"chart `{chart.address}` is too large to check: {text}",
            chart.title_span or chart.span,
            "split the chart, or check the numbers for a typo",
        )
    return not found
