"""Exact outcome models, checked against distributions worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F

from compiler.dice import Dice


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


def test_1d6_minus_3_minimum_0() -> None:
    # IA2 7.1.5 flak: "Roll 1d6 ... and subtract 3 ... from zero to 3"
    out = Dice("minus", 1, 6, subtract=3, floor=0).outcomes
    assert out == {0: F(3, 6), 1: F(1, 6), 2: F(1, 6), 3: F(1, 6)}


def test_zero_padding_only_on_percentile() -> None:
    assert Dice("sum", 1, 6).read_number("01") is None
