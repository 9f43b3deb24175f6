"""Resolve one game's syntax trees into the chart model: declare, bind, type.

`resolve_game(game_id, files, sink)` runs the phases below in order and returns an immutable
`model.Game`. It reports only what cannot be bound or typed (unknown names with a did-you-mean,
duplicates, malformed ranges, type errors); whatever is bound but wrong (coverage, periods, dates,
limits, invariants) is for `compiler.checks`. It never raises for bad input: a construct that
cannot be resolved is dropped after its diagnostic, so later passes see a consistent model.

Phases (after protoc's Build, CrossLink, Validate):
1. declare: header, calendar and periods (`header`), enums and context variables (`enums`), odds
   rules (`odds_rules`);
2. bind and type: record fields (`enums`), errata applied to the chart declarations
   (`compiler.errata.apply`), charts in derive order (`charts`, `derive`), limits (`limits`), formulas,
   worked examples (`examples`), chart references, invariants, and the book's inconsistencies
   (`inconsistencies`: conflicts and ambiguous print) and the warnings kept as printed (`kept`).
"""

from __future__ import annotations

from dataclasses import replace

from compiler import model
from compiler.diagnostics import Sink
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.errata import apply as errata_mod
from compiler.errata import formulas as formulas_errata
from compiler.errata import header as header_errata
from compiler.errata import records as records_errata
from compiler.errata.printing import AS_CORRECTED, Printing, applied, describe, in_order, printing_key
from compiler.model.calendar import month_range
from compiler.model.turns import turn_label
from compiler.resolve import enums, header
from compiler.resolve.charts import ChartResolver
from compiler.resolve.derive import derive_order, format_range
from compiler.resolve.examples import examples
from compiler.resolve.formulas import formulas
from compiler.resolve.inconsistencies import ambiguities, conflicts
from compiler.resolve.invariants import invariants
from compiler.resolve.kept import kept_findings
from compiler.resolve.limits import bind_within, limits
from compiler.resolve.odds import odds_rule
from compiler.resolve.shifts import bind_shift_sources
from compiler.resolve.suppressions import suppressions
from compiler.resolve.symbols import SymbolTable
from compiler.resolve.values import ValueTyper
from dsl import ast

__all__ = ["format_range", "resolve_game"]


def resolve_game(
    game_id: str,
    files: list[ast.SourceFile],
    sink: Sink,
    folder_span: ast.Span,
    complete: bool = True,
    printing: Printing = AS_CORRECTED,
) -> model.Game:
    """Resolve every declaration of one game folder.

    Args:
        game_id: the folder name under `charts/` (the game's id in outputs and addresses).
        files: the parsed files of that folder, in path order.
        sink: receives every diagnostic.
        folder_span: where to point a missing-header diagnostic (the folder's first file).
        complete: False when some file of the folder could not be read or parsed; then a missing
            header is not reported (it may be in that file) and unknown names are still reported.
        printing: which errata blocks apply (`compiler.errata.printing`): all of them (the
            default), none (the charts exactly as printed), or those up to a named one.

    Returns:
        The game model; charts with errors are still included as far as they resolved.

    Raises:
        UnknownPrinting: `printing` names an errata the game does not declare.
    """
    declared = [e for f in files for e in f.errata]
    errata_decls = applied(printing, declared, game_id, complete)
    symbols = _declare(game_id, files, sink, folder_span, complete, errata_decls)
    typer = ValueTyper(symbols, sink)
    amended, marks = ({}, {}) if not errata_decls else records_errata.amend_records(
        [e for f in files for e in f.enums], errata_decls, sink)
    for f in files:
        for e in f.enums:
            enums.add_record_fields(symbols, amended.get(e.name.text, e), typer, sink)
    symbols.enums.update(records_errata.annotate_members(symbols.enums, marks))
    odds_charts = [c for c in (odds_rule(symbols, o, f.path, sink) for f in files for o in f.odds) if c is not None]
    charts = _resolve_charts(symbols, files, typer, sink, errata_decls, {e.name.text for e in declared})
    symbols.set_charts(odds_charts + charts)
    _report_duplicate_charts(symbols.id, symbols.charts, sink)
    symbols.limits = limits(symbols, [(f.path, d) for f in files for d in f.limits], sink)
    bind_within(symbols, sink)
    formula_decls = [(f.path, d) for f in files for d in f.formulas]
    corrected, formula_marks = ({}, {}) if not errata_decls else formulas_errata.amend_formulas(
        [d for _, d in formula_decls], errata_decls, _chart_handles(files), sink)
    formula_decls = [(path, corrected.get(d.name.text, d)) for path, d in formula_decls]
    symbols.formulas = formulas(symbols, formula_decls, sink, formula_marks)
    symbols.examples = examples(symbols, [(f.path, e) for f in files for e in f.examples], typer, sink)
    _bind_chart_refs(symbols, typer, sink)
    bind_shift_sources(symbols, sink)
    symbols.invariants = invariants(symbols, [i for f in files for i in f.invariants], typer, sink)
    symbols.conflicts = conflicts(symbols, [(f.path, d) for f in files for d in f.conflicts], typer, sink)
    symbols.ambiguities = ambiguities(symbols, [(f.path, d) for f in files for d in f.ambiguities], typer, sink)
    symbols.kept = kept_findings(symbols, [(f.path, d) for f in files for d in f.kept], sink)
    kept_ids = {id(e) for e in errata_decls}
    left_out = tuple(dict.fromkeys(e.name.text for e in in_order(declared) if id(e) not in kept_ids))
    game = symbols.game()
    return replace(game, printing=printing_key(printing), printing_label=describe(printing), left_out=left_out)


