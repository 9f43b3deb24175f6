"""Computed values: bind each name of a formula to an int context variable or another formula,
each function to the formula language's, and each condition's variables (C201, C402, C472)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import assert_never

from compiler import model
from compiler.diagnostics import Applicability, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.errata.formulas import FormulaMarks
from compiler.model import formulas as fx
from compiler.resolve.conditions import ConditionResolver
from compiler.resolve.symbols import SymbolTable, unknown
from dsl import ast

_FUNCTIONS = {f.value: f for f in fx.Function}


def formulas(
    symbols: SymbolTable,
    decls: list[tuple[str, ast.FormulaDecl]],
    sink: Sink,
    marks: Mapping[str, FormulaMarks] | None = None,
) -> list[model.Formula]:
    """Every formula (with its source file) that binds, in source order; C202 for a name used twice
    (or also used by a context variable, which a formula's names could not tell apart). `marks`
    are the errata's corrections of the results (the declarations given are already amended)."""
    names = {d.name.text for _, d in decls}
    seen: dict[str, ast.Span] = {}
    out = []
    for path, decl in decls:
        name = decl.name.text
        limit = next((lim for lim in symbols.limits if lim.id == name), None)
        chart = symbols.chart(name)  # `compute GAME/NAME`, `list` and `amend NAME` read one namespace
        first = (
            seen.get(name)
            or (symbols.context[name].span if name in symbols.context else None)
            or (limit.span if limit is not None else None)
            or (chart.span if chart is not None else None)
        )
        if first is not None:
            declared_twice(sink, f"`{name}`", decl.name.span, first, "give the formula a name of its own")
            continue
        seen[name] = decl.name.span
        formula = _Binder(symbols, names, name, sink).formula(path, decl)
        mark = (marks or {}).get(name)
        if formula is not None and mark is not None:
            # what was printed was checked as printed (`--as-printed`); here it is only shown
            shown = _Binder(symbols, names, name, Sink())
            formula = replace(
                formula, errata=tuple(mark.errata), because=tuple(mark.because), corrected=tuple(mark.corrected),
                printed=shown.expr(mark.printed) if mark.printed is not None else None,
                printed_requires=shown.requires(mark.printed_requires) if mark.printed_requires else None,
                printed_domain=shown.domain(mark.printed_domain) if mark.printed_domain else None,
            )
        if formula is not None:
            out.append(formula)
    return out


class _Binder:
    def __init__(self, symbols: SymbolTable, formula_names: set[str], name: str, sink: Sink) -> None:
        self.symbols = symbols
        self.formula_names = formula_names
        self.name = name
        self.sink = sink
        self.ok = True

    def formula(self, path: str, decl: ast.FormulaDecl) -> model.Formula | None:
        for span in decl.repeated:
            self.sink.emit(
                codes.REPEATED_STATEMENT, f"formula `{self.name}` states this more than once", span, "delete the line",
                fix=fixes.delete(span, "the repeated statement", Applicability.UNSAFE),
            )
        if decl.result is None or decl.rule is None:
            missing = " and ".join(m for m, given in (("`rule`", decl.rule), ("`result`", decl.result)) if not given)
            self.sink.emit(
                codes.FORMULA_ARGUMENTS,
                f"formula `{self.name}` gives no {missing}",
                decl.name.span,
                'a formula cites its rule and states what it computes: `rule "22.2"` and `result n + floor(n / 3)`',
            )
            return None
        expr = self.expr(decl.result)
        requires = self.requires(decl.requires) if decl.requires is not None else None
        domain = self.domain(decl.domain) if decl.domain is not None else None
        if not self.ok or expr is None:
            return None
        return model.Formula(
            self.name,
            decl.title.text,
            decl.rule.text,
            tuple(n.text for n in decl.notes),
            expr,
            path,
            decl.span,
            domain,
            requires,
            decl.kept.text if decl.kept else None,
        )

    def requires(self, decl: ast.RequiresDecl) -> model.Requires | None:
        left, right = self.expr(decl.left), self.expr(decl.right)
        return model.Requires(left, decl.op, right, decl.span) if left is not None and right is not None else None

    def domain(self, decl: ast.DomainDecl) -> model.Domain | None:
        """`domain 1 to 18` (C472 when it runs backwards), `domain 0+`, or `domain within LIMIT`:
        the values the limit allows over all its cases (C201 for an unknown limit)."""
        if decl.within is not None:
            limit = next((lim for lim in self.symbols.limits if lim.id == decl.within.text), None)
            if limit is None:
                unknown(
                    self.sink,
                    f"formula `{self.name}` takes its domain from limit `{decl.within.text}`, which the game "
                    "does not declare",
                    decl.within,
                    [lim.id for lim in self.symbols.limits],
                )
                return None
            low, high = limit.hull
            return model.Domain(low, high, decl.span, limit.id)
        if decl.low is not None and decl.high is not None and decl.high < decl.low:
            self.sink.emit(
                codes.FORMULA_ARGUMENTS,
                f"the domain of formula `{self.name}` runs backwards ({decl.low} to {decl.high})",
                decl.span,
                f"write it lowest first: `domain {decl.high} to {decl.low}`",
            )
            return None
        return model.Domain(decl.low, decl.high, decl.span)

    def expr(self, written: ast.Expr) -> fx.Expr | None:
        match written:
            case ast.ExprNumber(value, span):
                return fx.Number(value, span)
            case ast.ExprName(name, span):
                return self._name(name, span)
            case ast.ExprBinary(op, left, right, span):
                a, b = self.expr(left), self.expr(right)
                return fx.Binary(op, a, b, span) if a is not None and b is not None else None
            case ast.ExprNeg(inner, span):
                a = self.expr(inner)
                return fx.Neg(a, span) if a is not None else None
            case ast.ExprCall(function, args, span):
                return self._call(function, args, span)
            case ast.ExprIf(cond, then, otherwise, span):
                where = f"formula `{self.name}`"
                bound = ConditionResolver(self.symbols, self.sink, where).condition(cond)
                a, b = self.expr(then), self.expr(otherwise)
                if bound is None:
                    self.ok = False
                    return None
                return fx.IfElse(bound, a, b, span) if a is not None and b is not None else None
            case _:
                assert_never(written)

    def _name(self, name: ast.Name, span: ast.Span) -> fx.Expr | None:
        var = self.symbols.context.get(name.text)
        if var is not None:
            if var.type is not model.ContextType.INT:
                self.ok = False
                self.sink.emit(
                    codes.TYPE_MISMATCH,
                    f"formula `{self.name}` computes with `{name.text}`, which holds {var.type.value} values, not ints",
                    span,
                    "test a flag, month or enum variable in `if ... then ... else ...`",
                )
                return None
            return fx.Var(name.text, span)
        if name.text in self.formula_names:
            return fx.FormulaRef(name.text, span)
        self.ok = False
        known = sorted(
            {*(v for v, x in self.symbols.context.items() if x.type is model.ContextType.INT), *self.formula_names}
        )
        unknown_name(
            self.sink,
            f"formula `{self.name}` uses `{name.text}`, which is neither an int context variable nor a formula",
            name.text,
            name.span,
            known,
            f'declare it: `context {name.text}: int "what it counts" 0-99`',
            slot=Slot.NAME,
        )
        return None

    def _call(self, function: ast.Name, args: tuple[ast.Expr, ...], span: ast.Span) -> fx.Expr | None:
        bound = _FUNCTIONS.get(function.text)
        if bound is None:
            self.ok = False
            unknown(
                self.sink,
                f"formula `{self.name}` calls `{function.text}`, which is not a function of formulas",
                function,
                list(_FUNCTIONS),
                "the functions are floor, ceil, round (half up), min and max",
                slot=Slot.NAME,
            )
            return None
        one = bound in fx.ROUNDING
        if (one and len(args) != 1) or (not one and len(args) < 2):
            self.ok = False
            wants = "one value" if one else "two values or more"
            self.sink.emit(
                codes.FORMULA_ARGUMENTS,
                f"`{bound.value}` takes {wants}, found {len(args)}",
                span,
                f"write `{bound.value}(x)`" if one else f"write `{bound.value}(a, b)`",
            )
            return None
        parts = [self.expr(a) for a in args]
        if any(p is None for p in parts):
            return None
        return fx.Call(bound, tuple(p for p in parts if p is not None), span)
