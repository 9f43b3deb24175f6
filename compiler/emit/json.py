"""JSON emitter: one document per game, valid against `schemas/chartc-game.schema.json`.

Pure: model in, text out. Every range has explicit integer bounds (`null` only at an open end,
flagged by `open`), conditions are structured objects, and exact probabilities are strings
(`"5/36"`) beside floats.
"""

from __future__ import annotations

import json
from typing import Any, assert_never

from compiler import model
from compiler.diagnostics.textsafe import json_text
from compiler.emit.json_chains import chains_json
from compiler.emit.json_rules import (
    ambiguity_json,
    conflict_json,
    fact_json,
    formula_json,
    kept_json,
    limit_json,
    where_json,
)
from compiler.emit.json_rules import condition_json as _cond
from compiler.emit.json_rules import header_errata_json as _header_errata
from compiler.engine.chances import dice_variants, distinct_chances, drm_reach_span, probability_json
from compiler.engine.overlays import each_overlay
from compiler.model.odds import OddsForm, OddsRule
from compiler.model.text import json_value, step_json

FORMAT_VERSION = 1
SCHEMA_ID = "https://chartc.dev/schemas/chartc-game.schema.json"

# Objects and arrays nested deeper than this are written on one line. The corpus nests 8 deep; a
# condition nested 50 deep (the parser's limit) would otherwise be indented by up to ~200 spaces
# on every line, so a 6 MB chart of wide nested conditions wrote a 508 MB JSON file.
INDENTED_LEVELS = 12


def emit_game_json(game: model.Game) -> str:
    """The game's charts as a deterministic JSON text (sorted where order is not meaningful)."""
    doc = {
        "$schema": SCHEMA_ID,
        "generator": "chartc",
        "format": FORMAT_VERSION,
        "game": {
            "id": game.id,
            "title": game.title,
            "source": game.source,
            "calendar": {"first": game.calendar[0], "last": game.calendar[1]} if game.calendar else None,
            "periods": [
                {"id": p.id, "label": p.label, "first": p.first, "last": None if p.open_end else p.last}
                for p in game.periods
            ],
            **_turns(game),
            **_header_errata(game),
        },
        "enums": [_enum(e) for e in sorted(game.enums.values(), key=lambda e: e.id) if not e.synthetic],
        "context": [_context(v) for v in sorted(game.context.values(), key=lambda v: v.id)],
        "errata": [_errata_doc(e) for e in game.errata],
        "printing": {"key": game.printing, "label": game.printing_label, "left_out": list(game.left_out)},
        "invariants": [_invariant(i) for i in game.invariants],
        "charts": [_chart(c) for c in sorted(game.charts, key=lambda c: c.address.casefold())],
        "formulas": [formula_json(game, f) for f in game.formulas],
        "examples": [_example(e) for e in game.examples],
        "limits": [limit_json(lim) for lim in game.limits],
        "conflicts": [conflict_json(c) for c in game.conflicts],
        "ambiguities": [ambiguity_json(a) for a in game.ambiguities],
        "kept_findings": [kept_json(k) for k in game.kept],
        "chains": chains_json(game),
    }
    return json_text(_pretty(doc, 0)) + "\n"  # hidden characters as escapes: same data, safe to view


def _errata_doc(e: model.ErrataDoc) -> dict[str, Any]:
    """An errata document; `edition` (the printing it corrects) only when it names one."""
    out: dict[str, Any] = {"id": e.id, "title": e.title, "source": e.source, "date": e.date, "order": e.order,
                           "notes": list(e.notes)}
    if e.edition is not None:
        out["edition"] = e.edition
    return out


