"""docs/diagnostics.md and `chartc explain`: every code has a failing input, a report and a fix."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.diagnostics import CODES
from compiler.diagnostics.explain import load_examples
from tests.conftest import ROOT, import_module

DOC = ROOT / "docs" / "diagnostics.md"


@pytest.fixture(scope="module")
def generator():
    return import_module(ROOT / "scripts" / "gen_diagnostics_doc.py", "gen_diagnostics_doc")


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^### (C\d{3}) ", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def _blocks(section: str) -> list[str]:
    return re.findall(r"```\w*\n(.*?)```", section, flags=re.S)


def test_doc_and_examples_are_generated_from_the_current_cases(generator) -> None:
    for path, text in generator.generated().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"run `python scripts/gen_diagnostics_doc.py`: {path.name} is stale"
        )


@pytest.mark.parametrize("code", list(CODES))
def test_every_code_has_a_section_with_input_report_and_fix(code: str) -> None:
    section = _sections(DOC.read_text(encoding="utf-8")).get(code)
    assert section, f"docs/diagnostics.md has no section for {code}"
    failing, report, fix = _blocks(section)
    assert failing.strip() and f"[{code}]" in report
    assert "**Fix.** " in section and CODES[code].fix in section
    assert any(line.startswith("+") for line in fix.splitlines()), "the fix shows no corrected line"


def test_generator_refuses_a_code_without_a_case(generator, monkeypatch) -> None:
    examples = generator.collect_examples()
    del examples["C305"]
    monkeypatch.setattr(generator, "collect_examples", lambda: examples)
    with pytest.raises(SystemExit, match="C305"):
        generator.generated()


@pytest.mark.parametrize("arg", ["C305", "c305", "modified-roll-off-table"])
def test_explain_prints_input_report_and_fix(arg: str) -> None:
    r = CliRunner().invoke(cli, ["explain", arg])
    assert r.exit_code == 0
    assert r.output.startswith("C305 modified-roll-off-table (warning)\n")
    assert load_examples()["C305"]["input"].splitlines()[-1] in r.output
    assert "warning[C305]: modified roll 7" in r.output
    assert "Fix: Make the last" in r.output and '+chart [R4] "Escape"' in r.output
    assert 'allow C305 "reason"' in r.output


@pytest.mark.parametrize("code", ["C360", "C361", "C362", "C363", "C364", "C365"])
def test_explain_an_import_code_shows_the_table_report_and_fix(code: str) -> None:
    r = CliRunner().invoke(cli, ["explain", code])
    assert r.exit_code == 0
    assert r.output.startswith(f"{code} {CODES[code].name} (error)\n")
    example = load_examples()[code]
    assert example["case"].endswith(".csv") and example["input"].splitlines()[-1] in r.output
    assert "chartc import reports:" in r.output and "case.csv:" in r.output and f"error[{code}]" in r.output
    assert f"Fix: {CODES[code].fix}" in r.output and "\n    +" in r.output


def test_explain_says_errors_cannot_be_silenced() -> None:
    assert "cannot be silenced" in CliRunner().invoke(cli, ["explain", "C101"]).output


def test_explain_unknown_code_is_a_usage_error_with_a_suggestion() -> None:
    r = CliRunner().invoke(cli, ["explain", "C3O5"])
    assert r.exit_code == 2 and "did you mean `C305`?" in r.output


def test_explain_without_a_code_lists_every_code() -> None:
    r = CliRunner().invoke(cli, ["explain"])
    assert [line.split()[0] for line in r.output.splitlines()] == list(CODES)
