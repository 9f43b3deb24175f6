"""Model values and conditions as the literals a generated module writes: plain Python data for
`repr()`, and a condition as the runtime's condition objects."""

from __future__ import annotations

from typing import assert_never

from compiler import model
from compiler.emit.python.layout import tuple_display


def plain(value: object) -> object:
    """A model value as plain Python data for `repr()`: a StrEnum or str subclass (`Month`,
    `MemberId`) as its text, a tuple subclass (`Slashed`) as a tuple."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    return value


def runtime_condition(c: model.Condition | None) -> str:
    """A DRM condition as the runtime's condition objects (evaluated with three-valued logic)."""
    match c:
        case None:
            return "None"
        case model.Flag():
            return f"_Flag({c.var!r})"
        case model.Compare():
            return f"_Compare({c.var!r}, {str(c.op)!r}, {plain(c.value)!r})"
        case model.In():
            return f"_In({c.var!r}, {tuple_display([repr(plain(v)) for v in c.values])})"
        case model.Not():
            return f"_Not({runtime_condition(c.inner)})"
        case model.All():
            return f"_AllOf({tuple_display([runtime_condition(p) for p in c.parts])})"
        case model.Any_():
            return f"_AnyOf({tuple_display([runtime_condition(p) for p in c.parts])})"
        case _:
            assert_never(c)
