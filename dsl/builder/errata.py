"""The builder's rules of errata blocks: an errata document and its amendments to charts, DRMs,
records, notes, formulas and the game's calendar and periods."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Block, ChartId, Meta, Stmt, Terminals, chart_name, holding, listing, node, same, typed


class ErrataRules(Terminals):
    """`errata` blocks, their statements and amendments."""

    def errata(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.ErrataDecl:
        block = Block(stmts)  # a later `source`, `edition`, `date` or `order` replaces an earlier one
        return ast.ErrataDecl(
            name=name,
            title=title,
            source=block.last("source", ast.Text),
            edition=block.last("edition", ast.Text),
            date=block.last("date", ast.Text),
            order=block.last("order", int),
            overrides=block.every_item("overrides", ast.Name),
            notes=block.every("note", ast.Text),
            amends=block.every("amend", ast.AmendDecl),
            span=self._span(meta),
        )

    errata_edition = holding("edition")
    errata_date = holding("date")
    errata_order = holding("order", int)
    errata_overrides = listing("overrides")

    def amend(self, meta: Meta, chart: ChartId | ast.Name, *ops: ast.AmendOp) -> Stmt:
        decl = ast.AmendDecl(chart_name(chart), ops, self._span(meta))
        return Stmt("amend", decl, decl.span)

    op_add = node(ast.AddRow)
    op_remove = node(ast.RemoveRow)
    def op_change(
        self, meta: Meta, ref: ast.RowRef, column: ast.Name | ast.Text, value: ast.ValueText, because: ast.Text | None
    ) -> ast.ChangeCell:
        return ast.ChangeCell(ref, _column(column), value, because, self._span(meta))

    def op_move(
        self, meta: Meta, ref: ast.RowRef, column: ast.Name | ast.Text | None, new_range: Token,
        because: ast.Text | None,
    ) -> ast.MoveRow:
        named = None if column is None else _column(column)
        return ast.MoveRow(ref, self._range(new_range), because, self._span(meta), named)

    def op_add_drm(self, meta: Meta, drm: Stmt, because: ast.Text | None) -> ast.AddDrm:
        return ast.AddDrm(typed(drm.node, ast.DrmDecl), because, self._span(meta))

    op_remove_drm = node(ast.RemoveDrm)
    op_field = node(ast.ChangeField)
    op_result = node(ast.ChangeResult)

    def op_requires(self, meta: Meta, stmt: Stmt, because: ast.Text | None) -> ast.ChangeRequires:
        return ast.ChangeRequires(typed(stmt.node, ast.RequiresDecl), because, self._span(meta))

    def op_remove_requires(self, meta: Meta, because: ast.Text | None) -> ast.ChangeRequires:
        return ast.ChangeRequires(None, because, self._span(meta))

    def op_domain(self, meta: Meta, stmt: Stmt, because: ast.Text | None) -> ast.ChangeDomain:
        return ast.ChangeDomain(typed(stmt.node, ast.DomainDecl), because, self._span(meta))

    def op_remove_domain(self, meta: Meta, because: ast.Text | None) -> ast.ChangeDomain:
        return ast.ChangeDomain(None, because, self._span(meta))

    def op_calendar(self, meta: Meta, stmt: Stmt, because: ast.Text | None) -> ast.ChangeCalendar:
        first, last = typed(stmt.node, tuple)
        return ast.ChangeCalendar(first, last, because, self._span(meta))

    def op_change_period(self, meta: Meta, stmt: Stmt, because: ast.Text | None) -> ast.ChangePeriod:
        return ast.ChangePeriod(typed(stmt.node, ast.PeriodDecl), False, because, self._span(meta))

    def op_add_period(self, meta: Meta, stmt: Stmt, because: ast.Text | None) -> ast.ChangePeriod:
        return ast.ChangePeriod(typed(stmt.node, ast.PeriodDecl), True, because, self._span(meta))

    op_remove_period = node(ast.RemovePeriod)

    def op_footnote(self, meta: Meta, number: Token, text: ast.Text, because: ast.Text | None) -> ast.ChangeNote:
        return ast.ChangeNote(True, int(number), text, because, self._span(meta))

    def op_change_note(self, meta: Meta, number: Token, text: ast.Text, because: ast.Text | None) -> ast.ChangeNote:
        return ast.ChangeNote(False, int(number), text, because, self._span(meta))

    def op_drm_value(self, meta: Meta, name: ast.Name, value: Token, because: ast.Text | None) -> ast.ChangeDrm:
        return ast.ChangeDrm(name, int(value), None, because, self._span(meta))

    def op_drm_when(self, meta: Meta, name: ast.Name, when: ast.Cond, because: ast.Text | None) -> ast.ChangeDrm:
        return ast.ChangeDrm(name, None, when, because, self._span(meta))

    op_retitle = node(ast.Retitle)
    op_complete = node(ast.Complete)
    op_note = node(ast.AddNote)

    def row_ref(self, meta: Meta, *parts: ast.KeyValueText | Token | None) -> ast.RowRef:
        """`key_value* [RANGE]`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        return ast.RowRef(keys, printed)

    because = same


def _column(written: ast.Name | ast.Text) -> ast.Name:
    """An errata's column: a name, or a grid column's key value as printed (`"2:1"`)."""
    return written if isinstance(written, ast.Name) else ast.Name(written.text, written.span)
