"""Ranges checked against a limit of the game (`within LIMIT`): a context variable's declared values
and a value-keyed chart's domain must be the counts the limit allows (C491): never past its ends, and
reaching every end it states (`at most 6`: up to 6; `2 to 6`: 2-6). The ends are those of all the
limit's cases together (a limit of 4 or 8 by month allows up to 8). A chart's count column `within`
a limit gives no count where the case that applies for the chart's keys is `forbidden` (C492)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.limits import read_limit
from compiler.model.text import value_text
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
        for index, column in enumerate(chart.columns):
            limit = game.limit(column.within) if column.within is not None else None
            if limit is not None and not chart.broken:
                _check_forbidden(game, chart, index, limit, sink)


def _check_forbidden(game: model.Game, chart: model.Chart, index: int, limit: model.Limit, sink: Sink) -> None:
    """C492: for each combination of the chart's keys, the case of `limit` that applies there, read
    with the keys as the context variables of their names; where it is `forbidden`, every cell of
    the column must be 0 or `-`. Only the combinations that decide it are read: every variable the
    cases up to a `forbidden` one test must be a key of the chart (a flag left out is not false here)."""
    keys = {k.id for k in chart.keys}
    column = chart.columns[index]
    for combo in chart.key_combinations() or [()]:
        context = dict(zip((k.id for k in chart.keys), combo, strict=True))
        answer = read_limit(limit, context)
        case = answer.case
        if case is None or case.bound.kind is not model.BoundKind.FORBIDDEN:
            continue
        upto = limit.cases[: limit.cases.index(case) + 1]
        if any(not model.condition_vars(c.when) <= keys for c in upto):
            continue  # a variable the chart does not key decides it
        given = [r for r in chart.rows_for(combo) if r.values[index] not in (0, None)]
        if not given:
            continue
        where = ", ".join(f"{k.id} `{_label(k, v)}`" for k, v in zip(chart.keys, combo, strict=True))
        shown = value_text(game, column, given[0].values[index])
        sink.emit(
            codes.FORBIDDEN_ALLOWED,
            f"chart `{chart.address}` gives {column.id} `{shown}`"
            + (f" for {where}" if where else "")
            + f", where limit `{limit.id}` ({limit.title}) is forbidden"
            + (f" ({case.cite})" if case.cite else ""),
            given[0].span,
            "write 0 or `-` in the cells the limit forbids, or correct the limit's case",
            (*(Label(r.span, "a count here too") for r in given[1:]), Label(case.span, "forbidden here")),
        )


def _label(key: model.Key, member_id: str) -> str:
    member = key.enum.member(member_id)
    return member.label if member is not None else member_id


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
