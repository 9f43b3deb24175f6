"""The classic CRT as printed, read into rows: `grid KEY [columns] by roll { RANGE: v | v ... }`.

Each line gives a roll range and one result per column; each cell becomes a row keyed by its
column, spanning the cell, so a finding about a cell (C430, C431) points at the cell itself. The
grid's key must be the chart's only key, and the chart must have one output column.
"""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import codes
from compiler.diagnostics.messages import cell_count_mismatch
from compiler.resolve.layouts import column_heads, unknown_grid_key
from compiler.resolve.rows import RowReader
from dsl import ast


def roll_grid_rows(
    reader: RowReader, decls: tuple[ast.RollGridDecl, ...], keys: list[model.Key], columns: list[model.Column]
) -> tuple[list[model.Row], bool]:
    """The rows of a chart's grid printed by roll (none without one), and whether every line and
    cell was read. A chart has at most one such grid."""
    if not decls:
        return [], True
    for extra in decls[1:]:
        reader.sink.emit(
            codes.REPEATED_STATEMENT, f"{reader.where} has more than one grid", extra.span, "split it into two charts"
        )
    return _read(reader, decls[0], keys, columns)


def _read(
    reader: RowReader, decl: ast.RollGridDecl, keys: list[model.Key], columns: list[model.Column]
) -> tuple[list[model.Row], bool]:
    key = next((k for k in keys if k.id == decl.key.text), None)
    if key is None:
        unknown_grid_key(reader, decl.key, keys, "declare it first, e.g. `key odds: crt_odds`")
        return [], False
    if len(keys) != 1 or len(columns) != 1:
        reader.sink.emit(
            codes.CHART_SHAPE,
            f"a grid by roll reads one key and one result column, but {reader.where} has {len(keys)} key(s) and "
            f"{len(columns)} column(s)",
            decl.span,
            "use the row form for charts with several keys or columns",
        )
        return [], False
    heads = column_heads(reader, key, decl.columns)
    if heads is None:
        return [], False
    rows: list[model.Row] = []
    complete = True
    for line in decl.lines:
        if len(line.values) != len(heads):
            help = "one result per column, separated by `|`; `-` for a blank cell"
            cell_count_mismatch(reader.sink, "this line", len(line.values), len(heads), line.span, help, decl.span)
            complete = False
            continue
        ok, rng = reader.row_range(line.range, line.span)
        if not ok or rng is None:
            complete = False
            continue
        for head, written in zip(heads, line.values, strict=True):
            values = reader.values((written,), columns, written.span)
            if values is None:
                complete = False
                continue
            cell = model.DieRange(rng.low, rng.high, rng.printed, written.span)
            rows.append(model.Row((model.MemberId(head),), cell, values, written.span))
    return rows, complete
