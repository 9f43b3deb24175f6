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
from compiler.engine import runtime
from compiler.engine.drms import holds
from compiler.model.calendar import Month
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
from dsl.shared import Span

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
    value = values[formula.id]
    if value.denominator != 1:
        raise FormulaProblem(f"formula `{formula.id}` gives {value}, not a whole number")
    return int(value)


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
        for ref in reversed(refs(current.expr)):
            other = game.formula(ref)
            if other is None:
                continue
            if other.id in on_path:
                cycle = (*path[path.index(other.id) :], other.id)
                raise FormulaProblem(f"formula `{other.id}` uses itself", cycle)
            if other.id not in done:
                stack.append((other, False))
    return order


def refs(expr: Expr) -> list[str]:
    """The formulas `expr` names, each once, in first-use order."""
    return list(dict.fromkeys(_refs(expr)))


def _refs(expr: Expr) -> Iterator[str]:
    match expr:
        case FormulaRef(ref):
            yield ref
        case Binary(_, left, right):
            yield from _refs(left)
            yield from _refs(right)
        case Neg(inner):
            yield from _refs(inner)
        case Call(_, args):
            for a in args:
                yield from _refs(a)
        case IfElse(_, then, otherwise):
            yield from _refs(then)
            yield from _refs(otherwise)
        case Number() | Var():
            return
        case _:
            assert_never(expr)


def _value(expr: Expr, context: Mapping[str, ContextValue], values: Mapping[str, Fraction]) -> Fraction:
    match expr:
        case Number(value):
            return Fraction(value)
        case Var(var_id):
            given = context.get(var_id)
            if given is None or isinstance(given, bool) or not isinstance(given, int):
                raise FormulaProblem(f"give `{var_id}` a value (--set {var_id}=N)")
            return Fraction(given)
        case FormulaRef(ref):
            return values[ref]  # computed before, in dependency order
        case Binary(op, left, right):
            return _binary(op, _value(left, context, values), _value(right, context, values))
        case Neg(inner):
            return -_value(inner, context, values)
        case Call(function, args):
            return apply(function, [_value(a, context, values) for a in args])
        case IfElse(cond, then, otherwise):
            return _value(then if holds(cond, context) else otherwise, context, values)
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
    """The context variables the formula reads (through the formulas it uses too), in first-use
    order; a formula that uses itself reads what its own text names."""
    try:
        order = dependency_order(game, formula)
    except FormulaProblem:
        order = [formula]
    found: dict[str, tuple[str, ...]] = {}
    for current in order:
        found[current.id] = tuple(dict.fromkeys(_inputs(current.expr, found)))
    return found[formula.id]


def _inputs(expr: Expr, found: Mapping[str, tuple[str, ...]]) -> Iterator[str]:
    match expr:
        case Number():
            return
        case Var(var_id):
            yield var_id
        case FormulaRef(ref):
            yield from found.get(ref, ())
        case Binary(_, left, right):
            yield from _inputs(left, found)
            yield from _inputs(right, found)
        case Neg(inner):
            yield from _inputs(inner, found)
        case Call(_, args):
            for a in args:
                yield from _inputs(a, found)
        case IfElse(cond, then, otherwise):
            yield from condition_inputs(cond)
            yield from _inputs(then, found)
            yield from _inputs(otherwise, found)
        case _:
            assert_never(expr)


def condition_inputs(cond: model.Condition) -> Iterator[str]:
    """The variables a condition tests, in the order it names them (`model.condition_vars` is a set)."""
    match cond:
        case model.Flag(var) | model.Compare(var) | model.In(var):
            yield var
        case model.Not(inner):
            yield from condition_inputs(inner)
        case model.All(parts) | model.Any_(parts):
            for part in parts:
                yield from condition_inputs(part)
        case _:
            assert_never(cond)


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

# The largest magnitude a formula's value may reach over its inputs' ranges: a game's numbers are
# far smaller, a literal has at most 30 digits, and a bound keeps `^` from building huge numbers.
MAX_MAGNITUDE = 10**30


@dataclass(frozen=True)
class Interval:
    """The values an expression can take: [low, high] (None: unbounded), and whether it is always whole."""

    low: Fraction | None
    high: Fraction | None
    whole: bool

    def contains(self, value: Fraction) -> bool:
        return (self.low is None or self.low <= value) and (self.high is None or value <= self.high)

    @property
    def empty(self) -> bool:
        return self.low is not None and self.high is not None and self.low > self.high

    @property
    def text(self) -> str:
        low = "any value" if self.low is None else str(self.low)
        high = "any value" if self.high is None else str(self.high)
        return low if low == high else f"{low} to {high}"


UNBOUNDED = Interval(None, None, True)


@dataclass(frozen=True)
class Undefined:
    """Where an expression may have no value: its span and why."""

    span: Span
    why: str


