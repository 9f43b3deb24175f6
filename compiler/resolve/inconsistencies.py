"""The book's own inconsistencies as data: `conflict` (two places that say different things) and
`ambiguous` (print that reads more than one way). Their places and readings name facts, bound
here with `compiler.resolve.facts`; whether the data still matches them, and the findings that cite
every place, are checks (`compiler.checks.inconsistencies`: C480-C482)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.diagnostics.messages import declared_twice
from compiler.resolve.facts import bind_fact
from compiler.resolve.symbols import SymbolTable
from compiler.resolve.values import Bad, ValueTyper
from dsl import ast


def conflicts(
    symbols: SymbolTable, decls: list[tuple[str, ast.ConflictDecl]], typer: ValueTyper, sink: Sink
) -> list[model.Conflict]:
    """Every conflict that binds, in source order, each name declared once."""
    seen: dict[str, ast.Span] = {}
    found: list[model.Conflict] = []
    for path, decl in decls:
        if _twice(seen, decl.name, "conflict", sink):
            continue
        _repeated(decl.repeated, f"conflict `{decl.name.text}`", sink)
        conflict = _conflict(symbols, path, decl, typer, sink)
        if conflict is not None:
            found.append(conflict)
    return found


def ambiguities(
    symbols: SymbolTable, decls: list[tuple[str, ast.AmbiguousDecl]], typer: ValueTyper, sink: Sink
) -> list[model.Ambiguity]:
    """Every `ambiguous` declaration that binds, in source order, each name declared once."""
    seen: dict[str, ast.Span] = {}
    found: list[model.Ambiguity] = []
    for path, decl in decls:
        if _twice(seen, decl.name, "ambiguous print", sink):
            continue
        _repeated(decl.repeated, f"ambiguous print `{decl.name.text}`", sink)
        ambiguity = _ambiguity(symbols, path, decl, typer, sink)
        if ambiguity is not None:
            found.append(ambiguity)
    return found


def _twice(seen: dict[str, ast.Span], name: ast.Name, what: str, sink: Sink) -> bool:
    if name.text in seen:
        declared_twice(sink, f"{what} `{name.text}`", name.span, seen[name.text])
        return True
    seen[name.text] = name.span
    return False


def _repeated(spans: tuple[ast.Span, ...], what: str, sink: Sink) -> None:
    for span in spans:
        sink.emit(codes.REPEATED_STATEMENT, f"{what} states this more than once", span, "delete the line")


def _conflict(
    symbols: SymbolTable, path: str, decl: ast.ConflictDecl, typer: ValueTyper, sink: Sink
) -> model.Conflict | None:
    """Two or more places (C483), the facts among them bound and of one type (C483), the values
    stated in words typed as the facts' (or as whole numbers / text when no place is data)."""
    where = f"conflict `{decl.name.text}`"
    if len(decl.places) < 2:
        sink.emit(
            codes.INCONSISTENCY_SHAPE,
            f"{where} cites {len(decl.places)} place{'s' if len(decl.places) != 1 else ''}; a conflict is between two "
            "or more",
            decl.name.span,
            'cite each place the book says it: `place "4.6" "Players will be based at one of 36 bases" is 36`',
        )
        return None
    facts: dict[int, tuple[model.Fact, model.ColumnType]] = {}
    ok = True
    for index, place in enumerate(decl.places):
        if isinstance(place.value, ast.ValueText) or place.value is None:
            continue
        bound = bind_fact(symbols, place.value, where, typer, sink)
        if bound is None:
            ok = False
        else:
            facts[index] = bound
    if not ok:
        return None
    ok, type_ = _one_type(decl, facts, sink)
    if not ok:
        return None
    places: list[model.Place] = []
    for index, place in enumerate(decl.places):
        value: model.Fact | model.Stated | None = None
        if index in facts:
            value = facts[index][0]
        elif isinstance(place.value, ast.ValueText):
            typed = _stated(place.value, type_, bool(facts), typer, where)
            if isinstance(typed, Bad):
                return None
            value = model.Stated(typed, place.value.text, place.value.span)
        places.append(model.Place(place.rule.text, place.says.text, value, place.span))
    return model.Conflict(
        decl.name.text,
        decl.title.text,
        decl.rule.text if decl.rule else None,
        tuple(n.text for n in decl.notes),
        tuple(places),
        type_,
        decl.kept.text if decl.kept else None,
        path,
        decl.span,
    )


