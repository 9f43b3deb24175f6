"""The writing of `chartc import`'s drafts, shared by the row tables (`compiler.tools.table_import`)
and the grids (`compiler.tools.table_crt`): the dice guessed from a range column, names made from
headers and key values, cells written as values (through `dsl.source_text.quote`) or as `??CELL`
when a finding holds them back, and the draft's notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from compiler.diagnostics import codes
from compiler.tools.table_findings import RANGE, ImportFinding
from compiler.tools.table_labels import range_text
from compiler.tools.table_readers import Cell
from dsl.source_text import quote


@dataclass(frozen=True)
class Draft:
    """A draft `.chart` and the findings to fix before it compiles."""

    text: str
    findings: tuple[ImportFinding, ...]


DICE_WORD = re.compile(r"([0-9]{0,2}d[0-9]{1,3}|d66|percentile)( zero reads (?P<zero>[0-9]{1,3}))?", re.IGNORECASE)


# Headers that name a column of rolls without saying which dice.
ROLL_WORD = re.compile(r"(die|dice|roll|die roll|dr|d%|result of roll|#)", re.IGNORECASE)


# a whole number as an `int` column holds it (no `+`, no leading zero: those stay text)
INTEGER = re.compile(r"-?(0|[1-9][0-9]{0,8})")  # the language reads at most 9 digits


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _bounds(ranges: Iterable[str]) -> tuple[int, int] | None:
    numbers = [int(n) for text in ranges if RANGE.fullmatch(text) for n in re.findall(r"[0-9]+", text)]
    return (min(numbers), max(numbers)) if numbers else None


# the likeliest first: an open-ended `5+` fits several
_SUMS = {(1, 6): "1d6", (1, 10): "1d10", (1, 20): "1d20", (1, 4): "1d4", (1, 8): "1d8", (1, 12): "1d12"}
_SUMS_OF_D6 = {(2, 12): "2d6", (3, 18): "3d6"}


def _spans(ranges: Iterable[str], lo: int, hi: int) -> bool:
    """Whether ranges fit dice of faces lo..hi: every closed range inside, the lowest and highest
    face reached by a range or an open end (`1 or less` on 2d6 holds the modified rolls below 2)."""
    lowest, highest = hi + 1, lo - 1
    for text in ranges:
        if not RANGE.fullmatch(text):
            continue
        numbers = [int(n) for n in re.findall(r"[0-9]+", text)]
        if text.endswith("-"):
            if not lo - 1 <= numbers[0] <= hi:
                return False
            lowest = lo
        elif text.endswith("+"):
            if not lo <= numbers[0] <= hi + 1:
                return False
            highest = hi
        elif numbers[0] < lo or numbers[-1] > hi:
            return False
        lowest, highest = min(lowest, numbers[0]), max(highest, numbers[-1])
    return lowest <= lo and highest >= hi


def guess_dice(header_text: str, ranges: list[str]) -> str | None:
    """The dice of a range column: its header when it names dice (`2d6`, `d66`), else (whatever
    the header says: `Roll`, `Wurf`, `Jet`) the dice whose faces the ranges span (2-12 is 2d6;
    11-66 with digits 1-6 is d66; 01-00 or up to 100 is percentile); None when no dice fits."""
    if DICE_WORD.fullmatch(header_text):
        return header_text.lower()
    bounds = _bounds(ranges)
    if bounds is None:
        return None
    low, high = bounds
    digits = "".join(re.sub(r"[^0-9]", "", r) for r in ranges)
    if any(re.search(r"(^|-)0[0-9]", r) for r in ranges) or high in (99, 100) or (low == 0 and high > 20):
        return "percentile"
    if low >= 11 and high <= 66 and set(digits) <= set("123456"):
        return "d66"
    for table in (_SUMS_OF_D6, _SUMS):
        for (lo, hi), dice in table.items():
            if _spans(ranges, lo, hi):
                return dice
    if low == 0 and high <= 9:
        return "1d10"  # a d10 printed with its 0 face
    return None


# words an enum reads as its own statements, so never a member's id (`order AE < DR`, `fields {...}`)
_ENUM_KEYWORDS = frozenset({"codes", "order", "fields"})


def slug(text: str, taken: set[str]) -> str:
    """A NAME for a header or key value: itself when it is one, else lowercased with `_`."""
    base = text if NAME.fullmatch(text) else re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not base or not NAME.fullmatch(base):
        base = f"v_{base}" if base else "value"
    if base in _ENUM_KEYWORDS:
        base += "_"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def value_text(cell: Cell, integers: bool) -> str:
    if cell.text in ("-", ""):
        return "-"
    if integers and INTEGER.fullmatch(cell.text):
        return cell.text
    return quote(cell.text)


def raw_or(cell: Cell, findings: list[ImportFinding], written: str) -> str:
    """A corrupt cell is written as `??B3`, its address: the draft does not parse until the cell
    is fixed, and a CSV and a spreadsheet of the same table give the same draft."""
    return f"??{cell.address}" if findings else written


def comment(finding: ImportFinding) -> str:
    """The draft's note above a cell to fix (the finding's message, without the cell's text)."""
    return f"    # {finding.code} at {finding.address}: {_WHAT[finding.code]}; {finding.help}"


_WHAT: dict[str, str] = {
    codes.DATE_FOR_RANGE.code: "a date a spreadsheet made",
    codes.TIME_FOR_ODDS.code: "a time where odds were",
    codes.ZERO_FOR_DOUBLE_ZERO.code: "a number where `00` was",
    codes.FOREIGN_DASH.code: "a dash that is not a hyphen",
    codes.UNKNOWN_DICE.code: "no dice fits the ranges",
    codes.NOT_A_RANGE.code: "no range where a range was",
}


def roll_lines(header: Cell, ranges: list[Cell], findings: list[ImportFinding]) -> list[str]:
    """The draft's `roll` line for a range column (a C364 finding and a comment when no dice fits)."""
    dice = guess_dice(header.text, [range_text(c.text) or c.text for c in ranges])
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


def zero_padded(cells: list[Cell]) -> bool:
    """Whether a range column prints a percentile's bands (`01-05`, `96-00`): then a 0 was `00`."""
    cells = [Cell(range_text(c.text) or c.text, c.kind, c.address) for c in cells]
    return any(re.search(r"(^|-)0[0-9]", c.text) for c in cells) or any(
        RANGE.fullmatch(c.text) and max(map(int, re.findall(r"[0-9]+", c.text))) >= 90 for c in cells
    )


def document(parts: list[str]) -> str:
    note = "# Draft made by `chartc import`: check every line against the printed chart."
    return note + "\n\n" + "\n\n".join(parts) + "\n"
