"""CRT odds (USAAF 15.1-15.2): how a rule forms odds from combat factors (a ratio, a differential,
an attack strength) and reads a column, with the table's edge and the column shift in the rule's
order. `compiler.engine.odds` calls these functions, so `chartc lookup` and `odds_<id>` agree.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Final, NamedTuple, TypeAlias

from compiler.engine.runtime.base import _clamp
from compiler.engine.runtime.checks import _check_int

# ---- inlined into a generated module below this line


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
    index = _clamp(index, (0, last))
    if rule.shift_order == "after":
        index = _clamp(index + shift, (0, last))  # shifts from the edge column, clamped again
    return _OddsReading(formed, rule.columns[index], clamped)


def _odds_column(rule: _OddsRule, attack: int, defense: int | None, shift: int = 0) -> str:
    """The CRT column label for these combat factors and column shift (see `_odds_read`)."""
    return _odds_read(rule, attack, defense, shift).column
