"""The player aid's view of a chart: `chart_view` turns a resolved chart into the `ChartView` the
template reads (`compiler.emit.html.views`): its heading, DRM box, legend, errata notes and worked
examples, and its table, by layout, with the chance of each row on the natural roll.

Its parts: `bodies` (the table of each layout), `wording` (a chart's text for players), `notes`
(errata and worked examples), `page_fit` (widths, blocks, charts side by side).
"""

from __future__ import annotations

from compiler import model
from compiler.emit.html.bodies import chart_body, natural_chances
from compiler.emit.html.notes import chart_errata, drm_printed, errata_mark, example_text
from compiler.emit.html.views import PORTRAIT, ChartView, DrmView, Sheet
from compiler.emit.html.wording import (
    chart_legend,
    codes_key,
    describe_condition,
    dice_words,
    drm_rules,
    roll_header,
    shift_cap,
    shift_order,
    signed,
)

# re-exported: emit/python/module.py words a CRT's column shifts as the aid does
from compiler.emit.html.wording import describe_shift as describe_shift
from compiler.model.text import per_text


def chart_view(game: model.Game, chart: model.Chart, sheet: Sheet = PORTRAIT) -> ChartView:
    """The view of one chart for the player aid template, its wide tables in blocks that fit
    across the `sheet`."""
    natural = natural_chances(chart)
    show_chances = bool(natural) and (game.aid_chance if chart.aid_chance is None else chart.aid_chance)
    layout, body = chart_body(game, chart, natural, sheet.width_mm, show_chances)
    return ChartView(
        chart=chart,
        anchor="chart-" + chart.ident,
        roll_header=roll_header(chart, game),
        drms=tuple(
            DrmView(
                signed(d.value),
                d.label,
                describe_condition(d.when, game),
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
        errata=tuple(chart_errata(game, chart)),
        layout=layout,
        body=body,
        drm_rules=drm_rules(game, chart),
        codes_key=codes_key(game, chart),
        shifts=tuple(describe_shift(s, chart.shifts, game) for s in chart.shifts.shifts) if chart.shifts else (),
        shift_cap=shift_cap(chart.shifts),
        shift_order=shift_order(game, chart),
        examples=tuple(example_text(game, chart, e) for e in game.examples if e.aid and e.chart == chart.address),
        sheet=sheet,
    )
