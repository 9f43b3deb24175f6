"""Random printed tables for `chartc import`, and the writers that save one as a publisher would.

`generate(seed)` makes a `SourceTable`: a row table (0-2 key columns, a range column, 1-3 value
columns) or a CRT (odds, differential, strength or named columns across, result codes or text in
the cells), over 1d4 to 3d6, d66 and percentile, with its row labels printed in the forms
rulebooks use (`1 or less`, `11+`, `≥ 9`, `2 to 4`, `01-05`, `96-00`, `00`), a header naming the
dice, saying `Roll`, left empty, or no header row at all. `expected(table)` is every question a
player can ask of it: (key labels, natural roll) -> the printed cell.

The writers save a table as CSV (separator `,`, `;` or tab; UTF-8, UTF-8 with a BOM or cp1252),
XLSX (openpyxl; integer cells stored as numbers), ODS (the OpenDocument XML LibreOffice writes,
with `number-columns-repeated` runs and, on demand, a repeated row or a million trailing empty
rows) and Markdown (`\\|` and `\\\\` escaped). `tests/test_import_differential.py` imports each and
compares every lookup with `expected`.
"""

from __future__ import annotations

import csv
import io
import itertools
import random
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

# dice -> its natural rolls in order
_D66 = [10 * a + b for a in range(1, 7) for b in range(1, 7)]
DICE: dict[str, list[int]] = {
    "1d4": list(range(1, 5)),
    "1d6": list(range(1, 7)),
    "1d8": list(range(1, 9)),
    "1d10": list(range(1, 11)),
    "1d12": list(range(1, 13)),
    "1d20": list(range(1, 21)),
    "2d6": list(range(2, 13)),
    "3d6": list(range(3, 19)),
    "d66": _D66,
    "percentile": list(range(1, 101)),
}
# cell texts as charts print them: quotes, backslashes, bars, commas, semicolons, accents, a
# formula-like `=`, numbers as text, a lone `-` (no result)
WORDS = [
    "Miss", "Hit", "Kill", "Safe escape", "Combat", 'say "no"', "back \\ base", "a | b", "x, y", "p; q",
    "Rückzug", "Sortie réussie", "=1+2", "+1 DRM", "007", "1/2", "3:1", "2-5", "Me 262", "½ hit",
    "Abort (see 7.1.10)", "Damaged*", "#3", "@base", "-",
]
CODES = ["AE", "AR", "EX", "DR", "DE", "NE", "A1", "D2", "Ex", "Dr2"]
KEY_LABELS = [
    ["piston", "jet"], ["Piston-engined", "Jet fighter", "Rocket"], ["clear", "rough", "city"],
    ["Me 262", "Me 163"], ["day", "night"], ["Élite", "Green", "Veteran"],
]
ODDS_HEADS = [
    ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"],
    ["1:2", "2:3", "1:1", "3:2", "2:1", "3:1"],
    ["-3-", "-2", "-1/0", "+1/+2", "+3/+4", "+5/+6", "+7+"],
    ["1-2", "3-5", "6-9", "10-14", "15-19", "20+"],
    ["A", "B", "C", "D"],
    ["Clear", "Woods", "City"],
]


@dataclass(frozen=True)
class SourceTable:
    """A printed table: its header (None when printed without one), its rows of cell texts, and
    what a reader of it knows (which columns are keys, which the range, the dice)."""

    header: list[str] | None
    rows: list[list[str]]
    keys: int  # the number of key columns before the range column
    dice: str
    grid: bool  # a CRT: range column first, one column per head
    integer_columns: frozenset[int]  # value columns (by index) that hold whole numbers
    # each row's natural rolls, parallel to `rows`
    rolls: tuple[tuple[int, ...], ...]


def _bands(rng: random.Random, faces: list[int]) -> list[list[int]]:
    """The faces cut into 1-6 consecutive bands."""
    cuts = sorted(rng.sample(range(1, len(faces)), min(len(faces) - 1, rng.randint(0, 5))))
    edges = [0, *cuts, len(faces)]
    return [faces[a:b] for a, b in itertools.pairwise(edges)]


