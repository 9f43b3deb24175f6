"""The symbol table one game is resolved against: filled phase by phase, then frozen into a Game.

Phase 1 declares the calendar, periods, enums and context variables and the odds rules' column
enums; charts are added as they resolve, so a derived chart finds its base. `game()` hands the
finished table to the model as an immutable `model.Game`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from compiler import model
from compiler.diagnostics import Sink, Slot
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.model.calendar import Month
from dsl import ast
from dsl.shared import Span


@dataclass
class SymbolTable:
    """Everything one game declares, by name, while it resolves."""

    id: str
    title: str
    source: str | None
    calendar: tuple[Month, Month] | None
    periods: tuple[model.Period, ...]
    span: Span
    enums: dict[str, model.EnumType] = field(default_factory=dict)
    context: dict[str, model.ContextVar] = field(default_factory=dict)
    charts: list[model.Chart] = field(default_factory=list)
    errata: tuple[model.ErrataDoc, ...] = ()
    header_errata: tuple[model.HeaderErrata, ...] = ()  # the errata's corrections of the calendar and periods
    invariants: list[model.Invariant] = field(default_factory=list)
    suppressions: list[model.Suppression] = field(default_factory=list)
    examples: list[model.Example] = field(default_factory=list)
    formulas: list[model.Formula] = field(default_factory=list)
    limits: list[model.Limit] = field(default_factory=list)
    conflicts: list[model.Conflict] = field(default_factory=list)
    ambiguities: list[model.Ambiguity] = field(default_factory=list)
    kept: list[model.KeptFinding] = field(default_factory=list)
    aid_chance: bool = True
    turns: model.TurnTrack | None = None  # the game's turn track of days split into halves
    turns_reported: bool = False  # the header's track was wrong and reported (C419): `key turn` says nothing more
    _index: model.ChartIndex = field(default_factory=model.ChartIndex)

    def add_chart(self, chart: model.Chart) -> None:
        """Declare a resolved chart: later charts (derived ones, references) can find it."""
        self.charts.append(chart)
        self._index.add(chart)

    def set_charts(self, charts: list[model.Chart]) -> None:
        """The game's charts in their final order (odds rules first, then the charts in order)."""
        self.charts = []
        self._index = model.ChartIndex()
        for chart in charts:
            self.add_chart(chart)

    def chart(self, address: str) -> model.Chart | None:
        """The chart with this printed ID or slug (IDs compare case-insensitively)."""
        return self._index.find(address)

    def chart_named(self, name: ast.Name, sink: Sink, message: str) -> model.Chart | None:
        """The chart `name` names; None when the game declares none, after reporting `message` (C201)
        with the closest chart address as help."""
        chart = self.chart(name.text)
        if chart is None:
            unknown(sink, message, name, [c.address for c in self.charts], slot=Slot.CHART)
        return chart

    def game(self) -> model.Game:
        """The resolved game, immutable from here on."""
        return model.Game(
            id=self.id,
            title=self.title,
            source=self.source,
            calendar=self.calendar,
            periods=self.periods,
            enums=dict(self.enums),
            context=dict(self.context),
            charts=tuple(self.charts),
            span=self.span,
            invariants=tuple(self.invariants),
            errata=self.errata,
            suppressions=tuple(self.suppressions),
            examples=tuple(self.examples),
            formulas=tuple(self.formulas),
            limits=tuple(self.limits),
            conflicts=tuple(self.conflicts),
            ambiguities=tuple(self.ambiguities),
            kept=tuple(self.kept),
            aid_chance=self.aid_chance,
            turns=self.turns,
            header_errata=self.header_errata,
        )


def unknown(
    sink: Sink,
    message: str,
    name: ast.Name,
    known: Iterable[str],
    fallback: str | None = None,
    *,
    slot: Slot = Slot.NAME,
) -> None:
    """C201: `message` about a name as written that names nothing, with the closest of `known` (or
    `fallback`) as help, and as the fix: written where `name` is, as the grammar reads a token in
    `slot` (a name, unless a chart's ID or slug)."""
    unknown_name(sink, message, name.text, name.span, known, fallback, slot=slot)


def chart_name(decl: ast.ChartDecl) -> str:
    """How messages name a chart declaration: its printed ID, else its slug, else its title."""
    return (decl.chart_id or decl.slug or decl.title).text


class _Declared(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def span(self) -> Span: ...


def first_span(declared: Iterable[_Declared], name: str) -> Span | None:
    """Where `name` was first declared among `declared` (keys, columns, DRMs, fields), if it was."""
    return next((x.span for x in declared if x.id == name), None)


def declared_before(sink: Sink, declared: Iterable[_Declared], what: str, name: ast.Name, where: str) -> bool:
    """Whether `name` was declared before among `declared` (reported, C202: the `what` declared twice
    `where`, e.g. "in chart `R4`")."""
    first = first_span(declared, name.text)
    if first is not None:
        declared_twice(sink, f"{what} `{name.text}`", name.span, first, where=where)
    return first is not None


_D = TypeVar("_D", bound=_Declared)


def named(declared: Iterable[_D], name: ast.Name, sink: Sink, message: str) -> _D | None:
    """The one of `declared` (keys, columns, fields, formulas) whose id `name` writes; None after
    reporting `message` (C201) with the closest id as help."""
    declared = tuple(declared)
    found = next((x for x in declared if x.id == name.text), None)
    if found is None:
        unknown(sink, message, name, [x.id for x in declared])
    return found


class Bad:
    """What a typer returns for a cell it reported as not fitting its type."""


BAD = Bad()
