"""The game JSON's rules without a table: formulas, limits and allowances, the book's inconsistencies
(conflicts and ambiguous print), and the facts and conditions they are written with. Pure: model
in, JSON values out; `compiler.emit.json` puts them into the game document."""

from __future__ import annotations

from typing import Any, assert_never

from compiler import model
from compiler.engine.formulas import inputs as formula_inputs
from compiler.model import formulas as fx
from compiler.model.text import json_value


def condition_json(c: model.Condition | None) -> dict[str, Any] | None:
    """A DRM (or limit, or column shift) condition as a structured object."""
    if c is None:
        return None
    if isinstance(c, model.Flag):
        return {"op": "flag", "var": c.var}
    if isinstance(c, model.Compare):
        return {"op": c.op, "var": c.var, "value": c.value} | _on_key(c.on_key)
    if isinstance(c, model.In):
        return {"op": "in", "var": c.var, "values": list(c.values)} | _on_key(c.on_key)
    if isinstance(c, model.Not):
        return {"op": "not", "of": condition_json(c.inner)}
    kind = "all" if isinstance(c, model.All) else "any"
    return {"op": kind, "of": [condition_json(p) for p in c.parts]}


def _on_key(on_key: bool) -> dict[str, Any]:
    return {"key": True} if on_key else {}


def bound_json(bound: model.Bound) -> dict[str, Any]:
    """What a limit allows: its kind, the counts (`null`: open at that end) and how it reads."""
    return {"kind": bound.kind.value, "min": bound.low, "max": bound.high, "text": bound.text}


def limit_json(limit: model.Limit) -> dict[str, Any]:
    """A limit: what it counts and its cases in order (the first whose `when` holds applies)."""
    return {
        "id": limit.id,
        "title": limit.title,
        "rule": limit.rule,
        "notes": list(limit.notes),
        "counts": limit.counts,
        "cases": [
            {"bound": bound_json(c.bound), "when": condition_json(c.when), "cite": c.cite} for c in limit.cases
        ],
        "source_file": limit.source_file,
        "line": limit.span.line,
    }


def where_json(tests: tuple[model.FieldTest, ...]) -> list[dict[str, Any]]:
    """`count ... where`: the field tests a record passes to be counted (none: every record)."""
    return [{"field": t.field, "op": t.op.value, "value": json_value(t.value)} for t in tests]


def _context_json(context: model.FactContext) -> dict[str, Any]:
    return {k: v if isinstance(v, bool | int) else str(v) for k, v in context}


def fact_json(fact: model.Fact) -> dict[str, Any]:
    """One fact: where it is read (`written` is the declaration's own words)."""
    match fact:
        case model.CellFact():
            return {
                "kind": "cell", "chart": fact.chart, "keys": dict(fact.keys), "roll": fact.roll,
                "column": fact.column, "written": fact.written,
            }
        case model.FieldFact():
            return {
                "kind": "field", "enum": fact.enum, "member": fact.member, "field": fact.field,
                "written": fact.written,
            }
        case model.CountFact():
            return {"kind": "count", "enum": fact.enum, "where": where_json(fact.where), "written": fact.written}
        case model.LimitFact():
            return {
                "kind": "limit", "limit": fact.limit, "context": _context_json(fact.context), "written": fact.written,
            }
        case model.FormulaFact():
            return {
                "kind": "formula", "formula": fact.formula, "context": _context_json(fact.context),
                "written": fact.written,
            }
        case model.DrmFact():
            return {"kind": "drm", "chart": fact.chart, "drm": fact.drm, "written": fact.written}
        case _:
            assert_never(fact)


def _place_value(value: model.Fact | model.Stated | None) -> dict[str, Any] | None:
    match value:
        case None:
            return None
        case model.Stated():
            return {"stated": json_value(value.value), "written": value.written}
        case _:
            return {"fact": fact_json(value)}


def conflict_json(conflict: model.Conflict) -> dict[str, Any]:
    """A place where the book says two things: every place (rule, what it says, its value) and
    what the transcription keeps."""
    return {
        "id": conflict.id,
        "title": conflict.title,
        "rule": conflict.rule,
        "notes": list(conflict.notes),
        "type": conflict.type,
        "places": [
            {"rule": p.rule, "says": p.says, "value": _place_value(p.value)} for p in conflict.places
        ],
        "kept": conflict.kept,
        "source_file": conflict.source_file,
        "line": conflict.span.line,
    }


