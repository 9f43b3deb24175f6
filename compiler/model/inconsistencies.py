"""The book's own inconsistencies, declared as data: two places that say different things
(`conflict`) and print that reads more than one way (`ambiguous`). `compiler.checks.inconsistencies`
reports each one, citing every place (C480, or C481 where the transcription keeps the print with a
reason), and says when a declaration no longer matches the data (C482). A warning the book's print
causes is kept as printed with `kept CODE at SUBJECT because "why"` (`KeptFinding`): a note then
(C484), and C485 where no such finding is found."""

from __future__ import annotations

import enum

from compiler.model.facts import Fact
from compiler.model.types import ColumnType
from compiler.model.values import Value
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


@dataclass(frozen=True)
class Stated:
    """A value a place states in words, typed like the data it is compared with (`is 36`)."""

    value: Value
    written: str
    span: Span


@dataclass(frozen=True)
class Place:
    """Where the book says it (`rule`: a section, a chart, a footnote), what it says, and the value
    it gives: stated in words, held by the data (a fact), or not given (None)."""

    rule: str
    says: str
    value: Fact | Stated | None
    span: Span


@dataclass(frozen=True)
class Conflict:
    """`conflict`: two or more places of the book that disagree. `type` is the type of the values
    they give (None when no place gives one); `kept` why the transcription keeps the print."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    places: tuple[Place, ...]
    type: ColumnType | None
    kept: str | None
    source_file: str
    span: Span


@dataclass(frozen=True)
class ReadingCell:
    """One cell a reading gives: the fact (a chart's cell, a record's field) and its value then."""

    fact: Fact
    value: Value
    written: str
    span: Span


@dataclass(frozen=True)
class Reading:
    """One way to read the print, as the cells it gives."""

    label: str
    cells: tuple[ReadingCell, ...]
    span: Span


@dataclass(frozen=True)
class Ambiguity:
    """`ambiguous`: print that reads more than one way; the data holds one reading (the check says which)."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    printed: str | None
    readings: tuple[Reading, ...]
    kept: str | None
    source_file: str
    span: Span


class KeptSubject(enum.Enum):
    """What a kept finding's `at` names: months of the calendar, or a record (`enum.member`)."""

    MONTHS = "months"
    RECORD = "record"


# The warnings a `kept` statement may keep, and what its `at` names: C411's months no period covers
# (or that two periods share), C412's record dated before the item it names is available.
KEPT_SUBJECTS: dict[str, KeptSubject] = {"C411": KeptSubject.MONTHS, "C412": KeptSubject.RECORD}


@dataclass(frozen=True)
class KeptFinding:
    """`kept C411 at 1944-05 because "why"`: the finding `code` at `subject` (months as written,
    `1944-05` or `1944-05..1944-06`, or a record `enum.member`) is the book's own, kept as printed."""

    code: str
    subject: str
    reason: str
    source_file: str
    span: Span
