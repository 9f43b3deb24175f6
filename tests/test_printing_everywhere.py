"""Printings everywhere (issue 31): the game JSON records the printing it was built in, and `list`,
`vectors` and `export` read `--as-printed` / `--printing NAME` like `check`, `build` and `lookup`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.build.validate import Schema, validator
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED, UpTo
from tests.conftest import compile_text

# IA2 R4 (Escape Chart), as chartc_ia2's errata read it: a piston-engined interceptor escapes on
# 1-2 and fights on 3-6 as printed; the first round extends the fight to 3+, the second renames it.
GAME = '''game t { title "Test game" }
enum interceptor { piston "Piston-engined" jet "Jet or Rocket" }
chart [R4] escape "Escape Chart" {
  rule "7.1"
  roll 1d6
  key interceptor
  column result: text "Result"
  rows {
    piston 1-2: "Safe escape"
    piston 3-6: "Combat"
    jet 1-4: "Safe escape"
    jet 5-6: "Combat"
  }
}
errata e1 "First errata" { order 1 amend R4 { move piston 3-6 to 3+ because "7.1: a modified 7 still fights" } }
errata e2 "Second errata" { order 2 amend R4 { retitle "Escape Chart (optional)" because "7.1.2" } }
'''


@pytest.mark.parametrize(
    ("printing", "key", "label", "applied", "left_out"),
    [
        (None, "amended", "as corrected", ["e1", "e2"], []),
        (AS_PRINTED, "as-printed", "as printed", [], ["e1", "e2"]),
        (UpTo("e1"), "up-to-e1", "up to errata e1", ["e1"], ["e2"]),
    ],
)
def test_the_game_json_records_its_printing(tmp_path: Path, printing: object, key: str, label: str,
                                            applied: list[str], left_out: list[str]) -> None:
    compile_text(tmp_path, GAME)
    paths = [tmp_path / "charts"]
    comp = load(paths) if printing is None else load(paths, printing)  # type: ignore[arg-type]
    assert comp.diagnostics == []
    doc = json.loads(render_outputs(comp.project)["t/t.json"])
    validator(Schema.GAME).validate(doc)
    assert doc["printing"] == {"key": key, "label": label, "left_out": left_out}
    assert [e["id"] for e in doc["errata"]] == applied


def test_the_schema_refuses_a_printing_it_does_not_know(tmp_path: Path) -> None:
    compile_text(tmp_path, GAME)
    doc = json.loads(render_outputs(load([tmp_path / "charts"]).project)["t/t.json"])
    doc["printing"]["key"] = "second printing"  # a key is `amended`, `as-printed` or `up-to-ID`
    with pytest.raises(jsonschema.ValidationError):
        validator(Schema.GAME).validate(doc)
    del doc["printing"]
    with pytest.raises(jsonschema.ValidationError):
        validator(Schema.GAME).validate(doc)


def _run(tmp_path: Path, *args: str) -> str:
    r = CliRunner().invoke(cli, [*args, "--charts", str(tmp_path / "charts")])
    assert r.exit_code == 0, r.output
    return r.output


def test_list_reads_a_printing(tmp_path: Path) -> None:
    compile_text(tmp_path, GAME)
    assert "Escape Chart (optional)" in _run(tmp_path, "list", "t")
    assert "Escape Chart (optional)" not in _run(tmp_path, "list", "t", "--printing", "e1")
    [entry] = json.loads(_run(tmp_path, "list", "t", "--as-printed", "--format", "json"))
    assert entry["title"] == "Escape Chart"
    r = CliRunner().invoke(cli, ["list", "t", "--printing", "e9", "--charts", str(tmp_path / "charts")])
    assert r.exit_code == 2 and "has no errata `e9`" in r.output


def test_vectors_read_a_printing_and_say_which(tmp_path: Path) -> None:
    # the rows of a case index the chart's `rows` in the game JSON of the same printing
    extra = ('errata e3 "Third errata" { order 3 amend R4 { move jet 1-4 to 1-5 move jet 5-6 to 6 '
             'because "jets escape more often" } }\n')
    compile_text(tmp_path, GAME + extra)
    corrected = json.loads(_run(tmp_path, "vectors", "t"))
    printed = json.loads(_run(tmp_path, "vectors", "t", "--as-printed"))
    up_to = json.loads(_run(tmp_path, "vectors", "t", "--printing", "e2"))
    assert (corrected["printing"], printed["printing"], up_to["printing"]) == ("amended", "as-printed", "up-to-e2")

    def jet_six(doc: dict[str, object]) -> object:
        [r4] = doc["charts"]  # type: ignore[index]
        [case] = [c for c in r4["cases"] if c["keys"] == {"interceptor": "jet"}]
        return case["chances"]

    assert jet_six(printed) == jet_six(up_to) != jet_six(corrected)  # jet escapes on 1-5 only after e3


def test_export_reads_a_printing(tmp_path: Path) -> None:
    compile_text(tmp_path, GAME)
    assert "piston,3+,Combat" in _run(tmp_path, "export", "t/R4")
    assert "piston,3-6,Combat" in _run(tmp_path, "export", "t/R4", "--as-printed")
    assert "piston,3+,Combat" in _run(tmp_path, "export", "t/R4", "--printing", "e1")
