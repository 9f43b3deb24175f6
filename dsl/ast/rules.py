"""Rules the book states without a table, as written: limits and allowances (`limit`), and the
book's own inconsistencies: two places that disagree (`conflict`) and print that reads more than one
way (`ambiguous`)."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.declarations import Fact
from dsl.ast.values import Cond, Name, Text, ValueText
from dsl.shared import BoundKind, Span


@dataclass(frozen=True)
class BoundDecl:
    """`at most 4`, `at least 1`, `exactly 8`, `2 to 6`, `unlimited`: what a limit allows."""

    kind: BoundKind
    low: int | None
    high: int | None
    span: Span


@dataclass(frozen=True)
class LimitCaseDecl:
    """One case of a limit: its bound, when it applies (None: always), the rule it cites."""

    bound: BoundDecl
    when: Cond | None
    cite: Text | None
    span: Span


@dataclass(frozen=True)
class LimitDecl:
    """`limit NAME "title" { rule "..." counts "..." at most 4 when ... }`: a count the rules cap
    or allow; the first case whose condition holds applies."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    counts: Text | None
    cases: tuple[LimitCaseDecl, ...]
    span: Span
    repeated: tuple[Span, ...] = ()


@dataclass(frozen=True)
class PlaceDecl:
    """`place "4.6" "Players will be based at one of 36 bases" is 36`: where the book says it
    (a rule section, a chart, a footnote), what it says, and the value it gives: stated (a value)
    or held by the data (a fact)."""

    rule: Text
    says: Text
    value: Fact | ValueText | None
    span: Span


@dataclass(frozen=True)
class ConflictDecl:
    """`conflict NAME "title" { place ... place ... kept "why" }`: the book says two things."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    places: tuple[PlaceDecl, ...]
    kept: Text | None
    span: Span
    repeated: tuple[Span, ...] = ()


@dataclass(frozen=True)
class ReadingFact:
    """`[target_systems] (city=mannheim) column sf is 6/1`: one cell a reading gives."""

    fact: Fact
    value: ValueText
    span: Span


@dataclass(frozen=True)
class ReadingDecl:
    """`reading "SF 6/1, SR 18/9" { ... }`: one way to read the print, as the cells it gives."""

    label: Text
    facts: tuple[ReadingFact, ...]
    span: Span


@dataclass(frozen=True)
class AmbiguousDecl:
    """`ambiguous NAME "title" { printed "6/118/9" reading ... reading ... kept "why" }`."""

    name: Name
    title: Text
    rule: Text | None
    notes: tuple[Text, ...]
    printed: Text | None
    readings: tuple[ReadingDecl, ...]
    kept: Text | None
    span: Span
    repeated: tuple[Span, ...] = ()


@dataclass(frozen=True)
class KeptFindingDecl:
    """`kept C411 at 1944-05 because "why"`: a warning the book's print causes, kept as printed.
    `subject` is where the finding is, as written: months (`1944-05`, `1944-05..1944-06`) or a
    record (`mission.schweinfurt`)."""

    code: Name
    subject: Name
    reason: Text
    span: Span
