"""Computed values: a formula's expression tree as written (USAAF 22.2-22.4)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.conditions import Cond
from dsl.ast.values import Name, Text
from dsl.shared import ExprOp, Span


@dataclass(frozen=True)
class ExprNumber:
    value: int
    span: Span


@dataclass(frozen=True)
class ExprName:
    """A context variable or another formula of the game, by name."""

    name: Name
    span: Span


@dataclass(frozen=True)
class ExprBinary:
    op: ExprOp
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True)
class ExprNeg:
    inner: Expr
    span: Span


@dataclass(frozen=True)
class ExprCall:
    """`floor(x)`, `ceil(x)`, `round(x)` (half up), `min(a, b, ...)`, `max(a, b, ...)`."""

    function: Name
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True)
class ExprIf:
    cond: Cond
    then: Expr
    otherwise: Expr
    span: Span


Expr = ExprNumber | ExprName | ExprBinary | ExprNeg | ExprCall | ExprIf


@dataclass(frozen=True)
class FormulaDecl:
    """`formula NAME "title" { rule "..." result EXPR }`: an integer a rule computes."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    result: Expr | None
    span: Span
    repeated: tuple[Span, ...] = ()
