"""Errata documents and the amendments they make to a chart."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.layouts import RowDecl
from dsl.ast.values import KeyValueText, Name, RangeText, Text, ValueText
from dsl.shared import Span


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
    """`change ROW-REF column NAME to VALUE [because "..."]`."""

    ref: RowRef
    column: Name
    value: ValueText
    because: Text | None
    span: Span


@dataclass(frozen=True)
class MoveRow:
    """`move ROW-REF to RANGE [because "..."]`: give a row another printed range."""

    ref: RowRef
    new_range: RangeText
    because: Text | None
    span: Span


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


AmendOp = AddRow | RemoveRow | ChangeCell | MoveRow | Retitle | Complete | AddNote
"""One amendment of a chart; a row is named by its keys and printed range."""


@dataclass(frozen=True)
class AmendDecl:
    """`amend R4 { ... }`: the amendments an errata makes to one chart."""

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
