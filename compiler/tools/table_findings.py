"""What spreadsheets and PDFs do to a table's cells, as findings of `chartc import` (C360-C365):
Excel turns `1-2` into a date, `3:1` into a time, `00` into 0, and PDFs bring en dashes and minus
signs. Each such cell is an `ImportFinding` with its address; `report` words them for the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from compiler.diagnostics import CODES, codes
from compiler.diagnostics.code_type import Code
from compiler.tools.table_labels import range_text
from compiler.tools.table_readers import Cell, CellKind
from dsl.source_text import clip


@dataclass(frozen=True)
class ImportFinding:
    """A cell chartc will not guess about: the code's id (`C360`), the cell, what is wrong and the fix."""

    code: str
    address: str
    message: str
    help: str


# The dashes PDFs and word processors put where a hyphen-minus belongs.
FOREIGN_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_NAMES = {
    "\u2010": "a hyphen (U+2010)",
    "\u2011": "a non-breaking hyphen (U+2011)",
    "\u2012": "a figure dash (U+2012)",
    "\u2013": "an en dash (U+2013)",
    "\u2014": "an em dash (U+2014)",
    "\u2015": "a horizontal bar (U+2015)",
    "\u2212": "a minus sign (U+2212)",
    "\ufe58": "a small em dash (U+FE58)",
    "\ufe63": "a small hyphen-minus (U+FE63)",
    "\uff0d": "a fullwidth hyphen-minus (U+FF0D)",
}
RANGE = re.compile(r"[0-9]+(-[0-9]+|\+|-)?")
# Column heads of a grid: odds (`3:1`, `1.5:1`), differentials (`-3-`, `-1/0`, `+7+`), strengths.
HEAD = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?([:/][+-]?[0-9]+(\.[0-9]+)?)?[+-]?")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_DATE_TEXT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9:]+)?|[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}"
    r"|[0-9]{1,2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*(-[0-9]{2,4})?"
    r"|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*-[0-9]{1,4}",
    re.IGNORECASE,
)
_TIME_TEXT = re.compile(r"[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?( ?[AP]M)?", re.IGNORECASE)


def is_date(cell: Cell) -> bool:
    return cell.kind is CellKind.DATE or bool(_DATE_TEXT.fullmatch(cell.text))


def _is_time(cell: Cell) -> bool:
    return cell.kind is CellKind.TIME or bool(_TIME_TEXT.fullmatch(cell.text))


def foreign_dash(cell: Cell, shape: re.Pattern[str]) -> str | None:
    """The name of a foreign dash in a cell that would read as `shape` with hyphens."""
    found = next((ch for ch in cell.text if ch in FOREIGN_DASHES), None)
    if found is None:
        return None
    hyphened = "".join("-" if ch in FOREIGN_DASHES else ch for ch in cell.text)
    return _DASH_NAMES[found] if shape.fullmatch(hyphened) or hyphened == "-" else None


def range_findings(cell: Cell, zero_padded: bool) -> list[ImportFinding]:
    if is_date(cell):
        return _found(
            codes.DATE_FOR_RANGE, cell, f"a date (`{cell.text}`) where a range was",
            "spreadsheets turn `1-2` into 2 January: type the range again as text (a leading `'`)",
        )
    if _is_time(cell):
        return _time_found(cell, "a range")
    dash = foreign_dash(cell, RANGE)
    if dash:
        return _dash_found(cell, dash)
    # a spreadsheet stores `00` as the number 0 and writes it to CSV as `0`; a zero-padded column has no range `0`
    if zero_padded and cell.text == "0":
        return _found(
            codes.ZERO_FOR_DOUBLE_ZERO, cell, "a number 0 where the roll `00` was",
            "spreadsheets store `00` as the number 0: type `00` again as text (a leading `'`)",
        )
    return []


