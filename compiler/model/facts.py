"""Facts the data states: a chart's cell, a record's field, a count of records, the number a limit
sets, a formula's value, a chart's DRM. Two facts a rulebook prints twice are held equal by a
`same` invariant (C417); a fact is one place of a `conflict` or one cell of an `ambiguous` reading.
Each is read on the built game by `compiler.checks.facts`."""

from __future__ import annotations

from compiler.model.calendar import Month
from compiler.model.values import MemberId, Value
from dsl.lazy_dataclass import dataclass
from dsl.shared import CompareOp, Span


@dataclass(frozen=True)
class FieldTest:
    """`family == fw190` (or `!=`) in `count ... where`: a record passes when its field compares so."""

    field: str
    op: CompareOp
    value: Value

    def passes(self, record_value: Value) -> bool:
        same = record_value == self.value
        return same if self.op is CompareOp.EQ else not same


@dataclass(frozen=True)
class CellFact:
    """A chart's cell: the one row of `chart` whose keys match `keys` (key id, member id) and, with
    `roll`, whose range holds it; the cell in `column`. The row is found on the built chart (after
    errata), by the check."""

    chart: str
    keys: tuple[tuple[str, str], ...]
    roll: int | None
    column: str
    written: str  # the fact as the invariant writes it, for messages
    span: Span


@dataclass(frozen=True)
class FieldFact:
    """The `field` of the `enum` record `member`."""

    enum: str
    member: str
    field: str
    written: str
    span: Span


@dataclass(frozen=True)
class CountFact:
    """How many records of `enum` pass every test of `where` (every record when it is empty)."""

    enum: str
    where: tuple[FieldTest, ...]
    written: str
    span: Span


# A context as a fact gives it: context variable id -> a flag, an int, a month or a member id.
FactContext = tuple[tuple[str, bool | int | Month | MemberId], ...]


@dataclass(frozen=True)
class LimitFact:
    """The number `limit` sets in `context` (the bound's one number: `at most 4` is 4)."""

    limit: str
    context: FactContext
    written: str
    span: Span


@dataclass(frozen=True)
class FormulaFact:
    """The value of `formula` computed in `context`."""

    formula: str
    context: FactContext
    written: str
    span: Span


@dataclass(frozen=True)
class DrmFact:
    """The value of DRM `drm` of `chart` (`drm [B12] agile`: +2)."""

    chart: str
    drm: str
    written: str
    span: Span


Fact = CellFact | FieldFact | CountFact | LimitFact | FormulaFact | DrmFact
