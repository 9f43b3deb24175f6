"""Coverage of a chart's rows: overlaps, gaps, faces, DRM reach.

Every check reads a `model.Chart` and reports to a `Sink`. Roll charts are checked on their real
outcomes, taken from the outcome model of `compiler.engine.chances` (a d66 band `31-46` covers 12 results,
not 16); value charts on integer intervals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import assert_never

from compiler import model
from compiler.checks.dice import unreachable_reason
from compiler.checks.findings import compress, describe_combo, for_combos, group_combos, ranged
from compiler.checks.off_table import above, below, report_inner_gaps, report_off_table
from compiler.checks.row_order import check_row_order
from compiler.diagnostics import Applicability, Label, Sink, codes, fixes
from compiler.engine.chances import drm_totals, reachable_rolls, table_rolls, unreachable_rows
from compiler.engine.reach import tests_keys
from compiler.model.text import keys_phrase, pipeline_text


def check_chart(chart: model.Chart, sink: Sink) -> None:
    """Overlaps, gaps, faces and reach of the rows of a chart that resolved."""
    _report_short_rows(chart, sink)
    if chart.broken:  # its resolve errors already explain what is wrong; gaps would only echo them
        return
    check_row_order(chart, sink)
    match chart.kind:
        case model.ChartKind.ROLL:
            if chart.dice is not None:
                _check_roll_chart(chart, sink)
        case model.ChartKind.VALUE:
            if chart.value_key is not None:
                _check_value_chart(chart, sink)
        case model.ChartKind.REFERENCE:
            _check_reference_chart(chart, sink)
        case model.ChartKind.ODDS:
            _check_partial_odds_rule(chart, sink)
        case model.ChartKind.DRMS | model.ChartKind.EXTERNAL:
            pass  # no rows of their own
        case _:
            assert_never(chart.kind)


def _check_partial_odds_rule(chart: model.Chart, sink: Sink) -> None:
    """C308/C309 for `partial` on an odds rule: its printed columns are known not to be all the
    columns (IA2 7.1.6 names the cards' firepower columns 6-, 8, 12 and 24 only in passing), so
    odds between two of them may belong to a column that is not printed; a rule without columns
    has nothing to be incomplete."""
    if chart.partial is None or chart.odds is None:
        return
    if not chart.odds.columns:
        sink.emit(
            codes.PARTIAL_BUT_COMPLETE,
            f"odds rule `{chart.address}` is declared partial but lists no columns",
            chart.span,
            "delete the `partial` line, or list the columns that are printed",
            fix=_delete_partial(chart),
        )
        return
    sink.emit(
        codes.PARTIAL_CHART,
        f"partial odds rule `{chart.address}`: only columns {', '.join(chart.odds.columns)} are printed; "
        "odds between two of them may read a column that is not",
        chart.span,
        f"declared partial: {chart.partial}",
    )


# ---- helpers -------------------------------------------------------------------------------------


def intersecting_pairs(rows: list[model.Row]) -> Iterator[tuple[model.Row, model.Row]]:
    """Every pair of rows whose ranges intersect, earlier row first, by a sweep over the rows
    sorted by low end: time grows with the rows and the pairs found, not with all pairs."""
    order = {id(r): i for i, r in enumerate(rows)}
    ranged = sorted(
        ((r, r.range) for r in rows if r.range is not None), key=lambda rr: (rr[1].low is not None, rr[1].low or 0)
    )
    for i, (a, ra) in enumerate(ranged):
        for b, rb in ranged[i + 1 :]:
            if ra.high is not None and rb.low is not None and rb.low > ra.high:
                break
            if ra.intersect(rb) is not None:
                yield (a, b) if order[id(a)] < order[id(b)] else (b, a)


def _report_short_rows(chart: model.Chart, sink: Sink) -> None:
    """C308: the rows of a partial availability grid that give fewer cells than it has months."""
    layout = chart.availability
    if layout is None or not chart.partial:
        return
    given = dict(layout.rows)
    for short in layout.short_rows:
        n = len(given.get(short.item, ()))
        sink.emit(
            codes.PARTIAL_CHART,
            f"partial chart `{chart.address}`: row `{short.written}` gives {n} of {len(layout.heads)} cells; "
            f"{', '.join(layout.heads[n:])} missing",
            short.span,
            f"declared partial: {chart.partial}",
        )


def _report_overlaps(
    chart: model.Chart,
    pairs: set[tuple[model.Row, model.Row]],
    shared: dict[tuple[model.Row, model.Row], str],
    sink: Sink,
) -> None:
    for a, b in sorted(pairs, key=lambda p: (p[0].span, p[1].span)):
        assert a.range is not None and b.range is not None
        sink.emit(
            codes.OVERLAPPING_RANGES,
            f"`{b.range.printed}` overlaps `{a.range.printed}` in chart `{chart.address}` (both select "
            f"{shared[(a, b)]})",
            b.range.span,
            "each roll must select exactly one row: shorten one of the ranges",
            (Label(a.range.span, "overlaps this row"),),
        )


# ---- roll charts -------------------------------------------------------------------------------------


def _check_roll_chart(chart: model.Chart, sink: Sink) -> None:
    dice = chart.dice
    assert dice is not None
    outcomes = table_rolls(chart)  # the union over its dice and `when` alternatives, through its arithmetic
    reach = reachable_rolls(chart)  # empty when a key has no values or `natural` rows read every roll
    lo, hi = (reach[0], reach[-1]) if reach else (outcomes[0], outcomes[-1])
    _check_row_reach(chart, reach, sink)

    gaps: dict[tuple[str, ...], list[int]] = {}
    off_high: dict[tuple[str, ...], list[int]] = {}
    off_low: dict[tuple[str, ...], list[int]] = {}
    inner_high: dict[tuple[str, ...], list[int]] = {}
    inner_low: dict[tuple[str, ...], list[int]] = {}
    overlaps: set[tuple[model.Row, model.Row]] = set()
    shared: dict[tuple[model.Row, model.Row], str] = {}
    per_combo = tests_keys(chart)
    for combo in chart.key_combinations():
        rows = [r for r in chart.rows_for(combo) if r.range is not None]
        ranges = [ranged(r) for r in rows]
        modified = [r for r in rows if not r.natural]
        rolls = reachable_rolls(chart, combo) if per_combo else reach
        can = set(rolls) | {o for o in outcomes if any(r.natural and ranged(r).contains(o) for r in rows)}
        gaps[combo] = [o for o in outcomes if o in can and not any(r.contains(o) for r in ranges)]
        off_high[combo] = [m for m in rolls if m > outcomes[-1] and not any(ranged(r).contains(m) for r in modified)]
        off_low[combo] = [m for m in rolls if m < outcomes[0] and not any(ranged(r).contains(m) for r in modified)]
        # a roll past the faces with a row beyond it is a hole inside the table, not off its end
        inner_high[combo] = [m for m in off_high[combo] if any(above(ranged(r), m) for r in modified)]
        inner_low[combo] = [m for m in off_low[combo] if any(below(ranged(r), m) for r in modified)]
        off_high[combo] = [m for m in off_high[combo] if m not in inner_high[combo]]
        off_low[combo] = [m for m in off_low[combo] if m not in inner_low[combo]]
        naturals = [r for r in rows if r.natural]
        for a, b in [*intersecting_pairs(modified), *intersecting_pairs(naturals)]:
            both = _overlap_values(ranged(a), ranged(b), dice.form, reach, lo, hi)
            if both and (a, b) not in overlaps:
                overlaps.add((a, b))
                shared[(a, b)] = compress(both)
    _report_overlaps(chart, overlaps, shared, sink)
    _report_gaps(chart, gaps, "roll", sink)
    report_off_table(chart, off_high, "high", sink)
    report_off_table(chart, off_low, "low", sink)
    report_inner_gaps(chart, inner_high, True, sink)
    report_inner_gaps(chart, inner_low, False, sink)


def _overlap_values(a: model.DieRange, b: model.DieRange, form: str, reach: list[int], lo: int, hi: int) -> list[int]:
    common = a.intersect(b)
    if common is None:
        return []
    values = [v for v in reach if (common[0] is None or v >= common[0]) and (common[1] is None or v <= common[1])]
    if values or form == "d66":
        return values
    # two ranges that meet only beyond every reachable roll (e.g. `12+` and `15+`) still overlap
    first = common[0] if common[0] is not None else (common[1] if common[1] is not None else lo)
    return [first]


def _check_row_reach(chart: model.Chart, reach: list[int], sink: Sink) -> None:
    # a printed face stays inside, even where a DRM always moves it away (or no roll is modified)
    table = table_rolls(chart) if chart.dice is not None else []
    lo, hi = min(reach + table), max(reach + table)
    dice_text = (pipeline_text(chart) or chart.dice_text) if chart.dice else "the dice"
    drm_text = " with its DRMs" if chart.drms else ""
    never = {id(row) for row in unreachable_rows(chart)}
    for row in chart.rows:
        r = row.range
        if r is None:
            continue
        if id(row) in never:
            plain = chart.dice and not chart.dice_alternatives and not tests_keys(chart) and not chart.arithmetic
            reason = unreachable_reason(chart.dice, r) if plain and chart.dice else None
            sink.emit(
                codes.UNREACHABLE_ROW,
                f"row `{r.printed}` of chart `{chart.address}` can never be selected: "
                + (
                    f"{reason}{', and no DRM reaches it' if chart.drms else ''}"
                    if reason
                    else f"{dice_text}{drm_text} rolls {_rolls_for_row(chart, row)}"
                ),
                r.span,
                "check the printed range, or declare the DRM that reaches it",
            )
            continue
        first, last = (chart.natural_rolls[0], chart.natural_rolls[-1]) if row.natural else (lo, hi)
        outside = [v for v in (r.low, r.high) if v is not None and not first <= v <= last]
        if outside:
            sink.emit(
                codes.RANGE_OUTSIDE_FACES,
                f"range `{r.printed}` of chart `{chart.address}` reaches {compress(outside)}, which "
                f"{chart.dice_text if row.natural else dice_text + drm_text} cannot roll ({first} to {last})",
                r.span,
                f"write an open end (`{r.low}+`) if the row is meant to catch every higher modified roll"
                if r.high is not None and r.high > last
                else None,
                fix=fixes.open_ends([(r.span, r.printed)], True, chart.span) if r.high is not None and r.high > last
                else None,
            )


def _rolls_for_row(chart: model.Chart, row: model.Row) -> str:
    """The modified rolls the row's key combinations can see (`2-7`, `1-6 for terrain Clear`): only
    DRM totals whose conditions can hold together count (`compiler.engine.reach`)."""
    combos = [c for c in chart.key_combinations() if any(r is row for r in chart.rows_for(c))]
    rolls = sorted({m for c in combos for m in reachable_rolls(chart, c)})
    where = keys_phrase(chart.keys, row.keys) if tests_keys(chart) else ""
    if not rolls:  # a key without values (an empty key column imported), or `natural` rows read every roll
        empty = [f"`{k.id}`" for k in chart.keys if not k.enum.members]
        return f"nothing: key {', '.join(empty)} has no values" if empty else "nothing a `natural` row does not read"
    whole = rolls[-1] - rolls[0] + 1 == len(rolls)
    return (f"{rolls[0]} to {rolls[-1]}" if whole else compress(rolls)) + (f" for {where}" if where else "")


def _report_gaps(chart: model.Chart, gaps: dict[tuple[str, ...], list[int]], what: str, sink: Sink) -> None:
    grouped = group_combos(chart, gaps)
    any_gap = bool(grouped)
    for values, combos in sorted(grouped.items()):
        where = for_combos(chart, combos)
        noun = f"{what}s" if len(values) > 1 else what
        if chart.partial:
            sink.emit(
                codes.PARTIAL_CHART,
                f"partial chart `{chart.address}`: {noun} {compress(values)} select no row{where}",
                chart.span,
                f"declared partial: {chart.partial}",
            )
        else:
            sink.emit(
                codes.GAP,
                f"{noun} {compress(values)} select{'s' if len(values) == 1 else ''} no row of chart "
                f"`{chart.address}`{where}",
                chart.span,
                'add the missing rows, or declare `partial "why"` if the print leaves them out',
            )
    if chart.partial and not any_gap and chart.availability is None:
        # an availability grid knows only the items it lists, so it cannot tell lost rows apart
        sink.emit(
            codes.PARTIAL_BUT_COMPLETE,
            f"chart `{chart.address}` is declared partial but every {what} selects a row",
            chart.span,
            "delete the `partial` line",
            fix=_delete_partial(chart),
        )


# ---- value charts --------------------------------------------------------------------------------------


def _check_value_chart(chart: model.Chart, sink: Sink) -> None:
    vk = chart.value_key
    assert vk is not None
    dom = vk.domain
    dlo, dhi = drm_totals(chart)[0], drm_totals(chart)[-1]
    low = None if dom.low is None else dom.low + dlo
    high = None if dom.high is None else dom.high + dhi
    domain = model.DieRange(low, high, dom.printed, dom.span)
    gaps: dict[tuple[str, ...], list[Interval]] = {}
    overlaps: set[tuple[model.Row, model.Row]] = set()
    shared: dict[tuple[model.Row, model.Row], str] = {}
    for row in chart.rows:
        r = row.range
        if r is None:
            continue
        if domain.intersect(r) is None:
            sink.emit(
                codes.UNREACHABLE_ROW,
                f"row `{r.printed}` of chart `{chart.address}` lies outside {vk.id} `{dom.printed}`",
                r.span,
            )
        elif any(v is not None and not domain.contains(v) for v in (r.low, r.high)):
            sink.emit(
                codes.RANGE_OUTSIDE_FACES,
                f"range `{r.printed}` of chart `{chart.address}` runs outside {vk.id} `{dom.printed}`",
                r.span,
            )
    for combo in chart.key_combinations():
        rows = [r for r in chart.rows_for(combo) if r.range is not None]
        missing = _interval_gaps(domain, [ranged(r) for r in rows])
        gaps[combo] = missing
        for a, b in intersecting_pairs(rows):
            common = ranged(a).intersect(ranged(b))
            if common is not None and (a, b) not in overlaps:
                overlaps.add((a, b))
                shared[(a, b)] = _interval_text(common)
    _report_overlaps(chart, overlaps, shared, sink)
    _report_interval_gaps(chart, gaps, sink)


Interval = tuple[int | None, int | None]


def _interval_gaps(domain: model.DieRange, ranges: list[model.DieRange]) -> list[Interval]:
    """Uncovered stretches of `domain` as (low, high) pairs; None is an open end."""
    out: list[Interval] = []
    cursor = domain.low  # the lowest value not yet known to be covered (None = minus infinity)
    for r in sorted(ranges, key=lambda r: (r.low is not None, r.low or 0)):
        if r.low is not None and (cursor is None or r.low > cursor):
            gap_high = r.low - 1
            if domain.high is not None:
                gap_high = min(gap_high, domain.high)
            if cursor is None or gap_high >= cursor:
                out.append((cursor, gap_high))
        if r.high is None:
            return out
        cursor = r.high + 1 if cursor is None else max(cursor, r.high + 1)
        if domain.high is not None and cursor > domain.high:
            return out
    out.append((cursor, domain.high))
    return out


def _interval_text(pair: Interval) -> str:
    low, high = pair
    if low is None and high is None:
        return "every value"
    if high is None:
        return f"{low} and up"
    if low is None:
        return f"{high} and below"
    return str(low) if low == high else f"{low}-{high}"


def _report_interval_gaps(chart: model.Chart, gaps: dict[tuple[str, ...], list[Interval]], sink: Sink) -> None:
    grouped: dict[tuple[Interval, ...], list[tuple[str, ...]]] = defaultdict(list)
    for combo, missing in gaps.items():
        if missing:
            grouped[tuple(missing)].append(combo)
    for stretches, combos in sorted(grouped.items(), key=lambda kv: str(kv[0])):
        text = ", ".join(_interval_text(m) for m in stretches)
        where = for_combos(chart, combos)
        vk = chart.value_key.id if chart.value_key else "value"
        if chart.partial:
            sink.emit(
                codes.PARTIAL_CHART,
                f"partial chart `{chart.address}`: {vk} {text} selects no row{where}",
                chart.span,
                f"declared partial: {chart.partial}",
            )
        else:
            sink.emit(
                codes.GAP,
                f"{vk} {text} selects no row of chart `{chart.address}`{where}",
                chart.span,
                "add the missing rows (an open-ended last row like `20+` covers every higher value), or declare "
                '`partial "why"`',
            )
    if chart.partial and not grouped:
        sink.emit(
            codes.PARTIAL_BUT_COMPLETE,
            f"chart `{chart.address}` is declared partial but every value selects a row",
            chart.span,
            "delete the `partial` line",
            fix=_delete_partial(chart),
        )


# ---- reference charts ------------------------------------------------------------------------------------


def _check_reference_chart(chart: model.Chart, sink: Sink) -> None:
    missing: list[tuple[str, ...]] = []
    for combo in chart.key_combinations():
        rows = chart.rows_for(combo)
        if not rows:
            missing.append(combo)
        for extra in rows[1:]:
            sink.emit(
                codes.OVERLAPPING_RANGES,
                f"two rows of chart `{chart.address}` apply to {describe_combo(chart, combo)}"
                if chart.keys
                else f"chart `{chart.address}` is read by nothing, so it holds one row of values, not two",
                extra.span,
                "a chart read by keys alone needs exactly one row per key value",
                (Label(rows[0].span, "first row here"),),
            )
    if missing and chart.keys:
        text = for_combos(chart, missing).removeprefix(" for ")
        if chart.partial:
            sink.emit(
                codes.PARTIAL_CHART,
                f"partial chart `{chart.address}`: no row for {text}",
                chart.span,
                f"declared partial: {chart.partial}",
            )
        else:
            sink.emit(
                codes.GAP,
                f"no row of chart `{chart.address}` for {text}",
                chart.span,
                'add a row for each key value, or declare `partial "why"`',
            )
    elif chart.partial and chart.keys:
        sink.emit(
            codes.PARTIAL_BUT_COMPLETE,
            f"chart `{chart.address}` is declared partial but every key value has a row",
            chart.span,
            "delete the `partial` line",
            fix=_delete_partial(chart),
        )


def _delete_partial(chart: model.Chart) -> fixes.Fix | None:
    """C309's fix: delete the chart's `partial "..."` statement. Unsafe: the reason may record what
    the print left out, and a reader decides whether the chart is complete now."""
    if chart.partial_span is None:
        return None
    return fixes.delete(chart.partial_span, "the `partial` line", Applicability.UNSAFE)