def head_findings(cell: Cell) -> list[ImportFinding]:
    if _is_time(cell):
        return _time_found(cell, "a column head such as odds")
    if is_date(cell):
        return _found(
            codes.DATE_FOR_RANGE, cell, f"a date (`{cell.text}`) where a column head was",
            "spreadsheets turn `1-2` or `1/2` into a date: type the head again as text (a leading `'`)",
        )
    dash = foreign_dash(cell, HEAD)
    return _dash_found(cell, dash) if dash else []


# what Excel writes to a CSV for a cell it turned into a date or a time (`6-Mar`, `Mar-06`,
# `03:01:00`); `4/8/12` (a value of three numbers), an ISO date and `3:1` in a value column stay text
_EXCEL_DATE_TEXT = re.compile(
    r"[0-9]{1,2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*(-[0-9]{2,4})?"
    r"|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*-[0-9]{1,4}",
    re.IGNORECASE,
)
_EXCEL_TIME_TEXT = re.compile(r"[0-9]{1,2}:[0-9]{2}:[0-9]{2}( ?[AP]M)?", re.IGNORECASE)


def value_findings(cell: Cell) -> list[ImportFinding]:
    """A value cell a spreadsheet turned into a date (`3-6` -> 6 March) or a time, or with a
    foreign dash."""
    if cell.kind is CellKind.DATE or _EXCEL_DATE_TEXT.fullmatch(cell.text):
        return _found(
            codes.DATE_FOR_RANGE, cell, f"a date (`{cell.text}`) where a value was",
            "spreadsheets turn `3-6` into 6 March: type the value again as text (a leading `'`)",
        )
    if cell.kind is CellKind.TIME or _EXCEL_TIME_TEXT.fullmatch(cell.text):
        return _time_found(cell, "a value")
    dash = foreign_dash(cell, _SIGNED)
    return _dash_found(cell, dash) if dash else []


def not_a_range(cell: Cell) -> list[ImportFinding]:
    """A range-column cell that reads as no range: written into the draft as `??CELL`, never as itself."""
    what = f"`{clip(cell.text)}`" if cell.text else "an empty cell"
    return _found(
        codes.NOT_A_RANGE, cell, f"{what} where a range was",
        "type the range as the rulebook prints it (`3-6`, `5+`, `1 or less`, `01-05`)",
    )


def _found(code: Code, cell: Cell, message: str, help: str) -> list[ImportFinding]:
    """The one finding of `cell`."""
    return [ImportFinding(code.code, cell.address, message, help)]


def _time_found(cell: Cell, what: str) -> list[ImportFinding]:
    return _found(
        codes.TIME_FOR_ODDS, cell, f"a time (`{cell.text}`) where {what} was",
        "spreadsheets turn `3:1` into 03:01: type the odds again as text (a leading `'`)",
    )


def _dash_found(cell: Cell, dash: str) -> list[ImportFinding]:
    return _found(
        codes.FOREIGN_DASH, cell, f"`{cell.text}` holds {dash}, not a hyphen-minus `-`",
        "retype the dash as `-` (text copied from a PDF brings en dashes and minus signs)",
    )


def report(source: str, findings: Sequence[ImportFinding]) -> str:
    """What `chartc import` reports on a draft's findings: for each, `SOURCE:CELL: error[CODE]:
    message` and its `help:` line, then how many cells to fix; empty when there are none."""
    lines = []
    for finding in findings:
        severity = CODES[finding.code].severity.value
        lines.append(f"{source}:{finding.address}: {severity}[{finding.code}]: {finding.message}")
        lines.append(f"  help: {finding.help}")
    if findings:
        lines.append(f"{len(findings)} cell(s) to fix before the draft compiles")
    return "".join(line + "\n" for line in lines)


def range_cell(cell: Cell, zero_padded: bool) -> tuple[str, list[ImportFinding]]:
    """What the draft writes for a range-column cell: the language's range (`1 or less` -> `1-`),
    or `??CELL` and the findings when the cell is corrupt or no range at all. The cell's own text
    never reaches the draft where a range stands."""
    found = range_findings(cell, zero_padded)
    written = range_text(cell.text)
    if not found and written is None:
        found = not_a_range(cell)
    return (f"??{cell.address}", found) if found or written is None else (written, [])
