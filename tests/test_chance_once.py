"""Issue 16, item 4: a build computes the chance model of each chart once, and the checks, the
JSON and the player aid share it (`compiler.engine.chances` keeps it for as long as the chart lives)."""

from __future__ import annotations

import contextlib
import gc
from collections import Counter
from fractions import Fraction
from pathlib import Path

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.engine import chances as chance
from tests.conftest import ROOT


def test_a_build_computes_each_totals_and_chances_once(monkeypatch) -> None:
    totals: Counter[tuple[int, object]] = Counter()
    rows: Counter[tuple[int, object, int]] = Counter()
    real_reach, real_chances = chance.reach, chance._chances

    def counted_reach(chart, combo=None):
        totals[id(chart), combo] += 1
        return real_reach(chart, combo)

    def counted_chances(chart, combo, drm):
        rows[id(chart), combo, drm] += 1
        return real_chances(chart, combo, drm)

    monkeypatch.setattr(chance, "reach", counted_reach)
    monkeypatch.setattr(chance, "_chances", counted_chances)
    with contextlib.chdir(ROOT):
        comp = load([Path("charts/ia2")])
        checked = sum(rows.values())
        outputs = render_outputs(comp.project)
    assert "ia2/ia2.json" in outputs and not comp.has_errors
    assert totals and set(totals.values()) == {1}  # the checks and the JSON ask for the same totals
    assert rows and set(rows.values()) == {1}  # the JSON's chances and the aid's natural chances: one computation
    assert sum(rows.values()) > checked  # the emitters asked for more than the checks had computed
    # IA2 R4 (7.1.10): a piston interceptor escapes on 1-2 of 1d6; asked again, the same object
    r4 = comp.project.games["ia2"].chart("R4")
    assert r4 is not None
    first = chance.chances(r4, ("piston",), 0)
    assert first.rows[0].probability == Fraction(1, 3) and chance.chances(r4, ("piston",), 0) is first


def test_the_computed_chances_go_with_the_chart(tmp_path: Path) -> None:
    with contextlib.chdir(ROOT):
        comp = load([Path("charts/ia2")])
    r4 = comp.project.games["ia2"].chart("R4")
    assert r4 is not None and chance.chances(r4, ("jet",), 0).rows[0].probability == Fraction(2, 3)  # jet: 1-4
    key = id(r4)
    assert key in chance._COMPUTED
    del comp, r4
    gc.collect()
    assert key not in chance._COMPUTED  # no chart kept alive, no stale entry for a reused id


def test_a_chart_freed_after_the_module_is_torn_down_drops_its_entry(tmp_path: Path, monkeypatch) -> None:
    # at interpreter exit the module's globals are cleared (None) while charts may still be freed:
    # the weak reference's callback found `_COMPUTED` None and printed an ignored AttributeError
    with contextlib.chdir(ROOT):
        comp = load([Path("charts/ia2")])
    r4 = comp.project.games["ia2"].chart("R4")
    assert r4 is not None and chance.chances(r4, ("jet",), 0).rows[0].probability == Fraction(2, 3)
    key, table = id(r4), chance._COMPUTED
    unraisable: list[object] = []
    monkeypatch.setattr("sys.unraisablehook", unraisable.append)
    monkeypatch.setattr(chance, "_COMPUTED", None)
    del comp, r4
    gc.collect()
    assert unraisable == [] and key not in table


def test_a_charts_rows_per_key_combination_are_found_once_and_go_with_the_chart() -> None:
    from compiler.model import chart as chart_module

    with contextlib.chdir(ROOT):
        comp = load([Path("charts/ia2")])
    r4 = comp.project.games["ia2"].chart("R4")
    assert r4 is not None
    # IA2 R4 (7.1.10): a piston interceptor's rows are its own, in table order, as a scan finds them
    scanned = [r for r in r4.rows if r.keys[0] in (None, "piston")]
    first = r4.rows_for(("piston",))
    assert first == scanned and [r.keys[0] for r in first] == ["piston"] * len(first)
    assert r4.rows_for(("piston",)) is not first  # a new list each time: a caller may change its own
    kept = chart_module._ROWS_FOR[id(r4)][1][("piston",)]
    assert all(a is b for a, b in zip(r4.rows_for(("piston",)), kept, strict=True))
    key = id(r4)
    del comp, r4, first, kept, scanned
    gc.collect()
    assert key not in chart_module._ROWS_FOR  # no chart kept alive, no stale entry for a reused id
