"""A chart's DRMs and CRT column shifts: values, conditions, per-N steps, exclusive groups, clamps
and caps, and those read from a terrain effects chart."""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.conditions import Cond
from dsl.ast.values import Name, Text
from dsl.shared import GroupMode, Rounding, Span


@dataclass(frozen=True)
class DrmDecl:
    """`drm weather "Weather" +1 when month in [1944-11] [2]`: a DRM, its condition and footnote."""

    name: Name
    label: Text | None
    value: int
    value_span: Span
    when: Cond | None
    footnote: int | None
    span: Span
    per: DrmPerDecl | None = None


@dataclass(frozen=True)
class DrmPerDecl:
    """`per 10 kills round up`: the DRM applies once per `step` of an int context variable."""

    step: int
    var: Name
    rounding: Rounding
    span: Span


@dataclass(frozen=True)
class DrmGroupDecl:
    """`drm_group terrain "Terrain" best { drm ... }`: DRMs of which only one applies."""

    name: Name
    label: Text | None
    mode: GroupMode
    drms: tuple[DrmDecl, ...]
    span: Span


@dataclass(frozen=True)
class CombineDecl:
    """`combine sum` or `combine sum clamp -2 to +3`: how the chart's DRMs add up."""

    clamp_min: int | None
    clamp_max: int | None
    span: Span


@dataclass(frozen=True)
class ModifiedClampDecl:
    """`modified clamp 1 to 10`: modified rolls below 1 read as 1, above 10 as 10."""

    low: int
    high: int
    span: Span


@dataclass(frozen=True)
class ShiftSourceDecl:
    """`from [TEC] column shift by terrain`: a shift read from another chart's column, in the row
    the context variable `by` picks (a terrain effects chart as the one source)."""

    chart: Name
    column: Name
    by: Name
    span: Span


@dataclass(frozen=True)
class ShiftDecl:
    """`shift river "Across a river" -1 when river group terrain`, or a shift `from` a chart."""

    name: Name
    label: Text | None
    value: int | None  # None when read from a chart
    when: Cond | None
    source: ShiftSourceDecl | None
    group: Name | None
    span: Span


@dataclass(frozen=True)
class DrmFromDecl:
    """`drm terrain "Terrain" from [TEC] column drm by terrain`: a DRM per row of a terrain
    effects chart, read from its column."""

    name: Name
    label: Text | None
    source: ShiftSourceDecl
    span: Span


@dataclass(frozen=True)
class ShiftGroupDecl:
    """`shift_group defence "Defence" worst { shift ... }`: of the group's shifts that apply, only
    the worst (or best; `one`: the first) counts, as a `drm_group` for DRMs."""

    name: Name
    label: Text | None
    mode: GroupMode
    shifts: tuple[ShiftDecl, ...]
    span: Span


@dataclass(frozen=True)
class ShiftCapDecl:
    """`shift_cap -2 to +2`: the total column shift is held inside these bounds."""

    low: int
    high: int
    span: Span
