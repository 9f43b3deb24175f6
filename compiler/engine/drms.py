"""The one DRM evaluator: a chart and a context in, the DRMs that apply and their total out.

`evaluate(chart, context)` is what `chartc lookup`/`odds` print as the breakdown, what the
reachability procedure (`compiler.engine.reach`) runs on each class of contexts, and what the generated
`drm_<id>()` functions mirror (`compiler.engine.runtime._total_drm`). It imports only the model.

A context maps a context variable's id (or one of the chart's key ids, for DRMs that test the
chart's own keys) to its value: a flag's bool, an int, a `Month`, or an enum member's id. A flag
left out is false; any other variable left out (or None) is unknown, and a condition over it is
neither true nor false (three-valued, as in the generated modules): a DRM applies only when its
condition is true.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from compiler import model
from compiler.model.calendar import Month
from dsl.lazy_dataclass import dataclass

# A context variable's (or chart key's) value: flag, int, month, or an enum member's id.
ContextValue = bool | int | Month | model.MemberId | str
Context = Mapping[str, ContextValue | None]


@dataclass(frozen=True)
class AppliedDrm:
    """One DRM that applies: its declaration and the value it adds (for a per-N DRM, the value
    times `steps`)."""

    drm: model.Drm
    value: int
    steps: int | None = None  # how many steps of a per-N DRM the context holds


@dataclass(frozen=True)
class Breakdown:
    """The DRMs that apply in a context, in declaration order, and what they add.

    `sum` is the plain sum of `items`; `total` is it after the chart's `combine sum clamp`.
    """

    items: tuple[AppliedDrm, ...]
    sum: int
    total: int

    @property
    def clamped(self) -> bool:
        """Whether the chart's clamp changed the sum."""
        return self.sum != self.total


def holds(cond: model.Condition, context: Context) -> bool | None:
    """Whether a condition is true, false or unknown (None) in `context`."""
    match cond:
        case model.Flag(var):
            return bool(context.get(var, False))
        case model.Compare(var, op, value):
            given = context.get(var)
            return None if given is None else compare(given, op, value)
        case model.In(var, values):
            given = context.get(var)
            return None if given is None else any(compare(given, model.CompareOp.EQ, v) for v in values)
        case model.Not(inner):
            inner_holds = holds(inner, context)
            return None if inner_holds is None else not inner_holds
        case model.All(parts):
            found = [holds(p, context) for p in parts]
            return False if False in found else None if None in found else True
        case model.Any_(parts):
            found = [holds(p, context) for p in parts]
            return True if True in found else None if None in found else False
        case _:
            assert_never(cond)


def compare(given: ContextValue, op: model.CompareOp, value: model.Operand) -> bool:
    """`given OP value`; months compare by their place in the calendar, members by id."""
    if isinstance(value, Month) and not isinstance(given, Month) and isinstance(given, str):
        month = Month.parse(given)
        if month is None:
            return op is model.CompareOp.NE
        given = month
    match op:
        case model.CompareOp.EQ:
            return given == value
        case model.CompareOp.NE:
            return given != value
        case model.CompareOp.GE:
            return _ordered(given, value) >= 0
        case model.CompareOp.LE:
            return _ordered(given, value) <= 0
        case model.CompareOp.GT:
            return _ordered(given, value) > 0
        case model.CompareOp.LT:
            return _ordered(given, value) < 0
        case _:
            assert_never(op)


def _ordered(given: ContextValue, value: model.Operand) -> int:
    """-1, 0 or 1 as `given` is below, at or above `value` (ints, or months by ordinal)."""
    if isinstance(value, Month) and isinstance(given, Month):
        a, b = given.ordinal, value.ordinal
    elif isinstance(value, int) and isinstance(given, int) and not isinstance(value, str):
        a, b = int(given), value
    else:
        raise TypeError(f"cannot order {given!r} against {value!r}")
    return (a > b) - (a < b)


def applies(drm: model.Drm, context: Context) -> AppliedDrm | None:
    """The DRM's contribution in `context`, or None when its condition is not true (or, for a
    per-N DRM, its variable is unknown or holds no whole step)."""
    if drm.when is not None and holds(drm.when, context) is not True:
        return None
    if drm.per is None:
        return AppliedDrm(drm, drm.value)
    given = context.get(drm.per.var)
    if not isinstance(given, int) or isinstance(given, bool):
        return None
    steps = drm.per.count(given)
    return AppliedDrm(drm, drm.value * steps, steps) if steps else None


def evaluate(chart: model.Chart, context: Context) -> Breakdown:
    """The DRMs of `chart` that apply in `context`, and their total after the chart's clamp.

    In an exclusive group only one member counts: the highest value (`best`), the lowest
    (`worst`), or the first that applies (`one`, whose members the checker proves exclusive).

    Args:
        chart: any chart (a chart without DRMs gives an empty breakdown and total 0).
        context: context variable ids and chart key ids -> values (see the module docstring).

    Returns:
        The applying DRMs in declaration order, their sum, and the clamped total.
    """
    items = applying(chart.drms, chart.drm_groups, context)
    raw = sum(a.value for a in items)
    return Breakdown(items, raw, clamp_total(chart, raw))


def applying(
    drms: tuple[model.Drm, ...], groups: tuple[model.DrmGroup, ...], context: Context
) -> tuple[AppliedDrm, ...]:
    """The DRMs among `drms` that apply in `context`, each group reduced to its one member, in
    declaration order (`evaluate` without the sum; reachability runs it on parts of a chart)."""
    found = [a for a in (applies(d, context) for d in drms) if a is not None]
    chosen = {id(a) for a in _group_choices(groups, found)}
    return tuple(a for a in found if a.drm.group is None or id(a) in chosen)


def _group_choices(groups: tuple[model.DrmGroup, ...], found: list[AppliedDrm]) -> list[AppliedDrm]:
    """The one applying member each group keeps."""
    kept: list[AppliedDrm] = []
    for group in groups:
        members = [a for a in found if a.drm.group == group.id]
        if not members:
            continue
        match group.mode:
            case model.GroupMode.BEST:
                kept.append(max(members, key=lambda a: a.value))
            case model.GroupMode.WORST:
                kept.append(min(members, key=lambda a: a.value))
            case model.GroupMode.ONE:
                kept.append(members[0])
            case _:
                assert_never(group.mode)
    return kept


def clamp_total(chart: model.Chart, total: int) -> int:
    """A DRM sum after the chart's `combine sum clamp LOW to HIGH`."""
    return total if chart.clamp is None else max(chart.clamp[0], min(chart.clamp[1], total))


def modified_roll(chart: model.Chart, natural: int, drm: int) -> int:
    """The natural roll plus the DRM total, capped by the chart's `modified clamp LOW to HIGH`."""
    modified = natural + drm
    if chart.modified_clamp is None:
        return modified
    return max(chart.modified_clamp[0], min(chart.modified_clamp[1], modified))
