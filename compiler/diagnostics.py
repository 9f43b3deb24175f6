"""Diagnostics: the registry of stable codes, the `Diagnostic` record, a sink, and renderers.

Every check appends `Diagnostic`s to a `Sink`; nothing raises for a user error. Codes are stable
and never reused: add new ones at the end of their block. `docs/diagnostics.md` documents each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum

from dsl.ast import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str


_REGISTRY = [
    # 1xx: reading and syntax
    Code("C101", "syntax-error", Severity.ERROR, "the text does not follow the chart language's grammar"),
    Code("C102", "unreadable-file", Severity.ERROR, "a chart file could not be read or is not UTF-8"),
    Code("C103", "repeated-statement", Severity.ERROR, "a statement that may appear once in a chart appears twice"),
    # 2xx: names
    Code("C201", "unknown-name", Severity.ERROR, "a name refers to nothing declared (enum value, period, context variable, type)"),
    Code("C202", "duplicate-name", Severity.ERROR, "two declarations share a name or chart ID where names must be unique"),
    Code("C203", "game-header", Severity.ERROR, "a game folder has no `game` header, several, or one whose id is not the folder's name"),
    # 3xx: ranges and domains
    Code("C301", "overlapping-ranges", Severity.ERROR, "two rows for the same keys select the same roll or value"),
    Code("C302", "gap", Severity.ERROR, "a roll or value selects no row and the chart is not declared partial"),
    Code("C303", "range-outside-faces", Severity.ERROR, "a range includes results the chart's dice cannot roll even with its DRMs"),
    Code("C304", "reversed-range", Severity.ERROR, "a range's low end is above its high end"),
    Code("C305", "modified-roll-off-table", Severity.WARNING, "a modified roll within the chart's declared DRMs falls off the end of the table"),
    Code("C306", "unreachable-row", Severity.WARNING, "no natural or modified roll can ever select this row"),
    Code("C307", "invalid-range", Severity.ERROR, "a printed range cannot be read for this chart's dice (e.g. `00` on a d6)"),
    Code("C308", "partial-chart", Severity.NOTE, "a chart declared partial leaves these rolls without a row"),
    Code("C309", "partial-but-complete", Severity.WARNING, "a chart is declared partial but every roll selects a row"),
    # 4xx: shapes and types
    Code("C401", "grid-shape", Severity.ERROR, "a grid row has more or fewer cells than the grid has columns"),
    Code("C402", "type-mismatch", Severity.ERROR, "a value does not match its column's declared type"),
    Code("C403", "row-shape", Severity.ERROR, "a row gives the wrong number of keys or output values"),
    Code("C404", "chart-shape", Severity.ERROR, "a chart lacks something it needs (a roll or key, columns, an ID or slug)"),
    Code("C405", "invalid-dice", Severity.ERROR, "a dice expression cannot be rolled (e.g. `0d6` or `1d1`)"),
    Code("C406", "invalid-month", Severity.ERROR, "a month is not a real `YYYY-MM` month, or a period or calendar runs backwards"),
    Code("C407", "invalid-condition", Severity.ERROR, "a DRM condition compares a context variable with a value of the wrong kind"),
    Code("C408", "threshold-order", Severity.ERROR, "a threshold list (`-/8/9/11`) is not non-decreasing"),
    Code("C409", "month-outside-calendar", Severity.ERROR, "a month lies outside the game's calendar"),
    Code("C410", "column-order", Severity.ERROR, "grid or availability columns are duplicated or out of calendar order"),
    Code("C411", "period-coverage", Severity.WARNING, "the game's periods overlap or leave months of the calendar uncovered"),
    Code("C412", "before-available", Severity.ERROR, "a chart offers an item in a month before the item's `available` month"),
    Code("C413", "drm-on-digit-roll", Severity.ERROR, "a DRM on a d66 or percentile roll without a `modified` statement saying what it means"),
    Code("C414", "invariant-violated", Severity.ERROR, "the data breaks an `invariant` the rules state"),
    # 6xx: errata
    Code("C601", "errata-target-missing", Severity.ERROR, "an errata names a chart, row or column that does not exist (or a row ambiguously)"),
    Code("C602", "errata-conflict", Severity.ERROR, "two errata change the same cell and neither says which wins (`overrides`)"),
    Code("C603", "errata-no-effect", Severity.WARNING, "an errata change leaves the chart as it was"),
]

CODES: dict[str, Code] = {c.code: c for c in _REGISTRY}
CODES_BY_NAME: dict[str, Code] = {c.name: c for c in _REGISTRY}


@dataclass(frozen=True)
class Label:
    """A second span shown with a diagnostic, e.g. the other row of an overlap."""

    span: Span
    message: str


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    help: str | None = None
    labels: tuple[Label, ...] = ()

    def sort_key(self) -> tuple:
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)


@dataclass
class Sink:
    """Collects diagnostics from every pass; `sorted()` gives them de-duplicated in file order."""

    items: list[Diagnostic] = field(default_factory=list)

    def emit(
        self,
        code: str,
        message: str,
        span: Span,
        help: str | None = None,
        labels: tuple[Label, ...] = (),
    ) -> None:
        self.items.append(Diagnostic(code, CODES[code].severity, message, span, help, labels))

    def sorted(self) -> list[Diagnostic]:
        unique = {(d.sort_key(), d.help, d.labels): d for d in self.items}
        return [unique[k] for k in sorted(unique, key=lambda k: k[0])]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)


def count_by_severity(diagnostics: list[Diagnostic]) -> dict[str, int]:
    counts = {s.value: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity.value] += 1
    return counts


# ---- renderers ---------------------------------------------------------------------------------


def render_short(d: Diagnostic) -> str:
    """`file:line:col: severity[code]: message` on one line."""
    return f"{d.span}: {d.severity.value}[{d.code}]: {d.message}"


def render_human(d: Diagnostic, sources: dict[str, str]) -> str:
    """The rustc-style block: header, location, the source line with a caret, labels, help."""
    out = [f"{d.severity.value}[{d.code}]: {d.message}", f"  --> {d.span}"]
    out.extend(_excerpt(d.span, sources, None))
    for label in d.labels:
        out.append(f"  --> {label.span}")
        out.extend(_excerpt(label.span, sources, label.message))
    if d.help:
        out.append(f"   = help: {d.help}")
    return "\n".join(out)


def _excerpt(span: Span, sources: dict[str, str], label: str | None) -> list[str]:
    text = sources.get(span.file)
    if text is None:
        return []
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return []
    raw = lines[span.line - 1].rstrip("\r")
    shown = _printable(raw)
    gutter = str(span.line)
    pad = " " * len(gutter)
    start = max(0, span.col - 1)
    width = (span.end_col - span.col) if span.end_line == span.line else len(raw) - start
    width = max(1, min(width, max(1, len(raw) - start)))
    caret_lead = _printable(raw[:start]).replace("\t", " ")
    caret_lead = " " * len(caret_lead)
    caret = "^" * width + (f" {label}" if label else "")
    if len(shown) > 200:  # very long lines: show a window around the column
        lo = max(0, len(caret_lead) - 60)
        shown = "…" + shown[lo : lo + 140] + "…"
        caret_lead = " " * (len(caret_lead) - lo + 1)
        caret = "^" * min(width, 80) + (f" {label}" if label else "")
    return [f" {pad} |", f" {gutter} | {shown.replace(chr(9), ' ')}", f" {pad} | {caret_lead}{caret}"]


def _printable(s: str) -> str:
    """Show control characters and bidi marks visibly so a terminal cannot be tricked."""
    out = []
    for ch in s:
        if ch == "\t" or (ch.isprintable() and ch not in _BIDI):
            out.append(ch)
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return "".join(out)


_BIDI = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def render_json(diagnostics: list[Diagnostic]) -> str:
    """The diagnostics as a JSON document (see `schemas/diagnostics.schema.json`)."""
    doc = {
        "diagnostics": [
            {
                "code": d.code,
                "name": CODES[d.code].name,
                "severity": d.severity.value,
                "message": d.message,
                "file": d.span.file,
                "line": d.span.line,
                "column": d.span.col,
                "end_line": d.span.end_line,
                "end_column": d.span.end_col,
                "help": d.help,
                "labels": [
                    {"file": lb.span.file, "line": lb.span.line, "column": lb.span.col, "message": lb.message}
                    for lb in d.labels
                ],
            }
            for d in diagnostics
        ],
        "summary": count_by_severity(diagnostics),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
