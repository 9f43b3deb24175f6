"""Diagnostics: the registry of stable codes, the `Diagnostic` record, a sink, and renderers.

Every check appends `Diagnostic`s to a `Sink`; nothing raises for a user error. Codes are stable
and never reused: add new ones at the end of their block. `docs/diagnostics.md` documents each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

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
    fix: str


_REGISTRY = [
    # 1xx: reading and syntax
    Code("C101", "syntax-error", Severity.ERROR, "the text does not follow the chart language's grammar",
         "Correct the text at the caret; the help line names what the grammar expected there. Only the first syntax error of a file is reported; the other files are still checked."),
    Code("C102", "unreadable-file", Severity.ERROR, "a chart file could not be read or is not UTF-8",
         "Save the file as UTF-8 (any editor's \"Save with encoding\"), or fix its permissions."),
    Code("C103", "repeated-statement", Severity.ERROR, "a statement that may appear once in a chart appears twice",
         "Keep one of the repeated statements (`rule`, `roll`, `value`, `combine`, `partial`) and delete the others."),
    # 2xx: names
    Code("C201", "unknown-name", Severity.ERROR, "a name refers to nothing declared (enum value, period, context variable, type)",
         "Correct the spelling (the help line suggests the closest declared name), or declare the missing enum value, period or context variable."),
    Code("C202", "duplicate-name", Severity.ERROR, "two declarations share a name or chart ID where names must be unique",
         "Give each chart its own printed ID or slug, and each enum, member, period and context variable its own name."),
    Code("C203", "game-header", Severity.ERROR, "a game folder has no `game` header, several, or one whose id is not the folder's name",
         "Write exactly one `game ID { ... }` header per game folder, with ID equal to the folder's name."),
    # 3xx: ranges and domains
    Code("C301", "overlapping-ranges", Severity.ERROR, "two rows for the same keys select the same roll or value",
         "Shorten one of the two ranges so that every roll selects exactly one row for each key combination."),
    Code("C302", "gap", Severity.ERROR, "a roll or value selects no row and the chart is not declared partial",
         "Add a row for the missing rolls; if the print itself leaves them out, declare the chart `partial \"why\"`."),
    Code("C303", "range-outside-faces", Severity.ERROR, "a range includes results the chart's dice cannot roll even with its DRMs",
         "Correct the range to the dice's faces (plus the declared DRM span), or correct the `roll` statement."),
    Code("C304", "reversed-range", Severity.ERROR, "a range's low end is above its high end",
         "Write the low end first: `2-5`, not `5-2` (and `combine sum clamp -2 to +3`, low before high)."),
    Code("C305", "modified-roll-off-table", Severity.WARNING, "a modified roll within the chart's declared DRMs falls off the end of the table",
         "Make the last (or first) row open-ended (`5+`, `2-`), or, if the print really stops there, silence it with `allow C305 \"why\"`."),
    Code("C306", "unreachable-row", Severity.WARNING, "no natural or modified roll can ever select this row",
         "Delete the row or correct its range; if a DRM should make it reachable, declare that `drm`."),
    Code("C307", "invalid-range", Severity.ERROR, "a printed range cannot be read for this chart's dice (e.g. `00` on a d6)",
         "Write the range in the dice's own notation: `01-08` and `00` only on percentile rolls, `9-0` only on a d10."),
    Code("C308", "partial-chart", Severity.NOTE, "a chart declared partial leaves these rolls without a row",
         "Nothing to fix: this note lists what a chart declared `partial` leaves uncovered; add the rows once the print is found."),
    Code("C309", "partial-but-complete", Severity.WARNING, "a chart is declared partial but every roll selects a row",
         "Delete the `partial` statement: the transcription is complete."),
    # 4xx: shapes and types
    Code("C401", "grid-shape", Severity.ERROR, "a grid row has more or fewer cells than the grid has columns",
         "Give the grid row one cell per grid column (`-` for a result the column cannot produce)."),
    Code("C402", "type-mismatch", Severity.ERROR, "a value does not match its column's declared type",
         "Write the value in its column's type: a whole number for `int`, a quoted string for `text`, a member for an enum."),
    Code("C403", "row-shape", Severity.ERROR, "a row gives the wrong number of keys or output values",
         "Give the row one key value per `key` (or `*`), then `:` and one value per `column`."),
    Code("C404", "chart-shape", Severity.ERROR, "a chart lacks something it needs (a roll or key, columns, an ID or slug)",
         "Add what the chart lacks: a `roll`, `value` or `key` to read it by, a `column`, rows, or a printed ID or slug."),
    Code("C405", "invalid-dice", Severity.ERROR, "a dice expression cannot be rolled (e.g. `0d6` or `1d1`)",
         "Roll real dice: 1 to 10 dice of 2 to 100 faces (`1d6`, `2d6`, `1d20`), or `d66`, `percentile`, `lower of 2d10`."),
    Code("C406", "invalid-month", Severity.ERROR, "a month is not a real `YYYY-MM` month, or a period or calendar runs backwards",
         "Write months as `YYYY-MM` with a month 01-12, and periods and calendars from first to last."),
    Code("C407", "invalid-condition", Severity.ERROR, "a DRM condition compares a context variable with a value of the wrong kind",
         "Compare a context variable with a value of its own kind: months with `1944-12`, ints with numbers, enums with their members."),
    Code("C408", "threshold-order", Severity.ERROR, "a threshold list (`-/8/9/11`) is not non-decreasing",
         "List the minimum roll for 1, 2, 3... results in non-decreasing order; `-` where that many cannot be scored."),
    Code("C409", "month-outside-calendar", Severity.ERROR, "a month lies outside the game's calendar",
         "Check the month, or widen the game's `calendar`."),
    Code("C410", "column-order", Severity.ERROR, "grid or availability columns are duplicated or out of calendar order",
         "Head each column with a different key value; print month and odds columns in ascending order."),
    Code("C411", "period-coverage", Severity.WARNING, "the game's periods overlap or leave months of the calendar uncovered",
         "Make the periods meet end to end, or correct the print in an errata if it leaves a month out."),
    Code("C412", "before-available", Severity.WARNING, "a chart or record offers an item in a month before the item's `available` month",
         "Write `-` for the months before the item is available, or correct the record's `available` month."),
    Code("C413", "drm-on-digit-roll", Severity.ERROR, "a DRM on a d66 or percentile roll without a `modified` statement saying what it means",
         'Say what the DRM does to a two-digit roll: `modified "the DRM is added to the two-digit result"`.'),
    Code("C414", "invariant-violated", Severity.WARNING, "the data breaks an `invariant` the rules state",
         "Correct the data (or the invariant) so the rule the invariant states holds."),
    Code("C415", "chart-too-large", Severity.ERROR, "a chart exceeds the size chartc checks exactly (rows, key combinations, DRMs or DRM span)",
         "Split the chart into smaller charts, or look for a typo such as `+100` for `+1`."),
    Code("C416", "aid-order", Severity.ERROR, "a game's `aid.order` file names a chart that does not exist, or one chart twice",
         "List each chart of the game once, by its printed ID or slug (`R4`, `extended_burst`)."),
    # 5xx: suppressions
    Code("C501", "unused-suppression", Severity.WARNING, "an `allow` statement silences nothing in its chart",
         "Delete the `allow` line: the finding it was written for is gone."),
    Code("C502", "invalid-suppression", Severity.WARNING, "an `allow` statement names an unknown code or one that cannot be silenced",
         "Name an existing warning or note code (`chartc explain CODE`); errors and syntax errors cannot be silenced, fix them instead."),
    # 6xx: errata
    Code("C601", "errata-target-missing", Severity.ERROR, "an errata names a chart, row or column that does not exist (or a row ambiguously)",
         "Name the chart by its ID or slug and the row by its key values and printed range, e.g. `piston 3-6`."),
    Code("C602", "errata-conflict", Severity.ERROR, "two errata change the same cell and neither says which wins (`overrides`)",
         "Add `overrides EARLIER` to the errata that should win."),
    Code("C603", "errata-no-effect", Severity.WARNING, "an errata change leaves the chart as it was",
         "Delete the change, or correct the value it sets."),
]

CODES: dict[str, Code] = {c.code: c for c in _REGISTRY}
CODES_BY_NAME: dict[str, Code] = {c.name: c for c in _REGISTRY}


def suppressible(code: str) -> bool:
    """Whether `allow CODE` may silence a code: warnings and notes of the checks only.

    Errors cannot be silenced, since a build with an error would emit wrong outputs; neither can
    the suppression codes themselves (C5xx).
    """
    known = CODES.get(code)
    return known is not None and known.severity is not Severity.ERROR and not code.startswith("C5")


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


@dataclass(frozen=True)
class Suppressed:
    """A finding silenced by an `allow` statement, with its reason and where the `allow` is."""

    diagnostic: Diagnostic
    reason: str
    allow_span: Span


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
    lines = _source_lines(text)
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


@lru_cache(maxsize=8)
def _source_lines(text: str) -> list[str]:
    """A file's lines, split once per file rather than once per finding (a 10 MB file may have
    thousands of findings)."""
    return text.split("\n")


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


def render_json(diagnostics: list[Diagnostic], suppressed: list[Suppressed] | None = None) -> str:
    """The diagnostics as a JSON document (see `schemas/diagnostics.schema.json`)."""
    summary: dict[str, int] = {**count_by_severity(diagnostics), "suppressed": len(suppressed or [])}
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
        "summary": summary,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# ---- GitHub Actions workflow commands ------------------------------------------------------------

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
GITHUB_ANNOTATIONS_PER_STEP = 10  # per level; GitHub drops the rest silently


def _github_data(text: str) -> str:
    """Escape a workflow command's message as actions/toolkit `escapeData` does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """Escape a workflow command's property value as actions/toolkit `escapeProperty` does."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(d: Diagnostic) -> str:
    """`::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::message` for one finding.

    Columns are given only when the span starts and ends on one line, as GitHub requires.
    """
    span = d.span
    props = [("file", span.file), ("line", str(span.line))]
    if span.end_line == span.line:
        props += [("col", str(span.col)), ("endColumn", str(span.end_col))]
    else:
        props += [("endLine", str(span.end_line))]
    props.append(("title", f"{d.code} {CODES[d.code].name}"))
    message = d.message + (f"\nhelp: {d.help}" if d.help else "")
    head = ",".join(f"{k}={_github_property(v)}" for k, v in props)
    return f"::{_GITHUB_LEVEL[d.severity]} {head}::{_github_data(message)}"


