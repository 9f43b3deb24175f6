"""Reading a fact on the built game (after errata): a chart's cell, a record's field, a count of
records, the number a limit sets, a formula's value, a chart's DRM. `same` invariants (C417),
conflicts and ambiguous print (C480-C483) read their facts here; a fact that cannot be read is
reported with the caller's code."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.diagnostics import Code, Label, Sink
from compiler.engine.formulas import FormulaProblem, evaluate
from compiler.engine.limits import read_limit
from compiler.model.text import value_text
from dsl import ast
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class Reading:
    """What one fact holds, and where the data says it (the row, the record, the list of records,
    the limit's case, the formula, the DRM)."""

    value: model.Value
    shown: str
    where: ast.Span


def read_fact(
    game: model.Game, fact: model.Fact, type_: model.ColumnType, where: str, code: Code, sink: Sink
) -> Reading | None:
    """The value `fact` holds (typed `type_`), or None after reporting (`code`, citing `where`) that
    it cannot be read: a selector that picks no row or several, a limit undecided in its context, a
    formula without a value there."""
    match fact:
        case model.CellFact():
            return _cell(game, fact, where, code, sink)
        case model.FieldFact():
            member = game.enums[fact.enum].member(fact.member)
            assert member is not None, "the resolver bound the member"
            value = member.get(fact.field)
            return Reading(value, value_text(game, model.Column("fact", type_, "", fact.span), value), member.span)
        case model.CountFact():
            enum = game.enums[fact.enum]
            matching = [m for m in enum.members if all(t.passes(m.get(t.field)) for t in fact.where)]
            # the list's first record stands for the list (the enum itself when none matches)
            return Reading(len(matching), str(len(matching)), matching[0].span if matching else enum.span)
        case model.LimitFact():
            return _limit(game, fact, where, code, sink)
        case model.FormulaFact():
            formula = game.formula(fact.formula)
            assert formula is not None, "the resolver bound the formula"
            try:
                value = evaluate(game, formula, dict(fact.context))
            except FormulaProblem as exc:
                sink.emit(code, f"{where}: `{fact.written}` has no value: {exc}", fact.span)
                return None
            return Reading(value, str(value), formula.span)
        case model.DrmFact():
            chart = game.chart(fact.chart)
            drm = next((d for d in chart.drms if d.id == fact.drm), None) if chart is not None else None
            if drm is None:
                return None  # the chart did not build; its own errors say why
            return Reading(drm.value, f"{drm.value:+d}", drm.span)
        case _:
            assert_never(fact)


def _limit(game: model.Game, fact: model.LimitFact, where: str, code: Code, sink: Sink) -> Reading | None:
    limit = game.limit(fact.limit)
    assert limit is not None, "the resolver bound the limit"
    answer = read_limit(limit, dict(fact.context))
    bound = answer.bound
    if bound is None or bound.number is None:
        why = (
            f"it depends on {', '.join(f'`{v}`' for v in answer.undecided)}"
            if answer.undecided
            else "no case applies there"
            if bound is None
            else f"its bound there is `{bound.text}`, not one number"
        )
        sink.emit(code, f"{where}: `{fact.written}` cannot be read: {why}", fact.span,
                  "give the context variables its cases test: `limit NAME (month=1944-08)`")
        return None
    assert answer.case is not None
    return Reading(bound.number, bound.text, answer.case.span)


def _cell(game: model.Game, fact: model.CellFact, where: str, code: Code, sink: Sink) -> Reading | None:
    chart = game.chart(fact.chart)
    if chart is None or chart.broken:
        return None
    index = next(i for i, c in enumerate(chart.columns) if c.id == fact.column)
    positions = [next(i for i, k in enumerate(chart.keys) if k.id == key) for key, _ in fact.keys]
    rows = [
        r
        for r in chart.rows
        if not r.natural
        and all(model.key_matches(r.keys[p], m) for p, (_, m) in zip(positions, fact.keys, strict=True))
        and (fact.roll is None or (r.range is not None and r.range.contains(fact.roll)))
    ]
    if len(rows) != 1:
        found = "no row" if not rows else f"{len(rows)} rows"
        given = [k.id for k in chart.keys if k.id not in {key for key, _ in fact.keys}]
        hint = (
            f"give the chart's other keys ({', '.join(f'`{k}`' for k in given)})"
            + (" and the roll" if chart.dice is not None and fact.roll is None else "")
            if rows
            else f"check the keys and the roll against the rows of `{chart.address}`"
        )
        sink.emit(
            code,
            f"{where}: `{fact.written}` selects {found} of `{chart.address}`, not one",
            fact.span,
            hint,
            tuple(Label(r.span, "this row") for r in rows[:3]),
        )
        return None
    value = rows[0].values[index]
    return Reading(value, value_text(game, chart.columns[index], value), rows[0].span)


def same_value(a: model.Value, b: model.Value) -> bool:
    """Equal values; printed text compares without regard to case or runs of spaces."""
    if isinstance(a, model.Text) and isinstance(b, model.Text):
        return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
    return a == b


def fact_chart(game: model.Game, fact: model.Fact) -> str | None:
    """The chart a cell fact reads, if it is in the game."""
    return fact.chart if isinstance(fact, model.CellFact) and game.chart(fact.chart) is not None else None