def _example(e: model.Example) -> dict[str, Any]:
    """A worked example: its citation, the lookup's inputs as written, what the book states."""
    return {
        "id": e.id,
        "title": e.title,
        "rule": e.rule,
        "notes": list(e.notes),
        "chart": e.chart or None,
        "formula": e.formula,
        "inputs": {
            "rolls": list(e.rolls),
            "keys": dict(e.keys),
            "when": list(e.when),
            "set": dict(e.sets),
            "drm": e.drm,
            "attack": e.attack,
            "defense": e.defense,
            "shift": e.shift,
            "follow": e.follow,
        },
        "expect": [_expect(x) for x in e.expects],
        "contradicts": e.contradicts,
        "aid": e.aid,
        "source_file": e.source_file,
        "line": e.span.line,
    }


def _expect(x: model.Expect) -> dict[str, Any]:
    match x.kind:
        case model.ExpectKind.CELL:
            return {"kind": x.kind.value, "column": x.column, "value": json_value(x.value)}
        case model.ExpectKind.ROW:
            return {"kind": x.kind.value, "range": x.text}
        case model.ExpectKind.MODIFIED | model.ExpectKind.DRM | model.ExpectKind.NUMBER:
            return {"kind": x.kind.value, "value": int(x.text)}
        case model.ExpectKind.ODDS:
            return {"kind": x.kind.value, "column": x.text}
        case model.ExpectKind.NO_ROW:
            return {"kind": x.kind.value}
        case _:
            assert_never(x.kind)
