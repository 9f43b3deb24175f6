"""Errata on a formula: its result as corrected (`amend experience_points { change result to
floor(sorties_flown / 4) because "..." }`), a constant included, the inputs its rule applies to
(`change requires xp >= 6`, `remove requires`) and the values its result takes (`change domain 0
to 18`, `change domain within mission_turns`, `remove domain`), applied to the formula declarations
before they are resolved, so `compute`, the checks and every output read the correction;
`FormulaMarks` keeps what was printed and the reasons for the outputs.

Diagnostics: C601 (an operation a formula does not take, or `remove` of a statement the formula
does not print), C602 (two errata change one statement of a formula and neither says which wins),
C603 (a statement as it is already printed).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import assert_never

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.errata.provenance import amend_declarations, claim_once, same_tree
from dsl import ast


@dataclass
class FormulaMarks:
    """What the errata did to one formula: errata ids, the statements they corrected (`result`,
    `requires`, `domain`, in the order first corrected), each as printed (None: not printed), why."""

    errata: list[str] = field(default_factory=list)
    corrected: list[model.FormulaPart] = field(default_factory=list)
    printed: ast.Expr | None = None
    printed_requires: ast.RequiresDecl | None = None
    printed_domain: ast.DomainDecl | None = None
    because: list[str] = field(default_factory=list)


def amend_formulas(
    formulas: list[ast.FormulaDecl], errata: list[ast.ErrataDecl], charts: Collection[str], sink: Sink
) -> tuple[dict[str, ast.FormulaDecl], dict[str, FormulaMarks]]:
    """The formula declarations the errata amend (by name) and the marks of each. An `amend` that
    names a chart (in `charts`) is left to the chart errata; errata apply in order (`order`, then
    name), as on charts."""
    marks: dict[str, FormulaMarks] = {}
    owner: dict[tuple[str, str], tuple[str, ast.Span]] = {}

    def change(errata_id: str, overrides: set[str], decl: ast.FormulaDecl, op: ast.AmendOp) -> ast.FormulaDecl:
        match op:
            case ast.ChangeResult() | ast.ChangeRequires() | ast.ChangeDomain():
                return _change(errata_id, overrides, decl, op, marks, owner, sink)
            case _:
                message = f"errata `{errata_id}` amends formula `{decl.name.text}`, which takes only " \
                          "`change result to EXPRESSION`, `change requires ...`, `change domain ...`, " \
                          "`remove requires` and `remove domain`"
                sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span)
                return decl

    amended = amend_declarations(errata, {f.name.text: f for f in formulas}, change, charts)
    return amended, marks


def _change(
    errata_id: str,
    overrides: set[str],
    decl: ast.FormulaDecl,
    op: ast.ChangeResult | ast.ChangeRequires | ast.ChangeDomain,
    marks: dict[str, FormulaMarks],
    owner: dict[tuple[str, str], tuple[str, ast.Span]],
    sink: Sink,
) -> ast.FormulaDecl:
    name = decl.name.text
    old: object
    new: object
    match op:
        case ast.ChangeResult(expr=new):
            what, old, amended = model.FormulaPart.RESULT, decl.result, replace(decl, result=new)
        case ast.ChangeRequires(requires=new):
            what, old, amended = model.FormulaPart.REQUIRES, decl.requires, replace(decl, requires=new)
        case ast.ChangeDomain(domain=new):
            what, old, amended = model.FormulaPart.DOMAIN, decl.domain, replace(decl, domain=new)
        case _:
            assert_never(op)
    if new is None and old is None:
        message = f"errata `{errata_id}` removes the `{what}` of formula `{name}`, which it does not print"
        sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span, f"add one with `change {what} ...`")
        return decl
    if old is not None and new is not None and same_tree(old, new):
        sink.emit(codes.ERRATA_NO_EFFECT, f"errata `{errata_id}` changes formula `{name}` to the {what} it has",
                  op.span)
        return decl
    claim_once(owner, (name, what), errata_id, overrides, op.span, f"the {what} of formula `{name}`", sink)
    mark = marks.setdefault(name, FormulaMarks())
    if what not in mark.corrected:
        mark.corrected.append(what)
        mark.printed = decl.result if what is model.FormulaPart.RESULT else mark.printed
        mark.printed_requires = decl.requires if what is model.FormulaPart.REQUIRES else mark.printed_requires
        mark.printed_domain = decl.domain if what is model.FormulaPart.DOMAIN else mark.printed_domain
    if errata_id not in mark.errata:
        mark.errata.append(errata_id)
    if op.because is not None and op.because.text not in mark.because:
        mark.because.append(op.because.text)
    return amended