def ambiguity_json(ambiguity: model.Ambiguity) -> dict[str, Any]:
    """Print that reads more than one way: each reading as the cells it gives."""
    return {
        "id": ambiguity.id,
        "title": ambiguity.title,
        "rule": ambiguity.rule,
        "notes": list(ambiguity.notes),
        "printed": ambiguity.printed,
        "readings": [
            {
                "label": r.label,
                "cells": [{"fact": fact_json(c.fact), "value": json_value(c.value)} for c in r.cells],
            }
            for r in ambiguity.readings
        ],
        "kept": ambiguity.kept,
        "source_file": ambiguity.source_file,
        "line": ambiguity.span.line,
    }


def header_errata_json(game: model.Game) -> dict[str, Any]:
    """The errata's corrections of the calendar and periods, each side as a player reads it
    (`printed` null: added; `corrected` null: removed); nothing when the header is as printed."""
    if not game.header_errata:
        return {}
    return {"errata": [
        {"part": str(m.part), "id": m.id, "printed": m.printed, "corrected": m.corrected, "errata": list(m.errata),
         "because": list(m.because)} for m in game.header_errata
    ]}


def kept_json(kept: model.KeptFinding) -> dict[str, Any]:
    """`kept CODE at SUBJECT because "why"`: a warning the book's own print causes, kept as printed;
    `at_kind` says what `at` names (months of the calendar, or a record `enum.member`)."""
    return {
        "code": kept.code,
        "at": kept.subject,
        "at_kind": model.KEPT_SUBJECTS[kept.code].value,
        "because": kept.reason,
        "source_file": kept.source_file,
        "line": kept.span.line,
    }


def formula_json(game: model.Game, f: model.Formula) -> dict[str, Any]:
    """A computed value: its citation, the context variables it reads, the formula as written and as a tree."""
    return {
        "id": f.id,
        "title": f.title,
        "rule": f.rule,
        "notes": list(f.notes),
        "inputs": list(formula_inputs(game, f)),
        "text": fx.expr_text(f.expr),
        "expression": _expr(f.expr),
        "domain": _domain(f.domain),
        "requires": _requires(f.requires),
        "kept": f.kept,
        "source_file": f.source_file,
        "line": f.span.line,
        **_formula_errata(f),
    }


def _formula_errata(f: model.Formula) -> dict[str, Any]:
    """The errata's corrections of a formula, with each corrected statement as printed: `printed`
    (the result), `printed_requires`, `printed_domain` (null: the print states none); nothing
    when as printed."""
    if not f.errata:
        return {}
    out: dict[str, Any] = {"errata": list(f.errata), "because": list(f.because)}
    out["corrected"] = [str(part) for part in f.corrected]
    if f.printed is not None:
        out["printed"] = {"text": fx.expr_text(f.printed), "expression": _expr(f.printed)}
    if fx.FormulaPart.REQUIRES in f.corrected:
        out["printed_requires"] = _requires(f.printed_requires)
    if fx.FormulaPart.DOMAIN in f.corrected:
        out["printed_domain"] = _domain(f.printed_domain)
    return out


def _domain(d: fx.Domain | None) -> dict[str, Any] | None:
    """The values a formula's result may take (`null`: open at that end), and the limit they came from."""
    return None if d is None else {"min": d.low, "max": d.high, "within": d.within}


def _requires(r: fx.Requires | None) -> dict[str, Any] | None:
    """The inputs a formula applies to: `left OP right`, as written and as trees."""
    if r is None:
        return None
    return {"text": r.text, "left": _expr(r.left), "op": r.op.value, "right": _expr(r.right)}


def _expr(e: fx.Expr) -> dict[str, Any]:
    match e:
        case fx.Number(value):
            return {"number": value}
        case fx.Var(var_id):
            return {"var": var_id}
        case fx.FormulaRef(ref):
            return {"formula": ref}
        case fx.Binary(op, left, right):
            return {"op": op.value, "left": _expr(left), "right": _expr(right)}
        case fx.Neg(inner):
            return {"neg": _expr(inner)}
        case fx.Call(function, args):
            return {"call": function.value, "args": [_expr(a) for a in args]}
        case fx.IfElse(cond, then, otherwise):
            return {"if": condition_json(cond), "then": _expr(then), "else": _expr(otherwise)}
        case _:
            assert_never(e)
