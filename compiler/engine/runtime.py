"""The runtime of every generated chart module: argument checks, row selection, dice, DRMs, CRT odds.

`chartc build` copies the code below this docstring verbatim into each generated game module, so a
module stays standalone (standard library only, no import of chartc). chartc itself imports this
file for the CRT odds rule (`compiler.engine.odds`), so the CLI and the generated modules pick odds columns
with the same code. Underscored names are private to a generated module; the identifier policy
(`compiler.emit.python.names`) never gives a chart's name to a Python name defined here, so the
runtime may use any name, and no chart can shadow it.

DRM conditions use three-valued logic: a flag is never unset (it defaults to False), and any other
context value left as None is unknown. A comparison with an unknown value is unknown, `not` keeps
it unknown, `and` is false as soon as one part is false and `or` true as soon as one part is true;
a DRM applies only when its condition is true.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping  # noqa: F401  (the generated code uses them)
from fractions import Fraction
from typing import (  # noqa: F401  (the generated code uses cast and get_args)
    Final,
    Generic,
    Literal,
    NamedTuple,
    TypeAlias,
    TypedDict,
    TypeVar,
    assert_never,
    cast,
    get_args,
)

_V = TypeVar("_V")
_M = TypeVar("_M", bound=str)


class NoRowError(LookupError):
    """The roll or keys select no row of the chart (a gap, or a modified roll off the table)."""


class ChartRef(TypedDict):
    """A cell that sends the player to another chart ("roll on [B6]"): that chart's ID."""

    chart: str


class Roll(TypedDict, Generic[_V]):
    """A roll on a chart: the natural roll, the DRM added to it, the modified roll, the row's values."""

    natural: int
    drm: int
    modified: int
    values: _V


# A row key: a member id, None for any, or the months (first, last) it covers (last None: open end).
_Key: TypeAlias = str | tuple[str, str | None] | None
# A row: its keys, its lowest and highest roll or value (None: open end), and its values.
_Row: TypeAlias = tuple[tuple[_Key, ...], int | None, int | None, _V]
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


def _key_matches(key: _Key, given: str) -> bool:
    if key is None or key == given:
        return True
    return isinstance(key, tuple) and key[0] <= given and (key[1] is None or given <= key[1])


def _select(chart: str, rows: tuple[_Row[_V], ...], keys: tuple[str, ...], modified: int | None) -> _V:
    """The values of the first row whose keys match and whose range holds the modified roll.

    Raises:
        NoRowError: no row is selected.
    """
    for row_keys, low, high, values in rows:
        if not all(_key_matches(k, given) for k, given in zip(row_keys, keys, strict=True)):
            continue
        if modified is not None and ((low is not None and modified < low) or (high is not None and modified > high)):
            continue
        return values
    shown = "" if modified is None else f" for modified roll {modified}"
    raise NoRowError(f"{chart}: no row{shown} with keys {keys}")


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

    def select(self, chart: str, keys: tuple[str, ...], modified: int | None) -> _V:
        """What `_select` returns for these rows; NoRowError when it selects no row."""
        try:
            table = self.tables[keys]
        except KeyError:
            table = self._table(keys)
        if table is None or modified is None:
            return _select(chart, self.rows, keys, modified)
        low, by_roll, below, above = table
        at = modified - low
        values = below if at < 0 else above if at >= len(by_roll) else by_roll[at]
        if values is None:
            return _select(chart, self.rows, keys, modified)  # raises NoRowError, worded as always
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
                next((v for low, high, v in rows if (low is None or low <= n) and (high is None or n <= high)), None)
                for n in range(first, last + 1)
            )
            below = next((v for low, _, v in rows if low is None), None)
            above = next((v for _, high, v in rows if high is None), None)
            table = (first, by_roll, below, above)
        if len(self.tables) < _INDEX_COMBINATIONS:
            self.tables[keys] = table
        return table