def _stated(
    written: ast.ValueText, type_: model.ColumnType | None, typed_by_data: bool, typer: ValueTyper, where: str
) -> model.Value | Bad:
    """A value a place states in words: typed as the data's where a place is data; where every place
    states its value in words, a whole number stays one and anything else is text (`"no limit"`)."""
    if typed_by_data and type_ is not None:
        return typer.typed(written, type_, where)
    if written.kind is ast.ValueKind.INT:
        return int(written.text)
    return model.Text(written.text)


def _one_type(
    decl: ast.ConflictDecl, facts: dict[int, tuple[model.Fact, model.ColumnType]], sink: Sink
) -> tuple[bool, model.ColumnType | None]:
    """Whether the places' values can be compared (not after C483), and their type: the facts' (which
    must agree), else whole numbers when every stated value is one, else text; None when no place
    gives a value."""
    types = {t for _, t in facts.values()}
    if len(types) > 1:
        (first, first_type), *rest = facts.values()
        other = next((f, t) for f, t in rest if t != first_type)
        sink.emit(
            codes.INCONSISTENCY_SHAPE,
            f"conflict `{decl.name.text}` compares `{first.written}` (`{first_type}`) with `{other[0].written}` "
            f"(`{other[1]}`)",
            first.span,
            "give every place a value of one type: a cell with a cell of the same column type, a count with an `int`",
            (Label(other[0].span, f"`{other[1]}` here"),),
        )
        return False, None
    if types:
        return True, types.pop()
    stated = [p.value for p in decl.places if isinstance(p.value, ast.ValueText)]
    if not stated:
        return True, None
    if all(v.kind is ast.ValueKind.INT for v in stated):
        return True, model.BuiltinType.INT
    return True, model.BuiltinType.TEXT


def _ambiguity(
    symbols: SymbolTable, path: str, decl: ast.AmbiguousDecl, typer: ValueTyper, sink: Sink
) -> model.Ambiguity | None:
    """Two readings or more (C483), each giving the same cells (C483), each cell's value typed as its fact's."""
    where = f"ambiguous print `{decl.name.text}`"
    if len(decl.readings) < 2:
        sink.emit(
            codes.INCONSISTENCY_SHAPE,
            f"{where} gives {len(decl.readings)} reading{'s' if len(decl.readings) != 1 else ''}; print is "
            "ambiguous when it reads two ways or more",
            decl.name.span,
            'give each reading: `reading "SF 6/1, SR 18/9" { [T] (city=mannheim) column sf is 6/1 ... }`',
        )
        return None
    readings: list[model.Reading] = []
    for reading in decl.readings:
        cells: list[model.ReadingCell] = []
        for cell in reading.facts:
            bound = bind_fact(symbols, cell.fact, where, typer, sink)
            if bound is None:
                return None
            fact, type_ = bound
            typed = typer.typed(cell.value, type_, where)
            if isinstance(typed, Bad):
                return None
            cells.append(model.ReadingCell(fact, typed, cell.value.text, cell.span))
        readings.append(model.Reading(reading.label.text, tuple(cells), reading.span))
    first = readings[0]
    cells_of = [sorted(c.fact.written for c in r.cells) for r in readings]
    for bound_reading, written in zip(readings, cells_of, strict=True):
        if written != cells_of[0] or not written:
            sink.emit(
                codes.INCONSISTENCY_SHAPE,
                f"reading `{bound_reading.label}` of {where} gives no cell"
                if not written
                else f"reading `{bound_reading.label}` of {where} gives other cells than reading `{first.label}`",
                bound_reading.span,
                "each reading gives the same cells, each with the value it reads",
                (Label(first.span, f"reading `{first.label}`"),),
            )
            return None
    return model.Ambiguity(
        decl.name.text,
        decl.title.text,
        decl.rule.text if decl.rule else None,
        tuple(n.text for n in decl.notes),
        decl.printed.text if decl.printed else None,
        tuple(readings),
        decl.kept.text if decl.kept else None,
        path,
        decl.span,
    )
