"""The resolved chart model: every name bound, every range read as integers, spans kept.

Built by `compiler.resolve` from the syntax tree; read by the checks, the emitters and `lookup`.
Nothing in here refers back to Lark or to the syntax tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from compiler.dice import Dice
from dsl.ast import Span


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
class Member:
    id: str
    label: str
    span: Span


@dataclass(frozen=True)
class EnumType:
    """A closed set of values (`interceptor`: piston, jet); a game's periods form the enum `period`."""

    id: str
    label: str
    members: tuple[Member, ...]
    span: Span

    def member(self, id_or_label: str) -> Member | None:
        """The member named by its identifier or by its printed label (case-insensitive)."""
        for m in self.members:
            if m.id == id_or_label:
                return m
        folded = id_or_label.casefold()
        for m in self.members:
            if m.label.casefold() == folded or m.id.casefold() == folded:
                return m
        return None


@dataclass(frozen=True)
class Period:
    """A named stretch of the calendar, both ends inclusive, months as `YYYY-MM`."""

    id: str
    label: str
    first: str
    last: str
    span: Span


@dataclass(frozen=True)
class ContextVar:
    """A variable DRM conditions may test: `flag`, `int`, `month`, or an enum's id."""

    id: str
    type: str
    enum: str | None
    label: str
    span: Span


# ---- conditions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    var: str
    span: Span


@dataclass(frozen=True)
class Compare:
    var: str
    op: str  # == != >= <= > <
    value: int | str  # int for `int`, "YYYY-MM" for `month`, member id for enums
    span: Span


@dataclass(frozen=True)
class In:
    var: str
    values: tuple[int | str, ...]
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


Condition = Union[Flag, Compare, In, Not, All, Any_]


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


# ---- charts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Key:
    """An extra key a row is selected by, typed by an enum (or the game's periods)."""

    id: str
    enum: EnumType
    span: Span


@dataclass(frozen=True)
class Column:
    """An output column: `text`, `int`, or an enum's id (values are that enum's members)."""

    id: str
    type: str
    label: str
    span: Span


Value = Union[str, int, None]


@dataclass(frozen=True)
class Row:
    """One row: the key members it applies to (None = any), its range (None for reference
    tables keyed only by enums), and one value per output column."""

    keys: tuple[str | None, ...]
    range: DieRange | None
    values: tuple[Value, ...]
    span: Span


@dataclass(frozen=True)
class GridRow:
    values: tuple[Value, ...]
    cells: tuple[DieRange | None, ...]
    span: Span


@dataclass(frozen=True)
class GridLayout:
    """How the chart is printed when it is a grid: results down, key values across."""

    key: str
    columns: tuple[str, ...]
    rows: tuple[GridRow, ...]


@dataclass(frozen=True)
class ValueKey:
    """The integer a value-keyed chart is read by (fatigue level, victory points)."""

    id: str
    label: str
    domain: DieRange


@dataclass(frozen=True)
class Chart:
    """A resolved chart. `kind` is `roll` (read by dice), `value` (read by an integer),
    `reference` (read by keys only) or `drms` (a DRM list whose table is not printed)."""

    game: str
    chart_id: str | None
    slug: str | None
    title: str
    rule: str | None
    kind: str
    dice: Dice | None
    value_key: ValueKey | None
    keys: tuple[Key, ...]
    columns: tuple[Column, ...]
    drms: tuple[Drm, ...]
    clamp: tuple[int, int] | None
    footnotes: tuple[Footnote, ...]
    notes: tuple[str, ...]
    partial: str | None
    rows: tuple[Row, ...]
    grid: GridLayout | None
    source_file: str
    span: Span
    broken: bool = False  # some rows failed to resolve; coverage checks would only echo that

    @property
    def address(self) -> str:
        """How the CLI and outputs name the chart inside its game: the printed ID, else the slug."""
        return self.chart_id or self.slug or ""

    @property
    def ident(self) -> str:
        """A Python-identifier form of the address (`R4` -> `r4`, `B-12` -> `b_12`)."""
        import re

        base = (self.chart_id or self.slug or "chart").lower()
        base = re.sub(r"[^a-z0-9_]", "_", base)
        return base if base[0].isalpha() or base[0] == "_" else f"chart_{base}"

    def drm_span(self) -> tuple[int, int]:
        """Lowest and highest total DRM the chart's declared modifiers can add (after clamp)."""
        low = sum(d.value for d in self.drms if d.value < 0)
        high = sum(d.value for d in self.drms if d.value > 0)
        if self.clamp:
            low = max(self.clamp[0], min(self.clamp[1], low))
            high = max(self.clamp[0], min(self.clamp[1], high))
        return low, high

    def key_combinations(self) -> list[tuple[str, ...]]:
        """Every combination of key members, in declaration order."""
        import itertools

        return list(itertools.product(*[[m.id for m in k.enum.members] for k in self.keys]))

    def rows_for(self, combo: tuple[str, ...]) -> list[Row]:
        return [r for r in self.rows if all(k is None or k == c for k, c in zip(r.keys, combo))]


@dataclass(frozen=True)
class Suppression:
    """`allow CODE "reason"` in a chart: findings with that code inside `scope` are silenced."""

    code: str
    reason: str
    chart: str
    span: Span
    scope: Span

    def covers(self, code: str, where: Span) -> bool:
        """Whether a finding with this code at `where` lies inside the chart that allows it."""
        s = self.scope
        return code == self.code and where.file == s.file and (s.line, s.col) <= (where.line, where.col) < (s.end_line, s.end_col)


@dataclass
class Game:
    id: str
    title: str
    source: str | None
    calendar: tuple[str, str] | None
    periods: tuple[Period, ...]
    enums: dict[str, EnumType]
    context: dict[str, ContextVar]
    charts: list[Chart] = field(default_factory=list)
    span: Span | None = None
    suppressions: list[Suppression] = field(default_factory=list)

    def chart(self, address: str) -> Chart | None:
        """The chart with this printed ID or slug (IDs compare case-insensitively)."""
        for c in self.charts:
            if address in (c.chart_id, c.slug):
                return c
        for c in self.charts:
            if c.chart_id and c.chart_id.casefold() == address.casefold():
                return c
        return None


@dataclass
class Project:
    games: dict[str, Game]
