"""The situation a generated module's caller gives as `when=(FLAG, ...)` and `set={NAME: VALUE}`:
read against the context variables a chart's DRMs test, as `chartc lookup --when/--set` reads them
(`compiler.engine.context`), then the DRMs that apply and their total (`_drm_terms`, `_clamp`).

A name the chart does not read is a ValueError naming the ones it reads, never a silent 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple, TypedDict, cast

from compiler.engine.runtime.base import _clamp
from compiler.engine.runtime.checks import _check_flag, _check_int, _check_month, _check_range, _member
from compiler.engine.runtime.conditions import _Context
from compiler.engine.runtime.drms import _Drm, _drm_terms

# ---- inlined into a generated module below this line


class _Var(NamedTuple):
    """A context variable a chart reads: its id, its type ('flag', 'int', 'month' or an enum's id),
    its declared range (None: open) and, for an enum, the printed label of each member id."""

    id: str
    type: str
    low: int | str | None = None
    high: int | str | None = None
    labels: object = None  # an enum's label table, `<ENUM>_LABELS` (member id -> label), as the module types it


class AppliedDrm(TypedDict):
    """A DRM that applied: its id, its label as printed and what it added (a per-N DRM: its value
    times the steps the context holds)."""

    id: str
    label: str
    value: int


def _given_context(
    chart: str, reads: tuple[_Var, ...], when: Iterable[str], given: Mapping[str, object] | None
) -> dict[str, _Context]:
    """`when` (the flags that are true) and `given` (other values by variable id) as a context,
    each name one the chart reads and each value of its variable's type (an enum by id or label).

    Raises:
        ValueError: an unknown name (the message names those the chart reads), a name given
            twice, a value of the wrong type or outside its declared range.
    """
    known = {v.id: v for v in reads}
    described = ", ".join(f"{v.id} ({v.type})" for v in reads) or "nothing"
    if isinstance(when, str):
        raise ValueError(f"{chart}: when must be a tuple of flag names, got {when!r}; e.g. when=({when!r},)")
    context: dict[str, _Context] = {}
    pairs = [(name, True) for name in when] + list((given or {}).items())
    for name, value in pairs:
        var = known.get(name) if isinstance(name, str) else None
        if var is None:
            raise ValueError(f"{chart}: the chart's DRMs do not read {name!r}; they read {described}")
        if name in context:
            raise ValueError(f"{chart}: {name!r} is given twice")
        if var.type == "flag":
            _check_flag(chart, name, value)
            context[name] = bool(value)
            continue
        if value is True and name in when:
            raise ValueError(f"{chart}: {name!r} is not a flag ({var.type}): give its value, set_={{{name!r}: ...}}")
        read: int | str
        if var.type == "int":
            read = _check_int(chart, name, value)
        elif var.type == "month":
            _check_month(chart, name, value)
            read = str(value)
        else:
            read = _member(chart, name, value, cast(Mapping[str, str], var.labels or {}))
        if var.low is not None or var.high is not None:
            _check_range(chart, name, read, var.low, var.high)
        context[name] = read
    return context


def _context_drms(
    chart: str,
    reads: tuple[_Var, ...],
    when: Iterable[str],
    given: Mapping[str, object] | None,
    keys: Mapping[str, _Context],
    drms: tuple[_Drm, ...],
    names: tuple[tuple[str, str], ...],
    clamp: tuple[int, int] | None,
    groups: tuple[tuple[str, str], ...] = (),
) -> tuple[int, tuple[AppliedDrm, ...]]:
    """The DRM total in the situation given (`_given_context`, with the chart's keys for the DRMs
    that test them) and each DRM that applied, in declaration order, named by `names` (id, label).
    """
    context = dict(keys)
    context.update(_given_context(chart, reads, when, given))
    terms = _drm_terms(drms, context, groups)
    applied = tuple(AppliedDrm(id=names[p][0], label=names[p][1], value=amount) for p, amount in terms)
    return _clamp(sum(amount for _, amount in terms), clamp), applied