def _roll(
    rng: random.Random,
    form: str,
    count: int,
    sides: int,
    subtract: int,
    floor: int,
    *,
    keep: int = 0,
    versus: tuple[int, int] = (0, 0),
    zero: int = 10,
) -> int:
    """A natural roll of the dice form, read as the chart reads it (a d10's 0 is 10 unless `zero` is
    0, 00 is 100); `keep` dice for the highest/lowest forms, `versus` the opposing dice.
    """
    if form == "d66":
        return rng.randint(1, 6) * 10 + rng.randint(1, 6)
    if form == "percentile":
        return (rng.randint(0, 9) * 10 + rng.randint(0, 9)) or 100
    faces = sorted(_throw(rng, count, sides, zero))
    if form == "lower":
        return faces[0]
    if form == "higher":
        return faces[-1]
    if form == "highest":
        return sum(faces[count - keep :])
    if form == "lowest":
        return sum(faces[:keep])
    if form == "minus":
        return max(floor, sum(faces) - subtract)
    if form == "versus":
        return sum(faces) - sum(_throw(rng, versus[0], versus[1], zero))
    return sum(faces)


def _throw(rng: random.Random, count: int, sides: int, zero: int) -> list[int]:
    """`count` dice of `sides` faces; a d10 read 0-9 when `zero` is 0."""
    low = 0 if sides == 10 and zero == 0 else 1
    return [rng.randint(low, sides - 1 + low) for _ in range(count)]


def _rolled(natural: int, drm: int, values: _V, cap: tuple[int, int] | None = None) -> Roll[_V]:
    return {"natural": natural, "drm": drm, "modified": _capped(natural + drm, cap), "values": values}


def _capped(modified: int, cap: tuple[int, int] | None) -> int:
    """The modified roll under the chart's `modified clamp LOW to HIGH` (None: no cap)."""
    return modified if cap is None else max(cap[0], min(cap[1], modified))


def _select_natural(
    chart: str,
    natural_rows: tuple[_Row[_V], ...],
    index: _Index[_V],
    keys: tuple[str, ...],
    natural: int,
    modified: int,
) -> _V:
    """The first `natural` row holding the natural roll, else the row the modified roll selects.

    Raises:
        NoRowError: no row is selected.
    """
    for row_keys, low, high, values in natural_rows:
        keyed = all(_key_matches(k, given) for k, given in zip(row_keys, keys, strict=True))
        if keyed and (low is None or natural >= low) and (high is None or natural <= high):
            return values
    return index.select(chart, keys, modified)


# ---- DRM conditions ----------------------------------------------------------------------------
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
_Context: TypeAlias = bool | int | str | None


class _Per(NamedTuple):
    """`per STEP VAR`: a DRM's value counts once per step of an int variable ('down', 'up', 'nearest')."""

    var: str
    step: int
    rounding: str


class _Drm(NamedTuple):
    """A DRM: `value` is added when `when` is true (None: always); with `per`, once per step of an
    int variable; with `group`, it is a member of an exclusive group."""

    value: int
    when: _Condition | None
    per: _Per | None = None
    group: str | None = None


def _compare(given: int | str, op: str, value: int | str) -> bool:
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
    """Whether a condition is true, false or unknown (None) given the context."""
    match cond:
        case _Flag(var):
            return bool(context[var])
        case _Compare(var, op, value):
            given = context[var]
            return None if given is None else _compare(given, op, value)
        case _In(var, values):
            given = context[var]
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


def _total_drm(
    drms: tuple[_Drm, ...],
    context: Mapping[str, _Context],
    clamp: tuple[int, int] | None,
    groups: tuple[tuple[str, str], ...] = (),
) -> int:
    """The sum of the DRMs whose conditions are true, clamped to `clamp` when the chart caps it.

    `groups` are the chart's exclusive groups (id, 'best' | 'worst' | 'one'): of a group's applying
    members only the highest value counts ('best'), the lowest ('worst') or the first ('one').
    """
    found = [(d, _applied(d, context)) for d in drms]
    amounts = [(d, a) for d, a in found if a is not None]
    total = sum(a for d, a in amounts if d.group is None)
    for group, mode in groups:
        members = [a for d, a in amounts if d.group == group]
        if members:
            total += max(members) if mode == "best" else min(members) if mode == "worst" else members[0]
    return total if clamp is None else max(clamp[0], min(clamp[1], total))


