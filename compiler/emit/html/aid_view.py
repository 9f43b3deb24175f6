"""The player aid's view of a chart: typed, frozen views the template reads (no dict probing).

`chart_view` turns a resolved chart into a `ChartView`: its heading, DRM box, legend, errata notes
and one body per layout (`RowsBody`, `GridBody`, `AvailabilityBody`, `OddsRuleBody`, or none for a
chart that lists DRMs only), with the chance of each row on the natural roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.engine.chances import chances, percent_text
from compiler.engine.crt import analyze, loss_fields
from compiler.model.calendar import Month
from compiler.model.crt import (
    LANDSCAPE_WIDTH_MM,
    PAGE_WIDTH_MM,
    CrtShape,
    cell_width_mm,
    classic_grid,
    crt_shape,
    fits_portrait,
)
from compiler.model.dice import DiceForm
from compiler.model.odds import OddsForm, OddsRule
from compiler.model.text import (
    group_text,
    key_label,
    modified_clamp_text,
    natural_text,
    per_text,
    row_range_text,
    value_text,
)


class Layout(StrEnum):
    """Which table a chart prints (the template branches on it)."""

    ROWS = "rows"
    GRID = "grid"
    AVAILABILITY = "availability"
    ODDS_RULE = "odds_rule"
    CRT = "crt"  # the classic combat results table: rolls down, columns across, codes in cells
    NONE = "none"  # a chart that lists DRMs only


@dataclass(frozen=True)
class DrmView:
    """One line of the DRM box: `+1 Strafe attack — when fb attack`."""

    value: str
    label: str
    when: str
    footnote: str | None
    per: str | None = None  # `per 10 Kills, fractions dropped` for a per-N DRM


@dataclass(frozen=True)
class RowView:
    """A row of the row-list table, with its chance on the natural roll and its errata marks."""

    key_labels: tuple[str, ...]
    range: str | None
    outputs: tuple[str, ...]
    percent: str
    bar: str  # SVG markup built from numbers only
    marks: str
    was_range: str | None
    was: tuple[str | None, ...]  # per output column: the printed value an errata changed
    added: bool


@dataclass(frozen=True)
class RowsBody:
    """The row-list table: key columns, roll or value, output columns, chance."""

    key_headers: tuple[str, ...]
    rows: tuple[RowView, ...]
    # the output columns (indices) of each table a row list too wide for the page prints as,
    # stacked, each repeating the key and roll columns; one block when it fits
    blocks: tuple[tuple[int, ...], ...] = ()
    large_blocks: tuple[tuple[int, ...], ...] = ()
    # at normal size: printed whole at the 8 pt floor with narrow cell padding (`DENSE_PADDING_MM`),
    # where at 9 pt it would need stacked blocks (USAAF's Target Systems Planning Table)
    dense: bool = False


@dataclass(frozen=True)
class GridCellView:
    """A grid cell: its printed range, and the chance and bar of the row it stands for."""

    range: str
    percent: str
    bar: str


@dataclass(frozen=True)
class GridRowView:
    outputs: tuple[str, ...]
    cells: tuple[GridCellView, ...]


@dataclass(frozen=True)
class GridBody:
    """The printed grid: output columns, then one column per key value."""

    columns: tuple[str, ...]
    key_label: str
    rows: tuple[GridRowView, ...]


@dataclass(frozen=True)
class AvailabilityRowView:
    item: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class AvailabilityBlock:
    """A run of an availability grid's columns, printed as one table: a grid too wide for the page
    is printed as several such tables stacked, each repeating the item column."""

    columns: tuple[str, ...]
    rows: tuple[AvailabilityRowView, ...]


@dataclass(frozen=True)
class AvailabilityBody:
    """An availability grid: one row per item, one column per month or period, split into blocks
    of columns that fit across a portrait page (`blocks` at the normal cell size, `large_blocks`
    in large print)."""

    item_label: str
    columns: tuple[str, ...]
    rows: tuple[AvailabilityRowView, ...]
    blocks: tuple[AvailabilityBlock, ...]
    large_blocks: tuple[AvailabilityBlock, ...]


@dataclass(frozen=True)
class OddsRuleBody:
    """How a CRT's odds are formed and its column picked: (heading, text) rows."""

    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CrtLineView:
    """A line of the classic CRT: the rolls it covers, and one result code per column."""

    rolls: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class CrtChanceView:
    """A line of the CRT's chance table: one result and its chance per column (natural roll)."""

    code: str
    percents: tuple[str, ...]


