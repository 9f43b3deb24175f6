"""Resolve one game's syntax trees into the chart model: bind names, read ranges, type values.

`resolve_game(game_id, files, sink)` returns a `model.Game` and reports unknown names (with a
did-you-mean), duplicates, malformed ranges and type errors to the sink. It never raises for
bad input; a construct that cannot be resolved is dropped after its diagnostic so later passes
see a consistent model.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import assert_never

from compiler import errata as errata_mod
from compiler import model
from compiler.calendar import (
    MAX_CALENDAR_MONTHS,
    Month,
    month_range,
    months_between,
    span_text,
)
from compiler.diagnostics import CODES, Label, Sink, codes, did_you_mean, suppressible
from compiler.diagnostics.messages import number, signed
from compiler.dice import Dice, DiceForm
from dsl import ast

_BUILTIN_CONTEXT_TYPES = {"flag": model.ContextType.FLAG, "int": model.ContextType.INT, "month": model.ContextType.MONTH}
_BUILTIN_NAMES = frozenset(model.BuiltinType)
_RANGE_RE = re.compile(r"^(\d+)(?:(-)(\d+)?|(\+))?$")
# Guards that keep exact enumeration small (see compiler.dice): a chart roll this large is a typo.
_MAX_DICE_COUNT = 10
_MAX_SIDES = 100
_MAX_LOWER_OUTCOMES = 10**5
# Guards that keep checking and odds tables bounded per chart, so time grows linearly with the
# number of charts (C415). The largest printed charts known have ~100 rows and ~50 key values.
MAX_ROWS = 1000
MAX_KEY_COMBINATIONS = 256
MAX_DRMS = 64
MAX_DRM_SPAN = 64
# The odds tables a build writes grow with key combinations x DRM totals x rows; beyond this many
# cells a single chart's JSON would run to megabytes and take minutes.
MAX_ODDS_CELLS = 100_000


def resolve_game(
    game_id: str,
    files: list[ast.SourceFile],
    sink: Sink,
    folder_span: ast.Span,
    complete: bool = True,
    as_printed: bool = False,
) -> model.Game:
    """Resolve every declaration of one game folder.

    Args:
        game_id: the folder name under `charts/` (the game's id in outputs and addresses).
        files: the parsed files of that folder, in path order.
        sink: receives every diagnostic.
        folder_span: where to point a missing-header diagnostic (the folder's first file).
        complete: False when some file of the folder could not be read or parsed; then a missing
            header is not reported (it may be in that file) and unknown names are still reported.
        as_printed: ignore every `errata` block (the charts exactly as printed).

    Returns:
        The game model; charts with errors are still included as far as they resolved.
    """
    header = _game_header(game_id, files, sink, folder_span, complete)
    periods = _periods(header, sink)
    game = model.Game(
        id=game_id,
        title=header.title.text if header and header.title else game_id,
        source=header.source.text if header and header.source else None,
        calendar=_calendar(header, sink),
        periods=periods,
        enums={},
        context={},
        span=header.span if header else folder_span,
    )
    if periods:
        first = periods[0].span
        game.enums["period"] = model.EnumType(
            "period", "Period", tuple(model.Member(p.id, p.label, p.span) for p in periods), first
        )
    _check_periods(game, sink)
    if game.calendar:
        months = month_range(*game.calendar)
        game.enums["month"] = model.EnumType(
            "month", "Month", tuple(model.Member(m, m, game.span) for m in months), game.span, synthetic=True
        )
    for f in files:
        for e in f.enums:
            _add_enum(game, e, sink)
    typer = _ValueTyper(game, sink)
    for f in files:
        for e in f.enums:
            _add_record_fields(game, e, typer, sink)
    for f in files:
        for c in f.contexts:
            _add_context(game, c, sink)
    odds_charts = [(o, _odds_chart(game, o, f.path, sink)) for f in files for o in f.odds]
    seen: dict[str, ast.Span] = {}
    resolved = [(o, c) for o, c in odds_charts if c is not None]
    decls = [(f.path, d) for f in files for d in f.charts]
    errata_decls = [e for f in files for e in f.errata]
    amended: dict[str, ast.ChartDecl] = {}
    provenance: dict[str, errata_mod.Provenance] = {}
    if errata_decls and not as_printed:
        game.errata = errata_mod.errata_docs(errata_decls, sink)
        applier = errata_mod.ErrataApplier(game, [d for _, d in decls], sink)
        amended = applier.apply(errata_decls)
        provenance = applier.provenance
    # a derived chart reads its base, so bases resolve first (and chains of derived charts in order)
    for path, decl in _derive_order(decls):
        game.suppressions.extend(_suppressions(decl, sink))
        handle = errata_mod.ErrataApplier._handle(decl)
        if handle in amended:
            printed = _ChartResolver(game, decl, path, Sink(), _ValueTyper(game, Sink())).resolve()
            chart = _ChartResolver(game, amended[handle], path, sink, typer).resolve()
            if chart is not None and printed is not None:
                chart = errata_mod.annotate(chart, printed, provenance[handle])
        else:
            chart = _ChartResolver(game, decl, path, sink, typer).resolve()
        resolved.append((decl, chart))
        if chart is not None:
            game.charts.append(chart)  # visible to derived charts; re-added in order below
    game.charts.clear()
    game._indexed = None
    for decl, chart in resolved:
        if chart is None:
            continue
        for handle in sorted({h.casefold(): h for h in filter(None, (chart.chart_id, chart.slug))}.values()):
            if handle.casefold() in seen:
                sink.emit(
                    codes.DUPLICATE_NAME,
                    f"chart `{handle}` is declared twice in game `{game_id}`",
                    decl.span,
                    "give each chart its own printed ID or slug",
                    (Label(seen[handle.casefold()], "first declared here"),),
                )
            else:
                seen[handle.casefold()] = decl.span
        game.charts.append(chart)
    _check_chart_refs(game, typer, sink)
    seen_invariants: dict[str, ast.Span] = {}
    for f in files:
        for inv in f.invariants:
            if inv.name.text in seen_invariants:
                sink.emit(codes.DUPLICATE_NAME, f"invariant `{inv.name.text}` is declared twice", inv.name.span, labels=(Label(seen_invariants[inv.name.text], "first declared here"),))
                continue
            seen_invariants[inv.name.text] = inv.name.span
            resolved_inv = _invariant(game, inv, typer, sink)
            if resolved_inv is not None:
                game.invariants.append(resolved_inv)
    return game


def _invariant(game: model.Game, decl: ast.InvariantDecl, typer: _ValueTyper, sink: Sink) -> model.Invariant | None:
    """Bind an invariant's names: the enum and its field, and for `column_sum` the chart."""
    match decl:
        case ast.CountInvariant():
            return _count_invariant(game, decl, typer, sink)
        case ast.ColumnSumInvariant():
            return _column_sum_invariant(game, decl, sink)
        case _:
            assert_never(decl)


def _count_invariant(game: model.Game, decl: ast.CountInvariant, typer: _ValueTyper, sink: Sink) -> model.Invariant | None:
    """`count ENUM [where FIELD == VALUE] is N`: bind the enum, the field and type the value."""
    if decl.where is None:  # `count ENUM is N`: every record
        enum = _invariant_enum(game, decl, decl.enum, sink)
        if enum is None:
            return None
        return model.CountInvariant(decl.name.text, decl.text.text, enum.id, None, None, decl.count, decl.span)
    bound = _invariant_field(game, decl, decl.enum, decl.where.field, sink)
    if bound is None:
        return None
    enum, field = bound
    typed = typer.typed(decl.where.value, field.type, f"invariant `{decl.name.text}`")
    if isinstance(typed, Bad):
        return None
    return model.CountInvariant(decl.name.text, decl.text.text, enum.id, field.id, typed, decl.count, decl.span)


def _column_sum_invariant(game: model.Game, decl: ast.ColumnSumInvariant, sink: Sink) -> model.Invariant | None:
    """`sum CHART part P per column reaches ENUM.FIELD`: bind the names; P must be a part of its cells."""
    bound = _invariant_field(game, decl, decl.enum, decl.field, sink)
    if bound is None:
        return None
    enum, field = bound
    chart = game.chart(decl.chart.text)
    if chart is None:
        sink.emit(codes.UNKNOWN_NAME, f"unknown chart `{decl.chart.text}` in invariant `{decl.name.text}`", decl.chart.span, did_you_mean(decl.chart.text, [c.address for c in game.charts]))
        return None
    parts = {model.SLASHED_PARTS[c.type] for c in chart.columns if c.type in model.SLASHED_PARTS}
    if not 1 <= decl.part <= (max(parts) if parts else 0):
        sink.emit(
            codes.TYPE_MISMATCH,
            f"invariant `{decl.name.text}` sums part {decl.part}, but the cells of `{chart.address}` have "
            + (f"parts 1 to {max(parts)}" if parts else "no pair or triple columns"),
            decl.span,
        )
        return None
    return model.ColumnSumInvariant(decl.name.text, decl.text.text, enum.id, field.id, decl.part, chart.address, decl.span)


def _invariant_enum(game: model.Game, decl: ast.InvariantDecl, enum_name: ast.Name, sink: Sink) -> model.EnumType | None:
    enum = game.enums.get(enum_name.text)
    if enum is None:
        sink.emit(codes.UNKNOWN_NAME, f"unknown enum `{enum_name.text}` in invariant `{decl.name.text}`", enum_name.span, did_you_mean(enum_name.text, game.enums))
    return enum


def _invariant_field(
    game: model.Game, decl: ast.InvariantDecl, enum_name: ast.Name, field_name: ast.Name, sink: Sink
) -> tuple[model.EnumType, model.Field] | None:
    enum = _invariant_enum(game, decl, enum_name, sink)
    if enum is None:
        return None
    field = next((f for f in enum.fields if f.id == field_name.text), None)
    if field is None:
        sink.emit(codes.UNKNOWN_NAME, f"enum `{enum.id}` has no field `{field_name.text}`", field_name.span, did_you_mean(field_name.text, [f.id for f in enum.fields]))
        return None
    return enum, field


def _derive_order(decls: list[tuple[str, ast.ChartDecl]]) -> list[tuple[str, ast.ChartDecl]]:
    """Charts in resolution order: plain charts first, then each derived chart after its base
    (a chain `c <- b <- a` resolves a, b, c; a cycle or a missing base keeps source order)."""
    ordered = [pd for pd in decls if pd[1].derive is None]
    pending = [pd for pd in decls if pd[1].derive is not None]
    known = {h.text.casefold() for _, d in ordered for h in (d.chart_id, d.slug) if h is not None}
    while pending:
        ready = [pd for pd in pending if pd[1].derive.base.text.casefold() in known]  # type: ignore[union-attr]
        if not ready:
            return ordered + pending
        for pd in ready:
            pending.remove(pd)
            ordered.append(pd)
            known.update(h.text.casefold() for h in (pd[1].chart_id, pd[1].slug) if h is not None)
    return ordered


def _odds_chart(game: model.Game, decl: ast.OddsDecl, path: str, sink: Sink) -> model.Chart | None:
    """An `odds` block: the rule as a chart of kind `odds`, its columns as an enum for CRT keys."""
    from compiler import crt

    where = f"odds rule `{decl.name.text}`"
    for span in decl.repeated:
        sink.emit(codes.REPEATED_STATEMENT, f"this statement may appear only once in {where}", span, "delete the repeated line")
    ok = True
    for side, how in (("attacker_high", decl.attacker_round), ("defender_high", decl.defender_round)):
        if how is None:
            sink.emit(codes.CHART_SHAPE, f"{where} does not say how {side.replace('_', '-')} odds round", decl.name.span, f"add e.g. `{side} round down`")
            ok = False
    columns: list[str] = []
    for c in decl.columns:
        ratio = crt.parse_label(c.text)
        if ratio is None:
            sink.emit(codes.TYPE_MISMATCH, f"odds column `{c.text}` is not a ratio like `3:1` or `1:2`", c.span)
            ok = False
        elif columns and crt.scale(ratio) <= crt.scale(crt.parse_label(columns[-1]) or (1, 1)):
            sink.emit(codes.COLUMN_ORDER, f"odds column `{c.text}` does not come after `{columns[-1]}`", c.span, "list odds columns from the defender's best to the attacker's best, each once")
            ok = False
        else:
            columns.append(c.text.replace(" ", ""))
    if columns and decl.beyond is None:
        sink.emit(codes.CHART_SHAPE, f"{where} does not say what happens to odds beyond the table's edge", decl.name.span, "add `beyond clamp` (use the edge column) or `beyond error`")
        ok = False
    if not ok:
        return None
    rule = crt.OddsRule(
        id=decl.name.text, chart_id=decl.chart_id.text if decl.chart_id else None, title=decl.title.text,
        rule=decl.rule.text if decl.rule else None, notes=tuple(n.text for n in decl.notes),
        attacker_round=crt.Rounding(decl.attacker_round or "down"), defender_round=crt.Rounding(decl.defender_round or "up"),
        columns=tuple(columns), beyond=crt.Beyond(decl.beyond) if decl.beyond else None,
        shift_order=crt.ShiftOrder(decl.shift_order) if decl.shift_order else None, span=decl.span,
    )
    if columns:
        if decl.name.text in game.enums:
            sink.emit(codes.DUPLICATE_NAME, f"`{decl.name.text}` names both an enum and an odds rule", decl.name.span)
            return None
        members = tuple(model.Member(crt.member_id(c), c, decl.span) for c in columns)
        game.enums[decl.name.text] = model.EnumType(decl.name.text, decl.title.text, members, decl.name.span)
    return model.Chart(
        game=game.id, chart_id=rule.chart_id, slug=rule.id, title=rule.title, rule=rule.rule, kind=model.ChartKind.ODDS,
        dice=None, value_key=None, keys=(), columns=(), drms=(), clamp=None, footnotes=(), notes=rule.notes,
        partial=None, rows=(), grid=None, source_file=path, span=decl.span, odds=rule,
    )


def _check_chart_refs(game: model.Game, typer: _ValueTyper, sink: Sink) -> None:
    """Every `[B6]` cell must name a chart, DRM list or `external` chart of the game."""
    for address, span, what in typer.chart_refs:
        if game.chart(address) is None:
            sink.emit(
                codes.UNKNOWN_NAME,
                f"{what} refers to chart `[{address}]`, which game `{game.id}` does not declare",
                span,
                did_you_mean(address, [c.address for c in game.charts])
                or f'declare it, e.g. `external [{address}] "Title" "printed on the player aid cards"`',
            )


def _check_periods(game: model.Game, sink: Sink) -> None:
    """Periods must lie in the calendar (C409) and tile it without overlaps or holes (C411)."""
    if not game.periods:
        return
    ordered = sorted(game.periods, key=lambda p: (p.first, p.last))
    for p in ordered:
        if game.calendar and (p.first < game.calendar[0] or (p.last > game.calendar[1] and not p.open_end)):
            sink.emit(
                codes.MONTH_OUTSIDE_CALENDAR,
                f"period `{p.id}` ({p.first} to {p.last}) runs outside the calendar ({game.calendar[0]} to {game.calendar[1]})",
                p.span,
            )
    for a, b in itertools.pairwise(ordered):
        if b.first <= a.last:
            sink.emit(codes.PERIOD_COVERAGE, f"periods `{a.id}` and `{b.id}` overlap ({b.first} to {min(a.last, b.last)})", b.span, labels=(Label(a.span, "overlaps this period"),))
        else:
            hole = _hole(_month(a.last).next(), _month(b.first).previous())
            if hole:
                sink.emit(codes.PERIOD_COVERAGE, f"no period covers {hole}, between `{a.id}` and `{b.id}`", b.span)
    if game.calendar:
        start, end = _month(game.calendar[0]), _month(game.calendar[1])
        before = _hole(start, _month(ordered[0].first).previous())
        after = _hole(_month(ordered[-1].last).next(), end)
        for hole, where in ((before, ordered[0]), (after, ordered[-1])):
            if hole:
                sink.emit(codes.PERIOD_COVERAGE, f"no period covers {hole} of the calendar", where.span)


def _month(text: str) -> Month:
    """A month the resolver has already checked."""
    month = Month.parse(text)
    assert month is not None, text
    return month


def _hole(first: Month, last: Month) -> str | None:
    """The months `first` to `last` as text, or None when there are none."""
    return span_text(first, last) if months_between(first, last) else None


def _suppressions(decl: ast.ChartDecl, sink: Sink) -> list[model.Suppression]:
    """The chart's valid `allow` statements; unknown or unsilenceable codes are reported (C502)."""
    chart = (decl.chart_id or decl.slug or decl.title).text
    found = []
    for allow in decl.allows:
        code = allow.code.text
        if code not in CODES:
            hint = did_you_mean(code, [c for c in CODES if suppressible(c)])
            sink.emit(codes.INVALID_SUPPRESSION, f"`allow {code}` names no diagnostic code", allow.code.span, hint or "see `chartc explain`")
        elif not suppressible(code):
            why = "errors" if CODES[code].severity.value == "error" else "suppression codes"
            sink.emit(codes.INVALID_SUPPRESSION, f"`{code}` cannot be silenced: {why} are always reported", allow.code.span,
                      "fix the chart, or declare it `partial` if rows are missing")
        elif not allow.reason.text.strip():
            sink.emit(codes.INVALID_SUPPRESSION, f"`allow {code}` gives no reason", allow.reason.span, 'say why the finding is acceptable: `allow C305 "the print ..."`')
        else:
            found.append(model.Suppression(code, allow.reason.text, chart, allow.span, decl.span))
    return found


# ---- game header, calendar, periods ------------------------------------------------------------


def _game_header(
    game_id: str, files: list[ast.SourceFile], sink: Sink, folder_span: ast.Span, complete: bool
) -> ast.GameDecl | None:
    headers = [g for f in files for g in f.game]
    if not headers and not complete:
        return None
    if not headers:
        sink.emit(
            codes.GAME_HEADER,
            f"game folder `{game_id}` has no `game` header",
            folder_span,
            f'add `game {game_id} {{ title "..." }}` to one file of the folder',
        )
        return None
    for extra in headers[1:]:
        sink.emit(
            codes.GAME_HEADER,
            f"game `{game_id}` has more than one `game` header",
            extra.span,
            "keep one header per game folder",
            (Label(headers[0].span, "first header here"),),
        )
    header = headers[0]
    for span in header.repeated:
        sink.emit(codes.REPEATED_STATEMENT, f"this statement may appear only once in the header of game `{game_id}`", span, "delete the repeated line")
    if header.name.text != game_id:
        sink.emit(
            codes.GAME_HEADER,
            f"game header says `{header.name.text}` but the folder is `{game_id}`",
            header.name.span,
            f"rename the folder or write `game {game_id}`",
        )
    return header


def _checked_month(month: ast.MonthText, sink: Sink) -> Month | None:
    parsed = Month.parse(month.text)
    if parsed is None:
        sink.emit(codes.INVALID_MONTH, f"`{month.text}` is not a month", month.span, "write months as `YYYY-MM` with MM from 01 to 12")
    return parsed


def _calendar(header: ast.GameDecl | None, sink: Sink) -> tuple[Month, Month] | None:
    if header is None or header.calendar is None:
        return None
    first, last = (_checked_month(m, sink) for m in header.calendar)
    if first is None or last is None:
        return None
    if first > last:
        sink.emit(codes.INVALID_MONTH, f"the calendar runs backwards: {first} to {last}", header.calendar[0].span)
        return None
    span = months_between(first, last)
    if span > MAX_CALENDAR_MONTHS:
        sink.emit(
            codes.INVALID_MONTH,
            f"the calendar {first} to {last} spans {span} months (at most {MAX_CALENDAR_MONTHS})",
            header.calendar[0].span,
            "check the years: a game's calendar covers the months its turns are played in",
        )
        return None
    return first, last


def _periods(header: ast.GameDecl | None, sink: Sink) -> tuple[model.Period, ...]:
    if header is None:
        return ()
    calendar_end = (Month.parse(header.calendar[1].text) if header.calendar else None) or Month("9999-12")
    out: list[model.Period] = []
    seen: dict[str, ast.Span] = {}
    for p in header.periods:
        if p.name.text in seen:
            sink.emit(codes.DUPLICATE_NAME, f"period `{p.name.text}` is declared twice", p.name.span, labels=(Label(seen[p.name.text], "first declared here"),))
            continue
        seen[p.name.text] = p.name.span
        first = _checked_month(p.first, sink)
        last = _checked_month(p.last, sink) if p.last is not None else calendar_end
        if first is None or last is None:
            continue
        if first > last:
            sink.emit(codes.INVALID_MONTH, f"period `{p.name.text}` runs backwards: {first} to {last}", p.first.span)
            continue
        out.append(model.Period(p.name.text, p.label.text, first, last, p.span, open_end=p.last is None))
    return tuple(out)


# ---- enums and context -------------------------------------------------------------------------


def _add_enum(game: model.Game, decl: ast.EnumDecl, sink: Sink) -> None:
    """Register an enum's members (labels, aliases); record fields are typed later by
    `_add_record_fields`, once every enum a field may refer to is known."""
    if decl.name.text in game.enums:
        sink.emit(
            codes.DUPLICATE_NAME,
            f"enum `{decl.name.text}` is declared twice",
            decl.name.span,
            labels=(Label(game.enums[decl.name.text].span, "first declared here"),),
        )
        return
    if decl.name.text in _BUILTIN_NAMES:
        sink.emit(
            codes.DUPLICATE_NAME,
            f"enum `{decl.name.text}` has the name of the builtin type `{decl.name.text}`",
            decl.name.span,
            f"rename the enum, e.g. `{decl.name.text}_kind`: a column of type `{decl.name.text}` means the builtin type",
        )
        return
    members: list[model.Member] = []
    seen: dict[str, ast.Span] = {}
    names_used: dict[str, tuple[str, ast.Span]] = {}
    for m in decl.members:
        if m.name.text in seen:
            sink.emit(
                codes.DUPLICATE_NAME,
                f"`{m.name.text}` appears twice in enum `{decl.name.text}`",
                m.name.span,
                labels=(Label(seen[m.name.text], "first here"),),
            )
            continue
        seen[m.name.text] = m.name.span
        label = m.label.text if m.label else m.name.text
        for written in ([m.label] if m.label else []) + list(m.aliases):
            folded = written.text.casefold()
            if folded in names_used and names_used[folded][0] != m.name.text:
                sink.emit(
                    codes.DUPLICATE_NAME,
                    f"`{written.text}` names both `{names_used[folded][0]}` and `{m.name.text}` in enum `{decl.name.text}`",
                    written.span,
                    "a printed label or alias must pick one value",
                    (Label(names_used[folded][1], "first used here"),),
                )
            names_used.setdefault(folded, (m.name.text, written.span))
        members.append(model.Member(m.name.text, label, m.span, {}, tuple(a.text for a in m.aliases)))
    label = decl.label.text if decl.label else decl.name.text
    game.enums[decl.name.text] = model.EnumType(decl.name.text, label, tuple(members), decl.name.span)


def _add_record_fields(game: model.Game, decl: ast.EnumDecl, typer: _ValueTyper, sink: Sink) -> None:
    """Type the fields of an enum's records (`{ family: bf109  available: 1944-03 }`)."""
    enum = game.enums.get(decl.name.text)
    if enum is None or enum.span != decl.name.span or not (decl.field_decls or any(m.fields for m in decl.members)):
        return
    fields: list[model.Field] = []
    for f in decl.field_decls:
        type_name = f.type_name.text
        if any(x.id == f.name.text for x in fields):
            sink.emit(codes.DUPLICATE_NAME, f"field `{f.name.text}` is declared twice in enum `{enum.id}`", f.name.span)
            continue
        field_type = column_type(type_name, model.FIELD_TYPES, game.enums)
        if field_type is None:
            sink.emit(
                codes.UNKNOWN_NAME,
                f"unknown type `{type_name}` for field `{f.name.text}` of enum `{enum.id}`",
                f.type_name.span,
                did_you_mean(type_name, [*model.FIELD_TYPES, *game.enums]),
            )
            continue
        label = f.label.text if f.label else f.name.text.replace("_", " ").capitalize()
        fields.append(model.Field(f.name.text, field_type, label, f.span))
    by_id = {f.id: f for f in fields}
    members = []
    for member, mdecl in zip(enum.members, [m for m in decl.members if m.name.text in {x.id for x in enum.members}]):
        values: dict[str, model.Value] = {}
        for fv in mdecl.fields:
            field = by_id.get(fv.name.text)
            if field is None:
                sink.emit(
                    codes.UNKNOWN_NAME,
                    f"enum `{enum.id}` has no field `{fv.name.text}`",
                    fv.name.span,
                    did_you_mean(fv.name.text, by_id) or "declare it in a `fields { ... }` block",
                )
                continue
            if fv.name.text in values:
                sink.emit(codes.DUPLICATE_NAME, f"field `{fv.name.text}` is given twice for `{member.id}`", fv.name.span)
                continue
            typed = typer.typed(fv.value, field.type, f"field `{field.id}` of `{member.id}`")
            if not isinstance(typed, Bad):
                values[field.id] = typed
        record = {f.id: values.get(f.id) for f in fields}
        members.append(model.Member(member.id, member.label, member.span, record, member.aliases))
    game.enums[enum.id] = model.EnumType(enum.id, enum.label, tuple(members), enum.span, tuple(fields))


def _add_context(game: model.Game, decl: ast.ContextDecl, sink: Sink) -> None:
    name = decl.name.text
    if name in game.context:
        sink.emit(
            codes.DUPLICATE_NAME,
            f"context variable `{name}` is declared twice",
            decl.name.span,
            labels=(Label(game.context[name].span, "first declared here"),),
        )
        return
    type_name = decl.type_name.text
    enum = None
    var_type = _BUILTIN_CONTEXT_TYPES.get(type_name)
    if var_type is None:
        if type_name not in game.enums:
            sink.emit(
                codes.UNKNOWN_NAME,
                f"unknown type `{type_name}` for context variable `{name}`",
                decl.type_name.span,
                did_you_mean(type_name, [*_BUILTIN_CONTEXT_TYPES, *game.enums]),
            )
            return
        enum = type_name
        var_type = model.ContextType.ENUM
    label = decl.label.text if decl.label else name
    game.context[name] = model.ContextVar(name, var_type, enum, label, decl.name.span)


# ---- charts ------------------------------------------------------------------------------------


class _ChartResolver:
    def __init__(self, game: model.Game, decl: ast.ChartDecl, path: str, sink: Sink, typer: _ValueTyper) -> None:
        self.typer = typer
        self.game = game
        self.decl = decl
        self.path = path
        self.sink = sink
        self.dice: Dice | None = None
        self.value_key: model.ValueKey | None = None

    @property
    def where(self) -> str:
        d = self.decl
        return f"chart `{(d.chart_id or d.slug or d.title).text}`"

    def resolve(self) -> model.Chart | None:
        d = self.decl
        for span in d.repeated:
            self.sink.emit(codes.REPEATED_STATEMENT, f"this statement may appear only once in {self.where}", span, "delete the repeated line")
        if d.chart_id is None and d.slug is None:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"chart `{d.title.text}` has neither a printed ID nor a slug",
                d.title.span,
                'write `chart [R4] "Title"` for a printed ID or `chart my_slug "Title"` for an unnumbered chart',
            )
            return None
        if d.derive is not None:
            return self._derived(d.derive)
        kind = self._kind()
        if d.roll:
            self.dice = self._dice(d.roll)
        if d.value_key:
            self.value_key = self._value_key(d.value_key)
        keys = self._keys()
        columns = self._columns()
        drms = self._drms()
        footnotes = self._footnotes(drms)
        rows: list[model.Row] = []
        grid = None
        broken = (d.roll is not None and self.dice is None) or len(keys) != len(d.keys)
        availability = None
        if d.availability:
            availability, keys, avail_rows, avail_broken = self._availability(d.availability[0], keys)
            broken = broken or avail_broken
            if not columns:
                columns = [model.Column("result", model.BuiltinType.TEXT, "Result", d.availability[0].span)]
            for extra in d.availability[1:]:
                self.sink.emit(codes.REPEATED_STATEMENT, f"{self.where} has more than one availability grid", extra.span, "split it into two charts")
        if kind not in (model.ChartKind.DRMS, model.ChartKind.EXTERNAL):
            rows = [r for r in (self._row(r, keys, columns) for r in d.rows) if r is not None]
            broken = broken or len(rows) != len(d.rows)
            if availability is not None or d.availability:
                rows.extend(avail_rows if d.availability else [])
            if d.grids:
                grid, keys = self._grid(d.grids[0], keys, columns)
                rows.extend(_grid_rows(grid, keys))
                broken = broken or grid is None or len(grid.rows) != len(d.grids[0].rows)
                for extra in d.grids[1:]:
                    self.sink.emit(codes.REPEATED_STATEMENT, f"{self.where} has more than one grid", extra.span, "split it into two charts")
            if not columns:
                self.sink.emit(codes.CHART_SHAPE, f"{self.where} declares no output column", d.title.span, 'add e.g. `column result: text "Result"`')
            elif not rows and not broken and not d.availability:
                self.sink.emit(codes.CHART_SHAPE, f"{self.where} has no rows", d.title.span, "add a `rows { ... }` block or a `grid`")
                broken = True
        clamp = (d.combine.clamp_min, d.combine.clamp_max) if d.combine and d.combine.clamp_min is not None else None
        if clamp and clamp[0] > clamp[1]:
            self.sink.emit(codes.REVERSED_RANGE, f"the DRM clamp runs backwards: {clamp[0]:+d} to {clamp[1]:+d}", d.combine.span)
            clamp = None
        broken = not self._within_limits(keys, rows, drms, clamp) or broken
        return model.Chart(
            game=self.game.id,
            chart_id=d.chart_id.text if d.chart_id else None,
            slug=d.slug.text if d.slug else None,
            title=d.title.text,
            rule=d.rule.text if d.rule else None,
            kind=kind,
            dice=self.dice,
            value_key=self.value_key,
            keys=tuple(keys),
            columns=tuple(columns),
            drms=tuple(drms),
            clamp=clamp,
            footnotes=tuple(footnotes),
            notes=tuple(n.text for n in d.notes),
            partial=d.partial.text if d.partial else None,
            rows=tuple(rows),
            grid=grid,
            source_file=self.path,
            span=d.span,
            broken=broken,
            availability=availability,
            drm_reads=d.modified.text if d.modified else None,
        )

    def _within_limits(self, keys: list[model.Key], rows: list[model.Row], drms: list[model.Drm], clamp: tuple[int, int] | None) -> bool:
        """Report (C415) a chart too large to check and tabulate exactly; True when it is not."""
        combos = 1
        for k in keys:
            combos *= max(1, len(k.enum.members))
        low = sum(x.value for x in drms if x.value < 0)
        high = sum(x.value for x in drms if x.value > 0)
        if clamp:
            low, high = max(clamp[0], min(clamp[1], low)), max(clamp[0], min(clamp[1], high))
        totals = high - low + 1
        problems = [
            (len(rows) > MAX_ROWS, lambda: f"{len(rows)} rows (at most {MAX_ROWS})"),
            (combos > MAX_KEY_COMBINATIONS, lambda: f"{combos} key combinations (at most {MAX_KEY_COMBINATIONS})"),
            (len(drms) > MAX_DRMS, lambda: f"{len(drms)} DRMs (at most {MAX_DRMS})"),
            (high - low > MAX_DRM_SPAN, lambda: f"DRMs spanning {signed(low)} to {signed(high)} (at most {MAX_DRM_SPAN} apart)"),
            (
                combos * totals * max(1, len(rows)) > MAX_ODDS_CELLS,
                lambda: f"{combos} key combinations x {number(totals)} DRM totals x {len(rows)} rows of odds (at most {MAX_ODDS_CELLS})",
            ),
        ]
        found = [text() for bad, text in problems if bad]
        for text in found:
            self.sink.emit(codes.CHART_TOO_LARGE, f"{self.where} is too large to check: {text}", self.decl.title.span,
                           "split the chart, or check the numbers for a typo")
        return not found

    def _kind(self) -> model.ChartKind:
        d = self.decl
        if d.kind in ("drms", "external"):
            return model.ChartKind(d.kind)
        if d.roll and d.value_key:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"{self.where} has both a `roll` and a `value` key",
                d.value_key.span,
                "a chart is read either by a die roll or by an integer value, not both",
            )
        if d.roll:
            return model.ChartKind.ROLL
        if d.value_key:
            return model.ChartKind.VALUE
        if not d.keys and not d.grids and not d.availability:
            self.sink.emit(
                codes.CHART_SHAPE,
                f"{self.where} has no `roll`, `value` or `key` to be read by",
                d.title.span,
                "add `roll 1d6` (or another dice form), `value NAME 0+`, or `key NAME`",
            )
        return model.ChartKind.REFERENCE

    def _dice(self, decl: ast.DiceDecl) -> Dice | None:
        form = DiceForm(decl.form)
        if form in (DiceForm.D66, DiceForm.PERCENTILE):
            return Dice(form, 2, 6 if form is DiceForm.D66 else 10)
        problem = None
        if decl.count < 1 or decl.count > _MAX_DICE_COUNT:
            problem = f"{decl.count} dice (1 to {_MAX_DICE_COUNT} are supported)"
        elif decl.sides < 2 or decl.sides > _MAX_SIDES:
            problem = f"dice with {decl.sides} face{'s' if decl.sides != 1 else ''} (2 to {_MAX_SIDES} are supported)"
        elif form is DiceForm.LOWER and (decl.count < 2 or decl.sides**decl.count > _MAX_LOWER_OUTCOMES):
            problem = f"the lower of {decl.count}d{decl.sides} (2 or more dice, at most {_MAX_LOWER_OUTCOMES} outcomes)"
        if problem:
            self.sink.emit(codes.INVALID_DICE, f"{self.where} cannot roll {problem}", decl.span)
            return None
        return Dice(form, decl.count, decl.sides, decl.subtract, decl.floor)

    def _value_key(self, decl: ast.ValueKeyDecl) -> model.ValueKey | None:
        domain = self.read_range(decl.domain, Dice(DiceForm.SUM, 1, 6), plain=True)
        if domain is None:
            return None
        label = decl.label.text if decl.label else decl.name.text
        return model.ValueKey(decl.name.text, label, domain)

    def _enum(self, name: ast.Name, what: str) -> model.EnumType | None:
        enum = self.game.enums.get(name.text)
        if enum is None:
            extra = "" if self.game.periods or name.text != "period" else " (the game header declares no periods)"
            self.sink.emit(codes.UNKNOWN_NAME, f"unknown {what} `{name.text}` in {self.where}{extra}", name.span, did_you_mean(name.text, self.game.enums))
        return enum

    def _keys(self) -> list[model.Key]:
        keys: list[model.Key] = []
        for k in self.decl.keys:
            if any(existing.id == k.name.text for existing in keys):
                self.sink.emit(codes.DUPLICATE_NAME, f"key `{k.name.text}` is declared twice in {self.where}", k.name.span)
                continue
            enum = self._enum(k.type_name, "key type")
            if enum is not None:
                keys.append(model.Key(k.name.text, enum, k.span))
        return keys

    def _columns(self) -> list[model.Column]:
        columns: list[model.Column] = []
        for c in self.decl.columns:
            if any(existing.id == c.name.text for existing in columns):
                self.sink.emit(codes.DUPLICATE_NAME, f"column `{c.name.text}` is declared twice in {self.where}", c.name.span)
                continue
            type_name = c.type_name.text
            col_type = column_type(type_name, model.COLUMN_TYPES, self.game.enums)
            if col_type is None:
                self.sink.emit(
                    codes.UNKNOWN_NAME,
                    f"unknown column type `{type_name}` in {self.where}",
                    c.type_name.span,
                    did_you_mean(type_name, [*model.COLUMN_TYPES, *self.game.enums]),
                )
                continue
            label = c.label.text if c.label else c.name.text.replace("_", " ").capitalize()
            columns.append(model.Column(c.name.text, col_type, label, c.span))
        return columns

    # -- DRMs and conditions

    def _drms(self) -> list[model.Drm]:
        drms: list[model.Drm] = []
        for decl in self.decl.drms:
            if any(d.id == decl.name.text for d in drms):
                self.sink.emit(codes.DUPLICATE_NAME, f"DRM `{decl.name.text}` is declared twice in {self.where}", decl.name.span)
                continue
            when = self._cond(decl.when) if decl.when else None
            if decl.when is not None and when is None:
                continue
            label = decl.label.text if decl.label else decl.name.text.replace("_", " ")
            drms.append(model.Drm(decl.name.text, label, decl.value, when, decl.footnote, decl.span))
        roll = self.decl.roll
        if drms and roll is not None and roll.form in (DiceForm.D66, DiceForm.PERCENTILE) and self.decl.modified is None:
            self.sink.emit(
                codes.DRM_ON_DIGIT_ROLL,
                f"a DRM on a {roll.form} roll has no obvious meaning in {self.where}",
                drms[0].span,
                'say what it does, e.g. `modified "the DRM is added to the two-digit result"`',
            )
        return drms

    def _var(self, name: ast.Name) -> model.ContextVar | None:
        var = self.game.context.get(name.text)
        if var is None:
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"unknown context variable `{name.text}` in {self.where}",
                name.span,
                did_you_mean(name.text, self.game.context) or f"declare it: `context {name.text}: flag`",
            )
        return var

    def _cond(self, cond: ast.Cond) -> model.Condition | None:
        if isinstance(cond, ast.CondFlag):
            var = self._var(cond.var)
            if var is None:
                return None
            if var.type is not model.ContextType.FLAG:
                self.sink.emit(
                    codes.INVALID_CONDITION,
                    f"`{var.id}` is {_kind_phrase(var)}, not a flag",
                    cond.span,
                    f"compare it, e.g. `{var.id} == ...`",
                )
                return None
            return model.Flag(var.id, cond.span)
        if isinstance(cond, ast.CondCompare):
            var = self._var(cond.var)
            value = self._operand(var, cond.operand) if var else None
            if var is None or value is None:
                return None
            op = model.CompareOp(cond.op)
            if var.type in (model.ContextType.ENUM, model.ContextType.FLAG) and op not in (model.CompareOp.EQ, model.CompareOp.NE):
                self.sink.emit(codes.INVALID_CONDITION, f"`{cond.op}` does not apply to `{var.id}`; use `==` or `!=`", cond.span)
                return None
            return model.Compare(var.id, op, value, cond.span)
        if isinstance(cond, ast.CondIn):
            var = self._var(cond.var)
            if var is None:
                return None
            values = [self._operand(var, o) for o in cond.operands]
            if any(v is None for v in values):
                return None
            return model.In(var.id, tuple(v for v in values if v is not None), cond.span)
        if isinstance(cond, ast.CondNot):
            inner = self._cond(cond.inner)
            return model.Not(inner, cond.span) if inner else None
        parts = [self._cond(p) for p in cond.parts]
        if any(p is None for p in parts):
            return None
        kept = tuple(p for p in parts if p is not None)
        return model.All(kept, cond.span) if isinstance(cond, ast.CondAll) else model.Any_(kept, cond.span)

    def _operand(self, var: model.ContextVar, op: ast.Operand) -> model.Operand | None:
        if var.type is model.ContextType.INT and op.kind == "int":
            return int(op.text)
        if var.type is model.ContextType.MONTH and op.kind == "month":
            month = Month.parse(op.text)
            if month is None:
                self.sink.emit(codes.INVALID_MONTH, f"`{op.text}` is not a month", op.span)
            return month
        if var.type is model.ContextType.ENUM and op.kind in ("name", "text"):
            enum = self.game.enums[var.enum or ""]
            member = enum.member(op.text)
            if member is None:
                self.sink.emit(
                    codes.UNKNOWN_NAME,
                    f"`{op.text}` is not a value of `{enum.id}`",
                    op.span,
                    did_you_mean(op.text, [m.id for m in enum.members]),
                )
                return None
            return model.MemberId(member.id)
        kinds = {"int": "a whole number", "month": "a month like `1944-12`", "enum": "one of its values", "flag": "nothing"}
        self.sink.emit(
            codes.INVALID_CONDITION,
            f"`{var.id}` is {_kind_phrase(var)} and cannot be compared with `{op.text}`",
            op.span,
            f"compare it with {kinds[var.type]}",
        )
        return None

    def _footnotes(self, drms: list[model.Drm]) -> list[model.Footnote]:
        notes: dict[int, model.Footnote] = {}
        for f in self.decl.footnotes:
            if f.mark in notes:
                self.sink.emit(codes.DUPLICATE_NAME, f"footnote {f.mark} is declared twice in {self.where}", f.span)
                continue
            notes[f.mark] = model.Footnote(f.mark, f.text.text, f.span)
        for d in drms:
            if d.footnote is not None and d.footnote not in notes:
                self.sink.emit(
                    codes.UNKNOWN_NAME,
                    f"DRM `{d.id}` cites footnote {d.footnote}, which {self.where} does not declare",
                    d.span,
                    did_you_mean(str(d.footnote), [str(m) for m in notes]),
                )
        return [notes[m] for m in sorted(notes)]

    # -- ranges, rows, values

    def read_range(self, text: ast.RangeText, dice: Dice | None, plain: bool = False) -> model.DieRange | None:
        """Read `3-6`, `12+`, `3-`, `01-08`, `9-0` or `5` with the chart's dice conventions."""
        m = _RANGE_RE.match(text.text)
        if not m:  # pragma: no cover - the grammar's RANGE terminal only admits these forms
            self.sink.emit(codes.INVALID_RANGE, f"cannot read range `{text.text}`", text.span)
            return None
        low_text, dash, high_text, plus = m.groups()
        reader = (lambda s: int(s)) if plain or dice is None else dice.read_number
        low = reader(low_text)
        high = reader(high_text) if high_text else None
        bad = low_text if low is None else (high_text if high_text and high is None else None)
        if bad is not None:
            self.sink.emit(
                codes.INVALID_RANGE,
                f"`{bad}` in `{text.text}` is not a result of {dice.text if dice else 'this chart'}",
                text.span,
                "`0` reads as 10 only on 1d10, `00` as 100 only on a percentile roll; zero-padded numbers only on percentile rolls",
            )
            return None
        if plus:
            return model.DieRange(low, None, text.text, text.span)
        if dash and not high_text:
            return model.DieRange(None, low, text.text, text.span)
        if high_text:
            if low is not None and high is not None and low > high:
                self.sink.emit(
                    codes.REVERSED_RANGE,
                    f"range `{text.text}` runs backwards ({low} to {high}) in {self.where}",
                    text.span,
                    f"write `{high}-{low}`" if not plain else None,
                )
                return None
            return model.DieRange(low, high, text.text, text.span)
        return model.DieRange(low, low, text.text, text.span)

    def _row_range(self, text: ast.RangeText | None, row_span: ast.Span) -> tuple[bool, model.DieRange | None]:
        kind = self._kind_cached
        if kind is model.ChartKind.REFERENCE:
            if text is not None:
                self.sink.emit(
                    codes.ROW_SHAPE,
                    f"{self.where} is read by its keys only, so its rows take no range",
                    text.span,
                    "add a `roll` or `value` statement, or delete the range",
                )
                return False, None
            return True, None
        if text is None:
            self.sink.emit(codes.ROW_SHAPE, f"this row of {self.where} has no range", row_span, "write the roll or value range before `:`, e.g. `3-6:`")
            return False, None
        if kind is model.ChartKind.ROLL and self.dice is None:
            return False, None
        rng = self.read_range(text, self.dice, plain=kind is model.ChartKind.VALUE)
        return rng is not None, rng

    @property
    def _kind_cached(self) -> model.ChartKind:
        d = self.decl
        return model.ChartKind.ROLL if d.roll else model.ChartKind.VALUE if d.value_key else model.ChartKind.REFERENCE

    def _key_member(self, key: model.Key, kv: ast.KeyValueText) -> tuple[bool, model.KeyMatch]:
        """A row's key value bound to the key: a member id, a MonthSpan for month keys, or None (`*`)."""
        if kv.kind == "any":
            return True, None
        if key.enum.id == "month" and key.enum.synthetic:
            return self._month_span(key, kv)
        member = key.enum.member(kv.text) if kv.kind != "months" else None
        if member is None:
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"`{kv.text}` is not a value of key `{key.id}` in {self.where}",
                kv.span,
                did_you_mean(kv.text, [m.id for m in key.enum.members] + [a for m in key.enum.members for a in (m.label, *m.aliases)]),
            )
            return False, None
        return True, model.MemberId(member.id)

    def _month_span(self, key: model.Key, kv: ast.KeyValueText) -> tuple[bool, model.KeyMatch]:
        if kv.kind != "months" or kv.first is None:
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"`{kv.text}` is not a month for key `{key.id}` in {self.where}",
                kv.span,
                "write a month `1944-07`, a span `1944-07..1944-09`, or `1945-01+` for that month on",
            )
            return False, None
        first = check_month(self.game, kv.first, kv.span, self.sink)
        last = check_month(self.game, kv.last, kv.span, self.sink) if kv.last is not None and first is not None else None
        if first is None or (kv.last is not None and last is None):
            return False, None
        if last is not None and first > last:
            self.sink.emit(codes.INVALID_MONTH, f"month span `{kv.text}` runs backwards", kv.span, f"write `{kv.last}..{kv.first}`")
            return False, None
        if last == first:
            return True, model.MemberId(first)
        return True, model.MonthSpan(first, last, kv.text)

    def _values(self, values: tuple[ast.ValueText, ...], columns: list[model.Column], span: ast.Span) -> tuple[model.Value, ...] | None:
        if len(values) != len(columns):
            self.sink.emit(
                codes.ROW_SHAPE,
                f"this row gives {len(values)} value{'s' if len(values) != 1 else ''} but {self.where} has {len(columns)} column{'s' if len(columns) != 1 else ''}",
                span,
                "columns: " + ", ".join(f"`{c.id}`" for c in columns) if columns else None,
            )
            return None
        out: list[model.Value] = []
        ok = True
        for v, c in zip(values, columns):
            typed = self.typer.typed(v, c.type, f"column `{c.id}`")
            ok = ok and not isinstance(typed, Bad)
            out.append(None if isinstance(typed, Bad) else typed)
        return tuple(out) if ok else None

    def _row(self, decl: ast.RowDecl, keys: list[model.Key], columns: list[model.Column]) -> model.Row | None:
        if len(decl.keys) != len(self.decl.keys):
            expected = ", ".join(k.name.text for k in self.decl.keys) or "no keys"
            self.sink.emit(
                codes.ROW_SHAPE,
                f"this row gives {len(decl.keys)} key value{'s' if len(decl.keys) != 1 else ''} but {self.where} is keyed by {expected}",
                decl.keys[0].span if decl.keys else decl.span,
                "give one value per key, in the order of the `key` lines (`*` for any)",
            )
            return None
        if len(keys) != len(self.decl.keys):  # a key failed to resolve; already reported
            return None
        members: list[str | None] = []
        ok = True
        for key, kv in zip(keys, decl.keys):
            good, member = self._key_member(key, kv)
            ok = ok and good
            members.append(member)
        good_range, rng = self._row_range(decl.range, decl.span)
        values = self._values(decl.values, columns, decl.span)
        if not (ok and good_range) or values is None:
            return None
        return model.Row(tuple(members), rng, values, decl.span)

    def _grid(self, decl: ast.GridDecl, keys: list[model.Key], columns: list[model.Column]) -> tuple[model.GridLayout | None, list[model.Key]]:
        key = next((k for k in keys if k.id == decl.key.text), None)
        if key is None:
            if self.decl.keys:
                self.sink.emit(
                    codes.UNKNOWN_NAME,
                    f"grid key `{decl.key.text}` is not a key of {self.where}",
                    decl.key.span,
                    did_you_mean(decl.key.text, [k.id for k in keys]),
                )
                return None, keys
            enum = self._enum(decl.key, "grid key")
            if enum is None:
                return None, keys
            key = model.Key(decl.key.text, enum, decl.key.span)
            keys = [*keys, key]
        if len(keys) != 1:
            self.sink.emit(codes.CHART_SHAPE, f"a grid reads one key, but {self.where} has {len(keys)}", decl.span, "use the row form for charts with several keys")
            return None, keys
        col_ids = self._columns_of(key, decl.columns)
        if col_ids is None:
            return None, keys
        grid_rows: list[model.GridRow] = []
        for gr in decl.rows:
            if len(gr.cells) != len(col_ids):
                self.sink.emit(
                    codes.GRID_SHAPE,
                    f"this grid row has {len(gr.cells)} cell{'s' if len(gr.cells) != 1 else ''} but the grid has {len(col_ids)} column{'s' if len(col_ids) != 1 else ''}",
                    gr.span,
                    "one cell per column, separated by `|`; `-` where the result cannot occur",
                    (Label(decl.span, "grid declared here"),),
                )
                continue
            values = self._values(gr.values, columns, gr.span)
            cells = []
            for cell in gr.cells:
                if cell.range is None:
                    cells.append(None)
                    continue
                ok, rng = self._row_range(cell.range, cell.span)
                cells.append(rng if ok else None)
            if values is not None:
                grid_rows.append(model.GridRow(values, tuple(cells), gr.span))
        return model.GridLayout(key.id, tuple(col_ids), tuple(grid_rows)), keys

    def _columns_of(self, key: model.Key, heads: tuple[ast.KeyValueText, ...]) -> list[str] | None:
        """The key values heading a grid's columns: one value each, no repeats, months in order."""
        col_ids: list[str] = []
        for kv in heads:
            good, member = self._key_member(key, kv)
            if not good:
                return None
            if not isinstance(member, str):
                self.sink.emit(codes.ROW_SHAPE, f"`{kv.text}` cannot head a grid column", kv.span, "name a single key value per column")
                return None
            if member in col_ids:
                self.sink.emit(codes.COLUMN_ORDER, f"column `{kv.text}` appears twice in {self.where}", kv.span)
                return None
            if key.enum.synthetic and col_ids and member < col_ids[-1]:
                self.sink.emit(codes.COLUMN_ORDER, f"month column {member} comes after {col_ids[-1]} in {self.where}", kv.span, "print month columns in calendar order")
                return None
            col_ids.append(member)
        return col_ids

    def _availability(
        self, decl: ast.AvailabilityDecl, keys: list[model.Key]
    ) -> tuple[model.AvailabilityLayout | None, list[model.Key], list[model.Row], bool]:
        """Read an availability grid (IA2 R2/R3) into its layout and the rows it implies.

        Each cell becomes rows keyed by (item, column): `✓` -> "automatic" on any roll; a range ->
        "available" on it and "not available" on every other roll; `-` -> "not available".
        Returns (layout, keys, rows, broken).
        """
        if self.dice is None:
            if self.decl.roll is None:
                self.sink.emit(codes.CHART_SHAPE, f"an availability grid needs a `roll` in {self.where}", decl.span, "add e.g. `roll 1d6`")
            return None, keys, [], True
        item_enum = self._enum(decl.row_key, "availability item type")
        col_enum = self._enum(decl.col_key, "availability column key")
        if item_enum is None or col_enum is None:
            return None, keys, [], True
        col_key = model.Key(decl.col_key.text, col_enum, decl.col_key.span)
        columns = self._columns_of(col_key, decl.columns)
        if columns is None:
            return None, keys, [], True
        broken = False
        layout_rows: list[tuple[str, tuple[model.AvailabilityCell, ...]]] = []
        rows: list[model.Row] = []
        item_key = model.Key(decl.row_key.text, item_enum, decl.row_key.span)
        for ar in decl.rows:
            good, item = self._key_member(item_key, ar.key)
            if not good or not isinstance(item, str):
                broken = True
                continue
            cells = list(ar.cells)
            if len(cells) != len(columns):
                if self.decl.partial and len(cells) < len(columns):
                    self.sink.emit(
                        codes.PARTIAL_CHART,
                        f"partial chart `{self._address}`: row `{ar.key.text}` gives {len(cells)} of {len(columns)} cells; {', '.join(columns[len(cells):])} missing",
                        ar.span,
                        f"declared partial: {self.decl.partial.text}",
                    )
                else:
                    self.sink.emit(
                        codes.GRID_SHAPE,
                        f"availability row `{ar.key.text}` has {len(cells)} cell{'s' if len(cells) != 1 else ''} but the grid has {len(columns)} column{'s' if len(columns) != 1 else ''}",
                        ar.span,
                        "one cell per column, separated by `|`: `✓`, a die range, or `-`",
                        (Label(decl.span, "grid declared here"),),
                    )
                    broken = True
                    continue
            layout_cells: list[model.AvailabilityCell] = []
            for column, cell in zip(columns, cells):
                layout_cells.append(self._availability_cell(item_enum, item, column, cell, rows))
            layout_rows.append((item, tuple(layout_cells)))
        listed_items = model.EnumType(item_enum.id, item_enum.label, tuple(m for m in item_enum.members if m.id in {i for i, _ in layout_rows}), item_enum.span, item_enum.fields)
        listed_cols = model.EnumType(col_enum.id, col_enum.label, tuple(m for m in col_enum.members if m.id in columns), col_enum.span, col_enum.fields, col_enum.synthetic)
        keys = [*keys, model.Key(item_key.id, listed_items, item_key.span), model.Key(col_key.id, listed_cols, col_key.span)]
        layout = model.AvailabilityLayout(item_key.id, col_key.id, tuple(columns), tuple(layout_rows))
        return layout, keys, rows, broken

    def _availability_cell(
        self, item_enum: model.EnumType, item: str, column: str, cell: ast.AvailCell, rows: list[model.Row]
    ) -> model.AvailabilityCell:
        span = cell.span
        everything = model.DieRange(None, None, "any", span)
        keys = (model.MemberId(item), model.MemberId(column))
        if cell.kind == "none":
            rows.append(model.Row(keys, everything, (model.Text(model.NOT_AVAILABLE),), span))
            return None
        self._check_available_from(item_enum, item, column, span)
        if cell.kind == "auto":
            rows.append(model.Row(keys, everything, (model.Text(model.AUTOMATIC),), span))
            return model.AvailabilityMark.AUTOMATIC
        assert cell.range is not None
        ok, rng = self._row_range(cell.range, span)
        if not ok or rng is None:
            return None
        rows.append(model.Row(keys, rng, (model.Text(model.AVAILABLE),), span))
        assert self.dice is not None
        not_available = (model.Text(model.NOT_AVAILABLE),)
        if rng.low is not None and rng.low > self.dice.min:
            rows.append(model.Row(keys, model.DieRange(None, rng.low - 1, f"{rng.low - 1}-", span), not_available, span))
        if rng.high is not None and rng.high < self.dice.max:
            rows.append(model.Row(keys, model.DieRange(rng.high + 1, None, f"{rng.high + 1}+", span), not_available, span))
        return rng

    def _check_available_from(self, item_enum: model.EnumType, item: str, column: str, span: ast.Span) -> None:
        """C412: an item offered in a month before its record's `available` month."""
        member = item_enum.member(item)
        available = member.get("available") if member else None
        month = Month.parse(column)
        if member is not None and isinstance(available, Month) and month is not None and month < available:
            self.sink.emit(
                codes.BEFORE_AVAILABLE,
                f"`{member.label}` is offered in {column} but is available only from {available}",
                span,
                "write `-` for that month, or correct the record's `available` month",
            )

    def _derived(self, derive: ast.DeriveDecl) -> model.Chart | None:
        """A variant of another chart with every inner band boundary moved by `bands N`."""
        d = self.decl
        if derive.base.text.casefold() in {h.text.casefold() for h in (d.chart_id, d.slug) if h is not None}:
            self.sink.emit(codes.UNKNOWN_NAME, f"{self.where} derives from itself", derive.base.span, "name the chart it varies")
            return None
        base = self.game.chart(derive.base.text)
        if base is None:
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"{self.where} derives from unknown chart `{derive.base.text}`",
                derive.base.span,
                did_you_mean(derive.base.text, [c.address for c in self.game.charts]),
            )
            return None
        own = [d.roll, d.value_key, *d.keys, *d.columns, *d.rows, *d.grids, *d.availability]
        if any(own):
            self.sink.emit(codes.CHART_SHAPE, f"{self.where} is derived from `{base.address}` and takes its roll, keys, columns and rows from it", derive.span, "delete them, or drop the `derive` line")
            return None
        if base.kind is not model.ChartKind.ROLL or base.dice is None:
            self.sink.emit(codes.CHART_SHAPE, f"`{base.address}` is not read by a roll, so its bands cannot move", derive.span)
            return None
        rows = tuple(r for r in (_shift_bands(r, base.dice, derive.band_shift) for r in base.rows) if r is not None)
        availability = _shift_availability(base.availability, base.dice, derive.band_shift)
        note = f"Derived from {base.address}: every band boundary moved {derive.band_shift:+d}."
        return replace(
            base,
            chart_id=d.chart_id.text if d.chart_id else None,
            slug=d.slug.text if d.slug else None,
            title=d.title.text,
            rule=d.rule.text if d.rule else base.rule,
            footnotes=base.footnotes + tuple(model.Footnote(f.mark, f.text.text, f.span) for f in d.footnotes),
            notes=(note, *(n.text for n in d.notes)),
            partial=d.partial.text if d.partial else base.partial,
            rows=rows,
            grid=None,
            availability=availability,
            source_file=self.path,
            span=d.span,
        )

    @property
    def _address(self) -> str:
        d = self.decl
        return (d.chart_id or d.slug or d.title).text


