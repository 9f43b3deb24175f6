"""Unit tests of the resolver called directly on parsed text: the phases and what they hand on."""

from __future__ import annotations

import dataclasses

import pytest

from compiler import model
from compiler.diagnostics import Sink
from compiler.resolve import resolve_game
from dsl.ast import Span
from dsl.parser import parse_text

HEAD = 'game t { title "T" calendar 1944-07 to 1944-09 period summer "Summer" 1944-07 to 1944-09 }\n'


def _resolve(text: str) -> tuple[model.Game, Sink]:
    parsed = parse_text(HEAD + text, "t/case.chart")
    assert parsed.source is not None, parsed.errors
    sink = Sink()
    return resolve_game("t", [parsed.source], sink, Span("t/case.chart", 1, 1, 1, 1)), sink


def test_the_resolved_game_is_immutable() -> None:
    game, sink = _resolve('chart [R1] "One" { roll 1d6 column r: text rows { 1-6: "x" } }\n')
    assert sink.items == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.charts = ()  # type: ignore[misc]
    assert isinstance(game.charts, tuple) and game.chart("r1") is game.charts[0]


def test_calendar_months_and_periods_are_typed() -> None:
    game, _ = _resolve("")
    assert game.calendar == (model.Month("1944-07"), model.Month("1944-09"))
    assert [m.id for m in game.enums["month"].members] == ["1944-07", "1944-08", "1944-09"]
    assert [(p.id, p.first, p.last) for p in game.periods] == [("summer", "1944-07", "1944-09")]
    assert isinstance(game.periods[0].first, model.Month)


def test_cells_are_typed_by_their_column() -> None:
    """IA2 R9 style: a text result and an int column; a pair and a month column tell values apart."""
    game, sink = _resolve(
        "enum side { piston jet }\n"
        'chart [R9] "Bombing" { roll 1d6 column result: text column points: int column factors: pair '
        'column side: side column from: month rows { 1-6: "Hit", 2, 6/3, jet, 1944-08 } }\n'
    )
    assert sink.items == []
    chart = game.chart("R9")
    assert chart is not None
    [(text, points, factors, side, month)] = [r.values for r in chart.rows]
    assert isinstance(text, model.Text) and text == "Hit"
    assert points == 2 and isinstance(factors, model.Slashed) and factors == (6, 3)
    assert isinstance(side, model.MemberId) and side == "jet"
    assert isinstance(month, model.Month) and month == "1944-08"
    assert [c.type for c in chart.columns] == ["text", "int", "pair", model.EnumRef("side"), "month"]
    assert chart.kind is model.ChartKind.ROLL


def test_odds_rule_columns_are_declared_as_an_enum_for_the_crt() -> None:
    game, sink = _resolve(
        'odds crt_odds "Odds" { attacker_high round down defender_high round up '
        'columns ["1:2", "1:1", "2:1"] beyond clamp }\n'
    )
    assert sink.items == []
    assert [m.label for m in game.enums["crt_odds"].members] == ["1:2", "1:1", "2:1"]
    chart = game.chart("crt_odds")
    assert chart is not None and chart.kind is model.ChartKind.ODDS
