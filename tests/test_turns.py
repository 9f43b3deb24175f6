"""A turn track of days split into halves (issue 32): `turns 1944-06-06 AM to 1944-06-12 PM halves
[AM, PM]` in the game header, `key turn` with rows by turn, span or open end. The test game is
tests/data/charts/daylab (D1 Reinforcement Arrival by turn and 1d6, D2 Beach Supply Points by turn)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.validate import validate_json
from compiler.cli import cli
from compiler.emit.html.aid import emit_game_html
from compiler.emit.html.interactive import live_data
from compiler.emit.json import emit_game_json
from compiler.emit.python.module import emit_game_python
from compiler.engine.chances import chances
from compiler.engine.lookup import lookup
from compiler.model.turns import turn_label
from tests.conftest import ROOT, codes, compile_text, import_module

LAB = ROOT / "tests" / "data" / "charts"


def _game():  # type: ignore[no-untyped-def]
    comp = load([LAB / "daylab"])
    assert not comp.diagnostics, comp.diagnostics
    return comp.project.games["daylab"]


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--charts", str(LAB)])
    assert result.exit_code == 0, result.output
    return result.output


def _exact(chart, turn: str) -> dict[str, Fraction]:  # type: ignore[no-untyped-def]
    found = chances(chart, (turn,), 0)
    return {f"{r.row.range.printed} {r.row.values[0]}": r.probability for r in found.rows}


def test_the_track_lists_every_half_day_in_play_order() -> None:
    game = _game()
    turns = [m.id for m in game.enums["turn"].members]
    # daylab: 6 June AM to 12 June PM, two halves a day: 7 days x 2 = 14 turns
    assert len(turns) == 14
    assert turns[:3] == ["1944-06-06 AM", "1944-06-06 PM", "1944-06-07 AM"] and turns[-1] == "1944-06-12 PM"
    assert [m.label for m in game.enums["turn"].members][:3] == ["6 June AM", "6 June PM", "7 June AM"]
    assert game.turns is not None and game.turns.halves == ("AM", "PM")


def test_each_row_has_its_chance_on_its_turns() -> None:
    chart = _game().chart("D1")
    # daylab D1: 6 June AM to 7 June PM, no reinforcements on any roll
    assert _exact(chart, "1944-06-07 PM") == {"1-6 none": 1}
    # 8 June AM: 1-3 none, 4-6 brigade (1d6: a half each)
    assert _exact(chart, "1944-06-08 AM") == {"1-3 none": Fraction(1, 2), "4-6 brigade": Fraction(1, 2)}
    # 8 June PM to 10 June PM: 1-2 none, 3-6 brigade; the span's last turn included
    for turn in ("1944-06-08 PM", "1944-06-09 AM", "1944-06-10 PM"):
        assert _exact(chart, turn) == {"1-2 none": Fraction(1, 3), "3-6 brigade": Fraction(2, 3)}
    # 11 June AM on (open end): 1-4 brigade, 5-6 division, to the track's last turn
    assert _exact(chart, "1944-06-12 PM") == {"1-4 brigade": Fraction(2, 3), "5-6 division": Fraction(1, 3)}


def test_lookup_and_odds_take_the_turn_as_written_or_as_printed() -> None:
    chart = _game().chart("D1")
    assert lookup(chart, "4", {"turn": "1944-06-08 AM"}, 0).row.values == ("brigade",)
    assert lookup(chart, "3", {"turn": "1944-06-08 AM"}, 0).row.values == ("none",)
    assert lookup(chart, "3", {"turn": "1944-06-08 PM"}, 0).row.values == ("brigade",)
    text = _run("lookup", "daylab/D1", "5", "--key", "turn=1944-06-11 PM")
    assert "turn: 11 June PM" in text and "roll 5 -> row 5-6" in text and "Arrives: Division" in text
    # the label the aid prints names the same turn
    assert "Supply points: 4" in _run("lookup", "daylab/D2", "--key", "turn=8 June PM")
    odds = _run("odds", "daylab/D1", "--key", "turn=1944-06-09 AM")
    assert "1-2   1/3 (33.3%)  No reinforcements" in odds and "3-6   2/3 (66.7%)  Brigade" in odds
    doc = json.loads(_run("lookup", "daylab/D2", "--key", "turn=1944-06-10 AM", "--format", "json"))
    assert doc["keys"] == {"turn": "1944-06-10 AM"} and doc["values"] == {"points": 6}


def test_a_turn_off_the_track_is_refused_by_lookup() -> None:
    result = CliRunner().invoke(cli, ["lookup", "daylab/D2", "--key", "turn=1944-06-13 AM", "--charts", str(LAB)])
    assert result.exit_code != 0 and "is not a value of key `turn`" in result.output


def test_the_module_reads_every_turn_and_roll_as_chartc_does(tmp_path: Path) -> None:
    game = _game()
    path = tmp_path / "daylab_mod.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    mod = import_module(path, "daylab_mod")
    d1 = game.chart("D1")
    for turn in (m.id for m in game.enums["turn"].members):
        for roll in range(1, 7):
            assert mod.lookup_d1(roll, turn=turn)["arrives"] == lookup(d1, str(roll), {"turn": turn}, 0).row.values[0]
    assert mod.lookup_d2(turn="1944-06-06 PM") == {"points": 2}
    for wrong in ("1944-06-13 AM", "8 June PM", "1944-06-08 night", "1944-06-31 AM"):
        with pytest.raises(ValueError, match=r"must be a turn 'YYYY-MM-DD HALF' \(HALF one of AM, PM\)"):
            mod.lookup_d1(4, turn=wrong)


def test_the_json_holds_the_track_and_each_rows_turns() -> None:
    text = emit_game_json(_game())
    validate_json(text)
    doc = json.loads(text)
    assert doc["game"]["turns"] == {"first": "1944-06-06 AM", "last": "1944-06-12 PM", "halves": ["AM", "PM"]}
    d1 = next(c for c in doc["charts"] if c["address"] == "D1")
    assert d1["rows"][0]["keys"] == {"turn": {"turns": {"first": "1944-06-06 AM", "last": "1944-06-07 PM"}}}
    assert d1["rows"][1]["keys"] == {"turn": "1944-06-08 AM"}
    assert d1["rows"][5]["keys"] == {"turn": {"turns": {"first": "1944-06-11 AM", "last": None}}}


def test_the_aid_prints_turns_as_the_book_does() -> None:
    game = _game()
    page = emit_game_html(game)
    printed = page.split("<script")[0]  # the printed tables, before the interactive aid's data
    assert "8 June PM to 10 June PM" in printed and "11 June AM on" in printed and "1944-06-08" not in printed
    data = json.loads(live_data(game))  # the interactive aid's data: its turn selector lists these
    members = next(c for c in data["charts"] if c["address"] == "D1")["key_members"]["turn"]
    assert members[:2] == [["1944-06-06 AM", "6 June AM"], ["1944-06-06 PM", "6 June PM"]] and len(members) == 14


def test_turns_order_by_the_tracks_halves_not_by_their_names(tmp_path: Path) -> None:
    # halves named so that text order is the wrong order: `afternoon` sorts before `morning`
    text = (
        'game t { title "T" turns 2026-03-01 morning to 2026-03-03 afternoon halves [morning, afternoon] }\n'
        'chart [S] "S" { key turn column p: int rows { 2026-03-01 morning: 1 '
        "2026-03-01 afternoon..2026-03-02 morning: 2 2026-03-02 afternoon+: 3 } }\n"
    )
    comp = compile_text(tmp_path / "a", text)
    assert codes(comp) == []
    chart = comp.project.games["t"].chart("S")
    got = {t: lookup(chart, None, {"turn": t}, 0).row.values[0] for t in (
        "2026-03-01 morning", "2026-03-01 afternoon", "2026-03-02 morning", "2026-03-02 afternoon",
        "2026-03-03 afternoon")}
    assert got == {"2026-03-01 morning": 1, "2026-03-01 afternoon": 2, "2026-03-02 morning": 2,
                   "2026-03-02 afternoon": 3, "2026-03-03 afternoon": 3}
    path = tmp_path / "t_mod.py"
    path.write_text(emit_game_python(comp.project.games["t"]), encoding="utf-8")
    mod = import_module(path, "turns_order_mod")
    assert [mod.lookup_s(turn=t)["p"] for t in got] == list(got.values())


def test_a_track_is_checked_as_written(tmp_path: Path) -> None:
    def check(turns: str) -> list[str]:
        return codes(compile_text(tmp_path / str(abs(hash(turns))), f'game t {{ title "T" turns {turns} }}\n'))

    assert check("2026-02-27 AM to 2026-03-02 PM halves [AM, PM]") == []
    assert check("2026-02-27 AM to 2026-02-30 PM halves [AM, PM]") == ["C419"]  # no 30 February
    assert check("2024-02-28 AM to 2024-02-29 PM halves [AM, PM]") == []  # 2024 is a leap year
    assert check("2026-02-27 AM to 2026-03-02 night halves [AM, PM]") == ["C419"]
    assert check("2026-02-27 AM to 2026-03-02 AM halves [AM]") == ["C101"]  # two halves or more
    # at most 2,000 turns (each a key value every output lists): 1,001 days of two halves are too many
    assert check("2026-01-01 AM to 2028-09-27 PM halves [AM, PM]") == ["C419"]
    assert check("2026-01-01 AM to 2028-09-26 PM halves [AM, PM]") == []
    assert turn_label("2026-03-02 night") == "2 March night"
