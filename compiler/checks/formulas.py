"""Computed values: a formula must have a whole value for every input its declared ranges allow
(C470), and a value at all (C471: no divisor that can be 0, no bad exponent, no formula that uses
itself)."""

from __future__ import annotations

from collections.abc import Iterator

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.formulas import Undefined, interval
from compiler.model import formulas as fx


def check_formulas(game: model.Game, sink: Sink) -> None:
    for formula in game.formulas:
        loop = _loop(game, formula.id, (formula.id,))
        if loop is not None:
            path = " -> ".join(f"`{f}`" for f in loop)
            sink.emit(
                codes.FORMULA_UNDEFINED,
                f"formula `{formula.id}` uses itself: {path}",
                formula.span,
                "a formula may use other formulas, never itself",
            )
            continue
        found: list[Undefined] = []
        result = interval(game, formula.expr, (formula.id,), found)
        for where in found:
            sink.emit(
                codes.FORMULA_UNDEFINED,
                f"formula `{formula.id}` can have no value: {where.why}",
                where.span,
                "declare the input's range, or guard it with `if ... then ... else ...`",
                (Label(formula.span, "in this formula"),),
            )
        if not found and not result.whole:
            sink.emit(
                codes.FORMULA_NOT_WHOLE,
                f"formula `{formula.id}` can give a fraction: nothing rounds its `/`",
                formula.expr.span,
                "round where the rule rounds: `floor(...)` (down), `ceil(...)` (up) or `round(...)` (half up)",
            )


def _loop(game: model.Game, name: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The path back to `path[0]` through the formulas `name` uses, if there is one."""
    formula = game.formula(name)
    if formula is None:
        return None
    for ref in _refs(formula.expr):
        if ref == path[0]:
            return (*path, ref)
        if ref not in path:
            found = _loop(game, ref, (*path, ref))
            if found is not None:
                return found
    return None


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
