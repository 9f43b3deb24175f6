"""HTML player-aid emitter: one self-contained page per game (Jinja2, autoescape on).

Pure: model in, text out. Each chart is a `<section>` kept whole on a printed page, with its
chart ID badge, rule cite, DRM box, footnotes and the chance of each row on the natural roll.
All chart text goes through Jinja2's autoescape; nothing is marked safe except the SVG bars
and CSS this module builds from numbers.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from compiler import model
from compiler.odds import odds

PAPER_SIZES = {"a4": "A4", "letter": "letter"}


@lru_cache(maxsize=1)
def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=visible_controls,
    )
    return env


# Bidi overrides and isolates can reorder the text around them (the "Trojan Source" trick).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible_controls(value: Any) -> Any:
    """Show control characters and bidi overrides in chart text as `[U+202E]` instead of emitting
    them (a NUL is not allowed in HTML; an override would reorder the printed aid). Markup built
    by this module passes through unchanged."""
    import markupsafe

    if not isinstance(value, str) or isinstance(value, markupsafe.Markup):
        return value
    if value.isprintable() and not _BIDI_CONTROLS.intersection(value):
        return value
    return "".join(
        f"[U+{ord(ch):04X}]" if (not ch.isprintable() and ch not in "\n\t") and (ch in _BIDI_CONTROLS or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0) else ch
        for ch in value
    )


def emit_game_html(game: model.Game, paper: str = "a4") -> str:
    """The game's printable player aid as an HTML document.

    Args:
        game: the resolved game.
        paper: `a4` or `letter`, the `@page` size the aid is laid out for.
    """
    charts = [_chart_view(game, c) for c in game.charts]
    return _environment().get_template("player_aid.html.j2").render(
        game=game, charts=charts, page_size=PAPER_SIZES[paper], css_title=css_string(game.title)
    )


def css_string(text: str) -> str:
    """A CSS string literal for `text` with every non-alphanumeric character escaped, so nothing
    in it can end the string, the rule or the `<style>` element."""
    return '"' + "".join(ch if ch.isascii() and ch.isalnum() else f"\\{ord(ch):06x}" for ch in text) + '"'


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("\u2212" + str(-n) if n < 0 else "0")


def describe_condition(c: model.Condition | None, game: model.Game) -> str:
    """A condition in words: `month is 1944-11 or 1945-01`, `fb attack`, `fatigue ≥ 5`."""
    if c is None:
        return "always"
    if isinstance(c, model.Flag):
        return game.context[c.var].label if c.var in game.context else c.var
    if isinstance(c, model.Compare):
        ops = {"==": "is", "!=": "is not", ">=": "\u2265", "<=": "\u2264", ">": ">", "<": "<"}
        return f"{_var_label(c.var, game)} {ops[c.op]} {_operand(c.var, c.value, game)}"
    if isinstance(c, model.In):
        values = [_operand(c.var, v, game) for v in c.values]
        return f"{_var_label(c.var, game)} is " + (", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0])
    if isinstance(c, model.Not):
        return f"not ({describe_condition(c.inner, game)})"
    joiner = " and " if isinstance(c, model.All) else " or "
    return joiner.join(describe_condition(p, game) for p in c.parts)


def _var_label(var: str, game: model.Game) -> str:
    ctx = game.context.get(var)
    return ctx.label if ctx else var


def _operand(var: str, value: int | str, game: model.Game) -> str:
    ctx = game.context.get(var)
    if ctx and ctx.type == "enum" and ctx.enum in game.enums:
        member = game.enums[ctx.enum].member(str(value))
        if member:
            return member.label
    return str(value)


def _percent(p: Fraction | None) -> str:
    if p is None:
        return ""
    pct = float(p) * 100
    return f"{pct:.1f}%" if pct % 1 else f"{pct:.0f}%"


def _bar(p: Fraction | None) -> str:
    """An inline SVG bar (black outline, grey fill) that reads in black and white."""
    if p is None:
        return ""
    width = round(float(p) * 40, 2)
    return (
        '<svg class="bar" width="42" height="8" viewBox="0 0 42 8" aria-hidden="true">'
        '<rect x="0.5" y="0.5" width="41" height="7" fill="none" stroke="#000" stroke-width="0.6"/>'
        f'<rect x="1" y="1" width="{width}" height="6" fill="#555"/></svg>'
    )


def _cell_value(col: model.Column, value: model.Value, game: model.Game) -> str:
    if value is None:
        return "\u2013"
    if col.type in ("text", "int"):
        return str(value)
    enum = game.enums.get(col.type)
    member = enum.member(str(value)) if enum else None
    return member.label if member else str(value)


def _natural_odds(chart: model.Chart) -> dict[int, Fraction]:
    """Chance of each row on the natural roll (DRM 0) within its own key combination.

    A row that applies to several key combinations (`*`) gets a figure only when it is the same
    for all of them.
    """
    if chart.kind != "roll" or chart.dice is None:
        return {}
    found: dict[int, set[Fraction]] = {}
    for combo in chart.key_combinations():
        for ro in odds(chart, combo, 0).rows:
            found.setdefault(id(ro.row), set()).add(ro.probability)
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


def _roll_header(chart: model.Chart) -> str:
    if chart.kind == "roll" and chart.dice:
        return f"Roll ({chart.dice.text})" if chart.dice.form != "percentile" else "Roll (2d10 %)"
    if chart.kind == "value" and chart.value_key:
        return chart.value_key.label
    return ""


def _chart_view(game: model.Game, chart: model.Chart) -> dict[str, Any]:
    natural = _natural_odds(chart)
    view: dict[str, Any] = {
        "chart": chart,
        "anchor": "chart-" + chart.ident,
        "roll_header": _roll_header(chart),
        "drms": [
            {"value": _signed(d.value), "label": d.label, "when": describe_condition(d.when, game), "footnote": d.footnote}
            for d in chart.drms
        ],
        "clamp": f"{_signed(chart.clamp[0])} to {_signed(chart.clamp[1])}" if chart.clamp else None,
        "show_odds": bool(natural),
        "dice_text": chart.dice.text if chart.dice else None,
    }
    if chart.grid is not None:
        key = next(k for k in chart.keys if k.id == chart.grid.key)
        view["grid"] = {
            "columns": [key.enum.member(c).label if key.enum.member(c) else c for c in chart.grid.columns],
            "key_label": key.enum.label,
            "rows": [
                {
                    "outputs": [_cell_value(col, v, game) for col, v in zip(chart.columns, gr.values)],
                    "cells": [cell.printed if cell else "\u2013" for cell in gr.cells],
                }
                for gr in chart.grid.rows
            ],
        }
    else:
        view["key_headers"] = [k.enum.label for k in chart.keys]
        view["rows"] = [
            {
                "key_labels": [
                    (k.enum.member(m).label if k.enum.member(m) else m) if m is not None else "any"
                    for k, m in zip(chart.keys, r.keys)
                ],
                "range": r.range.printed if r.range else None,
                "outputs": [_cell_value(col, v, game) for col, v in zip(chart.columns, r.values)],
                "percent": _percent(natural.get(id(r))),
                "bar": _bar(natural.get(id(r))),
            }
            for r in chart.rows
        ]
    return view
