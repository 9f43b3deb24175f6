"""`chartc import`'s readers: a file's first table as rows of `Cell`s, each with its spreadsheet
address (`B3`) and what the file stored (text, a number, a date, a time). One reader per format:
CSV and TSV (the standard library's `csv`), XLSX and ODS (python-calamine), Markdown pipes or a
table pasted from a PDF or a web page (columns separated by tabs or two or more spaces).
"""

from __future__ import annotations

import csv
import datetime
import enum
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics.textsafe import unguard_cell


class CellKind(enum.StrEnum):
    """What the file stored in a cell."""

    TEXT = "text"
    NUMBER = "number"
    DATE = "date"
    TIME = "time"


@dataclass(frozen=True)
class Cell:
    """One cell: its text as chartc reads it, what the file stored, and its address (`B3`)."""

    text: str
    kind: CellKind
    address: str


class ImportError_(Exception):
    """The file cannot be read as a table (a usage error, not a finding)."""


def column_letters(index: int) -> str:
    """`0` -> `A`, `26` -> `AA`: a spreadsheet column name."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def read_table(path: Path, data: bytes) -> list[list[Cell]]:
    """The cells of a file's first table (first sheet), by its suffix: `.csv`, `.tsv`, `.xlsx`,
    `.ods`, `.md`/`.txt` (Markdown pipes, or columns separated by tabs or two or more spaces).

    Raises:
        ImportError_: an unknown suffix, a file that is not UTF-8 text, or a spreadsheet that
            cannot be opened.
    """
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm", ".ods", ".xls"):
        return _spreadsheet_rows(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportError_(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if suffix == ".csv":
        return _text_cells(csv.reader(io.StringIO(text)))
    if suffix == ".tsv":
        return _text_cells(csv.reader(io.StringIO(text), delimiter="\t"))
    if suffix in (".md", ".txt", ""):
        return _text_cells(_pasted_rows(text))
    raise ImportError_(f"{path}: chartc imports .csv, .tsv, .xlsx, .ods, .md and .txt files")


def _text_cells(rows: Iterable[Sequence[str]]) -> list[list[Cell]]:
    return [
        [Cell(unguard_cell(value.strip()), CellKind.TEXT, f"{column_letters(c)}{r + 1}") for c, value in enumerate(row)]
        for r, row in enumerate(rows)
    ]


def _pasted_rows(text: str) -> list[list[str]]:
    """Markdown table rows (`| a | b |`, the `|---|` line left out), else columns separated by a
    tab or by two or more spaces (a table pasted from a PDF or a web page)."""
    rows = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                continue
            rows.append(cells)
        else:
            rows.append(re.split(r"\t| {2,}", stripped))
    return rows


def _spreadsheet_rows(data: bytes) -> list[list[Cell]]:
    try:
        # lazy: python-calamine, an optional dependency (the `import` extra)
        from python_calamine import CalamineWorkbook
    except ImportError as exc:  # pragma: no cover - the extra is part of the test install
        raise ImportError_("reading spreadsheets needs python-calamine: pip install 'chartc[import]'") from exc
    try:
        sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_index(0)
        values = sheet.to_python(skip_empty_area=False)
    except Exception as exc:  # calamine raises its own error types for every kind of bad file
        raise ImportError_(f"cannot read the spreadsheet: {exc}") from exc
    return [
        [_spreadsheet_cell(value, f"{column_letters(c)}{r + 1}") for c, value in enumerate(row)]
        for r, row in enumerate(values)
    ]


def _spreadsheet_cell(value: object, address: str) -> Cell:
    match value:
        case bool():
            return Cell(str(value).lower(), CellKind.TEXT, address)
        case datetime.datetime() | datetime.date():
            return Cell(value.isoformat(), CellKind.DATE, address)
        case datetime.time():
            return Cell(value.isoformat(), CellKind.TIME, address)
        case datetime.timedelta():
            return Cell(str(value), CellKind.TIME, address)
        case float() if value.is_integer():
            return Cell(str(int(value)), CellKind.NUMBER, address)
        case int() | float():
            return Cell(str(value), CellKind.NUMBER, address)
        case _:
            return Cell(str(value).strip(), CellKind.TEXT, address)
