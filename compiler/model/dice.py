"""Exact outcome models for every dice form of the chart language.

Each form counts the ways to roll each natural result as whole numbers and divides by the number
of equally likely throws, so every chance is an exact `fractions.Fraction`. Nothing enumerates
the throws die by die: sums of dice are powers of a polynomial (`_power`: one big-integer power,
the coefficients read back from its bytes), the dice a keep form keeps are counted by order
statistics (`_kept_counts`: the faces from the best down, how many dice show each, the others
below), and an exploding die is a polynomial of its own (`_exploding`), so 10d10 keep the highest
3, 20d6 or 3d6 exploding take the same few milliseconds as 2d6 (compared with icepool in
tests/test_dice_order_statistics.py). Each form also knows how the rulebook prints its faces: a
d10's `0` is read as 10 and a percentile `00` as 100.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import assert_never

from dsl.lazy_dataclass import dataclass
from dsl.shared import DiceForm as DiceForm

# How the player aid and messages print each dice form, filled in from the `Dice`'s fields.
_FORM_TEXTS = {
    DiceForm.SUM: "{count}d{sides}",
    DiceForm.D66: "d66",
    DiceForm.PERCENTILE: "percentile (2d10, 00 = 100)",
    DiceForm.LOWER: "lower of {count}d{sides}",
    DiceForm.HIGHER: "higher of {count}d{sides}",
    DiceForm.HIGHEST: "{count}d{sides}, keep the highest {keep}",
    DiceForm.LOWEST: "{count}d{sides}, keep the lowest {keep}",
    DiceForm.VERSUS: "{count}d{sides} versus {versus_count}d{versus_sides}, the difference",
    DiceForm.EXPLODE: "{count}d{sides} exploding to depth {depth}: a top face rolls again and adds",
    DiceForm.LOWER_TENS: "percentile, the lower d10 as tens (00 = 100)",
}
# The forms read digit by digit, tens and ones: a DRM on them needs a stated meaning (C413), and
# arithmetic on them makes no sense (C343).
DIGIT_FORMS = (DiceForm.D66, DiceForm.PERCENTILE, DiceForm.LOWER_TENS)
assert set(_FORM_TEXTS) == set(DiceForm), "every dice form has its printed text"


_PRINTED_RANGE = re.compile(r"\s*(-?\d+)\s*(?:(\+|-|or more|or less)|[-\u2013]\s*(-?\d+))?\s*")


@dataclass(frozen=True)
class Dice:
    """A roll as the rules describe it.

    Forms:
        sum: `NdS`, the total of N S-sided dice (1d6, 2d6, 1d10 with 0 read as 10, 1d20).
        d66: two d6 read as tens and ones, 11..66 (36 outcomes, not 56).
        percentile: two d10 read as tens and ones, `00` read as 100; outcomes 1..100.
        lower_tens: two d10 (faces 0-9), the lower read as tens and the other as ones, `00` read as
            100 (`percentile lower as tens`): the tens digit is never above the ones, so 55 results,
            a double (11, 22, ..., 00) 1 in 100, any other 2 in 100 (either die may show the lower).
        lower: the lower of N S-sided dice (Stuka Leader evasion: lower of 2d10).
        higher: the higher of N S-sided dice (`higher of 2d10`).
        highest: the total of the `keep` highest of N S-sided dice (`highest 3 of 4d6`, i.e. drop the
            lowest).
        lowest: the total of the `keep` lowest of N S-sided dice (`lowest 2 of 3d6`).
        versus: opposed dice read by their difference, `NdS versus MdT` = first total less the second
            (IA2 7.2.2.7: each side rolls 1d6; 1d6 versus 1d6 gives -5..+5).
        explode: the total of N S-sided dice where a die showing its top face is rolled again and
            the new face added, again on a top face, at most `depth` times a die (`exploding 2d6
            depth 3`: a die reads 1..5, 6+1..6+5, ..., and 6+6+6+1..6+6+6+6).

    `zero` is how a d10's `0` face reads: 10 (the default, the 1..10 die) or 0 (a 0..9 die, chart
    statement `zero reads 0`). Percentile rolls keep their own `00` = 100 reading.

    Arithmetic on the roll ("1d6 and subtract 3, minimum 0", IA2 7.1.5) is not the dice's: it is
    the chart's `pipeline` (`compiler.model.chart.Chart`), and the dice show the natural roll.
    """

    form: DiceForm
    count: int = 1
    sides: int = 6
    keep: int = 0
    versus_count: int = 0
    versus_sides: int = 0
    zero: int = 10
    depth: int = 0

    def __post_init__(self) -> None:
        # callers (tests, scripts) may still name the form by its word
        object.__setattr__(self, "form", DiceForm(self.form))

    @property
    def text(self) -> str:
        """The dice as the player aid and messages print them (`2d6`, `lower of 2d10`,
        `4d6, keep the highest 3`, `1d10 (0 reads as 0)`, ...)."""
        return f"{self._form_text} ({self.zero_text})" if self.zero_text else self._form_text

    @property
    def _form_text(self) -> str:
        return _FORM_TEXTS[self.form].format_map(vars(self))

    @property
    def zero_text(self) -> str | None:
        """How the player aid states a d10 read 0..9 (`0 reads as 0`); None for every other die."""
        return "0 reads as 0" if self.zero == 0 and self.has_d10_face else None

    @property
    def has_d10_face(self) -> bool:
        """True when the dice include a d10 read face by face (not a percentile pair)."""
        return self.form not in (DiceForm.PERCENTILE, DiceForm.LOWER_TENS) and 10 in (self.sides, self.versus_sides)

    @cached_property
    def outcomes(self) -> dict[int, Fraction]:
        """Each natural result (as the chart reads it: a d10's 0 is 10, a percentile 00 is 100) with
        its exact probability, ascending by result; zero-probability results are absent and the
        probabilities sum to 1."""
        counts = self._counts()
        total = sum(counts.values())
        return {r: Fraction(counts[r], total) for r in sorted(counts)}

    def _counts(self) -> dict[int, int]:
        """How many ways each natural result can be rolled (each throw of the dice counted once)."""
        counts: dict[int, int] = {}
        match self.form:
            case DiceForm.D66:
                for tens, ones in itertools.product(range(1, 7), repeat=2):
                    counts[tens * 10 + ones] = counts.get(tens * 10 + ones, 0) + 1
            case DiceForm.PERCENTILE:
                for tens, ones in itertools.product(range(10), repeat=2):
                    result = tens * 10 + ones or 100
                    counts[result] = counts.get(result, 0) + 1
            case DiceForm.LOWER_TENS:
                for one, other in itertools.product(range(10), repeat=2):
                    result = min(one, other) * 10 + max(one, other) or 100
                    counts[result] = counts.get(result, 0) + 1
            case DiceForm.LOWER | DiceForm.LOWEST:
                keep = self.keep if self.form is DiceForm.LOWEST else 1
                counts = _kept_counts(self._faces(self.sides), self.count, keep)
            case DiceForm.HIGHER | DiceForm.HIGHEST:
                keep = self.keep if self.form is DiceForm.HIGHEST else 1
                counts = _kept_counts(self._faces(self.sides)[::-1], self.count, keep)
            case DiceForm.VERSUS:
                theirs = _sum_counts(self.versus_count, self._faces(self.versus_sides))
                for ours, n in _sum_counts(self.count, self._faces(self.sides)).items():
                    for other, m in theirs.items():
                        counts[ours - other] = counts.get(ours - other, 0) + n * m
            case DiceForm.SUM:
                counts = _sum_counts(self.count, self._faces(self.sides))
            case DiceForm.EXPLODE:
                counts = _power(_exploding(self._faces(self.sides), self.depth), self.count)
            case _:
                assert_never(self.form)
        return counts

    def _faces(self, sides: int) -> range:
        """The values one die shows: 1..S, or 0..9 for a d10 whose 0 reads as 0."""
        return range(0, 10) if sides == 10 and self.zero == 0 else range(1, sides + 1)

    @property
    def min(self) -> int:
        """The lowest natural result (1 for 1d10 and percentile, 11 for d66)."""
        return next(iter(self.outcomes))

    @property
    def max(self) -> int:
        """The highest natural result (10 for 1d10, 100 for percentile, 66 for d66)."""
        return next(reversed(self.outcomes))

    def read_number(self, printed: str) -> int | None:
        """Read a number as the chart prints it, or None if it cannot be read for these dice.

        `0` on a d10 (and `9-0`) means 10, or 0 under `zero reads 0`; `00` on a percentile roll means
        100; `01` means 1. A leading minus (`-3`) is a modified roll below zero, read as printed.
        """
        if printed.startswith("-") and printed[1:].isdigit() and not printed[1:].startswith("0"):
            return int(printed)
        if not printed.isdigit():
            return None
        value = int(printed)
        if self.sides == 10 and printed == "0" and self.zero == 0:
            return 0
        if self.sides == 10 and printed == "0" and self._reads_one_d10_face:
            return 10  # a d10's 0 face (1d10, lower/higher of Nd10)
        percentile = self.form in (DiceForm.PERCENTILE, DiceForm.LOWER_TENS)
        if percentile and printed == "00":
            return 100
        if len(printed) > 1 and printed.startswith("0") and not percentile:
            return None
        return value

    def read_range(self, printed: str) -> tuple[int | None, int | None]:
        """The bounds of a range as printed (`3-6`, `01-08`, `9-0`, `12+`, `2-`, `2 or less`,
        `-5--2`) read with these dice (None: an open end); `(None, None)` when the text is not such a
        range. An errata keeps a row's printed range as text: the as-printed views read it here."""
        m = _PRINTED_RANGE.fullmatch(printed)
        if m is None:
            return None, None
        low = self.read_number(m.group(1))
        if m.group(3) is not None:
            return low, self.read_number(m.group(3))
        if m.group(2) in ("+", "or more"):
            return low, None
        if m.group(2) in ("-", "or less"):
            return None, low
        return low, low

    @property
    def _reads_one_d10_face(self) -> bool:
        """True when a result is one d10's face, so a printed `0` can only be that die's 0."""
        return self.form in (DiceForm.LOWER, DiceForm.HIGHER) or (
            self.form is DiceForm.SUM and self.count == 1
        )


def _sum_counts(count: int, faces: range) -> dict[int, int]:
    """Number of ways to roll each total with `count` dice showing `faces`."""
    return _power(dict.fromkeys(faces, 1), count)


def _power(weights: dict[int, int], count: int) -> dict[int, int]:
    """The ways to roll each total of `count` independent dice, one die rolling each value of
    `weights` in that many ways: the polynomial sum(w * x**v) raised to the power `count`.

    The polynomial is packed into one integer, a coefficient every `width` bits (wide enough for
    the largest coefficient of the power), raised with Python's own big-integer arithmetic and
    read back from its bytes: no loop over the dice or their throws."""
    low = min(weights)
    width = 8 * -(-(sum(weights.values()) ** count).bit_length() // 8)  # whole bytes per coefficient
    packed = sum(w << (width * (v - low)) for v, w in weights.items())
    return _unpacked(packed**count, width, count * low)


def _unpacked(packed: int, width: int, first: int) -> dict[int, int]:
    """The non-zero coefficients of a packed polynomial (see `_power`), by exponent plus `first`."""
    size = width // 8
    data = packed.to_bytes(-(-packed.bit_length() // 8) or 1, "little")
    out: dict[int, int] = {}
    for at in range(0, len(data), size):
        ways = int.from_bytes(data[at : at + size], "little")
        if ways:
            out[first + at // size] = ways
    return out


def _kept_counts(order: range, count: int, keep: int) -> dict[int, int]:
    """The ways to roll each total of the `keep` best of `count` dice, the faces listed best
    first in `order` (highest first for keep-highest, lowest first for keep-lowest), by order
    statistics rather than throw by throw.

    Going through the faces from the best, `placed` dice show the faces seen so far; the kept
    total of those is a polynomial in x (packed as in `_power`), weighted by the ways to choose
    which of the dice they are. When `c` more dice show the next face, C(count - placed, c) ways,
    the first of them up to `keep` are kept; once `keep` dice are placed the total is settled,
    and each die left shows one of the faces not seen yet."""
    faces = list(order)
    width = 8 * -(-(len(faces) ** count).bit_length() // 8)
    settled = 0
    growing: dict[int, int] = {0: 1}  # dice placed (fewer than `keep`) -> packed kept totals
    for seen, face in enumerate(faces, 1):
        left = len(faces) - seen  # faces not seen yet
        following: dict[int, int] = {}
        for placed, totals in growing.items():
            for c in range(count - placed + 1):
                now = placed + c
                kept = totals * comb(count - placed, c) << (width * face * (min(now, keep) - placed))
                if now >= keep:
                    settled += kept * left ** (count - now)
                else:
                    following[now] = following.get(now, 0) + kept
        growing = following
    return _unpacked(settled, width, 0)  # every face is 0 or more: the exponents are the totals


def _exploding(faces: range, depth: int) -> dict[int, int]:
    """One exploding die as weights over its results (`_power`'s input): a top face rolls again
    and adds, at most `depth` times; a result reached after k re-rolls weighs S**(depth - k), so
    every weight counts throws of depth + 1 dice of S faces."""
    top, sides = faces[-1], len(faces)
    weights: dict[int, int] = {}
    for k in range(depth + 1):
        last = faces if k == depth else faces[:-1]  # after `depth` re-rolls the top face stays
        for face in last:
            weights[k * top + face] = weights.get(k * top + face, 0) + sides ** (depth - k)
    return weights
