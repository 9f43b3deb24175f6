"""Regression tests for resolver findings of the hostile pass (issue 11, items 6, 7 and 11)."""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

import pytest

from compiler import model
from compiler.diagnostics import suggest
from compiler.emit.html.aid import emit_game_html
from compiler.emit.json import emit_game_json
from dsl.ast import Span
from tests.conftest import codes, compile_text

HEAD = 'game t { title "T" calendar 1944-07 to 1944-08 }\nenum side { piston jet }\n'


def test_derived_availability_chart_prints_its_own_shifted_cells(tmp_path: Path) -> None:
    """A derived availability chart's layout (aid, JSON `layout`) shows the shifted bands of its
    rows: `1-3` moved +5 on 1d6 is `1-6`, and `4+` ("not available") falls off the die."""
    text = HEAD + (
        'chart [R2] "Available" { roll 1d6 availability side by month [1944-07, 1944-08] '
        "{ piston: ✓ | 1-3  jet: - | 1 } }\n"
        'chart [R2b] "Later" { derive from R2 bands +5 }\n'
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    derived = comp.project.games["t"].chart("R2b")
    assert derived is not None and derived.availability is not None
    cells = dict(derived.availability.rows)
    assert cells["piston"][1].printed == "1-6"  # type: ignore[union-attr]
    assert cells["jet"][1].printed == "1-6"  # type: ignore[union-attr]
    piston_aug = [(r.range.printed, r.values) for r in derived.rows if r.keys == ("piston", "1944-08")]
    assert piston_aug == [("1-6", ("available",))]


def test_a_chart_deriving_from_itself_says_so(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, HEAD + 'chart [R9] "Loop" { derive from R9 bands +1 }\n')
    [d] = comp.diagnostics
    assert d.code == "C201" and d.message == "chart `R9` derives from itself"


def test_a_huge_drm_is_reported_without_building_a_huge_number(tmp_path: Path) -> None:
    """Integer literals are bounded to 9 digits (C101 beyond); the largest DRMs that remain must
    still give a C415 whose message stays short (Python refuses to print integers over 4,300 digits)."""
    big = "9" * 9
    text = (
        HEAD
        + 'context fb: flag\nchart [D1] "Big" { roll 1d6 column r: text '
        + f'drm a +{big} when fb drm b -{big} when fb rows {{ 1-6: "x" }} }}\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C415" in codes(comp)
    [d] = [d for d in comp.diagnostics if d.code == "C415" and "spanning" in d.message]
    assert len(d.message) < 200


def test_did_you_mean_over_many_misspellings_compares_few_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """600 misspelled key values against an enum of 600 members: 93 KB of typos took 88 s when every
    typo was compared with every member; each typo is now compared with a short list of names."""
    compared: list[int] = []
    real = difflib.get_close_matches

    def counting(word: str, possibilities: list[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
        compared.append(len(possibilities))
        return real(word, possibilities, n=n, cutoff=cutoff)

    monkeypatch.setattr(difflib, "get_close_matches", counting)  # suggest imports difflib when it first compares
    members = " ".join(f"type_{i:04d}" for i in range(600))
    rows = " ".join(f'tpye_{i:04d} 1-6: "x"' for i in range(600))
    text = (
        HEAD
        + f"enum big {{ {members} }}\n"
        + f'chart [K1] "Keys" {{ roll 1d6 key k: big column r: text rows {{ {rows} }} }}\n'
    )
    comp = compile_text(tmp_path, text)
    found = [d for d in comp.diagnostics if d.code == "C201"]
    assert len(found) == 600
    assert found[0].help == "did you mean `type_0000`?"
    assert compared and max(compared) <= suggest._SHORTLIST


class _NoScan(tuple):  # type: ignore[type-arg]
    """A game's charts that refuse to be scanned once the game's index is built."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a lookup by address scanned every chart")


def test_chart_lookup_by_address_does_not_scan_every_chart() -> None:
    """16,000 charts looked up by ID and by case-folded ID: a scan per lookup took over a minute."""
    span = Span("t.chart", 1, 1, 1, 2)
    charts = [
        model.Chart(
            game="t",
            chart_id=f"C{i}",
            slug=None,
            title="C",
            rule=None,
            kind="reference",
            dice=None,
            value_key=None,
            keys=(),
            columns=(),
            drms=(),
            clamp=None,
            footnotes=(),
            notes=(),
            partial=None,
            rows=(),
            grid=None,
            source_file="t.chart",
            span=span,
        )
        for i in range(16000)
    ]
    game = model.Game("t", "T", None, None, (), {}, {}, tuple(charts))
    assert game.chart("C0") is charts[0]  # builds the index once
    object.__setattr__(game, "charts", _NoScan(charts))
    found = [game.chart(f"C{i}") for i in range(16000)] + [game.chart(f"c{i}") for i in range(16000)]
    assert found == charts + charts


def test_a_calendar_spanning_ten_thousand_years_is_refused(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "T" calendar 0000-01 to 9999-12 }\n')
    [d] = comp.diagnostics
    assert d.code == "C406" and "120000 months" in d.message


def test_json_layout_of_a_derived_availability_chart(tmp_path: Path) -> None:
    text = HEAD + (
        'chart [R2] "Available" { roll 1d6 availability side by month [1944-07, 1944-08] '
        "{ piston: ✓ | 1-3  jet: - | 1 } }\n"
        'chart [R2b] "Later" { derive from R2 bands +5 }\n'
    )
    comp = compile_text(tmp_path, text)
    data = json.loads(emit_game_json(comp.project.games["t"]))
    chart = next(c for c in data["charts"] if c.get("chart_id") == "R2b")
    cells = chart["layout"]["cells"]
    assert cells["piston"][1] == {"printed": "1-6", "min": 1, "max": 6, "open": None}
    assert cells["piston"][0] == "auto" and cells["jet"][0] is None
    aid = emit_game_html(comp.project.games["t"])
    derived = re.sub(r"<[^>]+>", " ", aid[aid.rfind(">R2b<") :]).split()
    # month heads as the book prints them (IA2 R2: `7/44`)
    expected = [">R2b", "Later", "side", "7/44", "8/44", "piston", "✓", "1-6", "jet", "-", "1-6"]
    assert derived[: len(expected)] == expected


def test_an_enum_named_enum_types_a_column(tmp_path: Path) -> None:
    """`enum enum { ... }` used as a column type crashed with exit 3 (a `TypeError` in the typer)."""
    text = HEAD + 'enum enum { a "A" b "B" }\nchart [E1] "E" { roll 1d6 column r: enum rows { 1-3: a 4-6: B } }\n'
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    chart = comp.project.games["t"].chart("E1")
    assert chart is not None and [r.values for r in chart.rows] == [("a",), ("b",)]


@pytest.mark.parametrize("name", ["flag", "text", "int", "pair", "month", "chartref"])
def test_an_enum_named_like_a_builtin_type_is_refused(tmp_path: Path, name: str) -> None:
    """An enum named `flag` was silently shadowed by the builtin type (and `up` read as a bad flag)."""
    text = f'game t {{ title "T" }}\nenum {name} {{ up down }}\n'
    [d] = compile_text(tmp_path, text).diagnostics
    assert d.code == "C202"
    assert d.message == f"enum `{name}` has the name of the builtin type `{name}`"
    assert (d.span.line, d.span.col) == (2, 6)


def test_a_label_that_is_another_values_id_is_a_duplicate_name(tmp_path: Path) -> None:
    # `a "b" b "a"`: the key written "a" silently selected id `a`, the value printed "b"
    text = (
        HEAD
        + 'enum duo { a "b" b "a" }\n'
        + 'chart [K1] "Keys" { roll 1d6 key k: duo column r: text rows { "a" 1-6: "x" "b" 1-6: "y" } }\n'
    )
    comp = compile_text(tmp_path, text)
    found = [d for d in comp.diagnostics if d.code == "C202"]
    assert [d.message for d in found] == [
        "`b` is a printed name of `a` and the id of `b` in enum `duo`",
        "`a` is a printed name of `b` and the id of `a` in enum `duo`",
    ]


def test_labels_that_differ_from_every_other_id_are_clean(tmp_path: Path) -> None:
    text = HEAD + 'enum duo { a "Alpha" b "Bravo" }\n'
    assert compile_text(tmp_path, text).diagnostics == []


@pytest.mark.parametrize(
    ("game", "problem"),
    [
        # `from fractions import Fraction` in the generated fractions.py would import itself
        ("fractions", "the name of a Python standard library module"),
        ("random", "the name of a Python standard library module"),
        ("class", "a Python keyword"),
    ],
)
def test_a_game_id_its_generated_module_cannot_carry_is_reported(tmp_path: Path, game: str, problem: str) -> None:
    chart = 'chart [T1] "T" { roll 1d6 column result: text rows { 1-6: "x" } }\n'
    comp = compile_text(tmp_path, f'game {game} {{ title "T" }}\n' + chart, game=game)
    [d] = comp.diagnostics
    assert d.code == "C203" and problem in d.message and f"`{game}.py`" in d.message
    assert (d.span.line, d.span.col, d.span.end_col) == (1, 6, 6 + len(game))  # the header's id


def test_a_game_id_beside_a_standard_module_name_is_accepted(tmp_path: Path) -> None:
    chart = 'chart [T1] "T" { roll 1d6 column result: text rows { 1-6: "x" } }\n'
    comp = compile_text(tmp_path, 'game fractions2 { title "T" }\n' + chart, game="fractions2")
    assert comp.diagnostics == []
