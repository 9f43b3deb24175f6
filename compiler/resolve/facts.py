"""Facts the data states, bound: a chart's cell, a record's field, a count of records, the number a
limit sets, a formula's value, a chart's DRM. Invariants (`same`), conflicts and ambiguous readings
name facts; each is bound here with the type of the value it holds. `where` names the declaration
in messages (``invariant `x` ``)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.diagnostics import Sink, Slot, codes
from compiler.diagnostics.messages import declared_twice, not_a_value_of
from compiler.model.calendar import Month
from compiler.resolve.symbols import SymbolTable, named, unknown
from compiler.resolve.values import Bad, ValueTyper
from dsl import ast

_FLAG_WORDS = {"yes": True, "true": True, "no": False, "false": False}


def bind_fact(
    symbols: SymbolTable, fact: ast.Fact, where: str, typer: ValueTyper, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """One fact, bound, with the type of the value it holds; None after reporting what does not bind."""
    match fact:
        case ast.CellFact():
            return _cell_fact(symbols, fact, where, sink)
        case ast.FieldFact():
            return _field_fact(symbols, fact, where, sink)
        case ast.CountFact():
            return _count_fact(symbols, fact, where, typer, sink)
        case ast.LimitFact():
            return _limit_fact(symbols, fact, where, sink)
        case ast.FormulaFact():
            return _formula_fact(symbols, fact, where, sink)
        case ast.DrmFact():
            return _drm_fact(symbols, fact, where, sink)
        case _:
            assert_never(fact)


def counted(
    symbols: SymbolTable,
    enum_name: ast.Name,
    where_tests: tuple[ast.FieldTest, ...],
    where: str,
    typer: ValueTyper,
    sink: Sink,
) -> tuple[model.EnumType, tuple[model.FieldTest, ...]] | None:
    """What `count ENUM [where FIELD == VALUE and ...]` counts: the enum and its field tests, each
    value typed as its field's (`==` and `!=` only, C407); None after reporting what does not fit."""
    enum = enum_named(symbols, enum_name, where, sink)
    if enum is None:
        return None
    tests: list[model.FieldTest] = []
    for test in where_tests:
        field = named(enum.fields, test.field, sink, f"enum `{enum.id}` has no field `{test.field.text}`")
        if field is None:
            return None
        if test.op not in (model.CompareOp.EQ, model.CompareOp.NE):
            sink.emit(
                codes.INVALID_CONDITION,
                f"`{test.op}` does not count records in {where}; use `==` or `!=`",
                test.span,
            )
            return None
        typed = typer.typed(test.value, field.type, where)
        if isinstance(typed, Bad):
            return None
        tests.append(model.FieldTest(field.id, test.op, typed))
    return enum, tuple(tests)


def enum_named(symbols: SymbolTable, enum_name: ast.Name, where: str, sink: Sink) -> model.EnumType | None:
    enum = symbols.enums.get(enum_name.text)
    if enum is None:
        unknown(sink, f"unknown enum `{enum_name.text}` in {where}", enum_name, symbols.enums)
    return enum


def enum_field(
    symbols: SymbolTable, enum_name: ast.Name, field_name: ast.Name, where: str, sink: Sink
) -> tuple[model.EnumType, model.Field] | None:
    enum = enum_named(symbols, enum_name, where, sink)
    if enum is None:
        return None
    field = named(enum.fields, field_name, sink, f"enum `{enum.id}` has no field `{field_name.text}`")
    return None if field is None else (enum, field)


