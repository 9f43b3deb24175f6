"""`chartc dice EXPR`: a roll written as a chart's `roll` clause, answered as a designer asks a dice
calculator: each result's exact chance, the chance of at least and at most it, and a bar plot.

The expression is read by the chart language itself (a one-chart game parsed and resolved as any
other), so every dice form a chart may roll, its limits (C405) and `zero reads 0` are the same here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from compiler import model
from compiler.diagnostics import Severity, Sink
from compiler.diagnostics.textsafe import printable
from compiler.engine.chances import modified_distribution, percent_text, probability_json
from compiler.model.dice import Dice
from compiler.model.text import pipeline_text, step_json
from compiler.resolve import resolve_game
from dsl import ast
from dsl.parser import parse_text

_WHERE = "<dice>"
_BAR_WIDTH = 24
_EIGHTHS = " ▏▎▍▌▋▊▉█"


class DiceProblem(ValueError):
    """An expression that is not a roll the chart language can make (the message says why)."""


@dataclass(frozen=True)
class Distribution:
    """One expression's dice, the roll's steps after them (`then minus 3`, ...) and the exact
    outcomes of the roll, with the chance of at least and at most each."""

    expression: str
    dice: Dice
    steps: tuple[model.RollStep, ...]
    text: str  # the dice and steps as messages print them: `1d6, -3, minimum 0`
    outcomes: dict[int, Fraction]
    at_least: dict[int, Fraction]
    at_most: dict[int, Fraction]

    @property
    def mean(self) -> Fraction:
        return sum((r * p for r, p in self.outcomes.items()), Fraction(0))

    @property
    def low(self) -> int:
        return next(iter(self.outcomes))

    @property
    def high(self) -> int:
        return next(reversed(self.outcomes))


def read_roll(expression: str) -> model.Chart:
    """A one-chart game's chart that rolls `roll EXPRESSION` (`2d6`, `highest 3 of 4d6`,
    `exploding 2d6 depth 3`, `1d10 zero reads 0`, the steps `1d6 then minus 3 then minimum 0`).

    Raises:
        DiceProblem: the text is not one roll clause, or names dice the chart language refuses.
    """
    if not expression.strip() or any(c in expression for c in '{}"#\n\r'):
        raise DiceProblem(f"`{expression}` is not a roll: write it as after `roll` in a chart, e.g. `2d6`")
    text = f'game dice {{ title "Dice" }}\nchart [D] "Dice" {{\n  roll {expression}\n'
    text += '  column r: text\n  rows { 1: "a" }\n}\n'
    parsed = parse_text(text, _WHERE)
    if parsed.source is None:
        why = parsed.errors[0].message.replace(" while reading chart `D`", "")
        raise DiceProblem(f"`{expression}` is not a roll: {why}")
    sink = Sink()
    game = resolve_game("dice", [parsed.source], sink, ast.Span(_WHERE, 1, 1, 1, 1))
    errors = [d for d in sink.sorted() if d.severity is Severity.ERROR and d.span.line == 3]
    chart = game.charts[0] if game.charts else None
    if errors or chart is None or chart.dice is None:
        why = errors[0].message.replace("chart `D` ", "") if errors else "no dice"
        raise DiceProblem(f"`{expression}`: {why}")
    return chart


def distribution(expression: str) -> Distribution:
    """The roll of `read_roll(expression)` and its exact outcomes, read as a chart reads its roll
    with no DRM, through its steps (`compiler.engine.chances.modified_distribution`); raises
    DiceProblem as `read_roll`."""
    chart = read_roll(expression)
    assert chart.dice is not None  # read_roll raised otherwise
    outcomes = modified_distribution(chart, 0)
    at_least: dict[int, Fraction] = {}
    at_most: dict[int, Fraction] = {}
    below = Fraction(0)
    for roll, p in outcomes.items():
        at_least[roll] = 1 - below
        below += p
        at_most[roll] = below
    text = pipeline_text(chart) or chart.dice.text
    return Distribution(expression, chart.dice, chart.arithmetic, text, outcomes, at_least, at_most)


def dice_json(found: list[Distribution]) -> dict[str, Any]:
    """`chartc dice --format json`: each expression's outcomes as exact fractions and floats."""
    return {
        "expressions": [
            {
                "expression": d.expression,
                "dice": d.dice.text,
                "steps": [step_json(s) for s in d.steps],
                "min": d.low,
                "max": d.high,
                "mean": probability_json(d.mean),
                "outcomes": [
                    {
                        "roll": r,
                        "probability": probability_json(p),
                        "at_least": probability_json(d.at_least[r]),
                        "at_most": probability_json(d.at_most[r]),
                    }
                    for r, p in d.outcomes.items()
                ],
            }
            for d in found
        ]
    }


def dice_lines(found: list[Distribution]) -> list[str]:
    """`chartc dice`: a header per expression, then one line per result: for each expression its
    chance, at least, at most and a bar (the likeliest result a full bar); blank where the
    expression cannot roll that result. One expression also shows each chance as a fraction."""
    lines = [
        (f"{chr(65 + i)}: " if len(found) > 1 else "")
        + printable(d.expression)
        + (f" ({printable(d.text)})" if d.text != d.expression else "")
        + f": {d.low} to {d.high}, mean {float(d.mean):.2f}"
        for i, d in enumerate(found)
    ]
    rolls = sorted({r for d in found for r in d.outcomes})
    width = max(4, *(len(str(r)) for r in rolls))
    exact = len(found) == 1
    cells = {id(d): {r: _cells(d, r, exact) for r in d.outcomes} for d in found}
    sizes = [max(len(c[0]) for c in (*cells[id(d)].values(), ("chance",))) for d in found]
    heads = [f"{'chance':<{n}}  {'at least':>8}  {'at most':>8}  {'':<{_BAR_WIDTH}}" for n in sizes]
    lines.append("")
    if len(found) > 1:
        labels = [f"{chr(65 + i) + ':':<{len(h)}}" for i, h in enumerate(heads)]
        lines.append(f"{'':>{width}}  " + "  ".join(labels).rstrip())
    lines.append(f"{'roll':>{width}}  " + "  ".join(heads).rstrip())
    top = [max(d.outcomes.values()) for d in found]
    for r in rolls:
        parts = []
        for d, n, peak in zip(found, sizes, top, strict=True):
            if r in d.outcomes:
                chance, least, most = cells[id(d)][r]
                parts.append(f"{chance:<{n}}  {least:>8}  {most:>8}  {_bar(d.outcomes[r] / peak)}")
            else:
                parts.append(" " * (n + 2 + 8 + 2 + 8 + 2 + _BAR_WIDTH))
        lines.append(f"{r:>{width}}  " + "  ".join(parts).rstrip())
    return lines


def _cells(d: Distribution, r: int, exact: bool) -> tuple[str, str, str]:
    p = d.outcomes[r]
    chance = f"{p.numerator}/{p.denominator} ({percent_text(p)})" if exact else percent_text(p)
    return chance, percent_text(d.at_least[r]), percent_text(d.at_most[r])


def _bar(share: Fraction) -> str:
    """A horizontal bar of `share` (0 to 1) of `_BAR_WIDTH` characters, in eighths of a cell."""
    eighths = round(share * _BAR_WIDTH * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[part] if part else "")).ljust(_BAR_WIDTH)
