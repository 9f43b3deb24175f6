"""Fixes as data: a finding's fix is a list of `Edit`s (a span and its new text) with an
`Applicability`, built where the finding is made, from the spans the resolver or checker holds.

`chartc check --fix` applies the safe fixes (`--unsafe-fixes` the unsafe ones too), the language
server offers every fix but the display-only ones as a quick fix, and the renderers print them; nothing
reads a fix back out of a help line. Text written into a chart is always a valid token of the place
it goes (`Slot`): a name bare, anything else through `dsl.source_text.quote`.

Applying: a file's fixes are taken in order; a fix whose edits overlap an edit already taken waits
for the next pass (`apply_fixes` says which were taken). Spans count as the parser counts (lines
ended by LF, CRLF or a lone CR; columns in characters, so `𝔄` is one column; no byte-order mark), and
the file keeps its own line ends and mark. An edit that deletes everything on its line but blanks
deletes the line.
"""

from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import assert_never

from dsl.lazy_dataclass import dataclass
from dsl.shared import Span
from dsl.source_text import NAME, name_or_quote, quote

__all__ = [
    "Applicability", "Edit", "Fix", "Slot", "apply_fixes", "delete", "insert_after", "insert_in_block", "open_ends",
    "rename", "replace_with", "resolved_edits", "token", "within",
]


