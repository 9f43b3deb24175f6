"""The first step of a roll: the dice, thrown with a `random.Random` and read as the chart reads
them; and which dice a chart with `roll ... when` alternatives rolls in a context.

The exact chance of each natural roll is the model's (`compiler.model.dice.Dice.outcomes`);
tests/test_roll_distribution.py holds the two together, outcome by outcome.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import NamedTuple, TypeVar

from compiler.engine.runtime.conditions import _Condition, _Context, _holds

# ---- inlined into a generated module below this line
_D = TypeVar("_D")


class _Dice(NamedTuple):
    """Dice as a chart rolls them: `number` dice of `sides` faces read by `form` ('sum', 'd66',
    'percentile', 'lower', 'higher', 'highest', 'lowest', 'versus'). 'highest'/'lowest' sum the
    `keep` highest/lowest dice; 'versus' subtracts the total of the opposing dice (number, sides).
    A d10's 0 face reads 10 unless `zero` is 0."""

    form: str
    number: int
    sides: int
    keep: int = 0
    versus: tuple[int, int] = (0, 0)
    zero: int = 10


def _roll(rng: random.Random, dice: _Dice) -> int:
    """A natural roll of `dice`, read as the chart reads it (a d10's 0 is 10 unless `zero` is 0,
    a percentile 00 is 100).
    """
    form = dice.form
    if form == "d66":
        return rng.randint(1, 6) * 10 + rng.randint(1, 6)
    if form == "percentile":
        return (rng.randint(0, 9) * 10 + rng.randint(0, 9)) or 100
    faces = sorted(_throw(rng, dice.number, dice.sides, dice.zero))
    if form == "lower":
        return faces[0]
    if form == "higher":
        return faces[-1]
    if form == "highest":
        return sum(faces[dice.number - dice.keep :])
    if form == "lowest":
        return sum(faces[: dice.keep])
    if form == "versus":
        return sum(faces) - sum(_throw(rng, dice.versus[0], dice.versus[1], dice.zero))
    return sum(faces)


def _throw(rng: random.Random, count: int, sides: int, zero: int) -> list[int]:
    """`count` dice of `sides` faces; a d10 read 0-9 when `zero` is 0."""
    low = 0 if sides == 10 and zero == 0 else 1
    return [rng.randint(low, sides - 1 + low) for _ in range(count)]


def _dice_for(alternatives: tuple[tuple[_Condition, _D], ...], context: Mapping[str, _Context], dice: _D) -> _D:
    """The dice a chart rolls in `context`: those of the first `roll ... when` alternative whose
    condition is true, else its own `dice`.
    """
    return next((alt for when, alt in alternatives if _holds(when, context) is True), dice)
