"""The builder's rules of the rules the book states without a table: `limit` blocks and their cases,
`conflict` blocks and their places, `ambiguous` blocks and their readings."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Block, Meta, Stmt, Terminals, declaring, holding, node


class RuleRules(Terminals):
    """`limit`, `conflict`, `ambiguous` and `kept` declarations."""

    def limit(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.LimitDecl:
        block = Block(stmts)
        rule = block.one("rule", ast.Text)
        counts = block.one("counts", ast.Text)
        return ast.LimitDecl(
            name,
            title,
            rule,
            block.every("note", ast.Text),
            counts,
            block.every("case", ast.LimitCaseDecl),
            self._span(meta),
            block.repeated,
        )

    limit_counts = holding("counts")
    limit_case = declaring("case", ast.LimitCaseDecl)

    def bound_at_most(self, meta: Meta, n: Token) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.AT_MOST, None, int(n), self._span(meta))

    def bound_at_least(self, meta: Meta, n: Token) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.AT_LEAST, int(n), None, self._span(meta))

    def bound_exactly(self, meta: Meta, n: Token) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.EXACTLY, int(n), int(n), self._span(meta))

    def bound_between(self, meta: Meta, low: Token, high: Token) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.BETWEEN, int(low), int(high), self._span(meta))

    def bound_unlimited(self, meta: Meta) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.UNLIMITED, None, None, self._span(meta))

    def bound_forbidden(self, meta: Meta) -> ast.BoundDecl:
        return ast.BoundDecl(ast.BoundKind.FORBIDDEN, 0, 0, self._span(meta))

    # ---- the book's inconsistencies

    def conflict(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.ConflictDecl:
        block = Block(stmts)
        rule = block.one("rule", ast.Text)
        kept = block.one("kept", ast.Text)
        return ast.ConflictDecl(
            name,
            title,
            rule,
            block.every("note", ast.Text),
            block.every("place", ast.PlaceDecl),
            kept,
            self._span(meta),
            block.repeated,
        )

    conflict_place = declaring("place", ast.PlaceDecl)

    def place_value(self, meta: Meta, value: ast.Fact | ast.ValueText) -> ast.Fact | ast.ValueText:
        return value

    def ambiguous(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.AmbiguousDecl:
        block = Block(stmts)
        rule = block.one("rule", ast.Text)
        printed = block.one("printed", ast.Text)
        kept = block.one("kept", ast.Text)
        return ast.AmbiguousDecl(
            name,
            title,
            rule,
            block.every("note", ast.Text),
            printed,
            block.every("reading", ast.ReadingDecl),
            kept,
            self._span(meta),
            block.repeated,
        )

    printed = holding("printed")

    def reading(self, meta: Meta, label: ast.Text, *facts: ast.ReadingFact) -> Stmt:
        decl = ast.ReadingDecl(label, facts, self._span(meta))
        return Stmt("reading", decl, decl.span)

    reading_fact = node(ast.ReadingFact)

    def kept_finding(
        self, meta: Meta, code: ast.Name, subject: ast.Name, reason: ast.Text
    ) -> ast.KeptFindingDecl:
        return ast.KeptFindingDecl(code, subject, reason, self._span(meta))

    def kept_months(self, meta: Meta, months: ast.KeyValueText) -> ast.Name:
        return ast.Name(months.text, months.span)

    def kept_record(self, meta: Meta, enum: ast.Name, member: ast.Name) -> ast.Name:
        return ast.Name(f"{enum.text}.{member.text}", self._span(meta))
