"""`allow CODE "reason"`: silences one code inside one chart; unused or invalid allows are reported."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compiler.cli import cli
from dsl.parser import parse_text
from tests.conftest import codes, compile_text

HEADER = 'game t { title "T" }\ncontext fb: flag\n'
OFF_TABLE = 'roll 1d6 column r: text drm f +1 when fb rows { 1-6: "a" }'


def test_allow_silences_its_code_only_inside_its_chart(tmp_path: Path) -> None:
    text = HEADER + (
        f'chart [R1] "One" {{ {OFF_TABLE} allow C305 "printed without an open end" }}\n'
        f'chart [R2] "Two" {{ {OFF_TABLE} }}\n'
    )
    comp = compile_text(tmp_path, text)
    assert [(d.code, d.span.line) for d in comp.diagnostics] == [("C305", 4)]
    [silenced] = comp.suppressed
    assert silenced.diagnostic.code == "C305" and silenced.diagnostic.span.line == 3
    assert silenced.reason == "printed without an open end" and silenced.allow_span.line == 3


def test_allow_silences_only_the_named_code(tmp_path: Path) -> None:
    text = HEADER + f'chart [R1] "One" {{ {OFF_TABLE} allow C309 "wrong code" }}\n'
    comp = compile_text(tmp_path, text)
    assert sorted(codes(comp)) == ["C305", "C501"]


def test_errors_cannot_be_silenced(tmp_path: Path) -> None:
    text = HEADER + 'chart [R1] "One" { roll 1d6 column r: text allow C301 "overlap" rows { 1-3: "a" 3-6: "b" } }\n'
    comp = compile_text(tmp_path, text)
    assert sorted(codes(comp)) == ["C301", "C502"]
    [invalid] = [d for d in comp.diagnostics if d.code == "C502"]
    assert invalid.message == "`C301` cannot be silenced: errors are always reported"
    assert comp.suppressed == []


def test_syntax_errors_cannot_be_silenced(tmp_path: Path) -> None:
    text = HEADER + 'chart [R1] "One" { roll 1d6 column r: text allow C101 "no" rows { 1-6: "a" } }\n'
    [d] = compile_text(tmp_path, text).diagnostics
    assert d.code == "C502" and "`C101` cannot be silenced" in d.message


def test_unknown_code_suggests_a_close_one(tmp_path: Path) -> None:
    text = HEADER + f'chart [R1] "One" {{ {OFF_TABLE} allow C3O5 "letter O" }}\n'
    comp = compile_text(tmp_path, text)
    [d] = [d for d in comp.diagnostics if d.code == "C502"]
    assert d.help == "did you mean `C305`?" and (d.span.line, d.span.col) == (3, 85)


def test_allow_works_in_a_drms_block(tmp_path: Path) -> None:
    text = HEADER + 'drms [B9] "Weather" { drm w +1 when fb allow C305 "nothing to silence" }\n'
    assert codes(compile_text(tmp_path, text)) == ["C501"]


def test_suppressed_warning_does_not_fail_strict_and_is_counted(tmp_path: Path, monkeypatch) -> None:
    compile_text(tmp_path, HEADER + f'chart [R1] "One" {{ {OFF_TABLE} allow C305 "known print defect" }}\n')
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "--strict"])
    assert r.exit_code == 0, r.output
    assert r.output == "checked 1 chart in 1 game: 0 errors, 0 warnings, 0 notes, 1 suppressed\n"


def test_allow_stays_usable_as_a_name() -> None:
    text = (
        'enum perm { allow "Allowed" deny "Denied" }\n'
        'chart allow "Allow" { key perm column r: text rows { allow: "a" deny: "b" } }\n'
    )
    result = parse_text(text, "a.chart")
    assert result.errors == []
    chart = result.source.charts[0]
    assert chart.slug.text == "allow" and chart.rows[0].keys[0].text == "allow" and chart.allows == ()


def test_allow_needs_a_reason() -> None:
    result = parse_text('chart [R1] "One" { allow C305 }\n', "a.chart")
    [issue] = result.errors
    assert "unexpected `}`" in issue.message and "quoted string" in (issue.help or "")
