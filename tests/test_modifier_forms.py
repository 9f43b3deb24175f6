"""The modifier forms end to end: per-N DRMs, exclusive groups, the cap on the modified roll,
natural-roll rows and DRMs on the chart's own keys, in the evaluator, reach, chances, lookup, the
JSON and the generated Python (tests/data/modifier_forms.chart)."""

from __future__ import annotations

import contextlib
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.emit.json import emit_game_json
from compiler.emit.python.module import emit_game_python
from compiler.engine.chances import chances, drm_totals
from compiler.engine.drms import evaluate
from compiler.engine.lookup import lookup
from tests.conftest import ROOT, compile_text
from tests.test_generated_python import call

FORMS = (ROOT / "tests" / "data" / "modifier_forms.chart").read_text(encoding="utf-8")
CONTEXTS = [
    {"terrain": t, "night": n, "kills": k, "skill": s, "cover": c}
    for t, n, k, s, c in itertools.product(
        ["clear", "woods", "town"], [False, True], range(41), range(4), ["clear", "woods", "town"]
    )
]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory):
    comp = compile_text(tmp_path_factory.mktemp("forms"), FORMS)
    assert [d.code for d in comp.diagnostics] == []
    return comp.project.games["t"]


def test_per_n_counts_whole_steps(game) -> None:
    # IA2 7.9.3: -1 per 10 kills (25 kills is 2 steps); 10.6.2: +1 per skill
    f1 = game.chart("F1")
    breakdown = evaluate(f1, {"terrain": "clear", "kills": 25, "skill": 2})
    assert [(a.drm.id, a.value, a.steps) for a in breakdown.items] == [("kills", -2, 2), ("skill", 2, 2)]
    assert breakdown.total == 0
    assert evaluate(f1, {"terrain": "clear", "kills": 9}).items == ()  # no whole step yet


def test_best_of_a_group_keeps_only_the_highest(game) -> None:
    f1 = game.chart("F1")
    # woods -1 and night -3 both apply: only the best (-1) counts
    breakdown = evaluate(f1, {"terrain": "woods", "night": True})
    assert [a.drm.id for a in breakdown.items] == ["woods"]
    assert breakdown.total == -1


def test_worst_of_a_group_keeps_only_the_lowest(game) -> None:
    f2 = game.chart("F2")
    assert evaluate(f2, {"night": True, "kills": 30}).total == 1  # night +1 and ace +2: the worst is +1
    assert evaluate(f2, {"night": False, "kills": 30}).total == 2


def test_reach_of_the_forms(game) -> None:
    # F1: kills 0..-4, skill 0..+3 unless night, terrain best of -1/-2 or -3 at night
    f1 = game.chart("F1")
    assert drm_totals(f1, ("clear",)) == sorted({evaluate(f1, c).total for c in CONTEXTS if c["terrain"] == "clear"})
    assert drm_totals(f1) == list(range(-7, 4))
    f2 = game.chart("F2")
    assert drm_totals(f2) == [-2, -1, 0, 1, 2]


def test_natural_rows_win_and_the_modified_roll_is_capped(game) -> None:
    f1 = game.chart("F1")
    assert lookup(f1, "1", {"terrain": "clear"}, 5).row.values == ("Automatic miss",)
    assert lookup(f1, "10", {"terrain": "clear"}, -7).row.values == ("Automatic hit",)
    capped = lookup(f1, "9", {"terrain": "clear"}, 3)
    assert (capped.modified, capped.row.values) == (10, ("Hit",))
    assert lookup(f1, "2", {"terrain": "clear"}, -4).modified == 1


def test_chances_count_natural_rows_first(game) -> None:
    # at DRM +3 on 1d10: natural 1 misses automatically, 2 reads 5 (miss), 3-10 hit
    f1 = game.chart("F1")
    result = chances(f1, ("clear",), 3)
    by_value = {ro.row.values[0]: ro.probability for ro in result.rows}
    assert by_value == {
        "Automatic miss": Fraction(1, 10),
        "Automatic hit": Fraction(1, 10),
        "Miss": Fraction(1, 10),
        "Hit": Fraction(7, 10),
    }
    assert result.no_row == 0
    # natural 7-10 read 10-13, capped to 10
    assert result.modified == {**{m: Fraction(1, 10) for m in range(4, 10)}, 10: Fraction(4, 10)}


