"""The builder's rules of computed values: a formula and its expression tree (USAAF 22.2-22.4)."""

from __future__ import annotations

from lark import Token

from dsl import ast
from dsl.builder.base import Block, Meta, Rule, Stmt, Terminals, holding, node

_EXPR_TYPES = (ast.ExprNumber, ast.ExprName, ast.ExprBinary, ast.ExprNeg, ast.ExprCall, ast.ExprIf)


def _binary(op: ast.ExprOp) -> Rule:
    """The rule of a binary operation: `left OP right`."""

    def rule(self: Terminals, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.ExprBinary(op, left, right, self._span(meta))

    return rule


class FormulaRules(Terminals):
    """`formula` blocks and their expressions."""

    def formula(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: Stmt) -> ast.FormulaDecl:
        block = Block(stmts)
        result = block.one("result", object)
        return ast.FormulaDecl(
            name,
            title,
            block.one("rule", ast.Text),
            block.every("note", ast.Text),
            result if isinstance(result, _EXPR_TYPES) else None,
            self._span(meta),
            block.repeated,
        )

    formula_result = holding("result")
    expr_add = _binary(ast.ExprOp.ADD)
    expr_sub = _binary(ast.ExprOp.SUB)
    expr_mul = _binary(ast.ExprOp.MUL)
    expr_div = _binary(ast.ExprOp.DIV)
    expr_pow = _binary(ast.ExprOp.POW)
    expr_neg = node(ast.ExprNeg)

    def expr_number(self, meta: Meta, value: Token) -> ast.Expr:
        return ast.ExprNumber(int(value), self._token_span(value))

    def expr_name(self, meta: Meta, name: ast.Name) -> ast.Expr:
        return ast.ExprName(name, name.span)

    def expr_call(self, meta: Meta, function: ast.Name, *args: ast.Expr) -> ast.Expr:
        return ast.ExprCall(function, args, self._span(meta))

    expr_if = node(ast.ExprIf)
