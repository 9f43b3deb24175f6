"""A block a Markdown page of docs/ holds between two marker lines, printed by a script: the shared
command line of scripts/examples_report.py, corpus_report.py, fuzz_report.py and analyze_example.py
(print it; `--check` exits 1 when the page does not hold it; `--write` puts it there)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def marked(begin: str, end: str, block: str) -> str:
    """The block with its marker lines, as the page holds it."""
    return f"{begin}\n{block}\n{end}"


def doc_block_main(doc: str, page: Path, begin: str, end: str, make: Callable[[], str], what: str, script: str) -> int:
    """`make()` builds the block that `page` holds between the lines `begin` and `end`; `what` names
    it in the messages ("examples table")."""
    name = page.relative_to(ROOT).as_posix()
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help=f"exit 1 when {name} does not hold the {what}")
    parser.add_argument("--write", action="store_true", help=f"replace the {what} in {name} between its markers")
    args = parser.parse_args()
    text = marked(begin, end, make())
    held = page.read_text(encoding="utf-8")
    if args.check:
        if text not in held:
            print(f"{name}'s {what} is stale: run python {script} --write")
            return 1
        return 0
    if args.write:
        start, stop = held.find(begin), held.find(end)
        if start < 0 or stop < start:
            print(f"{name} has no {what} markers ({begin} ... {end})")
            return 1
        page.write_text(held[:start] + text + held[stop + len(end) :], encoding="utf-8")
        return 0
    print(text)
    return 0
