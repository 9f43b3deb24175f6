"""The diagnostics as a JSON document (`compiler/schemas/diagnostics.schema.json`)."""

from __future__ import annotations

import json

from compiler.diagnostics.core import Diagnostic, Suppressed, count_by_severity
from compiler.diagnostics.fixes import Fix
from compiler.diagnostics.registry import CODES
from compiler.diagnostics.textsafe import json_text


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
                "fix": fix_json(d.fix),
            }
            for d in diagnostics
        ],
        "summary": summary,
    }
    return json_text(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"  # see compiler.diagnostics.textsafe


def fix_json(fix: Fix | None) -> dict[str, object] | None:
    """A fix as JSON: its message, applicability and edits (each a span and the text that replaces it)."""
    if fix is None:
        return None
    return {
        "message": fix.message,
        "applicability": fix.applicability.value,
        "edits": [
            {
                "file": e.span.file,
                "line": e.span.line,
                "column": e.span.col,
                "end_line": e.span.end_line,
                "end_column": e.span.end_col,
                "text": e.text,
            }
            for e in fix.edits
        ],
    }
