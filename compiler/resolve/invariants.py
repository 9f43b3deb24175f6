"""Invariants (`invariant NAME "text" { count ... }`): bind their enum, field and chart names and
type their values; whether the data obeys them is a check (C414, `compiler.checks.records`)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Sink, codes, did_you_mean
from compiler.diagnostics.messages import declared_twice
from compiler.resolve.symbols import SymbolTable
from compiler.resolve.values import Bad, ValueTyper
from dsl import ast


def invariants(symbols: SymbolTable, decls: list[ast.InvariantDecl], typer: ValueTyper, sink: Sink) -> list[model.Invariant]:
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
    if decl.kind == "count" and len(decl.args) == 1:  # `count ENUM is N`: every record
        enum_name = decl.args[0]
        enum = symbols.enums.get(enum_name.text)
        if enum is None:
            sink.emit(codes.UNKNOWN_NAME, f"unknown enum `{enum_name.text}` in invariant `{decl.name.text}`", enum_name.span, did_you_mean(enum_name.text, symbols.enums))
            return None
        return model.CountInvariant(decl.name.text, decl.text.text, enum.id, None, None, decl.number, decl.span)
    enum_name, field_name = (decl.args[0], decl.args[1]) if decl.kind == "count" else (decl.args[1], decl.args[2])
    enum = symbols.enums.get(enum_name.text)
    if enum is None:
        sink.emit(codes.UNKNOWN_NAME, f"unknown enum `{enum_name.text}` in invariant `{decl.name.text}`", enum_name.span, did_you_mean(enum_name.text, symbols.enums))
        return None
    field = next((f for f in enum.fields if f.id == field_name.text), None)
    if field is None:
        sink.emit(codes.UNKNOWN_NAME, f"enum `{enum.id}` has no field `{field_name.text}`", field_name.span, did_you_mean(field_name.text, [f.id for f in enum.fields]))
        return None
    if decl.kind == "column_sum":
        chart_name = decl.args[0]
        chart = symbols.chart(chart_name.text)
        if chart is None:
            sink.emit(codes.UNKNOWN_NAME, f"unknown chart `{chart_name.text}` in invariant `{decl.name.text}`", chart_name.span, did_you_mean(chart_name.text, [c.address for c in symbols.charts]))
            return None
        parts = {model.SLASHED_PARTS[c.type] for c in chart.columns if c.type in model.SLASHED_PARTS}
        if not 1 <= decl.number <= (max(parts) if parts else 0):
            sink.emit(
                codes.TYPE_MISMATCH,
                f"invariant `{decl.name.text}` sums part {decl.number}, but the cells of `{chart.address}` have "
                + (f"parts 1 to {max(parts)}" if parts else "no pair or triple columns"),
                decl.span,
            )
            return None
        return model.ColumnSumInvariant(decl.name.text, decl.text.text, enum.id, field.id, decl.number, chart.address, decl.span)
    assert decl.value is not None
    typed = typer.typed(decl.value, field.type, f"invariant `{decl.name.text}`")
    if isinstance(typed, Bad):
        return None
    return model.CountInvariant(decl.name.text, decl.text.text, enum.id, field.id, typed, decl.number, decl.span)
