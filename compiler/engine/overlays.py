"""A chart's overlays (issue 32): the chart as read while some of them hold.

An overlay is a band of rows printed over the table ("in bad weather, 2-4 is Aborted"): while its
condition holds, its rows are read before the chart's own, so the chart read is the chart with the
overlay's rows first (`model.Chart.with_overlays`). Like a DRM's, an overlay's condition applies
only when it is known to hold: a context that leaves its variable unknown reads the chart's own
rows. Every reader of a roll (lookup, chances, reach) reads that chart, so each answers as the
generated `lookup_<id>` does with the same context.
"""

from __future__ import annotations

from collections.abc import Mapping

from compiler import model
from compiler.engine import plain
from compiler.engine.drms import ContextValue, holds


def _variants(chart: model.Chart) -> dict[tuple[int, ...], model.Chart]:
    return {}


_made = plain.memo(_variants)


def with_active(chart: model.Chart, active: tuple[int, ...]) -> model.Chart:
    """The chart read while the overlays at positions `active` (ascending) hold, made once per
    chart and set of overlays, so what is computed per chart (its rows as the runtime reads them,
    its chances) is computed once."""
    if not active:
        return chart
    made = _made(chart)
    found = made.get(active)
    if found is None:
        found = made[active] = chart.with_overlays(tuple(chart.overlays[i] for i in active))
    return found


def active_in(chart: model.Chart, context: Mapping[str, ContextValue | None] | None) -> tuple[int, ...]:
    """The positions of the overlays whose condition holds in `context` (None: no context, none)."""
    if context is None:
        return ()
    return tuple(i for i, o in enumerate(chart.overlays) if holds(o.when, context) is True)


def chart_in(chart: model.Chart, context: Mapping[str, ContextValue | None] | None) -> model.Chart:
    """The chart as read in `context`: with the rows of every overlay that holds there first."""
    return with_active(chart, active_in(chart, context)) if chart.overlays else chart


def selected_from(chart: model.Chart, active: tuple[int, ...], row: model.Row) -> model.Overlay | None:
    """The overlay of `chart` (among those at `active`) whose row `row` is, or None: a row of its own."""
    return next((chart.overlays[i] for i in active if any(r is row for r in chart.overlays[i].rows)), None)


def each_overlay(chart: model.Chart) -> list[tuple[model.Overlay, model.Chart]]:
    """Each overlay with the chart read while it alone holds (its chances are the overlay's)."""
    return [(o, with_active(chart, (i,))) for i, o in enumerate(chart.overlays)]
