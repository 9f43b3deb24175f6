"""The schema stays the contract of every generated JSON, now checked off the build's path:
`validate_outputs` names the file that fails, and `scripts/validate_outputs.py` (run by `.ci/run`
on `generated/`) passes the committed outputs and fails a broken one."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build.render import OutputError, validate_outputs
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "validate_outputs.py"


def _broken_r4(text: str) -> str:
    # IA2 R4 (7.1.10): a range bound the schema types as an integer, written as text
    doc = json.loads(text)
    chart = next(c for c in doc["charts"] if c["chart_id"] == "R4")
    chart["rows"][0]["range"]["min"] = "one"
    return json.dumps(doc)


def test_validate_outputs_names_the_failing_file() -> None:
    text = (ROOT / "generated" / "ia2" / "ia2.json").read_text(encoding="utf-8")
    validate_outputs({"ia2/ia2.json": text, "ia2/ia2.py": "not JSON, not validated"})
    failing = r"^ia2/ia2\.json: generated JSON does not match .* at charts/\d+/rows/0/range/min"
    with pytest.raises(OutputError, match=failing):
        validate_outputs({"ia2/ia2.json": _broken_r4(text).encode("utf-8")})


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
