"""Cells and records that say nothing: empty cells of a table (C440), and record fields most of an
enum's records give but a few lack (C441). Each is one finding per column or field, listing every
place, so a table with many blanks is one diagnostic, not one per cell."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes

# a field that at most this share of records leaves out looks forgotten; one left out more often
# is optional in the print (IA2's `prestige`, given only for aircraft a pilot must earn)
MISSING_SHARE = 0.25


def check_empty_cells(chart: model.Chart, sink: Sink) -> None:
    """C440: cells of a text column written as an empty string (`""`), one finding per column."""
    for index, column in enumerate(chart.columns):
        rows = [
            row for row in chart.rows
            if index < len(row.values) and isinstance(row.values[index], str) and not str(row.values[index]).strip()
        ]
        if not rows:
            continue
        where = ", ".join(_row_name(row) for row in rows)
        count = f"{len(rows)} empty cells (rows {where})" if len(rows) > 1 else f"an empty cell (row {where})"
        sink.emit(
            codes.EMPTY_CELL,
            f"column `{column.id}` of chart `{chart.address}` has {count}",
            rows[0].span,
            "write what the print shows there: its text, or `-` where the row gives no result; an empty string "
            "prints as a blank a reader cannot tell from a lost cell",
            tuple(Label(row.span, "empty here too") for row in rows[1:]),
        )


def _row_name(row: model.Row) -> str:
    if row.range is not None:
        return f"`{row.range.printed}`"
    keys = " ".join(str(k) for k in row.keys if k is not None)
    return f"`{keys}`" if keys else f"on line {row.span.line}"


def check_record_fields(game: model.Game, sink: Sink) -> None:
    """C441: a field of an enum's records that most records write and a few (at most a quarter) do not
    write at all (a field written `-` says the print gives no value: not reported)."""
    for enum in game.enums.values():
        for field in enum.fields:
            lacking = [m for m in enum.members if field.id in m.unwritten]
            if not lacking or len(lacking) > MISSING_SHARE * len(enum.members):
                continue
            names = ", ".join(f"`{m.id}`" for m in lacking)
            given = len(enum.members) - len(lacking)
            sink.emit(
                codes.RECORD_FIELD_MISSING,
                f"field `{field.id}` of enum `{enum.id}` is given for {given} of {len(enum.members)} records "
                f"but not for {names}",
                lacking[0].span,
                f"give `{field.id}: ...` in {'each' if len(lacking) > 1 else 'the'} record's braces as the print "
                "states it, or `-` where the print gives none",
                tuple(Label(m.span, "no value here either") for m in lacking[1:]),
            )



