"""The table a chart prints in the player aid, one body per layout: the row list (with the chance
of each row on the natural roll and its errata marks), the printed grid, the availability grid,
the odds rule, the classic CRT and its chance table.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.emit.html.notes import errata_mark
from compiler.emit.html.page_fit import (
    CHANCE_COLUMN_MM,
    DENSE_CELL_PT,
    DENSE_CHANCE_MM,
    DENSE_PADDING_MM,
    LARGE_CELL_PT,
    column_blocks,
    equal_blocks,
    word_width,
)
from compiler.emit.html.views import (
    AvailabilityBody,
    AvailabilityRowView,
    ChartBody,
    CrtBody,
    CrtChanceView,
    CrtLineView,
    FootRow,
    GridBody,
    GridCellView,
    GridRowView,
    Layout,
    OddsRuleBody,
    RowsBody,
    RowView,
)
from compiler.emit.html.wording import availability_text, cell_text, key_text, roll_header
from compiler.engine.chances import chances, percent_text
from compiler.engine.crt import analyze, loss_fields
from compiler.model.crt import CrtShape, classic_grid, crt_shape, estimated_width_mm, fits_portrait
from compiler.model.odds import OddsForm, OddsRule
from compiler.model.text import key_label, row_range_text


def chart_body(
    game: model.Game,
    chart: model.Chart,
    natural: dict[int, Fraction],
    width_mm: float,
    show_chances: bool,
    large_width_mm: float | None = None,
) -> tuple[Layout, ChartBody]:
    """The table a chart prints, by layout, a wide one in blocks that fit `width_mm` in the dense
    print and `large_width_mm` (by default `width_mm`) in large print."""
    large = width_mm if large_width_mm is None else large_width_mm
    if chart.odds is not None:
        return Layout.ODDS_RULE, _odds_rule_body(chart.odds)
    if chart.availability is not None:
        return Layout.AVAILABILITY, _availability_body(chart, chart.availability, width_mm, large)
    shape = crt_shape(chart, game.enums)
    if shape is not None:
        return Layout.CRT, _crt_body(game, shape)
    if chart.grid is not None:
        return Layout.GRID, _grid_body(game, chart, chart.grid, natural)
    if chart.kind in (model.ChartKind.DRMS, model.ChartKind.ODDS):
        return Layout.NONE, None
    return Layout.ROWS, _rows_body(game, chart, natural, (width_mm, large), show_chances)


def _odds_rule_body(r: OddsRule) -> OddsRuleBody:
    rows = _odds_form_rows(r)
    if r.columns:
        rows.append(("Columns", ", ".join(r.columns)))
    if r.beyond:
        rows.append(("Beyond the table", {"clamp": "use the edge column", "error": "not allowed"}[r.beyond]))
    if r.shift_order:
        rows.append(("Column shifts", f"column shifts apply {r.shift_order} the table edge is applied"))
    return OddsRuleBody(tuple(rows))


def _odds_form_rows(r: OddsRule) -> list[tuple[str, str]]:
    """How the rule forms odds, in the words of a CRT's key."""
    between = f"odds between two columns read the {r.between} one" if r.between else ""
    match r.form:
        case OddsForm.RATIO if r.between is None:
            return [
                ("Attacker has more", f"attack ÷ defense, rounded {r.attacker_round}, read as n:1"),
                ("Defender has more", f"defense ÷ attack, rounded {r.defender_round}, read as 1:n"),
                ("Equal", "1:1"),
            ]
        case OddsForm.RATIO:
            return [("Odds", "attack : defense, compared exactly with the columns"), ("Between columns", between)]
        case OddsForm.DIFFERENTIAL:
            rows = [("Differential", "attack − defense")]
            return rows + ([("Between columns", between)] if between else [])
        case OddsForm.STRENGTH:
            low, high = r.domain or (0, None)
            rows = [("Strength", f"the attack strength, {low} {'to ' + str(high) if high is not None else 'or more'}")]
            return rows + ([("Between columns", between)] if between else [])
        case _:
            assert_never(r.form)


_LARGE_SIZES = (12.0, 11.0, 10.0, 9.0, 8.0)


def _crt_body(game: model.Game, shape: CrtShape) -> CrtBody:
    """The classic CRT grid at the dense print's size (in large print, the largest that fits a
    portrait page), with its estimated width, and its chance table; an amended cell carries its
    errata mark."""
    grid = classic_grid(shape)
    labels = tuple(key_label(shape.key, c) for c in grid.columns)
    return CrtBody(
        key_label=shape.key.enum.label,
        columns=labels,
        lines=tuple(
            CrtLineView(
                band.label,
                tuple(grid.code(row) or "\u2013" for row in cells),
                tuple(" ".join(errata_mark(game, e) for e in row.errata) if row else "" for row in cells),
            )
            for band, cells in zip(grid.bands, grid.cells, strict=True)
        ),
        normal_pt=DENSE_CELL_PT,
        large_pt=next((pt for pt in _LARGE_SIZES if fits_portrait(grid, labels, pt)), 8.0),
        chances=_crt_chances(shape),
        dense_width_mm=estimated_width_mm(grid, labels, DENSE_CELL_PT),
    )


