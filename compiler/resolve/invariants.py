"""Invariants (`invariant NAME "text" { count ... }`): bind their enum, field and chart names and
type their values; whether the data obeys them is a check (C414 and, for `same`, C417;
`compiler.checks.records`)."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.diagnostics.messages import declared_twice
from compiler.resolve.facts import bind_fact, counted, enum_field
from compiler.resolve.symbols import SymbolTable
from compiler.resolve.values import ValueTyper
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
    """`count ENUM [where FIELD == VALUE and ...] is N`: bind the enum, the fields and type the values."""
    bound = counted(symbols, decl.enum, decl.where, f"invariant `{decl.name.text}`", typer, sink)
    if bound is None:
        return None
    enum, tests = bound
    return model.CountInvariant(decl.name.text, decl.text.text, enum.id, tests, decl.count, decl.span)


def _column_sum_invariant(symbols: SymbolTable, decl: ast.ColumnSumInvariant, sink: Sink) -> model.Invariant | None:
    """`sum CHART part P per column reaches ENUM.FIELD`: bind the names; P must be a part of its cells."""
    bound = enum_field(symbols, decl.enum, decl.field, f"invariant `{decl.name.text}`", sink)
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


def _same_invariant(
    symbols: SymbolTable, decl: ast.SameInvariant, typer: ValueTyper, sink: Sink
) -> model.Invariant | None:
    """`same FACT as FACT`: bind both facts; both must hold values of one type (C402)."""
    where = f"invariant `{decl.name.text}`"
    left = bind_fact(symbols, decl.left, where, typer, sink)
    right = bind_fact(symbols, decl.right, where, typer, sink)
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
    kept = decl.kept.text if decl.kept else None
    return model.SameInvariant(decl.name.text, decl.text.text, left_fact, right_fact, left_type, decl.span, kept)