class Applicability(enum.StrEnum):
    """How far a fix may be trusted (ruff's three levels).

    SAFE: writes what the finding proves was meant and changes nothing else (a range written high
    end first, a word of a text column left unquoted, a suppression that silences nothing).
    UNSAFE: a likely guess that may change meaning (the closest name to a misspelt one, an open end).
    DISPLAY_ONLY: shown to the reader, never applied by a tool.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Slot(enum.StrEnum):
    """What the grammar accepts where a replacement goes, so the text written is a valid token."""

    NAME = "name"  # an identifier only (`key side`, `when fb`, a column, a field, a type)
    VALUE = "value"  # a name or a string (a row's key, a cell, a condition's operand, a chain's key value)
    STRING = "string"  # a string only (a cell of a text column)
    CHART = "chart"  # a chart named by its ID between brackets or by its slug (`amend R4`, `[R4]` inside)
    CHART_REF = "chart-ref"  # a cell's whole `[B6]`, brackets included
    RAW = "raw"  # text already in its place's form (a range `1-2`, a month span, an `aid.order` line)


# A chart ID (`R4`, `B-6`, `7.1`) between brackets: the grammar's CHART_ID terminal.
_CHART_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")


def token(slot: Slot, text: str) -> str | None:
    """`text` as the grammar reads it in `slot`, or None when nothing written there can say it (a
    label `Piston-engined` where only a name may stand)."""
    match slot:
        case Slot.NAME:
            return text if NAME.fullmatch(text) else None
        case Slot.VALUE:
            return name_or_quote(text)
        case Slot.STRING:
            return quote(text)
        case Slot.CHART:  # the span is the name alone: `R4` of `[R4]`, or a slug; both must read it
            return text if NAME.fullmatch(text) and _CHART_ID.fullmatch(text) else None
        case Slot.CHART_REF:
            return f"[{text}]" if _CHART_ID.fullmatch(text) else None
        case Slot.RAW:
            return text if "\n" not in text and "\r" not in text else None
        case _:
            assert_never(slot)


@dataclass(frozen=True)
class Edit:
    """Replace `span` of its file with `text` (an empty span inserts, empty text deletes)."""

    span: Span
    text: str


@dataclass(frozen=True)
class Fix:
    """What to change to resolve a finding: a message (`replace `pistn` with `piston``), the edits
    (all applied or none), and how far a tool may trust it."""

    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability

    @property
    def applicable(self) -> bool:
        return self.applicability is not Applicability.DISPLAY_ONLY


def replace_with(
    span: Span, new: str, slot: Slot, applicability: Applicability, message: str | None = None, old: str | None = None
) -> Fix | None:
    """The fix writing `new` (as a token of `slot`) in place of `span`; None when `new` cannot be
    written there. The message says `replace `OLD` with `NEW`` (or `write `NEW``)."""
    written = token(slot, new)
    if written is None:
        return None
    said = message or (f"replace `{old}` with `{written}`" if old is not None else f"write `{written}`")
    return Fix(said, (Edit(span, written),), applicability)


def rename(span: Span, old: str, close: str | None, slot: Slot, known: Iterable[str]) -> Fix | None:
    """A did-you-mean fix: `close`, one of the `known` names, in place of the unknown `old`. Safe
    when it is the one known name that is `old` written another way (`Piston` for `piston`,
    `late-1944` for `late_1944`); else unsafe."""
    if close is None or close == old:
        return None
    folded = _folded(old)
    same = _folded(close) == folded and sum(_folded(k) == folded for k in known) == 1
    return replace_with(span, close, slot, Applicability.SAFE if same else Applicability.UNSAFE, old=old)


def _folded(name: str) -> str:
    return re.sub(r"[\s_\-]+", "_", name.casefold())


def delete(span: Span | Iterable[Span], what: str, applicability: Applicability) -> Fix:
    """The fix deleting `span` (or each of several spans); `what` says what it is ("the `partial` line")."""
    spans = (span,) if isinstance(span, Span) else tuple(span)
    return Fix(f"delete {what}", tuple(Edit(s, "") for s in spans), applicability)


def insert_after(
    span: Span, text: str, applicability: Applicability, message: str | None = None, separator: str = " "
) -> Fix:
    """The fix inserting `separator` and `text` just after `span` (a statement after the one at
    `span`; `, NAME` after the last name of a list)."""
    at = Span(span.file, span.end_line, span.end_col, span.end_line, span.end_col)
    return Fix(message or f"add `{text}`", (Edit(at, separator + text),), applicability)


def insert_in_block(block: Span, text: str, applicability: Applicability, message: str | None = None) -> Fix:
    """The fix adding the statement `text` at the end of the block `block` (`odds ... { ... }`), just
    before its closing brace."""
    at = Span(block.file, block.end_line, block.end_col - 1, block.end_line, block.end_col - 1)
    return Fix(message or f"add `{text}`", (Edit(at, text + " "),), applicability)


# A closed range or one roll as printed (`3-6`, `01-08`, `-2--1`, `6`): the forms an open end replaces.
_CLOSED_RANGE = re.compile(r"(-?[0-9]+)(?:-(-?[0-9]+))?")


def open_ends(ranges: Iterable[tuple[Span, str]], high: bool, inside: Span) -> Fix | None:
    """The fix making each range (its span and printed text) open-ended: `3-6` -> `3+` at the high
    end, `1-2` -> `2-` at the low end. Unsafe: the row then reads every modified roll beyond it.
    None unless every range is a closed range written inside `inside` (a chart's own text: a
    derived chart's ranges are its base's spans with moved numbers)."""
    edits = []
    for span, printed in dict.fromkeys(ranges):
        m = _CLOSED_RANGE.fullmatch(printed)
        if m is None or not within(span, inside):
            return None
        edits.append(Edit(span, f"{m.group(1)}+" if high else f"{m.group(2) or m.group(1)}-"))
    if not edits:
        return None
    shown = ", ".join(f"`{e.text}`" for e in edits)
    return Fix(f"make the range open-ended: {shown}", tuple(edits), Applicability.UNSAFE)


def within(span: Span, outer: Span) -> bool:
    """Whether `span` lies inside `outer` (same file, start and end inside)."""
    return (
        span.file == outer.file
        and (outer.line, outer.col) <= (span.line, span.col)
        and (span.end_line, span.end_col) <= (outer.end_line, outer.end_col)
    )


# ---- applying ------------------------------------------------------------------------------------


class _Lines:
    """A file's text as the spans count it: where each line starts and ends (before its line end)."""

    def __init__(self, text: str) -> None:
        self.starts: list[int] = [0]
        self.ends: list[int] = []
        for m in re.finditer(r"\r\n|\r|\n", text):
            self.ends.append(m.start())
            self.starts.append(m.end())
        self.ends.append(len(text))
        first = re.search(r"\r\n|\r|\n", text)
        self.newline = first.group() if first else "\n"

    def offset(self, line: int, col: int) -> int:
        """The offset of (line, col); a column past its line's end is the line's end."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return self.ends[-1]
        return min(self.starts[line - 1] + max(col, 1) - 1, self.ends[line - 1])


def _offsets(lines: _Lines, text: str, edit: Edit) -> tuple[int, int, str]:
    """An edit as (start, end, new text) over `text`; a deletion that leaves only blanks on its
    line takes the whole line with it."""
    span = edit.span
    start, end = lines.offset(span.line, span.col), lines.offset(span.end_line, span.end_col)
    new = edit.text.replace("\n", lines.newline) if lines.newline != "\n" else edit.text
    if not new and span.line <= len(lines.starts):
        line_start = lines.starts[span.line - 1]
        line_end = lines.ends[min(span.end_line, len(lines.ends)) - 1]
        if not text[line_start:start].strip() and not text[end:line_end].strip():
            following = lines.starts[span.end_line] if span.end_line < len(lines.starts) else line_end
            return line_start, following, new
        if end == line_end or text[end:end + 1] in (" ", "\t"):  # `a  b` would be left: one blank goes too
            start -= len(text[line_start:start]) - len(text[line_start:start].rstrip(" \t"))
    return start, end, new


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two edits touch the same text, or insert at the same place (their order would be a guess)."""
    return (a[0] < b[1] and b[0] < a[1]) or a[0] == a[1] == b[0] == b[1]


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, list[Fix]]:
    """`text` with `fixes` applied, and the fixes taken.

    Each fix's edits are taken whole or not at all: a fix that overlaps one taken before it waits
    for the next pass. The edits are applied from the end of the text, so no span moves before its
    turn. A leading byte-order mark is kept and not counted (as the parser does not count it).
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    lines = _Lines(body)
    taken: list[Fix] = []
    edits: list[tuple[int, int, str]] = []
    for fix in fixes:
        mine = [_offsets(lines, body, e) for e in fix.edits]
        if any(_overlap((s, e), (s2, e2)) for s, e, _ in mine for s2, e2, _ in edits):
            continue
        taken.append(fix)
        edits.extend(mine)
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        body = body[:start] + new + body[end:]
    return bom + body, taken


def resolved_edits(text: str, fix: Fix) -> list[Edit]:
    """The edits of `fix` as `apply_fixes` applies them to `text` (a deletion that blanks its line
    takes the line), as spans: what the language server sends."""
    body = text.removeprefix("\ufeff")
    lines = _Lines(body)
    out = []
    for edit in fix.edits:
        start, end, new = _offsets(lines, body, edit)
        out.append(replace(edit, span=_span_of(lines, edit.span.file, start, end), text=new))
    return out


def _span_of(lines: _Lines, file: str, start: int, end: int) -> Span:
    def position(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(lines.starts, offset)
        return line, offset - lines.starts[line - 1] + 1

    return Span(file, *position(start), *position(end))
