"""Exact odds of every row of a roll chart, natural and under each DRM in its declared span.

Built on `compiler.dice.Dice.outcomes` (exact `Fraction`s). Used by the JSON and HTML emitters,
`chartc odds`, and the checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from compiler import model


@dataclass(frozen=True)
class RowOdds:
    row: model.Row
    probability: Fraction


@dataclass(frozen=True)
class ChartOdds:
    """The odds of one key combination at one DRM: each applicable row, and the chance of no row."""

    combo: tuple[str, ...]
    drm: int
    rows: tuple[RowOdds, ...]
    no_row: Fraction
    modified: dict[int, Fraction]


def drm_values(chart: model.Chart) -> list[int]:
    """Every DRM total from the lowest to the highest the chart declares (0 when none)."""
    lo, hi = chart.drm_span()
    return list(range(lo, hi + 1))


def modified_distribution(chart: model.Chart, drm: int) -> dict[int, Fraction]:
    """Distribution of the modified roll: each natural outcome shifted by `drm`."""
    assert chart.dice is not None
    return {roll + drm: p for roll, p in chart.dice.outcomes.items()}


def odds(chart: model.Chart, combo: tuple[str, ...], drm: int) -> ChartOdds:
    """Exact chance of each row applicable to `combo` at this DRM (first matching row wins)."""
    dist = modified_distribution(chart, drm)
    rows = [r for r in chart.rows_for(combo) if r.range is not None]
    got = {id(r): Fraction(0) for r in rows}
    miss = Fraction(0)
    for value, p in dist.items():
        row = next((r for r in rows if r.range.contains(value)), None)
        if row is None:
            miss += p
        else:
            got[id(row)] += p
    return ChartOdds(combo, drm, tuple(RowOdds(r, got[id(r)]) for r in rows), miss, dist)


def expected_value(chart: model.Chart, result: ChartOdds, column: model.Column) -> Fraction | None:
    """Expected value of an `int` column given that some row is selected; None if not numeric."""
    if column.type != "int":
        return None
    index = chart.columns.index(column)
    hit = Fraction(1) - result.no_row
    if hit == 0:
        return None
    total = Fraction(0)
    for ro in result.rows:
        value = ro.row.values[index]
        if value is None:
            if ro.probability:
                return None
            continue
        total += ro.probability * int(value)
    return total / hit


def row_odds(chart: model.Chart) -> Iterator[tuple[tuple[str, ...], int, list[Fraction], Fraction]]:
    """For each key combination and DRM in the span: the probability of every chart row (0 for rows
    of other keys, aligned with `chart.rows`) and of selecting no row."""
    for combo in chart.key_combinations():
        for drm in drm_values(chart):
            result = odds(chart, combo, drm)
            by_row = {id(ro.row): ro.probability for ro in result.rows}
            yield combo, drm, [by_row.get(id(r), Fraction(0)) for r in chart.rows], result.no_row
