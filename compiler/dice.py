"""Exact outcome models for every dice form of the chart language.

A single chart roll has at most a few hundred outcomes, so exact enumeration with
`fractions.Fraction` is fast and obviously right (see the README for the measured comparison).
Each form also knows how the rulebook prints its faces: a d10's `0` is read as 10 and a
percentile `00` as 100.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property


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

    form: str
    count: int = 1
    sides: int = 6
    subtract: int = 0
    floor: int = 0

    @property
    def text(self) -> str:
        """The dice as the player aid and messages print them (`2d6`, `lower of 2d10`, ...)."""
        if self.form == "d66":
            return "d66"
        if self.form == "percentile":
            return "percentile (2d10, 00 = 100)"
        if self.form == "lower":
            return f"lower of {self.count}d{self.sides}"
        if self.form == "minus":
            return f"{self.count}d{self.sides} minus {self.subtract}, minimum {self.floor}"
        return f"{self.count}d{self.sides}"

    @cached_property
    def outcomes(self) -> dict[int, Fraction]:
        """Each natural result (as the chart reads it: a d10's 0 is 10, a percentile 00 is 100) with
        its exact probability, ascending by result; zero-probability results are absent and the
        probabilities sum to 1."""
        faces = range(1, self.sides + 1)
        counts: dict[int, int] = {}
        if self.form == "d66":
            for tens, ones in itertools.product(range(1, 7), repeat=2):
                counts[tens * 10 + ones] = counts.get(tens * 10 + ones, 0) + 1
        elif self.form == "percentile":
            for tens, ones in itertools.product(range(10), repeat=2):
                result = tens * 10 + ones or 100
                counts[result] = counts.get(result, 0) + 1
        else:
            counts = _sum_counts(self.count, self.sides) if self.form in ("sum", "minus") else {}
            if self.form == "lower":
                for combo in itertools.product(faces, repeat=self.count):
                    counts[min(combo)] = counts.get(min(combo), 0) + 1
            if self.form == "minus":
                floored: dict[int, int] = {}
                for total, n in counts.items():
                    result = max(self.floor, total - self.subtract)
                    floored[result] = floored.get(result, 0) + n
                counts = floored
        total = sum(counts.values())
        return {r: Fraction(counts[r], total) for r in sorted(counts)}

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
        if self.sides == 10 and printed == "0" and (self.form == "lower" or (self.form == "sum" and self.count == 1)):
            return 10  # a d10's 0 face (1d10, lower of Nd10)
        if self.form == "percentile" and printed == "00":
            return 100
        if len(printed) > 1 and printed.startswith("0") and self.form != "percentile":
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
