"""Size guards (C408) and the overlap sweep that keep checking time linear in the input."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler import model
from compiler.build.render import render_outputs
from compiler.checks import intersecting_pairs
from compiler.checks.limits import MAX_DRMS, MAX_KEY_COMBINATIONS, MAX_ROWS
from dsl.ast import Span
from dsl.builder import MAX_ROLL_NESTING
from tests.conftest import codes, compile_text

HEADER = 'game t { title "T" }\ncontext fb: flag\n'


def test_too_many_rows(tmp_path: Path) -> None:
    rows = " ".join(f'{i}: "r"' for i in range(1, MAX_ROWS + 2))
    comp = compile_text(tmp_path, HEADER + f'chart [V1] "Big" {{ value v 1+ column r: text rows {{ {rows} }} }}\n')
    [d] = comp.diagnostics
    assert d.code == "C415" and f"{MAX_ROWS + 1} rows (at most {MAX_ROWS})" in d.message


def test_too_many_key_combinations(tmp_path: Path) -> None:
    members = " ".join(f"m{i}" for i in range(17))
    text = (
        HEADER
        + f"enum e {{ {members} }}\n"
        + 'chart [K1] "Keys" { roll 1d6 key a: e key b: e column r: text rows { * * 1-6: "x" } }\n'
    )
    [d] = compile_text(tmp_path, text).diagnostics
    assert d.code == "C415" and f"289 key combinations (at most {MAX_KEY_COMBINATIONS})" in d.message


def test_too_many_drms(tmp_path: Path) -> None:
    drms = " ".join(f"drm d{i} +0 when fb" for i in range(MAX_DRMS + 1))
    [d] = compile_text(
        tmp_path, HEADER + f'chart [D1] "Drms" {{ roll 1d6 column r: text {drms} rows {{ 1-6: "x" }} }}\n'
    ).diagnostics
    assert d.code == "C415" and f"{MAX_DRMS + 1} DRMs" in d.message


def test_limits_leave_a_large_real_sized_chart_alone(tmp_path: Path) -> None:
    rows = " ".join(f'{i:02d}: "r"' for i in range(1, 100)) + ' 00: "last"'
    drms = " ".join(f"drm d{i} +1 when fb" for i in range(32))
    comp = compile_text(
        tmp_path, HEADER + f'chart [P1] "Percentile" {{ roll percentile column r: text {drms} rows {{ {rows} }} }}\n'
    )
    assert "C415" not in codes(comp)


def _row(low: int | None, high: int | None, line: int) -> model.Row:
    span = Span("a.chart", line, 1, line, 2)
    return model.Row((), model.DieRange(low, high, "r", span), (), span)


bounds = st.one_of(st.none(), st.integers(-5, 30))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(bounds, bounds), max_size=12))
def test_sweep_finds_exactly_the_intersecting_pairs(ranges: list[tuple[int | None, int | None]]) -> None:
    rows = [_row(lo, hi, i + 1) for i, (lo, hi) in enumerate(ranges) if lo is None or hi is None or lo <= hi]
    brute = {
        (a.span.line, b.span.line) for a, b in itertools.combinations(rows, 2) if a.range.intersect(b.range) is not None
    }
    swept = [(a.span.line, b.span.line) for a, b in intersecting_pairs(rows)]
    assert sorted(swept) == sorted(brute) and len(swept) == len(brute)


def _nested_rolls(depth: int) -> str:
    """A chart whose one row rolls in its cell, `depth` rolls deep (`-> 1d6 { 1-3: -> 1d6 {...} }`)."""
    cell = '"x"'
    for _ in range(depth):
        cell = f'-> 1d6 {{ 1-3: {cell}; 4-6: "y" }}'
    head = 'game t { title "T" }\nchart c "C" {\n  roll 1d6\n  column r: text "R"\n  rows {\n'
    return head + f"    1-6: {cell}\n  }}\n}}\n"


def test_rolls_in_cells_nest_at_most_50_deep_and_the_module_still_imports(tmp_path: Path) -> None:
    # A new user's chart nested 66 rolls deep checked clean but gave a module Python refused to
    # import ("too many nested parentheses"), and deeper ones crashed fmt, the cache and the builder.
    deepest = compile_text(tmp_path / "ok", _nested_rolls(MAX_ROLL_NESTING))
    assert deepest.diagnostics == []
    module = render_outputs(deepest.project)["t/t.py"]
    namespace: dict[str, object] = {}
    exec(compile(module, "t.py", "exec"), namespace)  # the module chartc just generated
    lookup = namespace["lookup_c"]
    assert callable(lookup) and lookup(1)["r"]["outcomes"][1] == (4, 6, "y")
    [d] = compile_text(tmp_path / "deep", _nested_rolls(MAX_ROLL_NESTING + 1)).diagnostics
    assert d.code == "C101" and d.message == "this roll in a cell is nested more than 50 levels deep"
    assert (d.span.line, d.span.col) == (6, 10)  # the outermost roll, the 51st from the inside
    [d] = compile_text(tmp_path / "far", _nested_rolls(175)).diagnostics
    assert d.code == "C101" and "nested more than 50 levels" in d.message
