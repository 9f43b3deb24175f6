"""The builder's rules of errata documents and the amendments they make to a chart."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Block, ChartId, Meta, Stmt, Terminals, chart_name, holding, listing, node, same


class ErrataRules(Terminals):
    """`errata` blocks, their statements and amendments."""

    def errata(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.ErrataDecl:
        block = Block(stmts)
        order = block.last("order", int)
        overrides = block.every_item("overrides", ast.Name)
        return ast.ErrataDecl(
            name,
            title,
            block.last("source", ast.Text),
            block.last("date", ast.Text),
            order,
            overrides,
            block.every("note", ast.Text),
            block.every("amend", ast.AmendDecl),
            self._span(meta),
        )

    errata_date = holding("date")
    errata_order = holding("order", int)
    errata_overrides = listing("overrides")

    def amend(self, meta: Meta, chart: ChartId | ast.Name, *ops: ast.AmendOp) -> Stmt:
        decl = ast.AmendDecl(chart_name(chart), ops, self._span(meta))
        return Stmt("amend", decl, decl.span)

    op_add = node(ast.AddRow)
    op_remove = node(ast.RemoveRow)
    op_change = node(ast.ChangeCell)

    def op_move(self, meta: Meta, ref: ast.RowRef, new_range: Token, because: ast.Text | None) -> ast.MoveRow:
        return ast.MoveRow(ref, self._range(new_range), because, self._span(meta))

    op_retitle = node(ast.Retitle)
    op_complete = node(ast.Complete)
    op_note = node(ast.AddNote)

    def row_ref(self, meta: Meta, *parts: ast.KeyValueText | Token | None) -> ast.RowRef:
        """`key_value* [RANGE]`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        return ast.RowRef(keys, printed)

    because = same
