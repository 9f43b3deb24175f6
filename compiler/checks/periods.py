"""Periods against the calendar: each inside it (C409), together tiling it without overlaps or
holes (C411). Holes are counted in months, never listed, however long the calendar. A hole or overlap
the book prints is kept with `kept C411 at MONTHS because "why"` (`compiler.checks.kept`)."""

from __future__ import annotations

import itertools

from compiler import model
from compiler.checks.kept import Keeper, months_subject
from compiler.diagnostics import Label, Sink, codes
from compiler.model.calendar import Month, months_between, span_text


def check_periods(game: model.Game, sink: Sink, keeper: Keeper | None = None) -> None:
    """Periods must lie in the calendar (C409) and tile it without overlaps or holes (C411), unless
    `keeper` keeps the months as printed."""
    keeper = keeper or Keeper(game)
    if not game.periods:
        return
    ordered = sorted(game.periods, key=lambda p: (p.first, p.last))
    for p in ordered:
        if game.calendar and (p.first < game.calendar[0] or (p.last > game.calendar[1] and not p.open_end)):
            sink.emit(
                codes.MONTH_OUTSIDE_CALENDAR,
                f"period `{p.id}` ({p.first} to {p.last}) runs outside the calendar ({game.calendar[0]} to "
                f"{game.calendar[1]})",
                p.span,
            )
    for a, b in itertools.pairwise(ordered):
        if b.first <= a.last:
            shared = (b.first, min(a.last, b.last))
            keeper.emit(
                sink,
                codes.PERIOD_COVERAGE,
                months_subject(*shared),
                f"periods `{a.id}` and `{b.id}` overlap ({b.first} to {shared[1]})",
                b.span,
                labels=(Label(a.span, "overlaps this period"),),
            )
        else:
            hole = _hole(a.last.next(), b.first.previous())
            if hole:
                keeper.emit(
                    sink,
                    codes.PERIOD_COVERAGE,
                    months_subject(*hole),
                    f"no period covers {span_text(*hole)}, between `{a.id}` and `{b.id}`",
                    b.span,
                )
    if game.calendar:
        start, end = game.calendar
        before = _hole(start, ordered[0].first.previous())
        after = _hole(ordered[-1].last.next(), end)
        for hole, where in ((before, ordered[0]), (after, ordered[-1])):
            if hole:
                keeper.emit(
                    sink,
                    codes.PERIOD_COVERAGE,
                    months_subject(*hole),
                    f"no period covers {span_text(*hole)} of the calendar",
                    where.span,
                )


def _hole(first: Month, last: Month) -> tuple[Month, Month] | None:
    """The months `first` to `last`, or None when there are none."""
    return (first, last) if months_between(first, last) else None
