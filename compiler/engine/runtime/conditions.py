"""DRM conditions and their three-valued logic: the step of a roll that decides which DRMs, `roll
... when` dice and column shifts apply.

A flag is never unset (left out, it is False); any other context value left out or None is
unknown. A comparison with an unknown value is unknown, `not` keeps it unknown, `and` is false as
soon as one part is false and `or` true as soon as one part is true; a DRM applies only when its
condition is true.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, TypeAlias, assert_never

# ---- inlined into a generated module below this line
# NamedTuples rather than dataclasses: a dataclass with postponed annotations needs its module in
# sys.modules, and a generated module is often loaded straight from its file.


class _Flag(NamedTuple):
    var: str


class _Compare(NamedTuple):
    var: str
    op: Literal["==", "!=", ">=", "<=", ">", "<"]
    value: int | str


class _In(NamedTuple):
    var: str
    values: tuple[int | str, ...]


class _Not(NamedTuple):
    inner: _Condition


class _AllOf(NamedTuple):
    parts: tuple[_Condition, ...]


class _AnyOf(NamedTuple):
    parts: tuple[_Condition, ...]


_Condition: TypeAlias = "_Flag | _Compare | _In | _Not | _AllOf | _AnyOf"
# A context value: a flag's bool, an int, a month 'YYYY-MM', an enum member's id; None is unknown.
_Context: TypeAlias = bool | int | str | None


def _compare(given: int | str, op: str, value: int | str) -> bool:
    """`given OP value`: ints by value, months 'YYYY-MM' as text (which orders them)."""
    if op == "==":
        return given == value
    if op == "!=":
        return given != value
    if isinstance(given, int) and isinstance(value, int):
        return {">=": given >= value, "<=": given <= value, ">": given > value, "<": given < value}[op]
    if isinstance(given, str) and isinstance(value, str):  # months 'YYYY-MM' order as text
        return {">=": given >= value, "<=": given <= value, ">": given > value, "<": given < value}[op]
    raise TypeError(f"cannot compare {given!r} {op} {value!r}")


def _holds(cond: _Condition, context: Mapping[str, _Context]) -> bool | None:
    """Whether a condition is true, false or unknown (None) given the context (a flag left out
    is False, any other variable left out is unknown).
    """
    match cond:
        case _Flag(var):
            return bool(context.get(var))
        case _Compare(var, op, value):
            given = context.get(var)
            return None if given is None else _compare(given, op, value)
        case _In(var, values):
            given = context.get(var)
            return None if given is None else given in values
        case _Not(inner):
            inner_holds = _holds(inner, context)
            return None if inner_holds is None else not inner_holds
        case _AllOf(parts):
            found = [_holds(p, context) for p in parts]
            return False if False in found else None if None in found else True
        case _AnyOf(parts):
            found = [_holds(p, context) for p in parts]
            return True if True in found else None if None in found else False
        case _:
            assert_never(cond)
