"""DRM conditions as written: a flag, a comparison, a list, `not`, `and`, `or`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.ast.values import Name
from dsl.shared import CompareOp, Span


class OperandKind(StrEnum):
    """What a condition compares a context variable with."""

    MONTH = "month"
    INT = "int"
    NAME = "name"
    TEXT = "text"


@dataclass(frozen=True)
class Operand:
    """The right-hand side of a condition: `1944-11`, `5`, `-1`, `piston` or `"Piston"`."""

    kind: OperandKind
    text: str
    span: Span


@dataclass(frozen=True)
class CondFlag:
    """`fb`: a flag context variable is set."""

    var: Name
    span: Span


@dataclass(frozen=True)
class CondCompare:
    """`fatigue >= 5`, `month == 1944-12`: a context variable compared with an operand."""

    var: Name
    op: CompareOp
    operand: Operand
    span: Span


@dataclass(frozen=True)
class CondIn:
    """`month in [1944-11, 1945-01]`: a context variable equals one of the operands."""

    var: Name
    operands: tuple[Operand, ...]
    span: Span


@dataclass(frozen=True)
class CondNot:
    """`not COND`."""

    inner: Cond
    span: Span


@dataclass(frozen=True)
class CondAll:
    """`A and B and ...`."""

    parts: tuple[Cond, ...]
    span: Span


@dataclass(frozen=True)
class CondAny:
    """`A or B or ...`."""

    parts: tuple[Cond, ...]
    span: Span


Cond = CondFlag | CondCompare | CondIn | CondNot | CondAll | CondAny
