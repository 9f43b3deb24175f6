"""The argument checks of a generated module's functions: each raises ValueError naming what is
allowed (a roll the dice cannot show, a key value not of its enum, a month not 'YYYY-MM').
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Final, cast

from compiler.engine.runtime.base import _M

# ---- inlined into a generated module below this line
_MONTH: Final = re.compile(r"\d{4}-(0[1-9]|1[0-2])")

def _check_int(chart: str, name: str, value: object) -> int:
    """`value` itself; ValueError unless it is an int (a bool is not a number here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{chart}: {name} must be an int, got {value!r}")
    return value


def _check_flag(chart: str, name: str, value: object) -> None:
    """Raise ValueError unless `value` is True or False."""
    if not isinstance(value, bool):
        raise ValueError(f"{chart}: {name} must be True or False, got {value!r}")


def _check_month(chart: str, name: str, value: object) -> None:
    """Raise ValueError unless `value` is a month written 'YYYY-MM'."""
    if not isinstance(value, str) or not _MONTH.fullmatch(value):
        raise ValueError(f"{chart}: {name} must be a month 'YYYY-MM', got {value!r}")


def _check_turn(chart: str, name: str, value: object, allowed: tuple[str, ...]) -> None:
    """Raise ValueError, naming the form a turn is written in, unless `value` is one of the turns
    `allowed` (a track of days split into halves, in play order).
    """
    if not isinstance(value, str) or value not in allowed:
        halves = ", ".join(dict.fromkeys(t.partition(" ")[2] for t in allowed))
        raise ValueError(
            f"{chart}: {name} must be a turn 'YYYY-MM-DD HALF' (HALF one of {halves}) from {allowed[0]!r} to "
            f"{allowed[-1]!r}, got {value!r}"
        )


def _check_member(chart: str, name: str, value: object, allowed: tuple[str, ...]) -> None:
    """Raise ValueError, naming the allowed values, unless `value` is one of them."""
    if not isinstance(value, str) or value not in allowed:
        expected = ", ".join(map(repr, allowed))
        raise ValueError(f"{chart}: {value!r} is not a value of {name}; expected one of {expected}")


def _member(chart: str, name: str, value: object, labels: Mapping[_M, str]) -> _M:
    """The enum value `value` names: its id, or its printed label or id in any case.

    Raises:
        ValueError: anything else (the message names the allowed ids and labels).
    """
    if type(value) is str and value in labels:
        return cast(_M, value)  # an id, as given (a str subclass is compared below, one by one)
    if isinstance(value, str):
        folded = value.casefold()
        for member in labels:
            if value == member:
                return member
        for member, label in labels.items():
            if folded in (member.casefold(), label.casefold()):
                return member
    expected = ", ".join(f"{m!r} ({label!r})" for m, label in labels.items())
    raise ValueError(f"{chart}: {value!r} is not a value of {name}; expected one of {expected}")


def _check_range(chart: str, name: str, value: int | str, low: int | str | None, high: int | str | None) -> None:
    """Raise ValueError unless `value` (an int, or a month 'YYYY-MM') lies in its declared range."""
    if isinstance(value, int):
        outside = (isinstance(low, int) and value < low) or (isinstance(high, int) and value > high)
    else:  # months 'YYYY-MM' order as text
        outside = (isinstance(low, str) and value < low) or (isinstance(high, str) and value > high)
    if outside:
        shown = f"{'' if low is None else low} to {'' if high is None else high}".strip()
        raise ValueError(f"{chart}: {name} {value!r} is outside its declared range ({shown})")


def _odds_key(chart: str, name: str, value: object, columns: tuple[str, ...]) -> str:
    """The odds column a CRT key names: its printed label ('3:1', what an odds function returns,
    and the column's id in the game's JSON).

    Raises:
        ValueError: anything else (the message names the columns).
    """
    if isinstance(value, str) and value in columns:
        return value
    expected = ", ".join(map(repr, columns))
    raise ValueError(f"{chart}: {value!r} is not an odds column of {name}; expected one of {expected}")


def _check_natural(chart: str, roll: object, outcomes: frozenset[int], dice: str) -> None:
    """Raise ValueError unless `roll` is a natural roll the dice can show."""
    if not isinstance(roll, int) or isinstance(roll, bool) or roll not in outcomes:
        raise ValueError(f"{chart}: {roll!r} cannot be rolled on {dice}")


def _check_no_drm(chart: str, drm: int, dice: str) -> None:
    """Raise ValueError for a DRM on a d66 or percentile roll whose chart gives it no meaning."""
    if drm:
        raise ValueError(f"{chart}: a DRM ({drm:+d}) on {dice}, read digit by digit, has no stated meaning")


def _check_value(chart: str, name: str, value: object, low: int | None, high: int | None) -> None:
    """Raise ValueError unless `value` is an int inside the chart's domain `low`..`high`."""
    number = _check_int(chart, name, value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{chart}: {name} {number} is outside the chart's domain")


def _check_rng(chart: str, rng: object) -> None:
    """Raise ValueError unless `rng` is a `random.Random`."""
    if not isinstance(rng, random.Random):
        raise ValueError(f"{chart}: rng must be a random.Random, got {rng!r}")