def github_overflow(diagnostics: list[Diagnostic]) -> str | None:
    """A notice when some level has more findings than GitHub annotates per step, else None."""
    counts = count_by_severity(diagnostics)
    over = {level: n for level, n in counts.items() if n > GITHUB_ANNOTATIONS_PER_STEP}
    if not over:
        return None
    what = ", ".join(f"{n} {level}s" for level, n in over.items())
    return (f"::notice title=chartc::{what}: GitHub shows only {GITHUB_ANNOTATIONS_PER_STEP} annotations "
            "per level and step; the full report follows in the log")


# ---- SARIF 2.1.0 ---------------------------------------------------------------------------------

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _sarif_location(span: Span, message: str | None = None) -> dict:
    region = {"startLine": span.line, "startColumn": max(1, span.col), "endLine": max(span.line, span.end_line),
              "endColumn": max(1, span.end_col)}
    loc: dict = {"physicalLocation": {"artifactLocation": _sarif_artifact(span.file), "region": region}}
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def _sarif_artifact(path: str) -> dict:
    """A repo-relative URI against %SRCROOT% (stable across checkouts); absolute paths as file URIs."""
    from pathlib import PurePosixPath
    from urllib.parse import quote

    if PurePosixPath(path).is_absolute():
        return {"uri": PurePosixPath(path).as_uri()}
    return {"uri": quote(path), "uriBaseId": "%SRCROOT%"}