def test_chances_agree_with_enumerating_the_die(game) -> None:
    f1 = game.chart("F1")
    for drm in range(-7, 4):
        counts: dict[str, int] = {}
        for natural in range(1, 11):
            result = lookup(f1, str(natural), {"terrain": "woods"}, drm).row.values[0]
            assert isinstance(result, str)
            counts[result] = counts.get(result, 0) + 1
        got = {ro.row.values[0]: ro.probability for ro in chances(f1, ("woods",), drm).rows if ro.probability}
        assert got == {k: Fraction(v, 10) for k, v in counts.items()}


def test_json_carries_the_forms(game) -> None:
    doc = json.loads(emit_game_json(game))
    f1 = next(c for c in doc["charts"] if c["address"] == "F1")
    assert f1["drms"][0]["per"] == {"var": "kills", "step": 10, "rounding": "down"}
    assert f1["drms"][2]["group"] == "ground" and f1["drms"][2]["when"]["key"] is True
    group = {"id": "ground", "label": "Terrain", "mode": "best", "members": ["woods", "town", "dark"]}
    assert f1["drm_groups"] == [group]
    # `modified clamp 1 to 10`: the roll's last steps, after the DRMs
    assert f1["pipeline"] == [{"step": "drms"}, {"step": "minimum", "amount": 1}, {"step": "maximum", "amount": 10}]
    assert [r.get("natural", False) for r in f1["rows"]] == [True, True, False, False]
    kills = next(v for v in doc["context"] if v["id"] == "kills")
    assert kills["range"] == {"min": 0, "max": 40}


def test_generated_python_agrees_with_the_evaluator(game, tmp_path: Path) -> None:
    path = tmp_path / "forms_module.py"
    path.write_text(emit_game_python(game), encoding="utf-8")
    sample = CONTEXTS[::37]
    f1 = [
        f"m.drm_f1(terrain={c['terrain']!r}, night={c['night']}, kills={c['kills']}, skill={c['skill']})"
        for c in sample
    ]
    f2 = [f"m.drm_f2(cover={c['cover']!r}, night={c['night']}, kills={c['kills']})" for c in sample]
    rolls = ["m.lookup_f1(1, terrain='clear', drm=5)", "m.lookup_f1(9, terrain='clear', drm=3)"]
    got = call(path, *f1, *f2, *rolls)
    want = [evaluate(game.chart("F1"), c).total for c in sample] + [evaluate(game.chart("F2"), c).total for c in sample]
    assert got[: len(want)] == want
    assert got[len(want) :] == [{"result": "Automatic miss"}, {"result": "Hit"}]


def test_the_aid_words_each_form_as_a_rulebook_would(tmp_path_factory: pytest.TempPathFactory) -> None:
    comp = compile_text(tmp_path_factory.mktemp("aid"), FORMS)
    html = render_outputs(comp.project)["t/t.html"]
    assert '<span class="per">per 10 Kills, fractions dropped</span>' in html
    assert "<p>Terrain: only the best of Woods -1, Town -2, Night -3 applies.</p>" in html
    assert "<p>Cover: only one of Woods -1, Town -2 can apply.</p>" in html
    assert "<p>Worst case: only the worst of Night +1, Ace +2 applies.</p>" in html
    assert "<p>The roll: 1d10, DRMs, minimum 1, maximum 10, in this order; the rows read the result.</p>" in html
    assert "<p>A natural 1 always reads: Automatic miss, whatever the DRMs.</p>" in html
    assert '<td class="r">natural 10</td>' in html


def test_odds_states_the_span_the_conditions_reach_for_the_keys(tmp_path: Path) -> None:
    # F1 in woods: kills -4..0, skill 0..+3 unless night, woods -1 (night -3 is never the best)
    compile_text(tmp_path, FORMS)
    with contextlib.chdir(tmp_path):
        r = CliRunner().invoke(cli, ["odds", "t/F1", "--key", "terrain=woods", "--drm", "3"])
    assert r.exit_code == 0, r.output
    assert "1d10, DRM +3 (declared DRMs reach -5 to +2; this DRM is outside that span)" in r.output
    assert "natural 1   1/10 (10%)  Automatic miss" in r.output
