"""The builder's rules of the game header (title, source, calendar, periods), enums and their
records, and context variables."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token

from dsl import ast
from dsl.builder.base import Block, Meta, Stmt, Terminals, holding, keyword, listing, node, same


@dataclass(frozen=True)
class _ResultCodes:
    """`codes` inside an enum, before the enum gathers its items."""

    span: ast.Span


class HeaderRules(Terminals):
    """`game`, `enum` and `context` declarations."""

    def game(self, meta: Meta, name: ast.Name, *stmts: Stmt) -> ast.GameDecl:
        block = Block(stmts)
        title = block.one("title", ast.Text)
        source = block.one("source", ast.Text)
        months = block.one_group("calendar", ast.MonthText)
        calendar = (months[0], months[1]) if months else None
        aid_chance = block.one("aid_chance", bool)
        return ast.GameDecl(
            name,
            title,
            source,
            calendar,
            block.every("period", ast.PeriodDecl),
            self._span(meta),
            block.repeated,
            aid_chance=aid_chance,
        )

    # `aid chance on|off`: in a game header, for every chart; in a chart, for that chart
    aid_chance_on = keyword("aid_chance", True)
    aid_chance_off = keyword("aid_chance", False)
    title = holding("title")
    source = holding("source")

    def calendar(self, meta: Meta, first: Token, last: Token) -> Stmt:
        return Stmt("calendar", (self._month(first), self._month(last)), self._span(meta))

    def period(self, meta: Meta, name: ast.Name, label: ast.Text, first: Token, last: Token) -> Stmt:
        """`to` a bound, or `+` for open-ended; a bare year reads as its January or December."""
        end = None if last.type == "PLUS" else self._period_month(last, start=False)
        decl = ast.PeriodDecl(name, label, self._period_month(first, start=True), end, self._span(meta))
        return Stmt("period", decl, decl.span)

    period_bound = same

    def _period_month(self, tok: Token, start: bool) -> ast.MonthText:
        if tok.type == "INT":
            return ast.MonthText(f"{int(tok):04d}-{'01' if start else '12'}", self._token_span(tok))
        return self._month(tok)

    # ---- enums and context variables

    def enum(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        *items: ast.MemberDecl | tuple[ast.FieldDecl, ...] | _ResultCodes | ast.ResultOrder,
    ) -> ast.EnumDecl:
        members = tuple(i for i in items if isinstance(i, ast.MemberDecl))
        field_decls = tuple(f for i in items if isinstance(i, tuple) for f in i)
        codes = next((i.span for i in items if isinstance(i, _ResultCodes)), None)
        order = next((i for i in items if isinstance(i, ast.ResultOrder)), None)
        return ast.EnumDecl(name, label, field_decls, members, self._span(meta), codes, order)

    result_codes = node(_ResultCodes)

    def result_order(self, meta: Meta, first: ast.Name, *rest: Token | ast.Name) -> ast.ResultOrder:
        ops = tuple(ast.Text(str(t), self._token_span(t)) for t in rest if isinstance(t, Token))
        names = (first, *(n for n in rest if isinstance(n, ast.Name)))
        return ast.ResultOrder(names, ops, self._span(meta))

    fields = listing()
    field_decl = node(ast.FieldDecl)

    def member(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        fields: tuple[ast.FieldValue, ...] | None,
        aliases: tuple[ast.Text, ...] | None,
    ) -> ast.MemberDecl:
        return ast.MemberDecl(name, label, fields or (), aliases or (), self._span(meta))

    member_body = listing()
    field_value = node(ast.FieldValue)
    aliases = listing()

    def context(
        self, meta: Meta, name: ast.Name, type_name: ast.Name, label: ast.Text | None, domain: Token | None
    ) -> ast.ContextDecl:
        return ast.ContextDecl(name, type_name, label, self._span(meta), self._range(domain) if domain else None)

