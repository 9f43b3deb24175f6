"""The exact chance of every row of a roll chart, natural and under each DRM in its declared span.

The one outcome model of chartc: built on `compiler.model.dice.Dice.outcomes` (exact `Fraction`s),
each natural roll read through the runtime's steps of a roll (`_modified`, then `_row_for`: the
generated modules' own code, `compiler.engine.runtime`). The JSON and HTML emitters, `chartc odds`
and the checks (reach, coverage, overlaps, unreachable rows) all read it from here, so a printed
chance, a checker finding and a generated lookup can never disagree. Report rendering lives in
`compiler.query.reports`.
(*Odds* in chartc means only the CRT ratio, `compiler.engine.odds`.)
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import field, replace
from fractions import Fraction

from compiler import model
from compiler.engine import plain
from compiler.engine.drms import ContextValue
from compiler.engine.reach import reach, tests_keys
from compiler.engine.runtime.dice import _dice_for
from compiler.engine.runtime.roll import _modified, _natural_row, _row_for
from dsl.lazy_dataclass import dataclass


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


# ---- computed once per chart ----------------------------------------------------------------------


@dataclass
class _Computed:
    """What this module has computed for one chart object: the checks, the JSON and the player
    aid of a build ask for the same totals and chances, and get them computed once."""

    totals: dict[tuple[str, ...] | None, tuple[int, ...]] = field(default_factory=dict)
    chances: dict[tuple[tuple[str, ...], int], ChartChances] = field(default_factory=dict)
    alternatives: list[model.Chart] | None = None  # the chart with each `roll ... when` alternative's dice
    reachable: dict[tuple[str, ...] | None, tuple[int, ...]] = field(default_factory=dict)


_COMPUTED: dict[int, tuple[weakref.ref[model.Chart], _Computed]] = {}
"""By `id` of the chart, for as long as the chart lives (a chart is immutable; the weak reference
drops the entry when it is freed, before its `id` can be reused)."""


def _computed(chart: model.Chart) -> _Computed:
    key = id(chart)
    entry = _COMPUTED.get(key)
    if entry is not None and entry[0]() is chart:
        return entry[1]
    computed = _Computed()
    known = _COMPUTED  # the callback holds the dict itself: a chart freed at interpreter exit, after
    # the module's globals are cleared (the name then reads None), still finds it
    _COMPUTED[key] = (weakref.ref(chart, lambda _: known.pop(key, None)), computed)
    return computed


# ---- DRM totals --------------------------------------------------------------------------------


def drm_totals(chart: model.Chart, combo: tuple[str, ...] | None = None) -> list[int]:
    """Every total the chart's DRMs can add in some context the rules allow (`compiler.engine.reach`),
    after the chart's `clamp`, ascending: for one key combination, or for any (None). A chart
    without DRMs gives `[0]`."""
    known = _computed(chart).totals
    if combo not in known:
        known[combo] = reach(chart, combo).totals
    return list(known[combo])


def drm_reach_span(chart: model.Chart) -> tuple[int, int]:
    """The lowest and highest DRM total the chart's DRMs can add together (`drm_totals`)."""
    totals = drm_totals(chart)
    return totals[0], totals[-1]


def drm_values(chart: model.Chart) -> list[int]:
    """Every DRM total from the lowest to the highest the chart's DRMs can reach (`drm_reach_span`),
    plus 0 for the natural roll, ascending."""
    lo, hi = drm_reach_span(chart)
    return sorted(set(range(lo, hi + 1)) | {0})


# ---- distributions -------------------------------------------------------------------------------


