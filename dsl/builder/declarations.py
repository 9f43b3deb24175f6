"""The builder's rules of the declarations beside charts: the game header (title, source,
calendar, periods), enums and their records, context variables, odds rules, invariants, worked
examples, formulas (errata: `dsl.builder.errata`)."""

from __future__ import annotations

from dataclasses import dataclass

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
    constant,
    cover,
    declaring,
    holding,
    kept,
    keyword,
    listing,
    node,
    same,
    typed,
)


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
        turns = block.one("turns", ast.TurnsDecl)
        return ast.GameDecl(
            name,
            title,
            source,
            calendar,
            block.every("period", ast.PeriodDecl),
            self._span(meta),
            block.repeated,
            aid_chance=aid_chance,
            turns=turns,
        )

    # `aid chance on|off`: in a game header, for every chart; in a chart, for that chart
    aid_chance_on = keyword("aid_chance", True)
    aid_chance_off = keyword("aid_chance", False)
    title = holding("title")
    source = holding("source")

    def calendar(self, meta: Meta, first: Token, last: Token) -> Stmt:
        return Stmt("calendar", (self._month(first), self._month(last)), self._span(meta))

    def turns(
        self, meta: Meta, first_day: Token, first_half: ast.Name, last_day: Token, last_half: ast.Name,
        *halves: ast.Name,
    ) -> Stmt:
        decl = ast.TurnsDecl(
            ast.Text(str(first_day), self._token_span(first_day)), first_half,
            ast.Text(str(last_day), self._token_span(last_day)), last_half, halves, self._span(meta),
        )
        return Stmt("turns", decl, decl.span)

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
        *items: ast.MemberDecl | tuple[ast.FieldDecl, ...] | _ResultCodes | ast.ResultOrder | Stmt,
    ) -> ast.EnumDecl:
        members = tuple(i for i in items if isinstance(i, ast.MemberDecl))
        field_decls = tuple(f for i in items if isinstance(i, tuple) for f in i)
        codes = next((i.span for i in items if isinstance(i, _ResultCodes)), None)
        order = next((i for i in items if isinstance(i, ast.ResultOrder)), None)
        rule = Block(tuple(i for i in items if isinstance(i, Stmt))).one("rule", ast.Text)
        return ast.EnumDecl(name, label, field_decls, members, self._span(meta), codes, order, rule)

    result_codes = node(_ResultCodes)

    def result_order(self, meta: Meta, first: ast.Name, *rest: Token | ast.Name) -> ast.ResultOrder:
        ops = tuple(ast.Text(str(t), self._token_span(t)) for t in rest if isinstance(t, Token))
        names = (first, *(n for n in rest if isinstance(n, ast.Name)))
        return ast.ResultOrder(names, ops, self._span(meta))

    fields = listing()

    def field_decl(
        self, meta: Meta, name: ast.Name, type_name: ast.Name, label: ast.Text | None, domain: Token | None
    ) -> ast.FieldDecl:
        return ast.FieldDecl(name, type_name, label, self._span(meta), self._range(domain) if domain else None)

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
        self,
        meta: Meta,
        name: ast.Name,
        type_name: ast.Name,
        label: ast.Text | None,
        domain: Token | None,
        within: ast.Name | None,
    ) -> ast.ContextDecl:
        span = self._span(meta)
        return ast.ContextDecl(name, type_name, label, span, self._range(domain) if domain else None, within)

    within = same


