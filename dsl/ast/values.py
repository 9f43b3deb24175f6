"""What a statement writes: names, strings, ranges, months, cell values, the key values of a row,
chained cells (`-> [B6] (+1)`), DRM conditions and formula expressions, each as written, with its span."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dsl.shared import All, Any_, Binary, CompareOp, IfElse, Neg, Not, Number, Span


@dataclass(frozen=True)
class Written:
    """A word as written, with where it was written: the four kinds below, which the terminals of
    the grammar make and the resolver tells apart, hold nothing else."""

    text: str
    span: Span


class Name(Written):
    """An identifier as written, e.g. `piston`."""


class Text(Written):
    """A double-quoted string literal, already unescaped."""


class RangeText(Written):
    """A printed die or value range: `3-6`, `12+`, `3-`, `01-08`, `9-0` or a single `5`."""


class MonthText(Written):
    """A calendar month as written, `YYYY-MM`."""


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
    CHOICE = "choice"  # `one of [a, b]`: `ValueText.options` holds the outcomes offered


@dataclass(frozen=True)
class ValueText:
    """One cell as written: a string, an integer, an identifier, `-` (no value), a slashed
    group (`6/3`, `2/4/6`, `-/8/9/11`), a month, or a chart reference (`[B6]`)."""

    kind: ValueKind
    text: str
    span: Span
    chain: ChainText | None = None  # the chained result, when `kind` is CHAIN
    options: tuple[ValueText, ...] = ()  # the outcomes offered, when `kind` is CHOICE


class KeyValueKind(StrEnum):
    """The written form of a key value in a row, grid head or availability grid."""

    NAME = "name"
    TEXT = "text"
    ANY = "any"
    MONTHS = "months"
    TURNS = "turns"


@dataclass(frozen=True)
class KeyValueText:
    """A key given in a row: an identifier, a printed label, `*` for every value, or months:
    `1944-07`, `1944-07..1944-09`, `1945-01+`, or turns: `1944-06-07 PM`, `1944-06-07 AM..1944-06-08 PM`,
    `1944-06-09 AM+` (`first`/`last` hold the ends; None = open)."""

    kind: KeyValueKind
    text: str
    span: Span
    first: str | None = None
    last: str | None = None


# ---- chained results -----------------------------------------------------------------------------


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


# ---- conditions ----------------------------------------------------------------------------------


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


# `not`, `and`, `or`: the nodes the model's conditions are joined by too (`dsl.shared`)
CondNot = Not
CondAll = All
CondAny = Any_

Cond = CondFlag | CondCompare | CondIn | Not["Cond"] | All["Cond"] | Any_["Cond"]


# ---- formula expressions -------------------------------------------------------------------------


@dataclass(frozen=True)
class ExprName:
    """A context variable or another formula of the game, by name."""

    name: Name
    span: Span


@dataclass(frozen=True)
class ExprCall:
    """`floor(x)`, `ceil(x)`, `round(x)` (half up), `min(a, b, ...)`, `max(a, b, ...)`."""

    function: Name
    args: tuple[Expr, ...]
    span: Span


# a number, `a + b` (and the other operators), `-a`, `if c then a else b`: the nodes of the
# model's formulas too (`dsl.shared`)
ExprNumber = Number
ExprBinary = Binary
ExprNeg = Neg
ExprIf = IfElse

Expr = Number | ExprName | Binary["Expr"] | Neg["Expr"] | ExprCall | IfElse[Cond, "Expr"]


# ---- domains and preconditions ---------------------------------------------------------------------


@dataclass(frozen=True)
class DomainDecl:
    """`domain 1 to 18`, `domain 0+` or `domain within LIMIT`: the values a computed value may take
    (`high` None: no upper end; `within`: the values a limit of the game allows)."""

    low: int | None
    high: int | None
    within: Name | None
    span: Span


@dataclass(frozen=True)
class RequiresDecl:
    """`requires xp >= promotion_number`: a formula applies only to inputs where this holds."""

    left: Expr
    op: CompareOp
    right: Expr
    span: Span
