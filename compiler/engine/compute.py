"""Compute a formula as a player does: `chartc compute GAME/FORMULA --set NAME=VALUE --when FLAG`.

Its inputs are read as `--set`/`--when` are for a chart, against the context variables the formula
reads (a name it does not read is refused, never ignored); the value is `compiler.engine.formulas`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from compiler import model
from compiler.diagnostics.suggest import did_you_mean
from compiler.engine.context import ContextValue, read_given
from compiler.engine.formulas import FormulaProblem, evaluate, expr_text, inputs
from compiler.engine.problems import LookupProblem, LookupUsage


@dataclass(frozen=True)
class ComputeResult:
    """A formula's value, the context it was computed in and the formula as written."""

    formula: model.Formula
    context: Mapping[str, ContextValue]
    value: int
    text: str


def compute(game: model.Game, formula: model.Formula, when: tuple[str, ...], sets: tuple[str, ...]) -> ComputeResult:
    """The formula's value for the flags `when` (each true; every other flag false) and the
    `NAME=VALUE` pairs `sets`.

    Raises:
        LookupUsage: a name the formula does not read, a value of the wrong type, a name given twice.
        LookupProblem: an int input left out, or a value the formula has none for.
    """
    reads = inputs(game, formula)
    def variable(name: str, option: str) -> model.ContextVar:
        return _input(game, formula, reads, name, option)

    context = read_given(game, when, sets, variable, "production=10")
    missing = [v for v in reads if v not in context and game.context[v].type is model.ContextType.INT]
    if missing:
        needed = (f"--set {v}=N ({game.context[v].label})" for v in missing)
        raise LookupUsage(f"formula `{formula.id}` needs " + ", ".join(needed))
    try:
        value = evaluate(game, formula, context)
    except FormulaProblem as exc:
        raise LookupProblem(str(exc)) from exc
    return ComputeResult(formula, context, value, expr_text(formula.expr))


def _input(
    game: model.Game, formula: model.Formula, reads: tuple[str, ...], name: str, option: str
) -> model.ContextVar:
    if name not in reads:
        hint = did_you_mean(name, reads) or ""
        raise LookupUsage(
            f"formula `{formula.id}` does not read `{name}` ({option}); it reads "
            + (", ".join(reads) or "no context variable")
            + (f"; {hint}" if hint.startswith("did you mean") else "")
        )
    return game.context[name]