@dataclass(frozen=True)
class CrtBody:
    """The classic printed CRT, with the type sizes that fit its width, and the chance of each
    result per column on the natural roll."""

    key_label: str
    columns: tuple[str, ...]
    lines: tuple[CrtLineView, ...]
    normal_pt: float  # the cell size at normal print: 9 pt, or the 8 pt floor for a wide CRT
    large_pt: float  # the largest size from 12 pt down that fits, in large print
    chances: tuple[CrtChanceView, ...]


ChartBody = RowsBody | GridBody | AvailabilityBody | OddsRuleBody | CrtBody | None


GUTTER_MM = 5.0  # between two charts side by side


@dataclass(frozen=True)
class Sheet:
    """The page the aid is laid out for: its content box (the narrower and the shorter of A4 and
    US Letter, less the margins) and how many narrow charts may print side by side at the normal
    cell size."""

    width_mm: float
    height_mm: float
    per_row: int

    def share_mm(self, count: int) -> float:
        """The width each of `count` charts side by side gets."""
        return (self.width_mm - GUTTER_MM * (count - 1)) / count


PORTRAIT = Sheet(PAGE_WIDTH_MM, 279.4 - 28.0, 2)  # US Letter is the shorter: 279.4 mm less 14 mm margins
LANDSCAPE = Sheet(LANDSCAPE_WIDTH_MM, 210.0 - 28.0, 3)  # A4 landscape is the shorter: 210 mm
_LARGE_LINE_MM = 12 * 1.2 * 25.4 / 72 + 1.0  # a table line at 12 pt with its padding and rule


@dataclass(frozen=True)
class ChartView:
    """Everything the template prints for one chart."""

    chart: model.Chart
    anchor: str
    roll_header: str
    drms: tuple[DrmView, ...]
    clamp: str | None
    show_chances: bool
    dice_text: str | None
    legend: tuple[tuple[str, str], ...]
    errata: tuple[str, ...]
    layout: Layout
    body: ChartBody
    drm_rules: tuple[str, ...] = ()  # exclusive groups, the modified-roll cap, natural-roll rows, in words
    codes_key: tuple[tuple[str, str], ...] = ()  # result codes the chart prints, with their meanings
    shifts: tuple[str, ...] = ()  # a CRT's column shifts, worded (`describe_shift`)
    shift_cap: str | None = None
    shift_order: str | None = None  # when the total applies: before or after the odds table's edge
    examples: tuple[str, ...] = ()  # the worked examples marked `aid`, worded for players

    sheet: Sheet = PORTRAIT  # the page its blocks and row are laid out for

    def stacked(self, large_print: bool) -> bool:
        """Whether the chart's table prints as stacked blocks of columns at that size (each block
        kept whole)."""
        body = self.body
        if isinstance(body, (RowsBody, AvailabilityBody)):
            return len(body.large_blocks if large_print else body.blocks) > 1
        return False

    def runs_over_in_large_print(self) -> bool:
        """Whether the chart's stacked blocks in large print are taller than the sheet's page (an
        estimate, one line per row and header): such a chart starts where it is and continues
        between blocks on the next page; any other chart is kept whole."""
        body = self.body
        if not self.stacked(True) or not isinstance(body, (RowsBody, AvailabilityBody)):
            return False
        lines = sum(len(body.rows) + 1 for _ in body.large_blocks)
        return lines * _LARGE_LINE_MM > self.sheet.height_mm


@dataclass(frozen=True)
class GroupView:
    """Charts printed together under one heading: `charts` in order, and `rows`, the same charts
    as the page prints them, two narrow charts side by side (`pair_charts`)."""

    heading: str | None
    charts: tuple[ChartView, ...]
    rows: tuple[tuple[ChartView, ...], ...] = ()


@dataclass(frozen=True)
class SheetCell:
    """A chart as a row of a landscape page prints it: under its group's heading when it opens
    the group (landscape rows run across groups, so that short groups share a row)."""

    heading: str | None
    view: ChartView


NORMAL_CELL_PT = 9.0  # the template's table cell size (`--cell`)
LARGE_CELL_PT = 12.0  # the same in large print
FLOOR_CELL_PT = 8.0  # the smallest a table cell may print (a dense table)
DENSE_PADDING_MM = 2 * 0.8 + 0.3  # a dense table's cell padding, left and right, and its rules


_HALF_MAX_LINES = 34  # a chart taller than this (about half a page) prints across the whole width
_TEXT_WRAP_CHARS = 26  # a text cell wraps at about this many characters in a narrow column
_NOTE_CHARS_PER_LINE = 70  # characters of 7.5 pt notes on a line of a narrow column
_CHANCE_COLUMN_MM = 19.0  # `16.7%` and its bar
_LOWER_CASE_RATIO = 0.85


