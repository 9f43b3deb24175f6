"""CRT design analysis (`chartc analyze`): per column and DRM, the exact chance of each result and
the expected value of each integer field of the results (step losses).

Chances come from the one outcome model (`compiler.engine.chances`): a cell's figure here is the sum of
the chances of the rows that print that result, so `chartc odds` and this analysis agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from compiler import model
from compiler.engine.chances import chances, drm_values
from compiler.model.crt import CrtShape


@dataclass(frozen=True)
class ResultChance:
    """One result (member id = its code) and its exact chance in one column at one DRM."""

    member: str
    probability: Fraction


@dataclass(frozen=True)
class Expectation:
    """The expected value of an integer field of the results (e.g. defender step losses), given
    that some result is selected; None when a likely result has no value for the field."""

    field: model.Field
    value: Fraction | None


@dataclass(frozen=True)
class ColumnAnalysis:
    """One column of the CRT at one DRM total."""

    column: str  # member id of the column key
    drm: int
    results: tuple[ResultChance, ...]  # every result of the enum, in declared (or result) order
    no_result: Fraction  # a blank cell, or a modified roll off the table
    expected: tuple[Expectation, ...]


@dataclass(frozen=True)
class CrtAnalysis:
    """The whole analysis: the result enum, the DRM totals analysed, and one entry per column and
    DRM (columns in printed order, DRMs ascending within each column)."""

    shape: CrtShape
    drms: tuple[int, ...]
    columns: tuple[ColumnAnalysis, ...]

    @property
    def result_order(self) -> tuple[str, ...]:
        """The results in the order they are reported: the declared order, else the enum's."""
        enum = self.shape.results
        return enum.order or tuple(m.id for m in enum.members)


def loss_fields(results: model.EnumType) -> tuple[model.Field, ...]:
    """The results' integer fields: what an expected value is computed for."""
    return tuple(f for f in results.fields if f.type == model.BuiltinType.INT)


def analyze(shape: CrtShape, drms: tuple[int, ...] | None = None) -> CrtAnalysis:
    """Chances of each result per column and DRM total.

    Args:
        shape: the CRT (`compiler.model.crt.crt_shape`).
        drms: the DRM totals to analyse; by default every total from the lowest to the highest the
            chart's DRMs reach, and 0.
    """
    chart = shape.chart
    totals = tuple(drm_values(chart)) if drms is None else drms
    order = shape.results.order or tuple(m.id for m in shape.results.members)
    index = chart.columns.index(shape.column)
    cells = []
    for member in shape.key.enum.members:
        for drm in totals:
            result = chances(chart, (member.id,), drm)
            by_result: dict[str, Fraction] = dict.fromkeys(order, Fraction(0))
            blank = result.no_row
            for ro in result.rows:
                value = ro.row.values[index]
                if value is None:
                    blank += ro.probability
                else:
                    by_result[str(value)] += ro.probability
            expected = tuple(_expected(f, by_result, blank, shape.results) for f in loss_fields(shape.results))
            cells.append(
                ColumnAnalysis(member.id, drm, tuple(ResultChance(m, by_result[m]) for m in order), blank, expected)
            )
    return CrtAnalysis(shape, totals, tuple(cells))


def _expected(
    field: model.Field, by_result: Mapping[str, Fraction], blank: Fraction, results: model.EnumType
) -> Expectation:
    hit = Fraction(1) - blank
    if hit == 0:
        return Expectation(field, None)
    total = Fraction(0)
    for member_id, p in by_result.items():
        member = results.member(member_id)
        value = member.get(field.id) if member else None
        if not p:
            continue
        if not isinstance(value, int):
            return Expectation(field, None)
        total += p * value
    return Expectation(field, total / hit)