def formula_intervals(game: model.Game) -> dict[str, Interval]:
    """Each formula's interval (a formula that uses itself: unbounded), computed once each in
    dependency order, without recursion across formulas."""
    out: dict[str, Interval] = {}
    for formula in game.formulas:
        if formula.id in out:
            continue
        try:
            order = dependency_order(game, formula)
        except FormulaProblem:
            out[formula.id] = UNBOUNDED
            continue
        for needed in order:
            if needed.id not in out:
                out[needed.id] = interval(game, needed.expr, out)
    return out


def interval(
    game: model.Game,
    expr: Expr,
    formulas: Mapping[str, Interval] | None = None,
    found: list[Undefined] | None = None,
    ranges: Mapping[str, Interval] | None = None,
) -> Interval:
    """The interval of values `expr` takes over the declared ranges of its inputs (an int context
    variable without a range is unbounded; `ranges` narrows some, as an `if` does for its branch;
    `formulas` holds the intervals of the formulas it uses, `formula_intervals(game)` when None).
    Every division by an interval holding 0, every `^` whose exponent may leave 0-64 or whose base
    is unbounded, and every value beyond `MAX_MAGNITUDE` is appended to `found`."""
    known = formulas if formulas is not None else formula_intervals(game)
    sink: list[Undefined] = found if found is not None else []
    return _interval(game, expr, known, sink, ranges or {})


def _interval(
    game: model.Game,
    expr: Expr,
    formulas: Mapping[str, Interval],
    found: list[Undefined],
    ranges: Mapping[str, Interval],
) -> Interval:
    match expr:
        case Number(value):
            return Interval(Fraction(value), Fraction(value), True)
        case Var(var_id):
            return ranges.get(var_id) or _declared(game, var_id)
        case FormulaRef(ref):
            return formulas.get(ref, UNBOUNDED)
        case Binary(op, left, right):
            a = _interval(game, left, formulas, found, ranges)
            b = _interval(game, right, formulas, found, ranges)
            return _bounded(_binary_interval(op, a, b, expr, found), expr, found)
        case Neg(inner):
            a = _interval(game, inner, formulas, found, ranges)
            return Interval(None if a.high is None else -a.high, None if a.low is None else -a.low, a.whole)
        case Call(function, args):
            parts = [_interval(game, a, formulas, found, ranges) for a in args]
            return _call_interval(function, parts)
        case IfElse(cond, then, otherwise):
            branches = []
            for branch, holds_ in ((then, True), (otherwise, False)):
                # each piece of the inputs' ranges that sends the reader down this branch (none:
                # the condition never does); `k != 0` over -3..3 is two pieces, -3..-1 and 1..3
                for narrowed in _narrow(game, cond, holds_, dict(ranges)):
                    branches.append(_interval(game, branch, formulas, found, narrowed))
            if not branches:
                return UNBOUNDED
            hull = branches[0]
            for other in branches[1:]:
                hull = _hull(hull, other)
            return hull
        case _:
            assert_never(expr)


def _declared(game: model.Game, var_id: str) -> Interval:
    var = game.context.get(var_id)
    low = Fraction(var.low) if var is not None and isinstance(var.low, int) else None
    high = Fraction(var.high) if var is not None and isinstance(var.high, int) else None
    return Interval(low, high, True)


# At most this many pieces of the inputs' ranges are followed into an `if` branch; past it the
# branch is computed over the ranges not narrowed (wider, so never a value missed).
MAX_PIECES = 16


def _narrow(
    game: model.Game, cond: model.Condition, truth: bool, ranges: dict[str, Interval]
) -> list[dict[str, Interval]]:
    """The pieces of `ranges` (int variables narrowed where `cond` compares them with a number) on
    which `cond` is `truth`, each a whole interval per variable; none when it can never be (a
    branch no input reaches). Flags, months and members are not narrowed."""
    match cond:
        case model.Compare(var, op, value) if isinstance(value, int) and not isinstance(value, bool | str):
            current = ranges.get(var) or _declared(game, var)
            pieces = _compared(current, op if truth else _NEGATED[op], Fraction(value))
            return [{**ranges, var: piece} for piece in pieces if not piece.empty]
        case model.Not(inner):
            return _narrow(game, inner, not truth, ranges)
        case model.All(parts) if truth:
            return _narrow_all(game, parts, True, ranges)
        case model.Any_(parts) if not truth:
            return _narrow_all(game, parts, False, ranges)
        case model.In(var, values) if truth and values and all(isinstance(v, int) for v in values):
            current = ranges.get(var) or _declared(game, var)
            ints = [Fraction(v) for v in values if isinstance(v, int)]
            narrowed = _meet(current, Interval(min(ints), max(ints), True))
            return [] if narrowed.empty else [{**ranges, var: narrowed}]
        case _:
            return [ranges]


def _narrow_all(
    game: model.Game, parts: tuple[model.Condition, ...], truth: bool, ranges: dict[str, Interval]
) -> list[dict[str, Interval]]:
    current = [ranges]
    for part in parts:
        current = [piece for each in current for piece in _narrow(game, part, truth, each)]
        if len(current) > MAX_PIECES:
            return [ranges]
    return current


