"""CRT column shifts as data: named shifts with conditions, exclusive groups, a cap on the total,
and shifts read from a terrain effects chart (its one source)."""

from __future__ import annotations

from compiler.model.conditions import Condition, GroupMode
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


@dataclass(frozen=True)
class ShiftSource:
    """A shift read from another chart: the column `column` of chart `chart` (a terrain effects
    chart keyed by one enum), in the row of the member the context variable `var` holds.

    `values` is that column, copied from the chart once at resolve time, by member id: the CRT and
    the terrain effects chart print and apply the same numbers because they are the same data.
    """

    chart: str
    chart_title: str
    column: str
    column_label: str
    var: str
    values: tuple[tuple[str, int], ...]
    labels: tuple[tuple[str, str], ...] = ()  # each member's printed label, by id (`woods` -> `Woods`)


@dataclass(frozen=True)
class Shift:
    """A column shift (+ toward the attacker): `value` when `when` holds (or always), or the value
    `source` reads for the context."""

    id: str
    label: str
    value: int
    when: Condition | None
    source: ShiftSource | None
    group: str | None
    span: Span


@dataclass(frozen=True)
class DrmSource:
    """A DRM read from a terrain effects chart's column (`drm terrain "Terrain" from [TEC] column
    drm by terrain`): the chart's DRMs hold one DRM per member with a value, made from `source`."""

    id: str
    label: str
    source: ShiftSource
    span: Span


@dataclass(frozen=True)
class ShiftRules:
    """A CRT's column shifts: each one, which exclusive groups keep only their best or worst, and
    the bounds of the total (applied before the odds rule's own table edge)."""

    shifts: tuple[Shift, ...]
    groups: tuple[tuple[str, GroupMode], ...]  # best or worst: the highest or lowest shift of the group
    cap: tuple[int, int] | None
    span: Span
