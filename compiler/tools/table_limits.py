"""The limits of `chartc import`, checked before a reader allocates the table.

A chart holds at most 1,000 rows (`compiler/checks/limits.py`), so an import reads at most a
header and 1,000 rows, 64 columns and 4,096 characters a cell, from a file of at most 16 MiB
(`compiler.build.reader.MAX_SOURCE_BYTES`). A spreadsheet is a zip of XML parts: its parts may
unpack to at most 64 MiB, and before python-calamine builds the sheet, `check_spreadsheet` reads
the first sheet's XML for the cells it places (an XLSX cell at `XFD1048576`, an ODS row repeated
a million times), so a 2 KB file cannot ask for gigabytes (issue 33, finding 6).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from xml.etree import ElementTree

MAX_ROWS = 1_001  # a header and a chart's 1,000 rows
MAX_COLUMNS = 64
MAX_CELL_CHARS = 4_096
MAX_UNPACKED_BYTES = 64 * 1024 * 1024


class TooLarge(Exception):
    """The table is past one of the limits above (the message names which and where)."""


def check_shape(rows: int, columns: int, where: str) -> None:
    """Refuse a table of more rows or columns than the limits; `where` names the place."""
    if rows > MAX_ROWS:
        raise TooLarge(f"{where} reaches row {rows:,}: chartc imports at most {MAX_ROWS:,} rows (a header and 1,000)")
    if columns > MAX_COLUMNS:
        raise TooLarge(f"{where} reaches column {columns:,}: chartc imports at most {MAX_COLUMNS} columns")


def check_cell(length: int, address: str) -> None:
    if length > MAX_CELL_CHARS:
        raise TooLarge(f"cell {address} holds {length:,} characters: chartc imports at most {MAX_CELL_CHARS:,} a cell")


_XLSX_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ADDRESS = re.compile(r"\$?([A-Z]{1,3})\$?([0-9]{1,7})")


def check_spreadsheet(data: bytes) -> None:
    """Refuse an XLSX or ODS file whose first sheet places a cell past the limits, or whose parts
    unpack to more than 64 MiB; a file that is no zip is left to python-calamine's own error."""
    try:
        book = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return
    with book:
        if sum(info.file_size for info in book.infolist()) > MAX_UNPACKED_BYTES:
            raise TooLarge(f"the spreadsheet unpacks to more than {MAX_UNPACKED_BYTES // 2**20} MiB")
        names = set(book.namelist())
        try:
            if "content.xml" in names:
                _check_ods(book.read("content.xml"))
            elif (sheet := _first_xlsx_sheet(book, names)) is not None:
                _check_xlsx(book.read(sheet))
        except ElementTree.ParseError:
            return  # python-calamine reports a broken part in its own words


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _first_xlsx_sheet(book: zipfile.ZipFile, names: set[str]) -> str | None:
    """The part of the workbook's first sheet (`xl/worksheets/sheet1.xml`), as calamine reads it."""
    if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
        return None
    sheets = ElementTree.fromstring(book.read("xl/workbook.xml")).iter(f"{_XLSX_MAIN}sheet")
    first = next(sheets, None)
    if first is None:
        return None
    rel_id = first.get(f"{_REL}id")
    for rel in ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels")).iter(f"{_PACKAGE_REL}Relationship"):
        if rel.get("Id") == rel_id:
            target = (rel.get("Target") or "").lstrip("/")
            part = target if target.startswith("xl/") else f"xl/{target}"
            return part if part in names else None
    return None


def _check_xlsx(sheet: bytes) -> None:
    """Every cell address and the `dimension` of an XLSX sheet within the limits."""
    for element in _elements(sheet):
        if element.tag == f"{_XLSX_MAIN}dimension":
            for corner in (element.get("ref") or "").split(":"):
                _check_address(corner, "the sheet's dimension")
        elif element.tag == f"{_XLSX_MAIN}c":
            _check_address(element.get("r") or "", "a cell")
        elif element.tag == f"{_XLSX_MAIN}row" and (number := element.get("r") or "").isdigit():
            check_shape(int(number), 1, "the sheet")
        element.clear()


def _check_address(address: str, what: str) -> None:
    found = _ADDRESS.fullmatch(address)
    if found is not None:
        check_shape(int(found.group(2)), _column_number(found.group(1)), f"{what} at {address}")


def _check_ods(content: bytes) -> None:
    """The rows and columns an ODS table spans once its repeats are unrolled, up to its last cell
    that holds something (LibreOffice ends a sheet with empty rows repeated a million times)."""
    row_tag, cell_tags = f"{_ODS_TABLE}table-row", (f"{_ODS_TABLE}table-cell", f"{_ODS_TABLE}covered-table-cell")
    rows, filled_rows, width = 0, 0, 0
    for element in _elements(content, tables=1):
        if element.tag != row_tag:
            continue
        repeat = int(element.get(f"{_ODS_TABLE}number-rows-repeated") or 1)
        columns, filled_columns = 0, 0
        for cell in element:
            if cell.tag not in cell_tags:
                continue
            columns += int(cell.get(f"{_ODS_TABLE}number-columns-repeated") or 1)
            if len(cell) or cell.attrib.keys() - {f"{_ODS_TABLE}number-columns-repeated", f"{_ODS_TABLE}style-name"}:
                filled_columns = columns
        rows += repeat
        if filled_columns:
            filled_rows, width = rows, max(width, filled_columns)
            check_shape(filled_rows, width, "the first table")
        element.clear()


def _elements(xml: bytes, tables: int | None = None) -> Iterator[ElementTree.Element]:
    """The elements of an XML part as each ends (for ODS, those of the first `tables` tables)."""
    seen = 0
    for event, element in ElementTree.iterparse(io.BytesIO(xml), events=("start", "end")):
        if tables is not None and element.tag == f"{_ODS_TABLE}table":
            if event == "start":
                seen += 1
            elif seen >= tables:
                return
        if event == "end":
            yield element