class Bad:
    """What the typer returns for a cell it reported as not fitting its type."""


BAD = Bad()
_FLAG_WORDS = {"yes": True, "true": True, "no": False, "false": False}
_SLASHED_SHAPES = {model.BuiltinType.PAIR: "`6/3`", model.BuiltinType.TRIPLE: "`2/4/6`", model.BuiltinType.THRESHOLDS: "`-/8/9/11`"}


def column_type(name: str, builtins: tuple[model.BuiltinType, ...], enums: dict[str, model.EnumType]) -> model.ColumnType | None:
    """The type a column or field declares: one of `builtins`, else a user enum, else None.
    (An enum cannot take a builtin type's name; `_add_enum` refuses it.)"""
    for builtin in builtins:
        if builtin == name:
            return builtin
    return model.EnumRef(name) if name in enums else None


class _ValueTyper:
    """Types one written cell against a declared type (a column's or a record field's).

    Collects chart references with their spans so `resolve_game` can check them once every
    chart of the game is known.
    """

    def __init__(self, game: model.Game, sink: Sink) -> None:
        self.game = game
        self.sink = sink
        self.chart_refs: list[tuple[str, ast.Span, str]] = []

    def typed(self, v: ast.ValueText, type_: model.ColumnType, what: str) -> model.Value | Bad:
        """The typed value, or `BAD` after reporting why the cell does not fit `type_`."""
        if v.kind == "none":
            return None
        if isinstance(type_, model.EnumRef):
            return self._as_member(v, type_, what)
        match type_:
            case model.BuiltinType.TEXT:
                return model.Text(v.text) if v.kind == "text" else self._mismatch(v, type_, what, f'quote it: `"{v.text}"`')
            case model.BuiltinType.INT:
                return int(v.text) if v.kind == "int" else self._mismatch(v, type_, what, "write a whole number, or `-` for no value")
            case model.BuiltinType.FLAG:
                if v.kind == "name" and v.text.lower() in _FLAG_WORDS:
                    return _FLAG_WORDS[v.text.lower()]
                return self._mismatch(v, type_, what, "write `yes` or `no`")
            case model.BuiltinType.MONTH:
                if v.kind != "month":
                    return self._mismatch(v, type_, what, "write a month like `1944-07`")
                month = check_month(self.game, v.text, v.span, self.sink)
                return BAD if month is None else month
            case model.BuiltinType.CHARTREF:
                if v.kind != "chart":
                    return self._mismatch(v, type_, what, "write the chart ID in brackets, e.g. `[B6]`")
                self.chart_refs.append((v.text, v.span, what))
                return model.ChartRef(v.text)
            case model.BuiltinType.PAIR | model.BuiltinType.TRIPLE | model.BuiltinType.THRESHOLDS:
                return self._slashed(v, type_, what)
            case _:
                assert_never(type_)

    def _mismatch(self, v: ast.ValueText, type_name: str, what: str, hint: str) -> Bad:
        self.sink.emit(codes.TYPE_MISMATCH, f"{what} holds `{type_name}` values, found `{v.text}`", v.span, hint)
        return BAD

    def _slashed(self, v: ast.ValueText, type_: model.BuiltinType, what: str) -> model.Slashed | Bad:
        if v.kind == "int" and type_ is model.BuiltinType.THRESHOLDS:
            return model.Slashed((int(v.text),))
        if v.kind != "slashed":
            return self._mismatch(v, type_, what, f"write it as {_SLASHED_SHAPES[type_]}")
        parts = model.Slashed(None if p == "-" else int(p) for p in v.text.split("/"))
        want = model.SLASHED_PARTS.get(type_)
        if want is not None and len(parts) != want:
            return self._mismatch(v, type_, what, f"a {type_} has {want} parts separated by `/`")
        if type_ is model.BuiltinType.THRESHOLDS:
            given = [p for p in parts if p is not None]
            if any(b < a for a, b in itertools.pairwise(given)):
                self.sink.emit(
                    codes.THRESHOLD_ORDER,
                    f"threshold list `{v.text}` in {what} goes down: each further result needs a roll at least as high",
                    v.span,
                    "list the minimum roll for 1, 2, 3... results in non-decreasing order; `-` where that many cannot be scored",
                )
                return BAD
        return parts

    def _as_member(self, v: ast.ValueText, type_: model.EnumRef, what: str) -> model.MemberId | Bad:
        enum = self.game.enums.get(type_)
        if enum is None:  # the type itself was unknown and is reported where it was declared
            return BAD
        member = enum.member(v.text) if v.kind in ("name", "text") else None
        if member is not None:
            return model.MemberId(member.id)
        if v.kind in ("name", "text"):
            self.sink.emit(
                codes.UNKNOWN_NAME,
                f"`{v.text}` is not a value of `{enum.id}` ({what})",
                v.span,
                did_you_mean(v.text, [m.id for m in enum.members] + [a for m in enum.members for a in (m.label, *m.aliases)]),
            )
            return BAD
        return self._mismatch(v, enum.id, what, f"write one of the values of `{enum.id}`")


