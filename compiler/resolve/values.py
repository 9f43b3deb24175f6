"""Typing a written cell against its declared type (a column's, a record field's, an invariant's).

The typer dispatches on the type with `match`, so an enum may be named like anything but a
builtin type (`enum enum` is fine; `enum flag` is refused where it is declared).
"""

from __future__ import annotations

import itertools
from typing import assert_never

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.fixes import Applicability, Fix, Slot, replace_with
from compiler.diagnostics.messages import not_a_value_of
from compiler.model.calendar import Month
from compiler.resolve.chains import chain_value
from compiler.resolve.symbols import BAD as BAD
from compiler.resolve.symbols import Bad as Bad
from compiler.resolve.symbols import SymbolTable
from dsl import ast
from dsl.source_text import quote

_FLAG_WORDS = {"yes": True, "true": True, "no": False, "false": False}
_SLASHED_SHAPES = {
    model.BuiltinType.PAIR: "`6/3`",
    model.BuiltinType.TRIPLE: "`2/4/6`",
    model.BuiltinType.THRESHOLDS: "`-/8/9/11`",
}


def column_type(
    name: str, builtins: tuple[model.BuiltinType, ...], enums: dict[str, model.EnumType]
) -> model.ColumnType | None:
    """The type a column or field declares: one of `builtins`, else a user enum, else None.
    (An enum cannot take a builtin type's name; `_add_enum` refuses it.)"""
    for builtin in builtins:
        if builtin == name:
            return builtin
    return model.EnumRef(name) if name in enums else None


