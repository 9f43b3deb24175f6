"""`chartc export GAME --to tts`: the Lua 5.2 module, run in real Lua 5.2 (lupa's `lua52`).

Every case of `chartc vectors` for the four games of charts/ and the CRT test game goes through the
exported module: the DRM total from the context, the column shift total, the row and modified roll
of every natural roll (and the row's cells, against the game's JSON), the exact chance of every
row, and every odds reading. tests/test_vectors.py holds the generated Python module to the same
vectors, so the Lua module and the Python module give the same answer to every one of them.
Chained results are walked in both with the same dice, and chart text that tries to become Lua
code stays a string.
"""

from __future__ import annotations

import functools
import inspect
import json
import random
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.emit.platforms.lua import string
from compiler.emit.platforms.tts import emit_tts, runtime
from compiler.model.dice import Dice
from compiler.tools.vectors import game_vectors
from tests.conftest import ROOT, compile_text, import_module

lupa = pytest.importorskip("lupa", reason="the `test` extra installs lupa (real Lua 5.2 for the TTS export)")
from lupa import lua52  # noqa: E402

GAMES = ("aa_rules", "ia2", "stuka_leader", "usaaf")
CRTLAB = ROOT / "tests" / "data" / "charts" / "crtlab"
CHAINLAB = ROOT / "tests" / "data" / "charts" / "chainlab"


@functools.cache
def _game(folder: Path) -> model.Game:
    comp = load([folder])
    return comp.project.games[folder.name]


def _lua(game: model.Game) -> Any:
    """The exported module of `game`, loaded in a fresh Lua 5.2 state."""
    runtime_ = lua52.LuaRuntime(unpack_returned_tuples=True)
    assert runtime_.eval("_VERSION") == "Lua 5.2"
    return runtime_, runtime_.execute(emit_tts(game)[f"{game.id}.lua"])


def _py(value: Any) -> Any:
    """A Lua value as Python data (tables with keys 1..n as lists, `M.null` as None)."""
    if lua52.lua_type(value) != "table":
        return value
    keys = list(value.keys())
    if not keys and str(value) == "null":
        return None
    if keys and all(isinstance(k, int) for k in keys) and sorted(keys) == list(range(1, len(keys) + 1)):
        return [_py(value[k]) for k in range(1, len(keys) + 1)]
    return {k: _py(value[k]) for k in keys}


def agree_with_vectors(game: model.Game) -> int:
    """Every vector of `game` through the Lua module; returns how many answers were compared."""
    lua, M = _lua(game)

    def table(value: Any) -> Any:
        return lua.table_from(value, recursive=True)

    doc = {c["address"]: c for c in json.loads(render_outputs_json(game))["charts"]}
    compared = 0
    vectors = game_vectors(game)
    for entry in vectors["charts"]:  # type: ignore[union-attr]
        address = entry["chart"]
        rows = doc[address]["rows"]
        for case in entry["cases"]:
            keys, context = table(case["keys"]), table(case["context"])
            drm, _terms = M.drm(address, keys, context)
            if "shift" in case:
                assert M.shift(address, context)[0] == case["shift"], (address, case)
            if case["drm"] is None:  # IA2 3.5: a DRM on a roll read digit by digit has no answer
                first = M.charts[address].dice.outcomes[1][1]
                refused = _ret(M.lookup(address, first, keys, drm))
                assert drm != 0 and refused[0] is None and "digit by digit" in refused[1], (address, case)
                compared += 1
                continue
            assert drm == case["drm"], (address, case["keys"], case["context"])
            for natural, modified, row in case["rolls"]:
                values, index, got_modified = (*_ret(M.lookup(address, natural, keys, drm)), None)[:3]
                if row is None:
                    assert values is None, (address, case, natural)
                else:
                    where = (address, case["keys"], case["context"], natural)
                    assert (index - 1, got_modified) == (row, modified), where
                    assert _py(values) == rows[row]["values"], (address, natural)
                compared += 1
            chances, no_row = M.chances(address, keys, drm, context)
            assert {str(k - 1): chances[k] for k in chances} == case["chances"], (address, case)
            assert no_row == case["no_row"]
            compared += 1
    for entry in vectors["odds"]:  # type: ignore[union-attr]
        for reading in entry["readings"]:
            answer = M.odds(entry["chart"], reading["attack"], reading["defense"], reading["shift"])
            got, problem = (*_ret(answer), None)[:2]
            if reading["column"] is None:
                assert got is None and problem, reading
            else:
                assert (got["column"], got["formed"], got["clamped"]) == (
                    reading["column"], reading["formed"], reading["clamped"]), reading
            compared += 1
    return compared


