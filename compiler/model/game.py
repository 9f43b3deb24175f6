"""A resolved game: header, calendar, types, charts, errata documents, invariants, suppressions."""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.calendar import Month
from compiler.model.chart import Chart
from compiler.model.types import ContextVar, EnumType, Period
from compiler.model.values import Value
from dsl.ast import Span


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


Invariant = CountInvariant | ColumnSumInvariant


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
    calendar: tuple[Month, Month] | None
    periods: tuple[Period, ...]
    enums: dict[str, EnumType]
    context: dict[str, ContextVar]
    charts: list[Chart] = field(default_factory=list)
    span: Span | None = None
    invariants: list[Invariant] = field(default_factory=list)
    errata: list[ErrataDoc] = field(default_factory=list)
    suppressions: list[Suppression] = field(default_factory=list)
    _indexed: tuple[int, dict[str, Chart], dict[str, Chart]] | None = field(default=None, repr=False, compare=False)

    def chart(self, address: str) -> Chart | None:
        """The chart with this printed ID or slug (IDs compare case-insensitively)."""
        exact, folded = self._chart_index()
        return exact.get(address) or folded.get(address.casefold())

    def _chart_index(self) -> tuple[dict[str, Chart], dict[str, Chart]]:
        """Charts by exact ID or slug, and by case-folded ID; the first chart wins, as in a scan."""
        if self._indexed is not None and self._indexed[0] == len(self.charts):
            return self._indexed[1], self._indexed[2]
        exact: dict[str, Chart] = {}
        folded: dict[str, Chart] = {}
        for c in self.charts:
            for handle in (c.chart_id, c.slug):
                if handle is not None:
                    exact.setdefault(handle, c)
            if c.chart_id:
                folded.setdefault(c.chart_id.casefold(), c)
        self._indexed = (len(self.charts), exact, folded)
        return exact, folded


@dataclass
class Project:
    games: dict[str, Game]
