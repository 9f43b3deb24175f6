"""Exact outcome models for every dice form of the chart language.

A single chart roll has at most a few hundred outcomes, so exact enumeration with
`fractions.Fraction` is fast and obviously right (see the README for the measured comparison).
Each form also knows how the rulebook prints its faces: a d10's `0` is read as 10 and a
percentile `00` as 100.
"""

from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import assert_never


class DiceForm(enum.StrEnum):
    """How the dice are read (see `Dice`)."""

    SUM = "sum"
    D66 = "d66"
    PERCENTILE = "percentile"
    LOWER = "lower"
    MINUS = "minus"


@dataclass(frozen=True)
class Dice:
    """A roll as the rules describe it.

    Forms:
        sum: `NdS`, the total of N S-sided dice (1d6, 2d6, 1d10 with 0 read as 10, 1d20).
        d66: two d6 read as tens and ones, 11..66 (36 outcomes, not 56).
        percentile: two d10 read as tens and ones, `00` read as 100; outcomes 1..100.
        lower: the lower of N S-sided dice (Stuka Leader evasion: lower of 2d10).
        minus: `NdS minus K min F` — the total less K, never below F (IA2 7.1.5 flak: 1d6-3, min 0).
    """

    form: DiceForm
    count: int = 1
    sides: int = 6
    subtract: int = 0
    floor: int = 0

    def __post_init__(self) -> None:
        # callers (tests, scripts) may still name the form by its word
        object.__setattr__(self, "form", DiceForm(self.form))

    @property
    def text(self) -> str:
        """The dice as the player aid and messages print them (`2d6`, `lower of 2d10`, ...)."""
        match self.form:
            case DiceForm.D66:
                return "d66"
            case DiceForm.PERCENTILE:
                return "percentile (2d10, 00 = 100)"
            case DiceForm.LOWER:
                return f"lower of {self.count}d{self.sides}"
            case DiceForm.MINUS:
                return f"{self.count}d{self.sides} minus {self.subtract}, minimum {self.floor}"
            case DiceForm.SUM:
                return f"{self.count}d{self.sides}"
            case _:
                assert_never(self.form)

    @cached_property
    def outcomes(self) -> dict[int, Fraction]:
        """Each natural result (as the chart reads it: a d10's 0 is 10, a percentile 00 is 100) with
        its exact probability, ascending by result; zero-probability results are absent and the
        probabilities sum to 1."""
        counts = self._counts()
        total = sum(counts.values())
        return {r: Fraction(counts[r], total) for r in sorted(counts)}

    def _counts(self) -> dict[int, int]:
        """How many ways each natural result can be rolled."""
        counts: dict[int, int] = {}
        match self.form:
            case DiceForm.D66:
                for tens, ones in itertools.product(range(1, 7), repeat=2):
                    counts[tens * 10 + ones] = counts.get(tens * 10 + ones, 0) + 1
            case DiceForm.PERCENTILE:
                for tens, ones in itertools.product(range(10), repeat=2):
                    result = tens * 10 + ones or 100
                    counts[result] = counts.get(result, 0) + 1
            case DiceForm.LOWER:
                for combo in itertools.product(range(1, self.sides + 1), repeat=self.count):
                    counts[min(combo)] = counts.get(min(combo), 0) + 1
            case DiceForm.MINUS:
                for total, n in _sum_counts(self.count, self.sides).items():
                    result = max(self.floor, total - self.subtract)
                    counts[result] = counts.get(result, 0) + n
            case DiceForm.SUM:
                counts = _sum_counts(self.count, self.sides)
            case _:
                assert_never(self.form)
        return counts

    @property
    def min(self) -> int:
        """The lowest natural result (1 for 1d10 and percentile, 11 for d66, the floor for `minus`)."""
        return next(iter(self.outcomes))

    @property
    def max(self) -> int:
        """The highest natural result (10 for 1d10, 100 for percentile, 66 for d66)."""
        return next(reversed(self.outcomes))

    def read_number(self, printed: str) -> int | None:
        """Read a number as the chart prints it, or None if it cannot be read for these dice.

        `0` on a d10 (and `9-0`) means 10; `00` on a percentile roll means 100; `01` means 1.
        """
        if not printed.isdigit():
            return None
        value = int(printed)
        if (
            self.sides == 10
            and printed == "0"
            and (self.form is DiceForm.LOWER or (self.form is DiceForm.SUM and self.count == 1))
        ):
            return 10  # a d10's 0 face (1d10, lower of Nd10)
        if self.form is DiceForm.PERCENTILE and printed == "00":
            return 100
        if len(printed) > 1 and printed.startswith("0") and self.form is not DiceForm.PERCENTILE:
            return None
        return value


def _sum_counts(count: int, sides: int) -> dict[int, int]:
    """Number of ways to roll each total with `count` dice of `sides` faces (convolution)."""
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return ways