def _ret(values: Any) -> tuple[Any, ...]:
    """A Lua function's results as a tuple (one result is not a tuple in lupa)."""
    return values if isinstance(values, tuple) else (values,)


def render_outputs_json(game: model.Game) -> str:
    from compiler.emit.json import emit_game_json

    return emit_game_json(game)


@pytest.mark.parametrize("game_id", GAMES)
def test_corpus_vectors_agree_in_lua_52(game_id: str) -> None:
    game = _game(ROOT / "charts" / game_id)
    compared = agree_with_vectors(game)
    # the games with roll charts have hundreds of natural rolls; USAAF's vectors are its odds rule
    assert compared > {"aa_rules": 200, "ia2": 2000, "stuka_leader": 300, "usaaf": 50}[game_id]


def test_crt_game_vectors_agree_in_lua_52() -> None:
    # USAAF 15.1-15.2's odds forms, differential and strength columns, column shifts, terrain shifts
    assert agree_with_vectors(_game(CRTLAB)) > 1000


def test_turn_game_vectors_agree_in_lua_52() -> None:
    # daylab D1: 1d6 on each of 14 half-day turns (6 June AM to 12 June PM), 84 readings at least
    assert agree_with_vectors(_game(ROOT / "tests" / "data" / "charts" / "daylab")) >= 84


def test_turns_in_lua_order_by_the_tracks_halves_not_their_names(tmp_path: Path) -> None:
    # `afternoon` sorts before `morning` as text: the span 1 March afternoon..2 March morning must
    # hold 2 March morning and not 1 March morning, as the Python module reads it
    text = (
        'game t { title "T" turns 2026-03-01 morning to 2026-03-03 afternoon halves [morning, afternoon] }\n'
        'chart [S] "S" { roll 1d6 key turn column p: int rows { 2026-03-01 morning 1-6: 1 '
        "2026-03-01 afternoon..2026-03-02 morning 1-6: 2 2026-03-02 afternoon+ 1-6: 3 } }\n"
    )
    comp = compile_text(tmp_path, text)
    assert not comp.diagnostics
    # 6 turns x 6 natural rolls
    assert agree_with_vectors(comp.project.games["t"]) >= 36


def test_r4_in_lua_as_the_book_reads_it() -> None:
    # IA2 R4 (7.1.10, with errata): a piston fighter on an F/B attack (+1) rolls 2: modified 3, Combat
    lua, M = _lua(_game(ROOT / "charts" / "ia2"))
    keys = lua.table_from({"interceptor": "Piston-engined"})  # a key by its printed label
    drm, terms = M.drm("R4", keys, lua.table_from({"fb_attack": True}))
    assert drm == 1 and _py(terms) == [["F/B Attack", 1]]
    values, index, modified = M.lookup("R4", 2, keys, drm)
    assert _py(values) == {"result": "Combat"} and modified == 3 and index == 2
    assert M.lookup("R4", 7, keys, 0) == (None, "7 cannot be rolled on 1d6")


def test_flak_in_lua_reads_the_die_through_the_steps() -> None:
    # IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)", +1 drm to the roll after an
    # FuG25 IFF hit: a 6 is 6 + 1 - 3 = 4, held at 3; a 2 is 0; IA2 7.1.5's flak takes the die too
    lua, M = _lua(_game(ROOT / "charts" / "ia2"))
    none = lua.table_from({})
    drm, _ = M.drm("bodenplatte_flak", none, lua.table_from({"iff_hit": True}))
    assert drm == 1
    assert [M.lookup("bodenplatte_flak", die, none, drm)[2] for die in range(1, 7)] == [0, 0, 1, 2, 3, 3]
    assert [_py(M.lookup("flak", die, none, 0)[0])["hits"] for die in range(1, 7)] == [0, 0, 0, 1, 2, 3]
    assert M.lookup("flak", 0, none, 0) == (None, "0 cannot be rolled on 1d6")


