"""The DRMs of a chart in a context: which apply, what each adds, and their total, as the breakdown
`chartc lookup`/`odds` print.

The rule itself is the runtime's (`compiler.engine.runtime.drms`, `conditions`), which every
generated `drm_<id>()` runs: this module converts the model (`compiler.engine.plain`) and names the
DRMs the runtime kept. The reachability procedure (`compiler.engine.reach`) calls the runtime the
same way on each class of contexts.

A context maps a context variable's id (or one of the chart's key ids, for DRMs that test the
chart's own keys) to its value: a flag's bool, an int, a `Month`, or an enum member's id. A flag
left out is false; any other variable left out (or None) is unknown, and a condition over it is
neither true nor false (three-valued, as in the generated modules): a DRM applies only when its
condition is true.
"""

from __future__ import annotations

from collections.abc import Mapping

from compiler import model
from compiler.engine import plain
from compiler.engine.runtime.base import _clamp
from compiler.engine.runtime.roll import _modified, _roll_steps
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
    """Whether a condition is true, false or unknown (None) in `context` (the runtime's `_holds`)."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime.conditions import _holds

    return _holds(plain.condition(cond), context)


def applies(drm: model.Drm, context: Context) -> AppliedDrm | None:
    """The DRM's contribution in `context`, or None when its condition is not true (or, for a
    per-N DRM, its variable is unknown or holds no whole step): the runtime's `_applied`."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime.drms import _applied

    amount = _applied(plain.drm(drm), context)
    return None if amount is None else _applied_drm(drm, amount, context)


def _applied_drm(drm: model.Drm, amount: int, context: Context) -> AppliedDrm:
    """A DRM that applies with `amount`, with the steps a per-N DRM counted."""
    if drm.per is None:
        return AppliedDrm(drm, amount)
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime.drms import _per_steps

    per, given = plain.drm(drm).per, context.get(drm.per.var)
    assert per is not None and isinstance(given, int)  # `_applied` gave an amount: the variable holds an int
    return AppliedDrm(drm, amount, _per_steps(per, given))


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
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime.drms import _drm_terms

    converted = plain.chart_drms(chart)
    terms = _drm_terms(converted.drms, context, converted.groups)
    items = tuple(_applied_drm(chart.drms[position], amount, context) for position, amount in terms)
    raw = sum(a.value for a in items)
    return Breakdown(items, raw, _clamp(raw, converted.clamp))


def clamp_total(chart: model.Chart, total: int) -> int:
    """A DRM sum after the chart's `combine sum clamp LOW to HIGH` (the runtime's `_clamp`)."""
    return _clamp(total, chart.clamp)


def modified_roll(chart: model.Chart, natural: int, drm: int) -> int:
    """The natural roll through the chart's steps with the DRM total `drm` (the runtime's
    `_modified`: the arithmetic and clamps step of a roll; the sum without arithmetic)."""
    return _modified(natural, drm, plain.steps(chart))


def roll_steps(chart: model.Chart, natural: int, drm: int) -> tuple[tuple[model.RollStep, int, int], ...]:
    """Each step of the chart's arithmetic made on `natural` with the DRM total `drm` (the
    runtime's `_roll_steps`): the step, its amount (the DRM step's: `drm`) and the roll after it. A
    chart without arithmetic gives its one DRM step."""
    pipeline = chart.roll_steps
    made = _roll_steps(natural, drm, tuple(plain.step(s) for s in pipeline))
    return tuple((s, amount, roll) for s, (_, amount, roll) in zip(pipeline, made, strict=True))