def _two_places(value: Fraction | None) -> str:
    return "\u2013" if value is None else f"{float(value):.2f}"


def _crt_chances(shape: CrtShape) -> tuple[CrtChanceView, ...]:
    """Per result, its chance in each column on the natural roll, then the average of each
    integer field of the results (step losses): the `chartc analyze` figures at DRM 0."""
    cells = analyze(shape, (0,)).columns
    order = shape.results.order or tuple(m.id for m in shape.results.members)
    lines = []
    for i, member in enumerate(order):
        chance = [c.results[i].probability for c in cells]
        percents = tuple(percent_text(p) if p else "\u2013" for p in chance)
        if any(chance):
            lines.append(CrtChanceView(member, percents))
    for j, field in enumerate(loss_fields(shape.results)):
        means = tuple(_two_places(c.expected[j].value) for c in cells)
        lines.append(CrtChanceView(f"avg. {field.label}", means))
    return tuple(lines)


def _availability_body(
    chart: model.Chart, a: model.AvailabilityLayout, width_mm: float, large_width_mm: float
) -> AvailabilityBody:
    item_key = next(k for k in chart.keys if k.id == a.item_key)
    head_key = next(k for k in chart.keys if k.id == a.head_key)
    columns = tuple(key_text(head_key, c) for c in a.heads)
    rows = tuple(
        AvailabilityRowView(key_text(item_key, item), tuple(availability_text(c) for c in cells))
        for item, cells in a.rows
    )
    return AvailabilityBody(
        item_label=item_key.enum.label,
        columns=columns,
        rows=rows,
        blocks=column_blocks(item_key.enum.label, columns, rows, DENSE_CELL_PT, width_mm, DENSE_PADDING_MM),
        large_blocks=column_blocks(item_key.enum.label, columns, rows, LARGE_CELL_PT, large_width_mm),
    )


def _grid_body(game: model.Game, chart: model.Chart, grid: model.GridLayout, natural: dict[int, Fraction]) -> GridBody:
    key = next(k for k in chart.keys if k.id == grid.key)
    by_range = {id(r.range): natural[id(r)] for r in chart.rows if id(r) in natural}
    row_of = {id(r.range): i for i, r in enumerate(chart.rows)}  # a cell is its row's range
    marks = {id(r.range): " ".join(errata_mark(game, e) for e in r.errata) for r in chart.rows if r.errata}
    return GridBody(
        columns=tuple(key_text(key, c) for c in grid.heads),
        key_label=key.enum.label,
        rows=tuple(
            GridRowView(
                tuple(cell_text(game, col, v) for col, v in zip(chart.columns, gr.values, strict=True)),
                tuple(_grid_cell(cell, by_range, row_of, marks) for cell in gr.cells),
            )
            for gr in grid.rows
        ),
    )


def _grid_cell(
    cell: model.DieRange | None, by_range: dict[int, Fraction], row_of: dict[int, int], marks: dict[int, str]
) -> GridCellView:
    """A grid cell: its printed range, the chance and bar of the row it stands for, that row's
    index (the interactive table marks the cell of the row it selects), and the errata mark of an
    amended cell."""
    if cell is None:
        return GridCellView("\u2013", "", "")
    p = by_range.get(id(cell))
    return GridCellView(cell.printed, _percent(p), _bar(p), row_of.get(id(cell)), marks.get(id(cell), ""))


def _rows_body(
    game: model.Game,
    chart: model.Chart,
    natural: dict[int, Fraction],
    widths_mm: tuple[float, float],
    show_chances: bool,
) -> RowsBody:
    """The row list, its output columns in blocks that fit the width (beside the key and roll
    columns, and the chance column where it prints): `widths_mm` is the dense print's and large
    print's; a column-sum invariant over the chart adds its foot line (`FootRow`)."""
    headers = tuple(k.enum.label for k in chart.keys)
    rows = key_spans(tuple(_row_view(game, chart, r, natural.get(id(r))) for r in chart.rows))
    fixed = [[h, *(r.key_labels[i] for r in rows)] for i, h in enumerate(headers)]
    if any(r.range for r in rows):
        fixed.append([roll_header(chart, game), *(r.range or "" for r in rows)])
    outputs = [[c.label, *(r.outputs[i] + (r.was[i] or "") for r in rows)] for i, c in enumerate(chart.columns)]

    foot = foot_row(game, chart)
    if foot is not None:
        outputs = [[*col, value] for col, value in zip(outputs, foot.values, strict=True)]
        fixed = [[*fixed[0], foot.label], *fixed[1:]] if fixed else fixed

    def blocks(
        cell_pt: float, width_mm: float, chance: float, padding_mm: float | None = None
    ) -> tuple[tuple[int, ...], ...]:
        """Text wraps between words, so a table is too wide only when its longest words are."""
        room = width_mm - sum(word_width(col, cell_pt, padding_mm) for col in fixed) - chance
        widths = [word_width(col, cell_pt, padding_mm) for col in outputs]
        return tuple(tuple(b) for b in equal_blocks(widths, room))

    dense = blocks(DENSE_CELL_PT, widths_mm[0], DENSE_CHANCE_MM if show_chances else 0.0, DENSE_PADDING_MM)
    large = blocks(LARGE_CELL_PT, widths_mm[1], CHANCE_COLUMN_MM if show_chances else 0.0)
    return RowsBody(headers, rows, dense, large, foot)


