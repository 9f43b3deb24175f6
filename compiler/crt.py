"""Odds ratios for combat results tables (CRT): the rounding rule, table edges and column shifts.

USAAF 15.1-15.2: attacker-high odds divide attack by defense and round down (26 vs 7 -> 3:1);
defender-high odds divide defense by attack and round up (5 vs 11 -> 1:3); equal forces are 1:1.
Columns are ordered on one scale: 1:1 is 0, n:1 is n-1, 1:n is -(n-1).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from dsl.ast import Span

_LABEL = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")


class OddsProblem(Exception):
    """Odds that cannot be formed or read (no forces, or off a table that says `beyond error`)."""


@dataclass(frozen=True)
class OddsRule:
    """How a game forms odds and picks a CRT column.

    Attributes:
        id: the rule's name (also the enum of its columns).
        attacker_round / defender_round: "down", "up" or "nearest" for attacker-high and
            defender-high odds.
        columns: the CRT's odds columns as printed ("1:2", "1:1", "2:1"), ascending; empty when
            the CRT itself is not printed.
        beyond: "clamp" (odds off the table use the nearest edge column) or "error".
        shift_order: "before" or "after": whether column shifts apply before or after clamping
            at the table edge; None when the game uses no shifts.
    """

    id: str
    chart_id: str | None
    title: str
    rule: str | None
    notes: tuple[str, ...]
    attacker_round: str
    defender_round: str
    columns: tuple[str, ...]
    beyond: str | None
    shift_order: str | None
    span: Span


def parse_label(label: str) -> tuple[int, int] | None:
    """`"3:1"` -> (3, 1); None unless one side is 1 and both are positive."""
    m = _LABEL.match(label)
    if not m:
        return None
    a, d = int(m.group(1)), int(m.group(2))
    if a < 1 or d < 1 or (a != 1 and d != 1):
        return None
    return a, d


def scale(ratio: tuple[int, int]) -> int:
    """Position on the odds scale: 1:1 -> 0, 3:1 -> 2, 1:3 -> -2."""
    a, d = ratio
    return a - 1 if d == 1 else -(d - 1)


def label(position: int) -> str:
    return f"{position + 1}:1" if position >= 0 else f"1:{1 - position}"


def member_id(label_text: str) -> str:
    """An identifier for an odds column: `3:1` -> `o3_1`."""
    ratio = parse_label(label_text)
    assert ratio is not None
    return f"o{ratio[0]}_{ratio[1]}"


def _round(value: Fraction, how: str) -> int:
    if how == "down":
        return math.floor(value)
    if how == "up":
        return math.ceil(value)
    return math.floor(value + Fraction(1, 2))


def raw_odds(rule: OddsRule, attack: int, defense: int) -> tuple[int, int]:
    """The odds ratio before any table edge: (n, 1) or (1, n).

    Args:
        attack, defense: combat factors, whole numbers >= 1.

    Raises:
        OddsProblem: a side has no factors.
    """
    if attack < 1 or defense < 1:
        raise OddsProblem(f"odds need factors on both sides (attack {attack}, defense {defense})")
    if attack == defense:
        return (1, 1)
    if attack > defense:
        return (max(1, _round(Fraction(attack, defense), rule.attacker_round)), 1)
    return (1, max(1, _round(Fraction(defense, attack), rule.defender_round)))


def column(rule: OddsRule, attack: int, defense: int, shift: int = 0) -> str:
    """The CRT column label for these forces and column shift (+ toward the attacker).

    Without printed columns the ratio itself is returned (shifts move it along the odds scale).

    Raises:
        OddsProblem: no factors; odds off a `beyond error` table; a shift on a rule that does not
            state whether shifts come before or after clamping.
    """
    position = scale(raw_odds(rule, attack, defense))
    if shift and rule.shift_order is None:
        raise OddsProblem(f"odds rule `{rule.id}` does not say whether column shifts apply before or after the table edge")
    if not rule.columns:
        return label(position + shift)
    scales = [scale(parse_label(c) or (1, 1)) for c in rule.columns]
    last = len(scales) - 1
    index = _virtual_index(scales, position)
    if rule.shift_order == "before":
        index += shift  # shifts move along the odds scale; then the table edge applies
    if rule.beyond == "error" and not 0 <= index <= last:
        raise OddsProblem(f"{label(position)}{f' shifted {shift:+d}' if shift and rule.shift_order == 'before' else ''} is off the table ({rule.columns[0]} to {rule.columns[-1]})")
    index = max(0, min(last, index))
    if rule.shift_order == "after":
        index = max(0, min(last, index + shift))  # shifts from the edge column, clamped again
    return rule.columns[index]


def _virtual_index(scales: list[int], position: int) -> int:
    """The column index of an odds position, counting virtual columns beyond the edges.

    Inside the table: the highest column not above the odds (a 5:1 on a table with 4:1 and 6:1
    reads 4:1). Beyond: one virtual column per odds step past the edge.
    """
    if position < scales[0]:
        return -(scales[0] - position)
    if position > scales[-1]:
        return len(scales) - 1 + (position - scales[-1])
    return max(i for i, s in enumerate(scales) if s <= position)
