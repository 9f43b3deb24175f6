"""Model objects as the runtime's plain data, converted once per object.

The runtime (`compiler.engine.runtime`) is the one implementation of each step of a roll, and it
reads plain data: conditions, DRMs, column shifts and dice as its NamedTuples, rows as
`(keys, low, high, values)` tuples. chartc's own readers (lookup, chances, reach, vectors, the
worked-example check) convert the model here and call the runtime; the Python emitter writes the
same conversions as literals, so a generated module holds exactly the data chartc reads. Each
conversion is remembered for as long as its model object lives (model objects are immutable).

A chart's rows are converted with the row's position in `chart.rows` as its values, so the
runtime's row step answers which model row a roll selects.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, assert_never

from compiler import model
from compiler.engine.runtime.rows import _Index
from compiler.model.dice import Dice, DiceForm
from compiler.model.odds import OddsForm, OddsRule

if TYPE_CHECKING:  # imported where used: a lookup of a chart without DRMs loads no condition code
    from compiler.engine.runtime.base import _Key
    from compiler.engine.runtime.conditions import _Condition
    from compiler.engine.runtime.dice import _Dice
    from compiler.engine.runtime.drms import _Drm
    from compiler.engine.runtime.odds import _OddsRule
    from compiler.engine.runtime.shifts import _Shift

_T = TypeVar("_T")
_R = TypeVar("_R")

# A row as the runtime reads it, its values being the row's position in `chart.rows`.
Row = tuple[tuple["_Key", ...], int | None, int | None, int]


def _memo(make: Callable[[_T], _R]) -> Callable[[_T], _R]:
    """`make`, remembered per object for as long as the object lives: by `id`, with a weak
    reference that drops the entry when the object is freed, before its `id` can be reused."""
    made: dict[int, tuple[weakref.ref[_T], _R]] = {}

    def once(obj: _T) -> _R:
        key = id(obj)
        entry = made.get(key)
        if entry is not None and entry[0]() is obj:
            return entry[1]
        value = make(obj)
        made[key] = (weakref.ref(obj, lambda _: made.pop(key, None)), value)
        return value

    return once


memo = _memo
"""`make`, remembered per object for as long as the object lives (for other engine modules)."""


# ---- conditions, DRMs, column shifts ------------------------------------------------------------


def operand(value: model.Operand) -> int | str:
    """A condition's constant as plain data: an int, or a month or member id as its text."""
    return value if isinstance(value, int) else str(value)


def _condition(c: model.Condition) -> _Condition:
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import conditions as rt

    match c:
        case model.Flag():
            return rt._Flag(c.var)
        case model.Compare():
            return rt._Compare(c.var, c.op.value, operand(c.value))
        case model.In():
            return rt._In(c.var, tuple(operand(v) for v in c.values))
        case model.Not():
            return rt._Not(condition(c.inner))
        case model.All():
            return rt._AllOf(tuple(condition(p) for p in c.parts))
        case model.Any_():
            return rt._AnyOf(tuple(condition(p) for p in c.parts))
        case _:
            assert_never(c)


condition: Callable[[model.Condition], _Condition] = _memo(_condition)
"""A DRM condition as the runtime's condition objects (three-valued when evaluated)."""


def drm(d: model.Drm) -> _Drm:
    """A DRM as the runtime's `_Drm(value, when, per, group)`."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import drms as rt

    per = rt._Per(d.per.var, d.per.step, str(d.per.rounding)) if d.per is not None else None
    return rt._Drm(d.value, condition(d.when) if d.when is not None else None, per, d.group)


def drm_groups(groups: tuple[model.DrmGroup, ...]) -> tuple[tuple[str, str], ...]:
    """Exclusive DRM groups as the runtime's (id, 'best' | 'worst' | 'one') pairs."""
    return tuple((g.id, str(g.mode)) for g in groups)


class ChartDrms:
    """A chart's DRMs as the runtime reads them: the DRMs, the exclusive groups, the clamp of the total."""

    __slots__ = ("clamp", "drms", "groups")

    def __init__(
        self, drms: tuple[_Drm, ...], groups: tuple[tuple[str, str], ...], clamp: tuple[int, int] | None
    ) -> None:
        self.drms = drms
        self.groups = groups
        self.clamp = clamp


def _chart_drms(chart: model.Chart) -> ChartDrms:
    return ChartDrms(tuple(drm(d) for d in chart.drms), drm_groups(chart.drm_groups), chart.clamp)


chart_drms: Callable[[model.Chart], ChartDrms] = _memo(_chart_drms)
"""A chart's DRMs, groups and clamp as the runtime reads them."""