def _applied(drm: _Drm, context: Mapping[str, _Context]) -> int | None:
    """What one DRM adds in the context, or None when it does not apply."""
    if drm.when is not None and _holds(drm.when, context) is not True:
        return None
    if drm.per is None:
        return drm.value
    given = context[drm.per.var]
    if not isinstance(given, int) or isinstance(given, bool):
        return None
    whole, rest = divmod(given, drm.per.step)
    if rest and (drm.per.rounding == "up" or (drm.per.rounding == "nearest" and 2 * rest >= drm.per.step)):
        whole += 1
    return drm.value * whole if whole else None


# ---- CRT column shifts ---------------------------------------------------------------------------


class _Shift(NamedTuple):
    """A column shift (+ toward the attacker): `value` when `when` is true (None: always); or, when
    `var` is set, the value `table` gives for the member that context variable holds (a terrain
    effects chart's column). `group` names an exclusive group."""

    label: str
    value: int
    when: _Condition | None
    group: str | None = None
    var: str | None = None
    table: tuple[tuple[str, int], ...] = ()


def _shift_value(shift: _Shift, context: Mapping[str, _Context]) -> int:
    """The shift's value in this context: 0 when its condition is not true or its variable unknown."""
    if shift.var is not None:
        given = context[shift.var]
        return 0 if given is None else dict(shift.table).get(str(given), 0)
    return shift.value if shift.when is None or _holds(shift.when, context) is True else 0


def _shift_terms(
    shifts: tuple[_Shift, ...],
    context: Mapping[str, _Context],
    groups: tuple[tuple[str, str], ...],
    cap: tuple[int, int] | None,
) -> tuple[tuple[tuple[str, int], ...], int]:
    """The shifts that apply, as (label, value) in declaration order, and their total.

    Of an exclusive group only one counts: its highest (`best`) or lowest (`worst`) value, the
    first such shift (`one`: the first that applies). The total is then held inside `cap`.
    """
    values = [_shift_value(s, context) for s in shifts]
    pick = dict(groups)
    applying = [(i, s, v) for i, (s, v) in enumerate(zip(shifts, values, strict=True)) if v]
    kept: list[tuple[str, int]] = []
    for i, shift, value in applying:
        if shift.group is not None:
            rivals = [(v, j) for j, s, v in applying if s.group == shift.group]
            mode = pick[shift.group]
            chosen = min(rivals, key=lambda r: r[1])  # `one`: the rules say only one applies
            if mode != "one":
                chosen = max(rivals, key=lambda r: (r[0], -r[1])) if mode == "best" else min(rivals)
            if chosen[1] != i:
                continue
        kept.append((shift.label, value))
    total = sum(v for _, v in kept)
    return tuple(kept), total if cap is None else max(cap[0], min(cap[1], total))


# ---- CRT odds (USAAF 15.1-15.2) ------------------------------------------------------------------


class _OddsRule(NamedTuple):
    """How a game forms odds and picks a CRT column.

    Attributes:
        id: the rule's name, for messages.
        attacker_round, defender_round: 'down', 'up' or 'nearest', for attacker-high and
            defender-high odds (ratio columns read by rounding the quotient to n:1 or 1:n).
        columns: the CRT's columns as printed, ascending: ratios ('1:2', '3:2', '1.5:1'),
            differentials ('-3-', '-1/0', '+7+') or strengths ('1-2', '9+'); empty when a ratio
            rule's CRT is not printed (the ratio itself is the answer).
        beyond: 'clamp' (odds off the table read the edge column) or 'error'.
        shift_order: 'before' or 'after' clamping at the table edge; None when shifts are not used.
        form: 'ratio' (attack : defense), 'differential' (attack - defense) or 'strength' (attack
            alone).
        between: 'lower' or 'higher': the column that odds falling between two columns read (exact
            ratios, compared as fractions); None for a ratio rule that rounds the quotient instead.
        domain: a strength rule's lowest and highest strength (None: no upper end).
    """

    id: str
    attacker_round: str
    defender_round: str
    columns: tuple[str, ...]
    beyond: str | None
    shift_order: str | None
    form: str = "ratio"
    between: str | None = None
    domain: tuple[int, int | None] | None = None