def check_month(game: model.Game, text: str, span: ast.Span, sink: Sink) -> Month | None:
    """The month `text` names; None after reporting one that is not `YYYY-MM` (C406) or lies
    outside the game's calendar (C409)."""
    month = Month.parse(text)
    if month is None:
        sink.emit(codes.INVALID_MONTH, f"`{text}` is not a month", span, "write months as `YYYY-MM` with MM from 01 to 12")
        return None
    if game.calendar and not game.calendar[0] <= month <= game.calendar[1]:
        sink.emit(
            codes.MONTH_OUTSIDE_CALENDAR,
            f"{month} lies outside the calendar of game `{game.id}` ({game.calendar[0]} to {game.calendar[1]})",
            span,
            "check the month, or widen the game's `calendar`",
        )
        return None
    return month


def _kind_phrase(var: model.ContextVar) -> str:
    match var.type:
        case model.ContextType.INT:
            return "an int variable"
        case model.ContextType.MONTH:
            return "a month variable"
        case model.ContextType.FLAG:
            return "a flag"
        case model.ContextType.ENUM:
            return f"a `{var.enum}` variable"
        case _:
            assert_never(var.type)


def _shift_bands(row: model.Row, dice: Dice, shift: int) -> model.Row | None:
    """Move a row's inner boundaries by `shift`, keeping the dice's ends fixed (01 stays 01, 00
    stays 00); a band pushed off either end, or squeezed to nothing, is dropped."""
    r = row.range
    if r is None:
        return row
    moved = _shift_range(r, dice, shift)
    return None if moved is None else replace(row, range=moved)