def shift(s: model.Shift) -> _Shift:
    """A column shift as the runtime's `_Shift`: a value under a condition, or a terrain effects
    chart's column by member id."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import shifts as rt

    if s.source is not None:
        return rt._Shift(s.label, 0, None, s.group, s.source.var, s.source.values)
    return rt._Shift(s.label, s.value, condition(s.when) if s.when is not None else None, s.group)


def shift_groups(rules: model.ShiftRules) -> tuple[tuple[str, str], ...]:
    """A CRT's exclusive shift groups as the runtime's (id, 'best' | 'worst' | 'one') pairs."""
    return tuple((g, str(mode)) for g, mode in rules.groups)


# ---- dice -----------------------------------------------------------------------------------------


def _dice(d: Dice) -> _Dice:
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import dice as rt

    versus = (d.versus_count, d.versus_sides) if d.form is DiceForm.VERSUS else (0, 0)
    return rt._Dice(str(d.form), d.count, d.sides, d.keep, versus, d.zero, d.depth)


dice: Callable[[Dice], _Dice] = _memo(_dice)
"""Dice as the runtime's `_Dice`, which `_roll` throws."""


def step(s: model.RollStep) -> tuple[str, int]:
    """A step of a roll's arithmetic as the runtime's `_Step`: `('add', -3)`, `('halve_down', 2)`."""
    match s.kind:
        case model.StepKind.HALVE:
            return f"halve_{s.rounding}", 2
        case (
            model.StepKind.DRMS | model.StepKind.ADD | model.StepKind.TIMES | model.StepKind.MINIMUM
            | model.StepKind.MAXIMUM
        ):
            return str(s.kind), s.amount
        case _:
            assert_never(s.kind)


def pipeline_steps(pipeline: tuple[model.RollStep, ...]) -> tuple[tuple[str, int], ...]:
    """A roll's pipeline as the runtime's steps (`_modified`, `_steps`); empty for a pipeline of
    the DRMs alone (the natural roll plus the DRM total)."""
    if all(s.kind is model.StepKind.DRMS for s in pipeline):
        return ()
    return tuple(step(s) for s in pipeline)


def steps(chart: model.Chart) -> tuple[tuple[str, int], ...]:
    """A chart's arithmetic as the runtime's steps (`pipeline_steps`)."""
    return pipeline_steps(chart.pipeline)


def dice_alternatives(chart: model.Chart) -> tuple[tuple[_Condition, _Dice], ...]:
    """A chart's `roll ... when` alternatives as (condition, dice), in order (`_dice_for` reads them)."""
    return tuple((condition(a.when), dice(a.dice)) for a in chart.dice_alternatives)


# ---- rows -----------------------------------------------------------------------------------------


def key_match(match: model.KeyMatch) -> _Key:
    """A row key as the runtime's: a member id, None for any, months (first, last), or turns
    (first, last, the track's halves in play order)."""
    if isinstance(match, model.MonthSpan):
        return str(match.first), None if match.last is None else str(match.last)
    if isinstance(match, model.TurnSpan):
        return match.first, match.last, match.halves
    return None if match is None else str(match)


def _row(row: model.Row, position: int) -> Row:
    keys = tuple(key_match(k) for k in row.keys)
    low, high = (row.range.low, row.range.high) if row.range is not None else (None, None)
    return keys, low, high, position


class ChartRows:
    """A chart's rows as the runtime's row step reads them (values: positions in `chart.rows`):
    the rows read by the modified roll (or the keys alone), indexed, the `natural` rows, which are
    read first, and the steps that make the modified roll (`steps`)."""

    __slots__ = ("indexed", "natural_rows", "rows", "steps")

    def __init__(
        self,
        rows: tuple[Row, ...],
        indexed: _Index[int],
        natural_rows: tuple[Row, ...],
        steps: tuple[tuple[str, int], ...],
    ) -> None:
        self.rows = rows
        self.indexed = indexed
        self.natural_rows = natural_rows
        self.steps = steps


def _chart_rows(chart: model.Chart) -> ChartRows:
    plain = tuple(_row(r, i) for i, r in enumerate(chart.rows) if not r.natural)
    natural = tuple(_row(r, i) for i, r in enumerate(chart.rows) if r.natural and r.range is not None)
    return ChartRows(plain, _Index(plain), natural, steps(chart))


chart_rows: Callable[[model.Chart], ChartRows] = _memo(_chart_rows)
"""A chart's rows as the runtime reads them."""


# ---- CRT odds -------------------------------------------------------------------------------------


def odds_arguments(rule: OddsRule) -> tuple[object, ...]:
    """The runtime `_OddsRule`'s arguments for this rule, as plain values; the optional ones only
    when they differ from the runtime's defaults (a ratio rule that rounds the quotient)."""
    base: tuple[object, ...] = (
        rule.id,
        str(rule.attacker_round),
        str(rule.defender_round),
        rule.columns,
        None if rule.beyond is None else str(rule.beyond),
        None if rule.shift_order is None else str(rule.shift_order),
    )
    if rule.form is OddsForm.RATIO and rule.between is None:
        return base
    return (*base, str(rule.form), None if rule.between is None else str(rule.between), rule.domain)


def _odds_rule(rule: OddsRule) -> _OddsRule:
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as rt

    return rt._OddsRule(*odds_arguments(rule))  # type: ignore[arg-type]


odds_rule: Callable[[OddsRule], _OddsRule] = _memo(_odds_rule)
"""An odds rule as the runtime's `_OddsRule`."""
