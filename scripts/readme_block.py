"""A table the README holds between two marker lines, printed by a script: the shared command line
of scripts/examples_report.py and scripts/corpus_report.py (print it; `--check` exits 1 when the
README does not hold it; `--write` puts it there)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_block_main(doc: str, begin: str, end: str, make: Callable[[], str], what: str, script: str) -> int:
    """`make()` builds the table; `what` names it in the stale message ("examples table")."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help=f"exit 1 when README.md does not hold the {what}")
    parser.add_argument("--write", action="store_true", help=f"replace the {what} in README.md between its markers")
    args = parser.parse_args()
    text = f"{begin}\n{make()}\n{end}"
    path = ROOT / "README.md"
    readme = path.read_text(encoding="utf-8")
    if args.check:
        if text not in readme:
            print(f"README.md's {what} is stale: run python {script} --write")
            return 1
        return 0
    if args.write:
        start, stop = readme.find(begin), readme.find(end)
        if start < 0 or stop < start:
            print(f"README.md has no {what} markers ({begin} ... {end})")
            return 1
        path.write_text(readme[:start] + text + readme[stop + len(end) :], encoding="utf-8")
        return 0
    print(text)
    return 0