def key_spans(rows: tuple[RowView, ...]) -> tuple[RowView, ...]:
    """The rows with each key cell spanning the rows below that repeat it and every key before it
    (`Piston-engined` once for its two rows of IA2 R4); a row an errata added keeps its own cells,
    so its mark shows."""
    spans = [[1] * len(r.key_labels) for r in rows]
    for j in range(len(rows[0].key_labels) if rows else 0):
        start = 0
        for i in range(1, len(rows) + 1):
            same = (
                i < len(rows)
                and not rows[i].added
                and rows[i].key_labels[: j + 1] == rows[start].key_labels[: j + 1]
                and all(spans[i][k] == 0 for k in range(j))
            )
            if same:
                spans[i][j] = 0
            else:
                spans[start][j] = i - start
                start = i
    return tuple(replace(r, key_spans=tuple(s)) for r, s in zip(rows, spans, strict=True))


def foot_row(game: model.Game, chart: model.Chart) -> FootRow | None:
    """The line under a row list that a `column_sum` invariant names: each output column's record
    of the invariant's enum, its field (USAAF 20.2: each target system's Points Needed under the
    Target Systems Planning Table)."""
    for inv in game.invariants:
        if isinstance(inv, model.ColumnSumInvariant) and game.chart(inv.chart) is chart:
            enum = game.enums.get(inv.enum)
            field = next((f for f in enum.fields if f.id == inv.field), None) if enum else None
            if enum is None or field is None:
                return None
            values = []
            for col in chart.columns:
                member = enum.member(col.id)
                found = member.get(field.id) if member is not None else None
                values.append("\u2013" if found is None else str(found))
            return FootRow(field.label, tuple(values))
    return None


def _row_view(game: model.Game, chart: model.Chart, r: model.Row, chance: Fraction | None) -> RowView:
    """A row with its chance, and for an amended row which cells changed, what they were, and the
    errata mark."""
    marks = " ".join(errata_mark(game, e) for e in r.errata)
    was: tuple[str | None, ...] = (None,) * len(chart.columns)
    if r.errata and r.printed_values is not None:
        was = tuple(
            cell_text(game, col, old) if old != new else None
            for col, old, new in zip(chart.columns, r.printed_values, r.values, strict=False)
        )
    amended_range = bool(r.errata) and r.range is not None and r.printed_range not in (None, r.range.printed)
    return RowView(
        key_labels=tuple(key_text(k, m) for k, m in zip(chart.keys, r.keys, strict=True)),
        range=row_range_text(r) if r.range else None,
        outputs=tuple(cell_text(game, col, v) for col, v in zip(chart.columns, r.values, strict=True)),
        percent=_percent(chance),
        bar=_bar(chance),
        marks=marks,
        was_range=r.printed_range if amended_range else None,
        was=was,
        added=bool(r.errata) and r.added,
    )


def natural_chances(chart: model.Chart) -> dict[int, Fraction]:
    """Chance of each row on the natural roll (DRM 0) within its own key combination.

    A row that applies to several key combinations (`*`) gets a figure only when it is the same
    for all of them.
    """
    if chart.kind is not model.ChartKind.ROLL or chart.dice is None or chart.dice_alternatives:
        return {}  # with `roll ... when` alternatives a row has no one natural chance to print
    found: dict[int, set[Fraction]] = {}
    for combo in chart.key_combinations():
        for ro in chances(chart, combo, 0).rows:
            found.setdefault(id(ro.row), set()).add(ro.probability)
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


def _percent(p: Fraction | None) -> str:
    return "" if p is None else percent_text(p)


def _bar(p: Fraction | None) -> str:
    """An inline SVG bar (black outline, grey fill) that reads in black and white."""
    if p is None:
        return ""
    width = round(float(p) * 24, 2)
    return (
        '<svg class="bar" width="26" height="7" viewBox="0 0 26 7" aria-hidden="true">'
        '<rect x="0.5" y="0.5" width="25" height="6" fill="none" stroke="#000" stroke-width="0.6"/>'
        f'<rect x="1" y="1" width="{width}" height="5" fill="#555"/></svg>'
    )
