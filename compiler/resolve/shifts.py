"""A CRT's column shifts: conditions bound, exclusive groups and the cap checked (C423, C424), and
shifts read from a terrain effects chart bound to that chart's column once every chart has
resolved (C425)."""

from __future__ import annotations

import dataclasses

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.resolve.conditions import ConditionResolver
from compiler.resolve.symbols import SymbolTable, declared_before
from dsl import ast


def chart_shifts(decl: ast.ChartDecl, conditions: ConditionResolver, sink: Sink, where: str) -> model.ShiftRules | None:
    """The chart's column shifts, or None when it declares none. A shift `from` a chart is bound
    later (`bind_shift_sources`); until then its source holds no values."""
    if not decl.shifts and not decl.shift_groups and decl.shift_cap is None:
        return None
    shifts: list[model.Shift] = []
    for s in decl.shifts:
        if declared_before(sink, shifts, "shift", s.name, f"in {where}"):
            continue
        shift = _shift(s, conditions)
        if shift is not None:
            shifts.append(shift)
    groups = _groups(decl, where, sink)
    cap = None
    if decl.shift_cap is not None:
        cap = (decl.shift_cap.low, decl.shift_cap.high)
        if cap[0] > cap[1]:
            sink.emit(codes.SHIFT_GROUP, f"the shift cap of {where} runs backwards", decl.shift_cap.span)
            cap = None
    return model.ShiftRules(tuple(shifts), groups, cap, decl.span)


def _check_target(symbols: SymbolTable, chart: model.Chart, shifts: model.ShiftRules, sink: Sink) -> None:
    """C423: shifts move an odds column, so the chart is keyed by an odds rule that says whether
    shifts apply before or after its table edge."""
    where = f"chart `{chart.address}`"
    at = shifts.shifts[0].span if shifts.shifts else shifts.span
    rules = [c.odds for k in chart.keys if (c := symbols.chart(k.enum.id)) is not None and c.odds is not None]
    if not rules:
        sink.emit(
            codes.SHIFT_TARGET,
            f"{where} declares column shifts but no key of it is an odds rule's columns",
            at,
            "key the CRT by its odds rule (`key odds: crt_odds`), or write the modifier as a `drm`",
        )
    for rule in rules:
        if rule.shift_order is None:
            sink.emit(
                codes.SHIFT_TARGET,
                f"{where} declares column shifts, but odds rule `{rule.id}` does not say whether they apply "
                "before or after its table edge",
                at,
                f"add `shift after clamp` (or `shift before clamp`) to odds rule `{rule.id}`",
            )


def _shift(s: ast.ShiftDecl, conditions: ConditionResolver) -> model.Shift | None:
    label = s.label.text if s.label else s.name.text.replace("_", " ")
    group = s.group.text if s.group else None
    if s.source is not None:
        src = s.source
        source = model.ShiftSource(src.chart.text, "", src.column.text, "", src.by.text, ())
        return model.Shift(s.name.text, label, 0, None, source, group, s.span)
    when = conditions.condition(s.when) if s.when else None
    if s.when is not None and when is None:
        return None
    keys = sorted(model.condition_vars(when) & (set(conditions.keys) - set(conditions.symbols.context)))
    if keys:
        conditions.sink.emit(
            codes.INVALID_CONDITION,
            f"shift `{s.name.text}` tests the chart's key `{keys[0]}`: a column shift reads context variables only",
            s.span,
            f"declare `context {keys[0]}: ...` and test that, or write the modifier as a `drm`",
        )
        return None
    return model.Shift(s.name.text, label, s.value or 0, when, None, group, s.span)


def _groups(decl: ast.ChartDecl, where: str, sink: Sink) -> tuple[tuple[str, model.GroupMode], ...]:
    """Each `shift_group` block's mode (C202 for a group declared twice, C424 for an empty one)."""
    declared: dict[str, model.GroupMode] = {}
    for g in decl.shift_groups:
        if g.name.text in declared:
            declared_twice(sink, f"shift group `{g.name.text}`", g.name.span, None, where=f"in {where}")
        elif not g.shifts:
            sink.emit(codes.SHIFT_GROUP, f"shift group `{g.name.text}` of {where} holds no shift", g.name.span)
        else:
            declared[g.name.text] = g.mode
    return tuple(sorted(declared.items()))


def bind_shift_sources(symbols: SymbolTable, sink: Sink) -> None:
    """Once every chart has resolved: check each CRT's shifts have an odds column to move (C423),
    and read each shift and DRM `from` a chart out of that chart's column (C201, C425), replacing
    the charts that have such shifts or DRMs; one that cannot be bound is dropped."""
    charts = []
    for chart in symbols.charts:
        if chart.shifts is not None:
            _check_target(symbols, chart, chart.shifts, sink)
        if chart.shifts is not None and any(s.source is not None for s in chart.shifts.shifts):
            bound = tuple(b for s in chart.shifts.shifts if (b := _bind(symbols, chart, s, sink)) is not None)
            chart = dataclasses.replace(chart, shifts=dataclasses.replace(chart.shifts, shifts=bound))
        if chart.drm_sources:
            chart = _bind_drms(symbols, chart, sink)
        charts.append(chart)
    symbols.set_charts(charts)


