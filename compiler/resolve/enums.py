"""Phase 1: enums with their members, labels and aliases, and context variables; phase 2: the
typed fields of enum records (a field may name any enum, so every enum is declared first)."""

from __future__ import annotations

import dataclasses
import re

from compiler import model
from compiler.diagnostics import Applicability, Label, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import declared_twice, unknown_name
from compiler.model.calendar import Month
from compiler.resolve.symbols import SymbolTable, declared_before, unknown
from compiler.resolve.values import Bad, ValueTyper, column_type
from dsl import ast

BUILTIN_NAMES = frozenset(model.BuiltinType)
_BUILTIN_CONTEXT_TYPES = {
    "flag": model.ContextType.FLAG,
    "int": model.ContextType.INT,
    "month": model.ContextType.MONTH,
}


def add_enum(symbols: SymbolTable, decl: ast.EnumDecl, sink: Sink) -> None:
    """Register an enum's members (labels, aliases); record fields are typed later by
    `add_record_fields`, once every enum a field may refer to is known."""
    if decl.name.text in symbols.enums:
        declared_twice(sink, f"enum `{decl.name.text}`", decl.name.span, symbols.enums[decl.name.text].span)
        return
    if decl.name.text in BUILTIN_NAMES:
        sink.emit(
            codes.DUPLICATE_NAME,
            f"enum `{decl.name.text}` has the name of the builtin type `{decl.name.text}`",
            decl.name.span,
            f"rename the enum, e.g. `{decl.name.text}_kind`: a column of type `{decl.name.text}` means the "
            "builtin type",
        )
        return
    members: list[model.Member] = []
    seen: dict[str, ast.Span] = {}
    names_used: dict[str, tuple[str, ast.Span]] = {}
    ids = {m.name.text.casefold(): m.name for m in decl.members}
    for m in decl.members:
        if m.name.text in seen:
            declared_twice(
                sink, f"value `{m.name.text}`", m.name.span, seen[m.name.text], where=f"in enum `{decl.name.text}`"
            )
            continue
        seen[m.name.text] = m.name.span
        label = m.label.text if m.label else m.name.text
        for written in ([m.label] if m.label else []) + list(m.aliases):
            folded = written.text.casefold()
            other = ids.get(folded)
            if other is not None and other.text != m.name.text:  # `a "b" b "a"`: "a" would read as id `a`
                sink.emit(
                    codes.DUPLICATE_NAME,
                    f"`{written.text}` is a printed name of `{m.name.text}` and the id of `{other.text}` in enum "
                    f"`{decl.name.text}`",
                    written.span,
                    "a printed label or alias must not be another value's id: a key written so would pick that value",
                    (Label(other.span, "the value with that id"),),
                )
                continue
            if folded in names_used and names_used[folded][0] != m.name.text:
                sink.emit(
                    codes.DUPLICATE_NAME,
                    f"`{written.text}` names both `{names_used[folded][0]}` and `{m.name.text}` in enum "
                    f"`{decl.name.text}`",
                    written.span,
                    "a printed label or alias must pick one value",
                    (Label(names_used[folded][1], "first used here"),),
                )
            names_used.setdefault(folded, (m.name.text, written.span))
        members.append(model.Member(m.name.text, label, m.span, {}, tuple(a.text for a in m.aliases)))
    label = decl.label.text if decl.label else decl.name.text
    order = _result_order(decl, {m.id for m in members}, sink) if decl.order else ()
    symbols.enums[decl.name.text] = model.EnumType(
        decl.name.text,
        label,
        tuple(members),
        decl.name.span,
        codes=decl.codes is not None,
        order=order,
        order_span=decl.order.span if decl.order else None,
        rule=decl.rule.text if decl.rule else None,
    )


