"""The game header (title, source, calendar, periods), enums and their records, context variables."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.values import MonthText, Name, RangeText, Text, ValueText
from dsl.shared import Span


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
    """`game ia2 { title ... source ... calendar ... period ... }`: the game header."""

    name: Name
    title: Text | None
    source: Text | None
    calendar: tuple[MonthText, MonthText] | None
    periods: tuple[PeriodDecl, ...]
    span: Span
    repeated: tuple[Span, ...] = ()  # a title, source or calendar given twice
    aid_chance: bool | None = None  # `aid chance on|off`: the player aid's chance column, for every chart


@dataclass(frozen=True)
class FieldDecl:
    """`fields { family: aircraft_family "Family" }` — a typed field of an enum's records."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span


@dataclass(frozen=True)
class FieldValue:
    """`family: bf109` inside a record: one field of an enum member."""

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
class ResultOrder:
    """`order AE < AR < EX < DR < DE`: an enum's results from the attacker's point of view, worst
    first. `ops` holds each comparison operator as written (only `<` is valid; the resolver says so)."""

    names: tuple[Name, ...]
    ops: tuple[Text, ...]
    span: Span


@dataclass(frozen=True)
class EnumDecl:
    """`enum interceptor "Interceptor" { piston "Piston-engined" jet "Jet or Rocket" }`.

    `codes` marks a CRT's result codes (`enum crt_result "Combat result" { codes  DR "Defender
    retreats" }`): each member's id is printed in the cells, its label in the key of codes.
    """

    name: Name
    label: Text | None
    field_decls: tuple[FieldDecl, ...]
    members: tuple[MemberDecl, ...]
    span: Span
    codes: Span | None = None
    order: ResultOrder | None = None


@dataclass(frozen=True)
class ContextDecl:
    """`context fb_attack: flag "F/B attack"` — a variable DRM conditions may test."""

    name: Name
    type_name: Name
    label: Text | None
    span: Span
    domain: RangeText | None = None  # an int's declared values (`0-300`), for reachability
