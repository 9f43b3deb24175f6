"""What `chartc odds` prints: the exact chance of each row of a chart read by dice, for the keys
and DRM given, as text lines and a JSON document (`ChanceReport`).

The chances come from `compiler.engine.chances` (exact fractions) and `compiler.engine.repeated`;
this module gathers them into a report and renders it (through `compiler.query.common`, so every
line and document is made safe to print).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from compiler import model
from compiler.engine import overlays
from compiler.engine.chances import (
    ChartChances,
    chances,
    dice_variants,
    drm_totals,
    expected_value,
    fraction_text,
    percent_text,
    probability_json,
)
from compiler.engine.context import ModifierAnswer, read_context, read_modifiers
from compiler.engine.drms import holds
from compiler.engine.lookup import (
    ChartRead,
    Forces,
    LookupUsage,
    crt_keys,
    refuse_digit_drm,
    refuse_shifts_on_a_named_column,
    resolve_keys,
)
from compiler.engine.odds import Reading
from compiler.engine.repeated import repeated_chances
from compiler.engine.shifts import ShiftBreakdown
from compiler.model.text import json_value, row_range_text, step_json, step_text
from compiler.query.common import (
    breakdown_line,
    cell_text,
    heading,
    json_document,
    key_lines,
    modifiers_json,
    odds_json,
    safe_lines,
    signed,
    undecided_lines,
)
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class ChanceReport(ChartRead):
    """What `chartc odds` prints: the exact chances of one chart for the given keys at one DRM."""

    result: ChartChances
    expected: tuple[tuple[model.Column, Fraction | None], ...]  # every `int` column, in chart order
    # a chart with `roll ... when` lines: the same figures for each alternative's dice, in order
    alternatives: tuple[tuple[model.DiceAlternative, ChanceReport], ...] = ()
    modifiers: ModifierAnswer | None = None  # how the DRM was made up
    odds: tuple[tuple[str, Reading], ...] = ()  # CRT keys read from --attack/--defense, by key id
    shifts: ShiftBreakdown | None = None  # the CRT's own column shifts that applied

    @property
    def reach_span(self) -> tuple[int, int]:
        """The lowest and highest DRM total the chart's DRMs can reach together for these keys
        (`compiler.engine.reach`: only conditions that can hold together)."""
        totals = drm_totals(self.chart, self.result.combo)
        return totals[0], totals[-1]

    @property
    def in_span(self) -> bool:
        """Whether the DRM lies in the span the chart's declared DRMs can reach."""
        lo, hi = self.reach_span
        return lo <= self.result.drm <= hi


def _not_by_dice(chart: model.Chart) -> str:
    """How a chart without dice is read, for the usage error of `chartc odds`."""
    if chart.kind is model.ChartKind.VALUE:
        return f"by a value ({chart.value_key.label.lower()})" if chart.value_key else "by a value"
    if chart.kind is model.ChartKind.REFERENCE:
        return "by its keys only"
    if chart.kind is model.ChartKind.DRMS:
        return "nowhere: it lists DRMs only and its table is not printed"
    return "without dice"


def chance_report(
    game: model.Game,
    chart: model.Chart,
    given_keys: dict[str, str],
    drm: int,
    when: tuple[str, ...] = (),
    sets: tuple[str, ...] = (),
    forces: Forces | None = None,
    read_drms: bool = False,
) -> ChanceReport:
    """The exact chance of each row of `chart` for the given keys at total DRM `drm`.

    Args:
        game: the chart's game (for printed labels).
        chart: a resolved chart.
        given_keys: key id -> member id or printed label, as for `chartc lookup`.
        drm: die roll modifier added to the natural roll, in pips (any integer; one outside
            the declared span is allowed and flagged by `ChanceReport.in_span`), on top of the
            chart's DRMs read in the context `when` (flags) and `sets` (NAME=VALUE) when given.
        forces: for a CRT, the forces that pick its odds column, moved by its own column shifts
            in that context (as `chartc lookup`).
        read_drms: read the chart's DRMs even with no `when`/`sets` (every flag false), as
            `--read-drms` asks.

    Returns:
        The report; its row chances plus `no_row` sum to exactly 1.

    Raises:
        LookupUsage: the chart is not read by dice (value, reference or DRM-only charts), or a key
            is unknown, missing or has an unknown value.
    """
    if chart.kind is not model.ChartKind.ROLL or chart.dice is None:
        raise LookupUsage(
            f"chart `{chart.address}` is read {_not_by_dice(chart)}, not by dice: it has no chances to give"
        )
    context = read_context(game, chart, when, sets) if when or sets or read_drms else None
    if forces is None:
        refuse_shifts_on_a_named_column(game, chart, given_keys, context)
    crt = crt_keys(game, chart, forces, given_keys, context) if forces is not None else None
    given_keys = crt.keys if crt else given_keys
    keys = resolve_keys(chart, given_keys)
    modifiers = read_modifiers(chart, context, keys, drm)
    refuse_digit_drm(chart, modifiers.total)
    if chart.overlays and context is not None:  # the rows of every overlay that holds are read first
        chart = overlays.chart_in(chart, {**{k.id: model.MemberId(m.id) for k, m in keys}, **context})
    result = chances(chart, tuple(m.id for _, m in keys), modifiers.total)
    integer_columns = [col for col in chart.columns if col.type is model.BuiltinType.INT]
    expected = tuple((col, expected_value(chart, result, col)) for col in integer_columns)
    alternatives = tuple(
        (alt, chance_report(game, variant, given_keys, modifiers.total))
        for alt, variant in zip(chart.dice_alternatives, dice_variants(chart)[1:], strict=True)
    )
    if crt is None:
        return ChanceReport(game, chart, keys, result, expected, alternatives, modifiers)
    return ChanceReport(game, chart, keys, result, expected, alternatives, modifiers, crt.readings, crt.shifts)


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