def _cell_fact(
    symbols: SymbolTable, fact: ast.CellFact, where: str, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`[CHART] (key=value, N) column COLUMN`: the chart, its column, its keys and their values."""
    chart = symbols.chart_named(fact.chart, sink, f"unknown chart `{fact.chart.text}` in {where}")
    if chart is None:
        return None
    column = named(chart.columns, fact.column, sink, f"chart `{chart.address}` has no column `{fact.column.text}`")
    keys: list[tuple[str, str]] = []
    roll: int | None = None
    ok = column is not None
    for arg in fact.select:
        if isinstance(arg, ast.FactRoll):
            if chart.dice is None and chart.value_key is None:
                sink.emit(
                    codes.TYPE_MISMATCH,
                    f"{where} reads roll {arg.value} of `{chart.address}`, which is not read by a roll or a value",
                    arg.span,
                    "select the row by its keys only: `(key=value)`",
                )
                ok = False
            roll = arg.value
            continue
        key = named(chart.keys, arg.key, sink, f"chart `{chart.address}` has no key `{arg.key.text}`")
        if key is None:
            ok = False
            continue
        member = key.enum.member(arg.value.text)
        if member is None:
            not_a_value_of(
                sink, arg.value.text, f"key `{key.id}`", arg.value.span, key.enum.spellings, f" ({where})",
                slot=Slot.VALUE,
            )
            ok = False
            continue
        if any(k == key.id for k, _ in keys):
            declared_twice(sink, f"key `{key.id}`", arg.span, None, where=f"in {where}", verb="given")
            ok = False
            continue
        keys.append((key.id, member.id))
    if not ok or column is None:
        return None
    shown = [f"{k}={v}" for k, v in keys] + ([str(roll)] if roll is not None else [])
    address = f"[{chart.chart_id}]" if chart.chart_id else chart.address
    written = f"{address}" + (f" ({', '.join(shown)})" if shown else "") + f" column {column.id}"
    return model.CellFact(chart.address, tuple(keys), roll, column.id, written, fact.span), column.type


def _field_fact(
    symbols: SymbolTable, fact: ast.FieldFact, where: str, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`ENUM.MEMBER.FIELD`: a record's field."""
    bound = enum_field(symbols, fact.enum, fact.field, where, sink)
    if bound is None:
        return None
    enum, field = bound
    member = enum.member(fact.member.text)
    if member is None:
        not_a_value_of(
            sink, fact.member.text, f"`{enum.id}`", fact.member.span, enum.spellings, f" ({where})", slot=Slot.NAME
        )
        return None
    written = f"{enum.id}.{member.id}.{field.id}"
    return model.FieldFact(enum.id, member.id, field.id, written, fact.span), field.type


def _count_fact(
    symbols: SymbolTable, fact: ast.CountFact, where: str, typer: ValueTyper, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`count ENUM [where FIELD == VALUE and ...]`: an `int`, the number of records."""
    bound = counted(symbols, fact.enum, fact.where, where, typer, sink)
    if bound is None:
        return None
    enum, tests = bound
    written = f"count {enum.id}" + (" where " + " and ".join(_test_text(t) for t in fact.where) if tests else "")
    return model.CountFact(enum.id, tests, written, fact.span), model.BuiltinType.INT


def _test_text(test: ast.FieldTest) -> str:
    value = test.value
    shown = f'"{value.text}"' if value.kind is ast.ValueKind.TEXT else value.text
    return f"{test.field.text} {test.op.value} {shown}"


def _limit_fact(
    symbols: SymbolTable, fact: ast.LimitFact, where: str, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`limit NAME (var=value, ...)`: the number the limit sets in that context (an `int`)."""
    limit = named(symbols.limits, fact.limit, sink, f"unknown limit `{fact.limit.text}` in {where}")
    context = _context(symbols, fact.select, where, sink)
    if limit is None or context is None:
        return None
    written = f"limit {limit.id}" + _context_text(context)
    return model.LimitFact(limit.id, context, written, fact.span), model.BuiltinType.INT


def _formula_fact(
    symbols: SymbolTable, fact: ast.FormulaFact, where: str, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`formula NAME (var=value, ...)`: the formula's value in that context (an `int`)."""
    formula = named(symbols.formulas, fact.formula, sink, f"unknown formula `{fact.formula.text}` in {where}")
    context = _context(symbols, fact.select, where, sink)
    if formula is None or context is None:
        return None
    written = f"formula {formula.id}" + _context_text(context)
    return model.FormulaFact(formula.id, context, written, fact.span), model.BuiltinType.INT


def _drm_fact(
    symbols: SymbolTable, fact: ast.DrmFact, where: str, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`drm [CHART] NAME`: the value of one of a chart's DRMs (an `int`; per step for a per-N DRM)."""
    chart = symbols.chart_named(fact.chart, sink, f"unknown chart `{fact.chart.text}` in {where}")
    if chart is None:
        return None
    drm = named(chart.drms, fact.drm, sink, f"chart `{chart.address}` has no DRM `{fact.drm.text}`")
    if drm is None:
        return None
    address = f"[{chart.chart_id}]" if chart.chart_id else chart.address
    return model.DrmFact(chart.address, drm.id, f"drm {address} {drm.id}", fact.span), model.BuiltinType.INT


def _context(
    symbols: SymbolTable, select: tuple[ast.FactKey | ast.FactRoll, ...], where: str, sink: Sink
) -> model.FactContext | None:
    """`(month=1944-08, jet=yes, kills=12)`: context variables and their values, typed by the
    variables (a flag takes `yes` or `no`); None after reporting what does not fit."""
    given: dict[str, bool | int | Month | model.MemberId] = {}
    ok = True
    for arg in select:
        if isinstance(arg, ast.FactRoll):
            sink.emit(
                codes.TYPE_MISMATCH,
                f"{where} gives a bare number ({arg.value}) to a limit or formula; name the context variable",
                arg.span,
                "write `NAME=VALUE`, e.g. `(kills=12)`",
            )
            ok = False
            continue
        var = symbols.context.get(arg.key.text)
        if var is None:
            unknown(sink, f"unknown context variable `{arg.key.text}` in {where}", arg.key, symbols.context)
            ok = False
            continue
        value = _context_value(symbols, var, arg, where, sink)
        if value is None:
            ok = False
            continue
        if var.id in given:
            declared_twice(sink, f"`{var.id}`", arg.span, None, where=f"in {where}", verb="given")
            ok = False
            continue
        given[var.id] = value
    return tuple(given.items()) if ok else None


def _context_value(
    symbols: SymbolTable, var: model.ContextVar, arg: ast.FactKey, where: str, sink: Sink
) -> bool | int | Month | model.MemberId | None:
    written = arg.value
    match var.type:
        case model.ContextType.FLAG:
            if written.kind is ast.ValueKind.NAME and written.text.lower() in _FLAG_WORDS:
                return _FLAG_WORDS[written.text.lower()]
        case model.ContextType.INT:
            if written.kind is ast.ValueKind.INT:
                return int(written.text)
        case model.ContextType.MONTH:
            month = Month.parse(written.text) if written.kind is ast.ValueKind.MONTH else None
            if month is not None:
                return month
        case model.ContextType.ENUM:
            enum = symbols.enums.get(var.enum or "")
            member = enum.member(written.text) if enum is not None and written.kind in ("name", "text") else None
            if member is not None:
                return model.MemberId(member.id)
            if enum is not None and written.kind in ("name", "text"):
                not_a_value_of(
                    sink, written.text, f"`{var.id}`", written.span, enum.spellings, f" ({where})", slot=Slot.VALUE
                )
                return None
        case _:
            assert_never(var.type)
    words = {"flag": "`yes` or `no`", "int": "a whole number", "month": "a month like `1944-07`"}
    sink.emit(
        codes.TYPE_MISMATCH,
        f"`{var.id}` holds {var.type.value} values, found `{written.text}` in {where}",
        written.span,
        f"write {words.get(var.type.value, 'one of its values')}",
    )
    return None


def _context_text(context: model.FactContext) -> str:
    if not context:
        return ""
    shown = ", ".join(f"{k}={('yes' if v else 'no') if isinstance(v, bool) else v}" for k, v in context)
    return f" ({shown})"
