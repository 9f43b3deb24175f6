"""HTML player-aid emitter: one self-contained page per game (Jinja2, autoescape on).

Pure: model in, text out. Charts come in play order (see `play_order`), grouped under headings;
each chart is a `<section>` kept whole on a printed page, with its chart ID badge, rule cite, DRM
box beside the table, footnotes, a legend for the symbols it uses and the chance of each row on
the natural roll. All chart text goes through Jinja2's autoescape; nothing is marked safe except
the SVG bars built from numbers and CSS strings escaped by `css_string`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from compiler import model
from compiler.text import value_text
from compiler.odds import odds, percent_text

PAPER_SIZES = {"a4": "A4", "letter": "letter"}
from compiler.aid_order import ORDER_FILE, OrderEntry  # noqa: E402  (the file's format lives there)


class AidOrderError(ValueError):
    """An `aid.order` file names an unknown chart, or names a chart twice."""


@dataclass(frozen=True)
class AidGroup:
    """Charts printed together under one heading (`None`: no heading)."""

    heading: str | None
    charts: tuple[model.Chart, ...]


def rule_key(rule: str | None) -> tuple[float, ...]:
    """Sort key for a rule cite by its first section number: `7.1.10` after `7.1.7`, `10.5` after
    `7.4.2`; a chart with no number sorts last."""
    match = re.search(r"\d+(?:\.\d+)*", rule or "")
    if match is None:
        return (float("inf"),)
    return tuple(float(part) for part in match.group(0).split("."))


def _default_groups(charts: list[model.Chart]) -> list[AidGroup]:
    """Charts by rule section number (stable: source order breaks ties), grouped by the number's
    first part (`Rules 7`)."""
    groups: list[AidGroup] = []
    for chart in sorted(charts, key=lambda c: rule_key(c.rule)):
        key = rule_key(chart.rule)[0]
        heading = f"Rules {int(key)}" if key != float("inf") else "Other charts"
        if groups and groups[-1].heading == heading:
            groups[-1] = AidGroup(heading, groups[-1].charts + (chart,))
        else:
            groups.append(AidGroup(heading, (chart,)))
    return groups


def play_order(game: model.Game, order: Sequence[OrderEntry] | None = None) -> list[AidGroup]:
    """The charts of `game` in the order the player aid prints them.

    Without an order file the charts follow their rule section numbers, grouped by the first part
    of the number. An order file (`aid.order` in the game folder) sets the sequence of play: one
    chart address per line, `== Heading` starts a group, `#` starts a comment. Charts it does not
    list follow in rule order, so a newly added chart is never left out of the aid.

    Raises:
        AidOrderError: the file names an unknown chart, or one chart twice.
    """
    if order is None:
        return _default_groups(game.charts)
    groups: list[AidGroup] = []
    listed: list[model.Chart] = []
    for entry in order:
        if entry.address is None:
            groups.append(AidGroup(entry.heading or None, ()))
            continue
        chart = game.chart(entry.address)
        if chart is None:
            raise AidOrderError(f"{ORDER_FILE} line {entry.line}: no chart `{entry.address}` in game `{game.id}`")
        if chart in listed:
            raise AidOrderError(f"{ORDER_FILE} line {entry.line}: chart `{entry.address}` is listed twice")
        listed.append(chart)
        if not groups:
            groups.append(AidGroup(None, ()))
        groups[-1] = AidGroup(groups[-1].heading, groups[-1].charts + (chart,))
    rest = [c for c in game.charts if c not in listed]
    return [g for g in groups if g.charts] + _default_groups(rest)


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


def emit_game_html(game: model.Game, paper: str = "a4", large_print: bool = False, order: Sequence[OrderEntry] | None = None) -> str:
    """The game's printable player aid as an HTML document.

    Args:
        game: the resolved game.
        paper: `a4` or `letter`, the `@page` size the aid is laid out for.
        large_print: 12 pt table cells and 10 pt notes instead of 9 pt and 7.5 pt.
        order: the game's checked `aid.order` lines, if it has the file (see `play_order`).

    Raises:
        AidOrderError: the order file is wrong.
    """
    groups = [
        {"heading": g.heading, "charts": [_chart_view(game, c) for c in g.charts if c.kind != "external"]}
        for g in play_order(game, order)
    ]
    groups = [g for g in groups if g["charts"]]
    return _environment().get_template("player_aid.html.j2").render(
        game=game,
        groups=groups,
        chart_count=len(game.charts),
        page_size=PAPER_SIZES[paper],
        large_print=large_print,
        css_title=css_string(game.title),
        css_paper=css_string(f"{paper.upper() if paper == 'a4' else 'US Letter'}{' large print' if large_print else ''}"),
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
    return "" if p is None else percent_text(p)


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


def _key_label(key: model.Key, k: model.KeyMatch) -> str:
    if k is None:
        return "any"
    if isinstance(k, model.MonthSpan):
        return k.printed
    member = key.enum.member(k)
    return member.label if member else k


def _avail_text(cell: model.AvailabilityCell) -> str:
    if cell is None:
        return "-"
    if isinstance(cell, model.AvailabilityMark):
        return "\u2713"
    return cell.printed


def _grid_cell(cell: model.DieRange | None, by_range: dict[int, Fraction]) -> dict[str, str]:
    """A grid cell: its printed range, and the chance and bar of the row it stands for."""
    if cell is None:
        return {"range": "\u2013", "percent": "", "bar": ""}
    p = by_range.get(id(cell))
    return {"range": cell.printed, "percent": _percent(p), "bar": _bar(p)}


def _roll_header(chart: model.Chart) -> str:
    if chart.kind == "roll" and chart.dice:
        return f"Roll ({chart.dice.text})" if chart.dice.form != "percentile" else "Roll (2d10 %)"
    if chart.kind == "value" and chart.value_key:
        return chart.value_key.label
    return ""


def _printed_ranges(chart: model.Chart) -> list[str]:
    """Every die range or value range as the chart prints it, rows and grid cells alike."""
    printed = [r.range.printed for r in chart.rows if r.range]
    if chart.grid is not None:
        printed += [cell.printed for gr in chart.grid.rows for cell in gr.cells if cell]
    return printed


def _has_blank(chart: model.Chart) -> bool:
    """Whether the chart prints `–` anywhere (a value or a grid cell with nothing in it)."""
    values = [v for r in chart.rows for v in r.values]
    if chart.grid is not None:
        values += [v for gr in chart.grid.rows for v in gr.values]
        if any(cell is None for gr in chart.grid.rows for cell in gr.cells):
            return True
    return any(v is None for v in values)


def _first(printed: list[str], pattern: str) -> str | None:
    return next((p for p in printed if re.fullmatch(pattern, p)), None)


def chart_legend(chart: model.Chart, game: model.Game) -> list[tuple[str, str]]:
    """The symbols and result codes this chart prints, each with its meaning, so the legend sits
    on the same page as the chart (layout rule L6). Only what the chart uses is listed."""
    printed = _printed_ranges(chart)
    legend: list[tuple[str, str]] = []
    high = _first(printed, r"\d+\+")
    if high:
        legend.append((high, f"{high[:-1]} or more"))
    low = _first(printed, r"\d+-|\d+ or less")
    if low:
        legend.append((low, low.rstrip("-").replace(" or less", "") + " or less"))
    if chart.dice and chart.dice.form == "sum" and chart.dice.sides == 10 and _first(printed, r"(\d+-)?0"):
        legend.append(("0", "the 0 face of a d10 counts as 10"))
    if chart.dice and chart.dice.form == "percentile" and _first(printed, r"(\d+-)?00"):
        legend.append(("00", "100 on a percentile roll"))
    if "\u2713" in printed:
        legend.append(("\u2713", "automatic: no roll needed"))
    if _has_blank(chart):
        legend.append(("\u2013", "no result: not available or not applicable"))
    for index, col in enumerate(chart.columns):
        enum = game.enums.get(col.type)
        if enum is None or enum.fields:  # records (bases, units) are names, not result codes
            continue
        used = {r.values[index] for r in chart.rows if index < len(r.values)}
        members = [m for m in enum.members if m.id in used]
        if members and len(members) <= _LEGEND_MAX_CODES:
            codes = ", ".join(m.label for m in members)
            legend.append((col.label, f"one of the {enum.label} codes: {codes}"))
    return legend


_LEGEND_MAX_CODES = 12  # a longer list is a table of its own, not a legend


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
        "legend": chart_legend(chart, game),
    }
    if chart.odds is not None:
        r = chart.odds
        view["odds"] = {
            "attacker": f"attack ÷ defense, rounded {r.attacker_round}, read as n:1",
            "defender": f"defense ÷ attack, rounded {r.defender_round}, read as 1:n",
            "columns": ", ".join(r.columns) if r.columns else None,
            "beyond": {"clamp": "use the edge column", "error": "not allowed"}.get(r.beyond or "", None),
            "shift": f"column shifts apply {r.shift_order} the table edge is applied" if r.shift_order else None,
        }
    elif chart.availability is not None:
        a = chart.availability
        item_key = next(k for k in chart.keys if k.id == a.item_key)
        col_key = next(k for k in chart.keys if k.id == a.head_key)
        view["availability"] = {
            "item_label": item_key.enum.label,
            "columns": [_key_label(col_key, c) for c in a.heads],
            "rows": [
                {"item": _key_label(item_key, item), "cells": [_avail_text(c) for c in cells]}
                for item, cells in a.rows
            ],
        }
    elif chart.grid is not None:
        key = next(k for k in chart.keys if k.id == chart.grid.key)
        by_range = {id(r.range): natural[id(r)] for r in chart.rows if id(r) in natural}
        view["grid"] = {
            "columns": [key.enum.member(c).label if key.enum.member(c) else c for c in chart.grid.heads],
            "key_label": key.enum.label,
            "rows": [
                {
                    "outputs": [value_text(game, col, v) for col, v in zip(chart.columns, gr.values)],
                    "cells": [_grid_cell(cell, by_range) for cell in gr.cells],
                }
                for gr in chart.grid.rows
            ],
        }
    else:
        view["key_headers"] = [k.enum.label for k in chart.keys]
        view["rows"] = [
            {
                "key_labels": [_key_label(k, m) for k, m in zip(chart.keys, r.keys)],
                "range": r.range.printed if r.range else None,
                "outputs": [value_text(game, col, v) for col, v in zip(chart.columns, r.values)],
                "percent": _percent(natural.get(id(r))),
                "bar": _bar(natural.get(id(r))),
                **_row_errata(game, chart, r),
            }
            for r in chart.rows
        ]
    view["errata"] = _chart_errata(game, chart)
    return view


def errata_mark(game: model.Game, errata_id: str) -> str:
    """The short mark an amended cell carries: `E1` for the game's first errata in order."""
    ids = [e.id for e in game.errata]
    return f"E{ids.index(errata_id) + 1}" if errata_id in ids else errata_id