class _OddsReading(NamedTuple):
    """A column read from the factors: the odds as formed ('9:1', '+4', '12'), the column read, and
    whether the table's edge (not the odds themselves) chose it.
    """

    formed: str
    column: str
    clamped: bool


_RATIO: Final = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*")
_FRACTION_RATIO: Final = re.compile(r"\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*")
_BAND: Final = re.compile(r"\s*([+-]?\d+)(?:([-+])|\s*[/-]\s*([+-]?\d+))?\s*")


def _odds_ratio(label: str) -> tuple[int, int] | None:
    """'3:1' -> (3, 1); None unless one side is 1 and both are positive."""
    m = _RATIO.fullmatch(label)
    if not m:
        return None
    attack, defense = int(m.group(1)), int(m.group(2))
    if attack < 1 or defense < 1 or (attack != 1 and defense != 1):
        return None
    return attack, defense


def _odds_fraction(label: str) -> Fraction | None:
    """A ratio column as an exact fraction: '3:2' and '1.5:1' -> 3/2, '2:3' -> 2/3; None if not a
    ratio of two positive numbers.
    """
    m = _FRACTION_RATIO.fullmatch(label)
    if not m:
        return None
    attack, defense = Fraction(m.group(1)), Fraction(m.group(2))
    return attack / defense if attack > 0 and defense > 0 else None


def _odds_band(label: str) -> tuple[int | None, int | None] | None:
    """A differential or strength column as its lowest and highest value (None: open end):
    '-3-' -> (None, -3), '-1/0' -> (-1, 0), '+7+' -> (7, None), '3-5' -> (3, 5), '4' -> (4, 4).
    None when the label is not such a column, or runs backwards.
    """
    m = _BAND.fullmatch(label)
    if not m:
        return None
    first = int(m.group(1))
    if m.group(2) == "-":
        return None, first
    if m.group(2) == "+":
        return first, None
    last = first if m.group(3) is None else int(m.group(3))
    return (first, last) if first <= last else None


def _odds_column_id(label: str) -> str:
    """The id of an odds column in the game's JSON: its printed label ('3:1', '-1/0')."""
    return label.replace(" ", "")


def _odds_position(ratio: tuple[int, int]) -> int:
    """Where a ratio sits on the odds scale: 1:1 is 0, 3:1 is 2, 1:3 is -2."""
    attack, defense = ratio
    return attack - 1 if defense == 1 else -(defense - 1)


def _odds_label(position: int) -> str:
    """The ratio at a position of the odds scale: 2 -> '3:1', -2 -> '1:3'."""
    return f"{position + 1}:1" if position >= 0 else f"1:{1 - position}"


def _fraction_position(value: Fraction) -> int:
    """Where an exact ratio sits on the odds scale, in whole odds: 7/2 -> 2 (3:1), 2/5 -> -2 (1:3)."""
    return math.floor(value) - 1 if value >= 1 else -(math.ceil(1 / value) - 1)


def _fraction_label(value: Fraction) -> str:
    """An exact ratio as odds are written: 9 -> '9:1', 1/3 -> '1:3', 26/7 -> '26:7'."""
    if value.denominator == 1 or value.numerator != 1:
        return f"{value.numerator}:{value.denominator}"
    return f"1:{value.denominator}"


def _round(value: Fraction, how: str) -> int:
    if how == "down":
        return math.floor(value)
    if how == "up":
        return math.ceil(value)
    return math.floor(value + Fraction(1, 2))  # nearest, halves up


