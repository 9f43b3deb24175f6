"""The schemas as a contract users can lean on: `chartc build` validates every game JSON before
writing it (a mismatch is chartc's bug: exit 3, nothing written), remembers what it found valid so
the same bytes are not read again, and `chartc validate` checks the JSON a consumer holds (a game
JSON, or the report of `chartc check --format json`); `scripts/validate_outputs.py` (run by
`.ci/run` on `generated/`) passes the committed outputs and fails a broken one."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import compiler.build.render
import compiler.cli as cli_module
from compiler.build import validate
from compiler.build.validate import InvalidOutput, Schema, validate_outputs
from compiler.cli import cli
from dsl.parser_cache import default_cache_dir, read_trusted, write_private
from tests.conftest import ROOT, tiny_game

SCRIPT = ROOT / "scripts" / "validate_outputs.py"
GAME_ID = "https://chartc.dev/schemas/chartc-game.schema.json"


def _broken_r4(text: str) -> str:
    # IA2 R4 (7.1.10): a range bound the schema types as an integer, written as text
    doc = json.loads(text)
    chart = next(c for c in doc["charts"] if c["chart_id"] == "R4")
    chart["rows"][0]["range"]["min"] = "one"
    return json.dumps(doc)


def _r4_index(text: str) -> int:
    return next(i for i, c in enumerate(json.loads(text)["charts"]) if c["chart_id"] == "R4")


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def own_cache(tmp_path: Path, monkeypatch) -> Path:
    """A cache folder of this test's own (the memo of valid JSON lives there), holding a copy of
    the saved parser so no test pays for building it."""
    cache = tmp_path / "cache" / "chartc"
    cache.mkdir(parents=True, mode=0o700)
    for saved in default_cache_dir().glob("grammar-*.lark"):
        shutil.copy(saved, cache / saved.name)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent))
    return cache


# ---- the build validates ---------------------------------------------------------------------------


def test_validate_outputs_names_the_failing_file() -> None:
    text = (ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8")
    validate_outputs({"ia2/ia2.json": text, "ia2/ia2.py": "not JSON, not validated"})
    failing = (r"^ia2/ia2\.json does not match chartc-game\.schema\.json at "
               rf"/charts/{_r4_index(text)}/rows/0/range/min: 'one' is not of type 'integer', 'null'$")
    with pytest.raises(InvalidOutput, match=failing):
        validate_outputs({"ia2/ia2.json": _broken_r4(text).encode("utf-8")})
    # a digest found valid before is not read again: these bytes are not valid, yet pass unread
    broken = _broken_r4(text)
    validate_outputs({"ia2/ia2.json": broken}, frozenset({validate.digest(broken)}))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_whose_json_breaks_the_schema_is_an_internal_error_and_writes_nothing(
        project: Path, monkeypatch, capsys, jobs: str) -> None:
    before = _tree(project / "generated")
    chart = project / "charts" / "ia2" / "combat.chart"
    chart.write_text(chart.read_text().replace('"Safe escape"', '"Safe escape!"'))  # every game rebuilt
    real_json = compiler.build.render.emit_game_json

    def broken_json(game):
        text = real_json(game)
        return _broken_r4(text) if game.id == "ia2" else text

    monkeypatch.setattr(compiler.build.render, "emit_game_json", broken_json)
    monkeypatch.setattr("sys.argv", ["chartc", "build", "--jobs", jobs])
    with pytest.raises(SystemExit) as exc:
        cli_module.main()
    err = capsys.readouterr().err
    assert exc.value.code == 3
    assert (f"chartc hit an internal error: ia2/ia2.json does not match chartc-game.schema.json at "
            f"/charts/{_r4_index(before['ia2/ia2.json'].decode())}/rows/0/range/min: 'one' is not of type") in err
    assert "nothing was written" in err and "a bug in chartc, not in your charts" in err
    assert "Traceback" not in err  # the message says it all
    assert _tree(project / "generated") == before  # no output changed, no temp file left


def test_a_build_remembers_the_json_it_found_valid_and_does_not_read_it_again(
        tmp_path: Path, own_cache: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for game in ("big", "small"):
        tiny_game(tmp_path / "charts", game, "Safe")
    read = []
    real_first = validate.first_violation
    monkeypatch.setattr(validate, "first_violation", lambda doc, schema: (read.append(doc["game"]["id"]),
                                                                           real_first(doc, schema))[1])
    assert CliRunner().invoke(cli, ["build", "charts", "--jobs", "1"]).exit_code == 0
    assert sorted(read) == ["big", "small"]
    written = {validate.digest(p.read_bytes()) for p in (tmp_path / "generated").glob("*/*.json")}
    assert validate.validated_before(own_cache) == written

    read.clear()  # the same bytes again, into another folder and as `--check`: nothing is read
    assert CliRunner().invoke(cli, ["build", "charts", "--out", "elsewhere", "--jobs", "1"]).exit_code == 0
    assert CliRunner().invoke(cli, ["build", "charts", "--check", "--jobs", "1"]).exit_code == 0
    assert read == []

    tiny_game(tmp_path / "charts", "small", "Safe escape")  # one game's JSON changes: only it is read
    assert CliRunner().invoke(cli, ["build", "charts", "--jobs", "1"]).exit_code == 0
    assert read == ["small"]
    assert validate.digest((tmp_path / "generated" / "small" / "small.json").read_bytes()) in (
        validate.validated_before(own_cache))


def test_the_memo_of_valid_json_is_dropped_when_its_key_or_content_is_foreign(own_cache: Path) -> None:
    validate.remember(own_cache, ["a" * 64, "b" * 64])
    assert validate.validated_before(own_cache) == {"a" * 64, "b" * 64}
    memo = own_cache / validate.MEMO_NAME
    saved = read_trusted(memo)
    assert saved is not None
    doc = json.loads(saved)
    # another chartc (its files or its schemas) or another jsonschema: nothing it found counts
    write_private(json.dumps({**doc, "key": "0" * 64}).encode(), memo)
    assert validate.validated_before(own_cache) == frozenset()
    for damaged in ("{", "[]", json.dumps({**doc, "valid": "ab"}), json.dumps({**doc, "format": "0"})):
        write_private(damaged.encode(), memo)
        assert validate.validated_before(own_cache) == frozenset()
    memo.write_text(json.dumps(doc))  # well-formed, but without the SHA-256 every cache file starts with
    assert validate.validated_before(own_cache) == frozenset()
    write_private(json.dumps(doc).encode(), memo)
    assert validate.validated_before(own_cache) == {"a" * 64, "b" * 64}
    memo.chmod(0o666)  # anyone may write it: not trusted
    assert validate.validated_before(own_cache) == frozenset()


def test_the_memo_keeps_the_newest_digests(own_cache: Path) -> None:
    first = [f"{i:064x}" for i in range(validate.MEMO_KEEP)]
    validate.remember(own_cache, first)
    validate.remember(own_cache, ["f" * 64, first[0]])  # first[0] remembered again: now among the newest
    kept = validate.validated_before(own_cache)
    assert len(kept) == validate.MEMO_KEEP and {"f" * 64, first[0]} <= kept and first[1] not in kept


# ---- chartc validate -------------------------------------------------------------------------------


def test_validate_passes_the_committed_game_json_and_a_check_report(run, tmp_path: Path) -> None:
    r = run("validate", "generated")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "generated/aa_rules/aa_rules.json: valid (chartc-game.schema.json)",
        "generated/ia2/ia2.json: valid (chartc-game.schema.json)",
        "generated/stuka_leader/stuka_leader.json: valid (chartc-game.schema.json)",
        "generated/usaaf/usaaf.json: valid (chartc-game.schema.json)",
        "4 valid, 0 not valid",
    ]
    # the report of a failing check: C2xx overlap in a case with a golden .errors file
    report = run("check", "tests/cases", "--format", "json").output
    assert json.loads(report)["summary"]["error"] > 0
    (tmp_path / "report.json").write_text(report, encoding="utf-8")
    r = run("validate", str(tmp_path / "report.json"))
    assert r.exit_code == 0 and f"{tmp_path / 'report.json'}: valid (diagnostics.schema.json)" in r.output


def test_validate_lists_every_violation_with_its_json_pointer(run, tmp_path: Path) -> None:
    text = (ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8")
    doc = json.loads(_broken_r4(text))
    doc["game"]["calendar"]["first"] = "1943-13"  # no 13th month
    doc["charts"][0]["a/b~c"] = 1  # a key that a JSON Pointer escapes
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    r = run("validate", str(bad))
    assert r.exit_code == 1
    assert r.output.splitlines() == [
        f"{bad}: not valid against chartc-game.schema.json: 3 violations",
        "  at /charts/0: Additional properties are not allowed ('a/b~c' was unexpected)",
        f"  at /charts/{_r4_index(text)}/rows/0/range/min: 'one' is not of type 'integer', 'null'",
        "  at /game/calendar/first: '1943-13' does not match '^[0-9]{4}-(0[1-9]|1[0-2])$'",
        "0 valid, 1 not valid",
    ]
    r = run("validate", str(bad), str(ROOT / "generated" / "usaaf" / "usaaf.json"), "--format", "json")
    assert r.exit_code == 1
    report = json.loads(r.output)
    assert report["summary"] == {"valid": 1, "not_valid": 1}
    [broken, usaaf] = report["files"]
    assert usaaf == {"file": str(ROOT / "generated" / "usaaf" / "usaaf.json"), "schema": "chartc-game.schema.json",
                     "valid": True, "problem": None, "violations": []}
    assert broken["valid"] is False and broken["problem"] is None
    assert [v["pointer"] for v in broken["violations"]] == [
        "/charts/0", f"/charts/{_r4_index(text)}/rows/0/range/min", "/game/calendar/first"]
    assert "'a/b~c' was unexpected" in broken["violations"][0]["message"]
    # a key inside a pointer is escaped as RFC 6901 says: `~` as `~0`, `/` as `~1`
    doc = json.loads(text)
    doc["charts"][_r4_index(text)]["rows"][0]["keys"]["a/b~c"] = 1
    bad.write_text(json.dumps(doc), encoding="utf-8")
    [violation] = json.loads(run("validate", str(bad), "--format", "json").output)["files"][0]["violations"]
    assert violation["pointer"] == f"/charts/{_r4_index(text)}/rows/0/keys/a~1b~0c"


def test_validate_prints_the_first_violations_and_counts_the_rest(run, tmp_path: Path) -> None:
    doc = json.loads((ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8"))
    for chart in doc["charts"][:25]:
        chart["extra"] = True
    bad = tmp_path / "many.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    lines = run("validate", str(bad)).output.splitlines()
    assert lines[0] == f"{bad}: not valid against chartc-game.schema.json: 25 violations"
    assert len(lines) == 1 + 20 + 2  # the first 20, the count of the rest, the summary
    assert lines[-2] == "  ... and 5 more (`--format json` lists every one)"
    assert len(json.loads(run("validate", str(bad), "--format", "json").output)["files"][0]["violations"]) == 25


def test_validate_says_why_a_file_was_not_validated(run, tmp_path: Path) -> None:
    files = {
        "text.json": b"not json\n",
        "nan.json": b'{"diagnostics": [], "summary": NaN}',
        "latin1.json": '{"t": "\u00e9"}'.encode("latin-1"),
        "other.json": b'{"a": 1}',
        "foreign.json": json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema"}).encode(),
        "deep.json": b"[" * 100_000,
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    r = run("validate", *(str(tmp_path / name) for name in files))
    assert r.exit_code == 1
    neither = ("neither a game JSON (`$schema` naming chartc-game.schema.json) "
               "nor a diagnostics JSON (`chartc check --format json`)")
    assert r.output.splitlines() == [
        f"{tmp_path / 'text.json'}: not JSON: Expecting value: line 1 column 1 (char 0)",
        f"{tmp_path / 'nan.json'}: not JSON: `NaN` is not a JSON value",
        f"{tmp_path / 'latin1.json'}: `{tmp_path / 'latin1.json'}` is not UTF-8: byte 0xE9 cannot be decoded "
        "(line 1, column 8)",
        f"{tmp_path / 'other.json'}: {neither}",
        f"{tmp_path / 'foreign.json'}: {neither}",
        f"{tmp_path / 'deep.json'}: not read: JSON nested too deeply",
        "0 valid, 6 not valid",
    ]


def test_validate_reports_a_document_too_deep_to_validate(run, tmp_path: Path) -> None:
    # a DRM condition (`not` of `not` of ...) within the JSON reader's depth (one level each), too deep
    # for jsonschema (several calls each); relative to the limit, which a test runner may raise
    doc = json.loads((ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8"))
    condition: dict[str, object] = {"op": "flag", "var": "x"}
    for _ in range(sys.getrecursionlimit() // 2):
        condition = {"op": "not", "of": condition}
    next(c for c in doc["charts"] if c["drms"])["drms"][0]["when"] = condition
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(doc), encoding="utf-8")
    r = run("validate", str(deep))
    assert r.exit_code == 1 and f"{deep}: not validated: JSON nested too deeply" in r.output


def test_validate_prints_hostile_text_safely(run, tmp_path: Path) -> None:
    # a row's keys map key names to values: a hostile name with a wrong value lands in the pointer,
    # and the file's own name is printed too
    text = (ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    doc["charts"][_r4_index(text)]["rows"][0]["keys"]["\x1b]52;c;evil\x07"] = 1
    bad = tmp_path / "hostile\x1b[2J.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    outputs = {}
    for fmt in ("human", "json"):
        r = run("validate", str(bad), "--format", fmt)
        assert r.exit_code == 1 and "\x1b" not in r.output and "\x07" not in r.output
        outputs[fmt] = r.output
    human = outputs["human"]
    assert "/rows/0/keys/<U+001B>]52;c;evil<U+0007>: 1 is not valid under any of the given schemas" in human
    assert "hostile<U+001B>[2J.json: not valid" in human
    assert human == run("validate", str(bad)).output  # human is the default format
    report = json.loads(outputs["json"])  # escaped, same data
    assert report["files"][0]["file"] == str(bad)
    assert report["files"][0]["violations"][0]["pointer"].endswith("/keys/\x1b]52;c;evil\x07")


def test_validate_usage_errors(run, tmp_path: Path) -> None:
    assert run("validate").exit_code == 2  # FILE... is required
    r = run("validate", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "no such file or folder" in r.output
    (tmp_path / "empty").mkdir()
    r = run("validate", str(tmp_path / "empty"))
    assert r.exit_code == 2 and "a folder without any .json file" in r.output


def test_schema_of_reads_what_a_document_claims() -> None:
    assert validate.schema_of({"$schema": GAME_ID}) is Schema.GAME
    assert validate.schema_of({"diagnostics": [], "summary": {}}) is Schema.DIAGNOSTICS
    assert validate.schema_of({"$schema": "https://example.org/x", "diagnostics": [], "summary": {}}) is None
    assert validate.schema_of([]) is None and validate.schema_of({"diagnostics": []}) is None


# ---- the CI script ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_ci_script_passes_generated_and_fails_a_broken_copy(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, str(SCRIPT), str(ROOT / "generated")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "match the schema" in ok.stdout
    shutil.copytree(ROOT / "generated", tmp_path / "generated")
    broken = tmp_path / "generated" / "ia2" / "ia2.json"
    broken.write_text(_broken_r4(broken.read_text(encoding="utf-8")), encoding="utf-8")
    bad = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "generated")], capture_output=True, text=True)
    assert bad.returncode == 1 and "ia2/ia2.json" in bad.stderr


def test_digest_is_the_writers_sha256() -> None:
    data = (ROOT / "generated" / "ia2" / "ia2.json").read_bytes()
    assert validate.digest(data) == validate.digest(data.decode("utf-8")) == hashlib.sha256(data).hexdigest()
