"""Exact odds of every row of a roll chart, natural and under each DRM in its declared span.

The one outcome model of chartc: built on `compiler.dice.Dice.outcomes` (exact `Fraction`s) and
shifted by DRM totals. The JSON and HTML emitters, `chartc odds` and the checks (reach, coverage,
overlaps, unreachable rows) all read it from here, so a printed chance and a checker finding can
never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from compiler import model


@dataclass(frozen=True)
class RowOdds:
    """One row and its exact chance of being selected (first matching row wins)."""

    row: model.Row
    probability: Fraction


@dataclass(frozen=True)
class ChartOdds:
    """The odds of one key combination at one DRM: each applicable row, and the chance of no row.

    `modified` is the distribution of the modified roll (natural roll + `drm`), ascending by roll.
    """

    combo: tuple[str, ...]
    drm: int
    rows: tuple[RowOdds, ...]
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
    ascending (natural outcomes only, when the chart has no DRMs).

    Raises:
        ValueError: the chart has no dice.
    """
    reach: set[int] = set()
    for total in drm_totals(chart):
        reach |= {roll for roll, p in modified_distribution(chart, total).items() if p}
    return sorted(reach)


def odds(chart: model.Chart, combo: tuple[str, ...], drm: int) -> ChartOdds:
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


def unreachable_rows(chart: model.Chart) -> list[model.Row]:
    """Rows whose range holds no modified roll with a non-zero chance under any DRM total the
    chart's DRMs can add (for d66, a range such as `17-19` holds no outcome at all), in chart order.

    Overlaps are not considered here (a row hidden behind an earlier overlapping row is reported as
    an overlap, not as unreachable).

    Raises:
        ValueError: the chart has no dice.
    """
    dists = [modified_distribution(chart, total) for total in drm_totals(chart)]
    return [
        row
        for row in chart.rows
        if row.range is not None and not any(p and row.range.contains(v) for dist in dists for v, p in dist.items())
    ]


def expected_value(chart: model.Chart, result: ChartOdds, column: model.Column) -> Fraction | None:
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
        total += ro.probability * int(value)
    return total / hit


def row_odds(chart: model.Chart) -> Iterator[tuple[tuple[str, ...], int, list[Fraction], Fraction]]:
    """For each key combination and each DRM of `drm_values` (natural roll included): the probability
    of every chart row (0 for rows of other keys, aligned with `chart.rows`) and of selecting no row.

    Raises:
        ValueError: the chart has no dice.
    """
    for combo in chart.key_combinations():
        for drm in drm_values(chart):
            result = odds(chart, combo, drm)
            by_row = {id(ro.row): ro.probability for ro in result.rows}
            yield combo, drm, [by_row.get(id(r), Fraction(0)) for r in chart.rows], result.no_row


# ---- presentation shared by the JSON, HTML and CLI outputs ------------------------------------


def probability_json(p: Fraction) -> dict[str, Any]:
    """`{"exact": "3/20", "float": 0.15}`: the reduced fraction and a float rounded to 12 places."""
    return {"exact": f"{p.numerator}/{p.denominator}", "float": round(float(p), 12)}


def percent_text(p: Fraction) -> str:
    """A probability as a percentage: whole when exact (`15%`, `0%`), else one decimal (`2.8%`)."""
    pct = p * 100
    return f"{pct.numerator}%" if pct.denominator == 1 else f"{float(pct):.1f}%"


def fraction_text(p: Fraction) -> str:
    """`3/20`, `1` or `0`."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


# ---- `chartc odds`: one chart, one key combination, one DRM -----------------------------------------


@dataclass(frozen=True)
class OddsReport:
    """What `chartc odds` prints: the odds of one chart for the given keys at one DRM."""

    game: model.Game
    chart: model.Chart
    keys: tuple[tuple[model.Key, model.Member], ...]
    result: ChartOdds
    expected: tuple[tuple[model.Column, Fraction | None], ...]  # every `int` column, in chart order

    @property
    def in_span(self) -> bool:
        """Whether the DRM lies in the span the chart's declared DRMs can reach."""
        lo, hi = self.chart.drm_span()
        return lo <= self.result.drm <= hi


def chart_odds(game: model.Game, chart: model.Chart, given_keys: dict[str, str], drm: int) -> OddsReport:
    """Exact odds of each row of `chart` for the given keys at total DRM `drm`.

    Args:
        game: the chart's game (for printed labels).
        chart: a resolved chart.
        given_keys: key id -> member id or printed label, as for `chartc lookup`.
        drm: total die roll modifier added to the natural roll, in pips (any integer; one outside
            the declared span is allowed and flagged by `OddsReport.in_span`).

    Returns:
        The report; its row probabilities plus `no_row` sum to exactly 1.

    Raises:
        LookupProblem: the chart is not read by dice (value, reference or DRM-only charts), or a key
            is unknown, missing or has an unknown value.
    """
    from compiler.lookup import LookupUsage, resolve_keys

    if chart.kind != "roll" or chart.dice is None:
        how = {
            "value": f"by a value ({chart.value_key.label.lower()})" if chart.value_key else "by a value",
            "reference": "by its keys only",
            "drms": "nowhere: it lists DRMs only and its table is not printed",
        }.get(chart.kind, "without dice")
        raise LookupUsage(f"chart `{chart.address}` is read {how}, not by dice: it has no odds")
    keys = resolve_keys(chart, given_keys)
    result = odds(chart, tuple(m.id for _, m in keys), drm)
    expected = tuple((col, expected_value(chart, result, col)) for col in chart.columns if col.type == "int")
    return OddsReport(game, chart, keys, result, expected)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _decimal(p: Fraction) -> str:
    return f"{float(p):.3f}".rstrip("0").rstrip(".")


