"""The errata blocks of the syntax tree: an errata document and the amendments it makes to charts,
DRMs, records and notes (`errata ... { amend [R4] { ... } }`)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.charts import DrmDecl, RowDecl
from dsl.ast.declarations import PeriodDecl
from dsl.ast.values import (
    Cond,
    DomainDecl,
    Expr,
    KeyValueText,
    MonthText,
    Name,
    RangeText,
    RequiresDecl,
    Text,
    ValueText,
)
from dsl.shared import Span

# ---- errata --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowRef:
    """The row an amendment names: its key values and printed range, as written (the
    amendment's span locates it; both parts may be omitted)."""

    keys: tuple[KeyValueText, ...]
    range: RangeText | None


@dataclass(frozen=True)
class AddRow:
    """`add ROW [because "..."]`."""

    row: RowDecl
    because: Text | None
    span: Span


@dataclass(frozen=True)
class RemoveRow:
    """`remove ROW-REF [because "..."]`."""

    ref: RowRef
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeCell:
    """`change ROW-REF column NAME to VALUE [because "..."]`; in a grid by roll, the row is the
    line's printed roll and the column a grid column's key value (`change 3-4 column "2:1" to DR`)."""

    ref: RowRef
    column: Name
    value: ValueText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class MoveRow:
    """`move ROW-REF to RANGE [because "..."]`: give a row another printed range; with `column
    NAME`, the cell of a grid (results down, key values across: `move DE column "3:1" to 5-6`)."""

    ref: RowRef
    new_range: RangeText
    because: Text | None
    span: Span
    column: Name | None = None


@dataclass(frozen=True)
class Retitle:
    """`retitle "TITLE" [because "..."]`."""

    title: Text
    because: Text | None
    span: Span


@dataclass(frozen=True)
class Complete:
    """`complete [because "..."]`: the errata supplies what the chart's `partial` said was missing."""

    because: Text | None
    span: Span


@dataclass(frozen=True)
class AddNote:
    """`note "..."`: a note the errata adds to the chart."""

    text: Text
    span: Span


@dataclass(frozen=True)
class AddDrm:
    """`add drm NAME "Label" +1 when ... [because "..."]`: a DRM the print lacks."""

    drm: DrmDecl
    because: Text | None
    span: Span


@dataclass(frozen=True)
class RemoveDrm:
    """`remove drm NAME [because "..."]`."""

    name: Name
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeDrm:
    """`change drm NAME to +2` (its value) or `change drm NAME when COND` (its condition)."""

    name: Name
    value: int | None
    when: Cond | None
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeField:
    """`change record bf109g6 field ammo to 6 [because "..."]`: a record field of an enum's member
    (the `amend` names the enum)."""

    member: Name
    field: Name
    value: ValueText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeNote:
    """`change footnote 1 to "..."` (a numbered footnote) or `change note 2 to "..."` (the chart's
    second `note`): the text as corrected."""

    footnote: bool
    number: int
    text: Text
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeResult:
    """`change result to EXPR [because "..."]`: a formula's result as corrected (the `amend` names
    the formula), its constants included (`floor(sorties_flown / 3)` printed, `/ 4` meant)."""

    expr: Expr
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeRequires:
    """`change requires EXPR CMP EXPR` (the inputs a formula's rule applies to, as corrected, or
    added where the print states none) or `remove requires` (`requires` None)."""

    requires: RequiresDecl | None
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeDomain:
    """`change domain LOW to HIGH` (or `LOW+`, `within LIMIT`): the values a formula's result takes,
    as corrected, or added where the print states none; `remove domain` (`domain` None)."""

    domain: DomainDecl | None
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangeCalendar:
    """`change calendar FIRST to LAST` (the `amend` names the game): the game's months as corrected."""

    first: MonthText
    last: MonthText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class ChangePeriod:
    """`change period ID "label" FIRST to LAST` (a period's label and months as corrected) or, with
    `added`, `add period ...` (a period the print lacks); the `amend` names the game."""

    period: PeriodDecl
    added: bool
    because: Text | None
    span: Span


@dataclass(frozen=True)
class RemovePeriod:
    """`remove period ID [because "..."]`."""

    name: Name
    because: Text | None
    span: Span


AmendOp = (
    AddRow | RemoveRow | ChangeCell | MoveRow | Retitle | Complete | AddNote | AddDrm | RemoveDrm | ChangeDrm
    | ChangeField | ChangeNote | ChangeResult | ChangeRequires | ChangeDomain | ChangeCalendar | ChangePeriod
    | RemovePeriod
)
"""One amendment of a chart, an enum's records, a formula or the game header's calendar and periods;
a row is named by its keys and printed range, a DRM by its name."""


@dataclass(frozen=True)
class AmendDecl:
    """`amend R4 { ... }`: the amendments an errata makes to one chart."""

    chart: Name
    ops: tuple[AmendOp, ...]
    span: Span


@dataclass(frozen=True)
class ErrataDecl:
    """An errata document: its title, where it was published, the edition it corrects, when
    (`date "2021-03-15"`, checked by the resolver), the order it applies in, which earlier errata
    it overrides, and its amendments."""

    name: Name
    title: Text
    source: Text | None
    edition: Text | None
    date: Text | None
    order: int | None
    overrides: tuple[Name, ...]
    notes: tuple[Text, ...]
    amends: tuple[AmendDecl, ...]
    span: Span
