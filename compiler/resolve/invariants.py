"""Invariants (`invariant NAME "text" { count ... }`): bind their enum, field and chart names and
type their values; whether the data obeys them is a check (C414 and, for `same`, C417;
`compiler.checks.records`)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.diagnostics import Label, Sink, Slot, codes
from compiler.diagnostics.messages import declared_twice, not_a_value_of
from compiler.resolve.symbols import SymbolTable, named, unknown
from compiler.resolve.values import Bad, ValueTyper
from dsl import ast


def invariants(
    symbols: SymbolTable, decls: list[ast.InvariantDecl], typer: ValueTyper, sink: Sink
) -> list[model.Invariant]:
    """The game's invariants, each name declared once."""
    found: list[model.Invariant] = []
    seen: dict[str, ast.Span] = {}
    for decl in decls:
        if decl.name.text in seen:
            declared_twice(sink, f"invariant `{decl.name.text}`", decl.name.span, seen[decl.name.text])
            continue
        seen[decl.name.text] = decl.name.span
        resolved = _invariant(symbols, decl, typer, sink)
        if resolved is not None:
            found.append(resolved)
    return found


def _invariant(symbols: SymbolTable, decl: ast.InvariantDecl, typer: ValueTyper, sink: Sink) -> model.Invariant | None:
    """Bind an invariant's names: the enum and its field, and for `column_sum` the chart."""
    match decl:
        case ast.CountInvariant():
            return _count_invariant(symbols, decl, typer, sink)
        case ast.ColumnSumInvariant():
            return _column_sum_invariant(symbols, decl, sink)
        case ast.SameInvariant():
            return _same_invariant(symbols, decl, typer, sink)
        case _:
            assert_never(decl)


def _count_invariant(
    symbols: SymbolTable, decl: ast.CountInvariant, typer: ValueTyper, sink: Sink
) -> model.Invariant | None:
    """`count ENUM [where FIELD == VALUE] is N`: bind the enum, the field and type the value."""
    counted = _counted(symbols, decl, decl.enum, decl.where, typer, sink)
    if counted is None:
        return None
    enum, field, value = counted
    field_id = field.id if field else None
    return model.CountInvariant(decl.name.text, decl.text.text, enum.id, field_id, value, decl.count, decl.span)


def _counted(
    symbols: SymbolTable,
    decl: ast.InvariantDecl,
    enum_name: ast.Name,
    where: ast.FieldEquals | None,
    typer: ValueTyper,
    sink: Sink,
) -> tuple[model.EnumType, model.Field | None, model.Value] | None:
    """What `count ENUM [where FIELD == VALUE]` counts: the enum, and with `where` its field and the
    value typed as the field's; None after reporting a name or a value that does not fit."""
    if where is None:  # every record
        enum = _invariant_enum(symbols, decl, enum_name, sink)
        return None if enum is None else (enum, None, None)
    bound = _invariant_field(symbols, decl, enum_name, where.field, sink)
    if bound is None:
        return None
    enum, field = bound
    typed = typer.typed(where.value, field.type, f"invariant `{decl.name.text}`")
    return None if isinstance(typed, Bad) else (enum, field, typed)


def _column_sum_invariant(symbols: SymbolTable, decl: ast.ColumnSumInvariant, sink: Sink) -> model.Invariant | None:
    """`sum CHART part P per column reaches ENUM.FIELD`: bind the names; P must be a part of its cells."""
    bound = _invariant_field(symbols, decl, decl.enum, decl.field, sink)
    if bound is None:
        return None
    enum, field = bound
    chart = symbols.chart_named(decl.chart, sink, f"unknown chart `{decl.chart.text}` in invariant `{decl.name.text}`")
    if chart is None:
        return None
    parts = {
        model.SLASHED_PARTS[c.type]
        for c in chart.columns
        if isinstance(c.type, model.BuiltinType) and c.type in model.SLASHED_PARTS
    }
    if not 1 <= decl.part <= (max(parts) if parts else 0):
        sink.emit(
            codes.TYPE_MISMATCH,
            f"invariant `{decl.name.text}` sums part {decl.part}, but the cells of `{chart.address}` have "
            + (f"parts 1 to {max(parts)}" if parts else "no pair or triple columns"),
            decl.span,
        )
        return None
    return model.ColumnSumInvariant(
        decl.name.text, decl.text.text, enum.id, field.id, decl.part, chart.address, decl.span
    )


def _invariant_enum(
    symbols: SymbolTable, decl: ast.InvariantDecl, enum_name: ast.Name, sink: Sink
) -> model.EnumType | None:
    enum = symbols.enums.get(enum_name.text)
    if enum is None:
        unknown(sink, f"unknown enum `{enum_name.text}` in invariant `{decl.name.text}`", enum_name, symbols.enums)
    return enum