def _runs(dist: dict[int, Fraction]) -> list[tuple[int, int, Fraction]]:
    """Consecutive rolls with the same probability, as (first, last, probability)."""
    runs: list[tuple[int, int, Fraction]] = []
    for roll, p in dist.items():
        if runs and runs[-1][1] == roll - 1 and runs[-1][2] == p:
            runs[-1] = (runs[-1][0], roll, p)
        else:
            runs.append((roll, roll, p))
    return runs


def _chance(p: Fraction) -> str:
    return f"{fraction_text(p)} ({percent_text(p)})"


def _run_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first} to {last}"


def report_lines(report: OddsReport) -> list[str]:
    """The report as text lines for a terminal: one line per row, the chance of no row (when there
    is one), the expected value of each `int` column and the modified-roll distribution."""
    from compiler.text import value_text

    chart, result = report.chart, report.result
    assert chart.dice is not None
    lines = [f"{chart.game}/{chart.address} {chart.title}" + (f" (rule {chart.rule})" if chart.rule else "")]
    for key, member in report.keys:
        lines.append(f"  {key.id}: {member.label}")
    lo, hi = chart.drm_span()
    span = f"declared DRMs reach {_signed(lo)} to {_signed(hi)}" if chart.drms else "no DRMs declared"
    roll = f"{chart.dice.text}, natural roll" if result.drm == 0 else f"{chart.dice.text}, DRM {_signed(result.drm)}"
    lines.append(f"  {roll} ({span}{'' if report.in_span else '; this DRM is outside that span'})")
    table = [
        (ro.row.range.printed if ro.row.range else "", _chance(ro.probability),
         " | ".join(value_text(report.game, col, v) for col, v in zip(chart.columns, ro.row.values)))
        for ro in result.rows
    ]
    if result.no_row:
        missed = [v for v, p in result.modified.items() if p and not any(ro.row.range and ro.row.range.contains(v) for ro in result.rows)]
        rolls = ", ".join(_run_text(a, b) for a, b, _ in _runs({v: Fraction(1) for v in missed}))
        what = f"{'modified ' if result.drm else ''}roll{'s' if len(missed) > 1 else ''} {rolls}"
        why = f"; declared partial: {chart.partial}" if chart.partial else ""
        table.append(("no row", _chance(result.no_row), f"({what} select{'' if len(missed) > 1 else 's'} no row{why})"))
    header = ("roll", "chance", " | ".join(col.label for col in chart.columns))
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(2)]
    for cells in [header, *table]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(cells[:2], widths)) + "  " + cells[2])
    for col, value in report.expected:
        given = " per selected row" if result.no_row else ""
        shown = f"{fraction_text(value)} = {_decimal(value)}{given}" if value is not None else "none (some rows have no value)"
        lines.append(f"  expected {col.label}: {shown}")
    sign = "" if result.drm == 0 else f" {'+' if result.drm > 0 else '-'} {abs(result.drm)}"
    lines.append(f"  modified roll ({chart.dice.text}{sign}):")
    for first, last, p in _runs(result.modified):
        each = " each" if first != last else ""
        lines.append(f"    {_run_text(first, last)}: {_chance(p)}{each}")
    return lines


def report_json(report: OddsReport) -> dict[str, Any]:
    """The report as a JSON-ready dict: exact fractions as `{"exact", "float"}` objects."""
    chart, result = report.chart, report.result
    assert chart.dice is not None
    lo, hi = chart.drm_span()
    return {
        "game": chart.game,
        "chart": chart.address,
        "title": chart.title,
        "rule": chart.rule,
        "dice": chart.dice.text,
        "keys": {k.id: m.id for k, m in report.keys},
        "drm": result.drm,
        "drm_span": {"min": lo, "max": hi},
        "in_span": report.in_span,
        "partial": chart.partial,
        "rows": [
            {
                "range": {"printed": ro.row.range.printed, "min": ro.row.range.low, "max": ro.row.range.high} if ro.row.range else None,
                "values": {col.id: v for col, v in zip(chart.columns, ro.row.values)},
                "probability": probability_json(ro.probability),
                "percent": percent_text(ro.probability),
            }
            for ro in result.rows
        ],
        "no_row": probability_json(result.no_row),
        "expected": {col.id: probability_json(v) if v is not None else None for col, v in report.expected},
        "modified": [{"roll": roll, "probability": probability_json(p)} for roll, p in result.modified.items()],
    }
