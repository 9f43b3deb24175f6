"""Printed layouts read into rows: grids (results down, key values across) and availability grids
(IA2 R2/R3: items down, months across; each cell `✓`, a die range or `-`)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, codes
from compiler.diagnostics.messages import cell_count_mismatch
from compiler.resolve.rows import RowReader
from compiler.resolve.symbols import unknown
from dsl import ast


def unknown_grid_key(reader: RowReader, key: ast.Name, keys: list[model.Key], fallback: str | None = None) -> None:
    """C201: a grid's key that is not a key of its chart."""
    unknown(reader.sink, f"grid key `{key.text}` is not a key of {reader.where}", key, [k.id for k in keys], fallback)


def grid(
    reader: RowReader, decl: ast.GridDecl, keys: list[model.Key], columns: list[model.Column]
) -> tuple[model.GridLayout | None, list[model.Key]]:
    key = next((k for k in keys if k.id == decl.key.text), None)
    if key is None:
        if reader.decl.keys:
            unknown_grid_key(reader, decl.key, keys)
            return None, keys
        enum = reader.enum(decl.key, "grid key")
        if enum is None:
            return None, keys
        key = model.Key(decl.key.text, enum, decl.key.span)
        keys = [*keys, key]
    if len(keys) != 1:
        reader.sink.emit(
            codes.CHART_SHAPE,
            f"a grid reads one key, but {reader.where} has {len(keys)}",
            decl.span,
            "use the row form for charts with several keys",
        )
        return None, keys
    col_ids = column_heads(reader, key, decl.columns)
    if col_ids is None:
        return None, keys
    grid_rows: list[model.GridRow] = []
    for gr in decl.rows:
        if len(gr.cells) != len(col_ids):
            help = "one cell per column, separated by `|`; `-` where the result cannot occur"
            cell_count_mismatch(reader.sink, "this grid row", len(gr.cells), len(col_ids), gr.span, help, decl.span)
            continue
        values = reader.values(gr.values, columns, gr.span)
        cells: list[model.DieRange | None] = []
        for cell in gr.cells:
            if cell.range is None:
                cells.append(None)
                continue
            ok, rng = reader.row_range(cell.range, cell.span)
            cells.append(rng if ok else None)
        if values is not None:
            grid_rows.append(model.GridRow(values, tuple(cells), gr.span))
    return model.GridLayout(key.id, tuple(col_ids), tuple(grid_rows)), keys


def column_heads(reader: RowReader, key: model.Key, heads: tuple[ast.KeyValueText, ...]) -> list[str] | None:
    """The key values heading a grid's columns: one value each, no repeats, months in order."""
    col_ids: list[str] = []
    for kv in heads:
        good, member = reader.key_member(key, kv)
        if not good:
            return None
        if not isinstance(member, str):
            reader.sink.emit(
                codes.ROW_SHAPE, f"`{kv.text}` cannot head a grid column", kv.span, "name a single key value per column"
            )
            return None
        if member in col_ids:
            reader.sink.emit(codes.COLUMN_ORDER, f"column `{kv.text}` appears twice in {reader.where}", kv.span)
            return None
        if key.enum.synthetic and col_ids and _place(key.enum, member) < _place(key.enum, col_ids[-1]):
            # the calendar's months or the turn track's turns, in the order they are played
            track = "calendar" if key.enum.id == "month" else "track"
            reader.sink.emit(
                codes.COLUMN_ORDER,
                f"{key.enum.id} column {member} comes after {col_ids[-1]} in {reader.where}",
                kv.span,
                f"print {key.enum.id} columns in {track} order",
            )
            return None
        col_ids.append(member)
    return col_ids


def _place(enum: model.EnumType, member: str) -> int:
    """A month's or turn's place in its calendar or track (the synthetic enum lists them in order)."""
    return next(i for i, m in enumerate(enum.members) if m.id == member)


