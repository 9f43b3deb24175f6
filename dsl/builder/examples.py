"""The builder's rules of worked examples: a rulebook's lookup, its inputs as written and what the
book states (`expect ...`)."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import (
    Block,
    ChartId,
    Meta,
    Read,
    Rule,
    Stmt,
    Terminals,
    chart_name,
    declaring,
    holding,
    kept,
    keyword,
    listing,
    node,
)


def _word(written: ast.Name | ast.Text | Token) -> str:
    """An example's key or context value as written (a quoted label without its quotes)."""
    return written.text if isinstance(written, ast.Name | ast.Text) else str(written)


def _expecting(kind: ast.ExpectKind, read: Read | None = None) -> Rule:
    """An `expect` line of `kind` stating the text its one child reads as with `read` (`expect row
    3-6`), or stating no text (`expect no row`)."""
    if read is None:

        def rule(self: Terminals, meta: Meta) -> Stmt:
            span = self._span(meta)
            return Stmt("expect", ast.ExpectDecl(kind, span), span)

        return rule

    def rule_read(self: Terminals, meta: Meta, child: object) -> Stmt:
        span = self._span(meta)
        return Stmt("expect", ast.ExpectDecl(kind, span, text=read(child)), span)

    return rule_read


class ExampleRules(Terminals):
    """`example` blocks: their inputs and what they expect."""

    def example(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.ExampleDecl:
        block = Block(stmts)
        chart = block.one("chart", ast.Name)
        formula = block.one("formula", ast.Name)
        rolls = block.one_group("roll", ast.Name) or ()
        attack = block.one("attack", int)
        defense = block.one("defense", int)
        shift = block.one("shift", int)
        follow = block.one("follow", bool)
        return ast.ExampleDecl(
            name,
            title,
            block.one("rule", ast.Text),
            block.every("note", ast.Text),
            chart,
            formula,
            block.every("key", ast.ExampleInput),
            rolls,
            block.every_item("when", ast.Name),
            block.every("set", ast.ExampleInput),
            sum(block.every("drm", int)),
            attack,
            defense,
            shift,
            bool(follow),
            block.every("expect", ast.ExpectDecl),
            block.one("contradicts", ast.Text),
            self._span(meta),
            block.repeated,
            bool(block.one("aid", bool)),
        )

    # ---- the inputs, as `chartc lookup` takes them

    example_chart = holding("chart", chart_name)
    example_formula = holding("formula")
    example_key = declaring("key", ast.ExampleInput, kept, _word)
    example_set = declaring("set", ast.ExampleInput, kept, _word)

    def example_roll(self, meta: Meta, *rolls: Token) -> Stmt:
        return Stmt("roll", tuple(ast.Name(str(r), self._token_span(r)) for r in rolls), self._span(meta))

    example_when = listing("when")
    example_drm = holding("drm", int)
    example_attack = holding("attack", int)
    example_defense = holding("defense", int)
    example_shift = holding("shift", int)
    example_follow = keyword("follow", True)
    example_aid = keyword("aid", True)
    example_contradicts = holding("contradicts")

    # ---- what the book states

    def expect_cell(self, meta: Meta, column: ast.Name, value: ast.ValueText) -> Stmt:
        decl = ast.ExpectDecl(ast.ExpectKind.CELL, self._span(meta), column, value, value.text)
        return Stmt("expect", decl, decl.span)

    expect_chart = node(ChartId)  # `[R4]`, a cell's value
    expect_row = _expecting(ast.ExpectKind.ROW, str)
    expect_modified = _expecting(ast.ExpectKind.MODIFIED, str)
    expect_drm = _expecting(ast.ExpectKind.DRM, str)
    expect_odds = _expecting(ast.ExpectKind.ODDS, lambda label: label.text)
    expect_no_row = _expecting(ast.ExpectKind.NO_ROW)
    expect_number = _expecting(ast.ExpectKind.NUMBER, str)
