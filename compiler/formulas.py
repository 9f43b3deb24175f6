"""Computed values: a formula's exact value in a context, its printed form, the context variables it
reads, and what its inputs' declared ranges allow (for the checks).

Arithmetic is exact: `/` gives a fraction and only `floor`, `ceil` and `round` (half up) make it
whole, so `production + floor(production / 3)` is 13 for 10 (USAAF 22.2), never 13.333 rounded late.
The generated Python computes the same way with `fractions.Fraction`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.calendar import Month
from compiler.emit import runtime
from compiler.model.formulas import (
    ROUNDING,
    Binary,
    Call,
    Expr,
    FormulaRef,
    Function,
    IfElse,
    Neg,
    Number,
    Op,
    Var,
)
from compiler.modifiers import holds
from dsl.ast import Span

ContextValue = bool | int | Month | model.MemberId
MAX_EXPONENT = 64  # `2 ^ halvings` with halvings up to 64; beyond that a formula is not a rule of a game


class FormulaProblem(Exception):
    """The formula has no value in this context: an input left out, a division by zero, an
    exponent out of range; the message says which."""


def evaluate(game: model.Game, formula: model.Formula, context: Mapping[str, ContextValue]) -> int:
    """The formula's value in `context` (context variable id -> value; a flag left out is false).

    Raises:
        FormulaProblem: an int input left out, a division by zero, a negative or huge exponent, or
            a result that is not whole (the checker reports such a formula as C470).
    """
    value = _value(game, formula.expr, context, (formula.id,))
    if value.denominator != 1:
        raise FormulaProblem(f"formula `{formula.id}` gives {value}, not a whole number")
    return int(value)


def _value(game: model.Game, expr: Expr, context: Mapping[str, ContextValue], within: tuple[str, ...]) -> Fraction:
    match expr:
        case Number(value):
            return Fraction(value)
        case Var(var_id):
            given = context.get(var_id)
            if given is None or isinstance(given, bool) or not isinstance(given, int):
                raise FormulaProblem(f"give `{var_id}` a value (--set {var_id}=N)")
            return Fraction(given)
        case FormulaRef(ref):
            other = game.formula(ref)
            if other is None or ref in within:  # pragma: no cover - the resolver and C471 refuse both
                raise FormulaProblem(f"formula `{ref}` cannot be computed here")
            return _value(game, other.expr, context, (*within, ref))
        case Binary(op, left, right):
            return _binary(op, _value(game, left, context, within), _value(game, right, context, within))
        case Neg(inner):
            return -_value(game, inner, context, within)
        case Call(function, args):
            return apply(function, [_value(game, a, context, within) for a in args])
        case IfElse(cond, then, otherwise):
            branch = then if holds(cond, context) else otherwise
            return _value(game, branch, context, within)
        case _:
            assert_never(expr)


def _binary(op: Op, a: Fraction, b: Fraction) -> Fraction:
    match op:
        case Op.ADD:
            return a + b
        case Op.SUB:
            return a - b
        case Op.MUL:
            return a * b
        case Op.DIV | Op.POW:
            try:
                return runtime._div(a, b) if op is Op.DIV else runtime._pow(a, b, MAX_EXPONENT)
            except ValueError as exc:
                raise FormulaProblem(str(exc)) from exc
        case _:
            assert_never(op)


def apply(function: Function, args: list[Fraction]) -> Fraction:
    """A function of the formula language on exact values."""
    match function:
        case Function.FLOOR:
            return Fraction(math.floor(args[0]))
        case Function.CEIL:
            return Fraction(math.ceil(args[0]))
        case Function.ROUND:
            return Fraction(runtime._round_half_up(args[0]))
        case Function.MIN:
            return min(args)
        case Function.MAX:
            return max(args)
        case _:
            assert_never(function)


# ---- what a formula reads, and how it reads to a player -----------------------------------------------


def inputs(game: model.Game, formula: model.Formula) -> tuple[str, ...]:
    """The context variables the formula reads (through the formulas it uses too), in first-use order."""
    return tuple(dict.fromkeys(_inputs(game, formula.expr, (formula.id,))))


def _condition_inputs(cond: model.Condition) -> Iterator[str]:
    """The variables a condition tests, in the order it names them (model.condition_vars is a set,
    whose order would make the generated signatures differ from build to build)."""
    match cond:
        case model.Flag(var) | model.Compare(var) | model.In(var):
            yield var
        case model.Not(inner):
            yield from _condition_inputs(inner)
        case model.All(parts) | model.Any_(parts):
            for part in parts:
                yield from _condition_inputs(part)
        case _:
            assert_never(cond)


def _inputs(game: model.Game, expr: Expr, within: tuple[str, ...]) -> Iterator[str]:
    match expr:
        case Number():
            return
        case Var(var_id):
            yield var_id
        case FormulaRef(ref):
            other = game.formula(ref)
            if other is not None and ref not in within:
                yield from _inputs(game, other.expr, (*within, ref))
        case Binary(_, left, right):
            yield from _inputs(game, left, within)
            yield from _inputs(game, right, within)
        case Neg(inner):
            yield from _inputs(game, inner, within)
        case Call(_, args):
            for a in args:
                yield from _inputs(game, a, within)
        case IfElse(cond, then, otherwise):
            yield from _condition_inputs(cond)
            yield from _inputs(game, then, within)
            yield from _inputs(game, otherwise, within)
        case _:
            assert_never(expr)


_PRECEDENCE = {Op.ADD: 1, Op.SUB: 1, Op.MUL: 2, Op.DIV: 2, Op.POW: 3}


def expr_text(expr: Expr) -> str:
    """The formula as written, with only the parentheses its reading needs."""
    return _text(expr, 0)


def _text(expr: Expr, outer: int) -> str:
    match expr:
        case Number(value):
            return str(value)
        case Var(var_id) | FormulaRef(var_id):
            return var_id
        case Binary(op, left, right):
            mine = _PRECEDENCE[op]
            # left-associative + - * /, right-associative ^: the other side needs one level more
            left_level, right_level = (mine + 1, mine) if op is Op.POW else (mine, mine + 1)
            text = f"{_text(left, left_level)} {op.value} {_text(right, right_level)}"
            return f"({text})" if mine < outer else text
        case Neg(inner):
            return f"-{_text(inner, 4)}"
        case Call(function, args):
            return f"{function.value}({', '.join(_text(a, 0) for a in args)})"
        case IfElse(cond, then, otherwise):
            text = f"if {condition_text(cond)} then {_text(then, 0)} else {_text(otherwise, 0)}"
            return f"({text})" if outer else text
        case _:
            assert_never(expr)


def condition_text(cond: model.Condition) -> str:
    """A formula's condition as written (`protected_line`, `halvings >= 1 and not damaged`)."""
    match cond:
        case model.Flag(var):
            return var
        case model.Compare(var, op, value):
            return f"{var} {op.value} {value}"
        case model.In(var, values):
            return f"{var} in [{', '.join(str(v) for v in values)}]"
        case model.Not(inner):
            return f"not {_grouped(inner)}"
        case model.All(parts):
            return " and ".join(_grouped(p) for p in parts)
        case model.Any_(parts):
            return " or ".join(_grouped(p) for p in parts)
        case _:
            assert_never(cond)


