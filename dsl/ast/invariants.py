"""Invariants: counts and column sums the rules state, and facts a rulebook prints twice."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.values import Name, Text, ValueText
from dsl.shared import Span


@dataclass(frozen=True)
class FieldEquals:
    """`where FIELD == VALUE`: the records an invariant counts."""

    field: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class CountInvariant:
    """`invariant NAME "TEXT" { count ENUM [where FIELD == VALUE] is N }`: a count the rules
    state, of an enum's records (those whose FIELD is VALUE, with `where`)."""

    name: Name
    text: Text
    enum: Name
    where: FieldEquals | None
    count: int
    span: Span


@dataclass(frozen=True)
class ColumnSumInvariant:
    """`invariant NAME "TEXT" { sum CHART part P per column reaches ENUM.FIELD }`: for every
    column of CHART, the P-th part of its cells summed over all rows reaches the FIELD of the
    ENUM member named like the column (USAAF: each target system can reach its Points Needed)."""

    name: Name
    text: Text
    chart: Name
    part: int
    enum: Name
    field: Name
    span: Span


@dataclass(frozen=True)
class FactKey:
    """`terrain=town` in a cell fact's selector: a key of the chart and its value as written."""

    key: Name
    value: ValueText
    span: Span


@dataclass(frozen=True)
class FactRoll:
    """`3` in a cell fact's selector: the roll (or value) whose row is meant."""

    value: int
    span: Span


@dataclass(frozen=True)
class CellFact:
    """`[TEC] (terrain=town) column shift`: the cell in COLUMN of the one row of CHART that the
    selector's keys (and roll) pick."""

    chart: Name
    select: tuple[FactKey | FactRoll, ...]
    column: Name
    span: Span


@dataclass(frozen=True)
class FieldFact:
    """`family.me262.aircraft`: the FIELD of the ENUM record MEMBER."""

    enum: Name
    member: Name
    field: Name
    span: Span


@dataclass(frozen=True)
class CountFact:
    """`count aircraft where family == me262`: how many records of ENUM (with FIELD == VALUE)."""

    enum: Name
    where: FieldEquals | None
    span: Span


Fact = CellFact | FieldFact | CountFact
"""One statement of a fact a rulebook prints twice."""


@dataclass(frozen=True)
class SameInvariant:
    """`invariant NAME "TEXT" { same FACT as FACT }`: two places in the data that state the same
    fact (a terrain effects chart and the rule text, a family's size and its aircraft) and must
    agree (C417)."""

    name: Name
    text: Text
    left: Fact
    right: Fact
    span: Span


InvariantDecl = CountInvariant | ColumnSumInvariant | SameInvariant
"""A rule the data must obey, checked on every build."""
