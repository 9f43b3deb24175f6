"""The arithmetic of computed values (formulas): exact division, whole powers, rounding halves up.
`compiler.engine.formulas` evaluates formulas with these functions, as `compute_<id>` does.
"""

from __future__ import annotations

import math
from fractions import Fraction

# ---- inlined into a generated module below this line


def _div(a: Fraction | int, b: Fraction | int) -> Fraction:
    """`a / b`, exact; ValueError for a division by zero."""
    if b == 0:
        raise ValueError(f"{a} / 0 has no value")
    return Fraction(a) / Fraction(b)


def _pow(a: Fraction | int, b: Fraction | int, most: int = 64) -> Fraction:
    """`a ^ b` for a whole exponent from 0 to `most`; ValueError otherwise."""
    exponent = Fraction(b)
    if exponent.denominator != 1 or not 0 <= exponent <= most:
        raise ValueError(f"the exponent {b} is not a whole number from 0 to {most}")
    base = Fraction(a)
    if max(abs(base.numerator), base.denominator).bit_length() * int(exponent) > 4096:
        raise ValueError(f"{a} ^ {b} is too large a number for a chart")
    return base ** int(exponent)


def _round_half_up(x: Fraction | int) -> int:
    """`x` rounded to the nearest whole number, halves up (2.5 -> 3, -2.5 -> -2)."""
    return math.floor(Fraction(x) + Fraction(1, 2))
