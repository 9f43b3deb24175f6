"""Diagnostics: codes (`codes`), the record and sink (`core`), did-you-mean (`suggest`), renderers
(`render`). Passes import the code constants: `sink.emit(codes.GAP, message, span)`."""

from __future__ import annotations

from compiler.diagnostics import codes
from compiler.diagnostics.codes import (
    CODES,
    CODES_BY_NAME,
    REGISTRY,
    Code,
    Severity,
    suppressible,
)
from compiler.diagnostics.core import (
    Diagnostic,
    Label,
    Sink,
    Suppressed,
    as_strict,
    count_by_severity,
    has_errors,
)
from compiler.diagnostics.render import (
    FORMATS,
    github_overflow,
    render_github,
    render_human,
    render_json,
    render_sarif,
    render_short,
)
from compiler.diagnostics.suggest import did_you_mean

__all__ = [
    "CODES", "CODES_BY_NAME", "FORMATS", "REGISTRY", "Code", "Diagnostic", "Label", "Severity", "Sink", "Suppressed",
    "as_strict", "codes", "count_by_severity", "did_you_mean", "github_overflow", "has_errors", "render_github",
    "render_human", "render_json", "render_sarif", "render_short", "suppressible",
]
