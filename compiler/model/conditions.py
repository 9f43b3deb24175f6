"""DRM conditions over the game's context variables, and the DRMs and footnotes of a chart."""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from compiler.model.calendar import Month
from compiler.model.values import MemberId
from dsl.lazy_dataclass import dataclass
from dsl.shared import All as All
from dsl.shared import Any_ as Any_
from dsl.shared import CompareOp as CompareOp
from dsl.shared import GroupMode as GroupMode
from dsl.shared import Not as Not
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


# joined by `not`, `and`, `or`: the nodes the syntax tree's conditions use too (`dsl.shared`)
Condition = Flag | Compare | In | Not["Condition"] | All["Condition"] | Any_["Condition"]


def tests(cond: Condition | None) -> Iterator[Flag | Compare | In]:
    """The tests a condition joins (its flags, comparisons and lists), in the order written."""
    match cond:
        case None:
            return
        case Flag() | Compare() | In():
            yield cond
        case Not(inner):
            yield from tests(inner)
        case All(parts) | Any_(parts):
            for part in parts:
                yield from tests(part)
        case _:
            assert_never(cond)


def condition_vars(cond: Condition | None) -> set[str]:
    """The context variables (and chart keys) a condition tests."""
    return {test.var for test in tests(cond)}


def condition_variables(cond: Condition | None) -> tuple[str, ...]:
    """The context variables (and chart keys) a condition tests, in reading order, repeats kept."""
    return tuple(test.var for test in tests(cond))


def key_vars(cond: Condition | None) -> set[str]:
    """The chart keys a condition tests (comparisons marked `on_key`)."""
    return {test.var for test in tests(cond) if not isinstance(test, Flag) and test.on_key}


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
    errata: tuple[str, ...] = ()  # ids of the errata that added or changed this DRM
    printed: Drm | None = None  # the DRM as printed, when an errata changed it (None: as printed, or added)
    added: bool = False  # the print lacks this DRM; an errata added it
    because: tuple[str, ...] = ()  # why the errata changed it, as they say it

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
