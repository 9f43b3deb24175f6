"""The runtime's plain data (`compiler.engine.plain`) written as Python literals.

The generated module holds the very data chartc's engine reads: a DRM, a condition, a column
shift, dice or an odds rule is converted once by `compiler.engine.plain` and written here. A
NamedTuple of the runtime is written as its class called with its fields in order, trailing fields
at their defaults left out (`_Drm(2, _Flag('fb_attack'))`); any other value by `repr`, a str
subclass (a month, a member id) as its text.
"""

from __future__ import annotations

from compiler import model
from compiler.emit.python.layout import fill, tuple_display
from compiler.engine import plain


def literal(value: object) -> str:
    """`value` as a Python literal (see the module docstring)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return f"{type(value).__name__}({', '.join(arguments(value))})"
    if isinstance(value, tuple):
        return tuple_display([literal(v) for v in value])
    if isinstance(value, str):
        return repr(str(value))
    return repr(value)


def arguments(value: tuple[object, ...]) -> list[str]:
    """A runtime NamedTuple's fields as literals, in order, without the trailing ones at their defaults."""
    defaults: dict[str, object] = getattr(type(value), "_field_defaults", {})
    fields: tuple[str, ...] = getattr(value, "_fields", ())
    items = list(zip(fields, value, strict=True))
    while items and items[-1][0] in defaults and _same(items[-1][1], defaults[items[-1][0]]):
        items.pop()
    return [literal(v) for _, v in items]


def _same(value: object, default: object) -> bool:
    return type(value) is type(default) and value == default


def literal_lines(value: tuple[object, ...], head: str = "", tail: str = "", indent: str = "") -> list[str]:
    """A runtime NamedTuple as `head` + its literal + `tail`, on one line or, when longer than a
    line, its fields packed into lines between the parentheses."""
    return fill(f"{head}{type(value).__name__}(", arguments(value), f"){tail}", indent)


def runtime_condition(c: model.Condition | None) -> str:
    """A DRM condition as the runtime's condition objects (`compiler.engine.plain.condition`)."""
    return "None" if c is None else literal(plain.condition(c))
