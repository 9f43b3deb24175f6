"""Computed values: a formula's exact value in a context, and the context variables it reads. How a
formula is written is `compiler.model.formulas.expr_text`; what its inputs' declared ranges allow
is `compiler.checks.formula_intervals`.

Arithmetic is exact: `/` gives a fraction and only `floor`, `ceil` and `round` (half up) make it
whole, so `production + floor(production / 3)` is 13 for 10 (USAAF 22.2), never 13.333 rounded late.
The generated Python computes the same way with `fractions.Fraction`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.engine import runtime
from compiler.engine.drms import holds
from compiler.model import formulas as fx
from compiler.model.calendar import Month

# re-exported: engine/compute.py and emit/python/formulas.py import the printed form from here
from compiler.model.formulas import expr_text as expr_text

ContextValue = bool | int | Month | model.MemberId
MAX_EXPONENT = 64  # `2 ^ halvings` with halvings up to 64; beyond that a formula is not a rule of a game


class FormulaProblem(Exception):
    """The formula has no value in this context: an input left out, a division by zero, an
    exponent out of range, a formula that uses itself (`cycle`: the formulas around the loop)."""

    def __init__(self, message: str, cycle: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.cycle = cycle


def evaluate(game: model.Game, formula: model.Formula, context: Mapping[str, ContextValue]) -> int:
    """The formula's value in `context` (context variable id -> value; a flag left out is false).
    The formulas it uses are computed once each, in dependency order.

    Raises:
        FormulaProblem: an int input left out, a division by zero, a negative or huge exponent, a
            formula that uses itself, or a result that is not whole (the checker reports each of
            these over the declared ranges: C470, C471).
    """
    values: dict[str, Fraction] = {}
    for needed in dependency_order(game, formula):
        values[needed.id] = _value(needed.expr, context, values)
        if needed.requires is not None and not _requires_holds(needed.requires, context, values):
            shown = ", ".join(f"{v} {context[v]}" for v in _expr_inputs(needed.requires) if v in context)
            raise FormulaProblem(
                f"formula `{needed.id}` applies only where {needed.requires.text}"
                + (f" ({shown})" if shown else "")
                + (f" (rule {needed.rule})" if needed.rule else "")
            )
    value = values[formula.id]
    if value.denominator != 1:
        raise FormulaProblem(f"formula `{formula.id}` gives {value}, not a whole number")
    return int(value)


def _requires_holds(
    requires: model.Requires, context: Mapping[str, ContextValue], values: Mapping[str, Fraction]
) -> bool:
    """Whether `requires`'s comparison holds for these inputs (the formulas it names computed before)."""
    left, right = _value(requires.left, context, values), _value(requires.right, context, values)
    match requires.op:
        case model.CompareOp.EQ:
            return left == right
        case model.CompareOp.NE:
            return left != right
        case model.CompareOp.GE:
            return left >= right
        case model.CompareOp.LE:
            return left <= right
        case model.CompareOp.GT:
            return left > right
        case model.CompareOp.LT:
            return left < right
        case _:
            assert_never(requires.op)


def _expr_inputs(requires: model.Requires) -> list[str]:
    return list(dict.fromkeys([*_inputs(requires.left, {}), *_inputs(requires.right, {})]))


def dependency_order(game: model.Game, formula: model.Formula) -> list[model.Formula]:
    """The formulas `formula` uses (through others too), each before those that use it, then
    `formula` itself; walked without recursion.

    Raises:
        FormulaProblem: the formula uses itself (C471 reports it).
    """
    order: list[model.Formula] = []
    done: set[str] = set()
    stack: list[tuple[model.Formula, bool]] = [(formula, False)]
    on_path: set[str] = set()
    path: list[str] = []  # the formulas being expanded, outermost first
    while stack:
        current, expanded = stack.pop()
        if expanded:
            on_path.discard(current.id)
            path.pop()
            if current.id not in done:
                done.add(current.id)
                order.append(current)
            continue
        if current.id in done:
            continue
        on_path.add(current.id)
        path.append(current.id)
        stack.append((current, True))
        for ref in reversed(formula_refs(current)):
            other = game.formula(ref)
            if other is None:
                continue
            if other.id in on_path:
                cycle = (*path[path.index(other.id) :], other.id)
                raise FormulaProblem(f"formula `{other.id}` uses itself", cycle)
            if other.id not in done:
                stack.append((other, False))
    return order


