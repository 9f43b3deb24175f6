"""DRM conditions over the game's context variables, and the DRMs and footnotes of a chart."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from compiler.calendar import Month
from compiler.model.values import MemberId
from dsl.ast import Span


class CompareOp(enum.StrEnum):
    """A comparison in a condition; `==` and `!=` apply to every type, the others to ints and months."""

    EQ = "=="
    NE = "!="
    GE = ">="
    LE = "<="
    GT = ">"
    LT = "<"


# What a condition compares a variable with: an int, a month, or an enum member's id.
Operand = int | Month | MemberId


@dataclass(frozen=True)
class Flag:
    var: str
    span: Span


@dataclass(frozen=True)
class Compare:
    var: str
    op: CompareOp
    value: Operand
    span: Span


@dataclass(frozen=True)
class In:
    var: str
    values: tuple[Operand, ...]
    span: Span


@dataclass(frozen=True)
class Not:
    inner: Condition
    span: Span


@dataclass(frozen=True)
class All:
    parts: tuple[Condition, ...]
    span: Span


@dataclass(frozen=True)
class Any_:
    parts: tuple[Condition, ...]
    span: Span


Condition = Flag | Compare | In | Not | All | Any_


@dataclass(frozen=True)
class Drm:
    """A die roll modifier: `value` is added to the natural roll when `when` holds (or always)."""

    id: str
    label: str
    value: int
    when: Condition | None
    footnote: int | None
    span: Span


@dataclass(frozen=True)
class Footnote:
    mark: int
    text: str
    span: Span
