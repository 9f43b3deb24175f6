"""Derived charts (`derive from R7 bands +1`): the order charts resolve in, and the bands moved."""

from __future__ import annotations

from dataclasses import replace

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.model.dice import Dice, DiceForm
from compiler.resolve.symbols import SymbolTable
from dsl import ast


def derive_order(decls: list[tuple[str, ast.ChartDecl]]) -> list[tuple[str, ast.ChartDecl]]:
    """Charts in resolution order: plain charts first, then each derived chart after its base
    (a chain `c <- b <- a` resolves a, b, c; a cycle or a missing base keeps source order)."""
    ordered = [pd for pd in decls if pd[1].derive is None]
    pending = [pd for pd in decls if pd[1].derive is not None]
    known = {h for _, d in ordered for h in _handles(d)}
    while pending:
        ready = [pd for pd in pending if _base(pd[1]) in known]
        if not ready:
            return ordered + pending
        ordered += ready
        known.update(h for _, d in ready for h in _handles(d))
        taken = {id(pd) for pd in ready}
        pending = [pd for pd in pending if id(pd) not in taken]
    return ordered


def _handles(decl: ast.ChartDecl) -> set[str]:
    return {h.text.casefold() for h in (decl.chart_id, decl.slug) if h is not None}


def _base(decl: ast.ChartDecl) -> str | None:
    return decl.derive.base.text.casefold() if decl.derive is not None else None


def derived_chart(symbols: SymbolTable, decl: ast.ChartDecl, path: str, sink: Sink, where: str) -> model.Chart | None:
    """A variant of another chart with every inner band boundary moved by `bands N`."""
    d = decl
    derive = decl.derive
    assert derive is not None
    if derive.base.text.casefold() in {h.text.casefold() for h in (d.chart_id, d.slug) if h is not None}:
        sink.emit(codes.UNKNOWN_NAME, f"{where} derives from itself", derive.base.span, "name the chart it varies")
        return None
    base = symbols.chart_named(derive.base, sink, f"{where} derives from unknown chart `{derive.base.text}`")
    if base is None:
        return None
    own = [d.roll, d.value_key, *d.keys, *d.columns, *d.rows, *d.grids, *d.availability]
    if any(own):
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} is derived from `{base.address}` and takes its roll, keys, columns and rows from it",
            derive.span,
            "delete them, or drop the `derive` line",
        )
        return None
    if base.kind is not model.ChartKind.ROLL or base.dice is None:
        sink.emit(codes.CHART_SHAPE, f"`{base.address}` is not read by a roll, so its bands cannot move", derive.span)
        return None
    if base.arithmetic:  # its bands hold the roll after its steps, not the dice's faces the ends are
        why = f"`{base.address}` reads its roll after arithmetic ({', '.join(s.text for s in base.arithmetic)})"
        sink.emit(codes.CHART_SHAPE, f"{why}, so its bands cannot move", derive.span)
        return None
    rows = tuple(r for r in (_shift_bands(r, base.dice, derive.band_shift) for r in base.rows) if r is not None)
    errata = base.errata
    if errata is not None:
        errata = replace(errata, removed_rows=_shift_removed(errata, base.dice, derive.band_shift))
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
        partial_span=d.partial_span if d.partial else None,  # a base's `partial` is fixed at the base
        aid_chance=base.aid_chance if d.aid_chance is None else d.aid_chance,
        rows=rows,
        errata=errata,
        grid=None,
        availability=availability,
        source_file=path,
        span=d.span,
    )


def _shift_bands(row: model.Row, dice: Dice, shift: int) -> model.Row | None:
    """Move a row's inner boundaries by `shift`, keeping the dice's ends fixed (01 stays 01, 00
    stays 00); a band pushed off either end, or squeezed to nothing, is dropped."""
    r = row.range
    if r is None:
        return row
    moved = _shift_range(r, dice, shift)
    return None if moved is None else _shifted_print(replace(row, range=moved), dice, shift)


def _shifted_print(row: model.Row, dice: Dice, shift: int) -> model.Row:
    """What the print had for a row an errata of the base changed, as the derived chart reads it:
    the base's printed range moved like the row (the derived chart as printed is derived from the
    base as printed); a printed band squeezed to nothing makes the row one the errata added."""
    if not row.errata or row.added or row.printed_range is None or row.range is None:
        return row
    low, high = dice.read_range(row.printed_range)
    if low is None and high is None:
        return row
    printed = _shift_range(model.DieRange(low, high, row.printed_range, row.range.span), dice, shift)
    if printed is None:
        return replace(row, printed_range=None, printed_values=None, added=True)
    return replace(row, printed_range=printed.printed)


def _shift_removed(errata: model.ChartErrata, dice: Dice, shift: int) -> tuple[model.Row, ...]:
    """The base's rows an errata removed, moved as the derived chart moves its rows."""
    return tuple(r for r in (_shift_bands(row, dice, shift) for row in errata.removed_rows) if r is not None)


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


def _shift_availability(
    layout: model.AvailabilityLayout | None, dice: Dice, shift: int
) -> model.AvailabilityLayout | None:
    """The printed cells of a derived availability chart: each die range moved like its rows
    (a range pushed off the dice becomes `-`); `✓` and `-` stay."""
    if layout is None:
        return None

    def cell(c: model.AvailabilityCell) -> model.AvailabilityCell:
        return _shift_range(c, dice, shift) if isinstance(c, model.DieRange) else c

    # rows the base gives short are reported on the base, where they are written
    return replace(
        layout, rows=tuple((item, tuple(cell(c) for c in cells)) for item, cells in layout.rows), short_rows=()
    )


def format_range(dice: Dice, low: int | None, high: int | None) -> str:
    """Print a range the way the chart's dice print it: `01-40`, `91-00`, `9-0`, `12+`, `3-`."""

    def face(n: int) -> str:
        if dice.form in (DiceForm.PERCENTILE, DiceForm.LOWER_TENS):
            return "00" if n == 100 else f"{n:02d}"
        if dice.form is DiceForm.SUM and dice.count == 1 and dice.sides == 10 and n == 10:
            return "0"
        return str(n)

    if low is None and high is None:
        return "any"
    if low is None:
        assert high is not None
        return f"{face(high)}-"
    if high is None:
        return f"{face(low)}+"
    return face(low) if low == high else f"{face(low)}-{face(high)}"
