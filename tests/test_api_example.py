"""docs/api.md's worked example (issue 31): one IA2 mission segment played with the generated module
alone, run on the committed module and compared with the output the page prints."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import ROOT

_BLOCK = re.compile(
    r"<!-- api example: (\S+) -->\n```python\n(?P<code>.*?)```\n\nprints\n\n```text\n(?P<out>.*?)```", re.DOTALL
)


def test_the_api_pages_mission_segment_runs_as_printed() -> None:
    # IA2 7.1.10 (R4, F/B attack +1), 7.1.5 (flak -> [B3]), 7.8.7 (Knight's Cross, -1 per point beyond 30)
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = _BLOCK.search(page)
    assert found is not None, "docs/api.md has no `<!-- api example: ... -->` block followed by its output"
    folder = ROOT / found.group(1)
    ran = subprocess.run(
        [sys.executable, "-c", found.group("code")], cwd=folder, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == found.group("out")
    assert "import chartc" not in found.group("code") and "compiler" not in found.group("code")  # the module alone
