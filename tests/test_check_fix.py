"""`chartc check --fix / --unsafe-fixes / --diff`, and the fix in every output format."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from compiler.build.validate import Schema, load_schema
from compiler.cli import cli
from tests.conftest import ROOT

HEADER = 'game t { title "T" }\nenum side { piston "Piston-engined" jet "Jet or Rocket" }\ncontext fb: flag\n'
# a reversed range (C304, safe), a bare word in a text column (C402, safe), an `allow` that silences
# nothing (C501, safe) and a misspelt key value (C201, unsafe: the closest name is a guess)
CHART = HEADER + (
    'chart [R4] "Escape" {\n'
    "  roll 1d6 key side column result: text\n"
    '  allow C305 "printed so"\n'
    '  rows { pistn 2-1: "Safe" piston 3-6: Combat jet 1-6: "Combat" }\n'
    "}\n"
)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    return folder / "a.chart"


def _check(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)


def test_fix_applies_the_safe_fixes_and_reports_what_is_left(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    r = _check("--fix", "--format", "short")
    assert project.read_text(encoding="utf-8") == HEADER + (
        'chart [R4] "Escape" {\n'
        "  roll 1d6 key side column result: text\n"
        '  rows { pistn 1-2: "Safe" piston 3-6: "Combat" jet 1-6: "Combat" }\n'
        "}\n"
    )
    # what is left: the misspelt key, whose fix is unsafe
    assert r.stdout == "charts/t/a.chart:6:10: error[C201]: `pistn` is not a value of key `side` in chart `R4`\n"
    assert "fixed 3 findings in 1 file; 1 more with `--unsafe-fixes`" in r.stderr
    assert r.exit_code == 1


def test_unsafe_fixes_apply_the_rest(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    r = _check("--fix", "--unsafe-fixes")
    assert 'rows { piston 1-2: "Safe" piston 3-6: "Combat" jet 1-6: "Combat" }' in project.read_text(encoding="utf-8")
    assert r.exit_code == 0 and "0 errors, 0 warnings" in r.stdout
    assert "fixed 4 findings in 1 file" in r.stderr


def test_fix_keeps_line_ends_byte_order_mark_and_mode(project: Path) -> None:
    project.write_bytes(b"\xef\xbb\xbf" + CHART.replace("\n", "\r\n").encode("utf-8"))
    os.chmod(project, 0o640)
    assert _check("--fix").exit_code == 1
    data = project.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\n") == data.count(b"\n") == 7
    assert b'pistn 1-2: "Safe" piston 3-6: "Combat"' in data
    assert project.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in project.parent.iterdir()] == ["a.chart"]  # no temp file left beside it


def test_diff_shows_the_fixes_and_writes_nothing(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    r = _check("--diff")
    assert project.read_text(encoding="utf-8") == CHART
    assert r.stdout.splitlines() == [
        "--- charts/t/a.chart",
        "+++ charts/t/a.chart",
        "@@ -3,6 +3,5 @@",
        " context fb: flag",
        ' chart [R4] "Escape" {',
        "   roll 1d6 key side column result: text",
        '-  allow C305 "printed so"',
        '-  rows { pistn 2-1: "Safe" piston 3-6: Combat jet 1-6: "Combat" }',
        '+  rows { pistn 1-2: "Safe" piston 3-6: "Combat" jet 1-6: "Combat" }',
        " }",
    ]
    assert "would fix 3 findings in 1 file" in r.stderr
    assert r.exit_code == 1


def test_diff_of_clean_charts_is_empty(project: Path) -> None:
    project.write_text(HEADER + 'chart [R4] "Escape" { roll 1d6 column r: text rows { 1-6: "a" } }\n', encoding="utf-8")
    r = _check("--diff")
    assert (r.stdout, r.exit_code) == ("", 0)


def test_unsafe_fixes_alone_is_a_usage_error(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    r = _check("--unsafe-fixes")
    assert r.exit_code == 2 and "--unsafe-fixes goes with --fix or --diff" in r.output


def test_the_human_report_shows_each_fix_and_says_how_to_apply_it(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    r = _check()
    assert "   = fix (safe): replace `2-1` with `1-2`" in r.stdout
    assert '   = fix (safe): quote it: `"Combat"`' in r.stdout
    assert "   = fix (unsafe): replace `pistn` with `piston`" in r.stdout
    # the line as the fix leaves it, `~` under the new text
    assert ' 7 |   rows { piston 2-1: "Safe" piston 3-6: Combat jet 1-6: "Combat" }\n   |          ~~~~~~\n' in r.stdout
    assert "3 findings can be fixed with `chartc check --fix` (1 more with `--unsafe-fixes`)" in r.stdout


def _validator(schema: dict) -> jsonschema.Draft202012Validator:  # type: ignore[type-arg]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_json_carries_the_fix(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    doc = json.loads(_check("--format", "json").stdout)
    _validator(load_schema(Schema.DIAGNOSTICS)).validate(doc)
    by_code = {d["code"]: d for d in doc["diagnostics"]}
    assert by_code["C201"]["fix"] == {
        "message": "replace `pistn` with `piston`",
        "applicability": "unsafe",
        "edits": [
            {"file": "charts/t/a.chart", "line": 7, "column": 10, "end_line": 7, "end_column": 15, "text": "piston"}
        ],
    }
    assert by_code["C501"]["fix"]["applicability"] == "safe" and by_code["C501"]["fix"]["edits"][0]["text"] == ""


def test_sarif_carries_the_fix_as_artifact_changes(project: Path) -> None:
    project.write_text(CHART, encoding="utf-8")
    doc = json.loads(_check("--format", "sarif").stdout)
    _validator(json.loads((ROOT / "tests" / "data" / "sarif-essentials.schema.json").read_text())).validate(doc)
    run = doc["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    [result] = [r for r in run["results"] if r["ruleId"] == "C201"]
    assert result["fixes"] == [
        {
            "description": {"text": "replace `pistn` with `piston`"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "charts/t/a.chart", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {"startLine": 7, "startColumn": 10, "endLine": 7, "endColumn": 15},
                            "insertedContent": {"text": "piston"},
                        }
                    ],
                }
            ],
            "properties": {"applicability": "unsafe"},
        }
    ]
    [deletion] = [r for r in run["results"] if r["ruleId"] == "C501"]
    assert "insertedContent" not in deletion["fixes"][0]["artifactChanges"][0]["replacements"][0]