def availability(
    reader: RowReader, decl: ast.AvailabilityDecl, keys: list[model.Key]
) -> tuple[model.AvailabilityLayout | None, list[model.Key], list[model.Row], bool]:
    """Read an availability grid (IA2 R2/R3) into its layout and the rows it implies.

    Each cell becomes rows keyed by (item, column): `✓` -> "automatic" on any roll; a range ->
    "available" on it and "not available" on every other roll; `-` -> "not available".
    Returns (layout, keys, rows, broken).
    """
    if reader.dice is None:
        if reader.decl.roll is None:
            reader.sink.emit(
                codes.CHART_SHAPE,
                f"an availability grid needs a `roll` in {reader.where}",
                decl.span,
                "add e.g. `roll 1d6`",
            )
        return None, keys, [], True
    item_enum = reader.enum(decl.row_key, "availability item type")
    col_enum = reader.enum(decl.col_key, "availability column key")
    if item_enum is None or col_enum is None:
        return None, keys, [], True
    col_key = model.Key(decl.col_key.text, col_enum, decl.col_key.span)
    columns = column_heads(reader, col_key, decl.columns)
    if columns is None:
        return None, keys, [], True
    broken = False
    layout_rows: list[tuple[str, tuple[model.AvailabilityCell, ...]]] = []
    short_rows: list[model.ShortRow] = []
    rows: list[model.Row] = []
    item_key = model.Key(decl.row_key.text, item_enum, decl.row_key.span)
    for ar in decl.rows:
        good, item = reader.key_member(item_key, ar.key)
        if not good or not isinstance(item, str):
            broken = True
            continue
        cells = list(ar.cells)
        if len(cells) != len(columns):
            if reader.decl.partial and len(cells) < len(columns):
                short_rows.append(model.ShortRow(item, ar.key.text, ar.span))
            else:
                reader.sink.emit(
                    codes.GRID_SHAPE,
                    f"availability row `{ar.key.text}` has {len(cells)} cell{'s' if len(cells) != 1 else ''} but "
                    f"the grid has {len(columns)} column{'s' if len(columns) != 1 else ''}",
                    ar.span,
                    "one cell per column, separated by `|`: `✓`, a die range, or `-`",
                    (Label(decl.span, "grid declared here"),),
                )
                broken = True
                continue
        layout_cells: list[model.AvailabilityCell] = []
        for column, cell in zip(columns, cells, strict=False):
            layout_cells.append(_availability_cell(reader, item, column, cell, rows))
        layout_rows.append((item, tuple(layout_cells)))
    listed_items = model.EnumType(
        item_enum.id,
        item_enum.label,
        tuple(m for m in item_enum.members if m.id in {i for i, _ in layout_rows}),
        item_enum.span,
        item_enum.fields,
    )
    listed_cols = model.EnumType(
        col_enum.id,
        col_enum.label,
        tuple(m for m in col_enum.members if m.id in columns),
        col_enum.span,
        col_enum.fields,
        col_enum.synthetic,
    )
    keys = [
        *keys,
        model.Key(item_key.id, listed_items, item_key.span),
        model.Key(col_key.id, listed_cols, col_key.span),
    ]
    layout = model.AvailabilityLayout(item_key.id, col_key.id, tuple(columns), tuple(layout_rows), tuple(short_rows))
    return layout, keys, rows, broken


def _availability_cell(
    reader: RowReader, item: str, column: str, cell: ast.AvailCell, rows: list[model.Row]
) -> model.AvailabilityCell:
    span = cell.span
    everything = model.DieRange(None, None, "any", span)
    keys = (model.MemberId(item), model.MemberId(column))
    if cell.kind is ast.AvailKind.NONE:
        rows.append(model.Row(keys, everything, (model.Text(model.NOT_AVAILABLE),), span))
        return None
    if cell.kind is ast.AvailKind.AUTO:
        rows.append(model.Row(keys, everything, (model.Text(model.AUTOMATIC),), span))
        return model.AvailabilityMark.AUTOMATIC
    assert cell.range is not None
    ok, rng = reader.row_range(cell.range, span)
    if not ok or rng is None:
        return None
    rows.append(model.Row(keys, rng, (model.Text(model.AVAILABLE),), span))
    low, high = reader.table_bounds()
    not_available = (model.Text(model.NOT_AVAILABLE),)
    if rng.low is not None and rng.low > low:
        rows.append(model.Row(keys, model.DieRange(None, rng.low - 1, f"{rng.low - 1}-", span), not_available, span))
    if rng.high is not None and rng.high < high:
        rows.append(model.Row(keys, model.DieRange(rng.high + 1, None, f"{rng.high + 1}+", span), not_available, span))
    return rng


def grid_rows(grid: model.GridLayout | None, keys: list[model.Key]) -> list[model.Row]:
    """Expand a grid into rows: one per non-empty cell, keyed by the cell's column."""
    if grid is None:
        return []
    rows = []
    for gr in grid.rows:
        for member, cell in zip(grid.heads, gr.cells, strict=False):
            if cell is not None:
                rows.append(model.Row((model.MemberId(member),), cell, gr.values, cell.span))
    return rows
