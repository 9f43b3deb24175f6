"""The overlays of a chart (`overlay ... when COND { rows }`, issue 32): rows of one overlay that
select the same roll (C345), an overlay range past every roll the chart can make (C346), and an
overlay whose condition no context makes true (C347). An overlay's rows are read before the chart's
own while it holds, so they may cover any part of the table; they need not fill it."""

from __future__ import annotations

from compiler import model
from compiler.checks.coverage import intersecting_pairs
from compiler.checks.findings import compress, ranged
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.chances import reachable_rolls, table_rolls
from compiler.engine.reach import can_hold_together


def check_overlays(chart: model.Chart, sink: Sink) -> None:
    """C345, C346 and C347 on each overlay of a chart that resolved whole."""
    if not chart.overlays or chart.broken:
        return
    bounds = _bounds(chart)
    for overlay in chart.overlays:
        _check_overlaps(chart, overlay, sink)
        if bounds is not None:
            _check_outside(chart, overlay, bounds, sink)
        if can_hold_together(chart, overlay.when, overlay.when) is False:
            sink.emit(
                codes.OVERLAY_NEVER,
                f"overlay `{overlay.name}` of chart `{chart.address}` is never read: no context makes its "
                "`when` condition true",
                overlay.when.span,
                "correct the condition; compare with values the variables can take",
            )


def _bounds(chart: model.Chart) -> tuple[int, int] | None:
    """The lowest and highest roll (or value) a row of the chart may hold: the table's rolls and
    every modified roll its DRMs reach (as C303 takes them), or the value key's domain."""
    match chart.kind:
        case model.ChartKind.ROLL if chart.dice is not None:
            rolls = reachable_rolls(chart) + table_rolls(chart)
            return min(rolls), max(rolls)
        case model.ChartKind.VALUE if chart.value_key is not None:
            domain = chart.value_key.domain
            if domain.low is None or domain.high is None:
                return None
            return domain.low, domain.high
        case _:
            return None


def _check_overlaps(chart: model.Chart, overlay: model.Overlay, sink: Sink) -> None:
    seen: set[tuple[int, int]] = set()
    for combo in chart.key_combinations():
        rows = [
            r
            for r in overlay.rows
            if r.range is not None and all(model.key_matches(k, c) for k, c in zip(r.keys, combo, strict=False))
        ]
        for a, b in intersecting_pairs(rows):  # an overlay's rows are never `natural` (C403)
            if (id(a), id(b)) in seen:
                continue
            seen.add((id(a), id(b)))
            common = ranged(a).intersect(ranged(b))
            assert common is not None
            both = [v for v in common if v is not None]
            sink.emit(
                codes.OVERLAY_OVERLAP,
                f"`{ranged(b).printed}` overlaps `{ranged(a).printed}` in overlay `{overlay.name}` of chart "
                f"`{chart.address}` (both select {compress(sorted(set(both)))}{'' if None not in common else ' on'})",
                ranged(b).span,
                "while the overlay holds each roll must select exactly one of its rows: shorten one of the ranges",
                (Label(ranged(a).span, "overlaps this row"),),
            )


def _check_outside(chart: model.Chart, overlay: model.Overlay, bounds: tuple[int, int], sink: Sink) -> None:
    low, high = bounds
    for row in overlay.rows:
        r = row.range
        if r is None:
            continue
        outside = [v for v in (r.low, r.high) if v is not None and not low <= v <= high]
        if outside:
            sink.emit(
                codes.OVERLAY_OUTSIDE,
                f"range `{r.printed}` of overlay `{overlay.name}` of chart `{chart.address}` reaches "
                f"{compress(outside)}, which the chart's {'dice, arithmetic and DRMs' if chart.dice else 'value'} "
                f"cannot make ({low} to {high})",
                r.span,
                "correct the printed range",
            )
