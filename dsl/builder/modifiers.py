"""The builder's rules of a chart's DRMs and CRT column shifts (values, per-N steps, exclusive
groups, clamps and caps, those read from a terrain effects chart), and of their conditions."""

from __future__ import annotations

import dataclasses

from lark import Token

from dsl import ast
from dsl.builder.base import ChartId, Meta, Stmt, Terminals, chart_name, constant, declaring, joining, node, typed


class ModifierRules(Terminals):
    """DRMs, column shifts and the conditions they apply under."""

    def drm(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        per: ast.DrmPerDecl | None,
        when: ast.Cond | None,
        footnote: Token | None,
    ) -> Stmt:
        decl = ast.DrmDecl(
            name,
            label,
            int(value),
            self._token_span(value),
            when,
            int(footnote) if footnote is not None else None,
            self._span(meta),
            per,
        )
        return Stmt("drm", decl, decl.span)

    def drm_per(self, meta: Meta, step: Token | None, var: ast.Name, rounding: ast.Rounding | None) -> ast.DrmPerDecl:
        """`per [N] VAR [round down|up|nearest]`: N defaults to 1, rounding to down."""
        count = int(step) if step is not None else 1
        return ast.DrmPerDecl(count, var, rounding or ast.Rounding.DOWN, self._span(meta))

    def drm_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *drms: Stmt
    ) -> Stmt:
        decl = ast.DrmGroupDecl(name, label, mode, tuple(typed(d.node, ast.DrmDecl) for d in drms), self._span(meta))
        return Stmt("drm_group", decl, decl.span)

    group_best = constant(ast.GroupMode.BEST)
    group_worst = constant(ast.GroupMode.WORST)
    group_one = constant(ast.GroupMode.ONE)
    modified_clamp = declaring("modified_clamp", ast.ModifiedClampDecl, int, int)

    def combine(self, meta: Meta, clamp_min: Token | None, clamp_max: Token | None) -> Stmt:
        low = int(clamp_min) if clamp_min is not None else None
        high = int(clamp_max) if clamp_max is not None else None
        decl = ast.CombineDecl(low, high, self._span(meta))
        return Stmt("combine", decl, decl.span)

    # ---- CRT column shifts

    def shift_value(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        when: ast.Cond | None,
    ) -> Stmt:
        decl = ast.ShiftDecl(name, label, int(value), when, None, None, self._span(meta))
        return Stmt("shift", decl, decl.span)

    def shift_from(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        chart: ChartId | ast.Name,
        column: ast.Name,
        by: ast.Name,
    ) -> Stmt:
        span = self._span(meta)
        source = ast.ShiftSourceDecl(chart_name(chart), column, by, span)
        decl = ast.ShiftDecl(name, label, None, None, source, None, span)
        return Stmt("shift", decl, span)

    def drm_from(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        chart: ChartId | ast.Name,
        column: ast.Name,
        by: ast.Name,
    ) -> Stmt:
        span = self._span(meta)
        decl = ast.DrmFromDecl(name, label, ast.ShiftSourceDecl(chart_name(chart), column, by, span), span)
        return Stmt("drm_from", decl, span)

    def shift_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *shifts: Stmt
    ) -> Stmt:
        members = tuple(dataclasses.replace(typed(s.node, ast.ShiftDecl), group=name) for s in shifts)
        decl = ast.ShiftGroupDecl(name, label, mode, members, self._span(meta))
        return Stmt("shift_group", decl, decl.span)

    shift_cap = declaring("shift_cap", ast.ShiftCapDecl, int, int)

    # ---- conditions

    or_cond = joining(ast.CondAny)
    and_cond = joining(ast.CondAll)
    cond_not = node(ast.CondNot)
    cond_flag = node(ast.CondFlag)

    def cond_compare(self, meta: Meta, var: ast.Name, op: Token, operand: ast.Operand) -> ast.CondCompare:
        return ast.CondCompare(var, ast.CompareOp(str(op)), operand, self._span(meta))

    def cond_in(self, meta: Meta, var: ast.Name, *operands: ast.Operand) -> ast.CondIn:
        return ast.CondIn(var, operands, self._span(meta))

    def operand(self, meta: Meta, written: ast.Name | ast.Text | Token) -> ast.Operand:
        match written:
            case ast.Name(text, span):
                return ast.Operand(ast.OperandKind.NAME, text, span)
            case ast.Text(text, span):
                return ast.Operand(ast.OperandKind.TEXT, text, span)
            case Token(type="MONTH"):
                return ast.Operand(ast.OperandKind.MONTH, str(written), self._token_span(written))
            case _:  # INT or DRM_VALUE
                return ast.Operand(ast.OperandKind.INT, str(written), self._token_span(written))
