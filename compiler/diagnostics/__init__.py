"""Diagnostics: codes (`codes`), the record and sink (`core`), fixes as edits (`fixes`), did-you-mean
(`suggest`), renderers (`render`). Passes import the code constants: `sink.emit(codes.GAP, message,
span)`, with `fix=` where the change that resolves the finding is obvious."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.diagnostics import codes, fixes
from compiler.diagnostics.code_type import Code, Severity
from compiler.diagnostics.core import (
    Diagnostic,
    Label,
    Sink,
    Suppressed,
    as_strict,
    count_by_severity,
    has_errors,
)
from compiler.diagnostics.fixes import Applicability, Edit, Fix, Slot
from compiler.diagnostics.registry import CODES, CODES_BY_NAME, REGISTRY, suppressible
from compiler.diagnostics.suggest import did_you_mean

if TYPE_CHECKING:
    from compiler.diagnostics.render import (
        FORMATS,
        github_overflow,
        render_github,
        render_human,
        render_json,
        render_sarif,
        render_short,
    )

else:
    # The renderers are imported on first use (`from compiler.diagnostics import render_short`):
    # a query answered from the compiled-game cache renders no diagnostic. (Out of the type
    # checker's sight, which would otherwise take any unknown name of this package for this.)
    _RENDER = frozenset(
        {"FORMATS", "github_overflow", "render_github", "render_human", "render_json", "render_sarif", "render_short"}
    )

    def __getattr__(name: str) -> object:
        if name in _RENDER:
            # lazy: the renderers on first use: `chartc lookup` renders no finding
            from compiler.diagnostics import render

            return getattr(render, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CODES", "CODES_BY_NAME", "FORMATS", "REGISTRY", "Applicability", "Code", "Diagnostic", "Edit", "Fix", "Label",
    "Severity", "Sink", "Slot", "Suppressed", "as_strict", "codes", "count_by_severity", "did_you_mean", "fixes",
    "github_overflow", "has_errors", "render_github", "render_human", "render_json", "render_sarif", "render_short",
    "suppressible",
]
