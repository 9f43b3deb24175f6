"""The symbol table one game is resolved against: filled phase by phase, then frozen into a Game.

Phase 1 declares the calendar, periods, enums and context variables and the odds rules' column
enums; charts are added as they resolve, so a derived chart finds its base. `game()` hands the
finished table to the model as an immutable `model.Game`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from compiler import model
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
    invariants: list[model.Invariant] = field(default_factory=list)
    suppressions: list[model.Suppression] = field(default_factory=list)
    examples: list[model.Example] = field(default_factory=list)
    formulas: list[model.Formula] = field(default_factory=list)
    aid_chance: bool = True
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
            aid_chance=self.aid_chance,
        )


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


class Bad:
    """What a typer returns for a cell it reported as not fitting its type."""


BAD = Bad()
