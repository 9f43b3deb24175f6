"""Domains of computed values and records: a formula's result over its inputs' declared ranges, and
a record's int field, must lie inside the domain declared for it (C475; the note C476 where the
formula keeps the book's gap, `kept "why"`). A formula's finding names the inputs that give the
value outside, found by computing the formula (with the engine) on the values where its result can
turn: each input's ends, the numbers its conditions compare it with and their neighbours, and for a
`requires` between two inputs the other's values too."""

from __future__ import annotations

import itertools
from fractions import Fraction

from compiler import model
from compiler.checks.formula_intervals import Interval, formula_intervals, interval
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.formulas import FormulaProblem, evaluate, formula_refs, inputs
from compiler.model import formulas as fx
from compiler.model.conditions import tests

# At most this many input combinations are computed to find the inputs of a value outside the domain.
MAX_WITNESS_TRIALS = 20_000
# An input with no upper (lower) end is tried at each of the next `_NEAR` values past its last named
# value, and this far past it.
_NEAR = 40
_FAR = 1000


def check_domains(game: model.Game, sink: Sink) -> None:
    intervals = formula_intervals(game)
    for formula in game.formulas:
        if formula.domain is not None:
            _check_formula(game, formula, formula.domain, intervals, sink)
    for enum in game.enums.values():
        for field in enum.fields:
            if field.domain is not None:
                _check_field(enum, field, field.domain, sink)


def _check_formula(
    game: model.Game,
    formula: model.Formula,
    domain: model.Domain,
    intervals: dict[str, Interval],
    sink: Sink,
) -> None:
    """C475 (C476 when kept) with the inputs of one value outside the domain; nothing when the
    interval of the result lies inside it, or no input combination tried gives a value outside."""
    hull = interval(game, formula.expr, intervals)
    low = Fraction(domain.low) if domain.low is not None else None
    high = Fraction(domain.high) if domain.high is not None else None
    inside = (low is None or (hull.low is not None and hull.low >= low)) and (
        high is None or (hull.high is not None and hull.high <= high)
    )
    if inside:
        return
    witness = _witness(game, formula, domain)
    if witness is None:
        return
    given, value = witness
    shown = ", ".join(f"{k} {_word(v)}" for k, v in given.items())
    within = f" (limit `{domain.within}`)" if domain.within else ""
    message = (
        f"formula `{formula.id}` gives {value} for {shown}: outside its domain {domain.text}{within}"
        if shown
        else f"formula `{formula.id}` gives {value}: outside its domain {domain.text}{within}"
    )
    labels = (Label(domain.span, f"the domain: {domain.text}"),)
    if formula.kept is not None:
        sink.emit(codes.OUTSIDE_DOMAIN_KEPT, f"{message}; kept as printed: {formula.kept}", formula.span, None, labels)
        return
    sink.emit(
        codes.OUTSIDE_DOMAIN,
        message,
        formula.span,
        "cap or guard the result as the rule does (`min(...)`, `max(...)`, `requires ...`); where the book "
        'gives such values, keep them and say why: `kept "why"`',
        labels,
    )


def _word(value: bool | int | str) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _witness(
    game: model.Game, formula: model.Formula, domain: model.Domain
) -> tuple[dict[str, bool | int | str], int] | None:
    """Inputs for which the formula (its `requires` met) gives a value outside `domain`, and that
    value; None when none of the combinations tried does."""
    names = inputs(game, formula)
    choices: list[list[bool | int]] = []
    compared = _constants(game, formula)
    for name in names:
        var = game.context.get(name)
        if var is None or var.type not in (model.ContextType.INT, model.ContextType.FLAG):
            return None  # a month or an enum input: not searched
        if var.type is model.ContextType.FLAG:
            choices.append([False, True])
            continue
        choices.append(_int_values(var, compared.get(name, set())))
    for _ in range(2):  # a `requires` between two inputs: each tries the other's values too
        for pair in _paired(formula):
            a, b = pair
            if a in names and b in names:
                ia, ib = names.index(a), names.index(b)
                merged = sorted({*choices[ia], *choices[ib]} - {True, False})
                choices[ia] = [v for v in merged if _in_range(game, a, v)]
                choices[ib] = [v for v in merged if _in_range(game, b, v)]
    trials = 1
    for c in choices:
        trials *= max(1, len(c))
    if trials > MAX_WITNESS_TRIALS:
        return None
    for combo in itertools.product(*choices):
        context = dict(zip(names, combo, strict=True))
        try:
            value = evaluate(game, formula, context)
        except FormulaProblem:
            continue
        if not domain.holds(value):
            return {k: v for k, v in context.items()}, value
    return None