class OddsRules(Terminals):
    """`odds` blocks and their statements."""

    def odds(
        self, meta: Meta, chart_id: ChartId | None, name: ast.Name, title: ast.Text, *stmts: Stmt
    ) -> ast.OddsDecl:
        block = Block(stmts)
        rule = block.one("rule", ast.Text)
        columns = block.one_group("columns", ast.Text)
        attacker_round = block.one("attacker_high", ast.Rounding)
        defender_round = block.one("defender_high", ast.Rounding)
        beyond = block.one("beyond", ast.Beyond)
        shift_order = block.one("shift", ast.ShiftOrder)
        form = block.one("form", ast.OddsForm)
        between = block.one("between", ast.Between)
        return ast.OddsDecl(
            chart_id=chart_id.name if chart_id else None,
            name=name,
            title=title,
            rule=rule,
            notes=block.every("note", ast.Text),
            columns=columns or (),
            attacker_round=attacker_round,
            defender_round=defender_round,
            beyond=beyond,
            shift_order=shift_order,
            repeated=block.repeated,
            span=self._span(meta),
            form=form,
            form_span=block.span_of("form"),
            between=between,
            between_span=block.span_of("between"),
            domain=block.one("domain", ast.OddsDomain),
            round_spans=tuple(s for s in (block.span_of("attacker_high"), block.span_of("defender_high")) if s),
            partial=block.one("partial", ast.Text),
            partial_span=block.span_of("partial"),
        )

    odds_columns = listing("columns")
    round_attacker_high = holding("attacker_high")
    round_defender_high = holding("defender_high")
    round_down = constant(ast.Rounding.DOWN)
    round_up = constant(ast.Rounding.UP)
    round_nearest = constant(ast.Rounding.NEAREST)
    beyond_clamp = keyword("beyond", ast.Beyond.CLAMP)
    beyond_error = keyword("beyond", ast.Beyond.ERROR)
    shift_before_clamp = keyword("shift", ast.ShiftOrder.BEFORE)
    shift_after_clamp = keyword("shift", ast.ShiftOrder.AFTER)
    form_ratio = keyword("form", ast.OddsForm.RATIO)
    form_differential = keyword("form", ast.OddsForm.DIFFERENTIAL)
    form_strength = keyword("form", ast.OddsForm.STRENGTH)
    between_lower = keyword("between", ast.Between.LOWER)
    between_higher = keyword("between", ast.Between.HIGHER)

    domain_closed = declaring("domain", ast.OddsDomain, int, int)

    def domain_open(self, meta: Meta, low: Token, _plus: Token) -> Stmt:
        span = self._span(meta)
        return Stmt("domain", ast.OddsDomain(int(low), None, span), span)


