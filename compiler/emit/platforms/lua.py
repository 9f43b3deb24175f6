"""Lua 5.2 literals: chart data as a Lua table constructor that can never become code.

Every string is written double-quoted with every byte outside printable ASCII, and `"` and `\\`,
as a three-digit decimal escape (`\\010`, `\\226\\136\\146`), so no chart text can close the string,
start a comment or a long bracket, or change meaning in an editor. Table keys are always written
`["key"] = ...`, so a key is never read as a name. Numbers are whole (Lua 5.2 has no integer
subtype; a whole double prints without a fraction); a bool is `true`/`false`; `None` is the
module's `M.null` (a `-` cell), or left out where the reader treats a missing field as absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

NULL = "M.null"


class Raw(str):
    """Lua source written as it is (a name such as `M.null`); only this module makes one."""


def string(text: str) -> str:
    """`text` as a Lua string literal, every byte outside printable ASCII escaped."""
    out = []
    for byte in text.encode("utf-8"):
        if 0x20 <= byte < 0x7F and byte not in (0x22, 0x5C):
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03d}")
    return '"' + "".join(out) + '"'


def literal(value: object, indent: str = "") -> str:
    """A Python value as a Lua literal: str, int, bool, None (`M.null`), lists and tuples as
    arrays, mappings as tables keyed by their (string or int) keys in insertion order."""
    match value:
        case Raw():
            return str(value)
        case None:
            return NULL
        case bool():
            return "true" if value else "false"
        case int():
            if abs(value) >= 2**53:
                raise ValueError(f"{value} is beyond the whole numbers a Lua 5.2 number holds")
            return str(value)
        case str():
            return string(value)
        case Mapping():
            return _table([(_key(k), v) for k, v in value.items()], indent)
        case Sequence():
            return _table([(None, v) for v in value], indent)
    raise TypeError(f"no Lua literal for {type(value).__name__}")


def _key(key: object) -> str:
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise TypeError(f"a Lua table key here is a string or an int, not {type(key).__name__}")
    return f"[{literal(key)}]"


def _table(items: list[tuple[str | None, object]], indent: str) -> str:
    if not items:
        return "{}"
    parts = [(f"{k} = " if k is not None else "") + literal(v, indent + "  ") for k, v in items]
    one_line = "{ " + ", ".join(parts) + " }"
    if len(one_line) + len(indent) <= 100 and "\n" not in one_line:
        return one_line
    inner = indent + "  "
    return "{\n" + "".join(f"{inner}{p},\n" for p in parts) + indent + "}"