def _result_order(decl: ast.EnumDecl, members: set[str], sink: Sink) -> tuple[str, ...]:
    """The member ids of `order A < B < C`, worst result for the attacker first; `()` (no order)
    when the order is not a strict ranking of every member."""
    assert decl.order is not None
    where = f"in the result order of enum `{decl.name.text}`"
    ok = True
    for op in decl.order.ops:
        if op.text != "<":
            sink.emit(codes.RESULT_ORDER, f"`{op.text}` {where}: results are ranked with `<`", op.span,
                      "write the worst result for the attacker first: `order AE < AR < EX < DR < DE`")
            ok = False
    seen: dict[str, ast.Span] = {}
    for name in decl.order.names:
        if name.text not in members:
            message = f"`{name.text}` is not a value of enum `{decl.name.text}`"
            unknown_name(sink, message, name.text, name.span, members, slot=Slot.NAME)
            ok = False
        elif name.text in seen:
            sink.emit(codes.RESULT_ORDER, f"`{name.text}` is ranked twice {where}", name.span,
                      "rank each result once", (Label(seen[name.text], "first ranked here"),))
            ok = False
        seen.setdefault(name.text, name.span)
    missing = [m.name.text for m in decl.members if m.name.text in members and m.name.text not in seen]
    if missing:
        listed = ", ".join(f"`{m}`" for m in missing)
        sink.emit(codes.RESULT_ORDER, f"{listed} not ranked {where}", decl.order.span,
                  "rank every value of the enum: the design checks compare any two results")
        ok = False
    return tuple(n.text for n in decl.order.names) if ok else ()


def add_record_fields(symbols: SymbolTable, decl: ast.EnumDecl, typer: ValueTyper, sink: Sink) -> None:
    """Type the fields of an enum's records (`{ family: bf109  available: 1944-03 }`)."""
    enum = symbols.enums.get(decl.name.text)
    if enum is None or enum.span != decl.name.span or not (decl.field_decls or any(m.fields for m in decl.members)):
        return
    fields: list[model.Field] = []
    for f in decl.field_decls:
        type_name = f.type_name.text
        if declared_before(sink, fields, "field", f.name, f"in enum `{enum.id}`"):
            continue
        field_type = column_type(type_name, model.FIELD_TYPES, symbols.enums)
        if field_type is None:
            unknown_name(
                sink,
                f"unknown type `{type_name}` for field `{f.name.text}` of enum `{enum.id}`",
                type_name,
                f.type_name.span,
                [*model.FIELD_TYPES, *symbols.enums],
                slot=Slot.NAME,
            )
            continue
        label = f.label.text if f.label else f.name.text.replace("_", " ").capitalize()
        domain = _field_domain(f, field_type, enum.id, sink) if f.domain is not None else None
        span = f.domain.span if f.domain is not None else None
        fields.append(model.Field(f.name.text, field_type, label, f.span, domain, span))
    by_id = {f.id: f for f in fields}
    members = []
    declared = {x.id for x in enum.members}
    for member, mdecl in zip(enum.members, [m for m in decl.members if m.name.text in declared], strict=False):
        values: dict[str, model.Value] = {}
        given: dict[str, ast.Span] = {}
        for fv in mdecl.fields:
            field = by_id.get(fv.name.text)
            if field is None:
                unknown(
                    sink,
                    f"enum `{enum.id}` has no field `{fv.name.text}`",
                    fv.name,
                    by_id,
                    "declare it in a `fields { ... }` block",
                    slot=Slot.NAME,
                )
                continue
            if fv.name.text in values:
                declared_twice(
                    sink,
                    f"field `{fv.name.text}`",
                    fv.name.span,
                    given[fv.name.text],
                    where=f"for `{member.id}`",
                    verb="given",
                )
                continue
            given[fv.name.text] = fv.name.span
            typed = typer.typed(fv.value, field.type, f"field `{field.id}` of `{member.id}`")
            if not isinstance(typed, Bad):
                values[field.id] = typed
        record = {f.id: values.get(f.id) for f in fields}
        unwritten = tuple(f.id for f in fields if f.id not in given)
        members.append(model.Member(member.id, member.label, member.span, record, member.aliases, unwritten))
    symbols.enums[enum.id] = dataclasses.replace(enum, members=tuple(members), fields=tuple(fields))