def _chance_text(p: Fraction) -> str:
    """`3/20 (15%)`."""
    return f"{fraction_text(p)} ({percent_text(p)})"


def _run_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first} to {last}"


def _no_row_cells(report: ChanceReport) -> tuple[str, str, str]:
    """The table line for the rolls that select no row, and why."""
    chart, result = report.chart, report.result
    missed = [
        v
        for v, p in result.modified.items()
        if p and not any(ro.row.range and ro.row.range.contains(v) for ro in result.rows)
    ]
    rolls = ", ".join(_run_text(a, b) for a, b, _ in _runs({v: Fraction(1) for v in missed}))
    what = f"{'modified ' if result.drm else ''}roll{'s' if len(missed) > 1 else ''} {rolls}"
    why = f"; declared partial: {chart.partial}" if chart.partial else ""
    return ("no row", _chance_text(result.no_row), f"({what} select{'' if len(missed) > 1 else 's'} no row{why})")


def _table_lines(report: ChanceReport) -> list[str]:
    """One line per row (range, chance, the row's cells), aligned under a header."""
    chart, result = report.chart, report.result
    table = [
        (
            row_range_text(ro.row),
            _chance_text(ro.probability),
            " | ".join(cell_text(report.game, col, v) for col, v in zip(chart.columns, ro.row.values, strict=True)),
        )
        for ro in result.rows
    ]
    if result.no_row:
        table.append(_no_row_cells(report))
    header = ("roll", "chance", " | ".join(col.label for col in chart.columns))
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(2)]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(cells[:2], widths, strict=True)) + "  " + cells[2]
        for cells in [header, *table]
    ]


def chance_lines(report: ChanceReport) -> list[str]:
    """The report as text lines for a terminal: one line per row, the chance of no row (when there
    is one), the expected value of each `int` column and the modified-roll distribution."""
    chart, result = report.chart, report.result
    assert chart.dice is not None  # chance_report only builds reports of charts read by dice
    lines = [heading(report.game, chart)]
    lines += key_lines(report.keys, report.odds, report.shifts)
    lo, hi = report.reach_span
    span = f"declared DRMs reach {signed(lo)} to {signed(hi)}" if chart.drms else "no DRMs declared"
    dice = chart.dice.text + (" (when no alternative below applies)" if chart.dice_alternatives else "")
    roll = f"{dice}, natural roll" if result.drm == 0 else f"{dice}, DRM {signed(result.drm)}"
    lines.append(f"  {roll} ({span}{'' if report.in_span else '; this DRM is outside that span'})")
    if chart.arithmetic:
        lines.append(f"  the roll: {chart.dice.text}, then {', '.join(step_text(s) for s in chart.pipeline)}")
    if report.modifiers is not None and report.modifiers.breakdown is not None and chart.drms:
        lines.append("  " + breakdown_line(report.modifiers, None, None))
        lines += undecided_lines(report.game, report.modifiers)
    lines += _table_lines(report)
    lines += _expected_lines(report)
    sign = "" if result.drm == 0 else f" {'+' if result.drm > 0 else '-'} {abs(result.drm)}"
    through = "after the roll's steps, DRM " + signed(result.drm) if chart.arithmetic else chart.dice.text + sign
    lines.append(f"  modified roll ({through}):")
    for first, last, p in _runs(result.modified):
        each = " each" if first != last else ""
        lines.append(f"    {_run_text(first, last)}: {_chance_text(p)}{each}")
    if chart.repeat > 1:
        lines += _repeat_lines(report)
    rolled = next((alt for alt, _ in report.alternatives if _alternative_holds(report, alt)), None)
    for alt, sub in report.alternatives:
        mark = " (rolled in the context given)" if alt is rolled else ""
        lines.append(f"  when {_alternative_condition(report.game, alt)}, roll {alt.dice.text} instead{mark}:")
        lines += ["  " + line for line in _table_lines(sub)]
        lines += ["  " + line for line in _expected_lines(sub)]
    return safe_lines(lines)


