"""The data of the interactive player aid: each roll chart and DRM list as the game's JSON holds it, for the page's
script (`templates/interactive.js.j2`) to read.

Pure: model in, one JSON text out, embedded in the page as `<script type="application/json">`. The
charts are `compiler.emit.json.chart_document` without the chance arrays (the script computes
chances from the dice outcomes, exactly, as `compiler.engine.chances` does), plus what the page shows and
the JSON leaves to its readers: each cell as a player reads it, the section anchor, the labels of
key members and context variables, the bounds of a range as printed before an errata.

Chart text cannot run: the JSON is written with every non-ASCII character and every `<`, `>`, `&`
escaped (`\\u003c`...), so nothing in it can end the script element; hidden characters are shown
as `[U+202E]` as in the rest of the page; and the script only ever sets `textContent`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from compiler import model
from compiler.emit.html.formulas import formula_data
from compiler.emit.json import chart_document, drm_json
from compiler.emit.templating import visible_controls
from compiler.engine.context import tested_variables
from compiler.model.calendar import Month, month_range
from compiler.model.text import value_text

_UNSAFE_IN_SCRIPT = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def live_data(game: model.Game) -> str:
    """The page data as a JSON text safe inside a `<script>` element."""
    charts = [c for c in game.charts if calculator_chart(c)]
    odds = {
        rule.address: chart_document(rule, chances=False)["odds_rule"]
        for c in charts
        for k in c.keys
        if (rule := game.chart(k.enum.id)) is not None and rule.odds is not None
    }
    doc = {
        "game": game.id,
        "errata": {e.id: e.title for e in game.errata},
        "charts": [_chart(game, c) for c in charts],
        "odds": dict(sorted(odds.items())),
        "formulas": [
            {**f, "variables": [_variable(game, game.context[v]) for v in f.pop("inputs")]}
            for f in formula_data(game)
        ],
    }
    text = json.dumps(_visible(doc), ensure_ascii=True, separators=(",", ":"))
    return re.sub("[<>&]", lambda m: _UNSAFE_IN_SCRIPT[m.group(0)], text)


def calculator_chart(chart: model.Chart) -> bool:
    """Whether the page gives the chart a calculator: a chart read by dice (`live_chart`), or a DRM
    list (`drms`), whose panel adds up the DRMs that apply."""
    return live_chart(chart) or chart.kind is model.ChartKind.DRMS


def live_chart(chart: model.Chart) -> bool:
    """Whether the page gives the chart an interactive table: a chart read by dice."""
    return chart.kind is model.ChartKind.ROLL and chart.dice is not None


def _visible(value: Any) -> Any:
    """Every string in the data with hidden characters shown (`visible_controls`)."""
    if isinstance(value, str):
        shown = visible_controls(value)
        return shown if isinstance(shown, str) else value
    if isinstance(value, list):
        return [_visible(v) for v in value]
    if isinstance(value, dict):
        return {k: _visible(v) for k, v in value.items()}
    return value


def _chart(game: model.Game, c: model.Chart) -> dict[str, Any]:
    doc = chart_document(c, chances=False)
    for row_doc, row in zip(doc["rows"], c.rows, strict=True):
        row_doc["cells"] = [value_text(game, col, v) for col, v in zip(c.columns, row.values, strict=True)]
        _printed(game, c, row_doc, row)
        del row_doc["values"]
    for overlay_doc, overlay in zip(doc.get("overlays", ()), c.overlays, strict=True):
        for row_doc, row in zip(overlay_doc["rows"], overlay.rows, strict=True):
            row_doc["cells"] = [value_text(game, col, v) for col, v in zip(c.columns, row.values, strict=True)]
            del row_doc["values"]
    removed = c.errata.removed_rows if c.errata is not None else ()
    for row_doc, row in zip(doc["errata"]["removed_rows"] if c.errata else (), removed, strict=True):
        row_doc["cells"] = [value_text(game, col, v) for col, v in zip(c.columns, row.values, strict=True)]
    if removed:
        _printed_order(doc, c, removed)
    printed = _printed_drms(c)
    if printed is not None:  # the errata toggle reads these: DRMs as printed, before the errata
        doc["printed_drms"] = [drm_json(d) for d in printed]
    footnotes = {f.mark: f.text for f in c.footnotes}
    for drm in (*doc["drms"], *doc.get("printed_drms", ())):
        drm["note"] = footnotes.get(drm["footnote"]) if drm["footnote"] is not None else None
    doc["anchor"] = "chart-" + c.ident
    doc["key_members"] = {k.id: [[m.id, m.label] for m in k.enum.members] for k in c.keys}
    doc["key_labels"] = {k.id: k.enum.label for k in c.keys}
    doc["odds_keys"] = {
        k.id: rule.address
        for k in c.keys
        if (rule := game.chart(k.enum.id)) is not None and rule.odds is not None
    }
    tested = dict.fromkeys((*tested_variables(c), *_printed_variables(printed or ())))
    doc["variables"] = [_variable(game, game.context[v]) for v in tested if v in game.context]
    for unused in ("source_file", "notes", "footnotes", "layout", "partial", "drm_span", "value_key"):
        doc.pop(unused, None)
    return doc


def _printed_drms(c: model.Chart) -> list[model.Drm] | None:
    """The chart's DRMs as printed, when an errata changed, added or removed one (None: it did
    not): a changed DRM as printed, an added one left out, a removed one back where the print has it
    (among the others in source order)."""
    removed = c.errata.removed_drms if c.errata is not None else ()
    if not removed and not any(d.errata for d in c.drms):
        return None
    kept = [d.printed if d.errata else d for d in c.drms if not d.errata or d.printed is not None]
    printed = [d for d in kept if d is not None] + list(removed)
    return sorted(printed, key=lambda d: (d.span.file, d.span.line, d.span.col))


def _printed_variables(drms: Iterable[model.Drm]) -> list[str]:
    """The context variables DRMs as printed read (a removed DRM's too), so the toggle can ask them."""
    return [v for d in drms for v in (*model.condition_variables(d.when), *((d.per.var,) if d.per else ()))]


def _printed(game: model.Game, c: model.Chart, row_doc: dict[str, Any], row: model.Row) -> None:
    """A row an errata changed: its bounds and cells as printed, for the page's as-printed view."""
    printed = row_doc.get("printed")
    if not printed:
        return
    values = row.printed_values if row.printed_values is not None else row.values
    del printed["values"]
    printed["cells"] = [value_text(game, col, v) for col, v in zip(c.columns, values, strict=False)]
    text = printed["range"] or (row.range.printed if row.range else "")
    printed["min"], printed["max"] = printed_bounds(c, text) if row.printed_range else (
        (row.range.low, row.range.high) if row.range else (None, None)
    )


def _printed_order(doc: dict[str, Any], c: model.Chart, removed: tuple[model.Row, ...]) -> None:
    """Each row's place in the chart as printed (`printed_at`), for the as-printed view: a row an
    errata removed is read where it was printed, not after the others, since where printed rows
    overlap the first one holding the roll is the one read (as `chartc lookup --as-printed` reads it).
    An errata's rows are written in the chart's row form, so the print's order is the source's."""
    printed = [(row_doc, row) for row_doc, row in zip(doc["rows"], c.rows, strict=True) if not row.added]
    printed += list(zip(doc["errata"]["removed_rows"], removed, strict=True))
    ordered = sorted(printed, key=lambda pair: (pair[1].span.file, pair[1].span.line, pair[1].span.col))
    for place, (row_doc, _) in enumerate(ordered):
        row_doc["printed_at"] = place


def printed_bounds(chart: model.Chart, text: str) -> tuple[int | None, int | None]:
    """The bounds of a range as printed, read with the chart's dice (`Dice.read_range`); `(None,
    None)` when the text is not such a range."""
    return chart.dice.read_range(text) if chart.dice is not None else (None, None)


def _variable(game: model.Game, var: model.ContextVar) -> dict[str, Any]:
    """A context variable the chart reads, with what its field offers."""
    out: dict[str, Any] = {"id": var.id, "type": var.type.value, "label": var.label}
    match var.type:
        case model.ContextType.ENUM:
            enum = game.enums.get(var.enum or "")
            out["members"] = [[m.id, m.label] for m in enum.members] if enum else []
        case model.ContextType.MONTH:
            out["members"] = [[m, _month_label(m)] for m in _months(game)]
        case model.ContextType.INT:
            out["min"], out["max"] = var.low, var.high
        case model.ContextType.FLAG:
            pass
    return out


def _months(game: model.Game) -> list[Month]:
    return month_range(*game.calendar) if game.calendar is not None else []


def _month_label(month: Month) -> str:
    return f"{month.name} {month.year}"
