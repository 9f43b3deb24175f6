"""The row step of a roll: the first row whose keys match and whose range holds the roll (open
ends included), read through an index built per combination of key values.
"""

from __future__ import annotations

from typing import Final, Generic, TypeAlias

from compiler.engine.runtime.base import _V, NoRowError, _Key, _Row

# ---- inlined into a generated module below this line


def _key_matches(key: _Key, given: str) -> bool:
    """Whether a row key (a member id, None for any, months (first, last), turns (first, last,
    halves)) applies to a key value.
    """
    if key is None or key == given:
        return True
    if not isinstance(key, tuple):
        return False
    if len(key) == 3:
        at, first = _turn_at(key[2], given), _turn_at(key[2], key[0])
        last = None if key[1] is None else _turn_at(key[2], key[1])
        if at is None or first is None or at < first:
            return False
        return key[1] is None or (last is not None and at <= last)
    return key[0] <= given and (key[1] is None or given <= key[1])


def _turn_at(halves: tuple[str, ...], turn: str) -> tuple[str, int] | None:
    """A turn 'YYYY-MM-DD HALF' as (day, the half's place in play order), which orders turns."""
    day, _, half = turn.partition(" ")
    return (day, halves.index(half)) if half in halves and len(day) == 10 else None


def _in_range(low: int | None, high: int | None, roll: int) -> bool:
    """Whether a range (None: an open end) holds the roll."""
    return (low is None or roll >= low) and (high is None or roll <= high)


def _first(rows: tuple[_Row[_V], ...], keys: tuple[str, ...], roll: int | None) -> _V | None:
    """The values of the first row whose keys match and whose range holds `roll` (None: any
    range, a chart read by keys only); None when no row does.
    """
    for row_keys, low, high, values in rows:
        if (roll is None or _in_range(low, high, roll)) and all(
            _key_matches(k, given) for k, given in zip(row_keys, keys, strict=True)
        ):
            return values
    return None


def _select(chart: str, rows: tuple[_Row[_V], ...], keys: tuple[str, ...], modified: int | None) -> _V:
    """The values of the first row whose keys match and whose range holds the modified roll.

    Raises:
        NoRowError: no row is selected.
    """
    values = _first(rows, keys, modified)
    if values is None:
        shown = "" if modified is None else f" for modified roll {modified}"
        raise NoRowError(f"{chart}: no row{shown} with keys {keys}")
    return values


# The widest span of rolls or values an index holds for one combination of key values: a chart
# read over a wider span (a value chart over thousands) is read row by row.
_INDEX_SPAN: Final = 1024
# The most combinations of key values an index keeps (each is built on its first lookup).
_INDEX_COMBINATIONS: Final = 4096
# An index of one combination of key values: the lowest bound a row of it states, the values each
# modified roll from there to the highest bound selects (None: no row), and the values of the first
# row open below and of the first row open above (None: no row).
_Table: TypeAlias = tuple[int, tuple[_V | None, ...], _V | None, _V | None]
# What a `lookup_<id>` reads for a combination not indexed (yet): no values for any roll, so it
# calls `select`, which indexes the combination or reads its rows.
_UNINDEXED: Final[tuple[int, tuple[None, ...], None, None]] = (0, (), None, None)


class _Index(Generic[_V]):
    """A chart's rows indexed for lookup: per combination of key values (built on its first
    lookup), the values each modified roll selects, as a tuple from the lowest bound a row states
    to the highest, plus the open ends. Selects the row `_select` selects, with the same errors.
    Each `lookup_<id>` reads `tables` itself (a function call is most of a lookup's time) and calls
    `select` when that finds no values."""

    def __init__(self, rows: tuple[_Row[_V], ...]) -> None:
        self.rows: Final = rows
        self.tables: Final[dict[tuple[str, ...], _Table[_V] | None]] = {}

    def find(self, keys: tuple[str, ...], modified: int) -> _V | None:
        """What `_first` finds for these rows: the selected row's values, or None."""
        try:
            table = self.tables[keys]
        except KeyError:
            table = self._table(keys)
        if table is None:
            return _first(self.rows, keys, modified)
        low, by_roll, below, above = table
        at = modified - low
        return below if at < 0 else above if at >= len(by_roll) else by_roll[at]

    def select(self, chart: str, keys: tuple[str, ...], modified: int | None) -> _V:
        """What `_select` returns for these rows; NoRowError when it selects no row."""
        values = None if modified is None else self.find(keys, modified)
        if values is None:
            return _select(chart, self.rows, keys, modified)  # the row scan answers or raises NoRowError
        return values

    def _table(self, keys: tuple[str, ...]) -> _Table[_V] | None:
        rows = [
            (low, high, values)
            for row_keys, low, high, values in self.rows
            if all(_key_matches(k, given) for k, given in zip(row_keys, keys, strict=True))
        ]
        bounds = [bound for low, high, _ in rows for bound in (low, high) if bound is not None]
        first, last = min(bounds, default=0), max(bounds, default=-1)
        table: _Table[_V] | None = None
        if last - first < _INDEX_SPAN:
            by_roll = tuple(
                next((v for low, high, v in rows if _in_range(low, high, n)), None) for n in range(first, last + 1)
            )
            below = next((v for low, _, v in rows if low is None), None)
            above = next((v for _, high, v in rows if high is None), None)
            table = (first, by_roll, below, above)
        if len(self.tables) < _INDEX_COMBINATIONS:
            self.tables[keys] = table
        return table
