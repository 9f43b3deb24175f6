"""A resolved game: header, calendar, types, charts, errata documents, invariants, suppressions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

from compiler.model.calendar import Month
from compiler.model.chart import Chart
from compiler.model.examples import Example
from compiler.model.formulas import Formula
from compiler.model.types import ColumnType, ContextVar, EnumType, Period
from compiler.model.values import Value
from dsl.aid_order import OrderEntry
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


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
class CountInvariant:
    """`count`: the records of `enum` whose `field` equals `value` (every record when `field` is
    None) number exactly `number`."""

    id: str
    text: str
    enum: str
    field: str | None
    value: Value
    number: int
    span: Span


@dataclass(frozen=True)
class ColumnSumInvariant:
    """`column_sum`: in every output column of `chart`, part `part` of the cells summed reaches
    the `field` of the `enum` record named like the column."""

    id: str
    text: str
    enum: str
    field: str
    part: int
    chart: str
    span: Span


@dataclass(frozen=True)
class CellFact:
    """A chart's cell: the one row of `chart` whose keys match `keys` (key id, member id) and, with
    `roll`, whose range holds it; the cell in `column`. The row is found on the built chart (after
    errata), by the check."""

    chart: str
    keys: tuple[tuple[str, str], ...]
    roll: int | None
    column: str
    written: str  # the fact as the invariant writes it, for messages
    span: Span


@dataclass(frozen=True)
class FieldFact:
    """The `field` of the `enum` record `member`."""

    enum: str
    member: str
    field: str
    written: str
    span: Span


@dataclass(frozen=True)
class CountFact:
    """How many records of `enum` have `field` equal to `value` (every record when `field` is None)."""

    enum: str
    field: str | None
    value: Value
    written: str
    span: Span


Fact = CellFact | FieldFact | CountFact


@dataclass(frozen=True)
class SameInvariant:
    """`same`: two facts the rulebook prints twice (a chart and the rule text, a family's size and
    its aircraft) hold equal values (C417). `type` is the type both facts hold."""

    id: str
    text: str
    left: Fact
    right: Fact
    type: ColumnType
    span: Span


Invariant = CountInvariant | ColumnSumInvariant | SameInvariant


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
        return (
            code == self.code
            and where.file == s.file
            and (s.line, s.col) <= (where.line, where.col) < (s.end_line, s.end_col)
        )


@dataclass(frozen=True)
class Game:
    """One resolved game; built once, at the end of resolution, and never changed."""

    id: str
    title: str
    source: str | None
    calendar: tuple[Month, Month] | None
    periods: tuple[Period, ...]
    enums: Mapping[str, EnumType]
    context: Mapping[str, ContextVar]
    charts: Sequence[Chart] = ()
    span: Span | None = None
    invariants: Sequence[Invariant] = ()
    errata: Sequence[ErrataDoc] = ()
    suppressions: Sequence[Suppression] = ()
    aid_order: tuple[OrderEntry, ...] | None = None  # the checked `aid.order` lines, set by project loading
    examples: Sequence[Example] = ()  # the rulebook's worked examples, in source order
    formulas: Sequence[Formula] = ()  # computed values, in source order
    aid_chance: bool = True  # `aid chance off` in the header: no chance column in the aid, unless a chart asks

    def formula(self, name: str) -> Formula | None:
        """The formula with this id (the first, if a duplicate id was reported)."""
        return self._formulas.get(name)

    @cached_property
    def _formulas(self) -> dict[str, Formula]:
        by_id: dict[str, Formula] = {}
        for f in self.formulas:
            by_id.setdefault(f.id, f)
        return by_id

    def chart(self, address: str) -> Chart | None:
        """The chart with this printed ID or slug (IDs compare case-insensitively)."""
        return self._index.find(address)

    @cached_property
    def _index(self) -> ChartIndex:
        return ChartIndex(self.charts)


class ChartIndex:
    """Charts by printed ID or slug, and by case-folded ID; the first chart of a name wins."""

    def __init__(self, charts: Iterable[Chart] = ()) -> None:
        self._exact: dict[str, Chart] = {}
        self._folded: dict[str, Chart] = {}
        for c in charts:
            self.add(c)

    def add(self, chart: Chart) -> None:
        for handle in (chart.chart_id, chart.slug):
            if handle is not None:
                self._exact.setdefault(handle, chart)
        if chart.chart_id:
            self._folded.setdefault(chart.chart_id.casefold(), chart)

    def find(self, address: str) -> Chart | None:
        return self._exact.get(address) or self._folded.get(address.casefold())


@dataclass
class Project:
    games: dict[str, Game]
