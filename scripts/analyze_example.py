"""The `chartc analyze` example of docs/cli.md, from the test game's CRT.

    python scripts/analyze_example.py          # print the block
    python scripts/analyze_example.py --check  # exit 1 when docs/cli.md does not hold it
    python scripts/analyze_example.py --write  # put it in docs/cli.md

The block is the output of `chartc analyze crtlab/CRT --charts tests/data/charts`, run in-process.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "cli.md"
BEGIN = "<!-- analyze example: python scripts/analyze_example.py -->"
END = "<!-- end of analyze example -->"
COMMAND = ["analyze", "crtlab/CRT", "--charts", "tests/data/charts"]


def block() -> str:
    """The command and what it prints, as a fenced block."""
    from click.testing import CliRunner

    from compiler.cli import cli

    cwd = os.getcwd()
    os.chdir(ROOT)  # --charts is relative to the repository
    try:
        result = CliRunner().invoke(cli, COMMAND, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    return f"```\n$ chartc {' '.join(COMMAND)}\n{result.output}```"


def main() -> int:
    from scripts.doc_block import doc_block_main

    return doc_block_main(__doc__ or "", PAGE, BEGIN, END, block, "analyze example", "scripts/analyze_example.py")


if __name__ == "__main__":
    raise SystemExit(main())