def _field_domain(
    decl: ast.FieldDecl, field_type: model.ColumnType, enum: str, sink: Sink
) -> tuple[int | None, int | None] | None:
    """An `int` field's declared values (`0-99`, `0+`); C332 on another type or a bad range."""
    assert decl.domain is not None
    written = decl.domain.text
    m = _INT_DOMAIN.match(written)
    if field_type is not model.BuiltinType.INT:
        sink.emit(
            codes.CONTEXT_DOMAIN,
            f"field `{decl.name.text}` of enum `{enum}` holds `{field_type}` values; only an `int` takes a range",
            decl.domain.span,
            "delete the range",
        )
    elif m is None or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
        sink.emit(
            codes.CONTEXT_DOMAIN,
            f"`{written}` is not a range of whole numbers from lowest to highest for field `{decl.name.text}`",
            decl.domain.span,
            "write it lowest first, e.g. `0-99` or `0+`",
        )
    else:
        low = int(m.group(1))
        return low, None if m.group(3) else int(m.group(2) or low)
    return None


def add_context(symbols: SymbolTable, decl: ast.ContextDecl, sink: Sink) -> None:
    name = decl.name.text
    if name in symbols.context:
        declared_twice(sink, f"context variable `{name}`", decl.name.span, symbols.context[name].span)
        return
    type_name = decl.type_name.text
    enum = None
    var_type = _BUILTIN_CONTEXT_TYPES.get(type_name)
    if var_type is None:
        if type_name not in symbols.enums:
            unknown_name(
                sink,
                f"unknown type `{type_name}` for context variable `{name}`",
                type_name,
                decl.type_name.span,
                [*_BUILTIN_CONTEXT_TYPES, *symbols.enums],
                slot=Slot.NAME,
            )
            return
        enum = type_name
        var_type = model.ContextType.ENUM
    label = decl.label.text if decl.label else name
    low, high = _context_domain(symbols, decl, var_type, sink)
    members = tuple(m.id for m in symbols.enums[enum].members) if enum else ()
    within = decl.within.text if decl.within else None
    within_span = decl.within.span if decl.within else None
    symbols.context[name] = model.ContextVar(
        name, var_type, enum, label, decl.name.span, low, high, members, within, within_span
    )


_INT_DOMAIN = re.compile(r"^(-?\d+)(?:-(-?\d+)|(\+))?$")


def _context_domain(
    symbols: SymbolTable, decl: ast.ContextDecl, var_type: model.ContextType, sink: Sink
) -> tuple[int | Month | None, int | Month | None]:
    """The values a context variable can take, for reachability: an int's declared range (`0-300`,
    `0+`, `5`), a month's calendar; None at an end left open (C332 for a bad declaration)."""
    if var_type is model.ContextType.MONTH and symbols.calendar:
        return symbols.calendar
    if decl.domain is None:
        return None, None
    written = decl.domain.text
    m = _INT_DOMAIN.match(written)
    if var_type is not model.ContextType.INT:
        sink.emit(
            codes.CONTEXT_DOMAIN,
            f"context variable `{decl.name.text}` is not an int; only an int takes a range (`{written}`)",
            decl.domain.span,
            "delete the range",
            fix=fixes.delete(decl.domain.span, f"the range `{written}`", Applicability.SAFE),
        )
    elif m is None or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
        sink.emit(
            codes.CONTEXT_DOMAIN,
            f"`{written}` is not a range of whole numbers from lowest to highest for `{decl.name.text}`",
            decl.domain.span,
            "write it lowest first, e.g. `0-300` or `0+`",
            fix=fixes.replace_with(decl.domain.span, f"{m.group(2)}-{m.group(1)}", Slot.RAW, Applicability.SAFE,
                                   old=written) if m is not None else None,
        )
    else:
        low = int(m.group(1))
        return low, None if m.group(3) else int(m.group(2) or low)
    return None, None
