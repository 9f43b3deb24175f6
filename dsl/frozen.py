"""A faster `__init__` for frozen dataclasses, the nodes of the syntax tree.

A frozen dataclass's generated `__init__` sets each field with `object.__setattr__` (its own
`__setattr__` refuses), which costs about twice a plain assignment: the penalty Python's
documentation of `frozen=True` warns of. The syntax tree of a 10,000-row file holds some 145,000
nodes, half of them spans. `fast_inits` gives a frozen dataclass that keeps its fields in the
instance's `__dict__` (no `__slots__`), has no `__post_init__` and no default factory, an
`__init__` with the same signature that writes the fields into that `__dict__`: the same objects,
equal, hashed and immutable as before, made faster. Any other class keeps the generated one.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any


def fast_inits(*classes: type) -> None:
    """Install the faster `__init__` in each of `classes` that is eligible. Generating one costs
    about as much as the dataclass's own, so a module gives it to the classes it makes many of."""
    for cls in classes:
        if _eligible(cls):
            cls.__init__ = _fast_init(cls)  # type: ignore[misc]


def _eligible(cls: type) -> bool:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        return False
    fields = dataclasses.fields(cls)
    return all(f.init and f.default_factory is dataclasses.MISSING for f in fields)


def _fast_init(cls: type) -> Any:
    fields = dataclasses.fields(cls)
    defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}" for f in fields)
    body = "".join(f"    d[{f.name!r}] = {f.name}\n" for f in fields) or "    pass\n"
    code = f"def __init__(self, {params}):\n    d = self.__dict__\n{body}"
    namespace: dict[str, Any] = dict(defaults)
    exec(code, namespace)  # field names are the module's own identifiers
    init = namespace["__init__"]
    original = cls.__init__  # type: ignore[misc]
    if not _same_parameters(init, original):  # pragma: no cover - kw_only fields, InitVars
        return original
    init.__annotations__ = original.__annotations__
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = original.__doc__
    return init


def _same_parameters(ours: Any, theirs: Any) -> bool:
    """The same positional parameters, defaults and nothing else (read from the code objects:
    `inspect.signature` would cost more than the import saves)."""
    a, b = ours.__code__, theirs.__code__
    return (
        a.co_varnames[: a.co_argcount] == b.co_varnames[: b.co_argcount]
        and b.co_kwonlyargcount == 0
        and not b.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
        and ours.__defaults__ == theirs.__defaults__
    )