def pair_charts(
    charts: tuple[ChartView, ...], sheet: Sheet = PORTRAIT, large_print: bool = False
) -> tuple[tuple[ChartView, ...], ...]:
    """The charts of a group as printed rows: consecutive charts side by side while each fits its
    share of the page width (and is at most about half a portrait page tall), up to the sheet's
    `per_row` (two on a portrait page, three in landscape; in large print one fewer); any other
    chart alone."""
    per_row = sheet.per_row - 1 if large_print else sheet.per_row
    scale = LARGE_CELL_PT / NORMAL_CELL_PT if large_print else 1.0
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


def _text_width(texts: list[str], wrap: bool, cell_pt: float = NORMAL_CELL_PT) -> tuple[float, int]:
    """A column's width in mm at `cell_pt` and the lines its tallest cell takes."""
    longest = max((len(t) for t in texts), default=1)
    word = max((len(w) for t in texts for w in t.split()), default=1)
    chars = max(word, min(longest, _TEXT_WRAP_CHARS)) if wrap else longest
    # running text is mostly lower case, narrower than the digits and capitals `cell_width_mm` assumes
    return cell_width_mm(round(chars * _LOWER_CASE_RATIO), cell_pt), 1 + (longest - 1) // max(chars, 1)


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
        width = sum(w for w, _ in sizes) + (_CHANCE_COLUMN_MM if view.show_chances else 0.0)
        return width, rows + 2
    if isinstance(body, GridBody):
        columns = [[c.label, *(r.outputs[i] for r in body.rows)] for i, c in enumerate(view.chart.columns)]
        width = sum(_text_width(col, wrap=True)[0] for col in columns)
        cell = _CHANCE_COLUMN_MM if any(c.percent for r in body.rows for c in r.cells) else 0.0
        width += sum(max(cell, _text_width([h], wrap=False)[0]) for h in body.columns)
        return width, len(body.rows) * (2 if cell else 1) + 2
    if isinstance(body, OddsRuleBody):
        width = _text_width([h for h, _ in body.rows], True)[0] + _text_width([t for _, t in body.rows], True)[0]
        return width, sum(1 + len(t) // _TEXT_WRAP_CHARS for _, t in body.rows)
    return None


def month_text(text: str) -> str:
    """A month or month span as a rulebook prints it: `1944-12` as `Dec 44`, `1945-02..1945-03`
    as `Feb-Mar 1945`, `1943-03..1944-12` as `Mar 43-Dec 44`, `1945-01+` as `Jan 45+`. Other text
    is returned as it is (the charts and the JSON keep the `YYYY-MM` form)."""
    if text.endswith("+") and (first := Month.parse(text[:-1])) is not None:
        return _short_month(first) + "+"
    for joiner in ("..", " to "):
        if joiner in text:
            a, b = (Month.parse(part.strip()) for part in text.split(joiner, 1))
            if a is not None and b is not None:
                if a.year == b.year:
                    return f"{a.name}-{b.name} {a.year}"
                return f"{_short_month(a)}-{_short_month(b)}"
    month = Month.parse(text)
    return text if month is None else _short_month(month)


def _short_month(month: Month) -> str:
    return f"{month.name} {month.year % 100:02d}"


def _is_month_enum(enum: model.EnumType | None) -> bool:
    """The game calendar's months (the synthetic `month` enum every month key and column uses)."""
    return enum is not None and enum.id == "month" and enum.synthetic


def _key_text(key: model.Key, match: model.KeyMatch) -> str:
    """A key value as the aid prints it: `key_label`, with months as the book prints them."""
    label = key_label(key, match)
    return month_text(label) if isinstance(match, model.MonthSpan) or _is_month_enum(key.enum) else label


def _value_text(game: model.Game, col: model.Column, value: model.Value) -> str:
    """A cell as the aid prints it: `value_text`, with a month as the book prints it."""
    text = value_text(game, col, value)
    return month_text(text) if _is_month_enum(game.enums.get(col.type)) else text


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def describe_condition(c: model.Condition | None, game: model.Game) -> str:
    """A condition in words: `month is 1944-11 or 1945-01`, `fb attack`, `fatigue ≥ 5`."""
    if c is None:
        return "always"
    if isinstance(c, model.Flag):
        return game.context[c.var].label if c.var in game.context else c.var
    if isinstance(c, model.Compare):
        ops = {"==": "is", "!=": "is not", ">=": "\u2265", "<=": "\u2264", ">": ">", "<": "<"}
        return f"{_var_label(c.var, game)} {ops[c.op]} {_operand(c.var, c.value, game)}"
    if isinstance(c, model.In):
        values = [_operand(c.var, v, game) for v in c.values]
        return f"{_var_label(c.var, game)} is " + (
            ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]
        )
    if isinstance(c, model.Not):
        return f"not ({describe_condition(c.inner, game)})"
    joiner = " and " if isinstance(c, model.All) else " or "
    return joiner.join(describe_condition(p, game) for p in c.parts)


def describe_shift(s: model.Shift, rules: model.ShiftRules, game: model.Game) -> str:
    """A column shift as a rulebook words it: `Across a river: 1 column left (when Attack across a
    river)`, or for a shift read from a terrain effects chart `Terrain: per [TEC] Terrain Effects
    Chart, Column shift (Woods 1 left, Town 2 left)`."""
    pick = {"best": "best", "worst": "worst", "one": "first"}[str(dict(rules.groups)[s.group])] if s.group else ""
    group = f" (of group {s.group}, only the {pick} applies)" if s.group else ""
    if s.source is None:
        when = "" if s.when is None else f" when {describe_condition(s.when, game)}"
        return f"{s.label}: {_columns_moved(s.value)}{when}{group}"
    src = s.source
    var = game.context.get(src.var)
    enum = game.enums.get(var.enum) if var and var.enum else None
    moved = [
        f"{(m.label if (m := enum.member(member)) else member) if enum else member} {_columns_moved(value)}"
        for member, value in src.values
        if value
    ]
    return f"{s.label}: per [{src.chart}] {src.chart_title}, {src.column_label} ({', '.join(moved) or 'none'}){group}"


def _columns_moved(value: int) -> str:
    """`1 column right`, `2 columns left` (+ is toward the attacker, to the right on a printed CRT)."""
    way = "right" if value > 0 else "left"
    return f"{abs(value)} column{'s' if abs(value) != 1 else ''} {way}" if value else "no shift"


def _var_label(var: str, game: model.Game) -> str:
    ctx = game.context.get(var)
    key_enum = game.enums.get(var)  # a chart key named after its enum (`key terrain`)
    return ctx.label if ctx else key_enum.label if key_enum else var


def _operand(var: str, value: int | str, game: model.Game) -> str:
    ctx = game.context.get(var)
    enum = game.enums.get(ctx.enum) if ctx and ctx.type is model.ContextType.ENUM and ctx.enum else None
    enum = enum if ctx else game.enums.get(var)
    member = enum.member(str(value)) if enum else None
    text = member.label if member else str(value)
    return month_text(text) if ctx is not None and ctx.type is model.ContextType.MONTH else text


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


def _natural_chances(chart: model.Chart) -> dict[int, Fraction]:
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


def _avail_text(cell: model.AvailabilityCell) -> str:
    if cell is None:
        return "-"
    if isinstance(cell, model.AvailabilityMark):
        return "\u2713"
    return cell.printed


def _grid_cell(cell: model.DieRange | None, by_range: dict[int, Fraction]) -> GridCellView:
    """A grid cell: its printed range, and the chance and bar of the row it stands for."""
    if cell is None:
        return GridCellView("\u2013", "", "")
    p = by_range.get(id(cell))
    return GridCellView(cell.printed, _percent(p), _bar(p))


def _roll_header(chart: model.Chart, game: model.Game) -> str:
    if chart.kind is model.ChartKind.ROLL and chart.dice:
        times = f", {chart.repeat} times" if chart.repeat > 1 else ""
        if chart.dice_alternatives:
            return f"Roll ({_dice_words(chart, game)}){times}"
        return (f"Roll ({chart.dice.text})" if chart.dice.form != "percentile" else "Roll (2d10 %)") + times
    if chart.kind is model.ChartKind.VALUE and chart.value_key:
        return chart.value_key.label
    return ""


def _dice_words(chart: model.Chart, game: model.Game) -> str:
    """The dice as a rulebook words them: `1d10`, or with `roll ... when` alternatives
    `lower of 2d10 if Veteran, else 1d10`."""
    assert chart.dice is not None
    alternatives = [f"{a.dice.text} if {describe_condition(a.when, game)}" for a in chart.dice_alternatives]
    return ", ".join([*alternatives, ("else " if alternatives else "") + chart.dice.text])


def _printed_ranges(chart: model.Chart) -> list[str]:
    """Every die range or value range as the chart prints it, rows and grid cells alike."""
    printed = [r.range.printed for r in chart.rows if r.range]
    if chart.grid is not None:
        printed += [cell.printed for gr in chart.grid.rows for cell in gr.cells if cell]
    return printed


def _has_blank(chart: model.Chart) -> bool:
    """Whether the chart prints `–` anywhere (a value or a grid cell with nothing in it)."""
    values = [v for r in chart.rows for v in r.values]
    if chart.grid is not None:
        values += [v for gr in chart.grid.rows for v in gr.values]
        if any(cell is None for gr in chart.grid.rows for cell in gr.cells):
            return True
    return any(v is None for v in values)


def _first(printed: list[str], pattern: str) -> str | None:
    return next((p for p in printed if re.fullmatch(pattern, p)), None)


def chart_legend(chart: model.Chart, game: model.Game) -> list[tuple[str, str]]:
    """The symbols this chart prints, each with its meaning, so the legend sits on the same page
    as the chart (layout rule L6). Only what the chart prints is listed: an open end the chart
    has, the d10's 0 face, `✓` and `–`; result codes have their own key (`codes_key`), and values
    printed as words need no legend."""
    shape = crt_shape(chart, game.enums)
    if shape is not None:
        printed = [band.label for band in classic_grid(shape).bands]
    elif chart.availability is not None:  # the grid prints its cells, not the rows read from them
        printed = [_avail_text(c) for _, cells in chart.availability.rows for c in cells]
    else:
        printed = _printed_ranges(chart)
    legend: list[tuple[str, str]] = []
    high = _first(printed, r"-?\d+\+")
    if high:
        legend.append((high, f"{high[:-1]} or more"))
    low = _first(printed, r"-?\d+-|-?\d+ or less")
    if low:
        legend.append((low, low.rstrip("-").replace(" or less", "") + " or less"))
    if chart.dice and chart.dice.form is DiceForm.SUM and chart.dice.sides == 10 and _first(printed, r"(\d+-)?0"):
        legend.append(("0", "the 0 face of a d10 counts as 10" if chart.dice.zero == 10 else "the d10 reads 0 to 9"))
    if chart.dice and chart.dice.form is DiceForm.PERCENTILE and _first(printed, r"(\d+-)?00"):
        legend.append(("00", "100 on a percentile roll"))
    if "\u2713" in printed:
        legend.append(("\u2713", "automatic: no roll needed"))
    if chart.availability is not None and "-" in printed:
        legend.append(("-", "not available"))
    elif chart.availability is None and _has_blank(chart):
        legend.append(("\u2013", "no result: not available or not applicable"))
    return legend




def chart_view(game: model.Game, chart: model.Chart, sheet: Sheet = PORTRAIT) -> ChartView:
    """The view of one chart for the player aid template, its wide tables in blocks that fit
    across the `sheet`."""
    natural = _natural_chances(chart)
    show_chances = bool(natural) and (game.aid_chance if chart.aid_chance is None else chart.aid_chance)
    layout, body = _body(game, chart, natural, sheet.width_mm, show_chances)
    return ChartView(
        chart=chart,
        anchor="chart-" + chart.ident,
        roll_header=_roll_header(chart, game),
        drms=tuple(
            DrmView(
                _signed(d.value),
                d.label,
                describe_condition(d.when, game),
                None if d.footnote is None else str(d.footnote),
                per_text(chart, d.per) if d.per else None,
            )
            for d in chart.drms
        ),
        clamp=f"{_signed(chart.clamp[0])} to {_signed(chart.clamp[1])}" if chart.clamp else None,
        show_chances=show_chances,
        dice_text=_dice_words(chart, game) if chart.dice else None,
        legend=tuple(chart_legend(chart, game)),
        errata=tuple(_chart_errata(game, chart)),
        layout=layout,
        body=body,
        drm_rules=_drm_rules(game, chart),
        codes_key=codes_key(game, chart),
        shifts=tuple(describe_shift(s, chart.shifts, game) for s in chart.shifts.shifts) if chart.shifts else (),
        shift_cap=_shift_cap(chart.shifts),
        shift_order=_shift_order(game, chart),
        examples=tuple(example_text(game, chart, e) for e in game.examples if e.aid and e.chart == chart.address),
        sheet=sheet,
    )


def example_text(game: model.Game, chart: model.Chart, example: model.Example) -> str:
    """A worked example as the aid prints it: `A jet rolls 2 (7.1.10): Jet, roll 2, F/B attack -> Result: Combat`."""
    given = [_example_key(chart, k, v) for k, v in example.keys]
    if example.rolls:
        given.append(("roll " if len(example.rolls) == 1 else "rolls ") + ", ".join(example.rolls))
    given += [game.context[f].label if f in game.context else f for f in example.when]
    given += [f"{game.context[n].label if n in game.context else n} {v}" for n, v in example.sets]
    if example.drm:
        given.append(f"DRM {_signed(example.drm)}")
    if example.attack is not None:
        given.append(
            f"attack {example.attack}" + (f" vs defense {example.defense}" if example.defense is not None else "")
        )
    if example.shift:
        given.append(f"shift {_signed(example.shift)}")
    results = [_example_result(game, chart, x) for x in example.expects]
    text = f"{example.title} ({example.rule}): {', '.join(given)} \u2192 {'; '.join(results)}"
    return text + (f" (the chart gives otherwise: {example.contradicts})" if example.contradicts else "")


def _example_key(chart: model.Chart, key_id: str, written: str) -> str:
    key = next((k for k in chart.keys if k.id == key_id), None)
    member = key.enum.member(written) if key is not None else None
    return member.label if member is not None else written


def _example_result(game: model.Game, chart: model.Chart, expect: model.Expect) -> str:
    match expect.kind:
        case model.ExpectKind.CELL:
            charts = [chart, *(c for c in game.charts if c is not chart)]
            column = next((c for ch in charts for c in ch.columns if c.id == expect.column), None)
            if column is None:
                return str(expect.value)
            return f"{column.label}: {value_text(game, column, expect.value)}"
        case model.ExpectKind.ROW:
            return f"row {expect.text}"
        case model.ExpectKind.MODIFIED:
            return f"modified roll {expect.text}"
        case model.ExpectKind.DRM:
            return f"DRM {_signed(int(expect.text))}"
        case model.ExpectKind.ODDS:
            return f"column {expect.text}"
        case model.ExpectKind.NO_ROW:
            return "no row"
        case model.ExpectKind.NUMBER:
            return expect.text
        case _:
            assert_never(expect.kind)


def _drm_rules(game: model.Game, chart: model.Chart) -> tuple[str, ...]:
    """The DRM box's sentences beyond the DRM list, as a rulebook words them."""
    rules = [f"{group_text(chart, g)}." for g in chart.drm_groups]
    capped = modified_clamp_text(chart)
    rules += [f"{capped}."] if capped else []
    return (*rules, *(f"{natural_text(game, chart, r)}." for r in chart.rows if r.natural))


def codes_key(game: model.Game, chart: model.Chart) -> tuple[tuple[str, str], ...]:
    """The key of result codes printed under a chart: each code of a `codes` enum the chart uses,
    in the enum's order, with its meaning (and its integer fields, such as step losses)."""
    key: list[tuple[str, str]] = []
    for index, col in enumerate(chart.columns):
        enum = game.enums.get(col.type)
        if enum is None or not enum.codes:
            continue
        used = {str(r.values[index]) for r in chart.rows if index < len(r.values) and r.values[index] is not None}
        for m in enum.members:
            if m.id in used:
                losses = [f"{f.label} {m.get(f.id)}" for f in enum.fields if isinstance(m.get(f.id), int)]
                key.append((m.id, m.label + (f" ({', '.join(losses)})" if losses else "")))
    return tuple(key)


def _shift_cap(rules: model.ShiftRules | None) -> str | None:
    return f"{_signed(rules.cap[0])} to {_signed(rules.cap[1])}" if rules is not None and rules.cap else None


def _shift_order(game: model.Game, chart: model.Chart) -> str | None:
    """`applies after the odds table's edge`, from the odds rule the CRT is keyed by."""
    for key in chart.keys:
        rule = game.chart(key.enum.id)
        if rule is not None and rule.odds is not None and rule.odds.shift_order is not None:
            return f"applies {rule.odds.shift_order} the odds table's edge"
    return None


def _body(
    game: model.Game, chart: model.Chart, natural: dict[int, Fraction], width_mm: float, show_chances: bool
) -> tuple[Layout, ChartBody]:
    """The table a chart prints, by layout, a wide one in blocks that fit `width_mm`."""
    if chart.odds is not None:
        return Layout.ODDS_RULE, _odds_rule_body(chart.odds)
    if chart.availability is not None:
        return Layout.AVAILABILITY, _availability_body(chart, chart.availability, width_mm)
    shape = crt_shape(chart, game.enums)
    if shape is not None:
        return Layout.CRT, _crt_body(shape)
    if chart.grid is not None:
        return Layout.GRID, _grid_body(game, chart, chart.grid, natural)
    if chart.kind in (model.ChartKind.DRMS, model.ChartKind.ODDS):
        return Layout.NONE, None
    return Layout.ROWS, _rows_body(game, chart, natural, width_mm, show_chances)


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


def _crt_body(shape: CrtShape) -> CrtBody:
    """The classic CRT grid, sized to fit a portrait page, and its chance table."""
    grid = classic_grid(shape)
    labels = tuple(key_label(shape.key, c) for c in grid.columns)
    return CrtBody(
        key_label=shape.key.enum.label,
        columns=labels,
        lines=tuple(
            CrtLineView(band.label, tuple(grid.code(row) or "\u2013" for row in cells))
            for band, cells in zip(grid.bands, grid.cells, strict=True)
        ),
        normal_pt=9.0 if fits_portrait(grid, labels, 9.0) else 8.0,
        large_pt=next((pt for pt in _LARGE_SIZES if fits_portrait(grid, labels, pt)), 8.0),
        chances=_crt_chances(shape),
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


def _availability_body(chart: model.Chart, a: model.AvailabilityLayout, width_mm: float) -> AvailabilityBody:
    item_key = next(k for k in chart.keys if k.id == a.item_key)
    head_key = next(k for k in chart.keys if k.id == a.head_key)
    columns = tuple(_key_text(head_key, c) for c in a.heads)
    rows = tuple(
        AvailabilityRowView(_key_text(item_key, item), tuple(_avail_text(c) for c in cells)) for item, cells in a.rows
    )
    return AvailabilityBody(
        item_label=item_key.enum.label,
        columns=columns,
        rows=rows,
        blocks=_column_blocks(item_key.enum.label, columns, rows, NORMAL_CELL_PT, width_mm),
        large_blocks=_column_blocks(item_key.enum.label, columns, rows, LARGE_CELL_PT, width_mm),
    )


_ITEM_COLUMN_MAX_CHARS = 14  # an item label wraps at about this many characters


def _column_blocks(
    item_label: str, columns: tuple[str, ...], rows: tuple[AvailabilityRowView, ...], cell_pt: float, width_mm: float
) -> tuple[AvailabilityBlock, ...]:
    """The grid's columns in as few blocks of equal size as fit across `width_mm` at `cell_pt`
    (14 months at 9 pt: two blocks of 7 on a portrait page, one in landscape). Month and range
    cells do not wrap, so a grid wider than the page would be cut at its edge; the item column
    wraps, and is counted at its wrapped width. A row transcribed with fewer cells than columns
    (a partial chart) keeps them."""
    words = [len(w) for text in (item_label, *(r.item for r in rows)) for w in text.split()]
    room = width_mm - cell_width_mm(min(_ITEM_COLUMN_MAX_CHARS, max(words, default=1)), cell_pt)
    widths = [
        cell_width_mm(max([len(label), *(len(r.cells[j]) for r in rows if j < len(r.cells))]), cell_pt)
        for j, label in enumerate(columns)
    ]
    return tuple(
        AvailabilityBlock(
            columns[run.start : run.stop],
            tuple(AvailabilityRowView(r.item, r.cells[run.start : run.stop]) for r in rows),
        )
        for run in _equal_blocks(widths, room)
    )


def _grid_body(game: model.Game, chart: model.Chart, grid: model.GridLayout, natural: dict[int, Fraction]) -> GridBody:
    key = next(k for k in chart.keys if k.id == grid.key)
    by_range = {id(r.range): natural[id(r)] for r in chart.rows if id(r) in natural}
    return GridBody(
        columns=tuple(_key_text(key, c) for c in grid.heads),
        key_label=key.enum.label,
        rows=tuple(
            GridRowView(
                tuple(_value_text(game, col, v) for col, v in zip(chart.columns, gr.values, strict=True)),
                tuple(_grid_cell(cell, by_range) for cell in gr.cells),
            )
            for gr in grid.rows
        ),
    )


def _rows_body(
    game: model.Game, chart: model.Chart, natural: dict[int, Fraction], width_mm: float, show_chances: bool
) -> RowsBody:
    """The row list, its output columns in blocks that fit `width_mm` (beside the key and roll
    columns, and the chance column where it prints); a table that needs several blocks at 9 pt
    but fits whole at the 8 pt floor with narrow padding prints whole, dense."""
    headers = tuple(k.enum.label for k in chart.keys)
    rows = tuple(_row_view(game, chart, r, natural.get(id(r))) for r in chart.rows)
    fixed = [[h, *(r.key_labels[i] for r in rows)] for i, h in enumerate(headers)]
    if any(r.range for r in rows):
        fixed.append([_roll_header(chart, game), *(r.range or "" for r in rows)])
    outputs = [[c.label, *(r.outputs[i] + (r.was[i] or "") for r in rows)] for i, c in enumerate(chart.columns)]

    chance = _CHANCE_COLUMN_MM if show_chances else 0.0

    def blocks(cell_pt: float, padding_mm: float | None = None) -> tuple[tuple[int, ...], ...]:
        """Text wraps between words, so a table is too wide only when its longest words are."""
        room = width_mm - sum(_word_width(col, cell_pt, padding_mm) for col in fixed) - chance
        widths = [_word_width(col, cell_pt, padding_mm) for col in outputs]
        return tuple(tuple(b) for b in _equal_blocks(widths, room))

    normal = blocks(NORMAL_CELL_PT)
    dense = blocks(FLOOR_CELL_PT, DENSE_PADDING_MM) if len(normal) > 1 else normal
    whole = len(dense) == 1 < len(normal)
    return RowsBody(headers, rows, dense if whole else normal, blocks(LARGE_CELL_PT), dense=whole)


def _word_width(texts: list[str], cell_pt: float, padding_mm: float | None = None) -> float:
    """The narrowest a column of wrapping text can print at `cell_pt`: its longest word, in mm
    (with the normal cell padding, or `padding_mm`)."""
    chars = max((len(w) for t in texts for w in t.split()), default=1)
    return cell_width_mm(chars, cell_pt) if padding_mm is None else cell_width_mm(chars, cell_pt, padding_mm)


def _equal_blocks(widths: list[float], room: float) -> list[range]:
    """The columns of `widths` (mm) in as few runs of equal size (within one) as fit in `room`
    mm each; a column wider than `room` alone is still one run (the page check reports it)."""
    count = len(widths)
    size = count
    for parts in range(1, count + 1):
        size = -(-count // parts)  # ceiling
        if all(sum(widths[start : start + size]) <= room for start in range(0, count, size)):
            break
    return [range(start, min(start + size, count)) for start in range(0, count, max(size, 1))]


def _row_view(game: model.Game, chart: model.Chart, r: model.Row, chance: Fraction | None) -> RowView:
    """A row with its chance, and for an amended row which cells changed, what they were, and the
    errata mark."""
    marks = " ".join(errata_mark(game, e) for e in r.errata)
    was: tuple[str | None, ...] = (None,) * len(chart.columns)
    if r.errata and r.printed_values is not None:
        was = tuple(
            _value_text(game, col, old) if old != new else None
            for col, old, new in zip(chart.columns, r.printed_values, r.values, strict=False)
        )
    amended_range = bool(r.errata) and r.range is not None and r.printed_range not in (None, r.range.printed)
    return RowView(
        key_labels=tuple(_key_text(k, m) for k, m in zip(chart.keys, r.keys, strict=True)),
        range=row_range_text(r) if r.range else None,
        outputs=tuple(_value_text(game, col, v) for col, v in zip(chart.columns, r.values, strict=True)),
        percent=_percent(chance),
        bar=_bar(chance),
        marks=marks,
        was_range=r.printed_range if amended_range else None,
        was=was,
        added=bool(r.errata) and r.added,
    )


def errata_mark(game: model.Game, errata_id: str) -> str:
    """The short mark an amended cell carries: `E1` for the game's first errata in order."""
    ids = [e.id for e in game.errata]
    return f"E{ids.index(errata_id) + 1}" if errata_id in ids else errata_id


def _chart_errata(game: model.Game, chart: model.Chart) -> list[str]:
    """One line per errata that amended this chart, for players: its mark and name, then what it
    changed and why, in sentences (`E1 Official Errata (2023): Chart [C3] is the optional version.
    Reason: the rules call this chart [C3].`). File paths in a source are left out."""
    lines: list[str] = []
    marks = chart.errata
    if marks is None:
        return lines
    for errata_id in marks.applied:
        doc = next((e for e in game.errata if e.id == errata_id), None)
        cite = doc.title if doc else errata_id
        details = [d for d in (_readable_source(doc.source) if doc else None, doc.date if doc else None) if d]
        if details:
            cite += f" ({', '.join(details)})"
        what = [t for e, t in marks.notes if e == errata_id]
        if marks.printed_title and errata_id == marks.applied[0]:
            what.append(f"printed title: {marks.printed_title}")
        removed = [r for r in marks.removed_rows if errata_id in r.errata]
        if removed:
            what.append("removed rows: " + ", ".join(_row_name(chart, r) for r in removed))
        reasons = _unique([t for e, t in marks.reasons if e == errata_id])
        if reasons:
            what.append(("reason: " if len(reasons) == 1 else "reasons: ") + _sentence(reasons[0]))
            what += reasons[1:]
        said = " ".join(_sentence(t) for t in what)
        lines.append(f"{errata_mark(game, errata_id)} {cite}" + (f": {said}" if said else ""))
    return lines


_PATH = re.compile(r"\(?[\w.-]*/[\w./-]+\)?")


def _readable_source(source: str | None) -> str | None:
    """An errata document's source without file paths: `chartc project (charts/ia2/errata.chart)`
    prints as `chartc project`."""
    if source is None:
        return None
    kept = " ".join(_PATH.sub("", source).split()).strip(" ,;:")
    return kept or None


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _row_name(chart: model.Chart, r: model.Row) -> str:
    parts = [key_label(k, m) for k, m in zip(chart.keys, r.keys, strict=False)]
    if r.range is not None:
        parts.append(r.range.printed)
    return " ".join(parts) or "the row"
