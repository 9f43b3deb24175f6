"""DRM conditions over the game's context variables, and the DRMs and footnotes of a chart."""

from __future__ import annotations

from typing import assert_never

from compiler.model.calendar import Month
from compiler.model.values import MemberId
from dsl.lazy_dataclass import dataclass
from dsl.shared import CompareOp as CompareOp
from dsl.shared import GroupMode as GroupMode
from dsl.shared import Rounding as Rounding
from dsl.shared import Span

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
    on_key: bool = False  # `var` is one of the chart's own keys, not a context variable


@dataclass(frozen=True)
class In:
    var: str
    values: tuple[Operand, ...]
    span: Span
    on_key: bool = False  # `var` is one of the chart's own keys, not a context variable


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


def condition_vars(cond: Condition | None) -> set[str]:
    """The context variables (and chart keys) a condition tests."""
    match cond:
        case None:
            return set()
        case Flag(var) | Compare(var) | In(var):
            return {var}
        case Not(inner):
            return condition_vars(inner)
        case All(parts) | Any_(parts):
            return set().union(*(condition_vars(p) for p in parts))
        case _:
            assert_never(cond)


def key_vars(cond: Condition | None) -> set[str]:
    """The chart keys a condition tests (comparisons marked `on_key`)."""
    match cond:
        case None | Flag():
            return set()
        case Compare(var, on_key=on_key) | In(var, on_key=on_key):
            return {var} if on_key else set()
        case Not(inner):
            return key_vars(inner)
        case All(parts) | Any_(parts):
            return set().union(*(key_vars(p) for p in parts))
        case _:
            assert_never(cond)


@dataclass(frozen=True)
class PerStep:
    """`per N VAR`: the DRM's value applies once per `step` of the int context variable `var`."""

    var: str
    step: int
    rounding: Rounding
    span: Span
    low: int = 0  # the variable's declared range
    high: int = 0

    def counts(self) -> range:
        """Every step count the variable's range holds, lowest to highest."""
        return range(self.count(self.low), self.count(self.high) + 1)

    def count(self, given: int) -> int:
        """How many steps `given` holds (`-1 per 10 kills`: 25 -> 2, or 3 rounded up)."""
        whole, rest = divmod(given, self.step)
        match self.rounding:
            case Rounding.DOWN:
                return whole
            case Rounding.UP:
                return whole + 1 if rest else whole
            case Rounding.NEAREST:
                return whole + 1 if 2 * rest >= self.step else whole
            case _:
                assert_never(self.rounding)


@dataclass(frozen=True)
class Drm:
    """A die roll modifier: `value` is added to the natural roll when `when` holds (or always).

    With `per`, the value applies once per step of an int context variable; with `group`, the DRM
    is a member of one of the chart's exclusive groups (`DrmGroup`)."""

    id: str
    label: str
    value: int
    when: Condition | None
    footnote: int | None
    span: Span
    per: PerStep | None = None
    group: str | None = None

    def contributions(self) -> frozenset[int]:
        """Every amount the DRM can add, 0 (it does not apply) included: `value`, or for a per-N DRM
        `value` times each step count its variable's range holds."""
        if self.per is None:
            return frozenset({0, self.value})
        return frozenset({0} | {self.value * n for n in self.per.counts()})


@dataclass(frozen=True)
class DrmGroup:
    """An exclusive group of a chart's DRMs: `members` are DRM ids in declaration order."""

    id: str
    label: str
    mode: GroupMode
    members: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Footnote:
    mark: int
    text: str
    span: Span
