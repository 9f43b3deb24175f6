"""Which DRM totals a chart can see (`compiler.engine.reach`): the false C305s of exclusive conditions are
gone, rows reachable only through an impossible combination are reported, and the procedure agrees
with enumerating every context a player can have."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from pathlib import Path

import pytest

from compiler import model
from compiler.engine.chances import drm_totals, reachable_rolls, unreachable_rows
from compiler.engine.drms import evaluate
from compiler.engine.reach import reach
from compiler.model.calendar import Month, month_range
from tests.conftest import codes, compile_text

HEADER = (
    'game t { title "T" calendar 1944-07 to 1945-05 }\n'
    'enum terrain "Terrain" { clear "Clear" woods "Woods" town "Town" }\n'
    "context night: flag\n"
    "context fb: flag\n"
    "context ground: terrain\n"
    "context month: month\n"
    'context kills: int "Kills" 0-40\n'
    'context skill: int "Skill" 0-3\n'
)


def _chart(tmp_path: Path, body: str, address: str = "R1"):
    comp = compile_text(tmp_path, HEADER + body)
    return comp, comp.project.games["t"].chart(address)


def test_dark_and_day_reach_one_or_two_not_three(tmp_path: Path) -> None:
    # the case: night and not-night cannot hold together, so +3 never happens
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 column r: text\n'
        '  drm dark "Dark" +2 when night\n  drm day "Day" +1 when not night\n'
        '  rows { 2-4: "a" 5-8: "b" } }\n',
    )
    assert drm_totals(chart) == [1, 2]
    assert reachable_rolls(chart) == list(range(2, 9))
    assert codes(comp) == []  # every subset would have reported 9 (6 + 3) and 1 (no DRM) off the table


def test_woods_and_town_are_exclusive(tmp_path: Path) -> None:
    # one hex is woods or town, never both: -3 is not a total
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 column r: text\n'
        '  drm woods "Woods" -1 when ground == woods\n  drm town "Town" -2 when ground == town\n'
        '  rows { 1-6: "a" } }\n',
    )
    assert drm_totals(chart) == [-2, -1, 0]
    [off] = [d for d in comp.diagnostics if d.code == "C305"]
    assert off.message.startswith("modified roll -1 to 0 ")


def test_row_reachable_only_by_an_impossible_combination_is_unreachable(tmp_path: Path) -> None:
    # exactly one of the two +1s applies, so the total is always +1 and a modified 1 cannot happen
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 column r: text\n'
        '  drm dark "Dark" +1 when night\n  drm day "Day" +1 when not night\n'
        '  rows { 1: "never" 2-7: "a" } }\n',
    )
    assert [r.range.printed for r in unreachable_rows(chart)] == ["1"]
    assert "C306" in codes(comp)


def test_drm_on_the_charts_own_key_counts_per_key_combination(tmp_path: Path) -> None:
    # a CRT-like chart keyed by terrain with the terrain DRM: only woods reaches 7
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 key terrain column r: text\n'
        '  drm woods "Woods" +1 when terrain == woods\n'
        '  rows { * 1-6: "a" woods 7: "b" clear 7: "c" town 7+: "d" } }\n',
    )
    assert drm_totals(chart, ("woods",)) == [1]
    assert drm_totals(chart, ("clear",)) == [0]
    assert drm_totals(chart) == [0, 1]
    assert [r.range.printed for r in unreachable_rows(chart)] == ["7", "7+"]  # clear 7 and town 7+
    assert codes(comp).count("C306") == 2


def test_int_comparisons_over_the_declared_range(tmp_path: Path) -> None:
    # kills run 0-40: `kills > 50` never holds, `kills >= 10` and `kills < 5` never together
    _, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 column r: text\n'
        '  drm ace "Ace" +1 when kills >= 10\n  drm green "Green" -1 when kills < 5\n'
        '  drm legend "Legend" +5 when kills > 50\n  rows { 1-: "a" 2-6: "b" 7+: "c" } }\n',
    )
    assert drm_totals(chart) == [-1, 0, 1]


def test_month_comparisons_over_the_calendar(tmp_path: Path) -> None:
    # IA2 6.1 as written: +1 in November 1944 and January 1945, +2 in December 1944; never +3
    _, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 column r: text\n'
        '  drm nov_jan "Nov/Jan" +1 when month in [1944-11, 1945-01]\n'
        '  drm dec "Dec" +2 when month == 1944-12\n  drm late "After the calendar" +4 when month > 1945-05\n'
        '  rows { 1-: "a" 2-6: "b" 7+: "c" } }\n',
    )
    assert drm_totals(chart) == [0, 1, 2]


def test_a_drm_without_condition_may_apply_or_not(tmp_path: Path) -> None:
    body = 'chart [R1] "X" { roll 1d6 column r: text drm a +2 rows { 1-: "a" 2-7: "b" 8+: "c" } }\n'
    _, chart = _chart(tmp_path, body)
    assert drm_totals(chart) == [0, 2]


# ---- brute force: reach agrees with every context a player can have ----------------------------


def _atoms(rng: random.Random, chart: model.Chart) -> list[model.Condition]:
    span = chart.span
    months = [Month("1944-09"), Month("1944-12"), Month("1945-02")]
    ops = list(model.CompareOp)
    return [
        model.Flag("night", span),
        model.Flag("fb", span),
        model.Compare("ground", rng.choice(ops[:2]), model.MemberId(rng.choice(["woods", "town"])), span),
        model.In("ground", (model.MemberId("clear"), model.MemberId("town")), span),
        model.Compare("kills", rng.choice(list(model.CompareOp)), rng.randint(-2, 42), span),
        model.Compare("skill", rng.choice(list(model.CompareOp)), rng.randint(0, 3), span),
        model.Compare("month", rng.choice(list(model.CompareOp)), rng.choice(months), span),
        model.Compare("terrain", model.CompareOp.EQ, model.MemberId(rng.choice(["clear", "woods"])), span, True),
    ]


def _condition(rng: random.Random, chart: model.Chart, depth: int = 0) -> model.Condition:
    atom = rng.choice(_atoms(rng, chart))
    if depth >= 2 or rng.random() < 0.5:
        return atom
    span = chart.span
    parts = (atom, _condition(rng, chart, depth + 1))
    return rng.choice([model.Not(atom, span), model.All(parts, span), model.Any_(parts, span)])


def _random_drms(rng: random.Random, chart: model.Chart) -> tuple[tuple[model.Drm, ...], tuple[model.DrmGroup, ...]]:
    drms = []
    for i in range(rng.randint(1, 4)):
        per = None
        if rng.random() < 0.3:
            var, high = rng.choice([("kills", 40), ("skill", 3)])
            per = model.PerStep(var, rng.choice([1, 3, 10]), rng.choice(list(model.Rounding)), chart.span, 0, high)
        when = _condition(rng, chart) if per is None or rng.random() < 0.5 else model.Flag("fb", chart.span)
        drms.append(model.Drm(f"d{i}", f"D{i}", rng.choice([-3, -2, -1, 1, 2, 3]), when, None, chart.span, per))
    groups: tuple[model.DrmGroup, ...] = ()
    if len(drms) >= 2 and rng.random() < 0.5:
        mode = rng.choice([model.GroupMode.BEST, model.GroupMode.WORST])
        drms[0], drms[1] = replace(drms[0], group="g"), replace(drms[1], group="g")
        groups = (model.DrmGroup("g", "G", mode, ("d0", "d1"), chart.span),)
    return tuple(drms), groups


def _every_context(chart: model.Chart, combo: tuple[str, ...]) -> list[dict[str, object]]:
    domains = {
        "night": [False, True],
        "fb": [False, True],
        "ground": ["clear", "woods", "town"],
        "kills": list(range(41)),
        "skill": list(range(4)),
        "month": month_range(Month("1944-07"), Month("1945-05")),
    }
    names = list(domains)
    return [
        dict(zip(names, values, strict=True)) | {"terrain": combo[0]}
        for values in itertools.product(*(domains[n] for n in names))
    ]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_reach_agrees_with_brute_force(tmp_path: Path, seed: int) -> None:
    _, base = _chart(
        tmp_path,
        'chart [R1] "X" { roll 1d6 key terrain column r: text\n'
        '  drm a +1 when night or fb or ground == woods or kills > 1 or skill > 1 or month > 1944-08\n'
        '  rows { * 1-: "a" * 2-6: "b" * 7+: "c" } }\n',
    )
    rng = random.Random(seed)
    drms, groups = _random_drms(rng, base)
    clamp = rng.choice([None, (-2, 3)])
    chart = replace(base, drms=drms, drm_groups=groups, clamp=clamp)
    for combo in (("clear",), ("woods",)):
        seen = {evaluate(chart, context).total for context in _every_context(chart, combo)}  # type: ignore[arg-type]
        got = reach(chart, combo)
        assert got.exact
        assert set(got.totals) == seen, (drms, groups, combo)
