"""Invariants over a relation of one enum's members, held as a chart keyed by the enum with a column
per member (a board's adjacency, the range between its areas): the relation is `symmetric`, or
a chart's cells are the `distances` over it (Stuka Leader L78: the Range is the shortest path over the
adjacent areas). A cell that breaks one is C414, pointing at its row with a label at the other."""

from __future__ import annotations

from collections import deque

from compiler import model
from compiler.checks.facts import same_value
from compiler.diagnostics import Label, Sink, codes
from compiler.model.text import value_text


def _rows(chart: model.Chart) -> dict[str, model.Row]:
    """Each member's row (the first, if a duplicate was reported)."""
    found: dict[str, model.Row] = {}
    for row in chart.rows:
        key = row.keys[0] if row.keys else None
        if isinstance(key, str):
            found.setdefault(key, row)
    return found


def _cell(chart: model.Chart, rows: dict[str, model.Row], a: str, b: str) -> model.Value:
    index = next(i for i, c in enumerate(chart.columns) if c.id == b)
    return rows[a].values[index]


def check_symmetric(game: model.Game, inv: model.SymmetricInvariant, sink: Sink) -> None:
    """C414 for each pair of members whose two cells differ."""
    chart = game.chart(inv.chart)
    if chart is None or chart.broken:
        return
    rows = _rows(chart)
    members = [m.id for m in game.enums[inv.enum].members if m.id in rows]
    column = {c.id: c for c in chart.columns}
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            there, back = _cell(chart, rows, a, b), _cell(chart, rows, b, a)
            if same_value(there, back):
                continue
            shown = value_text(game, column[b], there)
            shown_back = value_text(game, column[a], back)
            sink.emit(
                codes.INVARIANT_VIOLATED,
                f"invariant `{inv.id}` ({inv.text}): `{chart.address}` gives `{a}` to `{b}` as `{shown}`, but "
                f"`{b}` to `{a}` as `{shown_back}`",
                rows[a].span,
                f"check the `{b}` cell of `{a}` and the `{a}` cell of `{b}` against the print",
                (Label(rows[b].span, f"`{b}` to `{a}` is `{shown_back}` here"), Label(inv.span, "the invariant")),
            )


def check_distances(game: model.Game, inv: model.DistancesInvariant, sink: Sink) -> None:
    """C414 for each row of the chart whose cells are not the fewest steps over the relation."""
    chart, relation = game.chart(inv.chart), game.chart(inv.relation)
    if chart is None or relation is None or chart.broken or relation.broken:
        return
    rows, links = _rows(chart), _rows(relation)
    members = [m.id for m in game.enums[inv.enum].members]
    if any(m not in rows or m not in links for m in members):
        return  # a missing row is the chart's own finding (coverage)
    adjacent = {a: [b for b in members if same_value(_cell(relation, links, a, b), inv.step)] for a in members}
    for a in members:
        steps = _steps(a, adjacent)
        wrong = [
            (b, _cell(chart, rows, a, b), steps.get(b))
            for b in members
            if _cell(chart, rows, a, b) != steps.get(b)
        ]
        if not wrong:
            continue
        said = ", ".join(
            f"`{b}` {'-' if got is None else got} (shortest {'none' if want is None else want})"
            for b, got, want in wrong
        )
        sink.emit(
            codes.INVARIANT_VIOLATED,
            f"invariant `{inv.id}` ({inv.text}): from `{a}`, `{chart.address}` gives {said} over "
            f"`{relation.address}` (steps where it is `{inv.step_written}`)",
            rows[a].span,
            f"correct the cells, or the cells of `{relation.address}` they are the shortest paths over",
            (Label(links[a].span, f"`{a}`'s adjacent members"), Label(inv.span, "the invariant")),
        )


def _steps(start: str, adjacent: dict[str, list[str]]) -> dict[str, int]:
    """The fewest steps from `start` to each member it reaches (breadth first)."""
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in adjacent[here]:
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps
