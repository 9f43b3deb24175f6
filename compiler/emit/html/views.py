"""The player aid's typed views of a chart, the contract with its template (no dict probing): a
`ChartView` holds the heading, DRM box, legend, notes and one body per layout (`RowsBody`,
`GridBody`, `AvailabilityBody`, `OddsRuleBody`, `CrtBody`, or none for a chart that lists DRMs
only); `GroupView` and `SheetCell` are the charts as a page prints them; `Sheet` is the page the
aid is laid out for. `compiler.emit.html.aid_view.chart_view` builds a `ChartView`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from compiler import model
from compiler.model.crt import LANDSCAPE_WIDTH_MM, PAGE_WIDTH_MM


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
    mark: str = ""  # the errata mark of an amended DRM (`E1`)
    was: str | None = None  # what the print had: `+1`, `when F/B attack`, `not in the print`


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
    # per key column: how many rows its cell spans (the rows below with the same keys so far print
    # none, 0), as a book prints a key once for its rows
    key_spans: tuple[int, ...] = ()


@dataclass(frozen=True)
class RowsBody:
    """The row-list table: key columns, roll or value, output columns, chance."""

    key_headers: tuple[str, ...]
    rows: tuple[RowView, ...]
    # the output columns (indices) of each table a row list too wide for the page prints as,
    # stacked, each repeating the key and roll columns; one block when it fits
    blocks: tuple[tuple[int, ...], ...] = ()
    large_blocks: tuple[tuple[int, ...], ...] = ()
    # a line under the rows (`<tfoot>`): what every output column needs, from a `column_sum`
    # invariant (USAAF's Target Systems Planning Table prints its Points Needed so)
    foot: FootRow | None = None


@dataclass(frozen=True)
class FootRow:
    """A line printed under a row list: its label and one value per output column."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class GridCellView:
    """A grid cell: its printed range, and the chance and bar of the row it stands for."""

    range: str
    percent: str
    bar: str
    row: int | None = None  # the chart row the cell stands for (its index in `Chart.rows`)
    mark: str = ""  # the errata mark of an amended cell (`E1`)


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
    marks: tuple[str, ...] = ()  # per cell, the errata mark of an amended cell (`E1`) or ""


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
    normal_pt: float  # the cell size of the dense print (`DENSE_CELL_PT`)
    large_pt: float  # the largest size from 12 pt down that fits, in large print
    chances: tuple[CrtChanceView, ...]
    dense_width_mm: float = 0.0  # the grid's estimated width at the dense print's cell size


ChartBody = RowsBody | GridBody | AvailabilityBody | OddsRuleBody | CrtBody | None


GUTTER_MM = 5.0  # between two charts side by side


@dataclass(frozen=True)
class Sheet:
    """The page the aid is laid out for: its content box (the narrower and the shorter of A4 and
    US Letter, less the margins), how many narrow charts may print side by side in large print
    (`per_row`, less one), and the columns the dense print flows its charts through."""

    width_mm: float
    height_mm: float
    per_row: int
    columns: int

    def share_mm(self, count: int) -> float:
        """The width each of `count` charts side by side gets."""
        return (self.width_mm - GUTTER_MM * (count - 1)) / count

    @property
    def column_mm(self) -> float:
        """The width of one column of the dense print."""
        return self.share_mm(self.columns)


PORTRAIT = Sheet(PAGE_WIDTH_MM, 279.4 - 28.0, 2, 2)  # US Letter is the shorter: 279.4 mm less 14 mm margins
LANDSCAPE = Sheet(LANDSCAPE_WIDTH_MM, 210.0 - 28.0, 3, 3)  # A4 landscape is the shorter: 210 mm
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
    footnotes: tuple[tuple[str, str], ...] = ()  # (mark, text), worded for players (`wording.for_players`)
    notes: tuple[str, ...] = ()  # the chart's unnumbered notes, worded for players
    abbreviations: tuple[tuple[str, str], ...] = ()  # column headings printed short, with what they stand for

    sheet: Sheet = PORTRAIT  # the page its blocks and row are laid out for
    partial: str | None = None  # what the transcription lacks (`Chart.partial`), worded for players
    span: bool = False  # dense print: the chart is too wide for a column and prints across them all

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
