"""The interval a formula's value takes over its inputs' declared ranges, and the places where it may
have no value: a divisor that can be 0, an exponent outside 0-64, a value beyond 10^30.

`compiler.checks.formulas` reports what this finds (C470, C471). The arithmetic is the engine's
(`compiler.engine.formulas`): a rounding function maps an interval's ends as it maps a value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.engine.formulas import MAX_EXPONENT, FormulaProblem, apply, dependency_order
from compiler.model import formulas as fx
from dsl.shared import Span

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
    expr: fx.Expr,
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
    expr: fx.Expr,
    formulas: Mapping[str, Interval],
    found: list[Undefined],
    ranges: Mapping[str, Interval],
) -> Interval:
    match expr:
        case fx.Number(value):
            return Interval(Fraction(value), Fraction(value), True)
        case fx.Var(var_id):
            return ranges.get(var_id) or _declared(game, var_id)
        case fx.FormulaRef(ref):
            return formulas.get(ref, UNBOUNDED)
        case fx.Binary(op, left, right):
            a = _interval(game, left, formulas, found, ranges)
            b = _interval(game, right, formulas, found, ranges)
            return _bounded(_binary_interval(op, a, b, expr, found), expr, found)
        case fx.Neg(inner):
            a = _interval(game, inner, formulas, found, ranges)
            return Interval(None if a.high is None else -a.high, None if a.low is None else -a.low, a.whole)
        case fx.Call(function, args):
            parts = [_interval(game, a, formulas, found, ranges) for a in args]
            return _call_interval(function, parts)
        case fx.IfElse(cond, then, otherwise):
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


def _bounded(result: Interval, expr: fx.Binary[fx.Expr], found: list[Undefined]) -> Interval:
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


def _binary_interval(op: fx.Op, a: Interval, b: Interval, expr: fx.Binary[fx.Expr], found: list[Undefined]) -> Interval:
    match op:
        case fx.Op.ADD:
            low = None if a.low is None or b.low is None else a.low + b.low
            high = None if a.high is None or b.high is None else a.high + b.high
            return Interval(low, high, a.whole and b.whole)
        case fx.Op.SUB:
            low = None if a.low is None or b.high is None else a.low - b.high
            high = None if a.high is None or b.low is None else a.high - b.low
            return Interval(low, high, a.whole and b.whole)
        case fx.Op.MUL:
            # as `x ^ 2` with no range for x, the value has no bound; reported once, where it starts
            if _unbounded(a) and _unbounded(b) and not any(_within(u.span, expr.span) for u in found):
                why = f"both factors of `*` have no declared bound: {a.text}, {b.text}"
                found.append(Undefined(expr.span, f"the value can exceed 10^30 over the inputs' ranges ({why})"))
            return _products(a, b)
        case fx.Op.DIV:
            if b.contains(Fraction(0)):
                found.append(Undefined(expr.right.span, f"the divisor can be 0 (it runs {b.text})"))
                return Interval(None, None, False)
            inverse = Interval(None if b.high is None else 1 / b.high, None if b.low is None else 1 / b.low, False)
            product = _products(a, inverse)
            return Interval(product.low, product.high, False)
        case fx.Op.POW:
            return _power_interval(a, b, expr, found)
        case _:
            assert_never(op)


def _power_interval(a: Interval, b: Interval, expr: fx.Binary[fx.Expr], found: list[Undefined]) -> Interval:
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


def _call_interval(function: fx.Function, parts: list[Interval]) -> Interval:
    if function in fx.ROUNDING:
        a = parts[0]
        low = None if a.low is None else apply(function, [a.low])
        high = None if a.high is None else apply(function, [a.high])
        return Interval(low, high, True)
    lows = [p.low for p in parts]
    highs = [p.high for p in parts]
    whole = all(p.whole for p in parts)
    if function is fx.Function.MIN:
        low = None if None in lows else min(x for x in lows if x is not None)
        known = [x for x in highs if x is not None]
        return Interval(low, min(known) if known else None, whole)
    low_known = [x for x in lows if x is not None]
    high = None if None in highs else max(x for x in highs if x is not None)
    return Interval(max(low_known) if low_known else None, high, whole)
