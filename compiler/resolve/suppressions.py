"""`allow CODE "reason"` statements of a chart: which findings it may silence (C502)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import CODES, Sink, Slot, codes, fixes, suppressible
from compiler.diagnostics.suggest import suggestion
from compiler.resolve.symbols import chart_name
from dsl import ast


def suppressions(decl: ast.ChartDecl, sink: Sink) -> list[model.Suppression]:
    """The chart's valid `allow` statements; unknown or unsilenceable codes are reported (C502)."""
    chart = chart_name(decl)
    found = []
    for allow in decl.allows:
        code = allow.code.text
        if code not in CODES:
            known = [c for c in CODES if suppressible(c)]
            hint, close = suggestion(code, known)
            sink.emit(
                codes.INVALID_SUPPRESSION,
                f"`allow {code}` names no diagnostic code",
                allow.code.span,
                hint or "see `chartc explain`",
                fix=fixes.rename(allow.code.span, code, close, Slot.NAME, known),
            )
        elif not suppressible(code):
            why = "errors" if CODES[code].severity.value == "error" else "suppression codes"
            sink.emit(
                codes.INVALID_SUPPRESSION,
                f"`{code}` cannot be silenced: {why} are always reported",
                allow.code.span,
                "fix the chart, or declare it `partial` if rows are missing",
            )
        elif not allow.reason.text.strip():
            sink.emit(
                codes.INVALID_SUPPRESSION,
                f"`allow {code}` gives no reason",
                allow.reason.span,
                'say why the finding is acceptable: `allow C305 "the print ..."`',
            )
        else:
            found.append(model.Suppression(code, allow.reason.text, chart, allow.span, decl.span))
    return found
