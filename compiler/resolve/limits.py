"""Limits and allowances (`limit NAME "title" { ... }`): bind each case's condition to the game's
context variables and read its bound; a limit is addressed like a chart, so its name must not be
a chart's or a formula's (C202). Whether the data keeps within a limit is a check (C491,
`compiler.checks.rule_limits`)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.resolve.conditions import ConditionResolver
from compiler.resolve.symbols import SymbolTable
from dsl import ast


def limits(symbols: SymbolTable, decls: list[tuple[str, ast.LimitDecl]], sink: Sink) -> list[model.Limit]:
    """Every limit that binds, in source order; each name declared once among the game's limits,
    charts and formulas."""
    seen: dict[str, ast.Span] = {}
    found: list[model.Limit] = []
    for path, decl in decls:
        name = decl.name.text
        chart = symbols.chart(name)
        first = seen.get(name) or (chart.span if chart is not None else None)
        if first is not None:
            declared_twice(sink, f"`{name}`", decl.name.span, first, "give the limit a name of its own",
                           where=f"in game `{symbols.id}`")
            continue
        seen[name] = decl.name.span
        limit = _limit(symbols, path, decl, sink)
        if limit is not None:
            found.append(limit)
    return found


def _limit(symbols: SymbolTable, path: str, decl: ast.LimitDecl, sink: Sink) -> model.Limit | None:
    name = decl.name.text
    for span in decl.repeated:
        sink.emit(codes.REPEATED_STATEMENT, f"limit `{name}` states this more than once", span, "delete the line")
    if not decl.cases:
        sink.emit(
            codes.LIMIT_SHAPE,
            f"limit `{name}` states no bound",
            decl.name.span,
            "write what the rule allows: `at most 4`, `at least 1`, `exactly 8`, `2 to 6` or `unlimited`",
        )
        return None
    if decl.rule is None and any(c.cite is None for c in decl.cases):
        sink.emit(
            codes.LIMIT_SHAPE,
            f"limit `{name}` cites no rule",
            decl.name.span,
            'cite the section that states it: `rule "7.1"` (or `cite "11.7"` on every case)',
        )
        return None
    resolver = ConditionResolver(symbols, sink, f"limit `{name}`")
    cases: list[model.LimitCase] = []
    always: ast.LimitCaseDecl | None = None
    ok = True
    for case in decl.cases:
        if always is not None:
            sink.emit(
                codes.LIMIT_SHAPE,
                f"this case of limit `{name}` never applies: the case before it has no `when`",
                case.span,
                "put the cases with a condition first and the one that always applies last",
                (Label(always.span, "this case always applies"),),
            )
            ok = False
            continue
        bound = case.bound
        if bound.low is not None and bound.high is not None and bound.high < bound.low:
            sink.emit(
                codes.LIMIT_SHAPE,
                f"`{bound.low} to {bound.high}` in limit `{name}` runs backwards",
                bound.span,
                f"write it lowest first: `{bound.high} to {bound.low}`",
            )
            ok = False
            continue
        when = resolver.condition(case.when) if case.when is not None else None
        if case.when is not None and when is None:
            ok = False
            continue
        if case.when is None:
            always = case
        cite = case.cite.text if case.cite else None
        cases.append(model.LimitCase(model.Bound(bound.kind, bound.low, bound.high), when, cite, case.span))
    if not ok:
        return None
    return model.Limit(
        name,
        decl.title.text,
        decl.rule.text if decl.rule else None,
        tuple(n.text for n in decl.notes),
        decl.counts.text if decl.counts else None,
        tuple(cases),
        path,
        decl.span,
    )


def bind_within(symbols: SymbolTable, sink: Sink) -> None:
    """Every `within LIMIT` of a context variable, a value-keyed chart or a count column names a limit (C201)."""
    known = [lim.id for lim in symbols.limits]
    names = {lim.id for lim in symbols.limits}
    places: list[tuple[str, ast.Span | None, str]] = [
        (v.within, v.within_span, f"context variable `{v.id}`") for v in symbols.context.values() if v.within
    ]
    places += [
        (c.value_key.within, c.value_key.within_span, f"chart `{c.address}`")
        for c in symbols.charts
        if c.value_key is not None and c.value_key.within
    ]
    places += [
        (col.within, col.within_span, f"column `{col.id}` of chart `{c.address}`")
        for c in symbols.charts
        for col in c.columns
        if col.within
    ]
    for within, span, what in places:
        if within not in names and span is not None:
            unknown_name(sink, f"{what} is checked within limit `{within}`, which the game does not declare",
                         within, span, known)
