"""The runtime of chained results, inlined into a generated module whose charts hold chained cells.

`chartc build` copies the code below the marker line verbatim after the module's runtime
(`compiler/engine/runtime.py`), whose `_roll` it uses. `_follow` walks a chain as `chartc lookup
--follow` does: a step's row, the rolls inside its cells (in column order), then the first cell
that sends the reader on: another chart (keys from the reference, else this step's key of that name,
else this row's value in a column of that name; the DRM the reference carries), this chart again,
or nowhere (the chain ends; a chart without a step function, printed elsewhere, ends it too).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TypedDict

from compiler.engine import runtime

_roll = runtime._roll  # in a generated module, the runtime's own `_roll`

# ---- inlined into a generated module below this line


class ChainRef(TypedDict):
    """A chained result "roll on [B6] (key=value, +1)": the chart, the keys it gives, the DRM it carries."""

    chart: str
    keys: dict[str, str]
    drm: int


class RollAgain(TypedDict):
    """A chained result "roll again on this chart", with the DRM it carries."""

    again: bool
    drm: int


class CellRoll(TypedDict):
    """A roll inside a cell: `count` dice of `sides` faces, and each outcome as (low, high, value)."""

    count: int
    sides: int
    outcomes: tuple[tuple[int | None, int | None, object], ...]


class Step(TypedDict):
    """One step of a chain: the chart, its natural roll (None: read by keys), DRM, modified roll,
    the row's values with each roll inside a cell made, and those rolls in column order."""

    chart: str
    natural: int | None
    drm: int
    modified: int | None
    values: dict[str, object]
    cell_rolls: list[int]


# A chart's step: (rng, keys by id, DRM) -> (natural roll, modified roll, the row's values).
_Stepper = Callable[[random.Random, Mapping[str, str], int], tuple[int | None, int | None, Mapping[str, object]]]


def _cell_value(rng: random.Random, value: object, rolls: list[int]) -> object:
    """A cell with each roll inside it made (a roll whose outcome is a roll rolls again)."""
    while isinstance(value, dict) and "outcomes" in value:
        natural = _roll(rng, "sum", int(value["count"]), int(value["sides"]), 0, 0)
        rolls.append(natural)
        value = next(v for low, high, v in value["outcomes"] if _in_range(low, high, natural))
    return value


def _in_range(low: int | None, high: int | None, natural: int) -> bool:
    return (low is None or natural >= low) and (high is None or natural <= high)


def _next_keys(
    target_keys: tuple[str, ...], move: Mapping[str, object], keys: Mapping[str, str], values: Mapping[str, object]
) -> dict[str, str]:
    """The keys of the next chart: the reference's own, else this step's, else this row's values.

    Raises:
        ValueError: a key none of them gives.
    """
    written = move.get("keys")
    given = written if isinstance(written, dict) else {}
    out: dict[str, str] = {}
    for key in target_keys:
        value = given.get(key) or keys.get(key) or values.get(key)
        if not isinstance(value, str):
            raise ValueError(f"{move['chart']}: no step of the chain gives key {key!r}")
        out[key] = value
    return out


def _follow(
    start: str,
    rng: random.Random,
    keys: Mapping[str, str],
    drm: int,
    steppers: Mapping[str, _Stepper],
    chart_keys: Mapping[str, tuple[str, ...]],
    limit: int = 100,
) -> list[Step]:
    """Walk the chain from chart `start`; at most `limit` steps.

    Raises:
        ValueError: a key no step gives; RuntimeError: the walk did not end within `limit` steps.
    """
    address = start
    steps: list[Step] = []
    while len(steps) < limit:
        natural, modified, values = steppers[address](rng, keys, drm)
        rolls: list[int] = []
        made = {column: _cell_value(rng, value, rolls) for column, value in values.items()}
        steps.append(Step(chart=address, natural=natural, drm=drm, modified=modified, values=made, cell_rolls=rolls))
        move = next((v for v in made.values() if isinstance(v, dict) and ("chart" in v or "again" in v)), None)
        if move is None or ("chart" in move and move["chart"] not in steppers):
            return steps
        drm = int(move.get("drm", 0))
        if "chart" in move:
            address = str(move["chart"])
            keys = _next_keys(chart_keys[address], move, keys, made)
    raise RuntimeError(f"{start}: the chain did not end within {limit} steps")
