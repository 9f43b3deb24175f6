"""How a chart fits the player aid's page: the type sizes of a table's cells, the width a chart
needs (estimated from average glyph widths, on the wide side), whether it fits a column of the
dense print (`fits_column`), a wide table's columns in blocks that fit across the page, and, in
large print, narrow charts side by side (`pair_charts`).
"""

from __future__ import annotations

from compiler.emit.html.views import (
    PORTRAIT,
    AvailabilityBlock,
    AvailabilityBody,
    AvailabilityRowView,
    ChartView,
    CrtBody,
    GridBody,
    OddsRuleBody,
    RowsBody,
    Sheet,
)
from compiler.model.crt import cell_width_mm

DENSE_CELL_PT = 7.5  # the dense print's table cell size (the template's `--cell`)
DENSE_PADDING_MM = 2 * 0.7 + 0.3  # the dense print's cell padding, left and right, and its rules
LARGE_CELL_PT = 12.0  # the same in large print
_PAIR_ESTIMATE_PT = 9.0  # large print's side-by-side estimate is made at 9 pt and scaled to 12 pt


_HALF_MAX_LINES = 34  # a chart taller than this (about half a page) prints across the whole width
_TEXT_WRAP_CHARS = 26  # a text cell wraps at about this many characters in a narrow column
_NOTE_CHARS_PER_LINE = 70  # characters of 7.5 pt notes on a line of a narrow column
CHANCE_COLUMN_MM = 19.0  # `16.7%` and its bar (large print)
DENSE_CHANCE_MM = 10.5  # `16.7%` at 7 pt: the dense print shows no bar
_LOWER_CASE_RATIO = 0.85


def pair_charts(
    charts: tuple[ChartView, ...], sheet: Sheet = PORTRAIT, large_print: bool = False
) -> tuple[tuple[ChartView, ...], ...]:
    """The charts of a group as printed rows: consecutive charts side by side while each fits its
    share of the page width (and is at most about half a portrait page tall), up to the sheet's
    `per_row` (two on a portrait page, three in landscape; in large print one fewer); any other
    chart alone."""
    per_row = sheet.per_row - 1 if large_print else sheet.per_row
    scale = LARGE_CELL_PT / _PAIR_ESTIMATE_PT if large_print else 1.0
    rows: list[tuple[ChartView, ...]] = []
    waiting: list[tuple[ChartView, float]] = []
    for view in charts:
        width = chart_width_mm(view)
        if width is None or per_row < 2 or width * scale > sheet.share_mm(2):
            rows += [tuple(v for v, _ in waiting)] if waiting else []
            rows.append((view,))
            waiting = []
            continue
        joined = [*waiting, (view, width)]
        if len(joined) > per_row or max(w for _, w in joined) * scale > sheet.share_mm(len(joined)):
            rows.append(tuple(v for v, _ in waiting))
            joined = [(view, width)]
        waiting = joined
        if len(waiting) == per_row:
            rows.append(tuple(v for v, _ in waiting))
            waiting = []
    if waiting:
        rows.append(tuple(v for v, _ in waiting))
    return tuple(rows)


