"""Declared types of a game: enums and their records, periods, context variables, column types."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import field
from functools import cached_property

from compiler.model.calendar import Month
from compiler.model.values import Value
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


class BuiltinType(enum.StrEnum):
    """A type the language defines: what a column, record field or context variable holds."""

    TEXT = "text"
    INT = "int"
    MONTH = "month"
    FLAG = "flag"
    PAIR = "pair"
    TRIPLE = "triple"
    THRESHOLDS = "thresholds"
    CHARTREF = "chartref"


class EnumRef(str):
    """A column or field typed by a user enum: the enum's id (never a builtin type's name)."""

    __slots__ = ()


# What a column or record field holds: a builtin type, or the members of an enum.
ColumnType = BuiltinType | EnumRef

COLUMN_TYPES = tuple(t for t in BuiltinType if t is not BuiltinType.FLAG)
FIELD_TYPES = tuple(BuiltinType)
# How many parts a slashed value of each type has (thresholds: any number).
SLASHED_PARTS = {BuiltinType.PAIR: 2, BuiltinType.TRIPLE: 3}


class ContextType(enum.StrEnum):
    """What a context variable (a DRM condition's subject) holds."""

    FLAG = "flag"
    INT = "int"
    MONTH = "month"
    ENUM = "enum"


@dataclass(frozen=True)
class Field:
    """A typed field of reference-data records: a builtin type or an enum's members."""

    id: str
    type: ColumnType
    label: str
    span: Span
    domain: tuple[int | None, int | None] | None = None  # an int field's declared values (`0-99`; None: open)
    domain_span: Span | None = None


@dataclass(frozen=True)
class Member:
    """An enum value; `record` holds its record fields (reference data) by field id, `aliases`
    its printed variants."""

    id: str
    label: str
    span: Span
    record: Mapping[str, Value] = field(default_factory=dict, hash=False)
    aliases: tuple[str, ...] = ()
    unwritten: tuple[str, ...] = ()  # the fields its braces do not write at all (`-` is written: no value)
    errata: tuple[str, ...] = ()  # ids of the errata that changed a field of this record
    printed: Mapping[str, str] = field(default_factory=dict, hash=False)  # field id -> its value as printed
    because: tuple[str, ...] = ()  # why the errata changed it, as they say it

    def get(self, field_id: str) -> Value:
        """The record's value of a field, None when it has none."""
        return self.record.get(field_id)


@dataclass(frozen=True)
class EnumType:
    """A closed set of values (`interceptor`: piston, jet). With `fields` its members are records
    (aircraft types with a family and an availability month). A game's periods form the enum
    `period`; a `key month` uses the synthetic enum `month` whose members are the calendar's months."""

    id: str
    label: str
    members: tuple[Member, ...]
    span: Span
    fields: tuple[Field, ...] = ()
    synthetic: bool = False
    codes: bool = False  # a CRT's result codes: the id is printed in the cell, the label in the key
    order: tuple[str, ...] = ()  # member ids from the attacker's point of view, worst first
    order_span: Span | None = None
    rule: str | None = None  # where the book prints the records (`rule "9.1"` in the enum)

    def rank(self, member_id: str) -> int | None:
        """The member's place in the declared result order (0 is the attacker's worst), None
        without an order."""
        return self.order.index(member_id) if member_id in self.order else None

    def member(self, id_or_label: str) -> Member | None:
        """The member named by its identifier, printed label or alias (case-insensitive)."""
        by_id, by_name = self._names
        return by_id.get(id_or_label) or by_name.get(id_or_label.casefold())

    @cached_property
    def spellings(self) -> tuple[str, ...]:
        """Every way a member may be written: ids, labels and aliases."""
        return tuple(m.id for m in self.members) + tuple(a for m in self.members for a in (m.label, *m.aliases))

    @cached_property
    def _names(self) -> tuple[dict[str, Member], dict[str, Member]]:
        """Members by id, and by case-folded label, id or alias (labels and ids before aliases,
        the first member winning, as a scan in that order would)."""
        by_id: dict[str, Member] = {}
        by_name: dict[str, Member] = {}
        for m in self.members:
            by_id.setdefault(m.id, m)
        for m in self.members:
            by_name.setdefault(m.label.casefold(), m)
            by_name.setdefault(m.id.casefold(), m)
        for m in self.members:
            for a in m.aliases:
                by_name.setdefault(a.casefold(), m)
        return by_id, by_name


class HeaderPart(enum.StrEnum):
    """What of a game header an errata may correct."""

    CALENDAR = "calendar"
    PERIOD = "period"


@dataclass(frozen=True)
class HeaderErrata:
    """An errata's correction of the game header: its calendar, or one period changed, added or
    removed; each side as the player reads it (`1944-07 to 1944-12`, a period `"1944 late" 1944-07
    to 1944-12`), None where there is none (`printed` None: added; `corrected` None: removed)."""

    part: HeaderPart
    id: str | None  # the period's id (None: the calendar)
    printed: str | None
    corrected: str | None
    errata: tuple[str, ...]
    because: tuple[str, ...]


@dataclass(frozen=True)
class Period:
    """A named stretch of the calendar, both ends inclusive. An open-ended period (`1946+`) has
    `open_end` set and `last` at the calendar's end (or 9999-12)."""

    id: str
    label: str
    first: Month
    last: Month
    span: Span
    open_end: bool = False


@dataclass(frozen=True)
class ContextVar:
    """A variable DRM conditions may test: a flag, an int, a month, or an enum's member
    (`enum` names the enum)."""

    id: str
    type: ContextType
    enum: str | None
    label: str
    span: Span
    # The values the variable can take, for deciding which DRM totals can happen: an int's declared
    # range (`0-300`; None when undeclared), a month's calendar, an enum's member ids.
    low: int | Month | None = None
    high: int | Month | None = None
    members: tuple[str, ...] = ()
    within: str | None = None  # `within LIMIT`: the declared range is checked against that limit (C491)
    within_span: Span | None = None
