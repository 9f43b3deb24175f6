"""CRT column shifts: which apply in a context, one per exclusive group (the rule DRMs follow,
`_exclusive`), and their total held inside the cap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from compiler.engine.runtime.base import _clamp
from compiler.engine.runtime.conditions import _Condition, _Context, _holds
from compiler.engine.runtime.drms import _exclusive

# ---- inlined into a generated module below this line


class _Shift(NamedTuple):
    """A column shift (+ toward the attacker): `value` when `when` is true (None: always); or, when
    `var` is set, the value `table` gives for the member that context variable holds (a terrain
    effects chart's column). `group` names an exclusive group."""

    label: str
    value: int
    when: _Condition | None
    group: str | None = None
    var: str | None = None
    table: tuple[tuple[str, int], ...] = ()


def _shift_value(shift: _Shift, context: Mapping[str, _Context]) -> int:
    """The shift's value in this context: 0 when its condition is not true or its variable unknown."""
    if shift.var is not None:
        given = context.get(shift.var)
        return 0 if given is None else dict(shift.table).get(str(given), 0)
    return shift.value if shift.when is None or _holds(shift.when, context) is True else 0


def _shift_terms(
    shifts: tuple[_Shift, ...],
    context: Mapping[str, _Context],
    groups: tuple[tuple[str, str], ...],
    cap: tuple[int, int] | None,
) -> tuple[tuple[tuple[str, int], ...], int]:
    """The shifts that apply (a value other than 0), as (label, value) in declaration order, and
    their total held inside `cap`. Of an exclusive group only one counts (`_exclusive`).
    """
    found = []
    for position, shift in enumerate(shifts):
        value = _shift_value(shift, context)
        if value:
            found.append((position, shift.group, value))
    kept = tuple((shifts[position].label, value) for position, value in _exclusive(found, groups))
    return kept, _clamp(sum(value for _, value in kept), cap)
