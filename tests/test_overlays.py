"""Overlays (issue 32): a band of rows printed over a table that applies only in some condition
("in bad weather, 2-4 is Aborted instead of the rows below"), in the test game
tests/data/charts/overlaylab, read by every reader of a roll: lookup, odds, the JSON, the module."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.validate import validate_json
from compiler.cli import cli
from compiler.emit.json import emit_game_json
from compiler.emit.python.module import emit_game_python
from compiler.engine.chances import chances
from compiler.engine.lookup import lookup
from compiler.engine.overlays import chart_in, each_overlay
from compiler.model import MemberId
from tests.conftest import ROOT, codes, compile_text, import_module

LAB = ROOT / "tests" / "data" / "charts"


def _game():
    return load([LAB / "overlaylab"]).project.games["overlaylab"]


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--charts", str(LAB)])
    assert result.exit_code == 0, result.output
    return result.output


def _exact(chart, combo=(), drm=0) -> dict[str, Fraction]:
    found = chances(chart, combo, drm)
    return {r.row.range.printed + " " + str(r.row.values[0]): r.probability for r in found.rows}


def test_the_overlay_takes_over_its_band_only_while_its_condition_holds() -> None:
    # overlaylab M1, 2d6: in bad weather 2-4 is Aborted, over 2-3 Turned back and 4 of 4-9 Bombing run
    chart = _game().chart("M1")
    assert _exact(chart) == {"2-3 Turned back": Fraction(3, 36), "4-9 Bombing run": Fraction(27, 36),
                             "10+ On target": Fraction(6, 36)}
    bad = chart_in(chart, {"weather": MemberId("bad")})
    assert _exact(bad) == {"2-4 Aborted": Fraction(6, 36), "2-3 Turned back": 0, "4-9 Bombing run": Fraction(24, 36),
                           "10+ On target": Fraction(6, 36)}
    # escorted (+1) in bad weather: modified 3-4 (natural 2-3) is Aborted, 5-9 (natural 4-8) Bombing run
    assert _exact(bad, drm=1) == {"2-4 Aborted": Fraction(3, 36), "2-3 Turned back": 0,
                                  "4-9 Bombing run": Fraction(23, 36), "10+ On target": Fraction(10, 36)}
    # clear weather, or the weather not given (unknown, as for a DRM): the chart's own rows
    assert chart_in(chart, {"weather": MemberId("clear")}) is chart
    assert chart_in(chart, {"weather": None}) is chart and chart_in(chart, None) is chart


def test_lookup_and_odds_read_the_overlay_in_its_context() -> None:
    chart = _game().chart("M1")
    assert lookup(chart, "3", {}, 0, {"weather": MemberId("bad")}).row.values == ("Aborted",)
    assert lookup(chart, "3", {}, 0, {"weather": MemberId("clear")}).row.values == ("Turned back",)
    assert lookup(chart, "3", {}, 0).overlay is None
    found = lookup(chart, "4", {}, 0, {"weather": MemberId("bad")})
    assert found.overlay is not None and found.overlay.id == "bad_weather"
    text = _run("lookup", "overlaylab/M1", "4", "--set", "weather=bad")
    assert "roll 4 -> row 2-4" in text and "overlay: In bad weather" in text and "Result: Aborted" in text
    odds = _run("odds", "overlaylab/M1", "--set", "weather=bad", "--when", "escort")
    assert "2-4   1/12 (8.3%)    Aborted" in odds and "10+   5/18 (27.8%)   On target" in odds
    # M2: the night band is keyed like its chart: airfield 1-2 and port 1 are Missed
    strike = _game().chart("M2")
    night = chart_in(strike, {"night": True})
    assert _exact(night, ("airfield",))["1-2 Missed"] == Fraction(1, 3)
    assert _exact(night, ("port",))["1 Missed"] == Fraction(1, 6)
    assert _exact(night, ("port",))["1-3 Light damage"] == Fraction(1, 3)


def test_the_json_holds_each_overlay_with_its_chances() -> None:
    game = _game()
    text = emit_game_json(game)
    validate_json(text)
    m1 = next(c for c in json.loads(text)["charts"] if c["address"] == "M1")
    (overlay,) = m1["overlays"]
    assert overlay["when"] == {"op": "==", "var": "weather", "value": "bad"}
    assert [r["range"] for r in overlay["rows"]] == [{"printed": "2-4", "min": 2, "max": 4, "open": None}]
    chances_ = overlay["chances"]
    assert chances_["drms"] == [0, 1]
    # at DRM 0 and +1, rows counted overlay first: Aborted, Turned back, Bombing run, On target
    assert [[p["exact"] for p in d["rows"]] for d in chances_["distributions"]] == [
        ["1/6", "0/1", "2/3", "1/6"], ["1/12", "0/1", "23/36", "5/18"]]
    assert len(each_overlay(game.chart("M1"))) == 1


def test_the_module_reads_every_roll_as_chartc_does(tmp_path) -> None:
    # every natural roll x DRM x context of both charts: the generated lookup and chartc's agree
    game = _game()
    path = tmp_path / "overlaylab_mod.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    mod = import_module(path, "overlaylab_mod")
    m1 = game.chart("M1")
    for natural, drm, weather in itertools.product(range(2, 13), (0, 1), ("clear", "bad", None)):
        context = {"weather": MemberId(weather) if weather else None}
        expected = lookup(m1, str(natural), {}, drm, context).row.values[0]
        assert mod.lookup_m1(natural, drm=drm, weather=weather)["result"] == expected, (natural, drm, weather)
    m2 = game.chart("M2")
    for natural, target, night in itertools.product(range(1, 7), ("port", "airfield"), (False, True)):
        row = lookup(m2, str(natural), {"target": target}, 0, {"night": night}).row
        got = mod.lookup_m2(natural, target=target, night=night)
        assert (got["result"], got["points"]) == row.values, (natural, target, night)
    assert mod.lookup_m2(2, target="airfield", night=True) == {"result": "Missed", "points": 0}


_CHART = """game t {{ title "Test game" }}
context night: flag "Night mission"
chart [S1] "Strike" {{
  roll 1d6
  column result: text "Result"
  column points: int "Points"
  overlay night "At night" when night {{
    {overlay}
  }}
  rows {{
    {rows}
  }}
}}
"""


def test_an_overlays_rows_are_read_as_the_charts(tmp_path) -> None:
    # its cells against the chart's columns (C403 for a missing one, C402 for text in an int column)
    short = compile_text(tmp_path / "a", _CHART.format(overlay='1: "Missed"', rows='1-6: "Hit", 1'))
    assert "C403" in codes(short)
    typed = compile_text(tmp_path / "b", _CHART.format(overlay='1: "Missed", "none"', rows='1-6: "Hit", 1'))
    assert "C402" in codes(typed)
    natural = compile_text(tmp_path / "c", _CHART.format(overlay='1 natural: "Missed", 0', rows='1-6: "Hit", 1'))
    assert "C403" in codes(natural)
    both = _CHART.format(overlay='1: "Missed", 0', rows='1 natural: "Jam", 0\n 2-6: "Hit", 1')
    mixed = compile_text(tmp_path / "d", both)  # which is read first, the natural row or the overlay?
    assert "C404" in codes(mixed)
    fine = compile_text(tmp_path / "e", _CHART.format(overlay='1: "Missed", 0', rows='1-6: "Hit", 1'))
    assert fine.diagnostics == []


_KEYED = """game t { title "Test game" }
enum target "Target" {
  port "Port"
  airfield "Airfield"
}
enum weather "Weather" {
  clear "Clear"
  bad "Bad"
}
context weather: weather "Weather"
chart [S2] "Strike" {
  roll 1d6
  key target
  column result: text "Result"
  overlay "Over the airfield or in bad weather" when target == airfield or weather == bad {
    * 1-2: "Missed"
  }
  rows {
    * 1-3: "Light damage"
    * 4-6: "Heavy damage"
  }
}
"""


def test_the_module_reads_an_overlay_on_a_key_with_its_variable_unknown(tmp_path) -> None:
    # `target == airfield or weather == bad` holds over the airfield with the weather unknown: the
    # module's step for unknown variables is skipped only where no key is tested
    game = compile_text(tmp_path, _KEYED).project.games["t"]
    path = tmp_path / "keyed_mod.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    mod = import_module(path, "overlay_keyed_mod")
    chart = game.chart("S2")
    for natural, target, weather in itertools.product(range(1, 7), ("port", "airfield"), ("clear", "bad", None)):
        context = {"weather": MemberId(weather) if weather else None}
        expected = lookup(chart, str(natural), {"target": target}, 0, context).row.values[0]
        assert mod.lookup_s2(natural, target=target, weather=weather)["result"] == expected, (natural, target, weather)
    assert mod.lookup_s2(1, target="airfield")["result"] == "Missed"
    assert mod.lookup_s2(1, target="port")["result"] == "Light damage"
