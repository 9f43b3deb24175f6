"""The classic printed combat results table (CRT): die rolls down, columns across, codes in cells.

A chart is a CRT when it is read by dice and one key (its columns: odds, differential or strength),
and has one output column typed by an enum of result codes (`codes`) or of ranked results
(`order`). `classic_grid` lays its rows out as the printed grid: one band of rolls per line (each
roll on its own line when the rolls span at most `PER_ROLL_SPAN`), one cell per column, each cell
the row that band selects. `estimated_width_mm` tells whether the grid fits a portrait page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from compiler import model

PER_ROLL_SPAN = 20  # up to 1d20: one line per roll, as printed CRTs do
PAGE_WIDTH_MM = 188.0  # A4 portrait (210 mm) less the aid's 11 mm margins; US Letter is wider
LANDSCAPE_WIDTH_MM = 257.0  # US Letter landscape (279.4 mm) less the same margins; A4 landscape is wider
FLOOR_PT = 8.0  # the smallest type a printed cell may use
_MM_PER_PT = 25.4 / 72
_CHAR_EM = 0.64  # DejaVu Sans digits and capitals average about 0.64 em
_CELL_PADDING_MM = 3.2 + 0.3  # left and right padding plus the rules


@dataclass(frozen=True)
class CrtShape:
    """What makes a chart a CRT: its column key and its result column (typed by `results`)."""

    chart: model.Chart
    key: model.Key
    column: model.Column
    results: model.EnumType


@dataclass(frozen=True)
class Band:
    """A line of the printed grid: the rolls `low`..`high` (None: open-ended) and how it prints."""

    low: int | None
    high: int | None
    label: str

    def sample(self) -> int:
        """A roll inside the band (every roll of a band selects the same rows)."""
        if self.low is not None:
            return self.low
        assert self.high is not None
        return self.high


@dataclass(frozen=True)
class ClassicGrid:
    """The CRT as printed: `cells[i][j]` is the row band i selects in column j (None: no row)."""

    shape: CrtShape
    columns: tuple[str, ...]  # member ids of the column key, in printed order
    bands: tuple[Band, ...]
    cells: tuple[tuple[model.Row | None, ...], ...]

    def code(self, row: model.Row | None) -> str | None:
        """The result code a cell prints (the member id), None for a blank cell."""
        if row is None:
            return None
        value = row.values[self.shape.chart.columns.index(self.shape.column)]
        return None if value is None else str(value)


def crt_shape(chart: model.Chart, enums: Mapping[str, model.EnumType]) -> CrtShape | None:
    """The chart's CRT shape, or None when it is not a CRT (see the module docstring)."""
    if chart.kind is not model.ChartKind.ROLL or chart.dice is None or len(chart.keys) != 1:
        return None
    if len(chart.columns) != 1 or chart.grid is not None or chart.availability is not None:
        return None
    column = chart.columns[0]
    results = enums.get(column.type)
    if results is None or (results.fields and not results.codes) or not (results.codes or results.order):
        return None
    return CrtShape(chart, chart.keys[0], column, results)


def classic_grid(shape: CrtShape) -> ClassicGrid:
    """The CRT's rows laid out as the printed grid (rolls down, columns across)."""
    chart = shape.chart
    columns = tuple(m.id for m in shape.key.enum.members)
    bands = _bands(chart)
    per_column = {c: [r for r in chart.rows_for((c,)) if r.range is not None] for c in columns}
    cells = tuple(
        tuple(next((r for r in per_column[c] if r.range and r.range.contains(band.sample())), None) for c in columns)
        for band in bands
    )
    return ClassicGrid(shape, columns, bands, cells)


def _bands(chart: model.Chart) -> tuple[Band, ...]:
    """The lines of the grid: the rolls between the rows' boundaries, one roll per line when the
    rolls span at most `PER_ROLL_SPAN`, with an open-ended line at either end where a row is."""
    ranges = [r.range for r in chart.rows if r.range is not None]
    cuts = sorted({x.low for x in ranges if x.low is not None} | {x.high + 1 for x in ranges if x.high is not None})
    if not cuts:
        return (Band(None, None, "any"),)
    if cuts[-1] - cuts[0] <= PER_ROLL_SPAN:
        cuts = list(range(cuts[0], cuts[-1] + 1))
    bands: list[Band] = []
    if any(x.low is None for x in ranges):
        bands.append(Band(None, cuts[0] - 1, _or_less(cuts[0] - 1)))
    for low, nxt in pairwise(cuts):
        bands.append(Band(low, nxt - 1, str(low) if low == nxt - 1 else f"{low}\u2013{nxt - 1}"))
    if any(x.high is None for x in ranges):
        bands.append(Band(cuts[-1], None, f"{cuts[-1]}+"))
    return tuple(bands)


def _or_less(n: int) -> str:
    return f"{n}-" if n >= 0 else f"{n} or less"


def estimated_width_mm(grid: ClassicGrid, labels: tuple[str, ...], cell_pt: float) -> float:
    """The printed grid's width at `cell_pt`: the roll column and one column per label, each as
    wide as its longest text. An estimate from average glyph widths, on the wide side."""
    roll = max([len("Roll"), *(len(b.label) for b in grid.bands)])
    widths = [roll]
    for j, label in enumerate(labels):
        codes = [len(grid.code(band[j]) or "\u2013") for band in grid.cells]
        widths.append(max([len(label), *codes]))
    return sum(cell_width_mm(w, cell_pt) for w in widths)


def cell_width_mm(chars: int, cell_pt: float, padding_mm: float = _CELL_PADDING_MM) -> float:
    """The printed width of a table cell holding `chars` characters that do not wrap, at
    `cell_pt`, with its padding and rules (`padding_mm`, left and right together): an estimate
    from average glyph widths, on the wide side."""
    return chars * cell_pt * _CHAR_EM * _MM_PER_PT + padding_mm


def fits_portrait(grid: ClassicGrid, labels: tuple[str, ...], cell_pt: float = FLOOR_PT) -> bool:
    """Whether the grid fits across an A4 and a US Letter portrait page at `cell_pt`."""
    return estimated_width_mm(grid, labels, cell_pt) <= PAGE_WIDTH_MM