_NEGATED = {
    model.CompareOp.EQ: model.CompareOp.NE,
    model.CompareOp.NE: model.CompareOp.EQ,
    model.CompareOp.LT: model.CompareOp.GE,
    model.CompareOp.GE: model.CompareOp.LT,
    model.CompareOp.GT: model.CompareOp.LE,
    model.CompareOp.LE: model.CompareOp.GT,
}


def _compared(current: Interval, op: model.CompareOp, value: Fraction) -> list[Interval]:
    """The whole numbers of `current` for which `x OP value` holds, as intervals: one, or for `!=`
    a value inside `current` two, below and above it (an empty interval: none holds)."""
    match op:
        case model.CompareOp.EQ:
            return [_meet(current, Interval(value, value, True))]
        case model.CompareOp.NE:
            if not current.contains(value):
                return [current]
            below, above = Interval(None, value - 1, True), Interval(value + 1, None, True)
            return [_meet(current, below), _meet(current, above)]
        case model.CompareOp.LT:
            return [_meet(current, Interval(None, Fraction(math.ceil(value)) - 1, True))]
        case model.CompareOp.LE:
            return [_meet(current, Interval(None, Fraction(math.floor(value)), True))]
        case model.CompareOp.GT:
            return [_meet(current, Interval(Fraction(math.floor(value)) + 1, None, True))]
        case model.CompareOp.GE:
            return [_meet(current, Interval(Fraction(math.ceil(value)), None, True))]
        case _:
            assert_never(op)


def _meet(a: Interval, b: Interval) -> Interval:
    lows = [x for x in (a.low, b.low) if x is not None]
    highs = [x for x in (a.high, b.high) if x is not None]
    return Interval(max(lows) if lows else None, min(highs) if highs else None, a.whole and b.whole)


def _bounded(result: Interval, expr: Binary[Expr], found: list[Undefined]) -> Interval:
    """`result`, or unbounded after reporting a bound beyond `MAX_MAGNITUDE`."""
    ends = [x for x in (result.low, result.high) if x is not None]
    if any(abs(x) > MAX_MAGNITUDE for x in ends):
        found.append(Undefined(expr.span, "the value can exceed 10^30 over the inputs' ranges"))
        return Interval(None, None, result.whole)
    return result


def _unbounded(a: Interval) -> bool:
    return a.low is None or a.high is None


def _within(inner: Span, outer: Span) -> bool:
    """Whether span `inner` lies inside `outer`."""
    start = (outer.line, outer.col) <= (inner.line, inner.col)
    return start and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


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


def _binary_interval(op: Op, a: Interval, b: Interval, expr: Binary[Expr], found: list[Undefined]) -> Interval:
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
            # as `x ^ 2` with no range for x, the value has no bound; reported once, where it starts
            if _unbounded(a) and _unbounded(b) and not any(_within(u.span, expr.span) for u in found):
                why = f"both factors of `*` have no declared bound: {a.text}, {b.text}"
                found.append(Undefined(expr.span, f"the value can exceed 10^30 over the inputs' ranges ({why})"))
            return _products(a, b)
        case Op.DIV:
            if b.contains(Fraction(0)):
                found.append(Undefined(expr.right.span, f"the divisor can be 0 (it runs {b.text})"))
                return Interval(None, None, False)
            inverse = Interval(None if b.high is None else 1 / b.high, None if b.low is None else 1 / b.low, False)
            product = _products(a, inverse)
            return Interval(product.low, product.high, False)
        case Op.POW:
            return _power_interval(a, b, expr, found)
        case _:
            assert_never(op)


def _power_interval(a: Interval, b: Interval, expr: Binary[Expr], found: list[Undefined]) -> Interval:
    if not b.whole or b.low is None or b.low < 0 or b.high is None or b.high > MAX_EXPONENT:
        why = f"the exponent must be a whole number from 0 to {MAX_EXPONENT} (it runs {b.text})"
        found.append(Undefined(expr.right.span, why))
        return Interval(None, None, a.whole)
    if a.low is None or a.high is None:
        found.append(Undefined(expr.left.span, "the base of `^` has no declared range (it runs any value)"))
        return Interval(None, None, a.whole)
    low_e, high_e = int(b.low), int(b.high)
    bases = {a.low, a.high} | ({Fraction(0)} if a.low < 0 < a.high else set())
    exponents = (
        {low_e, high_e} | ({low_e + 1} if low_e < high_e else set()) | ({high_e - 1} if low_e < high_e else set())
    )
    if any(abs(x) > MAX_MAGNITUDE ** (1 / max(1, e)) for x in bases for e in exponents if e > 1 and abs(x) > 1):
        found.append(Undefined(expr.span, "the value can exceed 10^30 over the inputs' ranges"))
        return Interval(None, None, a.whole)
    values = [x**e for x in bases for e in exponents]
    return Interval(min(values), max(values), a.whole)


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
