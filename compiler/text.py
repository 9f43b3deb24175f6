"""How a cell reads to a player, shared by the CLI and the HTML player aid.

`value_text` turns a typed model value into the text the chart prints: `–` for no value, `6/3`
for a pair, `-/8/9/11` for thresholds, `[B6]` for a chart reference, an enum member's label.
"""

from __future__ import annotations

from compiler import model


def cell_text(value: model.Value) -> str | None:
    """A cell whose printed form does not depend on its column, or None (enum members, text)."""
    if value is None:
        return "\u2013"
    if isinstance(value, tuple):
        return "/".join("-" if v is None else str(v) for v in value)
    if isinstance(value, model.ChartRef):
        return f"[{value.address}]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return None


def value_text(game: model.Game, col: model.Column, value: model.Value) -> str:
    """A cell as a player reads it, using the column's enum for member labels."""
    shown = cell_text(value)
    if shown is not None:
        return shown
    enum = game.enums.get(col.type)
    member = enum.member(str(value)) if enum else None
    return member.label if member else str(value)
