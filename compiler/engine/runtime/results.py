"""What a generated module's functions return besides a row's values: a roll's record (`Roll`,
made by `_rolled` with the steps of the pipeline) and a reference to another chart
(`ChartRef`). chartc's own readers return model objects and never import this part.
"""

from __future__ import annotations

from typing import Generic, TypedDict

from compiler.engine.runtime.base import _V
from compiler.engine.runtime.context import AppliedDrm
from compiler.engine.runtime.roll import _Made, _roll_steps, _Step

# ---- inlined into a generated module below this line


class ChartRef(TypedDict):
    """A cell that sends the player to another chart ("roll on [B6]"): that chart's ID."""

    chart: str


class Roll(TypedDict, Generic[_V]):
    """A roll on a chart: the natural roll, the DRM added to it, the modified roll, the row's values,
    the steps that made the modified roll (each step, its amount and the roll after it: `('drms',
    1, 3), ('add', -3, 0), ('minimum', 0, 0)`), and the chart's DRMs that applied in the situation
    given as `when=`/`set=` (empty when none was given).
    """

    natural: int
    drm: int
    modified: int
    values: _V
    steps: tuple[_Made, ...]
    drms: tuple[AppliedDrm, ...]


def _rolled(
    natural: int, drm: int, values: _V, steps: tuple[_Step, ...] = (), drms: tuple[AppliedDrm, ...] = ()
) -> Roll[_V]:
    """What `roll_<id>` returns: the natural roll, the DRM total, the modified roll, the row's
    values, the steps made (`_roll_steps`) and the DRMs that applied.
    """
    made = _roll_steps(natural, drm, steps)
    return {"natural": natural, "drm": drm, "modified": made[-1][2], "values": values, "steps": made, "drms": drms}
