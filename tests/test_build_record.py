"""`build --check` from the record of the last build (compiler/build/record.py): an unchanged tree
is checked without compiling, and a hand-edited, missing or orphaned output is still found."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import compiler.build.project
from compiler.cli import cli

# IA2 R9 (10.16) and a second game, so a whole tree has an orphan to lose
BOMBING = """game t { title "T" }
chart [R9] bombing_results "Bombing Results Chart" {
  rule "10.16"
  roll 1d20
  column result: text "Result"
  column points: int "Points awarded"
  rows {
    1-5:   "Miss: your bomb scatters.", 0
    6-15:  "Hit", 1
    16-19: "Direct", 2
    20+:   "Vital", 3
  }
}
"""
FATIGUE = """game u { title "U" }
chart [R6] fatigue "Fatigue Effects Chart" {
  rule "10.5"
  value fatigue "Fatigue level" 0+
  column effect: text "Effect"
  rows {
    0-4: "No effect"
    5+: "Add +1 to landing rolls"
  }
}
"""


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two games built into `generated/`, with the records kept in a cache folder of the test."""
    for game, text in (("t", BOMBING), ("u", FATIGUE)):
        (tmp_path / "charts" / game).mkdir(parents=True)
        (tmp_path / "charts" / game / f"{game}.chart").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    built = CliRunner().invoke(cli, ["build"])
    assert built.exit_code == 0, built.output
    return tmp_path


def _check() -> Result:
    return CliRunner().invoke(cli, ["build", "--check"])


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("build --check compiled an unchanged tree")

    monkeypatch.setattr(compiler.build.project, "load", refuse)
    monkeypatch.setattr(compiler.build.project, "compile_games", refuse)


def test_an_unchanged_tree_is_checked_without_compiling(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_compiling(monkeypatch)
    r = _check()
    assert r.exit_code == 0, r.output
    assert r.output == "6 generated files in generated are up to date\n"


def test_a_full_check_that_passes_records_too(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.rmtree(tree / "xdg")
    assert _check().exit_code == 0  # compiled: there is no record
    _no_compiling(monkeypatch)
    assert _check().exit_code == 0


def test_a_hand_edited_output_is_found(tree: Path) -> None:
    module = tree / "generated" / "t" / "t.py"
    module.write_text(module.read_text(encoding="utf-8") + "# edited by hand\n", encoding="utf-8")
    r = _check()
    assert r.exit_code == 1
    assert "stale:    generated/t/t.py" in r.output and "-# edited by hand" in r.output


def test_a_missing_output_is_found(tree: Path) -> None:
    (tree / "generated" / "u" / "u.html").unlink()
    r = _check()
    assert r.exit_code == 1 and "missing:  generated/u/u.html" in r.output


def test_an_orphaned_output_is_found(tree: Path) -> None:
    # the outputs of a game `v` whose charts are gone (a renamed game folder), the charts unchanged
    shutil.copytree(tree / "generated" / "u", tree / "generated" / "v")
    for f in (tree / "generated" / "v").iterdir():
        f.rename(f.with_name("v" + f.suffix))
    r = _check()
    assert r.exit_code == 1 and "orphaned: generated/v/v.json (no chart source produces it)" in r.output


def test_an_edited_chart_or_other_options_are_not_answered_from_the_record(tree: Path) -> None:
    assert CliRunner().invoke(cli, ["build", "--check", "--paper", "letter"]).exit_code == 1  # other HTML
    chart = tree / "charts" / "t" / "t.chart"
    chart.write_text(BOMBING.replace('"Hit"', '"Hit: one aircraft damaged"'), encoding="utf-8")
    r = _check()
    assert r.exit_code == 1 and "stale:    generated/t/t.json" in r.output


def test_a_left_temp_file_is_recovered_by_the_full_check(tree: Path) -> None:
    (tree / "generated" / "t" / ".chartc-leftover").write_text("half a file", encoding="utf-8")
    r = _check()
    assert r.exit_code == 1 and ".chartc-leftover" in r.output
    assert not (tree / "generated" / "t" / ".chartc-leftover").exists()
    assert _check().exit_code == 0


def test_a_pdf_check_always_renders(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a PDF depends on WeasyPrint, Pango and the fonts, which this record's key does not cover: the full check
    # runs (and reads back the PDFs whose inputs are unchanged, tests/test_pdf_record.py)
    _no_compiling(monkeypatch)
    with pytest.raises(AssertionError, match="compiled an unchanged tree"):
        CliRunner().invoke(cli, ["build", "--check", "--pdf"], catch_exceptions=False)