def _grouped(cond: model.Condition) -> str:
    text = condition_text(cond)
    return f"({text})" if isinstance(cond, model.All | model.Any_) else text


# ---- what the inputs' ranges allow (the checks read this) ----------------------------------------------


@dataclass(frozen=True)
class Interval:
    """The values an expression can take: [low, high] (None: unbounded), and whether it is always whole."""

    low: Fraction | None
    high: Fraction | None
    whole: bool

    def contains(self, value: Fraction) -> bool:
        return (self.low is None or self.low <= value) and (self.high is None or value <= self.high)

    @property
    def text(self) -> str:
        low = "any" if self.low is None else str(self.low)
        high = "any" if self.high is None else str(self.high)
        return low if low == high else f"{low} to {high}"


@dataclass(frozen=True)
class Undefined:
    """Where an expression may have no value: its span and why."""

    span: Span
    why: str


def interval(
    game: model.Game, expr: Expr, within: tuple[str, ...] = (), found: list[Undefined] | None = None
) -> Interval:
    """The interval of values `expr` takes over the declared ranges of its inputs (an int
    context variable without a range is unbounded); every division by an interval holding 0 and
    every exponent that may be negative or fractional is appended to `found`."""
    found = found if found is not None else []
    match expr:
        case Number(value):
            return Interval(Fraction(value), Fraction(value), True)
        case Var(var_id):
            var = game.context.get(var_id)
            low = Fraction(var.low) if var is not None and isinstance(var.low, int) else None
            high = Fraction(var.high) if var is not None and isinstance(var.high, int) else None
            return Interval(low, high, True)
        case FormulaRef(ref):
            other = game.formula(ref)
            if other is None or ref in within:
                return Interval(None, None, True)
            return interval(game, other.expr, (*within, ref), found)
        case Binary(op, left, right):
            a, b = interval(game, left, within, found), interval(game, right, within, found)
            return _binary_interval(op, a, b, expr, found)
        case Neg(inner):
            a = interval(game, inner, within, found)
            return Interval(None if a.high is None else -a.high, None if a.low is None else -a.low, a.whole)
        case Call(function, args):
            parts = [interval(game, a, within, found) for a in args]
            return _call_interval(function, parts)
        case IfElse(_, then, otherwise):
            a, b = interval(game, then, within, found), interval(game, otherwise, within, found)
            return _hull(a, b)
        case _:
            assert_never(expr)


