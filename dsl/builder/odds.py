"""The builder's rules of an `odds` block: how a game forms odds and picks a CRT column."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Block, ChartId, Meta, Stmt, Terminals, constant, declaring, holding, keyword, listing


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
