"""A chart's table as printed: the row list, the grid form (results down, key values across), the
classic CRT printed by roll, and availability grids (IA2 R2/R3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.ast.values import KeyValueText, Name, RangeText, ValueText
from dsl.shared import Span


@dataclass(frozen=True)
class RowDecl:
    """`piston 3-6: "Combat"`: key values, the printed range, and one value per column."""

    keys: tuple[KeyValueText, ...]
    range: RangeText | None
    values: tuple[ValueText, ...]
    span: Span
    natural: bool = False  # `natural 1: ...`: read by the natural roll before any DRM


@dataclass(frozen=True)
class CellText:
    """A grid cell: a range or `-` (this result cannot occur in this column)."""

    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class GridRowDecl:
    """One grid row: its result values, then one cell per grid column."""

    values: tuple[ValueText, ...]
    cells: tuple[CellText, ...]
    span: Span


@dataclass(frozen=True)
class GridDecl:
    """The printed grid form: rows are results, columns are values of one key, cells are ranges."""

    key: Name
    columns: tuple[KeyValueText, ...]
    rows: tuple[GridRowDecl, ...]
    span: Span


@dataclass(frozen=True)
class RollLineDecl:
    """A line of a grid printed by roll: the rolls, then one result per grid column."""

    range: RangeText
    values: tuple[ValueText, ...]
    span: Span


@dataclass(frozen=True)
class RollGridDecl:
    """`grid odds ["1:2", "1:1"] by roll { 1-: AE | AR ... }`: the classic CRT as printed, die
    rolls down, values of one key across, a result in each cell."""

    key: Name
    columns: tuple[KeyValueText, ...]
    lines: tuple[RollLineDecl, ...]
    span: Span


class AvailKind(StrEnum):
    """What an availability cell says."""

    AUTO = "auto"
    RANGE = "range"
    NONE = "none"


@dataclass(frozen=True)
class AvailCell:
    """An availability cell: `✓` (automatic), a die range, or `-` (not available)."""

    kind: AvailKind
    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class AvailRowDecl:
    """`bf109g6: ✓ | 1-5 | -`: one row of an availability grid."""

    key: KeyValueText
    cells: tuple[AvailCell, ...]
    span: Span


@dataclass(frozen=True)
class AvailabilityDecl:
    """`availability type by month [1944-03, ...] { bf109g6: ✓ | 1-5 | - }` (IA2 R2/R3)."""

    row_key: Name
    col_key: Name
    columns: tuple[KeyValueText, ...]
    rows: tuple[AvailRowDecl, ...]
    span: Span
