"""The player aid's engine (compiler/emit/templates/engine.js) run in a bare V8 and held to the
Python engine, answer by answer (tests/aid_engine.py says what is compared).

The default run compares every case of `chartc vectors` of the four corpus games and the test games
under tests/data/charts (crtlab's four CRTs among them), with their as-printed views, and shows
that the comparison catches a wrong engine. `pytest -m slow` adds 1,000 games of tests/gamegen.py
and 300 of tests/gamegen_rolls.py (every construct of a roll), 100 games to one V8 context.
The browser test (tests/test_aid_live.py) holds the page around the engine to the same vectors.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.emit.html.aid import emit_game_html
from compiler.emit.html.interactive import printed_bounds
from compiler.errata.printing import AS_CORRECTED, AS_PRINTED, Printing
from compiler.tools.vectors import game_vectors
from tests import gamegen, gamegen_rolls
from tests.aid_engine import ENGINE, JsEngine, typed_rolls, unknown_cases
from tests.conftest import ROOT

GAMES = [
    *((g, ROOT / "charts" / g) for g in ("aa_rules", "ia2", "stuka_leader", "usaaf")),
    *(
        (g, ROOT / "tests" / "data" / "charts" / g)
        for g in ("chainlab", "crtlab", "daylab", "dicelab", "factlab", "overlaylab", "weightlab")
    ),
]
MODIFIER_FORMS = ROOT / "tests" / "data" / "modifier_forms.chart"
EVERY_DICE = """game t { title "Every dice form" }
chart d6 "1d6" { roll 1d6 column r: text "R" rows { 1-3: "a" 4-6: "b" } }
chart d10 "1d10" { roll 1d10 zero reads 10 column r: text "R" rows { 1-5: "a" 6-0: "b" } }
chart d10z "1d10 read 0-9" { roll 1d10 zero reads 0 column r: text "R" rows { 0-4: "a" 5-9: "b" } }
chart two_d10 "2d10" { roll 2d10 column r: text "R" rows { 2-10: "a" 11-20: "b" } }
chart vs "1d10 versus 1d10" {
  roll 1d10 versus 1d10 zero reads 0 column r: text "R" rows { -9--1: "a" 0: "tie" 1-9: "b" }
}
chart vs10 "1d10 versus 1d10, 1-10" {
  roll 1d10 versus 1d10 column r: text "R" rows { -9--2: "a" -1-1: "tie" 2-9: "b" }
}
chart low "lower of 2d10" { roll lower of 2d10 column r: text "R" rows { 1-5: "a" 6-10: "b" } }
chart pct "percentile" { roll percentile column r: text "R" rows { 01-50: "a" 51-00: "b" } }
chart lt "lower as tens" { roll percentile lower as tens column r: text "R" rows { 01-33: "a" 34-99: "b" 00: "c" } }
chart dd "d66" { roll d66 column r: text "R" rows { 11-36: "a" 41-66: "b" } }
chart flak "minus" { roll 1d6 minus 3 min 0 column r: text "R" rows { 0: "none" 1+: "hits" } }
chart boom "exploding" { roll exploding 1d6 depth 2 column r: text "R" rows { 1-5: "a" 7-11: "b" 13+: "c" } }
chart keep "keep" { roll highest 3 of 10d10 column r: text "R" rows { 3-20: "a" 21-30: "b" } }
"""


@pytest.fixture(scope="module")
def js() -> JsEngine:
    return JsEngine()


@functools.cache
def compiled(game_id: str, printing: Printing = AS_CORRECTED) -> tuple[model.Game, dict[str, Any]]:
    """A game of GAMES compiled once per test process, with its vectors."""
    game = compile_game(dict(GAMES)[game_id], game_id, printing)
    return game, game_vectors(game)


def compile_game(folder: Path, game_id: str, printing: Printing = AS_CORRECTED) -> model.Game:
    comp = load([folder], printing)
    return comp.project.games[game_id]


def write_game(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("game_id", "folder"), GAMES, ids=[g for g, _ in GAMES])
def test_the_engine_gives_the_python_engines_answers(js: JsEngine, game_id: str, folder: Path) -> None:
    game, vectors = compiled(game_id)
    compared, found = js.disagreements(game, game_id, vectors)
    assert found == [] and compared > 0
    if any(c.errata for c in game.charts):
        _, found = js.printed_disagreements(game, compiled(game_id, AS_PRINTED)[0], game_id)
        assert found == []


def test_every_case_and_reading_is_compared(js: JsEngine) -> None:
    # every vector case of every roll chart with its natural rolls, its cases with a variable left
    # out, each typed roll, each odds reading; crtlab's odds rules read 14 attacks x 6 defenses
    # (crt_diff), 14 strengths (fire_strength) and 14 x 6 x 4 shifts (crt_odds, field_odds: `shift
    # after clamp`): 770 readings; IA2 7.1.6 firepower_column reads 14 strengths
    for game_id, readings in [("ia2", 14), ("crtlab", 770)]:
        game, vectors = compiled(game_id)
        wanted = sum(len(e["readings"]) for e in vectors["odds"])
        assert wanted == readings
        for entry in vectors["charts"]:
            chart = game.chart(entry["chart"])
            assert chart is not None
            cases = entry["cases"] + unknown_cases(game, chart, entry["cases"])
            wanted += sum(1 + len(c["rolls"]) for c in cases) + len(typed_rolls(chart))
        assert js.disagreements(game, game_id, vectors) == (wanted, [])
    # the as-printed view of the IA2 charts whose rows the errata move (R4 7.1.10, 7.8.7, 7.9.3)
    printed, found = js.printed_disagreements(compiled("ia2")[0], compiled("ia2", AS_PRINTED)[0], "ia2")
    assert found == [] and printed > 400


def test_a_typed_roll_is_read_as_lookup_reads_it(js: JsEngine, tmp_path: Path) -> None:
    # `chartc lookup t/two_d10 0` refuses (2d10 rolls 2-20) and `t/vs10 0` reads the tie: the page
    # read a typed 0 on any d10 as 10, so it took 0 on 2d10 as a 10 and refused a tie on 1d10 versus 1d10
    game = compile_game(write_game(tmp_path / "t", {"a.chart": EVERY_DICE}), "t")
    compared, found = js.disagreements(game, "t")
    assert found == [] and compared > 0
    reads = [("two_d10", "0", None), ("vs10", "0", 0), ("d10", "0", 10), ("d10z", "0", 0), ("pct", "00", 100),
             ("pct", "0", None), ("d6", "01", 1), ("flak", "-0", None), ("flak", "2", 2),  # flak: the d6
             ("boom", "6", None), ("boom", "12", None), ("boom", "18", 18), ("keep", "0", None),
             ("lt", "7,3", 37), ("lt", "3 7", 37), ("lt", "73", None), ("lt", "00", 100), ("lt", "0,0", 100)]
    for address, typed, natural in reads:
        assert js.read_roll(game, address, typed) == natural, (address, typed)


OVERLAP = """game t { title "T" }
chart [M] "M" {
  roll 1d6
  column r: text "R"
  rows {
    1-3: "low"
    3-6: "high"
  }
}
errata fix "Fix" {
  amend [M] {
    remove 1-3 because "the print overlaps 3-6"
    add 1-2: "low" because "as meant"
  }
}
"""


def test_a_removed_row_is_read_where_it_was_printed(js: JsEngine, tmp_path: Path) -> None:
    # as printed, 1-3 comes first and holds a 3 (`chartc lookup --as-printed t/M 3`: low); the page
    # listed the rows an errata removed after the others, and read 3 on 3-6
    folder = write_game(tmp_path / "t", {"a.chart": OVERLAP})
    game, printed = compile_game(folder, "t"), compile_game(folder, "t", AS_PRINTED)
    compared, found = js.printed_disagreements(game, printed, "t")
    assert found == [] and compared == 7
    assert js.printed_row(game, "M", 3) == ["1-3", False, ["low"]]
    assert js.printed_row(game, "M", 4) == ["3-6", False, ["high"]]


NEGATIVE = """game t { title "T" }
chart [V] "V" {
  roll 1d6 versus 1d6
  column r: text "R"
  rows {
    -5--2: "lose"
    -2-1: "hold"
    2+: "win"
  }
}
errata fix "Fix" {
  amend [V] {
    move -5--2 to -5--3 because "the print overlaps -2-1"
  }
}
"""


def test_a_printed_range_below_zero_is_read(js: JsEngine, tmp_path: Path) -> None:
    # IA2 7.2.2.7's opposed roll, 1d6 versus 1d6, printed `-5--2`: the page read no bounds from a
    # range ending below zero, so as printed every roll read `-5--2`; read as printed, a 2 is `win`
    folder = write_game(tmp_path / "t", {"a.chart": NEGATIVE})
    game = compile_game(folder, "t")
    chart = game.chart("V")
    assert chart is not None
    bounds = [printed_bounds(chart, t) for t in ("-5--2", "-2-1", "-3-", "-1")]
    assert bounds == [(-5, -2), (-2, 1), (None, -3), (-1, -1)]
    assert js.printed_row(game, "V", -2) == ["-5--2", False, ["lose"]]
    assert js.printed_row(game, "V", 2) == ["2+", False, ["win"]]
    compared, found = js.printed_disagreements(game, compile_game(folder, "t", AS_PRINTED), "t")
    assert found == [] and compared == 12


DERIVED = """game t { title "T" }
chart base "Base" {
  roll 1d10
  zero reads 10
  column r: text "R"
  rows {
    1-3: "miss"
    3-0: "hit"
  }
}
chart plus "Base, bands +1" { derive from base bands +1 }
errata fix "Fix" { amend base { move 1-3 to 1-2 because "the print overlaps 3-0" } }
"""


def test_a_derived_chart_as_printed_is_derived_from_the_print(js: JsEngine, tmp_path: Path) -> None:
    # aa_rules IL-2's pattern (a chart derived by moving another's bands) on a base an errata moves:
    # as printed, `plus` is `base` as printed moved +1, so its first row reads 1-4; the derived rows
    # carried the base's printed range (`1-3`) into the JSON and the page, so a 4 read `hit`
    folder = write_game(tmp_path / "t", {"a.chart": DERIVED})
    game = compile_game(folder, "t")
    plus = game.chart("plus")
    assert plus is not None
    ranges = [(r.range.printed if r.range else None, r.printed_range) for r in plus.rows]
    assert ranges == [("1-3", "1-4"), ("4-0", None)]
    assert js.printed_row(game, "plus", 4) == ["1-4", False, ["miss"]]
    compared, found = js.printed_disagreements(game, compile_game(folder, "t", AS_PRINTED), "t")
    assert found == [] and compared == 2 * 11


ALTERNATIVE = """game t { title "T" }
context vet: flag "Veteran"
context aimed: flag "Aimed"
chart [M] "M" {
  roll percentile when vet
  roll 1d6
  column r: text "R"
  drm aim "Aimed" +1 when aimed
  rows {
    3-: "low"
    4-50: "mid"
    51+: "high"
  }
}
"""


def test_a_drm_on_a_percentile_alternative_has_no_answer(js: JsEngine, tmp_path: Path) -> None:
    # a DRM on a roll read digit by digit, without `drm_meaning`, has no answer (C413): also when
    # that roll is a `roll ... when` alternative. The vectors refused it only on the chart's own
    # dice, so they answered a veteran's aimed 37 as 38; `chartc odds` and the page refuse it
    game = compile_game(write_game(tmp_path / "t", {"a.chart": ALTERNATIVE}), "t")
    [entry] = game_vectors(game)["charts"]  # type: ignore[index]
    drms = {(c["context"]["vet"], c["context"]["aimed"]): c["drm"] for c in entry["cases"]}
    assert drms == {(False, False): 0, (False, True): 1, (True, False): 0, (True, True): None}
    compared, found = js.disagreements(game, "t")
    assert found == [] and compared > 0


# ---- the comparison catches a wrong engine --------------------------------------------------------


def _tampered(name: str, old: str, new: str) -> JsEngine:
    """An engine whose function `name` has `old` replaced by `new` (redefined in its context)."""
    engine = JsEngine()
    source = ENGINE.read_text(encoding="utf-8")
    start = source.index(f"function {name}(")
    end = source.index("\nfunction ", start + 1)
    body = source[start:end]
    assert old in body
    engine.context.eval(body.replace(old, new))
    return engine


@pytest.fixture(scope="module")
def ia2() -> model.Game:
    return compiled("ia2")[0]


def test_a_wrong_modified_roll_is_caught(ia2: model.Game) -> None:
    engine = _tampered("rollSteps", "roll += drm;", "roll += drm + (natural === 2 ? 1 : 0);")
    _, found = engine.disagreements(ia2, "ia2", compiled("ia2")[1])
    assert any(f.startswith("ia2, chart R4, ") and "rolls: JS [[1, 1, 0], [2, 3, 1]" in f for f in found)


@pytest.fixture(scope="module")
def modifier_forms(tmp_path_factory: pytest.TempPathFactory) -> model.Game:
    folder = write_game(tmp_path_factory.mktemp("forms") / "t", {"a.chart": MODIFIER_FORMS.read_text(encoding="utf-8")})
    return compile_game(folder, "t")


def test_a_wrong_per_n_step_is_caught(modifier_forms: model.Game) -> None:
    # tests/data/modifier_forms.chart F1, IA2 7.9.3: -1 per 10 kills, fractions dropped; read rounded up
    engine = _tampered("steps", 'per.rounding === "up"', 'per.rounding === "up" || per.rounding === "down"')
    _, found = engine.disagreements(modifier_forms, "t")
    assert any(f.startswith("t, chart F1, ") and "drm: JS " in f for f in found)


def test_a_wrong_group_choice_is_caught(modifier_forms: model.Game) -> None:
    # F2's `worst` group: the highest member kept instead of the lowest
    engine = _tampered("evaluate", '"worst" && a.value < pick.value', '"worst" && a.value > pick.value')
    _, found = engine.disagreements(modifier_forms, "t")
    assert any(f.startswith("t, chart F2, ") for f in found)


def test_a_wrong_odds_column_is_caught() -> None:
    # crtlab 7.1 and 10.2: column shifts after the table's edge; moved the wrong way
    engine = _tampered("oddsRead", "Math.min(last, index + shift)", "Math.min(last, index - shift)")
    crtlab, vectors = compiled("crtlab")
    _, found = engine.disagreements(crtlab, "crtlab", vectors)
    assert any(re.match(r"crtlab, odds rule \w+, \{'attack': \d+, 'defense': \d+, 'shift': -2\}: JS", f) for f in found)


def test_a_wrong_overlay_is_caught() -> None:
    # overlaylab M1 (issue 32): the bad-weather band 2-4 read after the chart's rows, not before
    engine = _tampered("overlayRows", "const on = holds(o.when, ctx) === true;", "const on = false;")
    overlaylab, vectors = compiled("overlaylab")
    _, found = engine.disagreements(overlaylab, "overlaylab", vectors)
    assert any(f.startswith("overlaylab, chart M1, ") and "'weather': 'bad'" in f for f in found)


def test_an_exception_in_the_engine_is_caught(ia2: model.Game) -> None:
    boom = 'const kept = new Set(); if (ctx.fb_attack) { throw new Error("boom"); }'
    engine = _tampered("evaluate", "const kept = new Set();", boom)
    _, found = engine.disagreements(ia2, "ia2", compiled("ia2")[1])
    assert any(f.startswith("ia2, chart R4, ") and "JS exception: Error: boom" in f for f in found)


def test_the_as_printed_order_is_checked(tmp_path: Path) -> None:
    folder = write_game(tmp_path / "t", {"a.chart": OVERLAP})
    engine = _tampered("tableRows", "if (chart.errata.removed_rows.length) { out.sort((a, b) => a.at - b.at); }", "")
    _, found = engine.printed_disagreements(compile_game(folder, "t"), compile_game(folder, "t", AS_PRINTED), "t")
    assert [f.split(":")[0] for f in found] == ["t, chart M as printed, keys {}, context {}"]


# ---- the engine is the page's ----------------------------------------------------------------------


def test_the_page_carries_the_engine_file(ia2: model.Game) -> None:
    page = emit_game_html(ia2)
    assert ENGINE.read_text(encoding="utf-8") in page


def test_the_engine_reads_no_page_and_draws_nothing() -> None:
    # what runs in a bare V8 and in the page alike: no DOM, no clock, no randomness (the Roll
    # button's die throw stays in the page)
    source = ENGINE.read_text(encoding="utf-8")
    for word in ("document", "window", "location", "history", "crypto", "Math.random", "Date", "fetch"):
        assert not re.search(rf"\b{re.escape(word)}\b", source), word
    assert not re.search(r"\{\{|\{%|\{#", source)  # the page template includes it as a template


# ---- generated games ---------------------------------------------------------------------------------


def run_games(generate: Callable[[int, str], dict[str, str]], seeds: range, tmp_path: Path) -> tuple[int, list[str]]:
    """Every game of `seeds` compiled (it must check without errors) and compared in one V8 context,
    with its as-printed view when it has errata."""
    engine = JsEngine()
    compared = 0
    found: list[str] = []
    for seed in seeds:
        folder = write_game(tmp_path / str(seed) / "g", generate(seed, "g"))
        comp = load([folder])
        errors = [d for d in comp.diagnostics if d.severity.value == "error"]
        if errors:
            found.append(f"seed {seed}: the game has errors: {errors[0].code} {errors[0].message}")
            continue
        game = comp.project.games["g"]
        try:
            n, more = engine.disagreements(game, f"seed {seed}")
            if any(c.errata for c in game.charts):
                m, printed = engine.printed_disagreements(game, compile_game(folder, "g", AS_PRINTED), f"seed {seed}")
                n, more = n + m, more + printed
        except Exception as exc:  # the Python side raised: a finding, with its seed
            more = [f"seed {seed}: raised {type(exc).__name__}: {exc}"]
            n = 0
        compared += n
        found += more
    return compared, found


# seeds whose games hold between them errata, a CRT, alternatives, per-N DRMs, groups, natural rows
# and a modified-roll cap (the slow run takes 300 games)
@pytest.mark.parametrize("seed", [0, 4, 7])
def test_generated_roll_games_check_clean_and_agree(seed: int, tmp_path: Path) -> None:
    compared, found = run_games(gamegen_rolls.generate, range(seed, seed + 1), tmp_path)
    assert found == [] and compared > 0


def test_the_roll_generator_uses_every_construct() -> None:
    text = "\n".join(t for seed in range(80) for t in gamegen_rolls.generate(seed).values())
    constructs = [
        *(f"roll {d.text}\n" for d in gamegen_rolls.ROLLS),
        "zero reads 0", " when ", " per ", " round up", " round nearest", " round down",
        "drm_group", " best {", " worst {", " one {", "column drm by", "combine sum clamp",
        "modified clamp", " natural:", "form differential", "form strength", "between columns",
        "attacker_high round", "beyond error", "beyond clamp", "shift before clamp", "shift after clamp",
        "shift_group", "column shift by", "shift_cap", "remove ", "add ", "move ", 'drm_meaning "',
    ]
    assert [c for c in constructs if c not in text] == []


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(10))
def test_a_thousand_generated_games_agree(batch: int, tmp_path: Path) -> None:
    compared, found = run_games(gamegen.generate, range(100 * batch, 100 * (batch + 1)), tmp_path)
    assert found == [], "\n".join(found[:20])
    assert compared > 0


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(3))
def test_generated_roll_games_agree(batch: int, tmp_path: Path) -> None:
    compared, found = run_games(gamegen_rolls.generate, range(100 * batch, 100 * (batch + 1)), tmp_path)
    assert found == [], "\n".join(found[:20])
    assert compared > 0
