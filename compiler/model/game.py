"""A resolved game: header, calendar, types, charts, errata documents, invariants, suppressions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

from compiler.model.calendar import Month
from compiler.model.chart import Chart
from compiler.model.examples import Example
from compiler.model.facts import Fact, FieldTest
from compiler.model.formulas import Formula
from compiler.model.inconsistencies import Ambiguity, Conflict, KeptFinding
from compiler.model.limits import Limit
from compiler.model.turns import TurnTrack
from compiler.model.types import ColumnType, ContextVar, EnumType, HeaderErrata, Period
from compiler.model.values import Value
from dsl.aid_order import OrderEntry
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


@dataclass(frozen=True)
class ErrataDoc:
    """An errata document: id, title, where and when it was published (`date`: `YYYY`, `YYYY-MM`
    or `YYYY-MM-DD`), its order, and the edition of the book it corrects."""

    id: str
    title: str
    source: str | None
    date: str | None
    order: int
    notes: tuple[str, ...]
    overrides: tuple[str, ...]
    span: Span
    edition: str | None = None


@dataclass(frozen=True)
class CountInvariant:
    """`count`: the records of `enum` that pass every test of `where` (every record when it is
    empty) number exactly `number`."""

    id: str
    text: str
    enum: str
    where: tuple[FieldTest, ...]
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
class SameInvariant:
    """`same`: two facts the rulebook prints twice (a chart and the rule text, a family's size and
    its aircraft) hold equal values (C417). `type` is the type both facts hold."""

    id: str
    text: str
    left: Fact
    right: Fact
    type: ColumnType
    span: Span
    kept: str | None = None  # the book prints both so and the transcription keeps them: why (C418)


@dataclass(frozen=True)
class SymmetricInvariant:
    """`symmetric`: `chart`, keyed by `enum` with a column per member, holds the same cell at (a, b)
    and (b, a) (a board's adjacency, the range between its areas)."""

    id: str
    text: str
    chart: str
    enum: str
    span: Span


@dataclass(frozen=True)
class DistancesInvariant:
    """`distances`: each cell of `chart` is the fewest steps from its row's member to its column's
    over the cells of `relation` that hold `step` (both keyed by `enum`, a column per member; `-`
    where no path leads)."""

    id: str
    text: str
    chart: str
    relation: str
    step: Value
    step_written: str
    enum: str
    span: Span


Invariant = CountInvariant | ColumnSumInvariant | SameInvariant | SymmetricInvariant | DistancesInvariant


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
    limits: Sequence[Limit] = ()  # limits and allowances, in source order
    conflicts: Sequence[Conflict] = ()  # places where the book says two things
    ambiguities: Sequence[Ambiguity] = ()  # print that reads more than one way
    kept: Sequence[KeptFinding] = ()  # warnings the book's print causes, kept as printed with a reason
    aid_chance: bool = True  # `aid chance off` in the header: no chance column in the aid, unless a chart asks
    turns: TurnTrack | None = None  # a turn track of days split into halves (`turns ... halves [AM, PM]`)
    printing: str = "amended"  # the printing it was built in: `amended`, `as-printed` or `up-to-NAME`
    printing_label: str = "as corrected"  # the same in words: `as corrected`, `as printed`, `up to errata NAME`
    left_out: tuple[str, ...] = ()  # the errata the game declares that this printing does not apply, in order
    header_errata: tuple[HeaderErrata, ...] = ()  # the errata's corrections of the calendar and periods

    def formula(self, name: str) -> Formula | None:
        """The formula with this id (the first, if a duplicate id was reported)."""
        return self._formulas.get(name)

    def limit(self, name: str) -> Limit | None:
        """The limit with this id (the first, if a duplicate id was reported)."""
        return next((lim for lim in self.limits if lim.id == name), None)

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
