"""`chartc import`: a table from a spreadsheet or a pasted text to a draft `.chart`.

The readers (`compiler.tools.table_readers`) turn CSV/TSV, XLSX/ODS (python-calamine) and Markdown
or pasted text tables into rows of `Cell`s, each with its spreadsheet address (`B3`) and what the
file stored (text, a number, a date, a time). `draft`, here, guesses the shape (a row table with
key columns, a range column and value columns; or a grid such as a CRT with the roll down and
column heads across), the dice from the ranges, enums from the key columns, and writes the chart
language.

Spreadsheets corrupt what charts hold: Excel turns `1-2` into a date, `3:1` into a time, `00`
into 0, and PDFs bring en dashes and minus signs. Each such cell is reported as an `ImportFinding`
(C360-C364, `compiler.tools.table_findings`) with its address and is written into the draft as
found, so the draft does not compile until the cell is fixed: nothing is repaired silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from compiler.diagnostics import codes
from compiler.tools.table_findings import (
    FOREIGN_DASHES,
    HEAD,
    RANGE,
    ImportFinding,
    foreign_dash,
    head_findings,
    is_date,
    range_findings,
    report,
    value_findings,
)
from compiler.tools.table_readers import Cell, CellKind, ImportError_, column_letters, read_table
from dsl.source_text import quote

# the API of `chartc import`: the readers' and the findings' names are re-exported from here
__all__ = ["Cell", "CellKind", "Draft", "ImportError_", "ImportFinding", "draft", "read_table", "report"]


@dataclass(frozen=True)
class Draft:
    """A draft `.chart` and the findings to fix before it compiles."""

    text: str
    findings: tuple[ImportFinding, ...]


DICE_WORD = re.compile(r"([0-9]*d[0-9]+|d66|percentile)( zero reads (?P<zero>[0-9]+))?", re.IGNORECASE)
# Headers that name a column of rolls without saying which dice.
ROLL_WORD = re.compile(r"(die|dice|roll|die roll|dr|d%|result of roll|#)", re.IGNORECASE)
# a whole number as an `int` column holds it (no `+`, no leading zero: those stay text)
INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---- shape and dice ------------------------------------------------------------------------------


def _looks_like_range(cell: Cell) -> bool:
    """A die range (no die reads past 100: `1944-06` is a month), or a corrupted one."""
    if RANGE.fullmatch(cell.text):
        return all(int(n) <= 100 for n in re.findall(r"[0-9]+", cell.text))
    return is_date(cell) or bool(foreign_dash(cell, RANGE))


def _range_column(header: list[Cell], body: list[list[Cell]]) -> int | None:
    """The column of die ranges: the one whose header names dice or a roll, else the first whose
    cells are all ranges, some of them spans (`3-6`, `12+`) rather than plain numbers."""
    for index, head in enumerate(header):
        if DICE_WORD.fullmatch(head.text) or ROLL_WORD.fullmatch(head.text):
            return index
    for index in range(len(header)):
        cells = [row[index] for row in body if row[index].text]
        spans = [c for c in cells if re.search(r"[0-9][-+]|[0-9]" + f"[{FOREIGN_DASHES}]", c.text)]
        if cells and spans and all(_looks_like_range(c) or c.kind is CellKind.NUMBER for c in cells):
            return index
    return None


def _bounds(ranges: Iterable[str]) -> tuple[int, int] | None:
    numbers = [int(n) for text in ranges if RANGE.fullmatch(text) for n in re.findall(r"[0-9]+", text)]
    return (min(numbers), max(numbers)) if numbers else None


# the likeliest first: an open-ended `5+` fits several
_SUMS = {(1, 6): "1d6", (1, 10): "1d10", (1, 20): "1d20", (1, 4): "1d4", (1, 8): "1d8", (1, 12): "1d12"}
_SUMS_OF_D6 = {(2, 12): "2d6", (3, 18): "3d6"}


def guess_dice(header_text: str, ranges: list[str]) -> str | None:
    """The dice of a range column: its header when it names dice (`2d6`, `d66`), else the
    dice whose faces the ranges span (2-12 is 2d6; 11-66 with digits 1-6 is d66; 01-00 or up to
    100 is percentile); None when no dice fits."""
    if DICE_WORD.fullmatch(header_text):
        return header_text.lower()
    if not ROLL_WORD.fullmatch(header_text) and header_text:
        return None
    bounds = _bounds(ranges)
    if bounds is None:
        return None
    low, high = bounds
    digits = "".join(re.sub(r"[^0-9]", "", r) for r in ranges)
    if any(re.search(r"(^|-)0[0-9]", r) for r in ranges) or high in (99, 100) or (low == 0 and high > 20):
        return "percentile"
    if low >= 11 and high <= 66 and set(digits) <= set("123456"):
        return "d66"
    open_low, open_high = any(r.endswith("-") for r in ranges), any(r.endswith("+") for r in ranges)
    for table in (_SUMS_OF_D6, _SUMS):
        for (lo, hi), dice in table.items():
            if (low == lo or (open_low and low >= lo)) and (high == hi or (open_high and high <= hi)):
                return dice
    if low == 0 and high <= 9:
        return "1d10"  # a d10 printed with its 0 face
    return None


# ---- the draft -----------------------------------------------------------------------------------


def _slug(text: str, taken: set[str]) -> str:
    """A NAME for a header or key value: itself when it is one, else lowercased with `_`."""
    base = text if NAME.fullmatch(text) else re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not base or not NAME.fullmatch(base):
        base = f"v_{base}" if base else "value"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _value(cell: Cell, integers: bool) -> str:
    if cell.text in ("-", ""):
        return "-"
    if integers and INTEGER.fullmatch(cell.text):
        return cell.text
    return quote(cell.text)


def _integer_column(cells: list[Cell]) -> bool:
    filled = [c for c in cells if c.text not in ("", "-")]
    return bool(filled) and all(INTEGER.fullmatch(c.text) for c in filled)


def _raw_or(cell: Cell, findings: list[ImportFinding], written: str) -> str:
    """A corrupt cell is written as `??B3`, its address: the draft does not parse until the cell
    is fixed, and a CSV and a spreadsheet of the same table give the same draft."""
    return f"??{cell.address}" if findings else written


def _comment(finding: ImportFinding) -> str:
    """The draft's note above a cell to fix (the finding's message, without the cell's text)."""
    return f"    # {finding.code} at {finding.address}: {_WHAT[finding.code]}; {finding.help}"


