"""Modified rolls beyond the dice's faces that select no row: off the table's end (C305, fixed by
an open end) or in a hole between rows only a DRM reaches (C310, fixed by widening the row next to
it). Each names the DRMs that push the roll there with the most they add."""

from __future__ import annotations

from compiler import model
from compiler.checks.findings import compress, for_combos, group_combos
from compiler.diagnostics import Sink, codes, fixes
from compiler.diagnostics.fixes import within
from compiler.engine.chances import table_rolls


def above(r: model.DieRange, m: int) -> bool:
    return r.low is not None and r.low > m


def below(r: model.DieRange, m: int) -> bool:
    return r.high is not None and r.high < m


def pushing_text(chart: model.Chart, high: bool) -> str:
    """The DRMs that push the roll up (`high`) or down, each with the most it adds: a per-N DRM as
    its total at the end of its variable's range, not its step (`kills` up to -14, -1 per 10)."""
    terms = []
    for d in chart.drms:
        if (d.value > 0) != high:
            continue
        if d.per is None:
            terms.append(f"`{d.id}` {d.value:+d}")
            continue
        most = max(d.contributions()) if high else min(d.contributions())
        step = f"{d.per.step} " if d.per.step != 1 else ""
        terms.append(f"`{d.id}` up to {most:+d} as {d.value:+d} per {step}{d.per.var}")
    return ", ".join(terms)


def report_inner_gaps(chart: model.Chart, inner: dict[tuple[str, ...], list[int]], high: bool, sink: Sink) -> None:
    """C310: modified rolls beyond the faces (above them when `high`) that fall between two rows:
    the fix widens the row next to the hole (C305's open end on the last row would not cover it)."""
    for values, combos in sorted(group_combos(chart, inner).items()):
        ranges = [r.range for c in combos for r in chart.rows_for(c) if not r.natural and r.range is not None]
        near = values[-1] + 1 if high else values[0] - 1
        beyond = [r for r in ranges if (r.low if high else r.high) == near]
        drm_text = pushing_text(chart, high)
        plural = len(values) > 1
        message = (
            f"modified {'rolls' if plural else 'roll'} {compress(values)} (DRM {drm_text}) "
            f"select{'' if plural else 's'} no row of chart `{chart.address}`{for_combos(chart, combos)}: "
            "a hole between rows that only a DRM reaches"
        )
        if not beyond or values[-1] - values[0] + 1 != len(values):
            sink.emit(codes.MODIFIED_GAP, message, chart.span, f"add a row for {compress(values)}")
            continue
        r = beyond[0]
        if high:
            wider = f"{values[0]}+" if r.high is None else f"{values[0]}-{r.high}"
        else:
            wider = f"{values[-1]}-" if r.low is None else f"{r.low}-{values[-1]}"
        fix = (
            fixes.replace_with(r.span, wider, fixes.Slot.RAW, fixes.Applicability.UNSAFE, old=r.printed)
            if within(r.span, chart.span) else None
        )
        sink.emit(
            codes.MODIFIED_GAP, message, r.span,
            f"widen row `{r.printed}` to `{wider}`, or add a row for {compress(values)}", fix=fix,
        )


def report_off_table(chart: model.Chart, off: dict[tuple[str, ...], list[int]], side: str, sink: Sink) -> None:
    grouped = group_combos(chart, off)
    if not grouped:
        return
    pushing = [d for d in chart.drms if (d.value > 0) == (side == "high")]
    anchor = pushing[0].span if pushing else chart.span
    for values, combos in sorted(grouped.items()):
        drm_text = pushing_text(chart, side == "high")
        edge = "highest" if side == "high" else "lowest"
        fix = (
            "make the last row open-ended (e.g. `5+`)"
            if side == "high"
            else "make the first row open-ended (e.g. `2-`)"
        )
        end = table_rolls(chart)[-1 if side == "high" else 0]  # the edge row holds the last face
        rows = [r for c in combos for r in chart.rows_for(c) if not r.natural]
        edges = [r.range for r in rows if r.range and r.range.contains(end)]
        sink.emit(
            codes.MODIFIED_ROLL_OFF_TABLE,
            f"modified roll {compress(values)} (DRM {drm_text}) falls off the {edge} row of chart "
            f"`{chart.address}`{for_combos(chart, combos)}",
            anchor,
            fix + ", or say in an errata what such a roll means",
            fix=fixes.open_ends([(r.span, r.printed) for r in edges], side == "high", chart.span),
        )