def modified_distribution(chart: model.Chart, drm: int) -> dict[int, Fraction]:
    """Distribution of the modified roll: each natural outcome of the chart's dice through its
    steps with the DRM total `drm` (shifted by `drm` when it has no arithmetic).

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
    dist: dict[int, Fraction] = {}
    steps = plain.steps(chart)
    for roll, p in chart.dice.outcomes.items():
        modified = _modified(roll, drm, steps)
        dist[modified] = dist.get(modified, Fraction(0)) + p
    return dict(sorted(dist.items()))


def reachable_rolls(chart: model.Chart, combo: tuple[str, ...] | None = None) -> list[int]:
    """Every modified roll with a non-zero chance under some DRM total the chart's DRMs can add,
    for one key combination or any (None), with any of the chart's dice (its `roll` and each
    `roll ... when` alternative), ascending (natural outcomes only, when the chart has no DRMs). A
    natural roll a `natural` row reads never becomes a modified roll.

    Raises:
        ValueError: the chart has no dice.
    """
    known = _computed(chart).reachable
    if combo not in known:
        known[combo] = _reachable_rolls(chart, combo)
    return list(known[combo])


def _reachable_rolls(chart: model.Chart, combo: tuple[str, ...] | None) -> tuple[int, ...]:
    combos = [combo] if combo is not None else chart.key_combinations()
    found: set[int] = set()
    rows = plain.chart_rows(chart)
    for variant in dice_variants(chart):
        if variant.dice is None:
            raise ValueError(f"chart `{chart.address}` is not read by dice")
        for c in combos:
            rolled = [r for r, p in variant.dice.outcomes.items() if p]
            if rows.natural_rows:  # a natural roll a `natural` row reads is never modified
                rolled = [r for r in rolled if _natural_row(rows.natural_rows, c, r) is None]
            for total in drm_totals(variant, c if tests_keys(variant) else None):
                found |= {_modified(roll, total, rows.steps) for roll in rolled}
    return tuple(sorted(found))


def table_rolls(chart: model.Chart) -> list[int]:
    """Every roll the table is printed for, ascending: each natural roll some dice of the chart can
    show (its `roll` and each `roll ... when` alternative) through its arithmetic with no DRM (IA2
    7.1.5, 1d6 minus 3: -2 to 3); the natural rolls themselves for a chart without arithmetic. The
    clamps (`minimum`, `maximum`, `modified clamp`) are left out: they hold a roll inside the rows,
    and a printed row beyond them is no error (the reach of the rows, `reachable_rolls`, has them)."""
    return rolls_through(chart.natural_rolls, chart.pipeline)


def rolls_through(rolls: list[int], pipeline: tuple[model.RollStep, ...]) -> list[int]:
    """What the natural rolls `rolls` (ascending) become through the arithmetic of `pipeline`,
    clamps left out, with no DRM, ascending and each once; `rolls` themselves without arithmetic."""
    bounds = (model.StepKind.MINIMUM, model.StepKind.MAXIMUM)
    steps = plain.pipeline_steps(tuple(s for s in pipeline if s.kind not in bounds))
    return sorted({_modified(roll, 0, steps) for roll in rolls}) if steps else rolls


def dice_variants(chart: model.Chart) -> list[model.Chart]:
    """The chart once per dice it may be rolled with: as declared (its `roll`), then with each
    `roll ... when` alternative's dice in its place; rows and DRMs are the same objects. The same
    list for as long as the chart lives, so what is computed per chart is computed once."""
    computed = _computed(chart)
    if computed.alternatives is None:  # never the chart itself: the entry must not keep it alive
        computed.alternatives = [replace(chart, dice=alt.dice, dice_alternatives=()) for alt in chart.dice_alternatives]
    return [chart, *computed.alternatives]


def dice_for(chart: model.Chart, context: Mapping[str, ContextValue | None]) -> model.Chart:
    """The chart with the dice it is rolled with in `context`: the first `roll ... when`
    alternative whose condition holds, else its own dice (the runtime's `_dice_for`, as the
    generated `roll_<id>` picks them)."""
    variants = dice_variants(chart)[1:]
    alternatives = tuple((plain.condition(a.when), v) for a, v in zip(chart.dice_alternatives, variants, strict=True))
    return _dice_for(alternatives, context, chart)


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
    known = _computed(chart).chances
    if (combo, drm) not in known:
        known[combo, drm] = _chances(chart, combo, drm)
    return known[combo, drm]


def _chances(chart: model.Chart, combo: tuple[str, ...], drm: int) -> ChartChances:
    dist = modified_distribution(chart, drm)
    keyed = {id(r) for r in chart.rows_for(combo)}
    got = {i: Fraction(0) for i, r in enumerate(chart.rows) if id(r) in keyed}
    miss = Fraction(0)
    assert chart.dice is not None  # modified_distribution raised otherwise
    rows = plain.chart_rows(chart)
    for natural, p in chart.dice.outcomes.items():
        position = _row_for(rows.natural_rows, rows.indexed, combo, natural, _modified(natural, drm, rows.steps))
        if position is None:
            miss += p
        else:
            got[position] += p
    return ChartChances(combo, drm, tuple(RowChance(chart.rows[i], p) for i, p in got.items()), miss, dist)


def unreachable_rows(chart: model.Chart) -> list[model.Row]:
    """Rows whose range holds no modified roll with a non-zero chance under any DRM total the
    chart's DRMs can add (for d66, a range such as `17-19` holds no outcome at all), in chart order.

    Overlaps are not considered here (a row hidden behind an earlier overlapping row is reported as
    an overlap, not as unreachable). Where DRMs test the chart's keys, a row must be reachable by
    the totals of a key combination it applies to: a row reachable only through a combination the
    conditions rule out is reported.

    Raises:
        ValueError: the chart has no dice.
    """
    selectable: set[int] = set()
    for variant in dice_variants(chart):
        if variant.dice is None:
            raise ValueError(f"chart `{chart.address}` is not read by dice")
        naturals = [roll for roll, p in variant.dice.outcomes.items() if p]
        for combo in chart.key_combinations():
            rows = chart.rows_for(combo)
            selectable |= {id(r) for r in rows if r.natural and any(_in(r, roll) for roll in naturals)}
            rolls = reachable_rolls(variant, combo)
            selectable |= {id(r) for r in rows if not r.natural and any(_in(r, roll) for roll in rolls)}
    return [row for row in chart.rows if row.range is not None and id(row) not in selectable]


def _in(row: model.Row, roll: int) -> bool:
    return row.range is not None and row.range.contains(roll)


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


@dataclass(frozen=True)
class DistinctChances:
    """Every row's chance per key combination and DRM, each distinct distribution once (the JSON's
    `chances`). A distribution is the chance of each row of a key combination, in the order of its
    rows, and of no row; key values whose rows read alike share one, so the size grows with the
    rows, not with rows x key values.

    `keys` holds, per key combination: the combination, its rows (indices into `chart.rows`) and the
    index of its distribution at each DRM of `drms`."""

    drms: tuple[int, ...]
    distributions: tuple[tuple[tuple[Fraction, ...], Fraction], ...]
    keys: tuple[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]], ...]


def distinct_chances(chart: model.Chart) -> DistinctChances:
    """The chances of `row_chances`, each distinct distribution once (`DistinctChances`).

    Raises:
        ValueError: the chart has no dice.
    """
    drms = tuple(drm_values(chart))
    position = {id(r): i for i, r in enumerate(chart.rows)}
    found: dict[tuple[tuple[Fraction, ...], Fraction], int] = {}
    keys = []
    for combo in chart.key_combinations():
        refs = []
        for drm in drms:
            result = chances(chart, combo, drm)
            shape = (tuple(ro.probability for ro in result.rows), result.no_row)
            refs.append(found.setdefault(shape, len(found)))
        keys.append((combo, tuple(position[id(r)] for r in chart.rows_for(combo)), tuple(refs)))
    return DistinctChances(drms, tuple(found), tuple(keys))


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