_WHAT: dict[str, str] = {
    codes.DATE_FOR_RANGE.code: "a date where a range was",
    codes.TIME_FOR_ODDS.code: "a time where odds were",
    codes.ZERO_FOR_DOUBLE_ZERO.code: "a number where `00` was",
    codes.FOREIGN_DASH.code: "a dash that is not a hyphen",
    codes.UNKNOWN_DICE.code: "no dice fits the ranges",
}


def _padded(row: list[Cell], number: int, width: int) -> list[Cell]:
    """A row cut or filled with empty cells to `width` (a CSV row may be short)."""
    missing = [Cell("", CellKind.TEXT, f"{column_letters(i)}{number}") for i in range(len(row), width)]
    return (row + missing)[:width]


def draft(rows: list[list[Cell]], name: str, title: str) -> Draft:
    """A draft chart (and its key enums) from a table's cells; see the module docstring.

    Args:
        rows: the cells, the first row holding the headers.
        name: the chart's slug (a NAME).
        title: the chart's title.
    """
    rows = [row for row in rows if any(c.text for c in row)]
    if len(rows) < 2:
        raise ImportError_("the table needs a header row and at least one row")
    width = max(len(r) for r in rows)
    while width > 1 and not any(len(r) >= width and r[width - 1].text for r in rows):
        width -= 1
    rows = [_padded(r, n + 1, width) for n, r in enumerate(rows)]
    header, body = rows[0], rows[1:]
    at = _range_column(header, body)
    if at == 0 and width > 1 and all(HEAD.fullmatch(h.text) or head_findings(h) for h in header[1:]):
        return _grid_draft(header, body, name, title)
    return _row_draft(header, body, at, name, title)


def _roll_lines(header: Cell, ranges: list[Cell], findings: list[ImportFinding]) -> list[str]:
    dice = guess_dice(header.text, [c.text for c in ranges])
    if dice is not None:
        written = DICE_WORD.fullmatch(dice)
        if written is not None and written.group("zero") is not None:
            return [f"  roll {dice.split()[0]}", f"  zero reads {written.group('zero')}"]
        return [f"  roll {dice}"]
    findings.append(
        ImportFinding(
            codes.UNKNOWN_DICE.code,
            header.address,
            "the ranges fit no dice chartc knows",
            "add the `roll` line by hand (`roll 2d6`, `roll d66`, `roll percentile`)",
        )
    )
    return [f"  # roll ?  ({codes.UNKNOWN_DICE.code}: write the dice)"]


