"""The exact chance of every row of a roll chart, natural and under each DRM in its declared span.

The one outcome model of chartc: built on `compiler.dice.Dice.outcomes` (exact `Fraction`s) and
shifted by DRM totals. The JSON and HTML emitters, `chartc odds` and the checks (reach, coverage,
overlaps, unreachable rows) all read it from here, so a printed chance and a checker finding can
never disagree. It imports only the model: report rendering lives in `compiler.query.reports`.
(*Odds* in chartc means only the CRT ratio, `compiler.crt`.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from compiler import model


@dataclass(frozen=True)
class RowChance:
    """One row and its exact chance of being selected (first matching row wins)."""

    row: model.Row
    probability: Fraction


@dataclass(frozen=True)
class ChartChances:
    """The chances of one key combination at one DRM: each applicable row, and the chance of no row.

    `modified` is the distribution of the modified roll (natural roll + `drm`), ascending by roll.
    """

    combo: tuple[str, ...]
    drm: int
    rows: tuple[RowChance, ...]
    no_row: Fraction
    modified: dict[int, Fraction]


# ---- DRM totals --------------------------------------------------------------------------------


def drm_totals(chart: model.Chart) -> list[int]:
    """Every total the chart's DRMs can add when any subset of them applies, after the chart's
    `clamp`, ascending. A chart without DRMs gives `[0]`."""
    totals = {0}
    for d in chart.drms:
        totals |= {t + d.value for t in totals}
    if chart.clamp:
        totals = {max(chart.clamp[0], min(chart.clamp[1], t)) for t in totals}
    return sorted(totals)


def drm_values(chart: model.Chart) -> list[int]:
    """Every DRM total from the lowest to the highest the chart declares (`Chart.drm_span`), plus 0
    for the natural roll, ascending."""
    lo, hi = chart.drm_span()
    return sorted(set(range(lo, hi + 1)) | {0})


# ---- distributions -------------------------------------------------------------------------------


def modified_distribution(chart: model.Chart, drm: int) -> dict[int, Fraction]:
    """Distribution of the modified roll: each natural outcome of the chart's dice shifted by `drm`.

    Args:
        chart: a chart with dice (kind `roll`).
        drm: the total die roll modifier, in pips.

    Returns:
        modified roll -> exact probability, ascending by roll; the probabilities sum to 1.

    Raises:
        ValueError: the chart has no dice.
    """
    if chart.dice is None:
        raise ValueError(f"chart `{chart.address}` is not read by dice")
    return {roll + drm: p for roll, p in chart.dice.outcomes.items()}


def reachable_rolls(chart: model.Chart) -> list[int]:
    """Every modified roll with a non-zero chance under some DRM total the chart's DRMs can add,
    with any of the chart's dice (its `roll` and each `roll ... when` alternative), ascending
    (natural outcomes only, when the chart has no DRMs).

    Raises:
        ValueError: the chart has no dice.
    """
    reach: set[int] = set()
    for variant in dice_variants(chart):
        for total in drm_totals(variant):
            reach |= {roll for roll, p in modified_distribution(variant, total).items() if p}
    return sorted(reach)


def dice_variants(chart: model.Chart) -> list[model.Chart]:
    """The chart once per dice it may be rolled with: as declared (its `roll`), then with each
    `roll ... when` alternative's dice in its place; rows and DRMs are the same objects."""
    return [chart] + [replace(chart, dice=alt.dice, dice_alternatives=()) for alt in chart.dice_alternatives]


def chances(chart: model.Chart, combo: tuple[str, ...], drm: int) -> ChartChances:
    """Exact chance of each row applicable to `combo` at this DRM; the first matching row wins, as
    in `chartc lookup` and the generated `lookup_<id>`.

    Args:
        chart: a chart with dice.
        combo: one member id per chart key, in key order (`()` for a chart without keys).
        drm: the total die roll modifier added to the natural roll.

    Returns:
        The rows for `combo` in chart order with their probabilities, the chance that no row is
        selected (a gap, a partial chart, or a modified roll off the table) and the modified-roll
        distribution. Row probabilities plus `no_row` sum to exactly 1.

    Raises:
        ValueError: the chart has no dice.
    """
    dist = modified_distribution(chart, drm)
    rows = [(r, r.range) for r in chart.rows_for(combo) if r.range is not None]
    got = {id(r): Fraction(0) for r, _ in rows}
    miss = Fraction(0)
    for value, p in dist.items():
        row = next((r for r, band in rows if band.contains(value)), None)
        if row is None:
            miss += p
        else:
            got[id(row)] += p
    return ChartChances(combo, drm, tuple(RowChance(r, got[id(r)]) for r, _ in rows), miss, dist)


def unreachable_rows(chart: model.Chart) -> list[model.Row]:
    """Rows whose range holds no modified roll with a non-zero chance under any DRM total the
    chart's DRMs can add (for d66, a range such as `17-19` holds no outcome at all), in chart order.

    Overlaps are not considered here (a row hidden behind an earlier overlapping row is reported as
    an overlap, not as unreachable).

    Raises:
        ValueError: the chart has no dice.
    """
    dists = [modified_distribution(v, total) for v in dice_variants(chart) for total in drm_totals(v)]
    return [
        row
        for row in chart.rows
        if row.range is not None and not any(p and row.range.contains(v) for dist in dists for v, p in dist.items())
    ]


def expected_value(chart: model.Chart, result: ChartChances, column: model.Column) -> Fraction | None:
    """Expected value of an `int` column given that some row is selected.

    Returns:
        The exact mean of the column over the selected row, or None when the column is not `int`,
        no row can be selected, or a row with a non-zero chance has no value (`-`).
    """
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
        assert isinstance(value, int)  # the resolver types every cell of an `int` column
        total += ro.probability * value
    return total / hit


def row_chances(chart: model.Chart) -> Iterator[tuple[tuple[str, ...], int, list[Fraction], Fraction]]:
    """For each key combination and each DRM of `drm_values` (natural roll included): the probability
    of every chart row (0 for rows of other keys, aligned with `chart.rows`) and of selecting no row.

    Raises:
        ValueError: the chart has no dice.
    """
    for combo in chart.key_combinations():
        for drm in drm_values(chart):
            result = chances(chart, combo, drm)
            by_row = {id(ro.row): ro.probability for ro in result.rows}
            yield combo, drm, [by_row.get(id(r), Fraction(0)) for r in chart.rows], result.no_row


# ---- presentation shared by the JSON, HTML and CLI outputs ------------------------------------


def probability_json(p: Fraction) -> dict[str, str | float]:
    """`{"exact": "3/20", "float": 0.15}`: the reduced fraction and a float rounded to 12 places."""
    return {"exact": f"{p.numerator}/{p.denominator}", "float": round(float(p), 12)}


def percent_text(p: Fraction) -> str:
    """A probability as a percentage: whole when exact (`15%`, `0%`), else one decimal (`2.8%`)."""
    pct = p * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{float(pct):.1f}%"


def fraction_text(p: Fraction) -> str:
    """`3/20`, `1` or `0`."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
