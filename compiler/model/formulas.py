"""A computed value: an integer formula over the game's context variables (USAAF 22.2-22.4).

Expressions are a tagged union; `compiler.engine.formulas` evaluates them exactly (fractions, then the
rounding the formula names), and the generated Python computes them with the same arithmetic.
"""

from __future__ import annotations

from enum import StrEnum

from compiler.model.conditions import Condition
from dsl.lazy_dataclass import dataclass
from dsl.shared import Binary as Binary
from dsl.shared import ExprOp, Span
from dsl.shared import IfElse as IfElse
from dsl.shared import Neg as Neg
from dsl.shared import Number as Number

Op = ExprOp  # a binary operator, as the syntax tree holds it


class Function(StrEnum):
    FLOOR = "floor"  # round down
    CEIL = "ceil"  # round up
    ROUND = "round"  # round half up (2.5 -> 3, -2.5 -> -2)
    MIN = "min"
    MAX = "max"


ROUNDING = (Function.FLOOR, Function.CEIL, Function.ROUND)


@dataclass(frozen=True)
class Var:
    """An int context variable."""

    id: str
    span: Span


@dataclass(frozen=True)
class FormulaRef:
    """Another formula of the game, computed in the same context."""

    id: str
    span: Span


@dataclass(frozen=True)
class Call:
    function: Function
    args: tuple[Expr, ...]
    span: Span


# a number, `a + b` (and the other operators), `-a`, `if c then a else b`: the nodes of the syntax
# tree's formulas too (`dsl.shared`)
Expr = Number | Var | FormulaRef | Binary["Expr"] | Neg["Expr"] | Call | IfElse[Condition, "Expr"]


@dataclass(frozen=True)
class Formula:
    """`formula NAME "title" { rule "..." result EXPR }`."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    expr: Expr
    source_file: str
    span: Span
