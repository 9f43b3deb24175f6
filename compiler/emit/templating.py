"""The Jinja2 environment of chartc's HTML outputs (the player aid and the errata sheet).

Autoescape is on, undefined names fail, and every value a template prints passes through
`visible_controls`, so chart text can neither inject markup nor hide or reorder what is printed.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
import markupsafe

from compiler.diagnostics.textsafe import is_hidden


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The shared environment, loading templates from `compiler/emit/templates/`."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.emit", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=visible_controls,
    )


def visible_controls(value: object) -> object:
    """Show hidden characters in chart text as `[U+202E]` instead of emitting them: controls (a NUL
    is not allowed in HTML), bidi overrides, isolates and marks (they reorder the printed aid), line
    and paragraph separators, zero-width characters (see `compiler.diagnostics.textsafe.is_hidden`). Line
    breaks and tabs stay: HTML shows them as spaces. Markup built by chartc passes unchanged."""
    if not isinstance(value, str) or isinstance(value, markupsafe.Markup):
        return value
    if value.isascii() and value.isprintable():
        return value
    return "".join(f"[U+{ord(ch):04X}]" if ch not in "\n\t" and is_hidden(ch) else ch for ch in value)
