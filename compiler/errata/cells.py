"""Errata on the cells of a printed grid: a result of a CRT printed by roll (`grid odds [...] by
roll`: `change 3-4 column "2:1" to DR`) and a range of a grid printed with results down (`grid
odds [...]`: `move DE column "3:1" to 5-6`).

A cell's model row carries the span of the cell as written; an amended cell carries the span of
the errata's value, so `Provenance.printed_span` maps it back to the printed cell, which `annotate`
reads the printed value from and C602 (two errata change the same cell) keys on.
"""

from __future__ import annotations

from dataclasses import replace

from compiler.diagnostics import Slot, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.errata.provenance import ErrataApplier, Provenance
from dsl import ast


def change_roll_cell(
    applier: ErrataApplier, errata_id: str, decl: ast.ChartDecl, op: ast.ChangeCell, prov: Provenance, where: str
) -> ast.ChartDecl:
    """`change ROLL column HEAD to VALUE` in the chart's grid printed by roll."""
    grid = decl.roll_grids[0]
    col = _column(applier, errata_id, grid.columns, op.column, where)
    if col is None:
        return decl
    shown = op.ref.range.text if op.ref.range is not None else ""
    lines = [i for i, line in enumerate(grid.lines) if op.ref.range is not None and line.range.text == shown]
    if op.ref.keys or len(lines) != 1:
        message = f"errata `{errata_id}` names line `{shown or '(no roll)'}` of the grid of {where}, which has none"
        hint = "name the line by its printed roll, e.g. `3-4`"
        applier.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, hint)
        return decl
    line = grid.lines[lines[0]]
    if col >= len(line.values):
        return decl  # the line itself is malformed; its own diagnostic says so
    old = line.values[col]
    if (old.kind, old.text) == (op.value.kind, op.value.text):
        message = f"errata `{errata_id}` changes a cell of {where} to the value it already has (`{old.text}`)"
        applier.sink.emit(codes.ERRATA_NO_EFFECT, message, op.span)
        return decl
    printed = prov.printed_span.get(old.span, old.span)
    applier.claim(errata_id, decl, printed, op.column.text, op.span)
    prov.printed_span[op.value.span] = printed
    applier.record(prov, errata_id, op.value.span, op.because)
    values = (*line.values[:col], op.value, *line.values[col + 1 :])
    new_lines = (*grid.lines[: lines[0]], replace(line, values=values), *grid.lines[lines[0] + 1 :])
    return replace(decl, roll_grids=(replace(grid, lines=new_lines), *decl.roll_grids[1:]))


def move_grid_cell(
    applier: ErrataApplier, errata_id: str, decl: ast.ChartDecl, op: ast.MoveRow, prov: Provenance, where: str
) -> ast.ChartDecl:
    """`move RESULT column HEAD to RANGE` in the chart's grid printed with results down."""
    assert op.column is not None
    grid = decl.grids[0]
    col = _column(applier, errata_id, grid.columns, op.column, where)
    if col is None:
        return decl
    wanted = [k.text for k in op.ref.keys] + ([op.ref.range.text] if op.ref.range is not None else [])
    rows = [i for i, r in enumerate(grid.rows) if [v.text for v in r.values] == wanted]
    if len(rows) != 1:
        message = f"errata `{errata_id}` names result `{' '.join(wanted)}` of the grid of {where}, which has none"
        hint = "name the row by its printed result, e.g. `DE`"
        applier.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, hint)
        return decl
    row = grid.rows[rows[0]]
    if col >= len(row.cells):
        return decl  # the row itself is malformed; its own diagnostic says so
    old = row.cells[col]
    if old.range is not None and old.range.text == op.new_range.text:
        message = f"errata `{errata_id}` moves a cell of {where} to the range it already has (`{old.range.text}`)"
        applier.sink.emit(codes.ERRATA_NO_EFFECT, message, op.span)
        return decl
    before = old.range.span if old.range is not None else old.span
    printed = prov.printed_span.get(before, before)
    applier.claim(errata_id, decl, printed, op.column.text, op.span)
    prov.printed_span[op.new_range.span] = printed
    applier.record(prov, errata_id, op.new_range.span, op.because)
    cells = (*row.cells[:col], ast.CellText(op.new_range, op.new_range.span), *row.cells[col + 1 :])
    new_rows = (*grid.rows[: rows[0]], replace(row, cells=cells), *grid.rows[rows[0] + 1 :])
    return replace(decl, grids=(replace(grid, rows=new_rows), *decl.grids[1:]))


def _column(
    applier: ErrataApplier, errata_id: str, heads: tuple[ast.KeyValueText, ...], column: ast.Name, where: str
) -> int | None:
    """The index of the grid column headed `column` (C601 when there is none)."""
    names = [h.text for h in heads]
    if column.text in names:
        return names.index(column.text)
    hint, close = suggestion(column.text, names)
    message = f"errata `{errata_id}` changes column `{column.text}`, which the grid of {where} does not have"
    fix = fixes.rename(column.span, column.text, close, Slot.NAME, names)
    applier.sink.emit(codes.ERRATA_TARGET_MISSING, message, column.span, hint, fix=fix)
    return None