def _row_errata(game: model.Game, chart: model.Chart, r: model.Row) -> dict[str, Any]:
    """Marks for an amended row: which cells changed, what they were, and the errata mark."""
    if not r.errata:
        return {"marks": "", "was_range": None, "was": [None] * len(chart.columns), "added": False}
    marks = " ".join(errata_mark(game, e) for e in r.errata)
    was = [None] * len(chart.columns)
    if r.printed_values is not None:
        was = [
            value_text(game, col, old) if old != new else None
            for col, old, new in zip(chart.columns, r.printed_values, r.values)
        ]
    was_range = r.printed_range if r.range is not None and r.printed_range not in (None, r.range.printed) else None
    return {"marks": marks, "was_range": was_range, "was": was, "added": r.added}


def _chart_errata(game: model.Game, chart: model.Chart) -> list[str]:
    """One line per errata that amended this chart: mark, title, source, and what it did."""
    lines: list[str] = []
    marks = chart.errata
    if marks is None:
        return lines
    for errata_id in marks.applied:
        doc = next((e for e in game.errata if e.id == errata_id), None)
        cite = doc.title if doc else errata_id
        if doc and doc.source:
            cite += f" ({doc.source}{', ' + doc.date if doc.date else ''})"
        what = [t for e, t in marks.notes if e == errata_id]
        what += [f"because {t}" for e, t in marks.reasons if e == errata_id]
        if marks.printed_title and errata_id == marks.applied[0]:
            what.append(f"printed title: {marks.printed_title}")
        removed = [r for r in marks.removed_rows if errata_id in r.errata]
        if removed:
            what.append("removed rows: " + ", ".join(_row_name(chart, r) for r in removed))
        lines.append(f"{errata_mark(game, errata_id)} \u2014 {cite}" + (": " + "; ".join(what) if what else ""))
    return lines


def _row_name(chart: model.Chart, r: model.Row) -> str:
    parts = [_key_label(k, m) for k, m in zip(chart.keys, r.keys)]
    if r.range is not None:
        parts.append(r.range.printed)
    return " ".join(parts) or "the row"