def _hull(a: Interval, b: Interval) -> Interval:
    low = None if a.low is None or b.low is None else min(a.low, b.low)
    high = None if a.high is None or b.high is None else max(a.high, b.high)
    return Interval(low, high, a.whole and b.whole)


def _products(a: Interval, b: Interval) -> Interval:
    ends = [(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    if any(x is None or y is None for x, y in ends):
        return Interval(None, None, a.whole and b.whole)
    values = [x * y for x, y in ends if x is not None and y is not None]
    return Interval(min(values), max(values), a.whole and b.whole)


def _binary_interval(op: Op, a: Interval, b: Interval, expr: Binary, found: list[Undefined]) -> Interval:
    match op:
        case Op.ADD:
            low = None if a.low is None or b.low is None else a.low + b.low
            high = None if a.high is None or b.high is None else a.high + b.high
            return Interval(low, high, a.whole and b.whole)
        case Op.SUB:
            low = None if a.low is None or b.high is None else a.low - b.high
            high = None if a.high is None or b.low is None else a.high - b.low
            return Interval(low, high, a.whole and b.whole)
        case Op.MUL:
            return _products(a, b)
        case Op.DIV:
            if b.contains(Fraction(0)):
                found.append(Undefined(expr.right.span, f"the divisor can be 0 (it runs {b.text})"))
                return Interval(None, None, False)
            inverse = Interval(None if b.high is None else 1 / b.high, None if b.low is None else 1 / b.low, False)
            return Interval(_products(a, inverse).low, _products(a, inverse).high, False)
        case Op.POW:
            if not b.whole or b.low is None or b.low < 0 or b.high is None or b.high > MAX_EXPONENT:
                found.append(
                    Undefined(
                        expr.right.span,
                        f"the exponent must be a whole number from 0 to {MAX_EXPONENT} (it runs {b.text})",
                    )
                )
                return Interval(None, None, a.whole)
            powers = [x**e for x in (a.low, a.high) if x is not None for e in (int(b.low), int(b.high))]
            if a.low is None or a.high is None or a.low < 0:
                return Interval(None, None, a.whole)
            return Interval(min(powers), max(powers), a.whole)
        case _:
            assert_never(op)


def _call_interval(function: Function, parts: list[Interval]) -> Interval:
    if function in ROUNDING:
        a = parts[0]
        low = None if a.low is None else apply(function, [a.low])
        high = None if a.high is None else apply(function, [a.high])
        return Interval(low, high, True)
    lows = [p.low for p in parts]
    highs = [p.high for p in parts]
    whole = all(p.whole for p in parts)
    if function is Function.MIN:
        low = None if None in lows else min(x for x in lows if x is not None)
        known = [x for x in highs if x is not None]
        return Interval(low, min(known) if known else None, whole)
    low_known = [x for x in lows if x is not None]
    high = None if None in highs else max(x for x in highs if x is not None)
    return Interval(max(low_known) if low_known else None, high, whole)