def _chart_handles(files: list[ast.SourceFile]) -> set[str]:
    """Every name an `amend` may give a chart by (case-folded chart IDs and slugs)."""
    return {x.text.casefold() for f in files for c in f.charts for x in (c.chart_id, c.slug) if x is not None}


def _declare(
    game_id: str, files: list[ast.SourceFile], sink: Sink, folder_span: ast.Span, complete: bool,
    errata_decls: list[ast.ErrataDecl],
) -> SymbolTable:
    """Phase 1: the header, calendar and periods (with their enums, as the errata correct them),
    enums and context variables."""
    decl = header.game_header(game_id, files, sink, folder_span, complete)
    decl, header_marks = header_errata.amend_header(decl, errata_decls, _chart_handles(files), sink)
    periods = header.periods(decl, sink)
    symbols = SymbolTable(
        id=game_id,
        title=decl.title.text if decl and decl.title else game_id,
        source=decl.source.text if decl and decl.source else None,
        calendar=header.calendar(decl, sink),
        periods=periods,
        span=decl.span if decl else folder_span,
        aid_chance=decl.aid_chance is not False if decl else True,
        turns=header.turns(decl, sink),
        header_errata=header_marks,
    )
    if periods:
        # each period's months ride on its member, so a lookup can read a key `period` by a year or month
        members = tuple(model.Member(p.id, p.label, p.span, {"first": p.first, "last": p.last}) for p in periods)
        symbols.enums["period"] = model.EnumType("period", "Period", members, periods[0].span)
    if symbols.calendar:
        months = tuple(model.Member(m, m, symbols.span) for m in month_range(*symbols.calendar))
        symbols.enums["month"] = model.EnumType("month", "Month", months, symbols.span, synthetic=True)
    symbols.turns_reported = decl is not None and decl.turns is not None and symbols.turns is None
    if symbols.turns:
        turns = tuple(model.Member(t, turn_label(t), symbols.span) for t in symbols.turns.turns())
        symbols.enums["turn"] = model.EnumType("turn", "Turn", turns, symbols.span, synthetic=True)
    for f in files:
        for e in f.enums:
            enums.add_enum(symbols, e, sink)
    for f in files:
        for c in f.contexts:
            enums.add_context(symbols, c, sink)
    return symbols


def _resolve_charts(
    symbols: SymbolTable, files: list[ast.SourceFile], typer: ValueTyper, sink: Sink,
    errata_decls: list[ast.ErrataDecl], errata_ids: set[str],
) -> list[model.Chart]:
    """Every chart declaration, the errata `errata_decls` applied, in source order; each printed
    ID or slug once. `errata_ids` are every errata of the game, applied or not (an `overrides` may
    name one this printing leaves out)."""
    decls = [(f.path, d) for f in files for d in f.charts]
    amended: dict[str, ast.ChartDecl] = {}
    provenance: dict[str, errata_mod.Provenance] = {}
    if errata_decls:
        symbols.errata = tuple(errata_mod.errata_docs(errata_decls, sink, errata_ids))
        formula_names = [d.name.text for f in files for d in f.formulas] + [symbols.id]  # the game: its header
        applier = errata_mod.ErrataApplier(symbols, [d for _, d in decls], sink, formula_names)
        amended = applier.apply(errata_decls)
        provenance = applier.provenance
    resolved: list[model.Chart] = []
    # a derived chart reads its base, so bases resolve first (and chains of derived charts in order)
    for path, decl in derive_order(decls):
        symbols.suppressions.extend(suppressions(decl, sink))
        handle = errata_mod.chart_handle(decl)
        if handle in amended:
            printed = ChartResolver(symbols, decl, path, Sink(), ValueTyper(symbols, Sink())).resolve()
            chart = ChartResolver(symbols, amended[handle], path, sink, typer).resolve()
            if chart is not None and printed is not None:
                chart = errata_mod.annotate(chart, printed, provenance[handle])
        else:
            chart = ChartResolver(symbols, decl, path, sink, typer).resolve()
        if chart is not None:
            resolved.append(chart)
            symbols.add_chart(chart)
    return resolved


def _report_duplicate_charts(game_id: str, charts: list[model.Chart], sink: Sink) -> None:
    """C202: two charts (or odds rules) with the same printed ID or slug, compared case-insensitively."""
    seen: dict[str, ast.Span] = {}
    for chart in charts:
        for handle in sorted({h.casefold(): h for h in filter(None, (chart.chart_id, chart.slug))}.values()):
            if handle.casefold() in seen:
                declared_twice(
                    sink,
                    f"chart `{handle}`",
                    chart.span,
                    seen[handle.casefold()],
                    "give each chart its own printed ID or slug",
                    where=f"in game `{game_id}`",
                )
            else:
                seen[handle.casefold()] = chart.span


def _bind_chart_refs(symbols: SymbolTable, typer: ValueTyper, sink: Sink) -> None:
    """Every `[B6]` cell must name a chart, DRM list or `external` chart of the game (C201)."""
    for address, span, what, slot in typer.chart_refs:
        if symbols.chart(address) is None:
            unknown_name(
                sink,
                f"{what} refers to chart `[{address}]`, which game `{symbols.id}` does not declare",
                address,
                span,
                [c.address for c in symbols.charts],
                f'declare it, e.g. `external [{address}] "Title" "printed on the player aid cards"`',
                slot=slot,
            )
