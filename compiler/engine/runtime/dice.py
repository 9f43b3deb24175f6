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
    'percentile', 'lower', 'higher', 'highest', 'lowest', 'versus', 'explode'). 'highest'/'lowest'
    sum the `keep` highest/lowest dice; 'versus' subtracts the total of the opposing dice (number,
    sides); 'explode' rolls a die showing its top face again and adds, at most `depth` times a die.
    A d10's 0 face reads 10 unless `zero` is 0."""

    form: str
    number: int
    sides: int
    keep: int = 0
    versus: tuple[int, int] = (0, 0)
    zero: int = 10
    depth: int = 0


def _roll(rng: random.Random, dice: _Dice) -> int:
    """A natural roll of `dice`, read as the chart reads it (a d10's 0 is 10 unless `zero` is 0,
    a percentile 00 is 100).
    """
    form = dice.form
    if form == "d66":
        return rng.randint(1, 6) * 10 + rng.randint(1, 6)
    if form == "percentile":
        return (rng.randint(0, 9) * 10 + rng.randint(0, 9)) or 100
    if form == "lower_tens":  # the lower d10 as tens, the other as ones
        one, other = rng.randint(0, 9), rng.randint(0, 9)
        return (min(one, other) * 10 + max(one, other)) or 100
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
    if form == "explode":
        top = _throw_faces(dice.sides, dice.zero)[-1]
        total = 0
        for face in faces:
            again = 0
            while face == top and again < dice.depth:
                total += face
                face = _throw(rng, 1, dice.sides, dice.zero)[0]
                again += 1
            total += face
        return total
    return sum(faces)


def _throw(rng: random.Random, count: int, sides: int, zero: int) -> list[int]:
    """`count` dice of `sides` faces; a d10 read 0-9 when `zero` is 0."""
    faces = _throw_faces(sides, zero)
    return [rng.randint(faces.start, faces.stop - 1) for _ in range(count)]


def _throw_faces(sides: int, zero: int) -> range:
    """The faces of one die: 1..sides, or 0..9 for a d10 read 0-9 (`zero` 0)."""
    return range(0, 10) if sides == 10 and zero == 0 else range(1, sides + 1)


def _dice_for(alternatives: tuple[tuple[_Condition, _D], ...], context: Mapping[str, _Context], dice: _D) -> _D:
    """The dice a chart rolls in `context`: those of the first `roll ... when` alternative whose
    condition is true, else its own `dice`.
    """
    return next((alt for when, alt in alternatives if _holds(when, context) is True), dice)
