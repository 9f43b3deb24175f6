"""The DRM evaluator (`compiler.engine.drms`): the breakdown and total of a chart's DRMs in a context."""

from __future__ import annotations

from pathlib import Path

from compiler import model
from compiler.engine.drms import evaluate, holds, modified_roll
from compiler.model.calendar import Month
from dsl.ast import Span
from tests.conftest import compile_text


def test_r4_fb_attack_adds_one(ia2) -> None:
    # IA2 R4 footnote 1: +1 drm when avoiding combat on an F/B Attack
    r4 = ia2.chart("R4")
    breakdown = evaluate(r4, {"fb_attack": True})
    assert [(a.drm.id, a.value) for a in breakdown.items] == [("fb_attack", 1)]
    assert breakdown.total == 1
    assert evaluate(r4, {}).items == ()
    assert evaluate(r4, {}).total == 0


def test_weather_b9_by_month(ia2) -> None:
    # IA2 6.1: +1 in November 1944 and January 1945, +2 in December 1944
    b9 = ia2.chart("B9")
    assert evaluate(b9, {"month": Month("1944-11")}).total == 1
    assert evaluate(b9, {"month": Month("1944-12")}).total == 2
    assert evaluate(b9, {"month": Month("1945-02")}).total == 0
    assert evaluate(b9, {}).total == 0  # month unknown: neither DRM is known to apply


def test_unknown_value_is_neither_true_nor_false() -> None:
    span = Span("t.chart", 1, 1, 1, 2)
    cond = model.Not(model.Compare("x", model.CompareOp.EQ, 1, span), span)
    assert holds(cond, {}) is None
    assert holds(cond, {"x": 2}) is True
    either = model.Any_((model.Flag("f", span), cond), span)
    assert holds(either, {"f": True}) is True


def test_clamp_caps_the_total_not_the_items(tmp_path: Path) -> None:
    comp = compile_text(
        tmp_path,
        'game t {}\ncontext a: flag\ncontext b: flag\n'
        'chart c "C" { roll 1d6 column r: text "R"\n'
        '  drm a "A" +2 when a\n  drm b "B" +3 when b\n  combine sum clamp -1 to +4\n'
        '  rows { 1-6: "x" } }\n',
    )
    chart = comp.project.games["t"].chart("c")
    breakdown = evaluate(chart, {"a": True, "b": True})
    assert [a.value for a in breakdown.items] == [2, 3]
    assert (breakdown.sum, breakdown.total, breakdown.clamped) == (5, 4, True)
    assert modified_roll(chart, 6, breakdown.total) == 10


def test_the_declared_span_counts_per_n_steps_as_the_runtime_does() -> None:
    # IA2 7.9.3 "-1 per 10 kills": the model counts steps for the declared DRM span (C415, reach's
    # bound) and the runtime for every lookup; both round down, up and to the nearest alike
    from compiler.engine.runtime import _Per, _per_steps

    span = Span("t.chart", 1, 1, 1, 2)
    for rounding in model.Rounding:
        per = model.PerStep("kills", 10, rounding, span, 0, 60)
        plain = _Per("kills", 10, str(rounding))
        assert [per.count(n) for n in range(-25, 61)] == [_per_steps(plain, n) for n in range(-25, 61)]
    nearest = _Per("kills", 10, "nearest")
    assert [_per_steps(nearest, n) for n in (4, 5, 14, 15, 25)] == [0, 1, 1, 2, 3]  # halves round up