def _shift_range(r: model.DieRange, dice: Dice, shift: int) -> model.DieRange | None:
    """One range with its inner boundaries moved by `shift`, or None when nothing is left."""
    low, high = r.low, r.high
    if low is not None and low > dice.min:
        low += shift
        if low > dice.max:
            return None
        low = max(dice.min, low)
    if high is not None and high < dice.max:
        high += shift
        if high < dice.min:
            return None
        high = min(dice.max, high)
    if low is not None and high is not None and low > high:
        return None
    return model.DieRange(low, high, format_range(dice, low, high), r.span)


def _shift_availability(layout: model.AvailabilityLayout | None, dice: Dice, shift: int) -> model.AvailabilityLayout | None:
    """The printed cells of a derived availability chart: each die range moved like its rows
    (a range pushed off the dice becomes `-`); `✓` and `-` stay."""
    if layout is None:
        return None

    def cell(c: model.AvailabilityCell) -> model.AvailabilityCell:
        return _shift_range(c, dice, shift) if isinstance(c, model.DieRange) else c

    return replace(layout, rows=tuple((item, tuple(cell(c) for c in cells)) for item, cells in layout.rows))


def format_range(dice: Dice, low: int | None, high: int | None) -> str:
    """Print a range the way the chart's dice print it: `01-40`, `91-00`, `9-0`, `12+`, `3-`."""
    def face(n: int) -> str:
        if dice.form is DiceForm.PERCENTILE:
            return "00" if n == 100 else f"{n:02d}"
        if dice.form is DiceForm.SUM and dice.count == 1 and dice.sides == 10 and n == 10:
            return "0"
        return str(n)

    if low is None and high is None:
        return "any"
    if high is None:
        return f"{face(low)}+"  # type: ignore[arg-type]
    if low is None:
        return f"{face(high)}-"
    return face(low) if low == high else f"{face(low)}-{face(high)}"


def _grid_rows(grid: model.GridLayout | None, keys: list[model.Key]) -> list[model.Row]:
    """Expand a grid into rows: one per non-empty cell, keyed by the cell's column."""
    if grid is None:
        return []
    rows = []
    for gr in grid.rows:
        for member, cell in zip(grid.heads, gr.cells):
            if cell is not None:
                rows.append(model.Row((model.MemberId(member),), cell, gr.values, cell.span))
    return rows
