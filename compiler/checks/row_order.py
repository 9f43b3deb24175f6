"""Rows written out of the order of their ranges (C311)."""

from __future__ import annotations

from itertools import pairwise

from compiler import model
from compiler.checks.findings import ranged
from compiler.diagnostics import Label, Sink, codes


def check_row_order(chart: model.Chart, sink: Sink) -> None:
    """C311: rows for the same keys written neither lowest range first nor highest first (a printed
    table runs one way; a row out of place is most often a transcription slip). The grid and
    availability forms print their own layout, and rows an errata added come last."""
    if chart.grid is not None or chart.availability is not None or chart.kind not in _ORDERED_KINDS:
        return
    reported: set[int] = set()
    for combo in chart.key_combinations():
        rows = [r for r in chart.rows_for(combo) if r.range is not None and not r.added and not r.natural]
        lows = [_order_key(ranged(r)) for r in rows]
        pairs = list(pairwise(lows))
        if all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs):
            continue
        ascending = sum(a < b for a, b in pairs) >= sum(a > b for a, b in pairs)
        for i, (a, b) in enumerate(pairs):
            if (a > b if ascending else a < b) and id(rows[i + 1]) not in reported:
                reported.add(id(rows[i + 1]))
                row, before = rows[i + 1], rows[i]
                assert row.range is not None and before.range is not None
                sink.emit(
                    codes.ROWS_OUT_OF_ORDER,
                    f"row `{row.range.printed}` of chart `{chart.address}` comes after row `{before.range.printed}`: "
                    f"the rows run {'lowest' if ascending else 'highest'} first elsewhere",
                    row.range.span,
                    f"move row `{row.range.printed}` before row "
                    f"`{before.range.printed}`, as the print orders the table",
                    (Label(before.range.span, "the row before it"),),
                )
                break


_ORDERED_KINDS = frozenset({model.ChartKind.ROLL, model.ChartKind.VALUE})


def _order_key(r: model.DieRange) -> int:
    """Where a range sits in its table: its low end (an open low end first)."""
    return r.low if r.low is not None else -(10**9)