def _alternative_holds(report: ChanceReport, alt: model.DiceAlternative) -> bool:
    """Whether `--when`/`--set` make this `roll ... when` alternative the dice rolled."""
    modifiers = report.modifiers
    if modifiers is None or modifiers.breakdown is None:
        return False
    return holds(alt.when, {**{k.id: model.MemberId(m.id) for k, m in report.keys}, **modifiers.context}) is True


def _alternative_condition(game: model.Game, alt: model.DiceAlternative) -> str:
    """A `roll ... when` condition for the terminal: a flag's label (`Veteran pilot`), else a
    pointer to the chart's source line."""
    when = alt.when
    if isinstance(when, model.Flag) and when.var in game.context:
        return game.context[when.var].label
    return f"the condition of line {alt.span.line} holds"


def _expected_lines(report: ChanceReport) -> list[str]:
    """The expected value of each `int` column (per selected row when some roll selects none)."""
    lines = []
    for col, value in report.expected:
        given = " per selected row" if report.result.no_row else ""
        shown = (
            f"{fraction_text(value)} = {_decimal(value)}{given}"
            if value is not None
            else "none (some rows have no value)"
        )
        lines.append(f"  expected {col.label}: {shown}")
    return lines


def _repeat_lines(report: ChanceReport) -> list[str]:
    """For a chart rolled N times (`repeat N`): each row's chance of appearing at least once in the
    N rolls and its expected count (the table above gives the chance on one roll)."""
    repeated = repeated_chances(report.result, report.chart.repeat)
    table = [
        (ro.row.range.printed if ro.row.range else "", _chance_text(ro.at_least_once), _decimal(ro.expected_count))
        for ro in repeated.rows
    ]
    if report.result.no_row:
        table.append(("no row", _chance_text(repeated.no_row_at_least_once), _decimal(repeated.no_row_expected_count)))
    header = ("roll", "at least once", "expected count")
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(2)]
    lines = [f"  rolled {repeated.times} times, each roll read separately:"]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(cells[:2], widths, strict=True)) + "  " + cells[2]
              for cells in [header, *table]]
    return lines


def chance_json(report: ChanceReport) -> str:
    """The report as a JSON document: exact fractions as `{"exact", "float"}` objects, cells as in
    the game JSON (a chart reference is `{"chart": "B6"}`)."""
    chart, result = report.chart, report.result
    assert chart.dice is not None  # chance_report only builds reports of charts read by dice
    lo, hi = report.reach_span
    return json_document(
        {
            "game": chart.game,
            "chart": chart.address,
            "title": chart.title,
            "rule": chart.rule,
            "dice": chart.dice.text,
            **({"pipeline": [step_json(s) for s in chart.pipeline]} if chart.arithmetic else {}),
            "keys": {k.id: m.id for k, m in report.keys},
            "drm": result.drm,
            "drm_span": {"min": lo, "max": hi},
            "modifiers": modifiers_json(report.modifiers),
            "in_span": report.in_span,
            "partial": chart.partial,
            "rows": [
                {
                    "range": {"printed": ro.row.range.printed, "min": ro.row.range.low, "max": ro.row.range.high}
                    if ro.row.range
                    else None,
                    "values": {col.id: json_value(v) for col, v in zip(chart.columns, ro.row.values, strict=True)},
                    "probability": probability_json(ro.probability),
                    "percent": percent_text(ro.probability),
                }
                for ro in result.rows
            ],
            "no_row": probability_json(result.no_row),
            "expected": {col.id: probability_json(v) if v is not None else None for col, v in report.expected},
            "modified": [{"roll": roll, "probability": probability_json(p)} for roll, p in result.modified.items()],
            **_repeat_json(report),
            **_alternatives_json(report),
            **odds_json(report.odds, report.shifts),
        }
    )


def _alternatives_json(report: ChanceReport) -> dict[str, Any]:
    """`{"alternatives": [...]}` for a chart with `roll ... when` lines: each alternative's dice and
    the chance of each row (chart order, as `rows`) and of no row with those dice."""
    if not report.alternatives:
        return {}
    return {
        "alternatives": [
            {
                "dice": alt.dice.text,
                "rows": [probability_json(ro.probability) for ro in sub.result.rows],
                "no_row": probability_json(sub.result.no_row),
            }
            for alt, sub in report.alternatives
        ]
    }


def _repeat_json(report: ChanceReport) -> dict[str, Any]:
    """`{"repeat": {...}}` for a chart rolled N times: per row (chart order, as `rows`) the chance of
    appearing at least once and the expected count; nothing for a chart rolled once."""
    if report.chart.repeat <= 1:
        return {}
    repeated = repeated_chances(report.result, report.chart.repeat)
    return {
        "repeat": {
            "times": repeated.times,
            "rows": [
                {
                    "at_least_once": probability_json(ro.at_least_once),
                    "expected_count": probability_json(ro.expected_count),
                }
                for ro in repeated.rows
            ],
            "no_row": {
                "at_least_once": probability_json(repeated.no_row_at_least_once),
                "expected_count": probability_json(repeated.no_row_expected_count),
            },
        }
    }
