"""The game's computed values (formulas) as the player aid prints them (issue 34): each formula's
title and rule, how its result is computed in the player's words (`sorties flown ÷ 3, rounded
down`), and its inputs with what each may be, never an identifier chartc reads; and the data the
page's calculator reads (`formula_data`: each formula's expression tree and its inputs' fields).

Pure: model in, views and JSON-ready data out. The page's engine (`templates/engine.js`,
`formulaValue`) computes a formula as `compiler.engine.formulas.evaluate` does, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_never

from compiler import model
from compiler.emit.html.wording import describe_condition, for_players
from compiler.emit.json_rules import formula_json
from compiler.engine.formulas import inputs as formula_inputs
from compiler.model import formulas as fx

_OPS = {fx.Op.ADD: "+", fx.Op.SUB: "\u2212", fx.Op.MUL: "\u00d7", fx.Op.DIV: "\u00f7", fx.Op.POW: "^"}
_COMPARE = {"==": "=", "!=": "\u2260", ">=": "\u2265", "<=": "\u2264", ">": ">", "<": "<"}
# binding strength of each printed form, loosest first (as `compiler.model.formulas` prints them)
_IF, _ADD, _MUL, _NEG, _POW, _ATOM = 0, 1, 2, 3, 4, 5
_LEVEL = {fx.Op.ADD: _ADD, fx.Op.SUB: _ADD, fx.Op.MUL: _MUL, fx.Op.DIV: _MUL, fx.Op.POW: _POW}


@dataclass(frozen=True)
class FormulaInput:
    """An input a formula reads, as the aid names it: its label, and what it may be (`0 to 300`,
    `yes or no`)."""

    label: str
    values: str


@dataclass(frozen=True)
class FormulaView:
    """A formula as the aid prints it."""

    id: str
    anchor: str
    title: str
    rule: str | None
    result: str
    inputs: tuple[FormulaInput, ...]
    applies: str | None
    notes: tuple[str, ...]


def formula_views(game: model.Game) -> tuple[FormulaView, ...]:
    """Every formula of the game, in source order, as the aid prints it."""
    return tuple(formula_view(game, f) for f in game.formulas)


def formula_view(game: model.Game, f: model.Formula) -> FormulaView:
    applies = None
    if f.requires is not None:
        r = f.requires
        applies = f"{words(game, r.left)} {_COMPARE[r.op.value]} {words(game, r.right)}"
    return FormulaView(
        f.id,
        formula_anchor(f),
        for_players(game, f.title),
        f.rule,
        words(game, f.expr),
        tuple(_input(game, v) for v in formula_inputs(game, f) if v in game.context),
        applies,
        tuple(for_players(game, n) for n in f.notes),
    )


def formula_anchor(f: model.Formula) -> str:
    """The id of the formula's entry in the page (the calculator sits under it)."""
    return "formula-" + f.id.replace("_", "-")


def _input(game: model.Game, var_id: str) -> FormulaInput:
    var = game.context[var_id]
    match var.type:
        case model.ContextType.INT:
            low = var.low if isinstance(var.low, int) else None  # an int's bounds are ints
            high = var.high if isinstance(var.high, int) else None
            values = (
                f"{_number(low)} to {_number(high)}" if low is not None and high is not None
                else f"{_number(low)} or more" if low is not None
                else f"{_number(high)} or less" if high is not None
                else "a whole number"
            )
        case model.ContextType.FLAG:
            values = "yes or no"
        case model.ContextType.ENUM:
            enum = game.enums.get(var.enum or "")
            values = ", ".join(m.label for m in enum.members) if enum else "one of its values"
        case model.ContextType.MONTH:
            values = "a game month"
        case _:
            assert_never(var.type)
    return FormulaInput(for_players(game, var.label), values)


def _number(value: int | None) -> str:
    return "" if value is None else (f"\u2212{-value}" if value < 0 else str(value))


def _short(label: str) -> str:
    """A label as a term inside a formula: up to its first parenthesis (`sorties flown` for
    `sorties flown (not those skipped ...)`); the inputs list gives it whole."""
    head = label.split(" (", 1)[0].strip()
    return head or label


def words(game: model.Game, expr: fx.Expr) -> str:
    """How a formula's result is computed, in the player's words: inputs by their labels, other
    formulas by their titles, the signs of times and divided by, `rounded down`, `the lesser of`,
    `if ...: ...; otherwise ...`."""
    return _words(game, expr, _IF)


def _words(game: model.Game, expr: fx.Expr, outer: int) -> str:
    match expr:
        case fx.Number(value):
            return _grouped(_number(value), _NEG, outer) if value < 0 else str(value)
        case fx.Var(var_id):
            var = game.context.get(var_id)
            return _short(for_players(game, var.label)) if var is not None else var_id
        case fx.FormulaRef(ref):
            other = game.formula(ref)
            return _short(for_players(game, other.title)) if other is not None else ref
        case fx.Binary(op, left, right):
            mine = _LEVEL[op]
            places = (_ATOM, _NEG) if op is fx.Op.POW else (mine, mine + 1)
            text = f"{_words(game, left, places[0])} {_OPS[op]} {_words(game, right, places[1])}"
            return _grouped(text, mine, outer)
        case fx.Neg(inner):
            return _grouped(f"\u2212{_words(game, inner, _NEG)}", _NEG, outer)
        case fx.Call(function, args):
            return _grouped(_call(game, function, args), _IF, outer)
        case fx.IfElse(cond, then, otherwise):
            text = (
                f"if {describe_condition(cond, game)}: {_words(game, then, _IF)}; "
                f"otherwise {_words(game, otherwise, _IF)}"
            )
            return _grouped(text, _IF, outer)
        case _:
            assert_never(expr)


def _call(game: model.Game, function: fx.Function, args: tuple[fx.Expr, ...]) -> str:
    parts = [_words(game, a, _ADD) for a in args]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    match function:
        case fx.Function.FLOOR:
            return f"{parts[0]}, rounded down"
        case fx.Function.CEIL:
            return f"{parts[0]}, rounded up"
        case fx.Function.ROUND:
            return f"{parts[0]}, rounded to the nearest (halves up)"
        case fx.Function.MIN:
            return f"the {'lesser' if len(parts) == 2 else 'least'} of {listed}"
        case fx.Function.MAX:
            return f"the {'greater' if len(parts) == 2 else 'greatest'} of {listed}"
        case _:
            assert_never(function)


def _grouped(text: str, level: int, outer: int) -> str:
    return f"({text})" if level < outer else text


def formula_data(game: model.Game) -> list[dict[str, Any]]:
    """The page's data of every formula: its expression tree and `requires` as the game JSON writes
    them, the anchor of its printed entry, its title and rule, and the context variables it reads
    (the page gives each a field, as a chart's panel does)."""
    out = []
    for f in game.formulas:
        doc = formula_json(game, f)
        view = formula_view(game, f)
        out.append({
            "id": f.id,
            "anchor": view.anchor,
            "title": f.title,
            "rule": f.rule,
            "expression": doc["expression"],
            "requires": doc["requires"],
            "applies": view.applies,
            "inputs": [v for v in doc["inputs"] if v in game.context],
        })
    return out
