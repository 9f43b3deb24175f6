"""The book's own inconsistencies, declared as data (`conflict`, `ambiguous`), held against the data:
each is reported citing every place (C480, or the note C481 where the declaration keeps the print
and says why), and a declaration the data no longer matches is C482 (a conflict whose places now
agree, an ambiguous cell the charts hold in none of its readings)."""

from __future__ import annotations

from compiler import model
from compiler.checks.facts import Reading, read_fact, same_value
from compiler.diagnostics import Label, Sink, codes
from compiler.model.text import value_text
from dsl.shared import Span

_WAYS = {2: "two", 3: "three", 4: "four"}


def check_inconsistencies(game: model.Game, sink: Sink) -> None:
    for conflict in game.conflicts:
        _check_conflict(game, conflict, sink)
    for ambiguity in game.ambiguities:
        _check_ambiguity(game, ambiguity, sink)


def _check_conflict(game: model.Game, conflict: model.Conflict, sink: Sink) -> None:
    where = f"conflict `{conflict.id}`"
    readings: list[Reading | None] = []
    for place in conflict.places:
        match place.value:
            case None:
                readings.append(None)
            case model.Stated(value, _, span):
                column = model.Column("place", conflict.type or model.BuiltinType.TEXT, "", span)
                shown = value_text(game, column, value)
                readings.append(Reading(value, shown, span))
            case _:
                assert conflict.type is not None  # a fact gives the conflict its type
                reading = read_fact(game, place.value, conflict.type, where, codes.INCONSISTENCY_RESOLVED, sink)
                if reading is None:
                    return
                readings.append(reading)
    given = [r for r in readings if r is not None]
    if len(given) >= 2 and len(given) == len(readings) and all(same_value(r.value, given[0].value) for r in given):
        sink.emit(
            codes.INCONSISTENCY_RESOLVED,
            f"{where} ({conflict.title}): every place now gives `{given[0].shown}`",
            conflict.places[0].span,
            "delete the conflict: the places agree",
            tuple(Label(r.where, "the data here") for r in given),
        )
        return
    said = "; ".join(
        f"{p.rule} says \u201c{p.says}\u201d" + (f" ({r.shown})" if r is not None else "")
        for p, r in zip(conflict.places, readings, strict=True)
    )
    labels = tuple(Label(p.span, f"{p.rule}") for p in conflict.places[1:]) + tuple(
        Label(r.where, f"the data: {r.shown}")
        for p, r in zip(conflict.places, readings, strict=True)
        if r is not None and not isinstance(p.value, model.Stated)
    )
    message = f"{where} ({conflict.title}): {said}"
    _report(message, conflict.kept, conflict.places[0].span, labels, sink)


def _check_ambiguity(game: model.Game, ambiguity: model.Ambiguity, sink: Sink) -> None:
    where = f"ambiguous print `{ambiguity.id}`"
    held: list[model.Reading] = []
    data: dict[str, Reading] = {}
    for reading in ambiguity.readings:
        agrees = True
        for cell in reading.cells:
            found = data.get(cell.fact.written)
            if found is None:
                type_ = _cell_type(game, cell.fact)
                found = read_fact(game, cell.fact, type_, where, codes.INCONSISTENCY_RESOLVED, sink)
                if found is None:
                    return
                data[cell.fact.written] = found
            agrees = agrees and same_value(found.value, cell.value)
        if agrees:
            held.append(reading)
    printed = f" printed `{ambiguity.printed}`" if ambiguity.printed else ""
    options = " or ".join(f"`{r.label}`" + (" (the charts hold this)" if r in held else "") for r in ambiguity.readings)
    cells = tuple(Label(r.where, f"`{w}` is `{r.shown}` here") for w, r in data.items())
    if not held:
        sink.emit(
            codes.INCONSISTENCY_RESOLVED,
            f"{where} ({ambiguity.title}): the charts hold none of its readings, {options}",
            ambiguity.readings[0].span,
            "transcribe the cells as one of the readings, or declare the reading the charts hold",
            cells,
        )
        return
    ways = _WAYS.get(len(ambiguity.readings), str(len(ambiguity.readings)))
    message = f"{where} ({ambiguity.title}):{printed} reads {ways} ways, {options}"
    labels = tuple(Label(r.span, f"reading `{r.label}`") for r in ambiguity.readings) + cells
    _report(message, ambiguity.kept, ambiguity.span, labels, sink)


def _cell_type(game: model.Game, fact: model.Fact) -> model.ColumnType:
    """The type of the value a reading's fact holds (the resolver typed the reading's values so)."""
    if isinstance(fact, model.CellFact):
        chart = game.chart(fact.chart)
        column = next((c for c in chart.columns if c.id == fact.column), None) if chart is not None else None
        return column.type if column is not None else model.BuiltinType.TEXT
    if isinstance(fact, model.FieldFact):
        field = next((f for f in game.enums[fact.enum].fields if f.id == fact.field), None)
        return field.type if field is not None else model.BuiltinType.TEXT
    return model.BuiltinType.INT


def _report(message: str, kept: str | None, span: Span, labels: tuple[Label, ...], sink: Sink) -> None:
    """C480 while nothing says what is kept; the note C481 with the reason where the print is kept."""
    if kept is not None:
        sink.emit(codes.BOOK_INCONSISTENCY_KEPT, f"{message}; kept as printed: {kept}", span, None, labels)
        return
    sink.emit(
        codes.BOOK_INCONSISTENCY,
        message,
        span,
        'decide what the data keeps and say why: `kept "why"` in the declaration (or correct it in an errata block)',
        labels,
    )
