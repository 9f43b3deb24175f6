"""GitHub Actions workflow commands (annotations), escaped as actions/toolkit does."""

from __future__ import annotations

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.core import Diagnostic, count_by_severity
from compiler.diagnostics.registry import CODES
from compiler.diagnostics.textsafe import printable

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
_LINE_BREAKS = "\r\n"
GITHUB_ANNOTATIONS_PER_STEP = 10  # per level; GitHub drops the rest silently


def _github_data(text: str) -> str:
    """Escape a workflow command's message as actions/toolkit `escapeData` does."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """Escape a workflow command's property value as actions/toolkit `escapeProperty` does."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(d: Diagnostic) -> str:
    """`::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::message` for one finding.

    Columns are given only when the span starts and ends on one line, as GitHub requires. Chart
    text is made `printable` first, so no escape sequence or bidi control reaches the log; line
    breaks stay (the annotation shows them) and are escaped as `%0D`/`%0A` like the rest.
    """
    span = d.span
    props = [("file", printable(span.file)), ("line", str(span.line))]
    if span.end_line == span.line:
        props += [("col", str(span.col)), ("endColumn", str(span.end_col))]
    else:
        props += [("endLine", str(span.end_line))]
    props.append(("title", f"{d.code} {CODES[d.code].name}"))
    message = printable(d.message, keep=_LINE_BREAKS)
    if d.help:
        message += "\nhelp: " + printable(d.help, keep=_LINE_BREAKS)
    head = ",".join(f"{k}={_github_property(v)}" for k, v in props)
    return f"::{_GITHUB_LEVEL[d.severity]} {head}::{_github_data(message)}"


def github_overflow(diagnostics: list[Diagnostic]) -> str | None:
    """A notice when some level has more findings than GitHub annotates per step, else None."""
    counts = count_by_severity(diagnostics)
    over = {level: n for level, n in counts.items() if n > GITHUB_ANNOTATIONS_PER_STEP}
    if not over:
        return None
    what = ", ".join(f"{n} {level}s" for level, n in over.items())
    return (
        f"::notice title=chartc::{what}: GitHub shows only {GITHUB_ANNOTATIONS_PER_STEP} annotations "
        "per level and step; the full report follows in the log"
    )
