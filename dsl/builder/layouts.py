"""The builder's rules of a chart's table as printed: the row list, the grid form, the classic CRT
printed by roll, and availability grids."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Meta, Stmt, Terminals, constant, listing


class _NaturalMark:
    """`natural` after a row's range: the row reads the natural roll."""


_NATURAL = _NaturalMark()


class LayoutRules(Terminals):
    """Rows, grids and availability grids."""

    rows = listing("rows")

    def row(self, meta: Meta, *parts: ast.KeyValueText | Token | ast.ValueText | _NaturalMark | None) -> ast.RowDecl:
        """`key_value* [RANGE] [natural] ":" value ("," value)*`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        natural = any(p is _NATURAL for p in parts)
        return ast.RowDecl(keys, printed, values, self._span(meta), natural)

    natural_mark = constant(_NATURAL)

    def grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.GridRowDecl) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.GridRowDecl))
        decl = ast.GridDecl(key, columns, rows, self._span(meta))
        return Stmt("grid", decl, decl.span)

    def grid_row(self, meta: Meta, *parts: ast.ValueText | ast.CellText) -> ast.GridRowDecl:
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        cells = tuple(p for p in parts if isinstance(p, ast.CellText))
        return ast.GridRowDecl(values, cells, self._span(meta))

    def roll_grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.RollLineDecl) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        lines = tuple(p for p in parts if isinstance(p, ast.RollLineDecl))
        decl = ast.RollGridDecl(key, columns, lines, self._span(meta))
        return Stmt("roll_grid", decl, decl.span)

    def roll_line(self, meta: Meta, written: Token, *values: ast.ValueText) -> ast.RollLineDecl:
        return ast.RollLineDecl(self._range(written), values, self._span(meta))

    def cell(self, meta: Meta, written: Token) -> ast.CellText:
        return ast.CellText(self._range(written) if written.type == "RANGE" else None, self._span(meta))

    def availability(
        self, meta: Meta, row_key: ast.Name, col_key: ast.Name, *parts: ast.KeyValueText | ast.AvailRowDecl
    ) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.AvailRowDecl))
        decl = ast.AvailabilityDecl(row_key, col_key, columns, rows, self._span(meta))
        return Stmt("availability", decl, decl.span)

    def avail_row(self, meta: Meta, key: ast.KeyValueText, *cells: ast.AvailCell) -> ast.AvailRowDecl:
        return ast.AvailRowDecl(key, cells, self._span(meta))

    def avail_cell(self, meta: Meta, written: Token) -> ast.AvailCell:
        span = self._token_span(written)
        match written.type:
            case "RANGE":
                return ast.AvailCell(ast.AvailKind.RANGE, self._range(written), span)
            case "CHECK":
                return ast.AvailCell(ast.AvailKind.AUTO, None, span)
            case _:  # DASH
                return ast.AvailCell(ast.AvailKind.NONE, None, span)
