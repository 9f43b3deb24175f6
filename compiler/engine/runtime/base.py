"""The runtime's first part: the error a generated module raises when no row is selected, the shape
of a row, and the one clamp of a total (DRMs, column shifts).
"""

from __future__ import annotations

from typing import TypeAlias, TypeVar

# ---- inlined into a generated module below this line
_V = TypeVar("_V")
_M = TypeVar("_M", bound=str)


class NoRowError(LookupError):
    """The roll or keys select no row of the chart (a gap, or a modified roll off the table)."""


# A row key: a member id, None for any, the months (first, last) it covers (last None: open end), or
# the turns (first, last, halves) of a track of days split into halves, in play order.
_Key: TypeAlias = str | tuple[str, str | None] | tuple[str, str | None, tuple[str, ...]] | None
# A row: its keys, its lowest and highest roll or value (None: open end), and its values.
_Row: TypeAlias = tuple[tuple[_Key, ...], int | None, int | None, _V]


def _clamp(value: int, bounds: tuple[int, int] | None) -> int:
    """`value` held inside `bounds` (lowest, highest); None: no bounds. The one clamp of a total: a
    DRM total under `combine sum clamp`, a column shift total under its cap (a roll's own minimum
    and maximum are steps of its arithmetic, `compiler.engine.runtime.roll`).
    """
    return value if bounds is None else max(bounds[0], min(bounds[1], value))
