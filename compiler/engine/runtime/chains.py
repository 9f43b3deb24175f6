"""Chained results, inlined into a generated module whose charts hold chained cells.

`chartc build` copies the code below the marker line verbatim after the module's runtime, whose
other parts it uses. `_follow` walks a chain as `chartc lookup --follow` does: a step's row, the
rolls inside its cells (in column order, `_cell_outcome`), then the first cell that sends the
reader on: another chart (each key from `_next_key`: the reference's own, else this step's key of
that name, else this row's value in a column of that name, else the key the reader gave; the DRM
the reference carries), this chart again, or nowhere (the chain ends; a chart without a step
function, printed elsewhere, ends it too). `compiler.engine.chains` reads chains with the same
`_next_key` and `_cell_outcome`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TypedDict, TypeVar

from compiler.engine.runtime.conditions import _Context
from compiler.engine.runtime.context import AppliedDrm, _Var
from compiler.engine.runtime.dice import _Dice, _roll
from compiler.engine.runtime.rows import _in_range

# ---- inlined into a generated module below this line
_O = TypeVar("_O")


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
    """One step of a chain: the chart, its natural roll (None: read by keys), DRM total, modified
    roll, the row's values with each roll inside a cell made, those rolls in column order, and the
    chart's DRMs that applied in the situation given (`when=`/`set_=`)."""

    chart: str
    natural: int | None
    drm: int
    modified: int | None
    values: dict[str, object]
    cell_rolls: list[int]
    drms: tuple[AppliedDrm, ...]


# The situation of a chain (every chart's context variables by id), None when none was given.
_Situation = Mapping[str, _Context] | None
# What a step of a chain made: natural roll, DRM total, modified roll, the row's values, the DRMs applied.
_StepMade = tuple[int | None, int, int | None, Mapping[str, object], tuple[AppliedDrm, ...]]
# A chart's step: (rng, keys by id, DRM carried, situation) -> what it made.
_Stepper = Callable[[random.Random, Mapping[str, str], int, _Situation], _StepMade]


def _situation_for(reads: tuple[_Var, ...], situation: _Situation) -> dict[str, object] | None:
    """The part of a chain's situation one chart's DRMs read, as its `set_=` (None: not given)."""
    return None if situation is None else {v.id: situation[v.id] for v in reads if v.id in situation}


def _cell_outcome(outcomes: tuple[tuple[int | None, int | None, _O], ...], natural: int) -> _O | None:
    """The outcome of a roll inside a cell whose range, (low, high, outcome), holds the natural roll;
    None when none does.
    """
    return next((outcome for low, high, outcome in outcomes if _in_range(low, high, natural)), None)


def _cell_value(rng: random.Random, value: object, rolls: list[int]) -> object:
    """A cell with each roll inside it made (a roll whose outcome is a roll rolls again)."""
    while isinstance(value, dict) and "outcomes" in value:
        natural = _roll(rng, _Dice("sum", int(value["count"]), int(value["sides"])))
        rolls.append(natural)
        value = _cell_outcome(value["outcomes"], natural)
    return value


def _next_key(key: str, *sources: Mapping[str, object]) -> str | None:
    """The value of key `key` of the chart a chain goes to next: the first of `sources` (the
    reference's own keys, this step's keys, this row's values by column, the keys the reader gave)
    that gives it as text; None when none does.
    """
    for source in sources:
        value = source.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _next_keys(
    target_keys: tuple[str, ...],
    move: Mapping[str, object],
    keys: Mapping[str, str],
    values: Mapping[str, object],
    given: Mapping[str, str],
) -> dict[str, str]:
    """The keys of the next chart (`_next_key`).

    Raises:
        ValueError: a key none of them gives.
    """
    written = move.get("keys")
    own: Mapping[str, object] = written if isinstance(written, dict) else {}
    out: dict[str, str] = {}
    for key in target_keys:
        value = _next_key(key, own, keys, values, given)
        if value is None:
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
    situation: _Situation = None,
) -> list[Step]:
    """Walk the chain from chart `start`; at most `limit` steps. Each chart's DRMs are read in the
    `situation` when one is given (as `chartc lookup --follow --when/--set` reads them).

    Raises:
        ValueError: a key no step gives; RuntimeError: the walk did not end within `limit` steps.
    """
    address, given = start, keys
    steps: list[Step] = []
    while len(steps) < limit:
        natural, total, modified, values, applied = steppers[address](rng, keys, drm, situation)
        rolls: list[int] = []
        made = {column: _cell_value(rng, value, rolls) for column, value in values.items()}
        steps.append(Step(chart=address, natural=natural, drm=total, modified=modified, values=made, cell_rolls=rolls,
                          drms=applied))
        move = next((v for v in made.values() if isinstance(v, dict) and ("chart" in v or "again" in v)), None)
        if move is None or ("chart" in move and move["chart"] not in steppers):
            return steps
        drm = int(move.get("drm", 0))
        if "chart" in move:
            address = str(move["chart"])
            keys = _next_keys(chart_keys[address], move, keys, made, given)
    raise RuntimeError(f"{start}: the chain did not end within {limit} steps")
