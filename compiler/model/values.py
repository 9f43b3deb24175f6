"""Cell values and ranges of the resolved model: what a row's cells, keys and ranges hold.

A `Value` tells its kinds apart by type: `Text` (printed text), `MemberId` (an enum member's id),
`Month`, `int`, `bool` (a flag), `Slashed` (`6/3`, `-/8/9/11`), `ChartRef` (`[B6]`) and None (`-`).
`Text`, `MemberId` and `Month` are `str`s and `Slashed` a `tuple`, so an output prints them as
the chart does.
"""

from __future__ import annotations

from dataclasses import field

from compiler.model.calendar import Month
from compiler.model.dice import Dice
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


class Text(str):
    """Printed text of a `text` cell or field."""

    __slots__ = ()


class MemberId(str):
    """The id of an enum member (a cell of an enum column, a record field naming a record)."""

    __slots__ = ()


class Slashed(tuple[int | None, ...]):
    """A slashed group of numbers: a pair `6/3`, a triple `2/4/6`, thresholds `-/8/9/11` (None = `-`)."""

    __slots__ = ()


@dataclass(frozen=True)
class ChainKey:
    """`interceptor=jet` in a chained cell: a key of the target chart and its value as written
    (an id or a printed label; bound to the key's enum by the chain checks)."""

    key: str
    value: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ChartRef:
    """A cell that sends the player to another chart ("roll on [B6]"); resolved by the checker.

    A chained result (`-> [B6] (interceptor=jet, +1)`) also names the target's keys it gives and the
    DRM it carries (`drm` None: none written). A plain `[B6]` cell is the same reference without
    them; following it rolls on B6.
    """

    address: str
    keys: tuple[ChainKey, ...] = ()
    drm: int | None = None
    span: Span | None = field(default=None, compare=False)
    chained: bool = False  # written `-> [B6]` (printed "roll on B6"), not a plain `[B6]` cell


@dataclass(frozen=True)
class RollAgain:
    """`-> again (+1)`: roll again on this chart, with the same keys and the DRM carried."""

    drm: int | None = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, eq=False)
class SubOutcome:
    """One outcome of a roll inside a cell: the range of that roll and the value it gives. Two
    outcomes are equal when they read the same (the range's place in the file aside), so a diff
    of two chart trees sees an unchanged cell as unchanged."""

    range: DieRange
    value: Value

    def _reading(self) -> tuple[int | None, int | None, str, Value]:
        return (self.range.low, self.range.high, self.range.printed, self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubOutcome) and self._reading() == other._reading()

    def __hash__(self) -> int:
        return hash(self._reading())


@dataclass(frozen=True)
class SubRoll:
    """`-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`: a roll inside a cell (IA2 R1's aircraft), with its
    own dice; its outcomes tile the dice (checked, C454)."""

    dice: Dice
    outcomes: tuple[SubOutcome, ...]
    span: Span | None = field(default=None, compare=False)


# A chained result: a cell that sends the reader on (to a chart, to this chart again, to a roll).
Chain = ChartRef | RollAgain | SubRoll


@dataclass(frozen=True)
class Choice:
    """`one of [i_jg2, ii_jg2, iii_jg2]`: a result that offers outcomes for the player to choose
    from (not a roll: nothing random picks one). Each option is a plain value of the cell's column."""

    options: tuple[Value, ...]
    span: Span | None = field(default=None, compare=False)


Value = Text | MemberId | Month | int | bool | Slashed | ChartRef | RollAgain | SubRoll | Choice | None


@dataclass(frozen=True)
class DieRange:
    """An inclusive range of rolls or values; `None` at an end means open-ended (`12+`, `3-`).

    `printed` keeps the text as the chart prints it (`9-0`, `01-08`, `20+`).
    """

    low: int | None
    high: int | None
    printed: str
    span: Span

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    @property
    def open_low(self) -> bool:
        return self.low is None

    @property
    def open_high(self) -> bool:
        return self.high is None

    def intersect(self, other: DieRange) -> tuple[int | None, int | None] | None:
        """The common part of two ranges as (low, high), or None when they do not meet."""
        lows = [x for x in (self.low, other.low) if x is not None]
        highs = [x for x in (self.high, other.high) if x is not None]
        low = max(lows) if lows else None
        high = min(highs) if highs else None
        if low is not None and high is not None and low > high:
            return None
        return (low, high)


@dataclass(frozen=True)
class MonthSpan:
    """A row key covering months `first` to `last` inclusive (`last` None = open-ended)."""

    first: Month
    last: Month | None
    printed: str

    def contains(self, month: str) -> bool:
        parsed = Month.parse(month)
        return parsed is not None and self.first <= parsed and (self.last is None or parsed <= self.last)


@dataclass(frozen=True)
class TurnSpan:
    """A row key covering turns `first` to `last` inclusive (`last` None = open-ended) of a turn
    track of days split into `halves`, ordered by day, then by the half's place in `halves`."""

    first: str
    last: str | None
    printed: str
    halves: tuple[str, ...]

    def contains(self, turn: str) -> bool:
        given, first = _turn_order(turn, self.halves), _turn_order(self.first, self.halves)
        last = None if self.last is None else _turn_order(self.last, self.halves)
        return given is not None and first is not None and first <= given and (last is None or given <= last)


def _turn_order(turn: str, halves: tuple[str, ...]) -> tuple[str, int] | None:
    """A turn `1944-06-07 PM` as (day, the half's place), which orders turns; None when it is not one."""
    day, _, half = turn.partition(" ")
    return (day, halves.index(half)) if half in halves and len(day) == 10 else None


# A row's key value: a member id, a month or turn span for month and turn keys, or None (`*`, any value).
KeyMatch = str | MonthSpan | TurnSpan | None


def key_matches(key: KeyMatch, member_id: str) -> bool:
    """Whether a row key (member id, month span, or None for any) applies to a key value."""
    if key is None:
        return True
    if isinstance(key, MonthSpan | TurnSpan):
        return key.contains(member_id)
    return key == member_id