class ValueTyper:
    """Types one written cell against a declared type (a column's or a record field's).

    Collects chart references with their spans so `resolve_game` can check them once every
    chart of the game is known.
    """

    def __init__(self, symbols: SymbolTable, sink: Sink) -> None:
        self.symbols = symbols
        self.sink = sink
        self.chart_refs: list[tuple[str, ast.Span, str, Slot]] = []  # the span's slot: `[B6]` or `B6` alone

    def typed(self, v: ast.ValueText, type_: model.ColumnType, what: str) -> model.Value | Bad:
        """The typed value, or `BAD` after reporting why the cell does not fit `type_`."""
        if v.kind is ast.ValueKind.NONE:
            return None
        if v.kind is ast.ValueKind.CHAIN:
            return chain_value(self, v, type_, what)
        if v.kind is ast.ValueKind.CHOICE:
            return self._choice(v, type_, what)
        if isinstance(type_, model.EnumRef):
            return self._as_member(v, type_, what)
        match type_:
            case model.BuiltinType.TEXT:
                if v.kind is ast.ValueKind.TEXT:
                    return model.Text(v.text)
                quoted = (  # the words as written, made a string: a `[B6]` in a text column is no such slip
                    replace_with(v.span, v.text, Slot.STRING, Applicability.SAFE, f"quote it: `{quote(v.text)}`")
                    if v.kind is not ast.ValueKind.CHART
                    else None
                )
                return self._mismatch(v, type_, what, f"quote it: `{quote(v.text)}`", quoted)
            case model.BuiltinType.INT:
                return (
                    int(v.text)
                    if v.kind is ast.ValueKind.INT
                    else self._mismatch(v, type_, what, "write a whole number, or `-` for no value")
                )
            case model.BuiltinType.FLAG:
                if v.kind is ast.ValueKind.NAME and v.text.lower() in _FLAG_WORDS:
                    return _FLAG_WORDS[v.text.lower()]
                return self._mismatch(v, type_, what, "write `yes` or `no`")
            case model.BuiltinType.MONTH:
                if v.kind is not ast.ValueKind.MONTH:
                    return self._mismatch(v, type_, what, "write a month like `1944-07`")
                month = check_month(self.symbols, v.text, v.span, self.sink)
                return BAD if month is None else month
            case model.BuiltinType.CHARTREF:
                if v.kind is not ast.ValueKind.CHART:
                    return self._mismatch(v, type_, what, "write the chart ID in brackets, e.g. `[B6]`")
                self.chart_refs.append((v.text, v.span, what, Slot.CHART_REF))
                return model.ChartRef(v.text, span=v.span)
            case model.BuiltinType.PAIR | model.BuiltinType.TRIPLE | model.BuiltinType.THRESHOLDS:
                return self._slashed(v, type_, what)
            case _:
                assert_never(type_)

    def _choice(self, v: ast.ValueText, type_: model.ColumnType, what: str) -> model.Choice | Bad:
        """`one of [a, b]`: two or more different plain values of the type (C455 otherwise)."""
        nested = next((o for o in v.options if o.kind in (ast.ValueKind.CHAIN, ast.ValueKind.CHOICE)), None)
        if nested is not None:
            self.sink.emit(
                codes.CHOICE_SHAPE,
                f"a choice in {what} offers `{nested.text}`: the options of a choice are plain values",
                nested.span,
                "write the outcomes themselves; a result that is rolled for is a roll in the cell (`-> 1d3 { ... }`)",
            )
            return BAD
        typed = [self.typed(o, type_, what) for o in v.options]
        if any(isinstance(t, Bad) for t in typed):
            return BAD
        options = tuple(t for t in typed if not isinstance(t, Bad))
        repeated = next((o for i, o in enumerate(v.options) if options[i] in options[:i]), None)
        if len(options) < 2 or repeated is not None:
            self.sink.emit(
                codes.CHOICE_SHAPE,
                f"a choice in {what} offers `{repeated.text}` twice"
                if repeated is not None
                else f"a choice in {what} offers one outcome only",
                repeated.span if repeated is not None else v.span,
                "offer two or more different outcomes, or write the one outcome as the cell",
            )
            return BAD
        return model.Choice(options, v.span)

    def _mismatch(self, v: ast.ValueText, type_name: str, what: str, hint: str, fix: Fix | None = None) -> Bad:
        message = f"{what} holds `{type_name}` values, found `{v.text}`"
        self.sink.emit(codes.TYPE_MISMATCH, message, v.span, hint, fix=fix)
        return BAD

    def _slashed(self, v: ast.ValueText, type_: model.BuiltinType, what: str) -> model.Slashed | Bad:
        if v.kind is ast.ValueKind.INT and type_ is model.BuiltinType.THRESHOLDS:
            return model.Slashed((int(v.text),))
        if v.kind is not ast.ValueKind.SLASHED:
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
                    "list the minimum roll for 1, 2, 3... results in non-decreasing order; `-` where that many "
                    "cannot be scored",
                )
                return BAD
        return parts

    def _as_member(self, v: ast.ValueText, type_: model.EnumRef, what: str) -> model.MemberId | Bad:
        enum = self.symbols.enums.get(type_)
        if enum is None:  # the type itself was unknown and is reported where it was declared
            return BAD
        member = enum.member(v.text) if v.kind in ("name", "text") else None
        if member is not None:
            return model.MemberId(member.id)
        if v.kind in ("name", "text"):
            not_a_value_of(self.sink, v.text, f"`{enum.id}`", v.span, enum.spellings, f" ({what})", slot=Slot.VALUE)
            return BAD
        return self._mismatch(v, enum.id, what, f"write one of the values of `{enum.id}`")


def parse_month(text: str, span: ast.Span, sink: Sink) -> Month | None:
    """The month `text` names; None after reporting one that is not `YYYY-MM` (C406)."""
    month = Month.parse(text)
    if month is None:
        sink.emit(
            codes.INVALID_MONTH, f"`{text}` is not a month", span, "write months as `YYYY-MM` with MM from 01 to 12"
        )
    return month


def check_month(symbols: SymbolTable, text: str, span: ast.Span, sink: Sink) -> Month | None:
    """The month `text` names; None after reporting one that is not `YYYY-MM` (C406) or lies
    outside the game's calendar (C409)."""
    month = parse_month(text, span, sink)
    if month is None:
        return None
    if symbols.calendar and not symbols.calendar[0] <= month <= symbols.calendar[1]:
        sink.emit(
            codes.MONTH_OUTSIDE_CALENDAR,
            f"{month} lies outside the calendar of game `{symbols.id}` ({symbols.calendar[0]} to "
            f"{symbols.calendar[1]})",
            span,
            "check the month, or widen the game's `calendar`",
        )
        return None
    return month