def _number(n: int, dice: str) -> str:
    if dice == "percentile":
        return "00" if n == 100 else f"{n:02d}"
    return str(n)


def _label(rng: random.Random, band: list[int], dice: str, first: bool, last: bool, named: bool) -> str:
    """A band's label as a rulebook prints it; open-ended forms only when the header names the dice
    (else the open end would make another dice as likely)."""
    low, high = _number(band[0], dice), _number(band[-1], dice)
    if len(band) == 1:
        return low
    if named and first and dice not in ("percentile", "d66") and rng.random() < 0.4:
        return rng.choice([f"{high} or less", f"{high}-", f"≤ {high}", f"{high} or lower"])
    if named and last and dice not in ("percentile", "d66") and rng.random() < 0.4:
        return rng.choice([f"{low}+", f"{low} or more", f"≥{low}", f"{low} or higher"])
    return rng.choice([f"{low}-{high}"] * 4 + [f"{low} to {high}", f"{low} - {high}"])


def _dice_header(rng: random.Random, dice: str) -> tuple[str, bool]:
    """The range column's header and whether it names the dice."""
    if rng.random() < 0.6:
        return rng.choice([dice, dice.upper()]) if dice != "percentile" else rng.choice(["percentile", "d%"]), True
    return rng.choice(["Roll", "Die roll", "", "#"]), False


def generate(seed: int) -> SourceTable:
    rng = random.Random(seed)
    dice = rng.choice(list(DICE))
    faces = DICE[dice]
    if rng.random() < 0.3:
        return _grid(rng, dice, faces)
    head, named = _dice_header(rng, dice)
    if head == "d%":
        named = False  # `d%` is a roll word: the ranges say percentile
    key_sets = rng.sample(KEY_LABELS, rng.choice([0, 0, 1, 1, 2]))
    key_words = ["Side", "Fighter", "Terrain", "Type", "Time", "Crew"]
    key_headers = [rng.choice(key_words) + f" {i + 1}" for i in range(len(key_sets))]
    columns = rng.randint(1, 3)
    integer_columns = frozenset(c for c in range(columns) if rng.random() < 0.3)
    column_words = ["Result", "Effect", "Losses", "Range", "Résultat", "Notes"]
    headers = [rng.choice(column_words) + f" {c + 1}" for c in range(columns)]
    rows, rolls = [], []
    combos: list[list[str]] = [[]]
    for labels in key_sets:
        combos = [[*combo, label] for combo in combos for label in labels]
    for combo in combos:
        bands = _bands(rng, faces)
        for i, band in enumerate(bands):
            label = _label(rng, band, dice, i == 0, i == len(bands) - 1, named)
            values = [str(rng.randint(-3, 40)) if c in integer_columns else rng.choice(WORDS) for c in range(columns)]
            rows.append([*combo, label, *values])
            rolls.append(tuple(band))
    header: list[str] | None = [*key_headers, head, *headers]
    if not named and head == "" and rng.random() < 0.5:
        header = None  # printed without a header row
    return SourceTable(header, rows, len(key_sets), dice, False, integer_columns, tuple(rolls))


def _grid(rng: random.Random, dice: str, faces: list[int]) -> SourceTable:
    heads = rng.choice(ODDS_HEADS)
    start = rng.randint(0, len(heads) - 2)
    heads = heads[start : start + rng.randint(2, len(heads) - start)]
    codes = rng.random() < 0.7
    bands = _bands(rng, faces)
    rows = []
    for i, band in enumerate(bands):
        label = _label(rng, band, dice, i == 0, i == len(bands) - 1, True)
        cells = [rng.choice([*CODES, "-"]) if codes else rng.choice(WORDS) for _ in heads]
        rows.append([label, *cells])
    # heads that are names (`Clear`, `Woods`) are value columns to a reader: a row table
    grid = not heads[0].isalpha()
    return SourceTable([dice, *heads], rows, 0, dice, grid, frozenset(), tuple(tuple(b) for b in bands))