def _in_range(game: model.Game, name: str, value: int) -> bool:
    var = game.context[name]
    return (not isinstance(var.low, int) or value >= var.low) and (not isinstance(var.high, int) or value <= var.high)


def _int_values(var: model.ContextVar, constants: set[int]) -> list[int]:
    """The values of an int input where a formula's result can turn: its ends (or far past its last
    named value where it has none), the numbers compared with it and their neighbours, inside its range."""
    low = var.low if isinstance(var.low, int) else None
    high = var.high if isinstance(var.high, int) else None
    named = {c + d for c in constants for d in (-1, 0, 1)} | {0, 1}
    if low is not None and high is not None and high - low <= 40:
        return list(range(low, high + 1))
    values = set(named)
    # an open end: the values just past its last named one (the first that leaves a domain), and one far
    base_low = low if low is not None else min(named)
    base_high = max(named | ({low} if low is not None else set()))
    values |= {low, low + 1} if low is not None else {*range(base_low - _NEAR, base_low + 1), base_low - _FAR}
    values |= {high, high - 1} if high is not None else {*range(base_high, base_high + _NEAR + 1), base_high + _FAR}
    return sorted(v for v in values if (low is None or v >= low) and (high is None or v <= high))


def _constants(game: model.Game, formula: model.Formula) -> dict[str, set[int]]:
    """The numbers each input is compared with in the conditions of the formula and those it uses."""
    found: dict[str, set[int]] = {}
    seen: set[str] = set()
    todo = [formula]
    while todo:
        current = todo.pop()
        if current.id in seen:
            continue
        seen.add(current.id)
        for cond in _conditions(current.expr):
            for test in tests(cond):
                if isinstance(test, model.Compare) and isinstance(test.value, int):
                    found.setdefault(test.var, set()).add(test.value)
                elif isinstance(test, model.In):
                    found.setdefault(test.var, set()).update(v for v in test.values if isinstance(v, int))
        todo += [f for f in (game.formula(r) for r in formula_refs(current)) if f is not None]
    return found


def _conditions(expr: fx.Expr) -> list[model.Condition]:
    match expr:
        case fx.IfElse(cond, then, otherwise):
            return [cond, *_conditions(then), *_conditions(otherwise)]
        case fx.Binary(_, left, right):
            return _conditions(left) + _conditions(right)
        case fx.Neg(inner):
            return _conditions(inner)
        case fx.Call(_, args):
            return [c for a in args for c in _conditions(a)]
        case _:
            return []


def _paired(formula: model.Formula) -> list[tuple[str, str]]:
    """Two inputs a `requires` compares directly (`xp >= promotion_number`)."""
    req = formula.requires
    if req is None or not isinstance(req.left, fx.Var) or not isinstance(req.right, fx.Var):
        return []
    return [(req.left.id, req.right.id)]


def _check_field(enum: model.EnumType, field: model.Field, domain: tuple[int | None, int | None], sink: Sink) -> None:
    low, high = domain
    shown = f"{low}-{high}" if high is not None else f"{low}+"
    for member in enum.members:
        value = member.get(field.id)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if (low is not None and value < low) or (high is not None and value > high):
            sink.emit(
                codes.OUTSIDE_DOMAIN,
                f"`{member.id}` ({enum.label}) has {field.id} {value}, outside its domain {shown}",
                member.span,
                f"check the record's {field.label.lower()} against the rule, or the field's range",
                (Label(field.domain_span or field.span, f"the domain of `{field.id}`"),),
            )
