"""The rustc-style human report: header, location, the source line with a caret, labels, help, and
the fix with the line as it would read (`~` under the new text).

Every piece of text that comes from a chart (messages quote names and labels, file names, source
lines) goes through `compiler.diagnostics.textsafe.printable`: the report's line breaks are its own, so a
label cannot add a line (`::error file=…::` would be a forged GitHub annotation in the log of
`--format github`), move the cursor or reorder text.
"""

from __future__ import annotations

from functools import lru_cache

from compiler.diagnostics.core import Diagnostic
from compiler.diagnostics.fixes import Fix
from compiler.diagnostics.textsafe import printable
from dsl.shared import Span


def render_human(d: Diagnostic, sources: dict[str, str]) -> str:
    """The rustc-style block: header, location, the source line with a caret, labels, help, fix."""
    out = [f"{d.severity.value}[{d.code}]: {printable(d.message)}", f"  --> {printable(str(d.span))}"]
    out.extend(_excerpt(d.span, sources, None))
    for label in d.labels:
        out.append(f"  --> {printable(str(label.span))}")
        out.extend(_excerpt(label.span, sources, printable(label.message)))
    if d.help:
        out.append(f"   = help: {printable(d.help)}")
    if d.fix is not None:
        out.extend(_fix(d.fix, sources))
    return "\n".join(out)


def _fix(fix: Fix, sources: dict[str, str]) -> list[str]:
    """`= fix (safe): MESSAGE`, then the line each edit writes, as it would read, `~` under the new
    text (a deletion, or an edit over several lines, shows no line: its message says what changes)."""
    out = [f"   = fix ({fix.applicability.value}): {printable(fix.message)}"]
    for edit in fix.edits:
        span, text = edit.span, sources.get(edit.span.file)
        if text is None or not edit.text or "\n" in edit.text or span.end_line != span.line:
            continue
        lines = _source_lines(text)
        if not 1 <= span.line <= len(lines):
            continue
        line = lines[span.line - 1]
        start, end = min(span.col - 1, len(line)), min(span.end_col - 1, len(line))
        fixed = line[:start] + edit.text + line[end:]
        after = Span(span.file, span.line, start + 1, span.line, start + 1 + len(edit.text))
        out.extend(_excerpt_line(fixed, after, None, "~"))
    return out


def _excerpt(span: Span, sources: dict[str, str], label: str | None) -> list[str]:
    text = sources.get(span.file)
    if text is None:
        return []
    lines = _source_lines(text)
    if not 1 <= span.line <= len(lines):
        return []
    return _excerpt_line(lines[span.line - 1], span, label, "^")


def _excerpt_line(line: str, span: Span, label: str | None, mark: str) -> list[str]:
    """Line `span.line`, whose text is `line`, with `mark`s under the span and the label after them."""
    raw = line.rstrip("\r")
    shown = printable(raw, keep="\t")
    gutter = str(span.line)
    pad = " " * len(gutter)
    start = max(0, span.col - 1)
    width = (span.end_col - span.col) if span.end_line == span.line else len(raw) - start
    width = max(1, min(width, max(1, len(raw) - start)))
    caret_lead = printable(raw[:start], keep="\t").replace("\t", " ")
    caret_lead = " " * len(caret_lead)
    caret = mark * width + (f" {label}" if label else "")
    if len(shown) > 200:  # very long lines: show a window around the column
        lo = max(0, len(caret_lead) - 60)
        shown = "…" + shown[lo : lo + 140] + "…"
        caret_lead = " " * (len(caret_lead) - lo + 1)
        caret = mark * min(width, 80) + (f" {label}" if label else "")
    return [f" {pad} |", f" {gutter} | {shown.replace(chr(9), ' ')}", f" {pad} | {caret_lead}{caret}"]


@lru_cache(maxsize=8)
def _source_lines(text: str) -> list[str]:
    """A file's lines, split once per file rather than once per finding (a 10 MB file may have
    thousands of findings)."""
    return text.split("\n")
