"""Ranges checked against a limit of the game (`within LIMIT`): a context variable's declared values
and a value-keyed chart's domain must be the counts the limit allows (C491): never past its ends, and
reaching every end it states (`at most 6`: up to 6; `2 to 6`: 2-6). The ends are those of all the
limit's cases together (a limit of 4 or 8 by month allows up to 8)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from dsl.shared import Span


def check_within(game: model.Game, sink: Sink) -> None:
    for var in game.context.values():
        if var.within is not None and var.type is model.ContextType.INT:
            low = var.low if isinstance(var.low, int) else None
            high = var.high if isinstance(var.high, int) else None
            span = var.within_span or var.span
            _check(game, f"context variable `{var.id}`", low, high, var.within, span, sink)
    for chart in game.charts:
        key = chart.value_key
        if key is not None and key.within is not None:
            span = key.within_span or chart.span
            _check(game, f"the value `{key.id}` of chart `{chart.address}`", key.domain.low, key.domain.high,
                   key.within, span, sink)


def _check(
    game: model.Game, what: str, low: int | None, high: int | None, within: str, span: Span, sink: Sink
) -> None:
    limit = game.limit(within)
    if limit is None:
        return  # reported where it is named (C201)
    least, most = limit.hull
    states_low = any(c.bound.low is not None for c in limit.cases)
    shown = f"{'' if low is None else low}-{'' if high is None else high}" if low != high else str(low)
    allows = " or ".join(dict.fromkeys(c.bound.text for c in limit.cases))
    problems: list[str] = []
    if low is None or low < least:
        problems.append(f"it starts below {least}")
    elif states_low and low > least:
        problems.append(f"it starts at {low}, above the limit's {least}")
    if most is not None and (high is None or high > most):
        problems.append(f"it runs past {most}")
    elif most is not None and high is not None and high < most:
        problems.append(f"it stops at {high}, short of the limit's {most}")
    elif most is None and high is not None:
        problems.append(f"it stops at {high}, but the limit sets no greatest count")
    if not problems:
        return
    sink.emit(
        codes.OUTSIDE_LIMIT,
        f"{what} takes {shown}, checked within limit `{limit.id}` ({allows}): {'; '.join(problems)}",
        span,
        "make the range the counts the limit allows, or correct the limit",
        (Label(limit.span, f"limit `{limit.id}`"),),
    )
