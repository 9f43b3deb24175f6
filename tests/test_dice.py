"""Exact outcome models, checked against distributions worked out by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

from compiler.model.dice import Dice, DiceForm


def test_2d6_sum() -> None:
    out = Dice("sum", 2, 6).outcomes
    assert out[2] == F(1, 36) and out[7] == F(6, 36) and out[12] == F(1, 36)
    # ways to roll k on 2d6: 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 for k = 2..12
    assert out == {k: F(ways, 36) for k, ways in zip(range(2, 13), [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], strict=True)}


def test_1d10_reads_zero_as_ten() -> None:
    d = Dice("sum", 1, 10)
    assert d.outcomes == {k: F(1, 10) for k in range(1, 11)}  # 10 is the `0` face, 0 is never rolled
    assert d.read_number("0") == 10 and d.read_number("9") == 9
    assert d.read_number("00") is None  # `00` is a percentile face


def test_percentile_reads_00_as_100() -> None:
    d = Dice("percentile", 2, 10)
    assert list(d.outcomes) == list(range(1, 101)) and set(d.outcomes.values()) == {F(1, 100)}
    assert d.read_number("00") == 100 and d.read_number("01") == 1 and d.read_number("08") == 8


def test_d66_has_36_outcomes_not_56() -> None:
    out = Dice("d66", 2, 6).outcomes
    assert out == {10 * t + o: F(1, 36) for t in range(1, 7) for o in range(1, 7)}
    assert len(out) == 36 and 17 not in out and 31 in out and 66 in out
    band = [r for r in out if 31 <= r <= 46]
    assert len(band) == 12  # 31-36, 41-46


def test_lower_of_two_d10() -> None:
    out = Dice("lower", 2, 10).outcomes
    # P(min = k) = ((11-k)^2 - (10-k)^2) / 100 = (21 - 2k) / 100
    assert out == {k: F(21 - 2 * k, 100) for k in range(1, 11)}


def test_arithmetic_is_not_a_dice_form() -> None:
    # IA2 7.1.5 flak, "Roll 1d6 ... and subtract 3": the dice show the die's faces; the subtraction
    # is a step of the chart's roll (tests/test_roll_steps.py)
    assert "minus" not in {form.value for form in DiceForm}
    assert Dice("sum", 1, 6).outcomes == {k: F(1, 6) for k in range(1, 7)}


def test_zero_padding_only_on_percentile() -> None:
    assert Dice("sum", 1, 6).read_number("01") is None


# ---- the newer forms against a brute-force enumeration of every face combination ----------------


def _brute(dice: int, sides: int, read, faces: range | None = None) -> dict[int, F]:
    """Every ordered throw of `dice` dice, each equally likely, read by `read`."""
    values = faces if faces is not None else range(1, sides + 1)
    throws = list(itertools.product(values, repeat=dice))
    counts = Counter(read(t) for t in throws)
    return {k: F(n, len(throws)) for k, n in sorted(counts.items())}


def test_higher_of_two_d10() -> None:
    out = Dice("higher", 2, 10).outcomes
    assert out == _brute(2, 10, max)
    # P(max = k) = (k^2 - (k-1)^2) / 100 = (2k - 1) / 100: a 10 (the 0 face) comes up 19 times in 100
    assert out[10] == F(19, 100) and out[1] == F(1, 100)


def test_highest_3_of_4d6() -> None:
    # "roll 4d6, drop the lowest": 18 needs three sixes (21 of 1296 throws), 3 needs four ones
    out = Dice("highest", 4, 6, keep=3).outcomes
    assert out == _brute(4, 6, lambda t: sum(sorted(t)[1:]))
    assert out[18] == F(21, 1296) and out[3] == F(1, 1296)
    assert sum(k * p for k, p in out.items()) == F(15869, 1296)  # mean 12.24


def test_lowest_2_of_3d6() -> None:
    out = Dice("lowest", 3, 6, keep=2).outcomes
    assert out == _brute(3, 6, lambda t: sum(sorted(t)[:2]))
    assert out[12] == F(1, 216) and min(out) == 2 and max(out) == 12


def test_opposed_1d6_versus_1d6() -> None:
    # IA2 7.2.2.7: each side rolls 1d6 and the difference decides; -5..+5, a tie 1 time in 6
    out = Dice("versus", 1, 6, versus_count=1, versus_sides=6).outcomes
    assert out == _brute(2, 6, lambda t: t[0] - t[1])
    assert out[0] == F(1, 6) and out[-5] == F(1, 36) and out[5] == F(1, 36)
    assert list(out) == list(range(-5, 6))


def test_opposed_dice_of_different_sizes() -> None:
    out = Dice("versus", 2, 6, versus_count=1, versus_sides=10).outcomes
    brute = Counter(a + b - c for a in range(1, 7) for b in range(1, 7) for c in range(1, 11))
    assert out == {k: F(n, 360) for k, n in sorted(brute.items())}


def test_d10_read_0_to_9() -> None:
    d = Dice("sum", 1, 10, zero=0)
    assert d.outcomes == {k: F(1, 10) for k in range(10)}
    assert d.read_number("0") == 0 and d.read_number("9") == 9 and d.text == "1d10 (0 reads as 0)"
    two = Dice("sum", 2, 10, zero=0).outcomes
    assert two == _brute(2, 10, sum, range(10)) and min(two) == 0 and max(two) == 18
    assert Dice("lower", 2, 10, zero=0).outcomes == _brute(2, 10, min, range(10))


def test_negative_numbers_read_as_modified_rolls() -> None:
    d = Dice("sum", 1, 6)
    assert d.read_number("-3") == -3 and d.read_number("-1") == -1
    assert d.read_number("-03") is None and d.read_number("-0") is None and d.read_number("--1") is None
    # the d66, percentile and d10 0-face readings are unchanged
    assert Dice("d66", 2, 6).read_number("39") == 39
    assert Dice("percentile", 2, 10).read_number("00") == 100
    assert Dice("sum", 1, 10).read_number("0") == 10


def test_texts_read_as_a_rulebook() -> None:
    assert Dice("highest", 4, 6, keep=3).text == "4d6, keep the highest 3"
    assert Dice("lowest", 3, 6, keep=2).text == "3d6, keep the lowest 2"
    assert Dice("higher", 2, 10).text == "higher of 2d10"
    assert Dice("versus", 1, 6, versus_count=1, versus_sides=6).text == "1d6 versus 1d6, the difference"