class InvariantRules(Terminals):
    """`invariant` declarations and the facts they compare."""

    def inv_count(
        self,
        meta: Meta,
        name: ast.Name,
        text: ast.Text,
        enum: ast.Name,
        where: tuple[ast.FieldTest, ...],
        count: Token,
    ) -> ast.CountInvariant:
        return ast.CountInvariant(name, text, enum, where, int(count), self._span(meta))

    def inv_count_all(
        self, meta: Meta, name: ast.Name, text: ast.Text, enum: ast.Name, count: Token
    ) -> ast.CountInvariant:
        return ast.CountInvariant(name, text, enum, (), int(count), self._span(meta))

    count_where = listing()

    def field_test(self, meta: Meta, field: ast.Name, op: Token, value: ast.ValueText) -> ast.FieldTest:
        return ast.FieldTest(field, ast.CompareOp(str(op)), value, cover(field.span, value.span))

    inv_column_sum = node(ast.ColumnSumInvariant, kept, kept, chart_name, int, kept, kept)
    inv_symmetric = node(ast.SymmetricInvariant, kept, kept, chart_name)
    inv_distances = node(ast.DistancesInvariant, kept, kept, chart_name, chart_name, kept)
    def inv_same(
        self, meta: Meta, name: ast.Name, text: ast.Text, left: ast.Fact, right: ast.Fact, kept_stmt: Stmt | None
    ) -> ast.SameInvariant:
        kept_text = typed(kept_stmt.node, ast.Text) if kept_stmt is not None else None
        return ast.SameInvariant(name, text, left, right, kept_text, self._span(meta))

    # `kept "why"`: the book's print is kept where a finding says it is wrong (invariant, formula,
    # conflict, ambiguous print)
    kept_print = holding("kept")

    def fact_cell(
        self,
        meta: Meta,
        chart: ChartId | ast.Name,
        select: tuple[ast.FactKey | ast.FactRoll, ...] | None,
        column: ast.Name,
    ) -> ast.CellFact:
        return ast.CellFact(chart_name(chart), select or (), column, self._span(meta))

    fact_field = node(ast.FieldFact)

    def fact_count(self, meta: Meta, enum: ast.Name, where: tuple[ast.FieldTest, ...] | None) -> ast.CountFact:
        return ast.CountFact(enum, where or (), self._span(meta))

    def fact_limit(
        self, meta: Meta, name: ast.Name, select: tuple[ast.FactKey | ast.FactRoll, ...] | None
    ) -> ast.LimitFact:
        return ast.LimitFact(name, select or (), self._span(meta))

    def fact_formula(
        self, meta: Meta, name: ast.Name, select: tuple[ast.FactKey | ast.FactRoll, ...] | None
    ) -> ast.FormulaFact:
        return ast.FormulaFact(name, select or (), self._span(meta))

    def fact_drm(self, meta: Meta, chart: ChartId | ast.Name, drm: ast.Name) -> ast.DrmFact:
        return ast.DrmFact(chart_name(chart), drm, self._span(meta))

    fact_select = listing()
    fact_key = node(ast.FactKey)
    fact_roll = node(ast.FactRoll, int)


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
        return ast.ExampleDecl(
            name=name,
            title=title,
            rule=block.one("rule", ast.Text),
            notes=block.every("note", ast.Text),
            chart=block.one("chart", ast.Name),
            formula=block.one("formula", ast.Name),
            keys=block.every("key", ast.ExampleInput),
            rolls=block.one_group("roll", ast.Name) or (),
            when=block.every_item("when", ast.Name),
            sets=block.every("set", ast.ExampleInput),
            drm=sum(block.every("drm", int)),
            attack=block.one("attack", int),
            defense=block.one("defense", int),
            shift=block.one("shift", int),
            follow=bool(block.one("follow", bool)),
            expects=block.every("expect", ast.ExpectDecl),
            contradicts=block.one("contradicts", ast.Text),
            span=self._span(meta),
            repeated=block.repeated,
            aid=bool(block.one("aid", bool)),
            contradicts_statement=block.span_of("contradicts"),
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


_EXPR_TYPES = (ast.ExprNumber, ast.ExprName, ast.ExprBinary, ast.ExprNeg, ast.ExprCall, ast.ExprIf)


class FormulaRules(Terminals):
    """`formula` blocks and their expressions."""

    def formula(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.FormulaDecl:
        block = Block(stmts)
        result = block.one("result", object)
        rule = block.one("rule", ast.Text)
        notes = block.every("note", ast.Text)
        domain = block.one("domain", ast.DomainDecl)
        requires = block.one("requires", ast.RequiresDecl)
        kept_text = block.one("kept", ast.Text)
        return ast.FormulaDecl(
            name,
            title,
            rule,
            notes,
            result if isinstance(result, _EXPR_TYPES) else None,
            self._span(meta),
            block.repeated,
            domain=domain,
            requires=requires,
            kept=kept_text,
        )

    formula_result = holding("result")

    def domain_between(self, meta: Meta, low: Token, high: Token) -> Stmt:
        span = self._span(meta)
        return Stmt("domain", ast.DomainDecl(int(low), int(high), None, span), span)

    def domain_from(self, meta: Meta, low: Token, _plus: Token) -> Stmt:
        span = self._span(meta)
        return Stmt("domain", ast.DomainDecl(int(low), None, None, span), span)

    def domain_within(self, meta: Meta, limit: ast.Name) -> Stmt:
        span = self._span(meta)
        return Stmt("domain", ast.DomainDecl(None, None, limit, span), span)

    def formula_requires(self, meta: Meta, left: ast.Expr, op: Token, right: ast.Expr) -> Stmt:
        span = self._span(meta)
        return Stmt("requires", ast.RequiresDecl(left, ast.CompareOp(str(op)), right, span), span)