def _raw_odds(rule: _OddsRule, attack: int, defense: int) -> tuple[int, int]:
    """The odds ratio before any table edge: (n, 1) or (1, n); equal factors are 1:1.

    Raises:
        ValueError: a side has no factors.
    """
    if attack < 1 or defense < 1:
        raise ValueError(f"odds need factors on both sides (attack {attack}, defense {defense})")
    if attack == defense:
        return (1, 1)
    if attack > defense:
        return (max(1, _round(Fraction(attack, defense), rule.attacker_round)), 1)
    return (1, max(1, _round(Fraction(defense, attack), rule.defender_round)))


def _column_index(positions: list[int], position: int) -> int:
    """The column of an odds position, counting one virtual column per odds step past an edge.

    Inside the table: the highest column not above the odds (5:1 on a table with 4:1 and 6:1
    reads 4:1).
    """
    if position < positions[0]:
        return -(positions[0] - position)
    if position > positions[-1]:
        return len(positions) - 1 + (position - positions[-1])
    return max(i for i, p in enumerate(positions) if p <= position)


_Band: TypeAlias = tuple[Fraction | None, Fraction | None]


def _bands(rule: _OddsRule) -> list[_Band]:
    """Each column's lowest and highest odds value (None: open end), as exact fractions."""
    if rule.form == "ratio":
        points = [_odds_fraction(c) or Fraction(1) for c in rule.columns]
        return [(p, p) for p in points]
    bands = [_odds_band(c) or (None, None) for c in rule.columns]
    return [(None if lo is None else Fraction(lo), None if hi is None else Fraction(hi)) for lo, hi in bands]


def _steps(rule: _OddsRule, beyond: Fraction, edge: Fraction) -> int:
    """How many virtual columns odds `beyond` lie past the column edge `edge`: whole odds steps
    for ratios (9:1 is three past 6:1), points for differentials and strengths.
    """
    if rule.form == "ratio":
        return max(1, abs(_fraction_position(beyond) - _fraction_position(edge)))
    return max(1, int(abs(beyond - edge)))


def _band_index(rule: _OddsRule, value: Fraction) -> int:
    """The column holding `value`; between two columns, the lower or higher one as the rule says;
    past an edge, a virtual column counted by `_steps` (negative, or beyond the last).
    """
    bands = _bands(rule)
    first_low, last_high = bands[0][0], bands[-1][1]
    if first_low is not None and value < first_low:
        return -_steps(rule, value, first_low)
    if last_high is not None and value > last_high:
        return len(bands) - 1 + _steps(rule, value, last_high)
    for i, (low, high) in enumerate(bands):
        if (low is None or low <= value) and (high is None or value <= high):
            return i
    below = max(i for i, (_, high) in enumerate(bands) if high is not None and high < value)
    return below if rule.between == "lower" else below + 1


def _odds_value(rule: _OddsRule, attack: int, defense: int | None) -> tuple[Fraction, str]:
    """The odds a rule forms from the factors, exactly, and as a player writes them.

    Raises:
        ValueError: factors the form does not take (no factors for a ratio, a defense for a
            strength, a strength outside the rule's domain).
    """
    if rule.form == "strength":
        if defense is not None:
            raise ValueError(f"odds rule `{rule.id}` reads the attack strength alone, not a defense")
        low, high = rule.domain or (0, None)
        if attack < low or (high is not None and attack > high):
            upper = f"to {high}" if high is not None else "or more"
            raise ValueError(f"strength {attack} is outside the domain of `{rule.id}` ({low} {upper})")
        return Fraction(attack), str(attack)
    if defense is None:
        raise ValueError(f"odds rule `{rule.id}` needs both attack and defense")
    if rule.form == "differential":
        if attack < 0 or defense < 0:
            raise ValueError(f"combat factors cannot be negative (attack {attack}, defense {defense})")
        return Fraction(attack - defense), f"{attack - defense:+d}" if attack != defense else "0"
    if attack < 1 or defense < 1:
        raise ValueError(f"odds need factors on both sides (attack {attack}, defense {defense})")
    return Fraction(attack, defense), _fraction_label(Fraction(attack, defense))


