"""The builder's rules of invariants: counts and column sums the rules state, and facts a rulebook
prints twice (`same FACT as FACT`)."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import ChartId, Meta, Terminals, chart_name, cover, kept, listing, node


class InvariantRules(Terminals):
    """`invariant` declarations and the facts they compare."""

    def inv_count(
        self,
        meta: Meta,
        name: ast.Name,
        text: ast.Text,
        enum: ast.Name,
        field: ast.Name,
        value: ast.ValueText,
        count: Token,
    ) -> ast.CountInvariant:
        where = ast.FieldEquals(field, value, cover(field.span, value.span))
        return ast.CountInvariant(name, text, enum, where, int(count), self._span(meta))

    def inv_count_all(
        self, meta: Meta, name: ast.Name, text: ast.Text, enum: ast.Name, count: Token
    ) -> ast.CountInvariant:
        return ast.CountInvariant(name, text, enum, None, int(count), self._span(meta))

    inv_column_sum = node(ast.ColumnSumInvariant, kept, kept, chart_name, int, kept, kept)
    inv_same = node(ast.SameInvariant)

    def fact_cell(
        self,
        meta: Meta,
        chart: ChartId | ast.Name,
        select: tuple[ast.FactKey | ast.FactRoll, ...] | None,
        column: ast.Name,
    ) -> ast.CellFact:
        return ast.CellFact(chart_name(chart), select or (), column, self._span(meta))

    fact_field = node(ast.FieldFact)

    def fact_count(
        self, meta: Meta, enum: ast.Name, field: ast.Name | None, value: ast.ValueText | None
    ) -> ast.CountFact:
        where = ast.FieldEquals(field, value, cover(field.span, value.span)) if field and value else None
        return ast.CountFact(enum, where, self._span(meta))

    fact_select = listing()
    fact_key = node(ast.FactKey)
    fact_roll = node(ast.FactRoll, int)
