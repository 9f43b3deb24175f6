"""A computed value: an integer formula over the game's context variables (USAAF 22.2-22.4), and
how it is written (`expr_text`: the JSON, the generated Python's docstrings and `chartc compute`
print it so).

Expressions are a tagged union; `compiler.engine.formulas` evaluates them exactly (fractions, then the
rounding the formula names), and the generated Python computes them with the same arithmetic.
"""

from __future__ import annotations

from enum import StrEnum
from typing import assert_never

from compiler.model.conditions import All, Any_, Compare, CompareOp, Condition, Flag, In, Not
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
class Domain:
    """`domain 1 to 18`, `domain 0+`, `domain within LIMIT`: the values a formula's result may take
    (`high` None: no upper end). `within` names the limit the ends were read from."""

    low: int | None
    high: int | None
    span: Span
    within: str | None = None

    def holds(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    @property
    def text(self) -> str:
        """`1 to 18`, `0+`, `any whole number`."""
        if self.low is not None and self.high is not None:
            return f"{self.low} to {self.high}"
        if self.low is not None:
            return f"{self.low}+"
        return f"{self.high} or less" if self.high is not None else "any whole number"


@dataclass(frozen=True)
class Requires:
    """`requires xp >= promotion_number`: the formula applies only where `left OP right` holds."""

    left: Expr
    op: CompareOp
    right: Expr
    span: Span

    @property
    def text(self) -> str:
        return f"{expr_text(self.left)} {self.op.value} {expr_text(self.right)}"


class FormulaPart(StrEnum):
    """A statement of a formula an errata may correct."""

    RESULT = "result"
    REQUIRES = "requires"
    DOMAIN = "domain"


@dataclass(frozen=True)
class Formula:
    """`formula NAME "title" { rule "..." result EXPR domain ... requires ... kept "..." }`."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    expr: Expr
    source_file: str
    span: Span
    domain: Domain | None = None
    requires: Requires | None = None
    kept: str | None = None  # the book's gap kept as printed: why (a result outside `domain` is C476)
    errata: tuple[str, ...] = ()  # the errata that corrected it (`change result to ...`, `change requires ...`)
    printed: Expr | None = None  # the result as printed, when an errata corrected it
    because: tuple[str, ...] = ()  # the errata's reasons
    corrected: tuple[FormulaPart, ...] = ()  # what the errata corrected, in the order first corrected
    printed_requires: Requires | None = None  # as printed, when corrected (None: the print states none)
    printed_domain: Domain | None = None  # as printed, when corrected (None: the print states none)

    def as_printed(self) -> tuple[str, ...]:
        """Each statement the errata corrected, as the book prints it: `printed floor(n / 3)` (the
        result), `requires printed xp >= 5`, `domain not in the print`."""
        out = []
        for part in self.corrected:
            match part:
                case FormulaPart.RESULT:
                    out.append(f"printed {expr_text(self.printed)}" if self.printed is not None else "result printed")
                case FormulaPart.REQUIRES:
                    was = self.printed_requires.text if self.printed_requires is not None else None
                    out.append(f"requires printed {was}" if was is not None else "requires not in the print")
                case FormulaPart.DOMAIN:
                    was = self.printed_domain.text if self.printed_domain is not None else None
                    out.append(f"domain printed {was}" if was is not None else "domain not in the print")
                case _:
                    assert_never(part)
        return tuple(out)


# ---- how a formula is written ---------------------------------------------------------------------

# Binding strength of each form, loosest first; a part printed at a lower level than its place
# needs is parenthesised.
_ADD, _MUL, _NEG, _POW, _ATOM = 1, 2, 3, 4, 5
_PRECEDENCE = {Op.ADD: _ADD, Op.SUB: _ADD, Op.MUL: _MUL, Op.DIV: _MUL, Op.POW: _POW}


def expr_text(expr: Expr) -> str:
    """The formula as written, with only the parentheses its reading needs."""
    return _text(expr, 0)


def _text(expr: Expr, outer: int) -> str:
    match expr:
        case Number(value):
            return str(value) if value >= 0 else _grouped_text(str(value), _NEG, outer)
        case Var(var_id) | FormulaRef(var_id):
            return var_id
        case Binary(op, left, right):
            mine = _PRECEDENCE[op]
            # + - * / group to the left; ^ to the right, its base an atom, its exponent a unary
            places = (_ATOM, _NEG) if op is Op.POW else (mine, mine + 1)
            text = f"{_text(left, places[0])} {op.value} {_text(right, places[1])}"
            return _grouped_text(text, mine, outer)
        case Neg(inner):
            return _grouped_text(f"-{_text(inner, _NEG)}", _NEG, outer)
        case Call(function, args):
            return f"{function.value}({', '.join(_text(a, 0) for a in args)})"
        case IfElse(cond, then, otherwise):
            text = f"if {condition_text(cond)} then {_text(then, 0)} else {_text(otherwise, 0)}"
            return f"({text})" if outer else text
        case _:
            assert_never(expr)


def _grouped_text(text: str, level: int, outer: int) -> str:
    return f"({text})" if level < outer else text


def condition_text(cond: Condition) -> str:
    """A formula's condition as written (`protected_line`, `halvings >= 1 and not damaged`)."""
    match cond:
        case Flag(var):
            return var
        case Compare(var, op, value):
            return f"{var} {op.value} {value}"
        case In(var, values):
            return f"{var} in [{', '.join(str(v) for v in values)}]"
        case Not(inner):
            return f"not {_grouped(inner)}"
        case All(parts):
            return " and ".join(_grouped(p) for p in parts)
        case Any_(parts):
            return " or ".join(_grouped(p) for p in parts)
        case _:
            assert_never(cond)


def _grouped(cond: Condition) -> str:
    text = condition_text(cond)
    return f"({text})" if isinstance(cond, All | Any_) else text