def _zero_padded(cells: list[Cell]) -> bool:
    return any(re.search(r"(^|-)0[0-9]", c.text) for c in cells) or any(
        RANGE.fullmatch(c.text) and max(map(int, re.findall(r"[0-9]+", c.text))) >= 90 for c in cells
    )


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
    key_columns = list(range(at)) if at is not None else _leading_keys(body)
    value_columns = [i for i in range(len(header)) if i != at and i not in key_columns]
    taken: set[str] = {name}
    enums, key_ids, members = [], [], []
    for k in key_columns:
        key_id = _slug(header[k].text or f"key_{k + 1}", taken)
        key_ids.append(key_id)
        member_ids: dict[str, str] = {}
        lines = []
        for row in body:
            text = row[k].text
            if text and text not in member_ids:
                member_ids[text] = _slug(text, set(member_ids.values()))
                label = "" if member_ids[text] == text else f" {quote(text)}"
                lines.append(f"  {member_ids[text]}{label}")
        members.append(member_ids)
        enums.append("\n".join([f"enum {key_id} {quote(header[k].text or key_id)} {{", *lines, "}"]))
    lines = [f"chart {name} {quote(title)} {{"]
    if at is not None:
        lines += _roll_lines(header[at], [row[at] for row in body], findings)
    lines += [f"  key {key_id}" for key_id in key_ids]
    integer = {}
    for v in value_columns:
        integer[v] = _integer_column([row[v] for row in body])
        column_id = _slug(header[v].text.lower() or f"column_{v + 1}", taken)
        lines.append(f"  column {column_id}: {'int' if integer[v] else 'text'} {quote(header[v].text or column_id)}")
    lines.append("  rows {")
    padded = at is not None and _zero_padded([row[at] for row in body])
    for row in body:
        cell_findings: list[ImportFinding] = []
        parts = [member_ids.get(row[k].text, "*") for k, member_ids in zip(key_columns, members, strict=True)]
        if at is not None:
            found = range_findings(row[at], padded)
            cell_findings += found
            parts.append(_raw_or(row[at], found, row[at].text))
        values = []
        for v in value_columns:
            found = value_findings(row[v])
            cell_findings += found
            values.append(_raw_or(row[v], found, _value(row[v], integer[v])))
        lines += [_comment(f) for f in cell_findings]
        findings += cell_findings
        head = " ".join(p for p in parts if p)
        lines.append(f"    {head}: {', '.join(values)}" if values else f"    {head}: -")
    lines += ["  }", "}"]
    return Draft(_document([*enums, "\n".join(lines)]), tuple(findings))


def _grid_draft(header: list[Cell], body: list[list[Cell]], name: str, title: str) -> Draft:
    findings: list[ImportFinding] = []
    key_id = f"{name}_column"
    taken: set[str] = set()
    heads = []
    for cell in header[1:]:
        found = head_findings(cell)
        findings += found
        heads.append((cell, found))
    members = [
        f"  ??{cell.address}" if found else f"  {_slug('c_' + cell.text, taken)} {quote(cell.text)}"
        for cell, found in heads
    ]
    enum_text = "\n".join([f"enum {key_id} {quote('Column')} {{", *members, "}"])
    lines = [f"chart {name} {quote(title)} {{"]
    lines += _roll_lines(header[0], [row[0] for row in body], findings)
    lines += [f"  key {key_id}", '  column result: text "Result"']
    head_list = ", ".join(f"??{cell.address}" if found else quote(cell.text) for cell, found in heads)
    lines += [_comment(f) for f in findings]
    lines += [f"  grid {key_id} [{head_list}] by roll {{"]
    padded = _zero_padded([row[0] for row in body])
    for row in body:
        found = range_findings(row[0], padded)
        cells = []
        for cell in row[1:]:
            cell_found = value_findings(cell)
            found += cell_found
            cells.append(_raw_or(cell, cell_found, _value(cell, False)))
        lines += [_comment(f) for f in found]
        findings += found
        range_text = _raw_or(row[0], [f for f in found if f.address == row[0].address], row[0].text)
        lines.append(f"    {range_text}: {' | '.join(cells)}")
    lines += ["  }", "}"]
    return Draft(_document([enum_text, "\n".join(lines)]), tuple(findings))


def _document(parts: list[str]) -> str:
    note = "# Draft made by `chartc import`: check every line against the printed chart."
    return note + "\n\n" + "\n\n".join(parts) + "\n"
