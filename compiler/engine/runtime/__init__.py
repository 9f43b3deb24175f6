"""The runtime every generated chart module carries: the one implementation of each step of a roll.

A roll is a pipeline of steps, one part of this package each: the dice (`dice`), the DRM
conditions (`conditions`, three-valued) and the DRMs' amounts, exclusive groups and the clamp of
their total (`drms`), the arithmetic and clamps that make the modified roll and the row it selects
(`roll`, `rows`), and what a roll returns (`results`); then CRT column shifts (`shifts`) and odds
(`odds`), the arithmetic of formulas (`formulas`), and chained results (`chains`, only in a module
whose charts hold chained cells).

The parts are standard-library only. `chartc build` inlines the code below each part's marker line,
in the order of `PARTS`, verbatim into every generated game module (`runtime_code`), so a module
stays standalone (no import of chartc). chartc itself calls the same functions: lookup, chances,
reach, vectors and the worked-example check read a chart through `compiler.engine.plain`, which
converts model objects to this runtime's plain data once per object, so chartc and the generated
modules cannot disagree. Underscored names are private to a generated module; the identifier
policy (`compiler.emit.python.names`) never gives a chart's name to a Python name defined here.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # at run time each name is imported from its part on first use (`__getattr__`)
    from compiler.engine.runtime.base import NoRowError, _clamp, _Key, _Row
    from compiler.engine.runtime.chains import (
        CellRoll,
        ChainRef,
        RollAgain,
        Step,
        _cell_outcome,
        _follow,
        _next_key,
        _Stepper,
    )
    from compiler.engine.runtime.checks import (
        _check_flag,
        _check_int,
        _check_member,
        _check_month,
        _check_natural,
        _check_no_drm,
        _check_range,
        _check_rng,
        _check_turn,
        _check_value,
        _member,
        _odds_key,
    )
    from compiler.engine.runtime.conditions import (
        _AllOf,
        _AnyOf,
        _Compare,
        _compare,
        _Condition,
        _Context,
        _Flag,
        _holds,
        _In,
        _Not,
    )
    from compiler.engine.runtime.context import AppliedDrm, _context_drms, _given_context, _Var
    from compiler.engine.runtime.dice import _Dice, _dice_for, _roll
    from compiler.engine.runtime.drms import _applied, _Drm, _drm_terms, _exclusive, _Per, _per_steps, _total_drm
    from compiler.engine.runtime.formulas import _div, _pow, _round_half_up
    from compiler.engine.runtime.odds import (
        _odds_band,
        _odds_column,
        _odds_column_id,
        _odds_fraction,
        _odds_ratio,
        _odds_read,
        _OddsReading,
        _OddsRule,
        _raw_odds,
        _round,
    )
    from compiler.engine.runtime.results import ChartRef, Roll, _rolled
    from compiler.engine.runtime.roll import (
        _Made,
        _modified,
        _natural_row,
        _roll_steps,
        _row_for,
        _select_natural,
        _Step,
    )
    from compiler.engine.runtime.rows import _first, _in_range, _Index, _key_matches, _select, _turn_at
    from compiler.engine.runtime.shifts import _Shift, _shift_terms

__all__ = [
    "CHAINS",
    "PARTS",
    "AppliedDrm",
    "CellRoll",
    "ChainRef",
    "ChartRef",
    "NoRowError",
    "Roll",
    "RollAgain",
    "Step",
    "_AllOf",
    "_AnyOf",
    "_Compare",
    "_Condition",
    "_Context",
    "_Dice",
    "_Drm",
    "_Flag",
    "_In",
    "_Index",
    "_Key",
    "_Made",
    "_Not",
    "_OddsReading",
    "_OddsRule",
    "_Per",
    "_Row",
    "_Shift",
    "_Step",
    "_Stepper",
    "_Var",
    "_applied",
    "_cell_outcome",
    "_check_flag",
    "_check_int",
    "_check_member",
    "_check_month",
    "_check_natural",
    "_check_no_drm",
    "_check_range",
    "_check_rng",
    "_check_turn",
    "_check_value",
    "_clamp",
    "_compare",
    "_context_drms",
    "_dice_for",
    "_div",
    "_drm_terms",
    "_exclusive",
    "_first",
    "_follow",
    "_given_context",
    "_holds",
    "_in_range",
    "_key_matches",
    "_member",
    "_modified",
    "_natural_row",
    "_next_key",
    "_odds_band",
    "_odds_column",
    "_odds_column_id",
    "_odds_fraction",
    "_odds_key",
    "_odds_ratio",
    "_odds_read",
    "_per_steps",
    "_pow",
    "_raw_odds",
    "_roll",
    "_roll_steps",
    "_rolled",
    "_round",
    "_round_half_up",
    "_row_for",
    "_select",
    "_select_natural",
    "_shift_terms",
    "_total_drm",
    "_turn_at",
    "chain_runtime_code",
    "runtime_code",
]

# The parts every generated module carries, in the order they are inlined (each uses only the
# parts before it); `chains` follows them in a module whose charts hold chained cells. The
# `header` part holds the generated module's imports; chartc never imports it.
PARTS: tuple[str, ...] = ("header", "base", "checks", "conditions", "dice", "drms", "context", "rows", "roll")
PARTS += ("results",)
PARTS += ("shifts", "odds", "formulas")
CHAINS = "chains"
_MARKER = "# ---- inlined into a generated module below this line"


def __getattr__(name: str) -> object:
    """A runtime name (`runtime._holds`), imported from the part that defines it on first use, so
    a question that reads rows only (`chartc lookup`) loads only the parts it calls."""
    if name in PARTS or name == CHAINS or name.startswith("__"):
        raise AttributeError(name)  # a part not imported yet: the import system loads it
    for part in (*PARTS[1:], CHAINS):
        module: ModuleType = importlib.import_module(f"{__name__}.{part}")
        if name in vars(module):
            value: object = vars(module)[name]
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _inlined(part: str) -> str:
    """The code of one part below its marker line, without blank lines around it."""
    source = (Path(__file__).parent / f"{part}.py").read_text(encoding="utf-8")
    _, marker, code = source.partition(_MARKER)
    assert marker, f"runtime part {part} has no marker line"
    return code.strip("\n")


@functools.cache
def runtime_code() -> str:
    """The runtime as a generated module carries it: the parts of `PARTS` below their marker lines,
    in order, two blank lines apart. Read once per process: every game's module inlines it."""
    return "\n\n\n".join(_inlined(part) for part in PARTS) + "\n"


@functools.cache
def chain_runtime_code() -> str:
    """The chain runtime's code below its marker line, inlined after the module's runtime."""
    return "\n\n" + _inlined(CHAINS)
