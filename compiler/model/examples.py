"""A rulebook's worked example: the inputs of one lookup (or one walk of a chain) and what the book
says the reader gets. `compiler.checks.examples` evaluates each one against the charts."""

from __future__ import annotations

from compiler.model.values import Value
from dsl.lazy_dataclass import dataclass
from dsl.shared import ExpectKind as ExpectKind
from dsl.shared import Span


@dataclass(frozen=True)
class Expect:
    """One stated result: its kind, the column id (CELL) and typed value (CELL), or the text the
    book prints (ROW: the range; MODIFIED, DRM: the number; ODDS: the column label)."""

    kind: ExpectKind
    span: Span
    column: str | None = None
    value: Value = None
    text: str = ""


@dataclass(frozen=True)
class Example:
    """`example NAME "title" { ... }`: the inputs are those of `chartc lookup` (rolls as typed,
    keys and `--set` values as id or printed label), so an example reads a chart exactly as a
    player at the command line does."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    chart: str  # the address of the chart read first ("" for an example that computes a formula)
    formula: str | None  # the formula it computes, if it computes one
    keys: tuple[tuple[str, str], ...]
    rolls: tuple[str, ...]
    when: tuple[str, ...]
    sets: tuple[tuple[str, str], ...]
    drm: int
    attack: int | None
    defense: int | None
    shift: int | None
    follow: bool
    expects: tuple[Expect, ...]
    contradicts: str | None  # why chartc keeps the charts where the book's example disagrees
    source_file: str  # relative to the charts folder (`ia2/examples.chart`)
    span: Span
    contradicts_span: Span | None = None
    contradicts_statement: Span | None = None  # the whole `contradicts` line (C462's fix deletes it)
    aid: bool = False  # printed under its chart in the player aid