# ---- chained results and dice, walked with the same draws in Python and Lua ------------------


class _Draws(random.Random):
    """A `random.Random` whose `randint` reads a fixed list of uniform draws, as the Lua side does."""

    def __init__(self, draws: list[float]) -> None:
        super().__init__(0)
        self.draws, self.at = draws, 0

    def randint(self, a: int, b: int) -> int:
        u = self.draws[self.at]
        self.at += 1
        return a + int(u * (b - a + 1))


LUA_RANDINT = """
function(draws)
  local at = 0
  return function(a, b)
    at = at + 1
    return a + math.floor(draws[at] * (b - a + 1))
  end
end
"""


def _python_module(game: model.Game, tmp_path: Path) -> ModuleType:
    comp = load([CHAINLAB]) if game.id == "chainlab" else load([ROOT / "charts" / game.id])
    path = tmp_path / f"{game.id}.py"
    path.write_text(render_outputs(comp.project)[f"{game.id}/{game.id}.py"], encoding="utf-8")
    return import_module(path, f"tts_{game.id}")


def _step_scalars(values: dict[str, Any]) -> dict[str, Any]:
    """A step's cells, a chained reference as its chart (the module and the JSON shape it alike)."""
    out = {}
    for k, v in values.items():
        if isinstance(v, dict):
            out[k] = v.get("chart", "again" if "again" in v else "<roll>")
        else:
            out[k] = list(v) if isinstance(v, tuple) else v
    return out


@pytest.mark.parametrize("folder", [CHAINLAB, ROOT / "charts" / "ia2"], ids=["chainlab", "ia2"])
def test_chains_follow_as_the_python_module(folder: Path, tmp_path: Path) -> None:
    game = _game(folder)
    module = _python_module(game, tmp_path)
    lua, M = _lua(game)
    make_randint = lua.eval(LUA_RANDINT)
    follows = [name for name in dir(module) if name.startswith("follow_")]
    assert follows, "the game has chained results"
    walked = 0
    for name in follows:
        fn = getattr(module, name)
        address = next(a for a, f in module.LOOKUPS.items() if f.__name__ == "lookup_" + name.removeprefix("follow_"))
        chart = game.chart(address)
        assert chart is not None
        for seed in range(12):
            source = random.Random(f"{address}/{seed}")
            draws = [source.random() for _ in range(400)]
            combo = chart.key_combinations()[seed % len(chart.key_combinations())]
            keys = dict(zip((k.id for k in chart.keys), combo, strict=True))
            # the chart's own keys (then the optional keys of later charts, `when`, `set_`, `drm`)
            params = list(inspect.signature(fn).parameters)[1 : 1 + len(chart.keys)]
            try:
                want: Any = fn(_Draws(draws), **dict(zip(params, combo, strict=True)))
            except (LookupError, ValueError):
                want = None
            got = _py(_ret(M.follow(address, lua.table_from(keys), 0, make_randint(lua.table_from(draws))))[0])
            if want is None:
                assert got is None, (address, seed)
                continue
            assert [(s["chart"], s.get("natural"), s["drm"], s.get("modified"), s["cell_rolls"] or [],
                     _step_scalars(s["values"])) for s in got] == [
                (s["chart"], s["natural"], s["drm"], s["modified"], s["cell_rolls"], _step_scalars(s["values"]))
                for s in want
            ], (address, seed)
            walked += len(want)
    assert walked > 20


