"""Regressions from the hostile pass (issue 11): tracebacks, chart text that became terminal or CI
commands, and revisions that reached `git archive` as options. Each test reproduces a finding."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from compiler.cli import cli
from compiler.diagnostics import (
    Diagnostic,
    Label,
    Severity,
    render_github,
    render_human,
    render_json,
    render_short,
)
from compiler.diagnostics.textsafe import json_text, printable
from dsl.ast import Span
from tests.conftest import ROOT


@pytest.fixture()
def run(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """`chartc ARGS...` in the project folder, through click's runner."""
    monkeypatch.chdir(ROOT)
    return lambda *args: CliRunner().invoke(cli, list(args), catch_exceptions=False)


# ---- item 4: tracebacks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address, keys",
    [("ia2/flak", []), ("ia2/approach_track", ["--key", "orientation=front"]), ("ia2/bodenplatte_flak", [])],
)
def test_odds_json_of_a_chart_with_chart_references(run, address: str, keys: list[str]) -> None:
    # a chartref column (`[B3]`) was not JSON serialisable: exit 3 with a traceback
    r = run("odds", address, *keys, "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["chart"] == address.split("/")[1]
    refs = [v for row in doc["rows"] for v in row["values"].values() if isinstance(v, dict)]
    assert refs and all(set(ref) == {"chart"} for ref in refs)


def test_odds_json_of_flak_gives_the_chart_reference_as_in_the_game_json(run) -> None:
    # IA2 7.1.5 flak: 1d6 minus 3, minimum 0; 1-3 hits are rolled on the Bomber Damage Chart [B3]
    doc = json.loads(run("odds", "ia2/flak", "--format", "json").output)
    assert [row["values"] for row in doc["rows"]] == [
        {"hits": 0, "damage": None},
        {"hits": 1, "damage": {"chart": "B3"}},
        {"hits": 2, "damage": {"chart": "B3"}},
        {"hits": 3, "damage": {"chart": "B3"}},
    ]
    assert [row["probability"]["exact"] for row in doc["rows"]] == ["1/2", "1/6", "1/6", "1/6"]


@pytest.mark.parametrize("args", [("lookup", "./R4", "3"), ("odds", "./R4"), ("lookup", "../R4", "3"), ("odds", "/R4")])
def test_a_path_as_game_is_a_usage_error(run, args: tuple[str, ...]) -> None:
    # `./R4` loaded the charts folder itself as game `.`: KeyError '.' and exit 3
    r = run(*args)
    assert r.exit_code == 2 and "address a chart as GAME/CHART" in r.output


@pytest.mark.parametrize("roll", ["\u00b3", "\u0663", "\uff13", "3\u00b3"])
def test_a_roll_in_other_digits_is_a_usage_error(run, roll: str) -> None:
    # `³` passed str.isdigit and crashed int(); Arabic-Indic `٣` was silently read as 3
    r = run("lookup", "ia2/R4", roll, "--key", "interceptor=piston")
    assert r.exit_code == 2 and "ASCII digits" in r.output and "Result:" not in r.output


@pytest.mark.parametrize(
    "args", [["ia2/R9", "3", "--drm", "\u0662"], ["usaaf/crt_odds", "--attack", "\u0662", "--defense", "7"]]
)
def test_an_integer_option_in_other_digits_is_a_usage_error(run, args: list[str]) -> None:
    # click's int() read the Arabic-Indic `٢` as 2
    r = run("lookup", *args)
    assert r.exit_code == 2 and "ASCII digits" in r.output


def test_a_roll_of_thousands_of_digits_is_a_usage_error(run) -> None:
    r = run("lookup", "ia2/R9", "9" * 5000)
    assert r.exit_code == 2 and "not a roll" in r.output


def test_ascii_rolls_still_read_as_printed(run) -> None:
    # IA2 10.6.1 Allied Fighter Skills, 1d10: a 0 reads as 10 (9-0 Sixth Sense)
    r = run("lookup", "ia2/allied_fighter_skills", "0")
    assert r.exit_code == 0 and "row 9-0" in r.output
    assert run("lookup", "ia2/R9", "3", "--drm", "+2").exit_code == 0


# ---- item 10 and item 4: revisions that start with `-` ----------------------------------------------


def _chartc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_diff_never_hands_a_revision_to_git_as_an_option(tmp_path: Path) -> None:
    # `chartc diff -- --output=FILE HEAD` made `git archive` write (empty) FILE
    victim = tmp_path / "keep.txt"
    victim.write_text("precious")
    r = _chartc("diff", "--", f"--output={victim}", "HEAD")
    assert r.returncode == 2 and "cannot start with `-`" in r.stderr
    assert victim.read_text() == "precious"


def test_diff_of_an_option_like_revision_is_a_usage_error() -> None:
    # `chartc diff -- --list HEAD`: git printed its archive formats, tarfile raised, exit 3
    r = _chartc("diff", "--", "--list", "HEAD")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_diff_of_an_unknown_revision_is_a_usage_error() -> None:
    r = _chartc("diff", "no-such-revision-anywhere", "HEAD")
    assert r.returncode == 2 and "neither a path nor a git revision" in r.stderr


# ---- item 9: chart text cannot become a command -------------------------------------------------------

FORGED = "Combat\n  Result: Evade\n::error file=charts/x.chart,line=1::forged\x1b]0;pwned\x07\u202eabc"


def _game_with_result(tmp_path: Path, result: str) -> Path:
    literal = "".join(ch if ch.isprintable() and ch not in '\\"' else f"\\u{ord(ch):04x}" for ch in result)
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text(
        'game t { title "T" }\n'
        f'chart [R1] "Escape" {{ roll 1d6 column result: text rows {{ 1-3: "{literal}" 4-6: "Evade" }} }}\n',
        encoding="utf-8",
    )
    return tmp_path / "charts"


def test_lookup_prints_chart_text_as_one_visible_line(tmp_path: Path) -> None:
    charts = _game_with_result(tmp_path, FORGED)
    r = CliRunner().invoke(cli, ["lookup", "t/R1", "2", "--charts", str(charts)], catch_exceptions=False)
    assert r.exit_code == 0
    assert sum(line.lstrip().startswith("Result:") for line in r.output.splitlines()) == 1
    assert [line for line in r.output.splitlines() if "Evade" in line] == [
        (
            "  Result: Combat<U+000A>  Result: Evade<U+000A>::error file=charts/x.chart,line=1::forged"
            "<U+001B>]0;pwned<U+0007><U+202E>abc"
        )
    ]
    assert "\x1b" not in r.output and "\u202e" not in r.output and "\n::error" not in r.output


def test_odds_and_lookup_json_escape_hidden_characters(tmp_path: Path) -> None:
    charts = _game_with_result(tmp_path, FORGED + "\u2028\u200f\x85")
    for args in (["lookup", "t/R1", "2", "--json"], ["odds", "t/R1", "--format", "json"]):
        r = CliRunner().invoke(cli, [*args, "--charts", str(charts)], catch_exceptions=False)
        assert r.exit_code == 0
        assert not any(ch in r.output for ch in "\x1b\x07\u202e\u2028\u200f\x85")
        doc = json.loads(r.output)
        values = [doc["values"]] if "values" in doc else [row["values"] for row in doc["rows"]]
        assert values[0]["result"] == FORGED + "\u2028\u200f\x85"  # the same data, escaped


def test_odds_report_keeps_chart_text_on_its_line(tmp_path: Path) -> None:
    charts = _game_with_result(tmp_path, FORGED)
    r = CliRunner().invoke(cli, ["odds", "t/R1", "--charts", str(charts)], catch_exceptions=False)
    assert r.exit_code == 0 and "\x1b" not in r.output
    assert not any(line.startswith("::") for line in r.output.splitlines())
    assert "1-3   1/2 (50%)  Combat<U+000A>  Result: Evade<U+000A>::error" in r.output


def _forged_finding() -> Diagnostic:
    return Diagnostic(
        "C301",
        Severity.ERROR,
        "rows `a\n::error file=x.chart,line=1::forged` overlap\x1b[2J",
        Span("charts/t/a\u202e.chart", 2, 1, 2, 4),
        "label `b\n::warning::x`",
        (Label(Span("charts/t/a.chart", 3, 1, 3, 2), "other\n::notice::x"),),
    )


def test_human_report_cannot_forge_an_annotation() -> None:
    text = render_human(_forged_finding(), {})
    assert not any(line.startswith("::") for line in text.split("\n"))
    assert "\x1b" not in text and "\u202e" not in text
    assert text.split("\n")[0] == "error[C301]: rows `a<U+000A>::error file=x.chart,line=1::forged` overlap<U+001B>[2J"


def test_short_and_github_renderers_print_one_line_per_finding() -> None:
    d = _forged_finding()
    assert "\n" not in render_short(d) and "\x1b" not in render_short(d)
    annotation = render_github(d)
    assert "\n" not in annotation and "\x1b" not in annotation and "\u202e" not in annotation
    assert annotation.startswith("::error file=charts/t/a<U+202E>.chart,")  # the one command: a line of its own


def test_check_github_format_prints_no_forged_command(tmp_path: Path, monkeypatch) -> None:
    # an aid.order line is echoed in C416; an escape sequence there reached the terminal raw
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text(
        'game t { title "T" }\nchart [R1] "One" { roll 1d6 column r: text rows { 1-6: "a" } }\n'
    )
    (folder / "aid.order").write_text("R1\nR9\x1b]0;pwned\x07\u202e\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "--format", "github"], catch_exceptions=False)
    assert r.exit_code == 1 and "C416" in r.output
    assert "\x1b" not in r.output and "\x07" not in r.output and "\u202e" not in r.output
    assert "R9<U+001B>]0;pwned<U+0007><U+202E>" in r.output


def test_json_diagnostics_escape_what_json_dumps_leaves_raw() -> None:
    d = Diagnostic("C301", Severity.ERROR, "x\u202e\u2028\x85", Span("a.chart", 1, 1, 1, 2))
    text = render_json([d])
    assert "\u202e" not in text and "\u2028" not in text and "\x85" not in text
    assert json.loads(text)["diagnostics"][0]["message"] == "x\u202e\u2028\x85"


def test_sanitiser_marks_every_hidden_character_and_nothing_else() -> None:
    assert printable("R4 Escape Chart – 3-6 → 3+ ✓ é\u00a0½") == "R4 Escape Chart – 3-6 → 3+ ✓ é\u00a0½"
    assert printable("a\tb\rc\u2029d\u200ee\u2066f\x7f") == "a<U+0009>b<U+000D>c<U+2029>d<U+200E>e<U+2066>f<U+007F>"
    assert printable("a\tb", keep="\t") == "a\tb"
    doc = {"k": "\x7f\u200b\U000f0000 ok é"}
    assert json.loads(json_text(json.dumps(doc, ensure_ascii=False))) == doc
    assert json_text(json.dumps(doc, ensure_ascii=False)) == '{"k": "\\u007f\\u200b\\udb80\\udc00 ok é"}'
