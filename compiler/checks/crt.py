"""Design checks of a combat results table (CRT) whose results are ranked (`order` on the enum):
dominance across columns (C430), results moving one way down each column (C431), and whether the
classic printed grid fits a portrait page at the 8 pt floor (C433); per game, result codes that no
cell of any chart gives (C434).

Every modified roll the chart's DRMs can reach is checked, so a cell that only a DRM selects is
compared too; a finding points at both cells (the rows that print them).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.engine.chances import reachable_rolls
from compiler.model.crt import CrtShape, classic_grid, crt_shape, estimated_width_mm, fits_portrait
from compiler.model.text import key_label
from dsl.shared import Side


@dataclass(frozen=True)
class _Cell:
    """The row one column selects at one modified roll, and its result's rank (0 = worst)."""

    column: str
    roll: int
    row: model.Row
    result: str
    rank: int


def check_result_codes(game: model.Game, sink: Sink) -> None:
    """C434: a member of a result-code enum (`codes`) that the charts with a column of it never give;
    the player aid's key would explain a code the tables never print."""
    used: set[tuple[str, str]] = set()
    read: set[str] = set()  # the enums some chart's column holds (a legend alone is not checked)
    for chart in game.charts:
        enums = [(i, c.type) for i, c in enumerate(chart.columns) if isinstance(c.type, str) and c.type in game.enums]
        read.update(enum_id for _, enum_id in enums)
        for row in chart.rows:
            for i, enum_id in enums:
                value = row.values[i] if i < len(row.values) else None
                if isinstance(value, model.MemberId):
                    used.add((enum_id, str(value)))
    for enum in game.enums.values():
        if not enum.codes or enum.id not in read:
            continue
        for member in enum.members:
            if (enum.id, member.id) not in used:
                sink.emit(
                    codes.RESULT_CODE_UNUSED,
                    f"result code `{member.id}` ({member.label}) of `{enum.id}` is given by no cell of any chart",
                    member.span,
                    f"check the CRT's cells against the print for `{member.id}`; if no table of the game prints it, "
                    "delete the code from the enum",
                )


def check_crt(game: model.Game, chart: model.Chart, sink: Sink) -> None:
    """C430, C431 and C433 on one chart, when it is a CRT (`compiler.model.crt.crt_shape`)."""
    shape = crt_shape(chart, game.enums)
    if shape is None or chart.broken:
        return
    _check_print_width(shape, sink)
    if not shape.results.order:
        return
    cells = _ranked_cells(shape)
    _check_dominance(shape, cells, sink)
    _check_monotonic(shape, cells, sink)


def _ranked_cells(shape: CrtShape) -> dict[str, list[_Cell]]:
    """Per column (in printed order), the ranked result of every reachable modified roll that
    selects a row with a value, ascending by roll."""
    chart = shape.chart
    index = chart.columns.index(shape.column)
    rolls = reachable_rolls(chart)
    out: dict[str, list[_Cell]] = {}
    for member in shape.key.enum.members:
        rows = [r for r in chart.rows_for((member.id,)) if r.range is not None]
        cells = out.setdefault(member.id, [])
        for roll in rolls:
            row = next((r for r in rows if r.range and r.range.contains(roll)), None)
            value = None if row is None else row.values[index]
            rank = None if value is None else shape.results.rank(str(value))
            if row is not None and rank is not None:
                cells.append(_Cell(member.id, roll, row, str(value), rank))
    return out


def _label(shape: CrtShape, column: str) -> str:
    return key_label(shape.key, column)


def _check_dominance(shape: CrtShape, cells: dict[str, list[_Cell]], sink: Sink) -> None:
    """C430: at some modified roll a column gives a worse result than the column to its left."""
    reported: set[tuple[int, int]] = set()
    for left, right in _neighbours(shape, cells):
        pair = (id(left.row), id(right.row))
        if right.rank >= left.rank or pair in reported:
            continue
        reported.add(pair)
        sink.emit(
            codes.CRT_DOMINANCE,
            f"at roll {right.roll} column `{_label(shape, right.column)}` gives `{right.result}`, worse for the "
            f"attacker than `{left.result}` in the lower column `{_label(shape, left.column)}` of chart "
            f"`{shape.chart.address}`",
            right.row.span,
            f"higher odds should never hurt the attacker: check both cells against the print "
            f"(result order: {' < '.join(shape.results.order)})",
            (Label(left.row.span, f"`{left.result}` in column `{_label(shape, left.column)}`"),),
        )


def _neighbours(shape: CrtShape, cells: dict[str, list[_Cell]]) -> Iterator[tuple[_Cell, _Cell]]:
    """For every roll, each column's cell paired with the nearest column to its left that has one."""
    by_roll: dict[int, list[_Cell]] = {}
    for member in shape.key.enum.members:
        for cell in cells[member.id]:
            by_roll.setdefault(cell.roll, []).append(cell)
    for roll in sorted(by_roll):
        row = by_roll[roll]
        yield from pairwise(row)


def _check_monotonic(shape: CrtShape, cells: dict[str, list[_Cell]], sink: Sink) -> None:
    """C431: down a column, a step against the way the CRT's results move as the roll rises.

    The way is the chart's `high_rolls favour attacker|defender`, else the one most steps of all
    columns take (higher rolls better for the attacker on a tie): a DRM in that direction favours
    the attacker, so no such step may make a result worse.
    """
    steps = [(a, b) for column in cells.values() for a, b in pairwise(column) if a.row is not b.row]
    declared = shape.chart.high_rolls_favour
    if declared is None:
        ups = sum(1 for a, b in steps if b.rank > a.rank)
        downs = sum(1 for a, b in steps if b.rank < a.rank)
        rising = ups >= downs
    else:
        rising = declared is Side.ATTACKER
    favoured = "higher" if rising else "lower"
    where = "as the chart declares" if declared else "elsewhere on this CRT"
    reported: set[tuple[int, int]] = set()
    for a, b in steps:
        against = b.rank < a.rank if rising else b.rank > a.rank
        if not against or (id(a.row), id(b.row)) in reported:
            continue
        reported.add((id(a.row), id(b.row)))
        worse, better = (b, a) if rising else (a, b)
        sink.emit(
            codes.CRT_MONOTONIC,
            f"in column `{_label(shape, b.column)}` of chart `{shape.chart.address}` roll {worse.roll} gives "
            f"`{worse.result}`, worse for the attacker than `{better.result}` at roll {better.roll}, although "
            f"{favoured} rolls favour the attacker {where}",
            b.row.span,
            f"a DRM that favours the attacker (a {'+' if rising else '-'} DRM here) must never make a result "
            "worse: check both cells against the print",
            (Label(a.row.span, f"`{a.result}` at roll {a.roll}"),),
        )


def _check_print_width(shape: CrtShape, sink: Sink) -> None:
    """C433: the classic grid does not fit across a portrait page even at the 8 pt floor."""
    grid = classic_grid(shape)
    labels = tuple(_label(shape, c) for c in grid.columns)
    if fits_portrait(grid, labels):
        return
    width = estimated_width_mm(grid, labels, 8.0)
    sink.emit(
        codes.CRT_TOO_WIDE,
        f"chart `{shape.chart.address}` has {len(labels)} columns: about {width:.0f} mm wide at 8 pt, more than "
        "the 188 mm across an A4 or US Letter portrait page",
        shape.chart.title_span or shape.chart.span,
        "split it into two charts (low and high odds) or shorten the column labels: printed, it would run past "
        "the page's edge",
    )
