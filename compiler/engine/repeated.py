"""The chances of a roll made several times, each read separately (`repeat N`; USAAF 19.3 optional:
three FLAK rolls for one).

Built on one roll's exact chances (`compiler.engine.chances.chances`): the N rolls are independent, so a
row selected with chance p on one roll appears at least once with chance 1 - (1 - p)^N and N·p
times on average. The rows of one roll are exclusive, but their appearances over N rolls are not,
so the at-least-once chances may sum to more than 1.
"""

from __future__ import annotations

from fractions import Fraction

from compiler import model
from compiler.engine.chances import ChartChances
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class RepeatedRowChance:
    """One row over `times` independent rolls: its chance on one roll, of appearing at least once,
    and how many times it appears on average."""

    row: model.Row
    per_roll: Fraction
    at_least_once: Fraction
    expected_count: Fraction


@dataclass(frozen=True)
class RepeatedChances:
    """Every row of one key combination at one DRM over `times` rolls, and the same figures for
    "no row" (a gap or a modified roll off the table)."""

    times: int
    rows: tuple[RepeatedRowChance, ...]
    no_row_at_least_once: Fraction
    no_row_expected_count: Fraction


def at_least_once(p: Fraction, times: int) -> Fraction:
    """The chance that an outcome of chance `p` on one roll comes up at least once in `times` rolls."""
    return 1 - (1 - p) ** times


def repeated_chances(single: ChartChances, times: int) -> RepeatedChances:
    """The chances of `single` (one roll) when the roll is made `times` times, each read separately.

    Args:
        single: one roll's chances, from `compiler.engine.chances.chances`.
        times: how many rolls are made (1 gives back the one roll's figures).

    Raises:
        ValueError: `times` is below 1.
    """
    if times < 1:
        raise ValueError(f"a roll is made at least once, not {times} times")
    rows = tuple(
        RepeatedRowChance(ro.row, ro.probability, at_least_once(ro.probability, times), ro.probability * times)
        for ro in single.rows
    )
    return RepeatedChances(times, rows, at_least_once(single.no_row, times), single.no_row * times)
