"""A chart's overlays (`overlay bad_weather "In bad weather" when weather == bad { 1-2: "Aborted" }`,
issue 32): each one's condition bound and its rows read as the chart's own rows are (ranges with the
chart's dice, key values, one cell per output column: C403 otherwise)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.resolve.conditions import ConditionResolver
from compiler.resolve.rows import RowReader
from dsl import ast


def chart_overlays(
    decl: ast.ChartDecl,
    reader: RowReader,
    conditions: ConditionResolver,
    keys: list[model.Key],
    columns: list[model.Column],
    sink: Sink,
    where: str,
) -> tuple[tuple[model.Overlay, ...], bool]:
    """The chart's overlays, and whether every one of them was read whole (False: some row or
    condition failed and was reported, so the chart's checks would only echo it)."""
    if not decl.overlays:
        return (), True
    if reader.kind is model.ChartKind.REFERENCE:
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} is read by its keys only, so an overlay has no roll or value to take over",
            decl.overlays[0].span,
            "add a `roll` or `value` statement, or write the overlay's rows as rows of the chart",
        )
        return (), False
    natural = next((r for r in decl.rows if r.natural), None)
    if natural is not None:
        sink.emit(
            codes.CHART_SHAPE,
            f"{where} has `natural` rows and an overlay: which would be read first is not stated",
            decl.overlays[0].span,
            "write the natural roll's result in the overlay too, or put the overlay in a chart of its own",
        )
        return (), False
    found: list[model.Overlay] = []
    whole = True
    names: set[str] = set()
    for o in decl.overlays:
        if o.name is not None and o.name.text in names:
            sink.emit(codes.DUPLICATE_NAME, f"{where} has two overlays named `{o.name.text}`", o.name.span,
                      "give each overlay its own name")
        if o.name is not None:
            names.add(o.name.text)
        when = conditions.condition(o.when)
        rows = []
        for r in o.rows:
            if r.natural:
                sink.emit(
                    codes.ROW_SHAPE,
                    f"an overlay of {where} reads the roll as its rows do; its rows cannot be `natural`",
                    r.span,
                    "delete `natural`, or write the row in the chart's `rows`",
                )
                continue
            if r.out_of is not None:
                sink.emit(
                    codes.ROW_SHAPE,
                    f"an overlay of {where} gives its rows as ranges, not as weights",
                    r.span,
                    "write the overlay row's range, e.g. `1-2:`",
                )
                continue
            row = reader.row(r, keys, columns)
            if row is not None:
                rows.append(row)
        if not o.rows:
            sink.emit(codes.ROW_SHAPE, f"an overlay of {where} has no rows", o.span,
                      "write the rows the overlay prints over the table, e.g. `1-2: \"Aborted\"`")
        whole = whole and when is not None and len(rows) == len(o.rows) and bool(o.rows)
        if when is not None:
            name = o.name.text if o.name else None
            found.append(model.Overlay(name, o.label.text if o.label else None, when, tuple(rows), o.span))
    return tuple(found), whole
