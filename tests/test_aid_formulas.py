"""Formulas in the player aid (issue 34): each computed value printed after the aid's charts with its
rule, its result in the player's words and its inputs; on screen a calculator per formula. The page's
engine (`formulaValue` in engine.js) is held to the Python engine (`compiler.engine.formulas.evaluate`)
on every formula of the corpus in a bare V8, and the calculator is driven by keyboard in Chromium.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compiler import model
from compiler.build.render import render_outputs
from compiler.emit.html.formulas import formula_view, words
from compiler.emit.html.interactive import live_data
from compiler.engine.formulas import FormulaProblem, evaluate
from compiler.engine.formulas import inputs as formula_inputs
from tests.conftest import compile_text
from tests.test_aid_live import IA2_HTML, _open, _watched_page

GAMES = ("ia2", "stuka_leader", "usaaf", "aa_rules")


def _values(var: model.ContextVar) -> list[Any]:
    """The values of an input tried: a flag both ways; an int at its ends, next to them and in the
    middle (an open end: 7 and 40 past the other)."""
    if var.type is model.ContextType.FLAG:
        return [False, True]
    assert var.type is model.ContextType.INT
    low = var.low if isinstance(var.low, int) else None
    high = var.high if isinstance(var.high, int) else None
    start = low if low is not None else (high - 40 if high is not None else 0)
    end = high if high is not None else start + 40
    tried = {start, start + 1, (start + end) // 2, end - 1, end, min(end, start + 7)}
    return sorted(v for v in tried if start <= v <= end)


def _contexts(game: model.Game, formula: model.Formula) -> list[dict[str, Any]]:
    names = [v for v in formula_inputs(game, formula) if v in game.context]
    grids = [_values(game.context[v]) for v in names]
    every = list(itertools.product(*grids))
    step = max(1, len(every) // 400)  # at most about 400 contexts a formula, the ends always among them
    return [dict(zip(names, values, strict=True)) for values in every[::step] + every[-1:]]


_DRIVER = """
function chartcFormulas(dataText, casesText) {
  const data = JSON.parse(dataText);
  return JSON.stringify(JSON.parse(casesText).map(([id, ctx]) => formulaValue(data.formulas, id, ctx)));
}
"""


@pytest.fixture(scope="module")
def v8() -> Any:
    from tests.aid_engine import JsEngine

    engine = JsEngine()
    engine.context.eval(_DRIVER)
    return engine.context


@pytest.mark.parametrize("game_id", GAMES)
def test_the_pages_engine_computes_every_formula_as_chartc_compute(v8: Any, corpus, game_id: str) -> None:
    game = corpus.project.games[game_id]
    cases = [(f.id, ctx) for f in game.formulas for ctx in _contexts(game, f)]
    got = json.loads(v8.call("chartcFormulas", live_data(game), json.dumps(cases)))
    compared: set[str] = set()
    for (formula_id, ctx), js in zip(cases, got, strict=True):
        formula = game.formula(formula_id)
        assert formula is not None
        try:
            wanted: dict[str, Any] = {"value": evaluate(game, formula, ctx)}
        except FormulaProblem:  # a `requires` that does not hold: the page names the formula's rule
            assert set(js) == {"requires", "applies"}, (formula_id, ctx, js)
            continue
        assert js == wanted, (formula_id, ctx)
        compared.add(formula_id)
    assert compared == {f.id for f in game.formulas}  # each formula has a value somewhere


def test_a_wrong_formula_value_would_be_caught(v8: Any, tmp_path: Path) -> None:
    # the comparison above fails on an engine that reads `round` as `floor` (USAAF has no round, a
    # made-up game has): 5/2 is 3 rounded half up
    text = (
        'game t { title "T" }\ncontext n: int "N" 0-9\n'
        'formula half "Half, rounded" { rule "1" result round(n / 2) }\n'
    )
    game = compile_text(tmp_path, text).project.games["t"]
    half = game.formula("half")
    assert half is not None and evaluate(game, half, {"n": 5}) == 3
    got = json.loads(v8.call("chartcFormulas", live_data(game), json.dumps([["half", {"n": 5}]])))
    assert got == [{"value": 3}]
    broken = live_data(game).replace('"call":"round"', '"call":"floor"')
    assert json.loads(v8.call("chartcFormulas", broken, json.dumps([["half", {"n": 5}]]))) == [{"value": 2}]


def test_ia2_formulas_print_in_the_players_words(corpus) -> None:
    game = corpus.project.games["ia2"]
    formula = game.formula("experience_points")
    assert formula is not None
    view = formula_view(game, formula)
    # IA2 7.7: one Experience Point per 4 sorties, per 3 when led by a pilot with Leadership
    assert view.result == (
        "if another crewman or the wingman of a pilot with Leadership: sorties flown \u00f7 3, rounded down;"
        " otherwise sorties flown \u00f7 4, rounded down"
    )
    assert [(i.label, i.values) for i in view.inputs] == [
        ("another crewman or the wingman of a pilot with Leadership", "yes or no"),
        ("sorties flown (not those skipped for injury, repair, a raid out of range or any other reason)", "0 to 300"),
    ]
    # IA2 5.2.1: victory points; 7.2.2.7: a position held to 1..5
    points = game.formula("victory_point_total")
    position = game.formula("position_after")
    assert points is not None and position is not None
    assert words(game, points.expr) == (
        "fighter destructions + 3 \u00d7 bomber destructions + 2 \u00d7 separations of bombers not destroyed"
        " + final destructions"
    )
    assert words(game, position.expr) == "the greater of 1 and (the lesser of 5 and your position + positions you gain)"
    html = IA2_HTML.read_text(encoding="utf-8")
    block = html[html.index('<div class="rule-limits rule-formulas" id="formulas">') :]
    block = block[: block.index("</div>")]
    entries = re.findall(r'<li id="(formula-[a-z0-9-]+)">(.*?)</li>', block)
    assert len(entries) == len(game.formulas) == 10
    # no name chartc reads reaches the paper: no `_`, no formula id
    text = re.sub(r"<[^>]+>", "", block)
    assert "_" not in text and not any(f.id in text for f in game.formulas if "_" in f.id)
    assert "<strong>Points</strong> <span class=\"cite\">(rule 5.2.1)</span> = fighter destructions + 3" in block


def test_a_requires_prints_where_the_formula_applies(tmp_path: Path) -> None:
    # Stuka Leader Debriefing 26: a Pilot is promoted only when his Experience reaches the number
    text = (
        'game t { title "T" }\ncontext xp: int "Experience points" 0-99\n'
        'context promotion_number: int "Promotion number" 1-99\n'
        'chart [A] "Attack" { roll 1d6 column r: text rows { 1-3: "miss"  4-6: "hit" } }\n'
        'formula kept "Experience points kept after a Promotion" { rule "Debriefing 26"\n'
        "  result xp - promotion_number requires xp >= promotion_number domain 0+ }\n"
    )
    html = render_outputs(compile_text(tmp_path, text).project)["t/t.html"]
    assert (
        "<strong>Experience points kept after a Promotion</strong> <span class=\"cite\">(rule Debriefing 26)</span>"
        " = Experience points \u2212 Promotion number. Only where Experience points \u2265 Promotion number."
        " <i>Inputs:</i> Experience points, 0 to 99; Promotion number, 1 to 99.</li>"
    ) in html


# ---- the calculator in Chromium ------------------------------------------------------------------


@pytest.fixture(scope="module")
def ia2(browser: Any) -> Iterator[Any]:
    for opened in _watched_page(browser):
        _open(opened, IA2_HTML)
        yield opened


def test_a_formula_is_computed_by_keyboard_and_announced(ia2: Any, corpus) -> None:
    # IA2 7.7: 10 sorties flown give 2 Experience Points; led by a pilot with Leadership, 3
    from tests.test_aid_access import _FOCUS_BEFORE, _tab_to, live_region, panel_css

    game = corpus.project.games["ia2"]
    formula = game.formula("experience_points")
    assert formula is not None
    address = "formula-experience-points"
    ia2.evaluate(_FOCUS_BEFORE, panel_css(address))
    assert _tab_to(ia2, address, "ctx.sorties_flown")
    ia2.keyboard.press("Control+a")
    ia2.keyboard.type("10")
    assert evaluate(game, formula, {"sorties_flown": 10}) == 2
    assert live_region(ia2, address) == "Experience Points gained = 2."
    assert _tab_to(ia2, address, "ctx.led_by_leadership", "Shift+Tab")
    ia2.keyboard.press("Space")
    assert evaluate(game, formula, {"sorties_flown": 10, "led_by_leadership": True}) == 3
    assert live_region(ia2, address) == "Experience Points gained = 3."
    # a value outside the input's declared range gives no answer, as `chartc compute` refuses it
    assert _tab_to(ia2, address, "ctx.sorties_flown")
    ia2.keyboard.press("Control+a")
    ia2.keyboard.type("301")
    said = live_region(ia2, address) or ""
    assert said.startswith("No answer: sorties flown") and "301 is outside its declared range 0-300" in said
    # the position is in the URL, as a chart panel's
    assert "formula-experience-points.ctx.sorties_flown=301" in ia2.url
