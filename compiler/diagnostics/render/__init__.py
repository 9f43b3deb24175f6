"""One renderer per output format, fed by the same `Diagnostic` objects."""

from __future__ import annotations

from compiler.diagnostics.render.github import github_overflow, render_github
from compiler.diagnostics.render.human import render_human
from compiler.diagnostics.render.json import render_json
from compiler.diagnostics.render.sarif import render_sarif
from compiler.diagnostics.render.short import render_short

FORMATS = ("human", "short", "json", "github", "sarif")

__all__ = ["FORMATS", "github_overflow", "render_github", "render_human", "render_json", "render_sarif", "render_short"]
