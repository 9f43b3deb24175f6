"""The row labels printed rulebooks use, read as the chart language's die ranges.

A rulebook prints `1-2`, `3+`, `1 or less`, `11 or more`, `≤ 1`, `2 to 4`, d100 bands `01-05`
and `96-00`, a lone `00`. `range_text` turns each into the language's range (`1-`, `11+`, `2-4`,
`01-05`) and anything else into None: the draft writes a range cell only as this function's
answer, so a cell's text never reaches the draft as syntax (issue 33, finding 1).
"""

from __future__ import annotations

import re

# The language's RANGE terminal (dsl/chart.lark): `3`, `3-6`, `3-` (3 or less), `3+`, `-1`, `-3--1`.
RANGE_TOKEN = re.compile(r"-?[0-9]+(-(-?[0-9]+)?|\+)?")
_NUMBER = r"[+-]?[0-9]{1,3}"
_OR_LESS = re.compile(rf"(?:(?:≤|<=) ?(?P<a>{_NUMBER})|(?P<b>{_NUMBER}) ?(?:or|and) (?:less|lower|fewer|below|under))")
_OR_MORE = re.compile(
    rf"(?:(?:≥|>=) ?(?P<a>{_NUMBER})|(?P<b>{_NUMBER}) ?(?:\+|(?:or|and) (?:more|higher|greater|above|over|up)))"
)
_SPAN = re.compile(rf"(?P<a>{_NUMBER}) ?(?:-|to|through|thru) ?(?P<b>{_NUMBER})")


def _plain(number: str) -> str:
    """`+3` -> `3`: the language writes a non-negative bound without its sign."""
    return number[1:] if number.startswith("+") else number


def range_text(printed: str) -> str | None:
    """The language's range for a printed row label, or None when the label is none of the forms.

    `1 or less` and `≤1` read `1-`; `11+`, `11 or more` and `≥11` read `11+`; `2 to 4` and
    `2 - 4` read `2-4`; `01-05`, `00` and `96-00` stay as printed (a percentile's bands).
    """
    text = " ".join(printed.split()).lower()
    if re.search(r"[0-9]{5}", text):
        return None  # no dice rolls past 9999 (10 dice of 100 faces sum to 1,000)
    if RANGE_TOKEN.fullmatch(text):
        return text
    if text.startswith("+") and RANGE_TOKEN.fullmatch(text[1:]):
        return text[1:]
    if found := _OR_LESS.fullmatch(text):
        return f"{_plain(found.group('a') or found.group('b'))}-"
    if found := _OR_MORE.fullmatch(text):
        return f"{_plain(found.group('a') or found.group('b'))}+"
    if found := _SPAN.fullmatch(text):
        candidate = f"{_plain(found.group('a'))}-{_plain(found.group('b'))}"
        return candidate if RANGE_TOKEN.fullmatch(candidate) else None
    return None

