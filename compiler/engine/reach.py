"""Which DRM totals a chart can see: decided from the conditions that can hold together.

The procedure (documented for users in docs/language.md, "How the checker decides which rolls can
happen"):

1. Split the chart's DRMs into independent parts: two DRMs belong together when they test (or
   count) the same variable or chart key, or sit in the same exclusive group. Parts share no
   variable, so their sums add freely: the chart's totals are every sum of one total per part.
2. In each part, partition every variable's values into classes the conditions cannot tell apart:
   a flag is true or false; an enum (or a chart key) is each member a condition names, plus one
   member no condition names; an int or month is cut at every constant a condition compares it
   with (`c` and the value after it) and, for a per-N DRM, at every step boundary, inside its
   declared range (a month: the game's calendar). One value per class stands for the class.
3. Evaluate the part's DRMs with the runtime (`compiler.engine.runtime.drms._drm_terms`, the
   evaluator of lookup and of every generated `drm_<id>`) on every combination of class values:
   each gives a sum the part can really add.
4. Add the parts' sums, then apply the chart's `combine sum clamp`.

A DRM declared without `when` states no condition: it is taken as applying or not, freely.

Limit: a part whose classes combine into more than `MAX_ASSIGNMENTS` assignments is not enumerated;
its DRMs are then taken as independent (each applies or not; a group adds one member or none),
which reaches every total the rules allow and possibly more, so a finding of "can never happen"
stays true; `Reach.exact` says so and the checker notes it (C333). A variable left unknown (None) is
not a value a player can have, so it is not enumerated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import assert_never

from compiler import model
from compiler.engine import plain
from compiler.engine.drms import ContextValue, clamp_total
from compiler.engine.runtime.conditions import _holds
from compiler.engine.runtime.drms import _drm_terms
from compiler.model.calendar import Month
from dsl.lazy_dataclass import dataclass

# The most class assignments one independent part of a chart's DRMs is enumerated over.
MAX_ASSIGNMENTS = 20_000


@dataclass(frozen=True)
class Reach:
    """The DRM totals a chart can see (after its clamp), ascending, and whether they are exact."""

    totals: tuple[int, ...]
    exact: bool


def reach(chart: model.Chart, combo: tuple[str, ...] | None = None) -> Reach:
    """The DRM totals of `chart` for one key combination (`combo`, one member id per key), or for
    any combination (None). A chart without DRMs reaches only 0."""
    pinned = dict(zip((k.id for k in chart.keys), combo, strict=True)) if combo is not None else {}
    sums: set[int] = {0}
    exact = True
    for part in _parts(tuple(_stated(d) for d in chart.drms)):
        part_sums, part_exact = _part_sums(chart, part, pinned)
        exact = exact and part_exact
        sums = {a + b for a in sums for b in part_sums}
    return Reach(tuple(sorted({clamp_total(chart, s) for s in sums})), exact)


def tests_keys(chart: model.Chart) -> bool:
    """Whether some DRM condition tests one of the chart's own keys (totals differ per key combination)."""
    return any(model.key_vars(d.when) for d in chart.drms)


def can_hold_together(chart: model.Chart, a: model.Condition, b: model.Condition) -> bool | None:
    """Whether some context makes both conditions true (None: too many classes to decide)."""
    both = model.All((a, b), a.span)
    probe = model.Drm("_", "_", 1, both, None, a.span)
    space = _space(chart, (probe,), {})
    if space is None:
        return None
    converted = plain.condition(both)
    return any(_holds(converted, context) is True for context in space)


# ---- independent parts ------------------------------------------------------------------------

# The prefix of the flag that stands for a DRM declared without `when`.
_UNSTATED = "\0unstated:"


def _stated(d: model.Drm) -> model.Drm:
    """A DRM declared without `when` states no condition: the checker lets it apply or not (a flag
    of its own), which reaches every total the rules could mean."""
    return d if d.when is not None else replace(d, when=model.Flag(_UNSTATED + d.id, d.span))



