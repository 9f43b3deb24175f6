"""The corpus tables of docs/records/corpus.md, read from the four inventories in docs/corpus/: per game, how many
items the book prints in full, how many are transcribed (or partial: transcribed as far as the print
goes) and how many are not expressible; then every item with its charts, its status and the
findings `chartc check charts` reports for them.

Each inventory holds one table under the heading "## Printed in full", with the columns `charts`,
`item`, `rule`, `status` (transcribed, partial or not expressible, first words), `findings` (each
finding as "CODE `name`: why") and `remarks` (for a partial or not-expressible item, what the print
lacks or the construct it would need: required, unless its `findings` say it). An optional `file`
column names the chart files (`charts/<game>/<file>.chart`, comma-separated, a remark in
parentheses after them) that declare the item's charts; the tests hold it to charts/.

    python scripts/corpus_report.py          # print the tables (Markdown)
    python scripts/corpus_report.py --check  # exit 1 when docs/records/corpus.md does not hold them
    python scripts/corpus_report.py --write  # put them in docs/records/corpus.md
"""

from __future__ import annotations

import enum
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import assert_never

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "records" / "corpus.md"
BEGIN = "<!-- corpus tables: python scripts/corpus_report.py -->"
END = "<!-- end of corpus tables -->"
HEADING = "## Printed in full"
GAMES = ("ia2", "usaaf", "aa_rules", "stuka_leader")
COLUMNS = ("charts", "item", "rule", "status", "findings", "remarks")


class Status(enum.Enum):
    TRANSCRIBED = "transcribed"
    PARTIAL = "partial"
    NOT_EXPRESSIBLE = "not expressible"


@dataclass(frozen=True)
class Item:
    game: str
    line: int
    charts: str
    names: tuple[str, ...]
    item: str
    rule: str
    status: Status
    findings: str
    remarks: str
    files: tuple[str, ...] = ()
    """The chart files of the `file` column (without `.chart`), when the inventory has one."""


class InventoryError(ValueError):
    pass


def split_row(line: str) -> list[str]:
    """The cells of a Markdown table row; a `|` inside backticks stays in its cell."""
    cells: list[str] = []
    cell: list[str] = []
    in_code = False
    for char in line.strip()[1:-1]:
        if char == "`":
            in_code = not in_code
        if char == "|" and not in_code:
            cells.append("".join(cell).strip())
            cell = []
        else:
            cell.append(char)
    cells.append("".join(cell).strip())
    return cells


def parse_status(text: str, where: str) -> Status:
    plain = text.replace("*", "").strip().lower()
    for status in Status:
        if plain.startswith(status.value):
            return status
    raise InventoryError(f"{where}: status {text!r} is none of {', '.join(s.value for s in Status)}")


def parse_inventory(game: str, text: str) -> list[Item]:
    lines = text.split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == HEADING)
    except StopIteration:
        raise InventoryError(f"docs/corpus/{game}.md has no {HEADING!r} section") from None
    header_at = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    header = [h.lower() for h in split_row(lines[header_at])]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InventoryError(f"docs/corpus/{game}.md:{header_at + 1}: the table lacks column(s) {', '.join(missing)}")
    at = {c: header.index(c) for c in COLUMNS}
    items = []
    for number in range(header_at + 2, len(lines)):
        line = lines[number]
        if not line.startswith("|"):
            break
        where = f"docs/corpus/{game}.md:{number + 1}"
        cells = split_row(line)
        if len(cells) != len(header):
            raise InventoryError(f"{where}: {len(cells)} cells under {len(header)} columns")
        status = parse_status(cells[at["status"]], where)
        remarks = cells[at["remarks"]]
        if status is not Status.TRANSCRIBED and not (remarks or cells[at["findings"]]):
            raise InventoryError(f"{where}: a {status.value} item must say why, in `remarks` or `findings`")
        charts = cells[at["charts"]]
        files = tuple(re.findall(r"[a-z0-9_]+", cells[header.index("file")].split("(")[0])) if "file" in header else ()
        items.append(
            Item(
                game=game,
                line=number + 1,
                charts=charts,
                names=tuple(re.findall(r"`([^`]+)`", charts)),
                item=cells[at["item"]],
                rule=cells[at["rule"]],
                status=status,
                findings=cells[at["findings"]],
                remarks=remarks,
                files=files,
            )
        )
    if not items:
        raise InventoryError(f"docs/corpus/{game}.md: the {HEADING!r} table has no rows")
    return items


def inventories() -> dict[str, list[Item]]:
    return {
        game: parse_inventory(game, (ROOT / "docs" / "corpus" / f"{game}.md").read_text(encoding="utf-8"))
        for game in GAMES
    }


def counts_table(books: dict[str, list[Item]]) -> str:
    lines = [
        "| game | printed in full | transcribed | partial (as far as printed) | not expressible "
        "| share transcribed |",
        "|---|---|---|---|---|---|",
    ]
    for game, items in books.items():
        tally = dict.fromkeys(Status, 0)
        for item in items:
            tally[item.status] += 1
        done = tally[Status.TRANSCRIBED] + tally[Status.PARTIAL]
        share = 100 * done / len(items)
        lines.append(
            f"| {game} | {len(items)} | {tally[Status.TRANSCRIBED]} | {tally[Status.PARTIAL]} "
            f"| {tally[Status.NOT_EXPRESSIBLE]} | {share:.1f} % |"
        )
    return "\n".join(lines)


def status_cell(status: Status) -> str:
    match status:
        case Status.TRANSCRIBED:
            return "transcribed"
        case Status.PARTIAL:
            return "partial"
        case Status.NOT_EXPRESSIBLE:
            return "**not expressible**"
        case _:
            assert_never(status)


def items_table(books: dict[str, list[Item]]) -> str:
    lines = [
        "| game | charts | item (rule) | status | findings of `chartc check charts`, and why not transcribed |",
        "|---|---|---|---|---|",
    ]
    for game, items in books.items():
        for item in items:
            why = item.remarks if item.status is not Status.TRANSCRIBED else ""
            explained = "; ".join(part for part in (item.findings, why) if part)
            status = status_cell(item.status)
            lines.append(f"| {game} | {item.charts} | {item.item} ({item.rule}) | {status} | {explained} |")
    return "\n".join(lines)


def tables() -> str:
    books = inventories()
    return f"{counts_table(books)}\n\n{items_table(books)}"


def main() -> int:
    from scripts.doc_block import doc_block_main

    try:
        return doc_block_main(__doc__ or "", PAGE, BEGIN, END, tables, "corpus tables", "scripts/corpus_report.py")
    except InventoryError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
