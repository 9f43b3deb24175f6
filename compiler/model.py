"""The resolved chart model: every name bound, every range read as integers, spans kept.

Built by `compiler.resolve` from the syntax tree; read by the checks, the emitters and `lookup`.
Nothing in here refers back to Lark or to the syntax tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from compiler.aid_order import OrderEntry
from compiler.crt import OddsRule
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
class ChartRef:
    """A cell that sends the player to another chart ("roll on [B6]"); resolved by the checker."""

    address: str


# A cell value: text, int, None (`-`), a slashed group as a tuple (`6/3` -> (6, 3); `-/8/9/11` ->
# (None, 8, 9, 11)), a month `YYYY-MM` (str), an enum member id (str) or a chart reference.
Value = Union[str, int, None, tuple, ChartRef]


@dataclass(frozen=True)
class Field:
    """A typed field of reference-data records: `text`, `int`, `month`, `flag`, or an enum's id."""

    id: str
    type: str
    label: str
    span: Span


@dataclass(frozen=True)
class Member:
    """An enum value; `values` holds its record fields (reference data), `aliases` printed variants."""

    id: str
    label: str
    span: Span
    values: tuple[tuple[str, Value], ...] = ()
    aliases: tuple[str, ...] = ()

    def get(self, field_id: str) -> Value:
        return dict(self.values).get(field_id)


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

    def member(self, id_or_label: str) -> Member | None:
        """The member named by its identifier, printed label or alias (case-insensitive)."""
        for m in self.members:
            if m.id == id_or_label:
                return m
        folded = id_or_label.casefold()
        for m in self.members:
            if m.label.casefold() == folded or m.id.casefold() == folded:
                return m
        for m in self.members:
            if any(a.casefold() == folded for a in m.aliases):
                return m
        return None


@dataclass(frozen=True)
class Period:
    """A named stretch of the calendar, both ends inclusive, months as `YYYY-MM`. An open-ended
    period (`1946+`) has `open_end` set and `last` at the calendar's end (or 9999-12)."""

    id: str
    label: str
    first: str
    last: str
    span: Span
    open_end: bool = False


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


@dataclass(frozen=True)
class MonthSpan:
    """A row key covering months `first` to `last` inclusive (`last` None = open-ended)."""

    first: str
    last: str | None
    printed: str

    def contains(self, month: str) -> bool:
        return self.first <= month and (self.last is None or month <= self.last)


KeyMatch = Union[str, MonthSpan, None]


def key_matches(key: KeyMatch, member_id: str) -> bool:
    """Whether a row key (member id, month span, or None for any) applies to a key value."""
    if key is None:
        return True
    if isinstance(key, MonthSpan):
        return key.contains(member_id)
    return key == member_id


@dataclass(frozen=True)
class Row:
    """One row: the key members it applies to (None = any; a MonthSpan for month keys), its range
    (None for reference tables keyed only by enums), and one value per output column."""

    keys: tuple[KeyMatch, ...]
    range: DieRange | None
    values: tuple[Value, ...]
    span: Span
    errata: tuple[str, ...] = ()  # ids of the errata that added or changed this row
    printed_values: tuple[Value, ...] | None = None  # the values as printed, when an errata changed them
    printed_range: str | None = None
    added: bool = False  # the row is not in the print; an errata added it


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
class AvailabilityLayout:
    """How an availability chart is printed (IA2 R2/R3): items down, months across, each cell `✓`
    (automatic), a die range (available on that roll) or None (`-`, not available)."""

    row_key: str
    col_key: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[DieRange | str | None, ...]], ...]  # (member id, cells); "auto" = ✓


@dataclass(frozen=True)
class ValueKey:
    """The integer a value-keyed chart is read by (fatigue level, victory points)."""

    id: str
    label: str
    domain: DieRange


@dataclass(frozen=True)
class Chart:
    """A resolved chart. `kind` is `roll` (read by dice), `value` (read by an integer),
    `reference` (read by keys only), `drms` (a DRM list whose table is not printed), `external`
    (printed elsewhere) or `odds` (an odds rule that picks CRT columns)."""

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
    availability: AvailabilityLayout | None = None
    odds: OddsRule | None = None
    errata: tuple[str, ...] = ()  # errata ids that amended this chart, in order
    printed_title: str | None = None
    printed_partial: str | None = None  # the print's `partial` reason, when an errata completed the chart
    removed_rows: tuple[Row, ...] = ()  # printed rows an errata removed (their `errata` says which)
    errata_notes: tuple[tuple[str, str], ...] = ()  # (errata id, note)
    errata_reasons: tuple[tuple[str, str], ...] = ()  # (errata id, the `because` it gave)
    drm_reads: str | None = None  # what a DRM means on a d66 or percentile roll

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
        return [r for r in self.rows if all(key_matches(k, c) for k, c in zip(r.keys, combo))]


@dataclass(frozen=True)
class ErrataDoc:
    """An errata document: id, title, where and when it was published, and its order."""

    id: str
    title: str
    source: str | None
    date: str | None
    order: int
    notes: tuple[str, ...]
    overrides: tuple[str, ...]
    span: Span


@dataclass(frozen=True)
class Invariant:
    """A resolved `invariant`: `count` (records of `enum` whose `field` equals `value` number
    `number`) or `column_sum` (every column of `chart`, part `number` of its cells summed, reaches
    the `field` of the `enum` member named like the column)."""

    kind: str
    id: str
    text: str
    enum: str
    field: str
    value: Value
    number: int
    chart: str | None
    span: Span


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
    invariants: list[Invariant] = field(default_factory=list)
    errata: list[ErrataDoc] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)
    aid_order: tuple[OrderEntry, ...] | None = None  # the checked `aid.order` lines, set by project loading

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
