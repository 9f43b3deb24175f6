"""`chartc check --format human|short|json|github|sarif`: each renderer, its schema, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from compiler.build.validate import Schema, load_schema
from compiler.cli import cli
from compiler.diagnostics import CODES, Diagnostic, Severity, render_github, render_sarif
from dsl.ast import Span
from tests.conftest import ROOT

HEADER = 'game t { title "T" }\ncontext fb: flag\n'
# R1 overlaps (an error with a second labelled span); R2 falls off with its DRM (a warning) and R3
# falls off too but says why (suppressed).
FINDINGS = HEADER + (
    'chart [R1] "One" { roll 1d6 column r: text rows { 1-3: "a" 3-6: "b" } }\n'
    'chart [R2] "Two" { roll 1d6 column r: text drm f +1 when fb rows { 1-6: "a" } }\n'
    'chart [R3] "Three" { roll 1d6 column r: text drm f +1 when fb allow C305 "printed so" rows { 1-6: "a" } }\n'
)


@pytest.fixture()
def check(tmp_path: Path, monkeypatch):
    """Run `chartc check` in a fresh project holding `text` as charts/t/a.chart."""

    def invoke(text: str, *args: str):
        folder = tmp_path / "charts" / "t"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "a.chart").write_text(text, encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)

    return invoke


def _validator(schema: dict) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


# ---- json ------------------------------------------------------------------------------------------


def test_json_output_is_valid_against_its_schema(check) -> None:
    r = check(FINDINGS, "--format", "json")
    doc = json.loads(r.output)
    _validator(load_schema(Schema.DIAGNOSTICS)).validate(doc)
    assert r.exit_code == 1
    assert doc["summary"] == {"error": 1, "warning": 1, "note": 0, "suppressed": 1}
    [overlap] = [d for d in doc["diagnostics"] if d["code"] == "C301"]
    assert overlap["labels"] and overlap["labels"][0]["line"] == 3


def test_json_schema_rejects_a_diagnostic_without_position(check) -> None:
    doc = json.loads(check(FINDINGS, "--format", "json").output)
    del doc["diagnostics"][0]["line"]
    with pytest.raises(jsonschema.ValidationError, match="'line' is a required property"):
        _validator(load_schema(Schema.DIAGNOSTICS)).validate(doc)


def test_json_schema_file_is_the_shipped_one() -> None:
    assert json.loads((ROOT / "schemas" / "diagnostics.schema.json").read_text()) == load_schema(Schema.DIAGNOSTICS)


def test_corpus_json_is_schema_valid(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "json"])
    _validator(load_schema(Schema.DIAGNOSTICS)).validate(json.loads(r.output))


# ---- github ----------------------------------------------------------------------------------------


def test_github_annotation_escapes_properties_and_data() -> None:
    d = Diagnostic(
        "C305", Severity.WARNING, "100% off\r\nthe table: a,b", Span("charts/a,b:c.chart", 3, 5, 3, 9), "use `5+`"
    )
    assert render_github(d) == (
        "::warning file=charts/a%2Cb%3Ac.chart,line=3,col=5,endColumn=9,title=C305 modified-roll-off-table"
        "::100%25 off%0D%0Athe table: a,b%0Ahelp: use `5+`"
    )


def test_github_annotation_omits_columns_for_multi_line_spans() -> None:
    d = Diagnostic("C308", Severity.NOTE, "partial", Span("a.chart", 3, 5, 9, 2))
    assert render_github(d) == "::notice file=a.chart,line=3,endLine=9,title=C308 partial-chart::partial"


def test_github_format_prints_annotations_then_the_full_report(check) -> None:
    r = check(FINDINGS, "--format", "github")
    lines = r.output.splitlines()
    assert (
        lines[0].startswith("::error file=charts/t/a.chart,line=3,col=60,endColumn=63,")
        and "title=C301 overlapping-ranges" in lines[0]
    )
    assert lines[1].startswith("::warning file=charts/t/a.chart,line=4,")
    assert "error[C301]: `3-6` overlaps `1-3`" in r.output  # the human report follows
    assert " 3 | chart [R1]" in r.output
    assert lines[-1] == "checked 3 charts in 1 game: 1 error, 1 warning, 0 notes, 1 suppressed"
    assert r.exit_code == 1


def test_github_format_says_when_annotations_overflow(check) -> None:
    charts = "".join(
        f'chart [R{i}] "X" {{ roll 1d6 column r: text rows {{ 1-3: "a" 3-6: "b" }} }}\n' for i in range(12)
    )
    r = check(HEADER + charts, "--format", "github")
    assert r.output.count("::error ") == 12
    assert "::notice title=chartc::12 errors: GitHub shows only 10 annotations per level and step" in r.output


# ---- sarif -----------------------------------------------------------------------------------------


def _sarif_validator() -> jsonschema.Draft202012Validator:
    return _validator(json.loads((ROOT / "tests" / "data" / "sarif-essentials.schema.json").read_text()))


def test_sarif_has_the_fields_code_scanning_needs(check) -> None:
    r = check(FINDINGS, "--format", "sarif")
    doc = json.loads(r.output)
    _sarif_validator().validate(doc)
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == list(CODES)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
            "uri": "charts/t/a.chart",
            "uriBaseId": "%SRCROOT%",
        }
    by_rule = {res["ruleId"]: res for res in run["results"] if "suppressions" not in res}
    assert by_rule["C301"]["level"] == "error" and by_rule["C301"]["relatedLocations"][0]["message"]["text"]
    assert by_rule["C305"]["level"] == "warning"
    [silenced] = [res for res in run["results"] if "suppressions" in res]
    assert silenced["suppressions"] == [{"kind": "inSource", "justification": "printed so"}]
    assert r.exit_code == 1


def test_sarif_essentials_schema_rejects_column_zero() -> None:
    d = Diagnostic("C101", Severity.ERROR, "bad", Span("a.chart", 1, 1, 1, 2))
    doc = json.loads(render_sarif([d]))
    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"] = 0
    with pytest.raises(jsonschema.ValidationError):
        _sarif_validator().validate(doc)


def test_sarif_is_deterministic_and_quiet_on_clean_input(check) -> None:
    clean = HEADER + 'chart [R1] "One" { roll 1d6 column r: text rows { 1-6: "a" } }\n'
    first, second = check(clean, "--format", "sarif"), check(clean, "--format", "sarif")
    assert first.output == second.output and first.exit_code == 0
    assert json.loads(first.output)["runs"][0]["results"] == []


def test_sarif_uses_file_uris_for_paths_outside_the_working_folder() -> None:
    d = Diagnostic("C101", Severity.ERROR, "bad", Span("/tmp/my charts/a.chart", 1, 1, 1, 2))
    loc = json.loads(render_sarif([d]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "file:///tmp/my%20charts/a.chart"}


# ---- exit codes and strictness ------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["human", "short", "json", "github", "sarif"])
def test_warnings_exit_0_unless_strict(check, fmt: str) -> None:
    warn = HEADER + 'chart [R2] "Two" { roll 1d6 column r: text drm f +1 when fb rows { 1-6: "a" } }\n'
    assert check(warn, "--format", fmt).exit_code == 0
    assert check(warn, "--format", fmt, "--strict").exit_code == 1


def test_unknown_format_is_a_usage_error(check) -> None:
    assert check(FINDINGS, "--format", "xml").exit_code == 2