def expected(table: SourceTable) -> dict[tuple[tuple[str, ...], int], str]:
    """Every question of the table: (key labels, natural roll) -> the cells printed for it, joined
    by ` | ` (for a grid, the keys are the column head)."""
    answers: dict[tuple[tuple[str, ...], int], str] = {}
    for row, band in zip(table.rows, table.rolls, strict=True):
        if table.grid:
            heads = (table.header or [])[1:]
            for head, cell in zip(heads, row[1:], strict=True):
                for roll in band:
                    answers[((head,), roll)] = cell
            continue
        keys = tuple(row[: table.keys])
        for roll in band:
            answers[(keys, roll)] = " | ".join(row[table.keys + 1 :])
    return answers


def all_rows(table: SourceTable) -> list[list[str]]:
    return ([table.header] if table.header is not None else []) + table.rows


# ---- writers -------------------------------------------------------------------------------------


def csv_bytes(rows: Sequence[Sequence[str]], separator: str = ",", encoding: str = "utf-8") -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode(encoding)


def markdown_bytes(rows: Sequence[Sequence[str]], header: bool) -> bytes:
    def cell(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|")

    lines = ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    if header:
        lines.insert(1, "|" + "---|" * len(rows[0]))
    return ("\n".join(lines) + "\n").encode("utf-8")


def xlsx_bytes(
    rows: Sequence[Sequence[object]], integer_columns: frozenset[int] = frozenset(), *, far_cell: bool = False
) -> bytes:
    """An XLSX workbook of one sheet; cells of `integer_columns` (in rows after the first) stored as
    numbers, as a spreadsheet stores a typed number. `far_cell` puts one cell at XFD1048576."""
    import openpyxl  # the test extra: only the tests write spreadsheets

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for r, row in enumerate(rows):
        sheet.append([int(v) if r and c in integer_columns and isinstance(v, str) else v for c, v in enumerate(row)])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # typed as text (a leading `'`), not a formula
    if far_cell:
        sheet["XFD1048576"] = "far"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


_ODS_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:office-value="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
)


def _ods_cell(value: str, number: bool) -> str:
    paragraphs = "".join(f"<text:p>{escape(line)}</text:p>" for line in value.split("\n"))
    if number:
        return f'<table:table-cell office:value-type="float" office:value="{value}">{paragraphs}</table:table-cell>'
    return f'<table:table-cell office:value-type="string">{paragraphs}</table:table-cell>'


def ods_bytes(
    rows: Sequence[Sequence[str]],
    integer_columns: frozenset[int] = frozenset(),
    *,
    repeat_row: tuple[int, int] | None = None,
    trailing_empty_rows: int = 0,
) -> bytes:
    """An OpenDocument spreadsheet as LibreOffice saves one: each row's trailing empty columns as one
    repeated cell, `repeat_row=(index, times)` writes that row with `number-rows-repeated`, and
    `trailing_empty_rows` ends the table with that many empty rows (LibreOffice writes 1,048,000)."""
    width = max(len(r) for r in rows)
    xml_rows = []
    for r, row in enumerate(rows):
        cells = "".join(_ods_cell(v, bool(r) and c in integer_columns) for c, v in enumerate(row))
        if len(row) < width:
            cells += f'<table:table-cell table:number-columns-repeated="{width - len(row)}"/>'
        repeat = f' table:number-rows-repeated="{repeat_row[1]}"' if repeat_row and repeat_row[0] == r else ""
        xml_rows.append(f"<table:table-row{repeat}>{cells}</table:table-row>")
    if trailing_empty_rows:
        xml_rows.append(
            f'<table:table-row table:number-rows-repeated="{trailing_empty_rows}">'
            '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODS_NAMESPACES} office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="Sheet1">{"".join(xml_rows)}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as ods:
        ods.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        ods.writestr("META-INF/manifest.xml", manifest)
        ods.writestr("content.xml", content)
    return out.getvalue()