def _odds_read(rule: _OddsRule, attack: int, defense: int | None, shift: int = 0) -> _OddsReading:
    """The CRT column for these combat factors and column shift (+ toward the attacker), with the
    odds as formed and whether the table's edge moved them.

    Without printed columns the ratio itself is returned (shifts move it along the odds scale).

    Raises:
        ValueError: bad factors; odds off a `beyond error` table; a shift on a rule that does not
            say whether shifts come before or after clamping.
    """
    for name, number in (("attack", attack), ("defense", defense), ("shift", shift)):
        if number is not None:
            _check_int(rule.id, name, number)
    if shift and rule.shift_order is None:
        raise ValueError(
            f"odds rule `{rule.id}` does not say whether column shifts apply before or after the table edge"
        )
    if rule.form == "ratio" and rule.between is None:
        if defense is None:
            raise ValueError(f"odds rule `{rule.id}` needs both attack and defense")
        position = _odds_position(_raw_odds(rule, attack, defense))
        formed = _odds_label(position)
        if not rule.columns:
            return _OddsReading(formed, _odds_label(position + shift), False)
        positions = [_odds_position(_odds_ratio(c) or (1, 1)) for c in rule.columns]
        index = _column_index(positions, position)
    else:
        value, formed = _odds_value(rule, attack, defense)
        index = _band_index(rule, value)
    return _odds_edge(rule, formed, index, shift)


def _odds_edge(rule: _OddsRule, formed: str, index: int, shift: int) -> _OddsReading:
    """Apply the column shift and the table edge, in the rule's order, to a column index that may
    lie past an edge.
    """
    last = len(rule.columns) - 1
    if rule.shift_order == "before":
        index += shift  # shifts move along the odds scale; then the table edge applies
    if rule.beyond == "error" and not 0 <= index <= last:
        shifted = f" shifted {shift:+d}" if shift and rule.shift_order == "before" else ""
        raise ValueError(f"{formed}{shifted} is off the table ({rule.columns[0]} to {rule.columns[-1]})")
    clamped = not 0 <= index <= last
    index = max(0, min(last, index))
    if rule.shift_order == "after":
        index = max(0, min(last, index + shift))  # shifts from the edge column, clamped again
    return _OddsReading(formed, rule.columns[index], clamped)


def _odds_column(rule: _OddsRule, attack: int, defense: int | None, shift: int = 0) -> str:
    """The CRT column label for these combat factors and column shift (see `_odds_read`)."""
    return _odds_read(rule, attack, defense, shift).column


# ---- computed values: the arithmetic of formulas (chartc's `compiler.engine.formulas` uses these too) ----


def _div(a: Fraction | int, b: Fraction | int) -> Fraction:
    """`a / b`, exact; ValueError for a division by zero."""
    if b == 0:
        raise ValueError(f"{a} / 0 has no value")
    return Fraction(a) / Fraction(b)


def _pow(a: Fraction | int, b: Fraction | int, most: int = 64) -> Fraction:
    """`a ^ b` for a whole exponent from 0 to `most`; ValueError otherwise."""
    exponent = Fraction(b)
    if exponent.denominator != 1 or not 0 <= exponent <= most:
        raise ValueError(f"the exponent {b} is not a whole number from 0 to {most}")
    base = Fraction(a)
    if max(abs(base.numerator), base.denominator).bit_length() * int(exponent) > 4096:
        raise ValueError(f"{a} ^ {b} is too large a number for a chart")
    return base ** int(exponent)


def _round_half_up(x: Fraction | int) -> int:
    """`x` rounded to the nearest whole number, halves up (2.5 -> 3, -2.5 -> -2)."""
    return math.floor(Fraction(x) + Fraction(1, 2))
