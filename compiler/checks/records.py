"""Reference data against the rules: dates before an item is available (C412), the invariants
the rules state (C414) and the facts they print twice (C417)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.checks.facts import read_fact, same_value
from compiler.checks.kept import Keeper
from compiler.checks.relations import check_distances, check_symmetric
from compiler.diagnostics import Applicability, Label, Sink, codes, fixes
from compiler.model.calendar import Month
from dsl.shared import CompareOp


def check_record_dates(game: model.Game, sink: Sink, keeper: Keeper | None = None) -> None:
    """C412 for reference data: a record dated by a month field (a mission's month, a tour's start)
    that names an item whose record is `available` only later (the note C484 where `keeper` keeps
    the record as printed)."""
    keeper = keeper or Keeper(game)
    for enum in game.enums.values():
        month_fields = [f.id for f in enum.fields if f.type is model.BuiltinType.MONTH and f.id != "available"]
        ref_fields = [
            f
            for f in enum.fields
            if f.type in game.enums and any(x.id == "available" for x in game.enums[f.type].fields)
        ]
        if not month_fields or not ref_fields:
            continue
        for member in enum.members:
            months = [m for m in (member.get(f) for f in month_fields) if isinstance(m, str)]
            if not months:
                continue
            when = min(months)
            for field in ref_fields:
                target = game.enums[field.type].member(str(member.get(field.id)))
                available = target.get("available") if target else None
                if target is not None and isinstance(available, str) and when < available:
                    keeper.emit(
                        sink,
                        codes.BEFORE_AVAILABLE,
                        f"{enum.id}.{member.id}",
                        f"`{member.label}` ({enum.label}, {when}) uses `{target.label}`, available only from "
                        f"{available}",
                        member.span,
                        f"check the {field.label.lower()} of `{member.id}` or the `available` month of `{target.id}`",
                    )


def check_invariant(game: model.Game, inv: model.Invariant, sink: Sink) -> None:
    """Report (C414) where the data breaks an invariant the rules state."""
    match inv:
        case model.CountInvariant():
            _check_count(game, inv, sink)
        case model.ColumnSumInvariant():
            _check_column_sum(game, inv, sink)
        case model.SameInvariant():
            _check_same(game, inv, sink)
        case model.SymmetricInvariant():
            check_symmetric(game, inv, sink)
        case model.DistancesInvariant():
            check_distances(game, inv, sink)
        case _:
            assert_never(inv)


def _check_count(game: model.Game, inv: model.CountInvariant, sink: Sink) -> None:
    enum = game.enums[inv.enum]
    matching = [m.id for m in enum.members if all(t.passes(m.get(t.field)) for t in inv.where)]
    if len(matching) == inv.number:
        return
    tests = " and ".join(f"{t.field} {'' if t.op is CompareOp.EQ else 'not '}{_shown(t.value)}" for t in inv.where)
    which = f"`{enum.id}` records have {tests}" if inv.where else f"`{enum.id}` records are listed"
    sink.emit(
        codes.INVARIANT_VIOLATED,
        f"invariant `{inv.id}` ({inv.text}): {len(matching)} {which}, not {inv.number}",
        inv.span,
        "records: " + (", ".join(f"`{m}`" for m in matching) or "none")
        if inv.where
        else "check the list against the rule",
    )


def _shown(value: model.Value) -> str:
    return "-" if value is None else ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _check_same(game: model.Game, inv: model.SameInvariant, sink: Sink) -> None:
    """C417: the two facts of a `same` invariant hold different values, or one cannot be read. The
    finding points at the first fact's data, with a label at the second fact's data and one at the
    invariant; an invariant that keeps the print (`kept "why"`) makes it a note (C418)."""
    where = f"invariant `{inv.id}`"
    left = read_fact(game, inv.left, inv.type, where, codes.FACTS_DISAGREE, sink)
    right = read_fact(game, inv.right, inv.type, where, codes.FACTS_DISAGREE, sink)
    if left is None or right is None:
        return
    if same_value(left.value, right.value):
        if inv.kept is not None:
            sink.emit(
                codes.FACTS_DISAGREE,
                f"invariant `{inv.id}` ({inv.text}) keeps the print, but `{inv.left.written}` and "
                f"`{inv.right.written}` now agree (`{left.shown}`)",
                inv.span,
                "delete `kept`: the facts agree",
            )
        return
    message = (
        f"invariant `{inv.id}` ({inv.text}): `{inv.left.written}` is `{left.shown}`, but "
        f"`{inv.right.written}` is `{right.shown}`"
    )
    labels = (
        Label(right.where, f"`{inv.right.written}` is `{right.shown}` here"),
        Label(inv.span, "the invariant that says they agree"),
    )
    if inv.kept is not None:
        sink.emit(codes.FACTS_KEPT, f"{message}; kept as printed: {inv.kept}", left.where, None, labels)
        return
    sink.emit(
        codes.FACTS_DISAGREE,
        message,
        left.where,
        "check both against the rulebook and correct the one transcribed wrongly; if the rulebook prints "
        'both so, keep them as printed and say why: `same A as B kept "why"`',
        labels,
    )


def _check_column_sum(game: model.Game, inv: model.ColumnSumInvariant, sink: Sink) -> None:
    enum = game.enums[inv.enum]
    chart = game.chart(inv.chart)
    if chart is None or chart.broken:
        return
    for index, column in enumerate(chart.columns):
        member = enum.member(column.id)
        if member is None:
            sink.emit(
                codes.INVARIANT_VIOLATED,
                f"invariant `{inv.id}`: column `{column.id}` of `{chart.address}` names no `{enum.id}` record",
                inv.span,
            )
            continue
        need = member.get(inv.field)
        if not isinstance(need, int):
            continue
        total = 0
        for row in chart.rows:
            cell = row.values[index]
            if isinstance(cell, tuple) and len(cell) >= inv.part:
                part = cell[inv.part - 1]
                total += part if isinstance(part, int) else 0
        if total < need:
            sink.emit(
                codes.INVARIANT_VIOLATED,
                f"invariant `{inv.id}` ({inv.text}): `{column.id}` totals {total} in `{chart.address}`, short of "
                f"{need}",
                inv.span,
                f"check the `{column.id}` cells of `{chart.address}` and the {inv.field} of `{member.id}`",
            )


def check_availability_dates(chart: model.Chart, sink: Sink) -> None:
    """C412 for availability grids: an item offered (`✓` or a die range) in months before its
    record's `available` month; one finding per item, for every such month (issue 32: a finding
    per month repeated itself down a long calendar)."""
    layout = chart.availability
    if layout is None:
        return
    items = next((k.enum for k in chart.keys if k.id == layout.item_key), None)
    if items is None:
        return
    offered = (model.AVAILABLE, model.AUTOMATIC)
    early: dict[str, dict[Month, model.Row]] = {}  # item -> month -> the cell's row
    for row in chart.rows:
        item, column = row.keys[0], row.keys[1]
        if not isinstance(item, str) or not isinstance(column, str) or row.values[0] not in offered:
            continue
        member = items.member(item)
        available = member.get("available") if member else None
        month = Month.parse(column)
        if member is None or not isinstance(available, Month) or month is None or month >= available:
            continue
        early.setdefault(item, {}).setdefault(month, row)
    for item, cells in early.items():
        member = items.member(item)
        assert member is not None
        months = sorted(cells)
        rows = [cells[m] for m in months]
        when = months[0] if len(months) == 1 else f"{len(months)} months ({_month_runs(months)})"
        sink.emit(
            codes.BEFORE_AVAILABLE,
            f"`{member.label}` is offered in {when} but is available only from {member.get('available')}",
            rows[0].span,
            f"write `-` for {'that month' if len(rows) == 1 else 'those months'}, or correct the record's "
            "`available` month",
            tuple(Label(r.span, "offered here too") for r in rows[1:]),
            # the row of an availability cell is that cell's `✓` or range
            fix=fixes.Fix(
                f"write `-` in {'the cell' if len(rows) == 1 else f'the {len(rows)} cells'}",
                tuple(fixes.Edit(r.span, "-") for r in rows),
                Applicability.UNSAFE,
            ),
        )


def _month_runs(months: list[Month]) -> str:
    """`1944-07 to 1944-09, 1944-12` for runs of consecutive months (sorted)."""
    runs: list[list[Month]] = []
    for month in months:
        if runs and runs[-1][-1].ordinal + 1 == month.ordinal:
            runs[-1].append(month)
        else:
            runs.append([month])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]} to {run[-1]}" for run in runs)
