"""The DRM step of a roll: what each DRM adds in a context (a fixed value, or once per step of an
int variable), which member of an exclusive group counts, and the clamp of the total.

Exclusive groups are one rule for DRMs and CRT column shifts (`_exclusive`): of a group's members
that apply only one counts, the highest (`best`), the lowest (`worst`) or the first (`one`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from compiler.engine.runtime.base import _clamp
from compiler.engine.runtime.conditions import _Condition, _Context, _holds

# ---- inlined into a generated module below this line


class _Per(NamedTuple):
    """`per STEP VAR`: a DRM's value counts once per step of an int variable ('down', 'up', 'nearest')."""

    var: str
    step: int
    rounding: str


class _Drm(NamedTuple):
    """A DRM: `value` is added when `when` is true (None: always); with `per`, once per step of an
    int variable; with `group`, it is a member of an exclusive group."""

    value: int
    when: _Condition | None
    per: _Per | None = None
    group: str | None = None


def _per_steps(per: _Per, given: int) -> int:
    """How many steps of a per-N DRM `given` holds (`-1 per 10 kills`: 25 -> 2, or 3 rounded up)."""
    whole, rest = divmod(given, per.step)
    if rest and (per.rounding == "up" or (per.rounding == "nearest" and 2 * rest >= per.step)):
        whole += 1
    return whole


def _applied(drm: _Drm, context: Mapping[str, _Context]) -> int | None:
    """What one DRM adds in the context, or None when it does not apply (its condition is not
    true; for a per-N DRM, its variable is unknown or holds no whole step).
    """
    if drm.when is not None and _holds(drm.when, context) is not True:
        return None
    if drm.per is None:
        return drm.value
    given = context.get(drm.per.var)
    if not isinstance(given, int) or isinstance(given, bool):
        return None
    steps = _per_steps(drm.per, given)
    return drm.value * steps if steps else None


def _exclusive(
    found: list[tuple[int, str | None, int]], groups: tuple[tuple[str, str], ...]
) -> list[tuple[int, int]]:
    """What counts of the DRMs (or column shifts) that apply, given as (position, group, amount) in
    declaration order: every one outside a group, and of each exclusive group (id, 'best' |
    'worst' | 'one') one member: the highest amount (`best`, the first of equals), the lowest
    (`worst`, the first of equals) or the first (`one`); a member of a group not in `groups` does
    not count. Returns (position, amount) in declaration order.
    """
    modes = dict(groups)
    chosen: dict[str, tuple[int, int]] = {}
    for position, group, amount in found:
        if group is None or group not in modes:
            continue
        held = chosen.get(group)
        mode = modes[group]
        if held is None or (mode == "best" and amount > held[1]) or (mode == "worst" and amount < held[1]):
            chosen[group] = (position, amount)
    kept = {position for position, _ in chosen.values()}
    return [(p, amount) for p, group, amount in found if group is None or p in kept]


def _drm_terms(
    drms: tuple[_Drm, ...], context: Mapping[str, _Context], groups: tuple[tuple[str, str], ...] = ()
) -> list[tuple[int, int]]:
    """The DRMs that apply in `context`, each exclusive group reduced to its one member, as
    (position in `drms`, amount) in declaration order.
    """
    found = []
    for position, drm in enumerate(drms):
        amount = _applied(drm, context)
        if amount is not None:
            found.append((position, drm.group, amount))
    return _exclusive(found, groups)


def _total_drm(
    drms: tuple[_Drm, ...],
    context: Mapping[str, _Context],
    clamp: tuple[int, int] | None,
    groups: tuple[tuple[str, str], ...] = (),
) -> int:
    """The DRM total: the sum of the DRMs that apply (`_drm_terms`), clamped to `clamp` when the
    chart caps it (`combine sum clamp LOW to HIGH`).
    """
    return _clamp(sum(amount for _, amount in _drm_terms(drms, context, groups)), clamp)
