"""Which printing of a game chartc reads: the charts with every errata applied (`AsCorrected`, the
default), exactly as the book prints them (`AsPrinted`, `--as-printed`), or as they stood after a
named errata (`UpTo`, `--printing NAME`: the errata blocks in their `order`, then name, up to and
including NAME).

A printing is a value: the compiled-game cache and the build record key on `printing_key`, so a
saved game or a recorded build of one printing never answers for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, assert_never

from compiler.diagnostics.suggest import closest

if TYPE_CHECKING:
    from dsl import ast


class _Value:
    """A frozen value compared, hashed, printed and pickled by its class and its `__slots__`: what
    `@dataclass(frozen=True)` makes, without the methods it writes and `exec`s for each class at
    import (about half a millisecond a class; `chartc lookup` imports this module and makes
    `AS_CORRECTED` at once, so `dsl.lazy_dataclass` would not defer it)."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Value) and type(other) is type(self) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a printing is frozen: cannot set `{name}`")

    def __reduce__(self) -> tuple[type[_Value], tuple[Any, ...]]:
        return type(self), self._fields()  # a build's worker process receives the printing


class AsCorrected(_Value):
    """Every errata applied: the charts as the publisher means them today."""

    __slots__ = ()


class AsPrinted(_Value):
    """No errata applied: the charts exactly as the book prints them."""

    __slots__ = ()


class UpTo(_Value):
    """The errata in application order up to and including `errata` (an errata block's id)."""

    __slots__ = ("errata",)
    __match_args__ = ("errata",)
    errata: str

    def __init__(self, errata: str) -> None:
        object.__setattr__(self, "errata", errata)


Printing = AsCorrected | AsPrinted | UpTo

AS_CORRECTED = AsCorrected()
AS_PRINTED = AsPrinted()


def printing_key(printing: Printing) -> str:
    """The printing as one word for cache keys, build records and file names: `amended`,
    `as-printed` or `up-to-NAME` (NAME is an errata id: letters, digits and `_`)."""
    match printing:
        case AsCorrected():
            return "amended"
        case AsPrinted():
            return "as-printed"
        case UpTo(errata=name):
            return f"up-to-{name}"
        case _:
            assert_never(printing)


def describe(printing: Printing) -> str:
    """The printing in words, for labels: `as printed`, `up to errata ia2_1943_44`, `as corrected`."""
    match printing:
        case AsCorrected():
            return "as corrected"
        case AsPrinted():
            return "as printed"
        case UpTo(errata=name):
            return f"up to errata {name}"
        case _:
            assert_never(printing)


def printing_from(as_printed: bool, name: str | None) -> Printing:
    """The printing a command line names: `--as-printed`, `--printing NAME`, or neither (the caller
    refuses both together)."""
    if name is not None:
        return UpTo(name)
    return AS_PRINTED if as_printed else AS_CORRECTED


class UnknownPrinting(ValueError):
    """`--printing NAME` names no errata of the game: the message lists its errata, in the order
    they apply, with the closest as "did you mean"."""

    def __init__(self, game_id: str, name: str, known: Sequence[str]) -> None:
        self.game_id, self.name, self.known = game_id, name, tuple(known)
        if not self.known:
            message = f"game `{game_id}` has no errata, so there is no printing `{name}`; " \
                      "use --as-printed or leave the option out"
        else:
            listed = ", ".join(f"`{k}`" for k in self.known)
            near = closest(name, self.known)
            hint = f"did you mean `{near}`? " if near else ""
            message = f"game `{game_id}` has no errata `{name}`; {hint}its errata, in the order they apply: {listed}"
        super().__init__(message)

    def __reduce__(self) -> tuple[type[UnknownPrinting], tuple[str, str, tuple[str, ...]]]:
        return UnknownPrinting, (self.game_id, self.name, self.known)  # sent back from a build's worker process


def in_order(decls: Sequence[ast.ErrataDecl]) -> list[ast.ErrataDecl]:
    """Errata in the order they apply: by `order` (unset counts as 0), then by name."""
    return sorted(decls, key=lambda e: (e.order or 0, e.name.text))


def applied(
    printing: Printing, decls: Sequence[ast.ErrataDecl], game_id: str, complete: bool = True
) -> list[ast.ErrataDecl]:
    """The errata blocks `printing` applies, of the game's `decls`, in the order they were given.

    Raises UnknownPrinting when `printing` names an errata the game does not declare, unless some
    file of the game could not be parsed (`complete` false): then it may be in that file, whose
    syntax error fails the compilation anyway, and no errata applies.
    """
    match printing:
        case AsCorrected():
            return list(decls)
        case AsPrinted():
            return []
        case UpTo(errata=name):
            ordered = in_order(decls)
            ids = [e.name.text for e in ordered]
            if name not in ids:
                if not complete:
                    return []
                raise UnknownPrinting(game_id, name, list(dict.fromkeys(ids)))
            last = max(i for i, e in enumerate(ordered) if e.name.text == name)
            kept = {id(e) for e in ordered[: last + 1]}
            return [e for e in decls if id(e) in kept]
        case _:
            assert_never(printing)
