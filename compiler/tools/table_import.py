"""`chartc import`: a table from a spreadsheet or a pasted text to a draft `.chart`.

The readers (`compiler.tools.table_readers`) turn CSV/TSV, XLSX/ODS (python-calamine) and Markdown
or pasted text tables into rows of `Cell`s, each with its spreadsheet address (`B3`) and what the
file stored (text, a number, a date, a time). `draft`, here, guesses the shape (a row table with
key columns, a range column and value columns; or a grid such as a CRT with the roll down and
column heads across), the dice from the ranges, enums from the key columns, and writes the chart
language.

Spreadsheets corrupt what charts hold: Excel turns `1-2` into a date, `3:1` into a time, `00`
into 0, and PDFs bring en dashes and minus signs. Each such cell is reported as an `ImportFinding`
(C360-C365, `compiler.tools.table_findings`) with its address and is written into the draft as
found, so the draft does not compile until the cell is fixed: nothing is repaired silently.
"""

from __future__ import annotations

import re

from compiler.tools.table_crt import grid_draft
from compiler.tools.table_draft import (
    DICE_WORD,
    INTEGER,
    NAME,
    ROLL_WORD,
    Draft,
    comment,
    document,
    guess_dice,
    raw_or,
    roll_lines,
    slug,
    value_text,
    zero_padded,
)
from compiler.tools.table_findings import (
    FOREIGN_DASHES,
    HEAD,
    RANGE,
    ImportFinding,
    foreign_dash,
    head_findings,
    is_date,
    range_cell,
    report,
    value_findings,
)
from compiler.tools.table_labels import range_text
from compiler.tools.table_readers import Cell, CellKind, ImportError_, column_letters, read_sheet, read_table
from dsl.source_text import clip, quote

# the API of `chartc import`: the readers' and the findings' names are re-exported from here
__all__ = [
    "NAME",
    "Cell",
    "CellKind",
    "Draft",
    "ImportError_",
    "ImportFinding",
    "draft",
    "guess_dice",
    "read_sheet",
    "read_table",
    "report",
]


# ---- shape and dice ------------------------------------------------------------------------------


def _looks_like_range(cell: Cell) -> bool:
    """A die range in a printed form (no die reads past 100: `1944-06` is a month), or a corrupted one."""
    written = range_text(cell.text)
    if written is not None:
        return all(int(n) <= 100 for n in re.findall(r"[0-9]+", written))
    return is_date(cell) or bool(foreign_dash(cell, RANGE))


def _is_span(cell: Cell) -> bool:
    """A range of more than one roll (`3-6`, `12+`, `1 or less`) or a corrupted one."""
    written = range_text(cell.text)
    if written is not None:
        return bool(re.search(r"[0-9][-+]", written))
    return bool(re.search(r"[0-9]" + f"[{FOREIGN_DASHES}]", cell.text)) or is_date(cell)


def _range_column(header: list[Cell], body: list[list[Cell]]) -> int | None:
    """The column of die ranges: the one whose header names dice or a roll, else the first whose
    cells are all ranges, some of them spans (`3-6`, `12+`) rather than plain numbers, or, under
    an empty head, the numbers of one die's faces in a row (`1`, `2`, `3`, `4`: a d4)."""
    for index, head in enumerate(header):
        if DICE_WORD.fullmatch(head.text) or ROLL_WORD.fullmatch(head.text):
            return index
    for index in range(len(header)):
        cells = [row[index] for row in body if row[index].text]
        if not cells or not all(_looks_like_range(c) or c.kind is CellKind.NUMBER for c in cells):
            continue
        if any(_is_span(c) for c in cells) or (not header[index].text and _faces(cells)):
            return index
    return None


