"""Invariants (`invariant NAME "text" { count ... }`): bind their enum, field and chart names and
type their values; whether the data obeys them is a check (C414, `compiler.checks.records`)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.resolve.symbols import SymbolTable
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
        case _:
            assert_never(decl)


def _count_invariant(
    symbols: SymbolTable, decl: ast.CountInvariant, typer: ValueTyper, sink: Sink
) -> model.Invariant | None:
    """`count ENUM [where FIELD == VALUE] is N`: bind the enum, the field and type the value."""
    if decl.where is None:  # `count ENUM is N`: every record
        enum = _invariant_enum(symbols, decl, decl.enum, sink)
        if enum is None:
            return None
        return model.CountInvariant(decl.name.text, decl.text.text, enum.id, None, None, decl.count, decl.span)
    bound = _invariant_field(symbols, decl, decl.enum, decl.where.field, sink)
    if bound is None:
        return None
    enum, field = bound
    typed = typer.typed(decl.where.value, field.type, f"invariant `{decl.name.text}`")
    if isinstance(typed, Bad):
        return None
    return model.CountInvariant(decl.name.text, decl.text.text, enum.id, field.id, typed, decl.count, decl.span)


def _column_sum_invariant(symbols: SymbolTable, decl: ast.ColumnSumInvariant, sink: Sink) -> model.Invariant | None:
    """`sum CHART part P per column reaches ENUM.FIELD`: bind the names; P must be a part of its cells."""
    bound = _invariant_field(symbols, decl, decl.enum, decl.field, sink)
    if bound is None:
        return None
    enum, field = bound
    chart = symbols.chart(decl.chart.text)
    if chart is None:
        unknown_name(
            sink,
            f"unknown chart `{decl.chart.text}` in invariant `{decl.name.text}`",
            decl.chart.text,
            decl.chart.span,
            [c.address for c in symbols.charts],
        )
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
        unknown_name(
            sink,
            f"unknown enum `{enum_name.text}` in invariant `{decl.name.text}`",
            enum_name.text,
            enum_name.span,
            symbols.enums,
        )
    return enum


def _invariant_field(
    symbols: SymbolTable, decl: ast.InvariantDecl, enum_name: ast.Name, field_name: ast.Name, sink: Sink
) -> tuple[model.EnumType, model.Field] | None:
    enum = _invariant_enum(symbols, decl, enum_name, sink)
    if enum is None:
        return None
    field = next((f for f in enum.fields if f.id == field_name.text), None)
    if field is None:
        unknown_name(
            sink,
            f"enum `{enum.id}` has no field `{field_name.text}`",
            field_name.text,
            field_name.span,
            [f.id for f in enum.fields],
        )
        return None
    return enum, field
