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
    """Bind an invariant's names: the enum and its field, and for `column_sum`, `symmetric` and
    `distances` the charts."""
    match decl:
        case ast.CountInvariant():
            return _count_invariant(symbols, decl, typer, sink)
        case ast.ColumnSumInvariant():
            return _column_sum_invariant(symbols, decl, sink)
        case ast.SameInvariant():
            return _same_invariant(symbols, decl, typer, sink)
        case ast.SymmetricInvariant():
            square = _square(symbols, decl.chart, decl, sink)
            if square is None:
                return None
            return model.SymmetricInvariant(decl.name.text, decl.text.text, square[0].address, square[1], decl.span)
        case ast.DistancesInvariant():
            return _distances_invariant(symbols, decl, typer, sink)
        case _:
            assert_never(decl)


def _square(
    symbols: SymbolTable, name: ast.Name, decl: ast.InvariantDecl, sink: Sink
) -> tuple[model.Chart, str] | None:
    """The chart `name` of a `symmetric` or `distances` invariant and its enum: keyed by one enum only,
    with one column per member of it, named by the members' ids (C402 otherwise)."""
    where = f"invariant `{decl.name.text}`"
    chart = symbols.chart_named(name, sink, f"unknown chart `{name.text}` in {where}")
    if chart is None:
        return None
    if len(chart.keys) != 1 or chart.dice is not None or chart.value_key is not None:
        sink.emit(
            codes.TYPE_MISMATCH,
            f"{where} reads `{chart.address}` as a relation of one enum's members, but it is "
            + (f"keyed by {len(chart.keys)} keys" if len(chart.keys) != 1 else "read by a roll or a value"),
            name.span,
            "key the chart by one enum, with a column per member (`key area`, `column north: ...`)",
        )
        return None
    enum = chart.keys[0].enum
    members = [m.id for m in enum.members]
    columns = [c.id for c in chart.columns]
    if sorted(columns) != sorted(members):
        missing = [m for m in members if m not in columns]
        extra = [c for c in columns if c not in members]
        said = "; ".join(
            part
            for part in (
                f"no column for {', '.join(f'`{m}`' for m in missing)}" if missing else "",
                f"columns {', '.join(f'`{c}`' for c in extra)} name no member" if extra else "",
            )
            if part
        )
        sink.emit(
            codes.TYPE_MISMATCH,
            f"{where}: the columns of `{chart.address}` are not the members of `{enum.id}`: {said}",
            name.span,
            f"give `{chart.address}` one column per member of `{enum.id}`, named by its id",
        )
        return None
    return chart, enum.id


def _distances_invariant(
    symbols: SymbolTable, decl: ast.DistancesInvariant, typer: ValueTyper, sink: Sink
) -> model.Invariant | None:
    """`distances CHART over RELATION is VALUE`: both square over one enum; CHART's cells `int`,
    RELATION's of one type, which types VALUE."""
    chart = _square(symbols, decl.chart, decl, sink)
    relation = _square(symbols, decl.relation, decl, sink)
    if chart is None or relation is None:
        return None
    where = f"invariant `{decl.name.text}`"
    step_type = relation[0].columns[0].type
    wrong = [
        (name, c, want)
        for name, (table, _), want in ((decl.chart, chart, model.BuiltinType.INT), (decl.relation, relation, step_type))
        for c in table.columns
        if c.type != want
    ]
    if wrong:
        name, column, want = wrong[0]
        sink.emit(
            codes.TYPE_MISMATCH,
            f"{where}: column `{column.id}` of `{name.text}` holds `{column.type}` values, not `{want}`",
            name.span,
            "the distances are `int` cells; the relation's cells are of one type (`yes_no`: `yes` where adjacent)",
        )
        return None
    step = typer.typed(decl.step, step_type, where)
    if isinstance(step, Bad):
        return None
    if chart[1] != relation[1]:
        sink.emit(
            codes.TYPE_MISMATCH,
            f"{where}: `{chart[0].address}` is keyed by `{chart[1]}`, `{relation[0].address}` by `{relation[1]}`",
            decl.relation.span,
            "key both charts by the same enum",
        )
        return None
    return model.DistancesInvariant(
        decl.name.text, decl.text.text, chart[0].address, relation[0].address, step, decl.step.text, chart[1],
        decl.span,
    )


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


