"""Worked examples: a rulebook's lookup, its inputs as written and what the book states."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.values import Name, Text, ValueText
from dsl.shared import ExpectKind, Span


@dataclass(frozen=True)
class ExpectDecl:
    """One `expect` line: its kind, the column it names (CELL), the value or text it states."""

    kind: ExpectKind
    span: Span
    column: Name | None = None
    value: ValueText | None = None
    text: str = ""  # ROW: the range; MODIFIED, DRM: the number; ODDS: the column label


@dataclass(frozen=True)
class ExampleInput:
    """A named input of an example as written: `key NAME = VALUE` or `set NAME = VALUE`."""

    name: Name
    text: str
    span: Span


@dataclass(frozen=True)
class ExampleDecl:
    """`example NAME "title" { ... }`: a rulebook's worked example, as the inputs of a lookup and
    the results the book prints."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    chart: Name | None
    formula: Name | None  # `formula NAME`: the example computes a formula instead of reading a chart
    keys: tuple[ExampleInput, ...]
    rolls: tuple[Name, ...]  # the natural rolls as typed (`3`, `0`, `00`), with their spans
    when: tuple[Name, ...]
    sets: tuple[ExampleInput, ...]
    drm: int
    attack: int | None
    defense: int | None
    shift: int | None
    follow: bool
    expects: tuple[ExpectDecl, ...]
    contradicts: Text | None
    span: Span
    repeated: tuple[Span, ...] = ()
    aid: bool = False  # printed under its chart in the player aid
