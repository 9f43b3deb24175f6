"""Phase 1: `odds` blocks (CRT odds rules) and the enum of odds columns a CRT is keyed by."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import assert_never

from compiler import model
from compiler.diagnostics import Applicability, Sink, codes, fixes
from compiler.engine.odds import member_id, parse_band, parse_fraction, parse_label
from compiler.model import odds as rules
from compiler.resolve.symbols import SymbolTable
from dsl import ast


def odds_rule(symbols: SymbolTable, decl: ast.OddsDecl, path: str, sink: Sink) -> model.Chart | None:
    """An `odds` block: the rule as a chart of kind `odds`; its odds columns are declared as an
    enum, so a CRT can be keyed by them."""

    where = f"odds rule `{decl.name.text}`"
    for span in decl.repeated:
        sink.emit(
            codes.REPEATED_STATEMENT,
            f"this statement may appear only once in {where}",
            span,
            "delete the repeated line",
            fix=fixes.delete(span, "the repeated statement", Applicability.UNSAFE),
        )
    form = decl.form or rules.OddsForm.RATIO
    ok = _statements_fit_form(decl, form, where, sink)
    columns = _columns(decl, form, sink)
    if columns is None:
        ok = False
        columns = []
    if columns and decl.beyond is None:
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} does not say what happens to odds beyond the table's edge",
            decl.name.span,
            "add `beyond clamp` (use the edge column) or `beyond error`",
        )
        ok = False
    if columns and decl.between is None and _needs_between(form, columns):
        what = "non-unit ratio columns" if form is rules.OddsForm.RATIO else "columns with gaps between them"
        sink.emit(
            codes.ODDS_BETWEEN,
            f"{where} has {what} but does not say which column odds between two columns read",
            decl.name.span,
            "add `between columns lower` (the defender's favour) or `between columns higher`",
            fix=fixes.insert_in_block(decl.span, "between columns lower", Applicability.UNSAFE),
        )
        ok = False
    if not ok:
        return None
    rule = rules.OddsRule(
        id=decl.name.text,
        chart_id=decl.chart_id.text if decl.chart_id else None,
        title=decl.title.text,
        rule=decl.rule.text if decl.rule else None,
        notes=tuple(n.text for n in decl.notes),
        attacker_round=decl.attacker_round or rules.Rounding.DOWN,
        defender_round=decl.defender_round or rules.Rounding.UP,
        columns=tuple(columns),
        beyond=decl.beyond,
        shift_order=decl.shift_order,
        span=decl.span,
        form=form,
        between=decl.between,
        domain=(decl.domain.low, decl.domain.high) if decl.domain else None,
    )
    if columns:
        if decl.name.text in symbols.enums:
            sink.emit(codes.DUPLICATE_NAME, f"`{decl.name.text}` names both an enum and an odds rule", decl.name.span)
            return None
        members = tuple(model.Member(member_id(c), c, decl.span) for c in columns)
        symbols.enums[decl.name.text] = model.EnumType(decl.name.text, decl.title.text, members, decl.name.span)
    return model.Chart(
        game=symbols.id,
        chart_id=rule.chart_id,
        slug=rule.id,
        title=rule.title,
        kind=model.ChartKind.ODDS,
        source_file=path,
        span=decl.span,
        rule=rule.rule,
        notes=rule.notes,
        partial=decl.partial.text if decl.partial else None,
        partial_span=decl.partial_span if decl.partial else None,
        odds=rule,
    )


def _statements_fit_form(decl: ast.OddsDecl, form: rules.OddsForm, where: str, sink: Sink) -> bool:
    """C421/C404/C422: each statement the form needs is there, and none it cannot use."""
    ok = True
    rounds = decl.attacker_round is not None or decl.defender_round is not None
    exact = any(parse_label(c.text) is None and parse_fraction(c.text) is not None for c in decl.columns)
    if form is rules.OddsForm.RATIO and decl.between is None and not exact:  # non-unit columns: C420 instead
        for side, how in (("attacker_high", decl.attacker_round), ("defender_high", decl.defender_round)):
            if how is None:
                sink.emit(
                    codes.CHART_SHAPE,
                    f"{where} does not say how {side.replace('_', '-')} odds round",
                    decl.name.span,
                    f"add e.g. `{side} round down`, or `between columns lower` to compare exact ratios",
                )
                ok = False
    elif rounds:
        reason = (
            "compares exact ratios with its columns (`between columns`)"
            if form is rules.OddsForm.RATIO
            else f"reads {form} columns, which need no rounding"
        )
        sink.emit(
            codes.ODDS_FORM_CONFLICT,
            f"{where} {reason}: `attacker_high`/`defender_high round` does not apply",
            decl.round_spans[0] if decl.round_spans else decl.name.span,
            "delete the `round` lines, or the `between columns` line to round the quotient to n:1 or 1:n",
            # a differential or strength rule reads no quotient, so its `round` lines say nothing
            fix=fixes.delete(decl.round_spans, "the `round` lines", Applicability.SAFE)
            if form is not rules.OddsForm.RATIO and decl.round_spans
            else None,
        )
        ok = False
    if form is not rules.OddsForm.STRENGTH and decl.domain is not None:
        sink.emit(
            codes.ODDS_FORM_CONFLICT,
            f"{where} reads {form} columns: `domain` applies only to `form strength`",
            decl.domain.span,
            "delete the `domain` line, or write `form strength`",
            fix=fixes.delete(decl.domain.span, "the `domain` line", Applicability.UNSAFE),
        )
        ok = False
    if form is rules.OddsForm.STRENGTH and decl.domain is None:
        sink.emit(
            codes.ODDS_DOMAIN,
            f"{where} reads strength columns but does not declare the strengths it reads",
            decl.name.span,
            "add `domain 1 to 40` (or `domain 1+` without an upper end)",
        )
        ok = False
    if form is not rules.OddsForm.RATIO and not decl.columns:
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} reads {form} columns but lists none",
            decl.name.span,
            'add `columns ["-1/0", "+1/+2"]`, the columns as printed',
        )
        ok = False
    if decl.domain is not None and decl.domain.high is not None and decl.domain.high < decl.domain.low:
        backwards = f"{where}: domain {decl.domain.low} to {decl.domain.high} runs backwards"
        sink.emit(codes.ODDS_DOMAIN, backwards, decl.domain.span)
        ok = False
    return ok


def _columns(decl: ast.OddsDecl, form: rules.OddsForm, sink: Sink) -> list[str] | None:
    """The columns as printed (spaces dropped), or None after C402/C410/C422 findings."""
    columns: list[str] = []
    bounds: list[tuple[Fraction | None, Fraction | None]] = []
    ok = True
    for c in decl.columns:
        bound = _bound(c.text, form)
        if bound is None:
            sink.emit(codes.TYPE_MISMATCH, f"odds column `{c.text}` is not {_FORM_EXAMPLE[form]}", c.span)
            ok = False
            continue
        if bounds and not _after(bounds[-1], bound):
            sink.emit(
                codes.COLUMN_ORDER,
                f"odds column `{c.text}` does not come after `{columns[-1]}`",
                c.span,
                "list odds columns from the defender's best to the attacker's best, each once, ranges not overlapping",
            )
            ok = False
            continue
        if bounds and (bounds[-1][1] is None or bound[0] is None):
            sink.emit(
                codes.COLUMN_ORDER,
                f"odds column `{c.text}`: only the first column may be open below and only the last open above",
                c.span,
            )
            ok = False
            continue
        columns.append(member_id(c.text))
        bounds.append(bound)
    if ok and decl.domain is not None and bounds:
        ok = _inside_domain(decl, columns, bounds, sink)
    return columns if ok else None


_FORM_EXAMPLE = {
    rules.OddsForm.RATIO: "a ratio like `3:1`, `1:2`, `3:2` or `1.5:1`",
    rules.OddsForm.DIFFERENTIAL: "a differential like `-3-`, `-2`, `-1/0`, `+1/+2` or `+7+`",
    rules.OddsForm.STRENGTH: "a strength like `1-2`, `3-5`, `6` or `9+`",
}


def _bound(label: str, form: rules.OddsForm) -> tuple[Fraction | None, Fraction | None] | None:
    """A column's lowest and highest odds value, or None if the label is not of the form."""
    match form:
        case rules.OddsForm.RATIO:
            value = parse_fraction(label)
            return None if value is None else (value, value)
        case rules.OddsForm.DIFFERENTIAL | rules.OddsForm.STRENGTH:
            band = parse_band(label)
            if band is None:
                return None
            return tuple(None if b is None else Fraction(b) for b in band)  # type: ignore[return-value]
        case _:
            assert_never(form)


