"""Regressions from the hostile pass (issue 11) in the emitted files: sizes and times that grew
faster than the input, and hidden characters that reached the HTML raw."""

from __future__ import annotations

import json
from pathlib import Path

from compiler import model
from compiler.build.render import render_outputs
from compiler.build.validate import validate_json
from compiler.emit.html.aid import play_order
from compiler.emit.json import INDENTED_LEVELS
from dsl.aid_order import read_order
from tests.conftest import compile_text

HEADER = 'game t { title "T" }\ncontext fb: flag\n'


def _nested_condition(depth: int, leaves: int) -> str:
    return "not (" * depth + " or ".join(["fb"] * leaves) + ")" * depth


def test_deeply_nested_conditions_write_json_linear_in_the_input(tmp_path: Path) -> None:
    # a 6 MB chart of nested conditions wrote a 508 MB JSON file: every line of a condition nested
    # 45 deep was indented by ~200 spaces
    cond = _nested_condition(45, 2000)
    chart = f'chart [R1] "X" {{ roll 1d6 column r: text drm d +1 when {cond} rows {{ 1-6: "a" }} }}\n'
    comp = compile_text(tmp_path, HEADER + chart)
    assert not comp.has_errors, comp.diagnostics
    text = render_outputs(comp.project)["t/t.json"]
    validate_json(text)
    assert len(text) < 10 * len(chart) + 20_000  # was 130 bytes of JSON per source byte
    drm = json.loads(text)["charts"][0]["drms"][0]
    when = drm["when"]
    for _ in range(45):
        assert when["op"] == "not"
        when = when["of"]
    assert when["op"] == "any" and len(when["of"]) == 2000 and when["of"][0] == {"op": "flag", "var": "fb"}
    deepest = max(len(line) - len(line.lstrip(" ")) for line in text.split("\n"))
    assert deepest <= 2 * INDENTED_LEVELS


def test_shallow_json_is_indented_as_before(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path, HEADER + 'chart [R1] "X" { roll 1d6 column r: text drm d +1 when not (fb) rows { 1-6: "a" } }\n'
    )
    text = render_outputs(comp.project)["t/t.json"]
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


class _StandInChart:
    """A chart carrying only what the player aid's ordering reads, counting how often it is compared."""

    comparisons = 0

    def __init__(self, i: int) -> None:
        self.chart_id, self.slug, self.rule, self.kind = f"R{i}", None, f"7.{i}", "roll"

    def __eq__(self, other: object) -> bool:
        _StandInChart.comparisons += 1
        return self is other

    __hash__ = object.__hash__


def _stand_in_game(count: int) -> model.Game:
    charts = [_StandInChart(i) for i in range(count)]
    return model.Game(id="t", title="T", source=None, calendar=None, periods=(), enums={}, context={}, charts=charts)  # type: ignore[arg-type]


def test_aid_order_is_linear_in_the_number_of_charts() -> None:
    # a 574 KB aid.order took 75 s: every line scanned the game's charts and the charts listed so
    # far, comparing charts pairwise; the ordering now finds each line's chart by its address
    game = _stand_in_game(20_000)
    order = read_order("".join(f"== Step {i}\nR{i}\n" if i % 2 else f"r{i}\n" for i in reversed(range(20_000))), "t")
    _StandInChart.comparisons = 0
    groups = play_order(game, order)
    assert _StandInChart.comparisons == 0
    assert len(groups) == 10_000
    assert (groups[0].heading, [c.chart_id for c in groups[0].charts]) == ("Step 19999", ["R19999", "R19998"])
    assert [c.chart_id for c in groups[-1].charts] == ["R1", "R0"]  # `r0` found by its case-folded ID


def test_html_shows_bidi_marks_and_line_separators(tmp_path: Path) -> None:
    # LRM/RLM and U+2028/U+2029 reached the player aid raw (bidi overrides were already marked)
    hidden = "\u200e\u200f\u2028\u2029\u061c"
    literal = "".join(f"\\u{ord(ch):04x}" for ch in hidden)
    comp = compile_text(
        tmp_path, HEADER + f'chart [R1] "Title{literal}" {{ roll 1d6 column r: text rows {{ 1-6: "a{literal}b" }} }}\n'
    )
    html = render_outputs(comp.project)["t/t.html"]
    assert not any(ch in html for ch in hidden)
    assert "a[U+200E][U+200F][U+2028][U+2029][U+061C]b" in html
