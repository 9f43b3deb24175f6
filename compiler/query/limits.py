"""What `chartc lookup GAME/LIMIT` prints: the bound that applies in the context given, with the
rule it cites, or, while the context leaves it open, every case that still may, as text and JSON."""

from __future__ import annotations

from typing import Any

from compiler import model
from compiler.engine.limits import LimitAnswer
from compiler.model.formulas import condition_text
from compiler.query.common import json_document, safe_lines
from compiler.query.inconsistencies import inconsistencies_json, inconsistency_lines


def limit_lines(game: model.Game, answer: LimitAnswer) -> list[str]:
    """`ia2/sorties_per_month Sorties a month (rule 4.3.3)`, what it counts, the context, the bound."""
    limit = answer.limit
    lines = [f"{game.id}/{limit.id} {limit.title}" + (f" (rule {limit.rule})" if limit.rule else "")]
    if limit.counts:
        lines.append(f"  counts: {limit.counts}")
    if answer.context:
        lines.append("  " + ", ".join(f"{k}: {_word(v)}" for k, v in sorted(answer.context.items())))
    if answer.case is not None:
        lines.append(f"  {answer.case.bound.text}{_why(limit, answer.case)}")
    elif not answer.possible:
        lines.append("  no case of the limit applies in this context")
    else:
        lines.append("  depends on " + ", ".join(f"{v} (--set {v}=VALUE)" for v in answer.undecided) + ":")
        for case in answer.possible:
            when = f"if {condition_text(case.when)}" if case.when is not None else "otherwise"
            cite = f" ({case.cite})" if case.cite else ""
            lines.append(f"    {case.bound.text} {when}{cite}")
    return safe_lines(lines + inconsistency_lines(game, limit))


def _why(limit: model.Limit, case: model.LimitCase) -> str:
    parts = [f"rule {case.cite}" if case.cite else None, f"when {condition_text(case.when)}" if case.when else None]
    given = [p for p in parts if p]
    return f" ({'; '.join(given)})" if given else ""


def _word(value: object) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def bound_json(bound: model.Bound) -> dict[str, Any]:
    """A bound as JSON: its kind, the counts it allows (`null`: open) and how it reads."""
    return {"kind": bound.kind.value, "min": bound.low, "max": bound.high, "text": bound.text}


def limit_json(game: model.Game, answer: LimitAnswer) -> str:
    limit = answer.limit
    doc: dict[str, Any] = {
        "game": game.id,
        "limit": limit.id,
        "title": limit.title,
        "rule": limit.rule,
        "counts": limit.counts,
        "context": {k: v if isinstance(v, bool | int) else str(v) for k, v in sorted(answer.context.items())},
        "bound": bound_json(answer.case.bound) if answer.case is not None else None,
        "cite": answer.case.cite if answer.case is not None else None,
        "possible": [
            {"bound": bound_json(c.bound), "when": condition_text(c.when) if c.when else None, "cite": c.cite}
            for c in answer.possible
        ],
        "undecided": list(answer.undecided),
    }
    found = inconsistencies_json(game, limit)
    return json_document({**doc, "inconsistencies": found} if found else doc)
