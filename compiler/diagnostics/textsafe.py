"""One sanitiser for every text chartc prints: chart text can never become a terminal or CI command.

Chart text (titles, labels, cells, file names) reaches the terminal and CI logs through the
human, short and GitHub diagnostics, `lookup`, `odds`, `diff`, `explain` and `build`. Printed raw,
a newline followed by `::error file=…::` forges a GitHub annotation or a fake `Result:` line, an
escape sequence retitles the terminal, and a bidi override reorders what the reader sees (the
"Trojan Source" trick). `printable` shows each such character as a visible `<U+XXXX>` mark;
`json_text` does the same job for JSON documents by writing them as `\\uXXXX` escapes, so the
document still parses to exactly the same data; `spreadsheet_cell` for a CSV cell, which a
spreadsheet would otherwise read as a formula (`=HYPERLINK(...)`, `@SUM(...)`) or split into rows.
"""

from __future__ import annotations

import re
import unicodedata

# Unicode general categories that are not text a reader can see: controls (escape sequences, CR,
# line feeds), format characters (bidi overrides and isolates, LRM/RLM, zero-width characters),
# line and paragraph separators, surrogates, private use and unassigned code points.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def is_hidden(ch: str) -> bool:
    """Whether `ch` is a character a reader cannot see as itself (see `_HIDDEN_CATEGORIES`)."""
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES


def mark(ch: str) -> str:
    """The visible stand-in for a hidden character: `<U+202E>`."""
    return f"<U+{ord(ch):04X}>"


def printable(text: str, keep: str = "") -> str:
    """`text` with every hidden character (see `is_hidden`) shown as `<U+XXXX>`, except those in
    `keep` (e.g. `"\\t"` for a source line whose tabs are expanded later).

    The result holds no line break, escape sequence or bidi control, so it stays one line of the
    text its caller prints.
    """
    if text.isascii() and text.isprintable():  # the common case, checked at C speed
        return text
    return "".join(mark(ch) if ch not in keep and is_hidden(ch) else ch for ch in text)


def printable_lines(text: str) -> str:
    """Each line of `text` made `printable`, joined again by `\\n` (for multi-line blocks whose line
    breaks are chartc's own, such as an explanation's example input)."""
    return "\n".join(printable(line) for line in text.split("\n"))


_BEYOND_PRINTABLE_ASCII = re.compile("[^\x00-\x7e]")  # DEL too: `json.dumps` leaves it raw


def _json_escape(ch: str) -> str:
    """`\\uXXXX` for a hidden character (a surrogate pair beyond the BMP), else `ch` itself."""
    if not is_hidden(ch):
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(document: str) -> str:
    """A JSON text (from `json.dumps(..., ensure_ascii=False)`) with the hidden characters that
    `json.dumps` leaves raw (DEL and C1 controls, bidi controls, U+2028/U+2029, zero-width and private-use
    characters) written as `\\uXXXX` escapes: the same data, safe to print on a terminal.

    `json.dumps` already escapes C0 controls; outside strings a JSON text holds only ASCII, so the
    replaced characters are always inside a string, where an escape means the same character.
    """
    if document.isascii() and "\x7f" not in document:
        return document
    return _BEYOND_PRINTABLE_ASCII.sub(lambda m: _json_escape(m.group(0)), document)


_FORMULA_START = frozenset("=+-@\t\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?|-")
"""A signed number, or a lone dash (no result): a spreadsheet reads these as data."""
FORMULA_GUARD = "'"
"""Put before a cell a spreadsheet would read as a formula; `chartc import` takes it off again."""


def spreadsheet_cell(text: str) -> str:
    """A CSV cell safe to open in a spreadsheet: hidden characters shown as `<U+XXXX>` (a line or
    paragraph separator, VT or NEL would split the row in many readers), and a cell that would
    start a formula (`=`, `+`, `-`, `@`, other than a plain signed number or a lone dash) behind a
    `'`; a cell that starts with the guard and a formula character gets a second one, so
    `unguard_cell` gives back exactly the text written."""
    text = printable(text)
    if text and text[0] in _FORMULA_START and not _PLAIN_NUMBER.fullmatch(text):
        return FORMULA_GUARD + text
    if text[:1] == FORMULA_GUARD and text[1:2] in _FORMULA_START | {FORMULA_GUARD}:
        return FORMULA_GUARD + text
    return text


def unguard_cell(text: str) -> str:
    """A CSV cell read back: the guard `spreadsheet_cell` put before a formula-like cell taken off."""
    if text[:1] == FORMULA_GUARD and text[1:2] in _FORMULA_START | {FORMULA_GUARD}:
        return text[1:]
    return text
