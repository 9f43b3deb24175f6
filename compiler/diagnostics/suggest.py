"""`did you mean`: the help line for an unknown name.

The closest name is found by `difflib` (a ratio of at least 0.6). Over a large pool of names (an
enum of thousands of records, a game of thousands of charts) comparing every unknown name with
every known one costs typos x names; there the pool is first narrowed, through an index of the
names' character pairs, to the few names sharing the most pairs with the unknown one. Each pool
is indexed once and reused while the same names are asked about.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

# Pools up to this size are compared name by name (exact difflib, as for every real chart).
_SMALL_POOL = 200
# How many names of a large pool, sharing the most character pairs, are compared exactly.
_SHORTLIST = 40
# A character pair found in more names than this tells them apart too little to be indexed.
_COMMON_PAIR = 400
_CUTOFF = 0.6
# Pools of at most this many names are listed when none is close.
_LISTED = 8


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A help line suggesting the closest known name, or listing the few that exist."""
    return _index(tuple(candidates)).suggest(name)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The known name `did_you_mean` suggests for `name`, or None (the name a fix writes)."""
    return _index(tuple(candidates)).closest(name)


def suggestion(name: str, candidates: Iterable[str]) -> tuple[str | None, str | None]:
    """`did_you_mean`'s help line and `closest`'s name at the cost of one search (a finding's help
    and its fix)."""
    index = _index(tuple(candidates))
    close = index.closest(name)
    return index.help_for(close), close


def known_values_hint(name: str, values: Iterable[tuple[str, str | None]], noun: str = "values") -> str:
    """The help of a bad value: `did you mean `X`?` when one is close, then one list of the known
    values (`piston ("Piston-engined"), jet ("Jet or Rocket")`), each written once.

    Args:
        name: the value given.
        values: (id, printed label or None) of each known value, in their declared order.
        noun: what the values are (`values`, `keys`).
    """
    pairs = list(values)
    close = did_you_mean(name, [v for v, _ in pairs] + [label for _, label in pairs if label])
    listed = ", ".join(v if label is None or label == v else f'{v} ("{label}")' for v, label in pairs)
    known = f"known {noun}: {listed}" if pairs else f"there are no known {noun}"
    return f"{close} {known}" if close and close.startswith("did you mean") else known


@lru_cache(maxsize=64)
def _index(candidates: tuple[str, ...]) -> NameIndex:
    return NameIndex(candidates)


class NameIndex:
    """Known names prepared once for many `did you mean` questions."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self.pool = sorted(set(candidates))
        self.folded = {c.casefold(): c for c in self.pool}
        self._exact = _Matcher(self.pool)
        self._caseless = _Matcher(list(self.folded))

    def closest(self, name: str) -> str | None:
        """The closest name (case-sensitive first), else None."""
        close = self._exact.closest(name)
        if close is None:
            folded = self._caseless.closest(name.casefold())
            close = self.folded[folded] if folded is not None else None
        return close

    def suggest(self, name: str) -> str | None:
        """`did you mean `X`?` for the closest name, else the list of a small pool, else None."""
        return self.help_for(self.closest(name))

    def help_for(self, close: str | None) -> str | None:
        """The help line when `close` is the closest name (None: there is none)."""
        if close is not None:
            return f"did you mean `{close}`?"
        if self.pool and len(self.pool) <= _LISTED:
            return "known: " + ", ".join(f"`{c}`" for c in self.pool)
        return None


class _Matcher:
    """difflib's closest match over a pool, narrowed by shared character pairs when it is large."""

    def __init__(self, pool: list[str]) -> None:
        self.pool = pool
        self.pairs: dict[str, list[int]] = {}
        if len(pool) > _SMALL_POOL:
            for i, word in enumerate(pool):
                for pair in set(_pairs(word)):
                    self.pairs.setdefault(pair, []).append(i)

    def closest(self, name: str) -> str | None:
        import difflib  # lazy: only for an unknown name: `chartc lookup` of a known one suggests none

        pool = self.pool if len(self.pool) <= _SMALL_POOL else self._shortlist(name)
        close = difflib.get_close_matches(name, pool, n=1, cutoff=_CUTOFF)
        return close[0] if close else None

    def _shortlist(self, name: str) -> list[str]:
        shared: Counter[int] = Counter()
        for pair in set(_pairs(name.casefold())):
            found = self.pairs.get(pair, ())
            if len(found) <= _COMMON_PAIR:
                shared.update(found)
        best = heapq.nlargest(_SHORTLIST, shared.items(), key=lambda item: (item[1], -item[0]))
        return [self.pool[i] for i, _ in best]


def _pairs(word: str) -> list[str]:
    padded = f" {word.casefold()} "
    return [padded[i : i + 2] for i in range(len(padded) - 1)]
