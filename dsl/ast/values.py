"""What a file writes where a value is read: names, strings, ranges, months, cells, the key values
of a row, and chained cells (`-> [B6] (+1)`), each as written, with its span."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.shared import Span


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


class ValueKind(StrEnum):
    """The written form of a cell; the column's type decides what it means."""

    TEXT = "text"
    INT = "int"
    NAME = "name"
    NONE = "none"
    SLASHED = "slashed"
    MONTH = "month"
    CHART = "chart"
    CHAIN = "chain"  # `-> [B6] (+1)`, `-> again`, `-> 1d6 { ... }`: `ValueText.chain` holds it


@dataclass(frozen=True)
class ValueText:
    """One cell as written: a string, an integer, an identifier, `-` (no value), a slashed
    group (`6/3`, `2/4/6`, `-/8/9/11`), a month, or a chart reference (`[B6]`)."""

    kind: ValueKind
    text: str
    span: Span
    chain: ChainText | None = None  # the chained result, when `kind` is CHAIN


class KeyValueKind(StrEnum):
    """The written form of a key value in a row, grid head or availability grid."""

    NAME = "name"
    TEXT = "text"
    ANY = "any"
    MONTHS = "months"


@dataclass(frozen=True)
class KeyValueText:
    """A key given in a row: an identifier, a printed label, `*` for every value, or months:
    `1944-07`, `1944-07..1944-09`, `1945-01+` (`first`/`last` hold the ends; None = open)."""

    kind: KeyValueKind
    text: str
    span: Span
    first: str | None = None
    last: str | None = None


class ChainKind(StrEnum):
    """Where a chained cell sends the reader: another chart, this chart again, or a roll in the cell."""

    CHART = "chart"  # `-> [B6] (interceptor=jet, +1)`
    AGAIN = "again"  # `-> again (+1)`
    ROLL = "roll"  # `-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`


@dataclass(frozen=True)
class ChainKeyText:
    """`interceptor=jet` in a chain's arguments: a key of the target chart and its value as written."""

    key: Name
    value: str
    span: Span


@dataclass(frozen=True)
class SubOutcomeText:
    """`1-4: fw190a6` inside a cell's own roll: the range and the value it gives."""

    range: RangeText
    value: ValueText
    span: Span


@dataclass(frozen=True)
class ChainText:
    """A chained cell as written: the target chart (CHART), the keys and DRM carried over (CHART,
    AGAIN; `drm` None when not written), or the dice and outcomes of a roll in the cell (ROLL)."""

    kind: ChainKind
    span: Span
    target: Name | None = None
    keys: tuple[ChainKeyText, ...] = ()
    drm: int | None = None
    dice: str | None = None  # `1d6`
    outcomes: tuple[SubOutcomeText, ...] = ()