def _faces(cells: list[Cell]) -> bool:
    """Whether single numbers are every face of a die in order (`2`, `3`, ... `12`: 2d6), once
    for each key value (`1` to `4`, then `1` to `4` again)."""
    numbers = [int(c.text) for c in cells if c.text.isdigit()]
    if len(numbers) != len(cells) or len(set(numbers)) < 2:
        return False
    faces = list(range(min(numbers), max(numbers) + 1))
    return numbers == faces * (len(numbers) // len(faces)) and guess_dice("", [str(n) for n in faces]) is not None


# ---- the draft -----------------------------------------------------------------------------------


def _integer_column(cells: list[Cell]) -> bool:
    filled = [c for c in cells if c.text not in ("", "-")]
    return bool(filled) and all(INTEGER.fullmatch(c.text) for c in filled)


def _row_number(row: list[Cell], fallback: int) -> int:
    """The spreadsheet row a row of cells came from (`B7` -> 7)."""
    digits = re.sub("[^0-9]", "", row[0].address) if row else ""
    return int(digits) if digits else fallback


def _padded(row: list[Cell], number: int, width: int) -> list[Cell]:
    """A row cut or filled with empty cells to `width` (a CSV row may be short)."""
    missing = [Cell("", CellKind.TEXT, f"{column_letters(i)}{number}") for i in range(len(row), width)]
    return (row + missing)[:width]


def _grid_head(cell: Cell) -> bool:
    """A column head of a CRT: odds (`3:1`), a differential (`-1/0`, `+7+`), a strength or a
    strength range (`6`, `3-5`, `20+`), or one of these a spreadsheet corrupted."""
    return bool(HEAD.fullmatch(cell.text) or head_findings(cell) or (cell.text and range_text(cell.text) == cell.text))


def _has_header(rows: list[list[Cell]]) -> bool:
    """Whether the first row heads the columns: it does unless a column of ranges (some of them
    spans, or a die's faces) starts with a range in the first row too, and no cell of that row
    names dice or a roll."""
    first, body = rows[0], rows[1:]
    if any(DICE_WORD.fullmatch(c.text) or ROLL_WORD.fullmatch(c.text) for c in first):
        return True
    if not body:  # a table of one row: a row when it holds a span of rolls (`2-12`)
        return not any(range_text(c.text) is not None and _is_span(c) for c in first)
    at = _range_column([Cell("", CellKind.TEXT, "") for _ in first], rows)
    return at is None or not first[at].text


def _no_header(rows: list[list[Cell]]) -> list[Cell]:
    """Empty heads for a table printed without them, each addressed by its column (`A`)."""
    return [Cell("", CellKind.TEXT, column_letters(i)) for i in range(len(rows[0]))]


def draft(rows: list[list[Cell]], name: str, title: str) -> Draft:
    """A draft chart (and its key enums) from a table's cells; see the module docstring.

    Args:
        rows: the cells, the first row holding the headers unless it is a row of the table
            (a range where the range column is, and no head naming dice).
        name: the chart's slug (a NAME).
        title: the chart's title.
    """
    if not NAME.fullmatch(name):
        raise ImportError_(f"`{clip(name)}` is not a name (letters, digits and `_`, not first a digit)")
    rows = [row for row in rows if any(c.text for c in row)]
    if not rows:
        raise ImportError_("the table is empty")
    width = max(len(r) for r in rows)
    while width > 1 and not any(len(r) >= width and r[width - 1].text for r in rows):
        width -= 1
    rows = [_padded(r, _row_number(r, n + 1), width) for n, r in enumerate(rows)]
    header, body = (rows[0], rows[1:]) if _has_header(rows) else (_no_header(rows), rows)
    if not body:
        raise ImportError_("the table needs a header row and at least one row")
    at = _range_column(header, body)
    if at == 0 and width > 1 and all(_grid_head(h) for h in header[1:]):
        return grid_draft(header, body, name, title)
    return _row_draft(header, body, at, name, title)


def _leading_keys(body: list[list[Cell]]) -> list[int]:
    """The key columns of a table without a range column: the fewest leading columns whose values
    tell every row apart (at least the first)."""
    width = len(body[0])
    for count in range(1, width):
        if len({tuple(c.text for c in row[:count]) for row in body}) == len(body):
            return list(range(count))
    return list(range(max(1, width - 1)))


def _row_draft(header: list[Cell], body: list[list[Cell]], at: int | None, name: str, title: str) -> Draft:
    findings: list[ImportFinding] = []
    empty = [i for i in range(len(header)) if i != at and not any(row[i].text for row in body)]
    key_columns = [k for k in (range(at) if at is not None else _leading_keys(body)) if k not in empty]
    value_columns = [i for i in range(len(header)) if i != at and i not in key_columns and i not in empty]
    taken: set[str] = {name}
    enums, key_ids, members = [], [], []
    for k in key_columns:
        key_id = slug(header[k].text or f"key_{k + 1}", taken)
        key_ids.append(key_id)
        member_ids: dict[str, str] = {}
        lines = []
        for row in body:
            text = row[k].text
            if text and text not in member_ids:
                member_ids[text] = slug(text, set(member_ids.values()))
                label = "" if member_ids[text] == text else f" {quote(text)}"
                lines.append(f"  {member_ids[text]}{label}")
        members.append(member_ids)
        enums.append("\n".join([f"enum {key_id} {quote(header[k].text or key_id)} {{", *lines, "}"]))
    lines = [f"chart {name} {quote(title)} {{"]
    # a column with no value in any row (a spacer, or a key the print leaves blank): no memberless enum
    lines += [f"  # the column {quote(header[i].text or f'{i + 1}')} is empty in every row: left out" for i in empty]
    if at is not None:
        lines += roll_lines(header[at], [row[at] for row in body], findings)
    lines += [f"  key {key_id}" for key_id in key_ids]
    integer = {}
    for v in value_columns:
        integer[v] = _integer_column([row[v] for row in body])
        column_id = slug(header[v].text.lower() or f"column_{v + 1}", taken)
        lines.append(f"  column {column_id}: {'int' if integer[v] else 'text'} {quote(header[v].text or column_id)}")
    lines.append("  rows {")
    padded = at is not None and zero_padded([row[at] for row in body])
    for row in body:
        cell_findings: list[ImportFinding] = []
        parts = [member_ids.get(row[k].text, "*") for k, member_ids in zip(key_columns, members, strict=True)]
        if at is not None:
            written, found = range_cell(row[at], padded)
            cell_findings += found
            parts.append(written)
        values = []
        for v in value_columns:
            found = value_findings(row[v])
            cell_findings += found
            values.append(raw_or(row[v], found, value_text(row[v], integer[v])))
        lines += [comment(f) for f in cell_findings]
        findings += cell_findings
        head = " ".join(p for p in parts if p)
        lines.append(f"    {head}: {', '.join(values)}" if values else f"    {head}: -")
    lines += ["  }", "}"]
    return Draft(document([*enums, "\n".join(lines)]), tuple(findings))

