"""Errata on a formula: its result as corrected (`amend experience_points { change result to
floor(sorties_flown / 4) because "..." }`), a constant included, applied to the formula
declarations before they are resolved, so `compute`, the checks and every output read the
correction; `FormulaMarks` keeps the printed result and the reasons for the outputs.

Diagnostics: C601 (an operation other than `change result` on a formula), C602 (two errata change
one formula and neither says which wins), C603 (the result as it is already printed).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, fields, is_dataclass, replace

from compiler.diagnostics import Sink, codes
from compiler.errata.provenance import amendments, claim_once
from dsl import ast


@dataclass
class FormulaMarks:
    """What the errata did to one formula: errata ids, the result as printed, why."""

    errata: list[str] = field(default_factory=list)
    printed: ast.Expr | None = None
    because: list[str] = field(default_factory=list)


def amend_formulas(
    formulas: list[ast.FormulaDecl], errata: list[ast.ErrataDecl], charts: Collection[str], sink: Sink
) -> tuple[dict[str, ast.FormulaDecl], dict[str, FormulaMarks]]:
    """The formula declarations the errata amend (by name) and the marks of each. An `amend` that
    names a chart (in `charts`) is left to the chart errata; errata apply in order (`order`, then
    name), as on charts."""
    by_name = {f.name.text: f for f in formulas}
    amended: dict[str, ast.FormulaDecl] = {}
    marks: dict[str, FormulaMarks] = {}
    owner: dict[str, tuple[str, ast.Span]] = {}
    for e, overrides, a in amendments(errata):
        decl = amended.get(a.chart.text, by_name.get(a.chart.text))
        if decl is None or a.chart.text.casefold() in charts:
            continue  # a chart or an enum's records: amended elsewhere, or reported there
        for op in a.ops:
            if not isinstance(op, ast.ChangeResult):
                message = f"errata `{e.name.text}` amends formula `{decl.name.text}`, which takes only " \
                          "`change result to EXPRESSION`"
                sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span)
                continue
            decl = _change(e.name.text, overrides, decl, op, marks, owner, sink)
        amended[decl.name.text] = decl
    return amended, marks


def _change(
    errata_id: str,
    overrides: set[str],
    decl: ast.FormulaDecl,
    op: ast.ChangeResult,
    marks: dict[str, FormulaMarks],
    owner: dict[str, tuple[str, ast.Span]],
    sink: Sink,
) -> ast.FormulaDecl:
    name = decl.name.text
    if decl.result is not None and _shape(decl.result) == _shape(op.expr):
        sink.emit(codes.ERRATA_NO_EFFECT, f"errata `{errata_id}` changes formula `{name}` to the result it has",
                  op.span)
        return decl
    claim_once(owner, name, errata_id, overrides, op.span, f"the result of formula `{name}`", sink)
    mark = marks.setdefault(name, FormulaMarks(printed=decl.result))
    if errata_id not in mark.errata:
        mark.errata.append(errata_id)
    if op.because is not None and op.because.text not in mark.because:
        mark.because.append(op.because.text)
    return replace(decl, result=op.expr)


def _shape(node: object) -> object:
    """A syntax tree without its spans: two results written alike compare equal."""
    if is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, tuple(_shape(getattr(node, f.name)) for f in fields(node) if f.name != "span"))
    if isinstance(node, tuple):
        return tuple(_shape(n) for n in node)
    return node
