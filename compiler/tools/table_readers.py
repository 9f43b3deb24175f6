"""`chartc import`'s readers: a file's first table as rows of `Cell`s, each with its spreadsheet
address (`B3`) and what the file stored (text, a number, a date, a time). One reader per format:
CSV and TSV (the standard library's `csv`), XLSX and ODS (python-calamine), Markdown pipes or a
table pasted from a PDF or a web page (columns separated by tabs or two or more spaces).
"""

from __future__ import annotations

import codecs
import csv
import datetime
import enum
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics.textsafe import unguard_cell
from compiler.tools.table_limits import MAX_CELL_CHARS, TooLarge, check_cell, check_shape, check_spreadsheet


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


@dataclass(frozen=True)
class Sheet:
    """A file's first table and how it was read: `notes` say what the reader guessed (an encoding
    other than UTF-8, a separator other than the comma) for `chartc import` to report."""

    rows: list[list[Cell]]
    notes: tuple[str, ...] = ()


def read_table(path: Path, data: bytes, encoding: str | None = None) -> list[list[Cell]]:
    """The cells of a file's first table; see `read_sheet`."""
    return read_sheet(path, data, encoding).rows


def read_sheet(path: Path, data: bytes, encoding: str | None = None) -> Sheet:
    """The cells of a file's first table (first sheet), by its suffix: `.csv` (the separator
    sniffed: `,`, `;`, tab, `|` or spaces), `.tsv`, `.xlsx`, `.ods`, `.md`/`.txt` (Markdown pipes,
    or columns separated by tabs or spaces). Text is UTF-8 (with or without a BOM), UTF-16 with a
    BOM, else cp1252 (what Excel saves outside the US), unless `encoding` names the encoding.

    Raises:
        ImportError_: an unknown suffix, text that is not in the encoding, a spreadsheet that
            cannot be opened, or a table past the limits of `compiler.tools.table_limits`.
    """
    try:
        return _read(path, data, encoding)
    except TooLarge as exc:
        raise ImportError_(f"{path}: {exc}") from exc


def _read(path: Path, data: bytes, encoding: str | None) -> Sheet:
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm", ".ods", ".xls"):
        return Sheet(_spreadsheet_rows(data))
    if suffix not in (".csv", ".tsv", ".md", ".txt", ""):
        raise ImportError_(f"{path}: chartc imports .csv, .tsv, .xlsx, .ods, .md and .txt files")
    text, used = decode(path, data, encoding)
    notes = [] if used in ("utf-8", encoding) else [f"read as {used}: the file is not UTF-8 (--encoding names another)"]
    if suffix == ".csv":
        separator = sniff_separator(text)
        if separator != ",":
            notes.append(f"columns separated by {_SEPARATOR_NAMES[separator]}")
        lines = text.splitlines() if separator == " " else None
        rows = _space_rows(lines) if lines is not None else _csv_rows(text, separator)
        return Sheet(_text_cells(rows), tuple(notes))
    if suffix == ".tsv":
        return Sheet(_text_cells(_csv_rows(text, "\t")), tuple(notes))
    return Sheet(_text_cells(_pasted_rows(text)), tuple(notes))


_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode(path: Path, data: bytes, encoding: str | None) -> tuple[str, str]:
    """The text of a file and the encoding it was read in: `encoding` when given, else by its
    BOM, else UTF-8, else cp1252."""
    if encoding is not None:
        try:
            return data.decode(encoding), encoding
        except LookupError as exc:
            raise ImportError_(f"--encoding {encoding}: no such encoding") from exc
        except UnicodeDecodeError as exc:
            raise ImportError_(f"{path}: not {encoding} text ({exc.reason} at byte {exc.start})") from exc
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(name), "utf-8" if name == "utf-8-sig" else name
            except UnicodeDecodeError as exc:
                raise ImportError_(f"{path}: not {name} text ({exc.reason} at byte {exc.start})") from exc
    if b"\x00" in data:
        raise ImportError_(f"{path}: a NUL byte: not a text file (give --encoding utf-16 for UTF-16 without a BOM)")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        try:
            return data.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            raise ImportError_(
                f"{path}: neither UTF-8 ({exc.reason} at byte {exc.start}) nor cp1252: give --encoding"
            ) from exc


_SEPARATOR_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "bars", " ": "spaces"}


