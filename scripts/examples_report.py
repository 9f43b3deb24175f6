"""The table of the rulebooks' worked examples in docs/records/corpus.md: per game, how many `example` blocks
`charts/` holds, how many the charts agree with, and each one the book contradicts with the
decision chartc took (its `contradicts` line).

    python scripts/examples_report.py          # print the table (Markdown)
    python scripts/examples_report.py --check  # exit 1 when docs/records/corpus.md does not hold it
    python scripts/examples_report.py --write  # put it in docs/records/corpus.md
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "records" / "corpus.md"
BEGIN = "<!-- examples table: python scripts/examples_report.py -->"
END = "<!-- end of examples table -->"


def table() -> str:
    from compiler.build.project import load

    comp = load([ROOT / "charts"])
    kept = {d.span.line: d for d in comp.diagnostics if d.code == "C461"}
    lines = [
        "| game | examples | the charts agree "
        "| the book contradicts its charts (C461 notes): each chart kept as printed, because |",
        "|---|---|---|---|",
    ]
    for game_id, game in sorted(comp.project.games.items()):
        contradicted = [e for e in game.examples if e.contradicts is not None]
        cells = "; ".join(
            f"`{e.id}` ({e.rule}): {e.contradicts}"
            for e in contradicted
            if any(e.span.line <= line <= e.span.end_line for line in kept)
        )
        agree = len(game.examples) - len(contradicted)
        lines.append(f"| {game_id} | {len(game.examples)} | {agree} | {cells or 'none'} |")
    return "\n".join(lines)


def main() -> int:
    from scripts.doc_block import doc_block_main

    return doc_block_main(__doc__ or "", PAGE, BEGIN, END, table, "examples table", "scripts/examples_report.py")


if __name__ == "__main__":
    raise SystemExit(main())