def _after(prev: tuple[Fraction | None, Fraction | None], bound: tuple[Fraction | None, Fraction | None]) -> bool:
    return prev[1] is not None and bound[0] is not None and bound[0] > prev[1]


def _needs_between(form: rules.OddsForm, columns: list[str]) -> bool:
    """Whether odds can fall between two columns, so the rule must say which one they read."""
    if form is rules.OddsForm.RATIO:
        return any(parse_label(c) is None for c in columns)
    bands = [parse_band(c) or (None, None) for c in columns]
    return any(
        high is not None and low is not None and low > high + 1
        for (_, high), (low, _) in itertools.pairwise(bands)
    )


def _inside_domain(
    decl: ast.OddsDecl, columns: list[str], bounds: list[tuple[Fraction | None, Fraction | None]], sink: Sink
) -> bool:
    """C422: every strength column can be read by some strength of the domain."""
    assert decl.domain is not None
    low, high = decl.domain.low, decl.domain.high
    ok = True
    for label, (first, last) in zip(columns, bounds, strict=True):
        if (last is not None and last < low) or (high is not None and first is not None and first > high):
            upper = f"to {high}" if high is not None else "or more"
            sink.emit(
                codes.ODDS_DOMAIN,
                f"odds column `{label}` lies outside the domain of `{decl.name.text}` ({low} {upper})",
                decl.domain.span,
                "widen the domain or correct the column",
            )
            ok = False
    return ok