def sniff_separator(text: str) -> str:
    """The separator of a CSV text: of `,`, `;`, tab and `|`, the one that splits the first 50
    lines into the same number (more than one) of columns most often (ties to the comma); spaces
    when none splits any line."""
    lines = [line for line in text.splitlines()[:50] if line.strip()]
    best, best_score = ",", (0, 0)
    for separator in (",", ";", "\t", "|"):
        try:
            widths = [len(row) for row in csv.reader(lines, delimiter=separator)]
        except csv.Error:
            continue
        common = max(set(widths), key=lambda w: (widths.count(w), w), default=1)
        score = (widths.count(common), common) if common > 1 else (0, 0)
        if score > best_score:
            best, best_score = separator, score
    if best_score == (0, 0) and any(len(line.split()) > 1 for line in lines):
        return " "
    return best


def _csv_rows(text: str, separator: str) -> list[list[str]]:
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text), delimiter=separator):
            check_shape(len(rows) + 1, len(row), f"row {len(rows) + 1}")
            rows.append(row)
    except csv.Error as exc:  # the standard library's own limit: a field over 128 KiB
        limit = f"chartc imports at most {MAX_CELL_CHARS:,} characters a cell"
        raise TooLarge(f"row {len(rows) + 1}: {exc} ({limit})") from exc
    return rows


def _space_rows(lines: list[str]) -> list[list[str]]:
    """Columns separated by runs of spaces (a table typed in a text editor: `2-3 AE AR`)."""
    rows = [line.split() for line in lines if line.strip()]
    for number, row in enumerate(rows, 1):
        check_shape(number, len(row), f"row {number}")
    return rows


def _text_cells(rows: Iterable[Sequence[str]]) -> list[list[Cell]]:
    table = []
    for r, row in enumerate(rows):
        check_shape(r + 1, len(row), f"row {r + 1}")
        cells = []
        for c, value in enumerate(row):
            address = f"{column_letters(c)}{r + 1}"
            check_cell(len(value), address)
            cells.append(Cell(unguard_cell(value.strip()), CellKind.TEXT, address))
        table.append(cells)
    return table


# a Markdown cell's backslash escapes (CommonMark: any ASCII punctuation; GFM tables: `\|`)
_MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _markdown_cells(line: str) -> list[str]:
    """The cells of a Markdown table row: split at each `|` not escaped as `\\|`, then unescaped."""
    cells, cell, escaped = [], "", False
    for char in line.strip():
        if char == "|" and not escaped:
            cells.append(cell)
            cell = ""
        else:
            cell += char
        escaped = char == "\\" and not escaped
    cells.append(cell)
    cells = cells[1:] if line.strip().startswith("|") else cells
    cells = cells[:-1] if len(cells) > 1 and cells[-1].strip() == "" else cells
    return [_MARKDOWN_ESCAPE.sub(r"\1", c.strip()) for c in cells]


def _pasted_rows(text: str) -> list[list[str]]:
    """Markdown table rows (`| a | b |`, the `|---|` line left out), else columns separated by a
    tab or by two or more spaces (a table pasted from a PDF or a web page), or by single spaces
    when no line has a tab or a run of spaces."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    check_shape(len(lines), 1, f"line {len(lines)}")
    if lines and all(line.startswith("|") for line in lines):
        rows = [_markdown_cells(line) for line in lines]
        return [row for row in rows if not all(re.fullmatch(r":?-{1,}:?", c) for c in row)]
    if not any(re.search(r"\t| {2,}", line) for line in lines):
        return _space_rows(lines)
    return [re.split(r"\t| {2,}", line) for line in lines]


def _spreadsheet_rows(data: bytes) -> list[list[Cell]]:
    try:
        # lazy: python-calamine, an optional dependency (the `import` extra)
        from python_calamine import CalamineWorkbook
    except ImportError as exc:  # pragma: no cover - the extra is part of the test install
        raise ImportError_("reading spreadsheets needs python-calamine: pip install 'chartc[import]'") from exc
    check_spreadsheet(data)
    try:
        sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_index(0)
        values = sheet.to_python(skip_empty_area=False)
    except Exception as exc:  # calamine raises its own error types for every kind of bad file
        raise ImportError_(f"cannot read the spreadsheet: {exc}") from exc
    check_shape(len(values), max((len(row) for row in values), default=0), "the first sheet")
    table = [
        [_spreadsheet_cell(value, f"{column_letters(c)}{r + 1}") for c, value in enumerate(row)]
        for r, row in enumerate(values)
    ]
    for cell in (cell for row in table for cell in row):
        check_cell(len(cell.text), cell.address)
    return table


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
