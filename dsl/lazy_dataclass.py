"""`dataclass` as in the standard library, with the class's methods generated on first use.

`dataclasses.dataclass` writes the source of each class's `__init__`, `__repr__`, `__eq__`,
`__hash__`, `__setattr__` and `__delattr__` and `exec`s it, about half a millisecond of CPU a
class: importing the model's ~80 classes cost more than `chartc lookup` spends answering from the
compiled-game cache (`compiler.build.cache`), whose unpickled instances need none of those methods
to be read. This decorator leaves the class as written and puts a stand-in where the standard
decorator would put each method or attribute; the first use of any of them (creating, comparing,
hashing or printing an instance, setting an attribute of a frozen one, `dataclasses.fields` or
`replace`, a `match` with positional patterns) runs the standard decorator, with the same options,
on the class and on its bases still waiting, bases first. From then on the class is exactly what
the standard decorator makes of it. Type checkers see the standard decorator.

`slots=True` makes a new class, which cannot be deferred: the standard decorator runs at once.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls: type | None = None, /, **options: Any) -> Any:
        """`@dataclass` or `@dataclass(frozen=True, ...)`, deferred to the class's first use."""
        if cls is None:
            return lambda c: _defer(c, options)
        return _defer(cls, options)


# Class attributes the standard decorator sets, read through `_DeferredAttribute` until then.
_ATTRIBUTES = ("__dataclass_fields__", "__dataclass_params__", "__match_args__")
_ORDER = ("__lt__", "__le__", "__gt__", "__ge__")

_standard = dataclasses.dataclass
_pending: dict[type, tuple[dict[str, Any], list[str]]] = {}
"""Classes decorated and not yet completed: their options and the names of their stand-ins."""
_lock = threading.RLock()


def _defer(cls: type, options: dict[str, Any]) -> type:
    if options.get("slots") or options.get("weakref_slot"):
        return _standard(cls, **options)
    own = cls.__dict__
    eq = options.get("eq", True)
    frozen = options.get("frozen", False)
    methods = []
    if options.get("init", True):
        methods.append("__init__")
    if options.get("repr", True):
        methods.append("__repr__")
    if eq:
        methods.append("__eq__")
    if options.get("order", False):
        methods.extend(_ORDER)
    if frozen:
        methods.extend(("__setattr__", "__delattr__"))
    if eq or options.get("unsafe_hash", False):
        methods.append("__hash__")
    placed = []
    for name in methods:
        # a class body that defines `__eq__` alone gets `__hash__ = None`, which the standard
        # decorator replaces as it would any missing `__hash__`
        if name not in own or (name == "__hash__" and own[name] is None and "__eq__" in own):
            setattr(cls, name, _stand_in(cls, name))
            placed.append(name)
    for name in _ATTRIBUTES:
        if name not in own:
            setattr(cls, name, _DeferredAttribute(name))
            placed.append(name)
    with _lock:
        _pending[cls] = (options, placed)
    return cls


def complete(cls: type) -> None:
    """Run the standard decorator on `cls` and on each of its bases still waiting, bases first
    (a class's fields include its bases'). Nothing to do for a class already complete.

    A class leaves `_pending` only once it is complete, so a stand-in called meanwhile waits for
    the lock rather than find the class half made. (Between removing its stand-ins and the
    standard decorator's setting the real methods, a class is not usable from another thread;
    chartc runs one.)"""
    if not _pending:
        return
    with _lock:
        for base in reversed(cls.__mro__):
            entry = _pending.get(base)
            if entry is not None:
                options, placed = entry
                for name in placed:
                    delattr(base, name)
                _standard(base, **options)
                del _pending[base]


def _stand_in(owner: type, name: str) -> Callable[..., Any]:
    """The method `name` of `owner` until the class is complete: completes it (and the class of
    the instance, which may be a subclass), then calls the real method."""

    def stand_in(self: Any, *args: Any, **kwargs: Any) -> Any:
        complete(type(self))
        method = owner.__dict__.get(name)
        if method is None:  # the standard decorator found `__hash__ = None` in the class
            raise TypeError(f"unhashable type: {type(self).__name__!r}")
        return method(self, *args, **kwargs)

    stand_in.__name__ = name
    stand_in.__qualname__ = f"{owner.__qualname__}.{name}"
    return stand_in


class _DeferredAttribute:
    """A class attribute the standard decorator sets: reading it completes the class (`owner`,
    which may be a subclass of the class holding this) and returns the real attribute."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __get__(self, instance: object, owner: type) -> Any:
        complete(owner)
        return getattr(owner, self._name)
