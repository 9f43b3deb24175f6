"""A roll as a pipeline of steps: dice -> DRMs -> arithmetic -> clamps -> row.

The dice give the natural roll (`_roll`), the DRMs their total (`_total_drm`), `_modified` turns
the natural roll and the DRM total into the modified roll through the chart's steps, and
`_row_for` reads the row (a `natural` row holding the natural roll first, then the first row whose
range holds the modified roll). A chart's steps are its arithmetic in the order the rule states,
the DRMs among them (IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)" with "+1 drm
to the Flak attack roll" is `(('drms', 0), ('add', -3), ('minimum', 0), ('maximum', 3))`); no
steps: the natural roll plus the DRM total. `_modified` is the one implementation of the steps;
`_roll_steps` names each step made with the roll after it (the steps up to it, made by `_modified`),
as `chartc lookup` and `roll_<id>` show them. A generated `lookup_<id>` of a chart without steps
writes the sum inline (a call is most of a lookup's time); every other reader calls `_modified`.
"""

from __future__ import annotations

from typing import TypeAlias

from compiler.engine.runtime.base import _V, _Row
from compiler.engine.runtime.rows import _in_range, _Index, _key_matches

# ---- inlined into a generated module below this line
# A step of a roll's arithmetic: ('drms', 0) adds the DRM total; ('add', N) adds N (minus 3 is
# ('add', -3)); ('times', N) multiplies by N; ('halve_down', 2) and ('halve_up', 2) halve, rounding
# down or up; ('minimum', N) and ('maximum', N) hold the roll at or above N, at or below N.
_Step: TypeAlias = tuple[str, int]
# A step made: the step, its amount (the DRM step's: the DRM total) and the roll after it.
_Made: TypeAlias = tuple[str, int, int]


def _modified(natural: int, drm: int, steps: tuple[_Step, ...] = ()) -> int:
    """The modified roll: the natural roll through the chart's steps in order, or plus the DRM
    total when it has none.

    Raises:
        ValueError: a step the runtime does not know.
    """
    if not steps:
        return natural + drm
    roll = natural
    for step, amount in steps:
        if step == "drms":
            roll += drm
        elif step == "add":
            roll += amount
        elif step == "times":
            roll *= amount
        elif step == "halve_down":
            roll //= 2
        elif step == "halve_up":
            roll = -(-roll // 2)
        elif step == "minimum":
            roll = max(roll, amount)
        elif step == "maximum":
            roll = min(roll, amount)
        else:
            raise ValueError(f"unknown step {step!r} of a roll")
    return roll


def _roll_steps(natural: int, drm: int, steps: tuple[_Step, ...] = ()) -> tuple[_Made, ...]:
    """Each step of the roll made in order, with its amount (the DRM step's: the DRM total) and the
    roll after it (`_modified` of the steps up to it); no steps: the DRM total added.
    """
    if not steps:
        return (("drms", drm, natural + drm),)
    return tuple(
        (step, drm if step == "drms" else amount, _modified(natural, drm, steps[: at + 1]))
        for at, (step, amount) in enumerate(steps)
    )


def _natural_row(natural_rows: tuple[_Row[_V], ...], keys: tuple[str, ...], natural: int) -> _V | None:
    """The values of the first `natural` row whose keys match and whose range holds the natural
    roll; None when none does.
    """
    for row_keys, low, high, values in natural_rows:
        if _in_range(low, high, natural) and all(_key_matches(k, g) for k, g in zip(row_keys, keys, strict=True)):
            return values
    return None


def _row_for(
    natural_rows: tuple[_Row[_V], ...], index: _Index[_V], keys: tuple[str, ...], natural: int, modified: int
) -> _V | None:
    """The row step: the first `natural` row holding the natural roll, else the first row whose
    range holds the modified roll; None when no row is selected.
    """
    found = _natural_row(natural_rows, keys, natural) if natural_rows else None
    return found if found is not None else index.find(keys, modified)


def _select_natural(
    chart: str,
    natural_rows: tuple[_Row[_V], ...],
    index: _Index[_V],
    keys: tuple[str, ...],
    natural: int,
    modified: int,
) -> _V:
    """The row step of a chart with `natural` rows (`_row_for`).

    Raises:
        NoRowError: no row is selected.
    """
    found = _natural_row(natural_rows, keys, natural)
    return found if found is not None else index.select(chart, keys, modified)