def _parts(drms: Sequence[model.Drm]) -> list[tuple[model.Drm, ...]]:
    """The DRMs split into parts that share no variable or group (union-find on DRM indices)."""
    parent = list(range(len(drms)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, d in enumerate(drms):
        for name in _subjects(d):
            if name in owner:
                parent[find(i)] = find(owner[name])
            else:
                owner[name] = i
    parts: dict[int, list[model.Drm]] = {}
    for i, d in enumerate(drms):
        parts.setdefault(find(i), []).append(d)
    return [tuple(p) for p in parts.values()]


def _subjects(d: model.Drm) -> set[str]:
    """What ties a DRM to others: its variables (and chart keys) and its group."""
    names = {f"var:{v}" for v in model.condition_vars(d.when)}
    if d.per is not None:
        names.add(f"var:{d.per.var}")
    if d.group is not None:
        names.add(f"group:{d.group}")
    return names


def _part_sums(chart: model.Chart, part: tuple[model.Drm, ...], pinned: dict[str, str]) -> tuple[set[int], bool]:
    """Every sum one part of the DRMs can add, and whether it was enumerated exactly."""
    groups = tuple(g for g in chart.drm_groups if any(d.group == g.id for d in part))
    space = _space(chart, part, pinned)
    if space is None:
        return _independent_sums(part), False

    drms, modes = tuple(plain.drm(d) for d in part), plain.drm_groups(groups)
    return {sum(amount for _, amount in _drm_terms(drms, context, modes)) for context in space}, True


def _independent_sums(part: tuple[model.Drm, ...]) -> set[int]:
    """The sound over-approximation: each ungrouped DRM adds any of its contributions, each group
    one member's contribution or nothing."""
    units: dict[str, set[int]] = {}
    for i, d in enumerate(part):
        key = f"group:{d.group}" if d.group is not None else f"drm:{i}"
        units.setdefault(key, {0}).update(d.contributions())
    sums = {0}
    for unit in units.values():
        sums = {a + b for a in sums for b in unit}
    return sums


# ---- value classes ------------------------------------------------------------------------------


def _space(
    chart: model.Chart, drms: tuple[model.Drm, ...], pinned: dict[str, str]
) -> Iterator[dict[str, ContextValue | None]] | None:
    """Every assignment of class representatives to the variables `drms` test, or None when there
    are more than `MAX_ASSIGNMENTS`."""
    constants = _constants(d.when for d in drms)
    steps = {d.per.var: d.per for d in drms if d.per is not None}
    names = sorted(set(constants) | set(steps))
    choices: list[Sequence[ContextValue | None]] = []
    for name in names:
        if name in pinned:
            choices.append([pinned[name]])
            continue
        var = _variable(chart, name)
        if var is None:  # resolution reported it; unknown, such a condition is never true
            choices.append([None])
            continue
        choices.append(_representatives(var, constants.get(name, set()), steps.get(name)))
    if math.prod(len(c) for c in choices) > MAX_ASSIGNMENTS:
        return None
    return (dict(zip(names, values, strict=True)) for values in itertools.product(*choices))


def _variable(chart: model.Chart, name: str) -> model.ContextVar | None:
    """The context variable, or the chart key seen as an enum variable, that a condition names."""
    if name.startswith(_UNSTATED):
        return model.ContextVar(name, model.ContextType.FLAG, None, name, chart.span)
    context = next((v for v in chart.context if v.id == name), None)
    if context is not None:
        return context
    for key in chart.keys:
        if key.id == name:
            members = tuple(m.id for m in key.enum.members)
            enum = key.enum
            return model.ContextVar(key.id, model.ContextType.ENUM, enum.id, enum.label, key.span, members=members)
    return None


def _constants(conds: Iterable[model.Condition | None]) -> dict[str, set[model.Operand]]:
    """Every constant each variable is compared with."""
    found: dict[str, set[model.Operand]] = {}

    def walk(cond: model.Condition | None) -> None:
        match cond:
            case None:
                return
            case model.Flag(var):
                found.setdefault(var, set())
            case model.Compare(var, _, value):
                found.setdefault(var, set()).add(value)
            case model.In(var, values):
                found.setdefault(var, set()).update(values)
            case model.Not(inner):
                walk(inner)
            case model.All(parts) | model.Any_(parts):
                for p in parts:
                    walk(p)
            case _:
                assert_never(cond)

    for c in conds:
        walk(c)
    return found


def _representatives(
    var: model.ContextVar, constants: set[model.Operand], per: model.PerStep | None
) -> list[ContextValue]:
    """One value of each class of `var`'s values that no condition (and no step count) tells apart."""
    match var.type:
        case model.ContextType.FLAG:
            return [False, True]
        case model.ContextType.ENUM:
            named = [m for m in var.members if m in constants]
            other = next((m for m in var.members if m not in constants), None)
            return [*named, *([other] if other is not None else [])] if var.members else sorted(map(str, constants))
        case model.ContextType.INT:
            ints = {c for c in constants if isinstance(c, int)}
            low, high = _int_bound(var.low), _int_bound(var.high)
            return list(_cut_points(ints | _step_bounds(per), low, high))
        case model.ContextType.MONTH:
            months = {c.ordinal for c in constants if isinstance(c, Month)}
            low, high = _month_bound(var.low), _month_bound(var.high)
            return [Month.from_ordinal(o) for o in _cut_points(months, low, high)]
        case _:
            assert_never(var.type)


def _cut_points(constants: set[int], low: int | None, high: int | None) -> list[int]:
    """The first value of every piece of [low, high] cut before each constant and after it."""
    cuts = {c for k in constants for c in (k, k + 1)}
    if low is None:
        low = min(cuts, default=1) - 1
    return sorted({low} | {c for c in cuts if c >= low and (high is None or c <= high)})


def _step_bounds(per: model.PerStep | None) -> set[int]:
    """Where a per-N DRM's step count can change (each multiple of the step and the values near it)."""
    if per is None:
        return set()
    out: set[int] = set()
    for k in range(per.low // per.step - 1, per.high // per.step + 2):
        base = k * per.step
        out |= {base - 1, base, base + (per.step - 1) // 2, base + per.step // 2}
    return out


def _int_bound(bound: int | Month | None) -> int | None:
    return bound if isinstance(bound, int) and not isinstance(bound, Month) else None


def _month_bound(bound: int | Month | None) -> int | None:
    return bound.ordinal if isinstance(bound, Month) else None
