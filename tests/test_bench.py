"""scripts/bench.py: its synthetic corpus is a clean game using every construct of
docs/language.md, the same data as YAML and JSON, and the script runs (timings are never asserted)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import yaml

from compiler.build.project import load
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "bench.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chartc_bench", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being created
    spec.loader.exec_module(module)
    return module


def test_the_synthetic_corpus_is_clean_and_the_same_in_yaml_and_json(tmp_path: Path) -> None:
    bench = _bench()
    files = bench.write_synthetic(tmp_path, 300)
    comp = load([files["charts"]])
    assert comp.diagnostics == []
    [game] = comp.project.games.values()
    # the bulk: 2d6 combat charts of 28 rows keyed by unit type, 8 in each round of the 16 chart
    # forms; 300 rows take two rounds
    assert sum(len(c.rows) for c in game.charts if c.dice is not None and c.dice.text == "2d6") == 2 * 8 * 28
    text = (files["charts"] / "synth" / "synth.chart").read_text(encoding="utf-8")
    for construct in ("roll 2d6", "roll percentile", "roll d66", "roll 1d10", "9-0", "value fatigue_level",
                      "key month", "grid period", "availability aircraft by month", "thresholds", "chartref",
                      "derive from", "drms [", "odds crt_odds", "external [B6]", "invariant", "errata second",
                      "fields {", " when ", "[1]"):
        assert construct in text, construct
    data = json.loads(files["json"].read_text(encoding="utf-8"))
    assert yaml.load(files["yaml"].read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) == data
    assert data == json.loads(json.dumps(bench.synthetic_game(300)))  # deterministic


def test_the_benchmark_runs_a_cheap_row() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--only", "help", "--runs", "1", "--stages",
                           "--rows", "100"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "| `chartc --help` vs `python -c pass`, editable install |" in done.stdout and "Machine: " in done.stdout
    # the last stage builds the syntax tree again without dsl/callbacks.py and asserts it is the same
    without = "the same parse without dsl/callbacks.py"
    for stage in ("Lark's lexer and LALR loop alone, again", "the parse, the syntax tree built", "| checks |", without):
        assert stage in done.stdout, done.stdout


def test_a_comparison_with_another_checkout_is_printed_without_a_target() -> None:
    # `--baseline DIR`: docs/records/speed.md's before/after of `chartc check` (issue 16) comes from this row
    bench = _bench()
    row = bench.Row("check-baseline", "same vs the check of `main`", float("inf"), 2.5, 2.96, 0.845)
    [line] = [x for x in bench.render([row], 7) if x.startswith("| same")]
    assert line == "| same vs the check of `main` | 2.50 s | 2.96 s | 0.84x | - | - |"


def test_the_speed_record_holds_every_row_of_issue_35_and_the_page_shows_it() -> None:
    # issue 35, item 5: docs/records/speed.md shows the table of the last `scripts/bench.py --write`
    # (its rows in docs/records/speed.json), and that run measured every row of the issue's table
    bench = _bench()
    record = json.loads(bench.RECORD.read_text(encoding="utf-8"))
    names = [row["name"] for row in record["rows"]]
    missing = [name for name in bench.ISSUE_35 if name not in names]
    assert not missing, f"run python scripts/bench.py --write with the rows {missing}"
    page = bench.PAGE.read_text(encoding="utf-8")
    assert f"{bench.BEGIN}\n{bench.recorded_table()}\n{bench.END}" in page, "run python scripts/bench.py --write"


def test_a_refused_answer_is_printed_and_not_met() -> None:
    # chartc refusing the dice (C405 on 10d10 keep highest 3, before issue 35) is a row, never a skip
    bench = _bench()
    row = bench.Row("odds-10d10", "odds, 10d10 keep highest 3 vs icepool", 1, 0.0, 0.0017, float("inf"),
                    refused="refused (C405)")
    [line] = [x for x in bench.render([row], 7) if x.startswith("| odds")]
    assert line == "| odds, 10d10 keep highest 3 vs icepool | refused (C405) | 1.7 ms | - | ≤ 1x | no |"
    assert not row.meets
