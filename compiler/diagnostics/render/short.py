"""One line per finding: `file:line:col: severity[code]: message`."""

from __future__ import annotations

from compiler.diagnostics.core import Diagnostic


def render_short(d: Diagnostic) -> str:
    """`file:line:col: severity[code]: message` on one line."""
    return f"{d.span}: {d.severity.value}[{d.code}]: {d.message}"