def refs(expr: fx.Expr) -> list[str]:
    """The formulas `expr` names, each once, in first-use order."""
    return list(dict.fromkeys(_refs(expr)))


def formula_refs(formula: model.Formula) -> list[str]:
    """The formulas a formula names in its result and its `requires`, each once, in first-use order."""
    parts = [formula.expr, *((formula.requires.left, formula.requires.right) if formula.requires else ())]
    return list(dict.fromkeys(r for part in parts for r in _refs(part)))


def _refs(expr: fx.Expr) -> Iterator[str]:
    match expr:
        case fx.FormulaRef(ref):
            yield ref
        case fx.Binary(_, left, right):
            yield from _refs(left)
            yield from _refs(right)
        case fx.Neg(inner):
            yield from _refs(inner)
        case fx.Call(_, args):
            for a in args:
                yield from _refs(a)
        case fx.IfElse(_, then, otherwise):
            yield from _refs(then)
            yield from _refs(otherwise)
        case fx.Number() | fx.Var():
            return
        case _:
            assert_never(expr)


def _value(expr: fx.Expr, context: Mapping[str, ContextValue], values: Mapping[str, Fraction]) -> Fraction:
    match expr:
        case fx.Number(value):
            return Fraction(value)
        case fx.Var(var_id):
            given = context.get(var_id)
            if given is None or isinstance(given, bool) or not isinstance(given, int):
                raise FormulaProblem(f"give `{var_id}` a value (--set {var_id}=N)")
            return Fraction(given)
        case fx.FormulaRef(ref):
            return values[ref]  # computed before, in dependency order
        case fx.Binary(op, left, right):
            return _binary(op, _value(left, context, values), _value(right, context, values))
        case fx.Neg(inner):
            return -_value(inner, context, values)
        case fx.Call(function, args):
            return apply(function, [_value(a, context, values) for a in args])
        case fx.IfElse(cond, then, otherwise):
            return _value(then if holds(cond, context) else otherwise, context, values)
        case _:
            assert_never(expr)


def _binary(op: fx.Op, a: Fraction, b: Fraction) -> Fraction:
    match op:
        case fx.Op.ADD:
            return a + b
        case fx.Op.SUB:
            return a - b
        case fx.Op.MUL:
            return a * b
        case fx.Op.DIV | fx.Op.POW:
            try:
                return runtime._div(a, b) if op is fx.Op.DIV else runtime._pow(a, b, MAX_EXPONENT)
            except ValueError as exc:
                raise FormulaProblem(str(exc)) from exc
        case _:
            assert_never(op)


def apply(function: fx.Function, args: list[Fraction]) -> Fraction:
    """A function of the formula language on exact values."""
    match function:
        case fx.Function.FLOOR:
            return Fraction(math.floor(args[0]))
        case fx.Function.CEIL:
            return Fraction(math.ceil(args[0]))
        case fx.Function.ROUND:
            return Fraction(runtime._round_half_up(args[0]))
        case fx.Function.MIN:
            return min(args)
        case fx.Function.MAX:
            return max(args)
        case _:
            assert_never(function)


# ---- what a formula reads ---------------------------------------------------------------------------


def inputs(game: model.Game, formula: model.Formula) -> tuple[str, ...]:
    """The context variables the formula reads (through the formulas it uses too), in first-use
    order; a formula that uses itself reads what its own text names."""
    try:
        order = dependency_order(game, formula)
    except FormulaProblem:
        order = [formula]
    found: dict[str, tuple[str, ...]] = {}
    for current in order:
        required = (current.requires.left, current.requires.right) if current.requires else ()
        found[current.id] = tuple(
            dict.fromkeys(v for part in (current.expr, *required) for v in _inputs(part, found))
        )
    return found[formula.id]


def _inputs(expr: fx.Expr, found: Mapping[str, tuple[str, ...]]) -> Iterator[str]:
    match expr:
        case fx.Number():
            return
        case fx.Var(var_id):
            yield var_id
        case fx.FormulaRef(ref):
            yield from found.get(ref, ())
        case fx.Binary(_, left, right):
            yield from _inputs(left, found)
            yield from _inputs(right, found)
        case fx.Neg(inner):
            yield from _inputs(inner, found)
        case fx.Call(_, args):
            for a in args:
                yield from _inputs(a, found)
        case fx.IfElse(cond, then, otherwise):
            yield from model.condition_variables(cond)
            yield from _inputs(then, found)
            yield from _inputs(otherwise, found)
        case _:
            assert_never(expr)
