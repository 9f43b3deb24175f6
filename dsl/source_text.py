"""Small helpers over a file's source text, shared by the syntax-error messages and the builder;
`quote`, the one way chartc writes a text as a chart string literal."""

from __future__ import annotations

import re

# The grammar's NAME terminal (`dsl/chart.lark`): what may stand bare where a name or a string may.
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Characters a string literal writes as escapes: the quote, the backslash, and every control character
# but the tab (a line break would end the literal; a CR is read as a line break).
_ESCAPED = re.compile(r'["\\\x00-\x08\x0a-\x1f\x7f]')
_ESCAPES = {'"': r"\"", "\\": r"\\", "\n": r"\n", "\r": r"\r"}

_BLOCK_HEADER = re.compile(
    r"^\s*(chart|drms|errata|invariant|odds|enum|game)\s+(?:\[([^\]\s]+)\])?\s*([A-Za-z_][A-Za-z0-9_]*)?"
)


def clip(text: str, limit: int = 40) -> str:
    """`text` on one line and at most `limit` characters, for quoting in a message."""
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def enclosing_block(text: str, line: int) -> str | None:
    """The block (`chart R4`, `errata e1`, ...) whose header is the last one at or above `line`,
    for a message's "while reading ..." (a best-effort hint: it reads lines, not the grammar)."""
    for raw in reversed(text.split("\n")[:line]):
        m = _BLOCK_HEADER.match(raw)
        if m and (m.group(2) or m.group(3)):
            kind = "chart" if m.group(1) in ("chart", "drms") else m.group(1)
            return f"{kind} `{m.group(2) or m.group(3)}`"
    return None


def while_reading(text: str, line: int) -> str:
    """` while reading chart `R4`` for the block around `line`, or nothing outside any block."""
    block = enclosing_block(text, line)
    return f" while reading {block}" if block else ""


def quote(text: str) -> str:
    """`text` as a chart string literal that reads back as `text` (`"Piston-engined"`,
    `"say \\"no\\""`): the one quoting function for every piece of chart text chartc writes."""
    return '"' + _ESCAPED.sub(_escape, text) + '"'


def name_or_quote(text: str) -> str:
    """`text` where a name or a string may stand (a key value, an enum value): a name bare, anything
    else through `quote`."""
    return text if NAME.fullmatch(text) else quote(text)


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    return _ESCAPES.get(char) or f"\\x{ord(char):02x}"
