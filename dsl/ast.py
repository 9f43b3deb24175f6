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
    """`period late_1944 "1944 late" 1944-07 to 1944-12`; years `1936 to 1941` read as
    1936-01 to 1941-12; `1946+` (or `1946-01+`) is open-ended (`last` is None)."""

    name: Name
    label: Text
    first: MonthText
    last: MonthText | None
    span: Span


@dataclass(frozen=True)
class GameDecl:
    name: Name
    title: Text | None
    source: Text | None
    calendar: tuple[MonthText, MonthText] | None
    periods: tuple[PeriodDecl, ...]
    span: Span
    repeated: tuple[Span, ...] = ()  # a title, source or calendar given twice


@dataclass(frozen=True)
class FieldDecl:
    """`fields { family: aircraft_family "Family" }` — a typed field of an enum's records."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span


@dataclass(frozen=True)
class FieldValue:
    name: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class MemberDecl:
    """An enum value; with fields it is a reference-data record (`bf109g6 "Bf 109G-6" { ... }`)."""

    name: Name
    label: Text | None
    fields: tuple[FieldValue, ...]
    aliases: tuple[Text, ...]
    span: Span


@dataclass(frozen=True)
class EnumDecl:
    name: Name
    label: Text | None
    field_decls: tuple[FieldDecl, ...]
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
    """One cell as written: a string, an integer, an identifier, `-` (no value), a slashed
    group (`6/3`, `2/4/6`, `-/8/9/11`), a month, or a chart reference (`[B6]`)."""

    kind: str  # "text" | "int" | "name" | "none" | "slashed" | "month" | "chart"
    text: str
    span: Span


@dataclass(frozen=True)
class KeyValueText:
    """A key given in a row: an identifier, a printed label, `*` for every value, or months:
    `1944-07`, `1944-07..1944-09`, `1945-01+` (`first`/`last` hold the ends; None = open)."""

    kind: str  # "name" | "text" | "any" | "months"
    text: str
    span: Span
    first: str | None = None
    last: str | None = None


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
class AvailCell:
    """An availability cell: `✓` (automatic), a die range, or `-` (not available)."""

    kind: str  # "auto" | "range" | "none"
    range: RangeText | None
    span: Span


@dataclass(frozen=True)
class AvailRowDecl:
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


@dataclass(frozen=True)
class ChartDecl:
    kind: str  # "chart" | "drms" | "external" (printed elsewhere, named so references resolve)
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
    modified: Text | None
    derive: DeriveDecl | None
    rows: tuple[RowDecl, ...]
    grids: tuple[GridDecl, ...]
    availability: tuple[AvailabilityDecl, ...]
    repeated: tuple[Span, ...]  # statements given twice where only one is allowed
    span: Span
    allows: tuple[AllowDecl, ...] = ()


@dataclass(frozen=True)
class OddsDecl:
    """`odds crt_odds "Odds" { columns ["1:2", "1:1", "2:1"] attacker_high round down ... }`."""

    chart_id: Name | None
    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    columns: tuple[Text, ...]
    attacker_round: str | None  # "down" | "up" | "nearest"
    defender_round: str | None
    beyond: str | None  # "clamp" | "error"
    shift_order: str | None  # "before" | "after" (relative to clamping at the table edge)
    repeated: tuple[Span, ...]
    span: Span


@dataclass(frozen=True)
class DeriveDecl:
    """`derive from aamg_damage bands +5`: a variant of another chart with every inner band
    boundary moved (aa_rules IL-2: "+5% on the AAMG table's bands")."""

    base: Name
    band_shift: int
    span: Span


@dataclass(frozen=True)
class InvariantDecl:
    """A rule the data must obey, checked on every build.

    kind `count`: `count ENUM [where FIELD == VALUE] is N` (a count the rules state).
    kind `column_sum`: `sum CHART part P per column reaches ENUM.FIELD` — for every column of
    CHART, the P-th part of its cells summed over all rows reaches the FIELD of the ENUM member
    named like the column (USAAF: each target system can reach its Points Needed).
    """

    kind: str
    name: Name
    text: Text
    args: tuple[Name, ...]
    value: ValueText | None
    number: int
    span: Span


@dataclass(frozen=True)
class AmendOp:
    """One amendment: `add` a row, `remove` a row, `change` a cell, `move` a row's range,
    `retitle` the chart, or add a `note`. A row is named by its keys and printed range."""

    kind: str  # "add" | "remove" | "change" | "move" | "retitle" | "note" | "complete"
    row: RowDecl | None  # for add
    ref_keys: tuple[KeyValueText, ...]
    ref_range: RangeText | None
    column: Name | None
    value: ValueText | None
    new_range: RangeText | None
    text: Text | None
    because: Text | None
    span: Span


@dataclass(frozen=True)
class AmendDecl:
    chart: Name
    ops: tuple[AmendOp, ...]
    span: Span


@dataclass(frozen=True)
class ErrataDecl:
    """An errata document: its title, where it was published, when, the order it applies in,
    which earlier errata it overrides, and its amendments."""

    name: Name
    title: Text
    source: Text | None
    date: Text | None
    order: int | None
    overrides: tuple[Name, ...]
    notes: tuple[Text, ...]
    amends: tuple[AmendDecl, ...]
    span: Span


@dataclass(frozen=True)
class SourceFile:
    """Everything declared in one `.chart` file."""

    path: str
    game: tuple[GameDecl, ...]
    enums: tuple[EnumDecl, ...]
    contexts: tuple[ContextDecl, ...]
    charts: tuple[ChartDecl, ...]
    odds: tuple[OddsDecl, ...] = ()
    invariants: tuple[InvariantDecl, ...] = ()
    errata: tuple[ErrataDecl, ...] = ()
