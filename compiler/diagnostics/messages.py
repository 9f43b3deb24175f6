"""Message texts shared by many diagnostics, so one finding always reads the same way.

The families: a name declared twice (C202, with the same "first declared here" label), an unknown
name with a did-you-mean (C201), a value that is not one of an enum's (C201); and numbers in
messages, which stay short however large the input's numbers are.
"""

from __future__ import annotations

from collections.abc import Iterable

from compiler.diagnostics import codes
from compiler.diagnostics.core import Label, Sink
from compiler.diagnostics.fixes import Slot, rename
from compiler.diagnostics.suggest import suggestion
from dsl.shared import Span

# Numbers beyond this many digits are described, not printed: Python refuses to print integers
# of more than 4,300 digits, and nobody reads a 40-digit DRM anyway.
_MAX_DIGITS = 12
_LIMIT = 10**_MAX_DIGITS


def number(n: int) -> str:
    """`n` as digits, or `more than 10^12` / `less than -10^12` when it is longer than that."""
    if n >= _LIMIT:
        return f"more than 10^{_MAX_DIGITS}"
    if n <= -_LIMIT:
        return f"less than -10^{_MAX_DIGITS}"
    return str(n)


def signed(n: int) -> str:
    """`n` with its sign (`+2`, `-1`, `+0`), bounded like `number`."""
    return number(n) if abs(n) >= _LIMIT or n < 0 else f"+{n}"


def declared_twice(
    sink: Sink,
    what: str,
    span: Span,
    first: Span | None,
    help: str | None = None,
    *,
    where: str = "",
    verb: str = "declared",
) -> None:
    """C202: `what` (e.g. "enum `aircraft`") is declared (or given) twice `where` (e.g. "in chart
    `R4`"); the label points at the first."""
    labels = (Label(first, f"first {verb} here"),) if first is not None else ()
    sink.emit(codes.DUPLICATE_NAME, f"{what} is {verb} twice" + (f" {where}" if where else ""), span, help, labels)


def unknown_name(
    sink: Sink,
    message: str,
    name: str,
    span: Span,
    known: Iterable[str],
    fallback: str | None = None,
    *,
    slot: Slot | None = None,
) -> None:
    """C201: `message` about the unknown `name`, with the closest of `known` as help; with `slot`
    (what the grammar accepts at `span`, which is exactly the name as written), also as a fix."""
    pool = tuple(known)
    help, close = suggestion(name, pool)
    fix = rename(span, name, close, slot, pool) if slot is not None else None
    sink.emit(codes.UNKNOWN_NAME, message, span, help or fallback, fix=fix)


def not_a_value_of(
    sink: Sink, written: str, of: str, span: Span, known: Iterable[str], where: str = "", *, slot: Slot | None = None
) -> None:
    """C201: `written` is not a value of `of` (an enum "`side`", a key "key `side`"); `where` adds
    e.g. " (column `r`)"; the closest of `known` is the help, and with `slot` (see `unknown_name`)
    the fix: a label is written quoted (`"Piston-engined"`)."""
    unknown_name(sink, f"`{written}` is not a value of {of}{where}", written, span, known, slot=slot)


def cell_count_mismatch(sink: Sink, what: str, cells: int, columns: int, span: Span, help: str, grid: Span) -> None:
    """C401: `what` (e.g. "this line") has `cells` cells but its grid has `columns` columns; the
    label points at the grid."""
    plural = ("s" if cells != 1 else "", "s" if columns != 1 else "")
    sink.emit(
        codes.GRID_SHAPE,
        f"{what} has {cells} cell{plural[0]} but the grid has {columns} column{plural[1]}",
        span,
        help,
        (Label(grid, "grid declared here"),),
    )
