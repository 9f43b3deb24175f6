"""Reference data against the rules: dates before an item is available (C412), the invariants
the rules state (C414) and the facts they print twice (C417)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from compiler import model
from compiler.diagnostics import Applicability, Label, Sink, codes, fixes
from compiler.model.calendar import Month
from compiler.model.text import value_text
from dsl import ast


def check_record_dates(game: model.Game, sink: Sink) -> None:
    """C412 for reference data: a record dated by a month field (a mission's month, a tour's start)
    that names an item whose record is `available` only later."""
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
                    sink.emit(
                        codes.BEFORE_AVAILABLE,
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
        case _:
            assert_never(inv)


def _check_count(game: model.Game, inv: model.CountInvariant, sink: Sink) -> None:
    enum = game.enums[inv.enum]
    matching = [m.id for m in enum.members if not inv.field or m.get(inv.field) == inv.value]
    if len(matching) == inv.number:
        return
    which = f"`{enum.id}` records have {inv.field} {inv.value}" if inv.field else f"`{enum.id}` records are listed"
    sink.emit(
        codes.INVARIANT_VIOLATED,
        f"invariant `{inv.id}` ({inv.text}): {len(matching)} {which}, not {inv.number}",
        inv.span,
        "records: " + (", ".join(f"`{m}`" for m in matching) or "none")
        if inv.field
        else "check the list against the rule",
    )


@dataclass(frozen=True)
class _Reading:
    """What one fact of a `same` invariant holds, and where the data says it (the row, the record,
    the list of records)."""

    value: model.Value
    shown: str
    where: ast.Span


def _check_same(game: model.Game, inv: model.SameInvariant, sink: Sink) -> None:
    """C417: the two facts of a `same` invariant hold different values, or one cannot be read. The
    finding points at the first fact's data (so an `allow C417` in its chart silences it), with a
    label at the second fact's data and one at the invariant."""
    readings: list[_Reading] = []
    for fact in (inv.left, inv.right):
        reading = _read_fact(game, inv, fact, sink)
        if reading is None:
            return
        readings.append(reading)
    left, right = readings
    if _same_value(left.value, right.value):
        return
    first = _chart_of(game, inv.left)
    sink.emit(
        codes.FACTS_DISAGREE,
        f"invariant `{inv.id}` ({inv.text}): `{inv.left.written}` is `{left.shown}`, but "
        f"`{inv.right.written}` is `{right.shown}`",
        left.where,
        "check both against the rulebook and correct the one transcribed wrongly; if the rulebook prints "
        "both so, keep them as printed and "
        + (f"`allow C417 \"why\"` in chart `{first}`" if first else "say so in a comment"),
        (
            Label(right.where, f"`{inv.right.written}` is `{right.shown}` here"),
            Label(inv.span, "the invariant that says they agree"),
        ),
    )


def _chart_of(game: model.Game, fact: model.Fact) -> str | None:
    return fact.chart if isinstance(fact, model.CellFact) and game.chart(fact.chart) is not None else None


def _same_value(a: model.Value, b: model.Value) -> bool:
    """Equal values; printed text compares without regard to case or runs of spaces."""
    if isinstance(a, model.Text) and isinstance(b, model.Text):
        return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
    return a == b


def _read_fact(game: model.Game, inv: model.SameInvariant, fact: model.Fact, sink: Sink) -> _Reading | None:
    """The value a fact holds, or None after reporting (C417) that it reads no row or several."""
    shape = model.Column("fact", inv.type, "", inv.span)
    match fact:
        case model.CellFact():
            chart = game.chart(fact.chart)
            if chart is None or chart.broken:
                return None
            index = next(i for i, c in enumerate(chart.columns) if c.id == fact.column)
            positions = [next(i for i, k in enumerate(chart.keys) if k.id == key) for key, _ in fact.keys]
            rows = [
                r
                for r in chart.rows
                if not r.natural
                and all(model.key_matches(r.keys[p], m) for p, (_, m) in zip(positions, fact.keys, strict=True))
                and (fact.roll is None or (r.range is not None and r.range.contains(fact.roll)))
            ]
            if len(rows) != 1:
                found = "no row" if not rows else f"{len(rows)} rows"
                given = [k.id for k in chart.keys if k.id not in {key for key, _ in fact.keys}]
                hint = (
                    f"give the chart's other keys ({', '.join(f'`{k}`' for k in given)})"
                    + (" and the roll" if chart.dice is not None and fact.roll is None else "")
                    if rows
                    else f"check the keys and the roll against the rows of `{chart.address}`"
                )
                sink.emit(
                    codes.FACTS_DISAGREE,
                    f"invariant `{inv.id}`: `{fact.written}` selects {found} of `{chart.address}`, not one",
                    fact.span,
                    hint,
                    tuple(Label(r.span, "this row") for r in rows[:3]),
                )
                return None
            value = rows[0].values[index]
            return _Reading(value, value_text(game, chart.columns[index], value), rows[0].span)
        case model.FieldFact():
            member = game.enums[fact.enum].member(fact.member)
            assert member is not None, "the resolver bound the member"
            value = member.get(fact.field)
            return _Reading(value, value_text(game, shape, value), member.span)
        case model.CountFact():
            enum = game.enums[fact.enum]
            matching = [m for m in enum.members if fact.field is None or m.get(fact.field) == fact.value]
            # the list's first record stands for the list (the enum itself when none matches)
            return _Reading(len(matching), str(len(matching)), matching[0].span if matching else enum.span)
        case _:
            assert_never(fact)


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