def chart_width_mm(view: ChartView) -> float | None:
    """The width a chart needs at the normal cell size, when it may print beside another chart:
    its table's (text cells wrapped), with a DRM box under it, and at most about half a portrait
    page tall; None for a chart that prints across the whole width. An estimate from average glyph
    widths, on the wide side."""
    size = _table_size(view)
    if size is None:
        return None
    width, lines = size
    lines += sum(1 + len(d.label + d.when) // 40 for d in view.drms) + len(view.drm_rules) * 2
    notes = [*(f.text for f in view.chart.footnotes), *view.chart.notes, *view.errata, *view.examples]
    notes += [f"{a} = {b}" for a, b in (*view.legend, *view.codes_key)]
    lines += sum(1 + len(n) // _NOTE_CHARS_PER_LINE for n in notes) + (3 if view.chart.partial else 0)
    return width if lines <= _HALF_MAX_LINES else None


def _text_width(texts: list[str], wrap: bool, cell_pt: float = _PAIR_ESTIMATE_PT) -> tuple[float, int]:
    """A column's width in mm at `cell_pt` and the lines its tallest cell takes."""
    longest = max((len(t) for t in texts), default=1)
    word = max((len(w) for t in texts for w in t.split()), default=1)
    chars = max(word, min(longest, _TEXT_WRAP_CHARS)) if wrap else longest
    # running text is mostly lower case, narrower than the digits and capitals `cell_width_mm` assumes
    return cell_width_mm(round(chars * _LOWER_CASE_RATIO), cell_pt), 1 + (longest - 1) // max(chars, 1)


def fits_column(view: ChartView, width_mm: float) -> bool:
    """Whether a chart prints in one column of the dense print, `width_mm` wide: each block of
    its table (`blocks`, laid out for that width) no narrower than its longest words, a CRT at
    the dense cell size. A table of many columns prints in the column as stacked blocks; only a
    table one of whose blocks cannot shrink to the column prints across the page. An estimate
    from average glyph widths, on the wide side."""

    def width(texts: list[str]) -> float:
        return word_width(texts, DENSE_CELL_PT, DENSE_PADDING_MM)

    body = view.body
    match body:
        case CrtBody():
            return _crt_width_mm(view) <= width_mm
        case RowsBody():
            fixed = [[h, *(r.key_labels[i] for r in body.rows)] for i, h in enumerate(body.key_headers)]
            if view.roll_header:
                fixed.append([*view.roll_header.split(), *((r.range or "") for r in body.rows)])
            outputs = [
                [c.label, *(r.outputs[i] + (r.was[i] or "") for r in body.rows)]
                for i, c in enumerate(view.chart.columns)
            ]
            chance = DENSE_CHANCE_MM if view.show_chances else 0.0
            return all(
                sum(map(width, fixed)) + sum(width(outputs[i]) for i in block) + chance <= width_mm
                for block in body.blocks
            )
        case AvailabilityBody():
            return all(
                width([body.item_label, *(r.item for r in block.rows)])
                + sum(
                    width([c, *(r.cells[j] for r in block.rows if j < len(r.cells))])
                    for j, c in enumerate(block.columns)
                )
                <= width_mm
                for block in body.blocks
            )
        case GridBody():
            columns = [[c.label, *(r.outputs[i] for r in body.rows)] for i, c in enumerate(view.chart.columns)]
            cell = DENSE_CHANCE_MM if any(c.percent for r in body.rows for c in r.cells) else 0.0
            return sum(map(width, columns)) + sum(max(cell, width([h])) for h in body.columns) <= width_mm
        case OddsRuleBody() | None:
            return True


def _crt_width_mm(view: ChartView) -> float:
    body = view.body
    assert isinstance(body, CrtBody)
    return body.dense_width_mm


def _table_size(view: ChartView) -> tuple[float, int] | None:
    """The printed table's width in mm and height in lines, or None for a layout that always
    prints across the whole width (a CRT, an availability grid)."""
    body = view.body
    if body is None:
        return 0.0, 1
    if isinstance(body, RowsBody):
        columns = [[h, *(r.key_labels[i] for r in body.rows)] for i, h in enumerate(body.key_headers)]
        if view.roll_header:
            columns.append([*view.roll_header.split(), *((r.range or "") for r in body.rows)])
        columns += [[c.label, *(r.outputs[i] for r in body.rows)] for i, c in enumerate(view.chart.columns)]
        if any(r.was_range or any(w is not None for w in r.was) for r in body.rows):
            return None  # an amended row prints its printed value beside the new one
        sizes = [_text_width(col, wrap=True) for col in columns]
        rows = sum(max((1, *(1 + (len(r.outputs[i]) - 1) // _TEXT_WRAP_CHARS for i in range(len(r.outputs)))))
                   for r in body.rows)
        width = sum(w for w, _ in sizes) + (CHANCE_COLUMN_MM if view.show_chances else 0.0)
        return width, rows + 2
    if isinstance(body, GridBody):
        columns = [[c.label, *(r.outputs[i] for r in body.rows)] for i, c in enumerate(view.chart.columns)]
        width = sum(_text_width(col, wrap=True)[0] for col in columns)
        cell = CHANCE_COLUMN_MM if any(c.percent for r in body.rows for c in r.cells) else 0.0
        width += sum(max(cell, _text_width([h], wrap=False)[0]) for h in body.columns)
        return width, len(body.rows) * (2 if cell else 1) + 2
    if isinstance(body, OddsRuleBody):
        width = _text_width([h for h, _ in body.rows], True)[0] + _text_width([t for _, t in body.rows], True)[0]
        return width, sum(1 + len(t) // _TEXT_WRAP_CHARS for _, t in body.rows)
    return None


_ITEM_COLUMN_MAX_CHARS = 14  # an item label wraps at about this many characters


def column_blocks(
    item_label: str,
    columns: tuple[str, ...],
    rows: tuple[AvailabilityRowView, ...],
    cell_pt: float,
    width_mm: float,
    padding_mm: float | None = None,
) -> tuple[AvailabilityBlock, ...]:
    """The grid's columns in as few blocks of equal size as fit across `width_mm` at `cell_pt`
    (14 months at 9 pt: two blocks of 7 on a portrait page, one in landscape). Month and range
    cells do not wrap, so a grid wider than the page would be cut at its edge; the item column
    wraps, and is counted at its wrapped width. A row transcribed with fewer cells than columns
    (a partial chart) keeps them."""
    words = [len(w) for text in (item_label, *(r.item for r in rows)) for w in text.split()]
    pad = {} if padding_mm is None else {"padding_mm": padding_mm}
    room = width_mm - cell_width_mm(min(_ITEM_COLUMN_MAX_CHARS, max(words, default=1)), cell_pt, **pad)
    widths = [
        cell_width_mm(max([len(label), *(len(r.cells[j]) for r in rows if j < len(r.cells))]), cell_pt, **pad)
        for j, label in enumerate(columns)
    ]
    return tuple(
        AvailabilityBlock(
            columns[run.start : run.stop],
            tuple(AvailabilityRowView(r.item, r.cells[run.start : run.stop]) for r in rows),
        )
        for run in equal_blocks(widths, room)
    )


def word_width(texts: list[str], cell_pt: float, padding_mm: float | None = None) -> float:
    """The narrowest a column of wrapping text can print at `cell_pt`: its longest word, in mm
    (with the normal cell padding, or `padding_mm`)."""
    chars = max((len(w) for t in texts for w in t.split()), default=1)
    return cell_width_mm(chars, cell_pt) if padding_mm is None else cell_width_mm(chars, cell_pt, padding_mm)


def equal_blocks(widths: list[float], room: float) -> list[range]:
    """The columns of `widths` (mm) in as few runs of equal size (within one) as fit in `room`
    mm each; a column wider than `room` alone is still one run (the page check reports it)."""
    count = len(widths)
    size = count
    for parts in range(1, count + 1):
        size = -(-count // parts)  # ceiling
        if all(sum(widths[start : start + size]) <= room for start in range(0, count, size)):
            break
    return [range(start, min(start + size, count)) for start in range(0, count, max(size, 1))]