def _sarif_rule(code: Code) -> dict:
    return {
        "id": code.code,
        "name": code.name,
        "shortDescription": {"text": code.name},
        "fullDescription": {"text": code.summary},
        "defaultConfiguration": {"level": _SARIF_LEVEL[code.severity]},
        "help": {"text": f"{code.summary}; run `chartc explain {code.code}` or see docs/diagnostics.md"},
    }


def _sarif_result(d: Diagnostic, rule_index: dict[str, int], suppression: Suppressed | None = None) -> dict:
    result: dict = {
        "ruleId": d.code,
        "ruleIndex": rule_index[d.code],
        "level": _SARIF_LEVEL[d.severity],
        "message": {"text": d.message + (f" (help: {d.help})" if d.help else "")},
        "locations": [_sarif_location(d.span)],
        "partialFingerprints": {"chartcFinding/v1": f"{d.code}:{d.span.file}:{d.message}"},
    }
    if d.labels:
        result["relatedLocations"] = [dict(_sarif_location(lb.span, lb.message), id=i) for i, lb in enumerate(d.labels)]
    if suppression is not None:
        result["suppressions"] = [{"kind": "inSource", "justification": suppression.reason}]
    return result


def render_sarif(diagnostics: list[Diagnostic], suppressed: list[Suppressed] | None = None, version: str = "0") -> str:
    """A SARIF 2.1.0 log for GitHub code scanning; silenced findings carry an in-source suppression."""
    rules = [_sarif_rule(c) for c in _REGISTRY]
    rule_index = {c.code: i for i, c in enumerate(_REGISTRY)}
    results = [_sarif_result(d, rule_index) for d in diagnostics]
    results += [_sarif_result(s.diagnostic, rule_index, s) for s in suppressed or []]
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "chartc", "semanticVersion": version, "rules": rules}},
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the folder chartc ran in"}}},
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