def _bind(symbols: SymbolTable, crt: model.Chart, shift: model.Shift, sink: Sink) -> model.Shift | None:
    if shift.source is None:
        return shift
    where = f"shift `{shift.id}` of chart `{crt.address}`"
    source = bind_source(symbols, shift.source, where, shift.span, sink)
    return None if source is None else dataclasses.replace(shift, source=source)


def bind_source(
    symbols: SymbolTable, src: model.ShiftSource, where: str, span: ast.Span, sink: Sink
) -> model.ShiftSource | None:
    """A terrain effects chart's column read by member (C201, C425), or None after a finding."""
    var = symbols.context.get(src.var)
    if var is None:
        unknown_name(sink, f"unknown context variable `{src.var}` in {where}", src.var, span, symbols.context)
        return None
    table = symbols.chart(src.chart)
    if table is None:
        known = [c.address for c in symbols.charts]
        unknown_name(sink, f"{where} reads chart `{src.chart}`, which is not declared", src.chart, span, known)
        return None
    problem = _source_problem(table, var, src.column)
    if problem is not None:
        sink.emit(codes.SHIFT_SOURCE, f"{where} cannot read chart `{table.address}`: {problem}", span)
        return None
    column_index = next(i for i, c in enumerate(table.columns) if c.id == src.column)
    enum = table.keys[0].enum
    values: list[tuple[str, int]] = []
    for member in enum.members:
        rows = table.rows_for((member.id,))
        cell = rows[0].values[column_index] if rows else None
        if not isinstance(cell, int) or isinstance(cell, bool):
            sink.emit(
                codes.SHIFT_SOURCE,
                f"{where}: chart `{table.address}` gives no {src.column} for `{member.label}`",
                span,
                f"give `{member.id}` a row (0 for none) in chart `{table.address}`",
            )
            return None
        values.append((member.id, cell))
    column = table.columns[column_index]
    labels = tuple((m.id, m.label) for m in enum.members)
    return model.ShiftSource(table.address, table.title, column.id, column.label, var.id, tuple(values), labels)


def chart_drm_sources(decl: ast.ChartDecl) -> tuple[model.DrmSource, ...]:
    """The chart's DRMs read `from` a terrain effects chart, unbound (`bind_shift_sources` reads
    them once every chart has resolved)."""
    return tuple(
        model.DrmSource(
            d.name.text,
            d.label.text if d.label else d.name.text.replace("_", " "),
            model.ShiftSource(d.source.chart.text, "", d.source.column.text, "", d.source.by.text, ()),
            d.span,
        )
        for d in decl.drms_from
    )


def _bind_drms(symbols: SymbolTable, chart: model.Chart, sink: Sink) -> model.Chart:
    """The chart with each DRM read from a terrain effects chart bound and written out as one DRM
    per member with a value (`Terrain ([TEC] Woods) +1 when terrain == woods`)."""
    bound: list[model.DrmSource] = []
    drms = list(chart.drms)
    for d in chart.drm_sources:
        where = f"DRM `{d.id}` of chart `{chart.address}`"
        source = bind_source(symbols, d.source, where, d.span, sink)
        if source is None:
            continue
        bound.append(dataclasses.replace(d, source=source))
        enum = symbols.enums[symbols.context[source.var].enum or ""]
        for member_id, value in source.values:
            if value:
                member = enum.member(member_id)
                label = f"{d.label} ([{source.chart}] {member.label if member else member_id})"
                when = model.Compare(source.var, model.CompareOp.EQ, model.MemberId(member_id), d.span)
                drms.append(model.Drm(f"{d.id}_{member_id}", label, value, when, None, d.span))
    tested = {v.id: v for v in chart.context} | {d.source.var: symbols.context[d.source.var] for d in bound}
    context = tuple(tested[v] for v in sorted(tested))  # reachability enumerates the terrain too
    return dataclasses.replace(chart, drms=tuple(drms), drm_sources=tuple(bound), context=context)


def _source_problem(table: model.Chart, var: model.ContextVar, column: str) -> str | None:
    """Why a chart cannot be a shift's source, or None: it must be keyed by the variable's enum
    alone and have an int column `column`."""
    if var.type is not model.ContextType.ENUM:
        return f"context variable `{var.id}` is not an enum"
    if table.kind is not model.ChartKind.REFERENCE or len(table.keys) != 1 or table.keys[0].enum.id != var.enum:
        return f"a shift source is read by its key alone, and that key is enum `{var.enum}` (as `{var.id}` is)"
    found = next((c for c in table.columns if c.id == column), None)
    if found is None:
        return f"it has no column `{column}`"
    if found.type != model.BuiltinType.INT:
        return f"column `{column}` does not hold whole numbers"
    return None
