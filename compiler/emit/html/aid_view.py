"""The player aid's view of a chart: `chart_view` turns a resolved chart into the `ChartView` the
template reads (`compiler.emit.html.views`): its heading, DRM box, legend, errata notes and worked
examples, and its table, by layout, with the chance of each row on the natural roll; in the
dense print, whether it fits a column or prints across them all.

Its parts: `bodies` (the table of each layout), `wording` (a chart's text for players), `notes`
(errata and worked examples), `page_fit` (widths, blocks, columns, charts side by side).
"""

from __future__ import annotations

from dataclasses import replace

from compiler import model
from compiler.emit.html.bodies import chart_body, natural_chances
from compiler.emit.html.notes import chart_errata, drm_printed, errata_mark, example_text
from compiler.emit.html.page_fit import fits_column
from compiler.emit.html.views import PORTRAIT, AvailabilityBody, ChartView, DrmView, RowsBody, Sheet
from compiler.emit.html.wording import (
    chart_legend,
    codes_key,
    describe_condition,
    dice_words,
    drm_rules,
    for_players,
    roll_header,
    shift_cap,
    shift_order,
    signed,
)

# re-exported: emit/python/module.py words a CRT's column shifts as the aid does
from compiler.emit.html.wording import describe_shift as describe_shift
from compiler.model.text import key_label, per_text, value_text


def chart_view(game: model.Game, chart: model.Chart, sheet: Sheet = PORTRAIT) -> ChartView:
    """The view of one chart for the player aid template. In the dense print it takes one
    column of the `sheet` when it fits there (`fits_column`), else the sheet's whole width
    (`span`), its wide tables in blocks that fit; a table that needs three stacked blocks in a
    column prints across the page when that takes fewer (USAAF's Target Systems Planning Table,
    15 systems); in large print its blocks fit the whole width."""
    view = _view(game, chart, sheet, sheet.column_mm)
    if fits_column(view, sheet.column_mm) and _stacks(view) < _SPAN_STACKS:
        return view
    across = replace(_view(game, chart, sheet, sheet.width_mm), span=True)
    return across if _stacks(across) < _stacks(view) or not fits_column(view, sheet.column_mm) else view


_SPAN_STACKS = 3  # a table that needs this many stacked blocks in a column prints across the page


def _stacks(view: ChartView) -> int:
    """How many stacked blocks the dense print sets the chart's table in."""
    match view.body:
        case RowsBody() | AvailabilityBody() as body:
            return len(body.blocks)
        case _:
            return 1


def _view(game: model.Game, chart: model.Chart, sheet: Sheet, width_mm: float) -> ChartView:
    natural = natural_chances(chart)
    show_chances = bool(natural) and (game.aid_chance if chart.aid_chance is None else chart.aid_chance)
    layout, body = chart_body(game, chart, natural, width_mm, show_chances, sheet.width_mm)
    return ChartView(
        chart=chart,
        anchor="chart-" + chart.ident,
        roll_header=roll_header(chart, game),
        drms=tuple(
            DrmView(
                signed(d.value),
                for_players(game, d.label),
                _when(game, d),
                None if d.footnote is None else str(d.footnote),
                per_text(chart, d.per) if d.per else None,
                " ".join(errata_mark(game, e) for e in d.errata),
                drm_printed(game, d),
            )
            for d in chart.drms
        ),
        clamp=f"{signed(chart.clamp[0])} to {signed(chart.clamp[1])}" if chart.clamp else None,
        show_chances=show_chances,
        dice_text=dice_words(chart, game) if chart.dice else None,
        legend=tuple(chart_legend(chart, game)),
        errata=tuple(for_players(game, line) for line in chart_errata(game, chart)),
        layout=layout,
        body=body,
        drm_rules=tuple(for_players(game, r) for r in drm_rules(game, chart)),
        codes_key=codes_key(game, chart),
        shifts=tuple(describe_shift(s, chart.shifts, game) for s in chart.shifts.shifts) if chart.shifts else (),
        shift_cap=shift_cap(chart.shifts),
        shift_order=shift_order(game, chart),
        examples=tuple(example_text(game, chart, e) for e in game.examples if e.aid and e.chart == chart.address),
        footnotes=tuple((str(f.mark), for_players(game, f.text)) for f in chart.footnotes),
        notes=tuple(for_players(game, n) for n in (*chart.notes, *_overlay_notes(game, chart))),
        abbreviations=abbreviations(game, chart),
        partial=None if chart.partial is None else for_players(game, chart.partial),
        sheet=sheet,
    )


def _overlay_notes(game: model.Game, chart: model.Chart) -> list[str]:
    """Each overlay as the print words it, under the chart: `In bad weather (when weather is Bad),
    read first: 2-4 Aborted.` (its rows, with their keys and cells)."""
    out = []
    for o in chart.overlays:
        rows = "; ".join(
            " ".join([*(key_label(k, m) for k, m in zip(chart.keys, r.keys, strict=True) if m is not None),
                      r.range.printed if r.range else "", ", ".join(value_text(game, c, v) for c, v in
                                                                   zip(chart.columns, r.values, strict=True))])
            for r in o.rows
        )
        out.append(f"{o.name} (when {describe_condition(o.when, game)}), read first: {rows}.")
    return out


def _when(game: model.Game, drm: model.Drm) -> str:
    """A DRM's condition in words, or `always` (the box prints nothing) when the words say no
    more than the DRM's label (`KIA/SW pilot`, when `KIA/SW pilot`)."""
    when = describe_condition(drm.when, game)
    return "always" if _said_in(when, drm.label) else when


def _said_in(words: str, label: str) -> bool:
    def plain(text: str) -> str:
        return " ".join("".join(ch if ch.isalnum() or ch == "/" else " " for ch in text.casefold()).split())

    return bool(plain(words)) and plain(words) in plain(label)


def abbreviations(game: model.Game, chart: model.Chart) -> tuple[tuple[str, str], ...]:
    """The column headings a chart prints short, each with the longer name the book gives it: a
    column named after an enum member (by id and label) that has a longer printed variant (USAAF
    target systems: `Abr` = `Abrasives`)."""
    found = []
    for col in chart.columns:
        for enum in game.enums.values():
            member = enum.member(col.id)
            if member is not None and member.id == col.id and member.label == col.label:
                longer = [a for a in member.aliases if len(a) > len(col.label) and " " not in col.label]
                if longer:
                    found.append((col.label, longer[0]))
                break
    return tuple(found)
