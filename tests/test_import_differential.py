"""`chartc import` against generated printed tables (tests/importgen.py, tests/import_differential.py).

The differential: every table written as CSV, XLSX, ODS and Markdown imports with no finding, the
drafts check with no error, and every lookup (each key value, each natural roll) answers the cell
the table prints. The round-trip fuzzer: damaged tables import or are refused (never a traceback),
a draft never holds more than its chart, and a clean draft exported and imported again reads the
same. `pytest` runs a few of each; `pytest -m slow` runs 1,000 tables per format and 4,000 damaged
tables; `scripts/fuzz_import.py` runs the long passes whose ledger (tests/fuzz_import_ledger.jsonl)
docs/records/fuzzing.md shows.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.import_differential import FORMATS, differential, round_trip


@pytest.mark.parametrize("fmt", FORMATS)
def test_generated_tables_import_and_read_as_printed(fmt: str, tmp_path: Path) -> None:
    run = differential(range(0, 25), fmt, tmp_path)
    assert [str(f) for f in run.failures] == []
    assert run.cases == 25 and run.lookups > 1_000


def test_damaged_tables_import_safely_and_round_trip(tmp_path: Path) -> None:
    run = round_trip(range(0, 120), tmp_path)
    assert [str(f) for f in run.failures] == []
    assert run.round_trips >= 20 and run.held_back >= 40  # both sides of the property are exercised


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_thousand_tables_per_format(fmt: str, tmp_path: Path) -> None:
    run = differential(range(10_000, 11_000), fmt, tmp_path)
    assert [str(f) for f in run.failures] == []
    assert run.cases == 1_000


@pytest.mark.slow
def test_four_thousand_damaged_tables(tmp_path: Path) -> None:
    run = round_trip(range(10_000, 14_000), tmp_path)
    assert [str(f) for f in run.failures] == []
    assert run.round_trips >= 500


def test_the_fuzzing_record_holds_the_import_ledger_table() -> None:
    fuzz = importlib.import_module("scripts.fuzz_import")
    page = fuzz.PAGE.read_text(encoding="utf-8")
    assert f"{fuzz.BEGIN}\n{fuzz.table()}\n{fuzz.END}" in page


def test_the_import_ledger_records_no_failure() -> None:
    records = [json.loads(line) for line in (ROOT / "tests" / "fuzz_import_ledger.jsonl").read_text().splitlines()]
    assert records and all(r["failures"] == 0 for r in records)
    assert {r["mode"] for r in records} == {"differential", "round-trip"}