def _invariant_field(
    symbols: SymbolTable, decl: ast.InvariantDecl, enum_name: ast.Name, field_name: ast.Name, sink: Sink
) -> tuple[model.EnumType, model.Field] | None:
    enum = _invariant_enum(symbols, decl, enum_name, sink)
    if enum is None:
        return None
    field = named(enum.fields, field_name, sink, f"enum `{enum.id}` has no field `{field_name.text}`")
    return None if field is None else (enum, field)


def _same_invariant(
    symbols: SymbolTable, decl: ast.SameInvariant, typer: ValueTyper, sink: Sink
) -> model.Invariant | None:
    """`same FACT as FACT`: bind both facts; both must hold values of one type (C402)."""
    left = _fact(symbols, decl, decl.left, typer, sink)
    right = _fact(symbols, decl, decl.right, typer, sink)
    if left is None or right is None:
        return None
    (left_fact, left_type), (right_fact, right_type) = left, right
    if left_type != right_type:
        sink.emit(
            codes.TYPE_MISMATCH,
            f"invariant `{decl.name.text}` compares `{left_fact.written}`, which holds `{left_type}` values, "
            f"with `{right_fact.written}`, which holds `{right_type}` values",
            decl.left.span,
            "compare two facts of one type: a cell with a cell of the same column type, a count with an `int`",
            (Label(decl.right.span, f"`{right_type}` here"),),
        )
        return None
    return model.SameInvariant(decl.name.text, decl.text.text, left_fact, right_fact, left_type, decl.span)


def _fact(
    symbols: SymbolTable, decl: ast.SameInvariant, fact: ast.Fact, typer: ValueTyper, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """One fact of a `same` invariant, bound, with the type of the value it holds."""
    match fact:
        case ast.CellFact():
            return _cell_fact(symbols, decl, fact, sink)
        case ast.FieldFact():
            return _field_fact(symbols, decl, fact, sink)
        case ast.CountFact():
            return _count_fact(symbols, decl, fact, typer, sink)
        case _:
            assert_never(fact)


def _cell_fact(
    symbols: SymbolTable, decl: ast.SameInvariant, fact: ast.CellFact, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`[CHART] (key=value, N) column COLUMN`: the chart, its column, its keys and their values."""
    chart = symbols.chart_named(fact.chart, sink, f"unknown chart `{fact.chart.text}` in invariant `{decl.name.text}`")
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
                    f"invariant `{decl.name.text}` reads roll {arg.value} of `{chart.address}`, which is not "
                    "read by a roll or a value",
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
                sink, arg.value.text, f"key `{key.id}`", arg.value.span, key.enum.spellings,
                f" (invariant `{decl.name.text}`)", slot=Slot.VALUE,
            )
            ok = False
            continue
        if any(k == key.id for k, _ in keys):
            declared_twice(sink, f"key `{key.id}`", arg.span, None, where=f"in invariant `{decl.name.text}`",
                           verb="given")
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
    symbols: SymbolTable, decl: ast.SameInvariant, fact: ast.FieldFact, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`ENUM.MEMBER.FIELD`: a record's field."""
    bound = _invariant_field(symbols, decl, fact.enum, fact.field, sink)
    if bound is None:
        return None
    enum, field = bound
    member = enum.member(fact.member.text)
    if member is None:
        not_a_value_of(
            sink, fact.member.text, f"`{enum.id}`", fact.member.span, enum.spellings,
            f" (invariant `{decl.name.text}`)", slot=Slot.NAME,
        )
        return None
    written = f"{enum.id}.{member.id}.{field.id}"
    return model.FieldFact(enum.id, member.id, field.id, written, fact.span), field.type


def _count_fact(
    symbols: SymbolTable, decl: ast.SameInvariant, fact: ast.CountFact, typer: ValueTyper, sink: Sink
) -> tuple[model.Fact, model.ColumnType] | None:
    """`count ENUM [where FIELD == VALUE]`: an `int`, the number of records."""
    counted = _counted(symbols, decl, fact.enum, fact.where, typer, sink)
    if counted is None:
        return None
    enum, field, typed = counted
    if field is None or fact.where is None:
        return model.CountFact(enum.id, None, None, f"count {enum.id}", fact.span), model.BuiltinType.INT
    value = fact.where.value
    written = f"count {enum.id} where {field.id} == " + (
        f'"{value.text}"' if value.kind is ast.ValueKind.TEXT else value.text
    )
    return model.CountFact(enum.id, field.id, typed, written, fact.span), model.BuiltinType.INT
