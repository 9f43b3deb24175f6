"""The generated Python of a game's worked examples: `EXAMPLES` and `check_examples()`.

Each example the charts agree with becomes the module's own calls (`lookup_<id>(roll, keys...,
drm=drm_<id>(context...) + extra)`) beside the cells the book prints, so a digital implementation
can run the rulebook's examples against the module it ships: `assert not check_examples()`.
Examples that follow a chain (the module rolls a chain with a generator, not given rolls), that
read an odds rule or a DRM list alone, or that declare they `contradicts` the charts are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from compiler import model
from compiler.checks.examples import read_example
from compiler.emit.python.chart import ChartEmitter
from compiler.emit.python.layout import INDENT, fill
from compiler.emit.python.literals import literal
from compiler.engine.compute import compute
from compiler.engine.context import read_context
from compiler.engine.lookup import LookupProblem, LookupResult, read_roll, resolve_keys

_CHECK = """
def check_examples() -> list[str]:
    \"\"\"Each worked example of the rulebook whose result this module does not give, in words
    (an empty list: every example agrees).
    \"\"\"
    failed = []
    for name, rule, call, expected in EXAMPLES:
        got: object
        try:
            got = call()
        except NoRowError:
            got = None
        if isinstance(expected, dict) and isinstance(got, Mapping):
            if all(got.get(k) == v for k, v in expected.items()):
                continue
        elif got == expected:
            continue
        failed.append(f"{name} (rule {rule}): the book gives {expected}, the module {got}")
    return failed
"""
_LOOKUP_KINDS = (model.ChartKind.ROLL, model.ChartKind.VALUE, model.ChartKind.REFERENCE)


@dataclass(frozen=True)
class FormulaNames:
    """The module's name of each formula's function, and of each context variable's parameter."""

    functions: Mapping[str, str]
    context: Mapping[str, str]


def has_examples(game: model.Game, emitters: Mapping[str, ChartEmitter], formulas: FormulaNames) -> bool:
    return any(_call(game, e, emitters, formulas) is not None for e in game.examples)


def examples_code(game: model.Game, emitters: Mapping[str, ChartEmitter], formulas: FormulaNames) -> str:
    """`EXAMPLES` (name, rule, the call, the cells the book prints or None for no row) and the
    function that runs them; emitters by chart address."""
    entries = []
    for example in game.examples:
        call = _call(game, example, emitters, formulas)
        if call is None:
            continue
        callee, arguments, expected = call
        entries += [f"{INDENT}(", f"{INDENT * 2}{example.id!r},", f"{INDENT * 2}{example.rule or ''!r},"]
        entries += fill(f"lambda: {callee}(", arguments, "),", INDENT * 2)
        if isinstance(expected, str):
            entries.append(f"{INDENT * 2}{expected},")
        else:
            entries += fill("{", expected, "},", INDENT * 2) if expected is not None else [f"{INDENT * 2}None,"]
        entries.append(f"{INDENT}),")
    lines = [
        "",
        "",
        "# The rulebook's worked examples as calls of this module's own functions, with the cells the",
        "# book prints (None: the roll selects no row) or the number a formula computes; check_examples()",
        "# runs them.",
        "EXAMPLES: Final[tuple[tuple[str, str, Callable[[], object], object], ...]] = (",
        *entries,
        ")",
        "",
        "",
        *_CHECK.strip("\n").split("\n"),
    ]
    return "\n".join(lines)


def _call(
    game: model.Game, example: model.Example, emitters: Mapping[str, ChartEmitter], formulas: FormulaNames
) -> tuple[str, list[str], list[str] | str | None] | None:
    """The module's function, its arguments and the cells it must give (None: no row; a str: the
    number a formula computes) for the example, or None when the example is left out."""
    if example.formula is not None:
        return _formula_call(game, example, formulas)
    chart = game.chart(example.chart)
    if chart is None or example.follow or example.contradicts is not None or chart.kind not in _LOOKUP_KINDS:
        return None
    try:
        reading = read_example(game, chart, example)
    except LookupProblem:
        return None
    emitter = emitters[chart.address]
    cells = [e for e in example.expects if e.kind is model.ExpectKind.CELL]
    no_row = any(e.kind is model.ExpectKind.NO_ROW for e in example.expects)
    if reading.no_row is not None:
        if not no_row:
            return None
        keys = {k.id: m.id for k, m in resolve_keys(chart, dict(example.keys))}
        sets = tuple(f"{name}={value}" for name, value in example.sets)
        context = {**keys, **(read_context(game, chart, example.when, sets) if chart.drms else {})}
        natural = read_roll(chart, example.rolls[0]) if example.rolls else None
        return f"lookup_{emitter.ident}", _arguments(emitter, example, natural, keys, context), None
    if not isinstance(reading.result, LookupResult) or not cells:
        return None
    result = reading.result
    keys = {k.id: m.id for k, m in result.keys}
    context = {**keys, **(result.modifiers.context if result.modifiers is not None else {})}
    arguments = _arguments(emitter, example, result.natural, keys, context)
    return f"lookup_{emitter.ident}", arguments, [f"{e.column!r}: {emitter.python_value(e.value)}" for e in cells]


def _formula_call(
    game: model.Game, example: model.Example, formulas: FormulaNames
) -> tuple[str, list[str], str] | None:
    formula = game.formula(example.formula or "")
    if formula is None or example.contradicts is not None:
        return None
    sets = tuple(f"{name}={value}" for name, value in example.sets)
    try:
        got = compute(game, formula, example.when, sets)
    except LookupProblem:
        return None
    arguments = [f"{formulas.context[k]}={literal(v)}" for k, v in got.context.items()]
    return formulas.functions[formula.id], arguments, repr(int(example.expects[0].text))


def _arguments(
    emitter: ChartEmitter,
    example: model.Example,
    natural: int | None,
    keys: Mapping[str, str],
    context: Mapping[str, object],
) -> list[str]:
    """The lookup's arguments: the natural roll (or value) as an int, the keys by member id, and the
    DRM as the module's own `drm_<id>` of the example's context (plus the example's `drm`)."""
    chart = emitter.chart
    out = [] if natural is None else [repr(natural)]
    out += [f"{p.name}={keys[p.id]!r}" for p in emitter.lookup_key_params() if p.id in keys]
    if chart.kind is model.ChartKind.REFERENCE:
        return out
    drm = repr(example.drm)
    if chart.drms:
        given = [f"{p.name}={literal(context[p.id])}" for p in emitter.context_params() if p.id in context]
        drm = f"drm_{emitter.ident}({', '.join(given)})" + (f" + {example.drm!r}" if example.drm else "")
    out.append(f"drm={drm}")
    return out
