"""A roll as a pipeline of steps: dice -> DRMs -> arithmetic -> clamps -> row.

The dice give the natural roll (`_roll`), the DRMs their total (`_total_drm`), `_modified` turns
the natural roll and the DRM total into the modified roll, and `_row_for` reads the row (a
`natural` row holding the natural roll first, then the first row whose range holds the modified
roll). Today the arithmetic is the sum natural + DRM and the one clamp the chart's `modified clamp
LOW to HIGH`; dice arithmetic ("1d6 minus 3, minimum 0" with the DRM at the step the rule says,
halving) belongs in `_modified`, the one place that turns a natural roll into a modified one.
A generated `lookup_<id>` of a chart without a `modified clamp` writes that sum inline (a call is
most of a lookup's time); every other reader calls `_modified`.
"""

from __future__ import annotations

from compiler.engine.runtime.base import _V, _clamp, _Row
from compiler.engine.runtime.rows import _in_range, _Index, _key_matches

# ---- inlined into a generated module below this line


def _modified(natural: int, drm: int, cap: tuple[int, int] | None = None) -> int:
    """The modified roll: the natural roll plus the DRM total, held inside the chart's `modified
    clamp LOW to HIGH` (None: no cap).
    """
    return _clamp(natural + drm, cap)


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