def _invariant(inv: model.Invariant) -> dict[str, Any]:
    """An invariant the build checked, with what it states (`kind`: count, column_sum, same, symmetric,
    distances)."""
    out: dict[str, Any] = {"id": inv.id, "label": inv.text}
    match inv:
        case model.CountInvariant():
            return out | {"kind": "count", "enum": inv.enum, "where": where_json(inv.where), "number": inv.number}
        case model.ColumnSumInvariant():
            return out | {
                "kind": "column_sum", "chart": inv.chart, "part": inv.part, "enum": inv.enum, "field": inv.field
            }
        case model.SameInvariant():
            facts = [fact_json(inv.left), fact_json(inv.right)]
            return out | {"kind": "same", "type": inv.type, "facts": facts, "kept": inv.kept}
        case model.SymmetricInvariant():
            return out | {"kind": "symmetric", "chart": inv.chart, "enum": inv.enum}
        case model.DistancesInvariant():
            over = {"over": inv.relation, "step": json_value(inv.step)}
            return out | {"kind": "distances", "chart": inv.chart, **over, "enum": inv.enum}
        case _:
            assert_never(inv)


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""`json.dumps(value, ensure_ascii=False)` with one encoder for the whole run (`dumps` with an
option makes a new encoder on every call; its separators without `indent` are `", "` and `": "`)."""


def _pretty(value: Any, level: int) -> str:
    """`value` as `json.dumps(value, indent=2, ensure_ascii=False)` writes it, except that objects
    and arrays below `INDENTED_LEVELS` are written on one line, so the text stays linear in size."""
    parts: list[str] = []
    _pretty_into(value, level, parts)
    return "".join(parts)


def _pretty_into(value: Any, level: int, parts: list[str]) -> None:
    """Append the pieces of `_pretty(value, level)` to `parts`."""
    if level >= INDENTED_LEVELS or not value or not isinstance(value, dict | list):
        parts.append(_ENCODE(value))
        return
    inner = "\n" + "  " * (level + 1)
    if isinstance(value, dict):
        parts.append("{")
        separator = inner
        for key, item in value.items():
            parts.append(separator)
            parts.append(_ENCODE(key))
            parts.append(": ")
            _pretty_into(item, level + 1, parts)
            separator = "," + inner
        parts.append("\n" + "  " * level + "}")
    else:
        parts.append("[")
        separator = inner
        for item in value:
            parts.append(separator)
            _pretty_into(item, level + 1, parts)
            separator = "," + inner
        parts.append("\n" + "  " * level + "]")


def _enum(e: model.EnumType) -> dict[str, Any]:
    out: dict[str, Any] = {"id": e.id, "label": e.label}
    if e.rule is not None:
        out["rule"] = e.rule
    if e.codes:
        out["codes"] = True
    if e.order:
        out["order"] = list(e.order)
    if e.fields:
        out["fields"] = [_field(f) for f in e.fields]
    out["members"] = [_member(m, bool(e.fields)) for m in e.members]
    return out


def _field(f: model.Field) -> dict[str, Any]:
    """A record field; `range` only where an int field declares its values."""
    out: dict[str, Any] = {"id": f.id, "type": f.type, "label": f.label}
    if f.domain is not None:
        out["range"] = {"min": f.domain[0], "max": f.domain[1]}
    return out


def _member(m: model.Member, with_fields: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": m.id, "label": m.label}
    if m.aliases:
        out["aliases"] = list(m.aliases)
    if with_fields:
        out["fields"] = {k: json_value(v) for k, v in m.record.items()}
    if m.errata:
        out["errata"] = {"ids": list(m.errata), "printed": dict(m.printed), "because": list(m.because)}
    return out


def _turns(game: model.Game) -> dict[str, Any]:
    """The game's turn track, only for a game that has one (other games' JSON stays as it was)."""
    t = game.turns
    return {"turns": {"first": t.first, "last": t.last, "halves": list(t.halves)}} if t is not None else {}


def _key_json(k: model.KeyMatch) -> Any:
    if isinstance(k, model.MonthSpan):
        return {"months": {"first": k.first, "last": k.last}}
    if isinstance(k, model.TurnSpan):
        return {"turns": {"first": k.first, "last": k.last}}
    return k


def _odds_rule(r: OddsRule) -> dict[str, Any]:
    """How the rule forms odds and picks a column; the rounding only where the quotient is rounded."""
    rounds = r.form is OddsForm.RATIO and r.between is None
    return {
        "attacker_high": r.attacker_round if rounds else None,
        "defender_high": r.defender_round if rounds else None,
        "equal": "1:1" if r.form is OddsForm.RATIO else None,
        "columns": list(r.columns),
        "beyond": r.beyond,
        "shift": r.shift_order,
        "form": r.form,
        "between": r.between,
        "domain": {"min": r.domain[0], "max": r.domain[1]} if r.domain else None,
    }


def _shifts(rules: model.ShiftRules) -> dict[str, Any]:
    """A CRT's column shifts, structured; a shift read from a chart carries that chart's values."""
    items = [
        {
            "id": s.id,
            "label": s.label,
            "value": s.value,
            "when": _cond(s.when),
            "group": s.group,
            "source": _shift_source(s.source) if s.source else None,
        }
        for s in rules.shifts
    ]
    groups = {g: str(p) for g, p in rules.groups}
    return {"items": items, "groups": groups, "cap": list(rules.cap) if rules.cap else None}


def _shift_source(src: model.ShiftSource) -> dict[str, Any]:
    return {"chart": src.chart, "column": src.column, "by": src.var, "values": dict(src.values)}


def _layout(c: model.Chart) -> dict[str, Any]:
    if c.grid:
        return {"form": "grid", "key": c.grid.key, "columns": list(c.grid.heads)}
    if c.availability:
        a = c.availability
        return {
            "form": "availability",
            "row_key": a.item_key,
            "column_key": a.head_key,
            "columns": list(a.heads),
            "cells": {item: [_avail_cell(x) for x in cells] for item, cells in a.rows},
        }
    return {"form": "rows"}


def _avail_cell(cell: model.AvailabilityCell) -> Any:
    if cell is None:
        return None
    if isinstance(cell, model.AvailabilityMark):
        return cell.value
    return _range(cell)


def _range(r: model.DieRange | None) -> dict[str, Any] | None:
    if r is None:
        return None
    open_end = "high" if r.high is None else "low" if r.low is None else None
    return {"printed": r.printed, "min": r.low, "max": r.high, "open": open_end}


def _context(v: model.ContextVar) -> dict[str, Any]:
    """A context variable; `range` only for an int with a declared range (a month's is the calendar)."""
    out: dict[str, Any] = {"id": v.id, "type": v.type, "enum": v.enum, "label": v.label}
    if v.type is model.ContextType.INT and v.low is not None:
        out["range"] = {"min": v.low, "max": v.high}
    if v.within is not None:
        out["within"] = v.within
    return out


def drm_json(d: model.Drm) -> dict[str, Any]:
    """A DRM; `per` and `group` only for the forms that have them, so plain DRMs read as before."""
    out: dict[str, Any] = {"id": d.id, "label": d.label, "value": d.value, "when": _cond(d.when)}
    out["footnote"] = d.footnote
    if d.per is not None:
        out["per"] = {"var": d.per.var, "step": d.per.step, "rounding": d.per.rounding}
    if d.group is not None:
        out["group"] = d.group
    if d.errata:
        out["errata"] = list(d.errata)
        out["because"] = list(d.because)
        out["printed"] = None if d.printed is None else {"value": d.printed.value, "when": _cond(d.printed.when)}
    return out


def _drm_forms(c: model.Chart) -> dict[str, Any]:
    """The chart's exclusive DRM groups and its roll's steps (`pipeline`), where it declares them."""
    out: dict[str, Any] = {}
    if c.drm_groups:
        out["drm_groups"] = [
            {"id": g.id, "label": g.label, "mode": g.mode, "members": list(g.members)} for g in c.drm_groups
        ]
    if c.arithmetic:
        out["pipeline"] = [step_json(s) for s in c.pipeline]
    return out


def _dice(chart: model.Chart) -> dict[str, Any] | None:
    d = chart.dice
    if d is None:
        return None
    return {
        "form": d.form,
        "count": d.count,
        "sides": d.sides,
        "text": d.text,
        "min": d.min,
        "max": d.max,
        "outcomes": [{"roll": r, "probability": probability_json(p)} for r, p in d.outcomes.items()],
        **_dice_extras(chart),
    }


def _dice_extras(chart: model.Chart) -> dict[str, Any]:
    """The fields only the newer dice forms and statements need, left out at their defaults so the
    JSON of a plain roll keeps its shape."""
    d = chart.dice
    assert d is not None
    extras: dict[str, Any] = {}
    if d.keep:
        extras["keep"] = d.keep
    if d.versus_count:
        extras["versus"] = {"count": d.versus_count, "sides": d.versus_sides}
    if d.depth:
        extras["depth"] = d.depth
    if d.zero != 10:  # the default 1-10 reading needs no field
        extras["zero_reads"] = d.zero
    if chart.repeat > 1:
        extras["repeat"] = chart.repeat
    if chart.dice_alternatives:
        extras["alternatives"] = [
            _dice_alternative(alt, variant)
            for alt, variant in zip(chart.dice_alternatives, dice_variants(chart)[1:], strict=True)
        ]
    return extras


def _dice_alternative(alt: model.DiceAlternative, variant: model.Chart) -> dict[str, Any]:
    """`roll ... when COND`: the condition, the dice (as the chart's own dice object) and the chance
    of each row with those dice (`variant`: the chart rolled with them), shaped as the chart's `chances`."""
    dice = _dice(variant)
    assert dice is not None
    return {"when": _cond(alt.when), "dice": dice, "chances": _chances(variant)}


def _row(c: model.Chart, r: model.Row) -> dict[str, Any]:
    """A row; an amended one also carries the errata ids and what the print had."""
    out: dict[str, Any] = {
        "keys": {k.id: _key_json(v) for k, v in zip(c.keys, r.keys, strict=True)},
        "range": _range(r.range),
        "values": {col.id: json_value(v) for col, v in zip(c.columns, r.values, strict=True)},
    }
    if r.natural:
        out["natural"] = True
    if r.errata:
        out["errata"] = list(r.errata)
        if r.because:
            out["because"] = list(r.because)
        out["printed"] = (
            None
            if r.added
            else {
                "range": r.printed_range,
                "values": {col.id: json_value(v) for col, v in zip(c.columns, r.printed_values or (), strict=False)},
            }
        )
    return out


def chart_document(c: model.Chart, chances: bool = True) -> dict[str, Any]:
    """One chart as the game's JSON holds it; without `chances`, the chance arrays are left out
    (the interactive player aid computes them from the dice outcomes)."""
    out = _chart(c, chances)
    if not chances:
        for alt in (out["dice"] or {}).get("alternatives", ()):
            del alt["chances"]
    return out


def _chart(c: model.Chart, chances: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "address": c.address,
        "chart_id": c.chart_id,
        "slug": c.slug,
        "title": c.title,
        "rule": c.rule,
        "kind": c.kind,
        "source_file": c.source_file,
        "dice": _dice(c),
        "value_key": _value_key(c.value_key),
        "keys": [{"id": k.id, "enum": k.enum.id} for k in c.keys],
        "columns": [{"id": col.id, "type": col.type, "label": col.label} for col in c.columns],
        "drms": [drm_json(d) for d in c.drms],
        "combine": {"method": "sum", "clamp": list(c.clamp) if c.clamp else None},
        "drm_span": dict(zip(("min", "max"), drm_reach_span(c), strict=True)),
        "partial": c.partial,
        "footnotes": [{"mark": f.mark, "text": f.text} for f in c.footnotes],
        "notes": list(c.notes),
        "drm_meaning": c.drm_meaning,
        "odds_rule": _odds_rule(c.odds) if c.odds else None,
        "layout": _layout(c),
        "rows": [_row(c, r) for r in c.rows],
    }
    out |= _drm_forms(c)
    if c.shifts is not None:
        out["shifts"] = _shifts(c.shifts)
    if c.errata is not None:
        out["errata"] = {
            "applied": list(c.errata.applied),
            "printed_title": c.errata.printed_title,
            "printed_partial": c.errata.printed_partial,
            "notes": [{"errata": e, "text": t} for e, t in c.errata.notes],
            "reasons": [{"errata": e, "text": t} for e, t in c.errata.reasons],
            "removed_rows": [_row(c, r) for r in c.errata.removed_rows],
            **({"removed_drms": [
                {"id": d.id, "label": d.label, "value": d.value, "when": _cond(d.when), "errata": list(d.errata),
                 "because": list(d.because)} for d in c.errata.removed_drms
            ]} if c.errata.removed_drms else {}),
            **({"printed_notes": [{"errata": e, "which": w, "text": t} for e, w, t in c.errata.printed_notes]}
               if c.errata.printed_notes else {}),
        }
    if chances and c.kind is model.ChartKind.ROLL and c.dice is not None:
        out["chances"] = _chances(c)
    if c.overlays:
        out["overlays"] = [_overlay(c, o, variant, chances) for o, variant in each_overlay(c)]
    return out


def _overlay(c: model.Chart, o: model.Overlay, variant: model.Chart, chances: bool) -> dict[str, Any]:
    """An overlay: its condition, its rows and the chances of the chart read while it alone holds
    (`variant`, the overlay's rows first: its row indices count them before the chart's)."""
    out: dict[str, Any] = {"id": o.id, "label": o.label, "when": _cond(o.when), "rows": [_row(c, r) for r in o.rows]}
    if chances and c.kind is model.ChartKind.ROLL and c.dice is not None:
        out["chances"] = _chances(variant)
    return out


def _value_key(key: model.ValueKey | None) -> dict[str, Any] | None:
    if key is None:
        return None
    out = {"id": key.id, "label": key.label, "domain": _range(key.domain)}
    return out | ({"within": key.within} if key.within is not None else {})


def _chances(c: model.Chart) -> dict[str, Any]:
    """The chart's `chances`: each distinct distribution once (`engine.chances.distinct_chances`)."""
    found, ids = distinct_chances(c), [k.id for k in c.keys]
    return {
        "drms": list(found.drms),
        "distributions": [
            {"rows": [probability_json(p) for p in rows], "no_row": probability_json(miss)}
            for rows, miss in found.distributions
        ],
        "keys": [
            {"keys": dict(zip(ids, combo, strict=True)), "rows": list(rows), "distributions": list(refs)}
            for combo, rows, refs in found.keys
        ],
    }
