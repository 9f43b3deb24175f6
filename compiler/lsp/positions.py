"""Positions: chartc's spans (1-based line and column, counted in characters, exclusive end) to
the Language Server Protocol's (0-based line, column counted in UTF-16 code units) and back.

A character outside the Basic Multilingual Plane (an emoji, `𝔄`) is one column for chartc and
two UTF-16 code units for the protocol; an umlaut is one of each. Every conversion in the server
goes through `to_utf16` and `from_utf16`, so the two counts can never be mixed up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dsl.shared import Span


@dataclass(frozen=True)
class Position:
    """A protocol position: 0-based line, 0-based column in UTF-16 code units."""

    line: int
    character: int


@dataclass(frozen=True)
class Range:
    """A protocol range: start inclusive, end exclusive."""

    start: Position
    end: Position


def _units(char: str) -> int:
    return 2 if ord(char) > 0xFFFF else 1


def lines_of(text: str) -> list[str]:
    """The text's lines as the parser counts them (`\\n` ends a line; a `\\r` stays in the line)."""
    return text.split("\n")


_PROTOCOL_LINE_END = re.compile("\r\n|\r|\n")
"""The protocol's line ends (CRLF, lone CR, LF), as a client counts the lines of a document."""


def document_end(text: str) -> Position:
    """The position just after the last character of a document as the client holds it (its raw
    text, before chartc reads CRLF and lone CR as LF): an edit ending here replaces it all."""
    lines = _PROTOCOL_LINE_END.split(text)
    return Position(len(lines) - 1, sum(_units(c) for c in lines[-1]))


def to_utf16(lines: list[str], line: int, col: int) -> Position:
    """chartc's 1-based (line, column in characters) as a protocol position. A column past the end
    of its line (an end-of-file span) is kept at the line's end; a line past the text's end is the
    position just after the last character."""
    if line < 1:
        return Position(0, 0)
    if line > len(lines):
        last = lines[-1] if lines else ""
        return Position(max(len(lines) - 1, 0), sum(_units(c) for c in last))
    text = lines[line - 1]
    return Position(line - 1, sum(_units(c) for c in text[: max(col - 1, 0) + _bom(lines, line - 1)]))


def _bom(lines: list[str], index: int) -> int:
    """1 on the first line of a text that starts with a BOM: the parser reads the text after it (its
    columns do not count it), the client's columns do."""
    return 1 if index == 0 and lines and lines[0].startswith("\ufeff") else 0


def from_utf16(lines: list[str], position: Position) -> tuple[int, int]:
    """A protocol position as chartc's 1-based (line, column in characters). A column inside a
    surrogate pair or past the line's end is moved to the next character boundary or the end."""
    if position.line >= len(lines):
        return max(len(lines), 1), (len(lines[-1]) if lines else 0) + 1
    text = lines[position.line]
    skip = _bom(lines, position.line)
    units = 0
    for index, char in enumerate(text):
        if units >= position.character and index >= skip:
            return position.line + 1, index + 1 - skip
        units += _units(char)
    return position.line + 1, len(text) + 1 - skip


def span_range(lines: list[str], span: Span) -> Range:
    """A span as a protocol range over the text of its file."""
    return Range(to_utf16(lines, span.line, span.col), to_utf16(lines, span.end_line, span.end_col))


def contains(span: Span, line: int, col: int) -> bool:
    """Whether chartc's (line, col) is inside `span` (its end included, so a cursor just after
    a name still finds it)."""
    return (span.line, span.col) <= (line, col) <= (span.end_line, span.end_col)
