"""One line per finding: `file:line:col: severity[code]: message`."""

from __future__ import annotations

from compiler.diagnostics.core import Diagnostic
from compiler.diagnostics.textsafe import printable


def render_short(d: Diagnostic) -> str:
    """`file:line:col: severity[code]: message` on one line, whatever the chart text holds (see
    `compiler.diagnostics.textsafe`)."""
    return printable(f"{d.span}: {d.severity.value}[{d.code}]: {d.message}")
