"""Regression tests for problems found by trying chartc as a new user and with hostile input."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT, codes, compile_text

HEAD = 'game t { title "T" }\n'


def test_a_header_statement_given_twice_is_reported(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "G" title "H" }\n')
    assert codes(comp) == ["C103"] and comp.project.games["t"].title == "G"


def test_an_invariant_declared_twice_is_reported(tmp_path: Path) -> None:
    inv = 'invariant i "n" { count e is 1 }\n'
    comp = compile_text(tmp_path, HEAD + 'enum e { fields { n: int } a "A" { n: 1 } }\n' + inv + inv)
    assert codes(comp) == ["C202"]


def test_a_label_or_alias_naming_two_values_is_reported(tmp_path: Path) -> None:
    assert codes(compile_text(tmp_path, HEAD + 'enum e { a "Same" b "Same" }\n')) == ["C202"]
    assert codes(compile_text(tmp_path / "2", HEAD + 'enum e { a "A" b "B" aka "A" }\n')) == ["C202"]


def test_errata_cannot_add_rows_to_a_grid(tmp_path: Path) -> None:
    text = HEAD + (
        'chart g "G" { roll 1d6 column r: text grid k [x, y] { "a": 1-3 | 1-6 \n "b": 4-6 | - } }\n'
        'enum k { x "X" y "Y" }\n'
        'errata e "E" { amend g { add 1: "c" } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C601" in codes(comp)


def test_an_invariant_part_outside_the_cells_is_reported(tmp_path: Path) -> None:
    text = HEAD + (
        'enum sys { fields { need: int } x "X" { need: 4 } }\nenum c { a "A" b "B" }\n'
        'chart t "T" { key c column x: pair "X" rows { a: 1/10  b: 2/20 } }\n'
        'invariant i "n" { sum t part PART per column reaches sys.need }\n'
    )
    assert codes(compile_text(tmp_path, text.replace("PART", "0"))) == ["C402"]
    assert codes(compile_text(tmp_path / "3", text.replace("PART", "3"))) == ["C402"]
    assert codes(compile_text(tmp_path / "2", text.replace("PART", "2"))) == []


def test_an_allow_without_a_reason_is_reported(tmp_path: Path) -> None:
    text = (
        HEAD
        + 'context f: flag\nchart c "C" { roll 1d6 column r: text drm d +1 when f allow C305 "" rows { 1-6: "x" } }\n'
    )
    assert sorted(codes(compile_text(tmp_path, text))) == ["C305", "C502"]


def test_odds_tables_too_large_to_write_are_refused(tmp_path: Path) -> None:
    flags = "".join(f"context f{i}: flag\n" for i in range(40))
    drms = " ".join(f"drm d{i} +1 when f{i}" for i in range(40))
    keys = (
        "enum a { "
        + " ".join(f"a{i}" for i in range(16))
        + " }\nenum b { "
        + " ".join(f"b{i}" for i in range(16))
        + " }\n"
    )
    rows = " ".join(f"* * {i}: \"r\"" for i in range(1, 41))
    text = (
        HEAD
        + flags
        + keys
        + f'chart c "C" {{ roll 2d20 key a key b column r: text {drms} rows {{ {rows} 41+: "x" }} }}\n'
    )
    comp = compile_text(tmp_path, text)
    assert "C415" in codes(comp)


def test_lookup_refuses_a_game_with_errors(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "charts" / "g"
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text(
        'game g { title "G" }\n'
        'chart a "A" { roll 1d6 column r: text column n: int "N" rows { 1-3: "x", 1  4-6: "y", 2 } }\n'
        'errata e1 "E1" { amend a { change 4-6 column n to "oops" } }\n'
    )
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["lookup", "g/a", "5"])
    assert r.exit_code == 1 and "has 1 error(s)" in r.output and "C402" in r.output


def test_a_key_given_twice_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--key", "interceptor=jet"])
    assert r.exit_code == 2 and "given twice" in r.output


def test_diff_html_into_a_missing_folder_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["diff", "charts", "charts", "--html", "/nonexistent/dir/x.html"])
    assert r.exit_code == 2 and "cannot write the errata sheet" in r.output


def test_derive_drops_bands_pushed_off_the_dice_and_chains(tmp_path: Path) -> None:
    text = HEAD + (
        'chart a "A" { roll percentile column r: text rows { 01-35: "x" 36-70: "y" 71-00: "z" } }\n'
        'chart b "B" { derive from a bands +35 }\nchart c "C" { derive from b bands -35 }\n'
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    assert [(r.range.printed, r.values[0]) for r in game.chart("b").rows] == [("01-70", "x"), ("71-00", "y")]
    assert [(r.range.printed, r.values[0]) for r in game.chart("c").rows] == [("01-35", "x"), ("36-00", "y")]
