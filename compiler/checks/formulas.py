"""Computed values: a formula must have a whole value for every input its declared ranges allow
(C470), and a value at all (C471: no divisor that can be 0, no bad exponent, no value beyond
10^30, no formula that uses itself, no chain of formulas deeper than `MAX_CHAIN`)."""

from __future__ import annotations

from compiler import model
from compiler.checks.formula_intervals import Undefined, formula_intervals, interval
from compiler.diagnostics import Applicability, Edit, Fix, Label, Sink, codes
from compiler.engine.formulas import FormulaProblem, dependency_order, refs
from dsl.ast import Span

# The longest chain of formulas using formulas: the generated module calls one function per link.
MAX_CHAIN = 100


def check_formulas(game: model.Game, sink: Sink) -> None:
    intervals = formula_intervals(game)
    depth: dict[str, int] = {}
    for formula in game.formulas:
        try:
            order = dependency_order(game, formula)
        except FormulaProblem as exc:
            loop = " -> ".join(f"`{f}`" for f in exc.cycle)
            sink.emit(
                codes.FORMULA_UNDEFINED,
                f"formula `{formula.id}` can have no value: it uses itself ({loop})",
                formula.span,
                "a formula may use other formulas, never itself",
            )
            continue
        for needed in order:
            if needed.id not in depth:
                depth[needed.id] = 1 + max((depth.get(r, 0) for r in refs(needed.expr)), default=0)
        if depth[formula.id] > MAX_CHAIN:
            sink.emit(
                codes.FORMULA_UNDEFINED,
                f"formula `{formula.id}` is computed through {depth[formula.id]} formulas, more than {MAX_CHAIN}",
                formula.span,
                "write the rule with fewer steps: each formula may combine several operations",
            )
            continue
        found: list[Undefined] = []
        result = interval(game, formula.expr, intervals, found)
        # an `if` branch is computed once per piece of its inputs' ranges: one finding per place
        first: dict[Span, Undefined] = {}
        for where in found:
            first.setdefault(where.span, where)
        for where in first.values():
            sink.emit(
                codes.FORMULA_UNDEFINED,
                f"formula `{formula.id}` can have no value: {where.why}",
                where.span,
                "declare the input's range, or choose the case with `if ... then ... else ...` "
                "(a comparison with a number narrows the range in each branch)",
                (Label(formula.span, "in this formula"),),
            )
        if not found and not result.whole:
            sink.emit(
                codes.FORMULA_NOT_WHOLE,
                f"formula `{formula.id}` can give a fraction: nothing rounds its `/`",
                formula.expr.span,
                "round where the rule rounds: `floor(...)` (down), `ceil(...)` (up) or `round(...)` (half up)",
                fix=_rounded(formula.expr.span),
            )


def _rounded(span: Span) -> Fix:
    """C470's fix, shown only: the whole result rounded down. Where the rule rounds (down, up, which
    part) is the reader's to say, so no tool applies it."""
    start = Span(span.file, span.line, span.col, span.line, span.col)
    end = Span(span.file, span.end_line, span.end_col, span.end_line, span.end_col)
    edits = (Edit(start, "floor("), Edit(end, ")"))
    return Fix("round the result down: `floor(...)` (or `ceil`, `round`, as the rule says)", edits,
               Applicability.DISPLAY_ONLY)
