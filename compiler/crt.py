"""Odds ratios for combat results tables (CRT): the rounding rule, table edges and column shifts.

USAAF 15.1-15.2: attacker-high odds divide attack by defense and round down (26 vs 7 -> 3:1);
defender-high odds divide defense by attack and round up (5 vs 11 -> 1:3); equal forces are 1:1.
Columns are ordered on one scale: 1:1 is 0, n:1 is n-1, 1:n is -(n-1). The rule itself lives in
`compiler.emit.runtime`, which every generated module carries, so the CLI and the modules agree.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from compiler.emit import runtime
from dsl.ast import Span


class OddsProblem(Exception):
    """Odds that cannot be formed or read (no forces, or off a table that says `beyond error`)."""


class Rounding(enum.StrEnum):
    """How a ratio of combat factors becomes a whole number."""

    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"  # halves up


class Beyond(enum.StrEnum):
    """What odds beyond the CRT's edge columns read."""

    CLAMP = "clamp"  # the edge column
    ERROR = "error"  # nothing: such odds are not allowed


class ShiftOrder(enum.StrEnum):
    """Whether column shifts apply before or after odds are clamped to the table's edge."""

    BEFORE = "before"
    AFTER = "after"


@dataclass(frozen=True)
class OddsRule:
    """How a game forms odds and picks a CRT column.

    Attributes:
        id: the rule's name (also the enum of its columns).
        attacker_round / defender_round: how attacker-high and defender-high odds round.
        columns: the CRT's odds columns as printed ("1:2", "1:1", "2:1"), ascending; empty when
            the CRT itself is not printed.
        beyond: what odds off the table read; None when there are no columns.
        shift_order: whether column shifts apply before or after clamping at the table edge;
            None when the game uses no shifts.
    """

    id: str
    chart_id: str | None
    title: str
    rule: str | None
    notes: tuple[str, ...]
    attacker_round: Rounding
    defender_round: Rounding
    columns: tuple[str, ...]
    beyond: Beyond | None
    shift_order: ShiftOrder | None
    span: Span


def parse_label(label: str) -> tuple[int, int] | None:
    """`"3:1"` -> (3, 1); None unless one side is 1 and both are positive."""
    return runtime._odds_ratio(label)


def scale(ratio: tuple[int, int]) -> int:
    """Position on the odds scale: 1:1 -> 0, 3:1 -> 2, 1:3 -> -2."""
    return runtime._odds_position(ratio)


def member_id(label_text: str) -> str:
    """An identifier for an odds column: `3:1` -> `o3_1`."""
    assert parse_label(label_text) is not None
    return runtime._odds_column_id(label_text)


def raw_odds(rule: OddsRule, attack: int, defense: int) -> tuple[int, int]:
    """The odds ratio before any table edge: (n, 1) or (1, n).

    Args:
        attack, defense: combat factors, whole numbers >= 1.

    Raises:
        OddsProblem: a side has no factors.
    """
    try:
        return runtime._raw_odds(_runtime_rule(rule), attack, defense)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc


def column(rule: OddsRule, attack: int, defense: int, shift: int = 0) -> str:
    """The CRT column label for these forces and column shift (+ toward the attacker).

    Without printed columns the ratio itself is returned (shifts move it along the odds scale).
    The rule is the generated modules' own (`compiler.emit.runtime`), so both always agree.

    Raises:
        OddsProblem: no factors; odds off a `beyond error` table; a shift on a rule that does not
            state whether shifts come before or after clamping.
    """
    try:
        return runtime._odds_column(_runtime_rule(rule), attack, defense, shift)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc


def _runtime_rule(rule: OddsRule) -> runtime._OddsRule:
    rounding = (rule.attacker_round, rule.defender_round)
    return runtime._OddsRule(rule.id, *rounding, rule.columns, rule.beyond, rule.shift_order)