def test_dice_throws_as_the_runtime() -> None:
    # every dice form of the corpus (2d6, percentile with 00 as 100, d66, lower of 2d10...)
    from compiler.engine import plain
    from compiler.engine.runtime.dice import _roll

    lua, M = _lua(_game(CRTLAB))
    make_randint = lua.eval(LUA_RANDINT)
    dice = {}
    for game_id in GAMES:
        for chart in _game(ROOT / "charts" / game_id).charts:
            for d in chart.all_dice:
                dice[d.text] = d
    assert {"2d6", "percentile (2d10, 00 = 100)", "lower of 2d10"} <= set(dice)  # IA2 7.1.5's flak is 1d6 and steps
    # and exploding dice (tests/data/charts/dicelab): 6s roll again, 0-9 d10s explode on a 9
    for d in (Dice("explode", 2, 6, depth=3), Dice("explode", 3, 6, depth=1), Dice("explode", 1, 10, depth=2, zero=0)):
        dice[f"{d.text}, zero reads {d.zero}"] = d
    from compiler.emit.platforms.tts import dice_data

    for text, d in sorted(dice.items()):
        for seed in range(30):
            source = random.Random(f"{text}/{seed}")
            draws = [source.random() for _ in range(20)]
            want = _roll(_Draws(draws), plain.dice(d))
            assert M.throw(lua.table_from(dice_data(d), recursive=True), make_randint(lua.table_from(draws))) == want


# ---- what the module is made of -----------------------------------------------------------------


HOSTILE = r'''
game t { title "x\"); PWNED = true; --[[" }
enum side "Side ]] PWNED = true --[[" {
  ours "Ours\n\"..os.exit()..\""
  theirs "Theirs \u202e\\"
}
chart [T1] table "Table\"); PWNED = true; --" {
  roll 1d6
  key side
  column result: text "R\\"
  rows {
    ours 1-3: "\"); PWNED = true; print(\""
    ours 4-6: "]] PWNED = true --[[ \u0000"
    theirs 1-6: "\\\"\n end PWNED = true"
  }
}
'''


def test_chart_text_stays_text_in_lua(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, HOSTILE)
    game = comp.project.games["t"]
    lua, M = _lua(game)
    assert lua.eval("PWNED") is None  # loading ran none of the chart's text
    assert M.title == 'x"); PWNED = true; --[['
    chart = M.charts["T1"]
    assert chart.title == 'Table"); PWNED = true; --'
    assert _py(M.lookup("T1", 2, lua.table_from({"side": "ours"}), 0)[0]) == {"result": '"); PWNED = true; print("'}
    assert _py(M.lookup("T1", 5, lua.table_from({"side": "ours"}), 0)[0]) == {"result": "]] PWNED = true --[[ \x00"}
    assert _py(M.lookup("T1", 5, lua.table_from({"side": "theirs"}), 0)[0]) == {"result": '\\"\n end PWNED = true'}
    # a label with quotes and a newline still names its member
    assert _py(M.lookup("T1", 1, lua.table_from({"side": 'Ours\n"..os.exit().."'}), 0)[0])["result"].startswith('"')
    assert lua.eval("PWNED") is None
    text = emit_tts(game)["t.lua"]
    assert '"); PWNED' not in text and "]] PWNED" in text  # quotes escaped; brackets are harmless in "..."
    assert all(ord(ch) < 0x7F for ch in text), "every byte outside printable ASCII is an escape"


def test_lua_strings_escape_every_byte_outside_printable_ascii() -> None:
    assert string('a"b\\c\n') == '"a\\034b\\092c\\010"'
    assert string("−1 ✓") == '"\\226\\136\\1461 \\226\\156\\147"'


def test_the_runtime_is_lua_52_without_integer_division_or_bitwise_operators() -> None:
    code = re.sub(r"--[^\n]*", "", runtime())
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', code)
    for token in ("//", "&", "|", "<<", ">>", "math.type", "math.tointeger", "utf8.", "goto", "string.pack"):
        assert token not in code, token
    assert re.search(r"~(?!=)", code) is None, "no bitwise not or xor"


def test_export_is_byte_identical_on_every_run() -> None:
    game = _game(ROOT / "charts" / "ia2")
    first = emit_tts(game)
    again = emit_tts(load([ROOT / "charts" / "ia2"]).project.games["ia2"])
    assert first == again and list(first) == ["ia2.lua"]
    assert first["ia2.lua"].startswith("-- generated by chartc -- do not edit\n")
