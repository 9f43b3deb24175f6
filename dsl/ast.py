"""Syntax tree of one `.chart` file: what was written, with a source span on every node.

The parser (`dsl.parser`) builds these frozen dataclasses from Lark's tree. Nothing here is
resolved: names are plain strings, ranges keep their printed text (`9-0`, `01-08`, `12+`), and
the compiler's resolver (`compiler.resolve`) turns them into the typed chart model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file; lines and columns are 1-based, the end column is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Name:
    """An identifier as written, e.g. `piston`, with where it was written."""

    text: str
    span: Span


@dataclass(frozen=True)
class Text:
    """A double-quoted string literal, already unescaped."""

    text: str
    span: Span


@dataclass(frozen=True)
class RangeText:
    """A printed die or value range: `3-6`, `12+`, `3-`, `01-08`, `9-0` or a single `5`."""

    text: str
    span: Span


@dataclass(frozen=True)
class MonthText:
    """A calendar month as written, `YYYY-MM`."""

    text: str
    span: Span


# ---- game header ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PeriodDecl:
    name: Name
    label: Text
    first: MonthText
    last: MonthText
    span: Span


@dataclass(frozen=True)
class GameDecl:
    name: Name
    title: Text | None
    source: Text | None
    calendar: tuple[MonthText, MonthText] | None
    periods: tuple[PeriodDecl, ...]
    span: Span


@dataclass(frozen=True)
class MemberDecl:
    name: Name
    label: Text | None
    span: Span


@dataclass(frozen=True)
class EnumDecl:
    name: Name
    label: Text | None
    members: tuple[MemberDecl, ...]
    span: Span


@dataclass(frozen=True)
class ContextDecl:
    """`context fb_attack: flag "F/B attack"` — a variable DRM conditions may test."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span


# ---- dice ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceDecl:
    """`roll 2d6`, `roll d66`, `roll percentile`, `roll lower of 2d10`, `roll 1d6 minus 3 min 0`."""

    form: str  # "sum" | "d66" | "percentile" | "lower" | "minus"
    count: int
    sides: int
    subtract: int
    floor: int
    text: str
    span: Span


@dataclass(frozen=True)
class ValueKeyDecl:
    """`value fatigue "Fatigue level" 0+` — the chart is keyed by an integer, not a roll."""

    name: Name
    label: Text | None
    domain: RangeText
    span: Span


# ---- conditions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operand:
    kind: str  # "month" | "int" | "name" | "text"
    text: str
    span: Span


@dataclass(frozen=True)
class CondFlag:
    var: Name
    span: Span


@dataclass(frozen=True)
class CondCompare:
    var: Name
    op: str
    operand: Operand
    span: Span


@dataclass(frozen=True)
class CondIn:
    var: Name
    operands: tuple[Operand, ...]
    span: Span


@dataclass(frozen=True)
class CondNot:
    inner: Cond
    span: Span


@dataclass(frozen=True)
class CondAll:
    parts: tuple[Cond, ...]
    span: Span


@dataclass(frozen=True)
class CondAny:
    parts: tuple[Cond, ...]
    span: Span


Cond = Union[CondFlag, CondCompare, CondIn, CondNot, CondAll, CondAny]


# ---- chart statements --------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyDecl:
    name: Name
    type_name: Name
    span: Span


@dataclass(frozen=True)
class ColumnDecl:
    name: Name
    type_name: Name
    label: Text | None
    span: Span


@dataclass(frozen=True)
class DrmDecl:
    name: Name
    label: Text | None
    value: int
    value_span: Span
    when: Cond | None
    footnote: int | None
    span: Span


@dataclass(frozen=True)
class CombineDecl:
    clamp_min: int | None
    clamp_max: int | None
    span: Span


@dataclass(frozen=True)
class FootnoteDecl:
    mark: int
    text: Text
    span: Span


@dataclass(frozen=True)
class AllowDecl:
    """`allow C305 "reason"` — silence one diagnostic code for findings inside this chart."""

    code: Name
    reason: Text
    span: Span


@dataclass(frozen=True)
class ValueText:
    """One output cell as written: a string, an integer, an identifier or `-` (no value)."""

    kind: str  # "text" | "int" | "name" | "none"
    text: str
    span: Span


@dataclass(frozen=True)
class KeyValueText:
    """A key given in a row: an identifier, a printed label, or `*` for every value."""

    kind: str  # "name" | "text" | "any"
    text: str
    span: Span


@dataclass(frozen=True)
class RowDecl:
    keys: tuple[KeyValueText, ...]
    range: RangeText | None
    values: tuple[ValueText, ...]
    span: Span


@dataclass(frozen=True)
class CellText:
    """A grid cell: a range or `-` (this result cannot occur in this column)."""

    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class GridRowDecl:
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
class ChartDecl:
    kind: str  # "chart" | "drms"
    chart_id: Name | None
    slug: Name | None
    title: Text
    rule: Text | None
    roll: DiceDecl | None
    value_key: ValueKeyDecl | None
    keys: tuple[KeyDecl, ...]
    columns: tuple[ColumnDecl, ...]
    drms: tuple[DrmDecl, ...]
    combine: CombineDecl | None
    footnotes: tuple[FootnoteDecl, ...]
    notes: tuple[Text, ...]
    partial: Text | None
    rows: tuple[RowDecl, ...]
    grids: tuple[GridDecl, ...]
    repeated: tuple[Span, ...]  # statements given twice where only one is allowed
    span: Span
    allows: tuple[AllowDecl, ...] = ()


@dataclass(frozen=True)
class SourceFile:
    """Everything declared in one `.chart` file."""

    path: str
    game: tuple[GameDecl, ...]
    enums: tuple[EnumDecl, ...]
    contexts: tuple[ContextDecl, ...]
    charts: tuple[ChartDecl, ...]
