"""Odds rules for combat results tables (CRT): column forms, rounding, table edges, column shifts.

Three forms of column. Ratio columns (USAAF 15.1-15.2): attacker-high odds divide attack by defense
and round down (26 vs 7 -> 3:1), defender-high odds divide defense by attack and round up (5 vs 11
-> 1:3), equal forces are 1:1; or, for non-unit ratios (`3:2`, `1.5:1`), the exact ratio is compared
with the columns as fractions and odds between two columns read the lower (or higher) one.
Differential columns read attack minus defense (`-3-`, `-1/0`, `+7+`); strength columns read the
attack strength alone (`1-2`, `9+`) inside a declared domain. The rule itself lives in
`compiler.emit.runtime`, which every generated module carries, so the CLI and the modules agree.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import TYPE_CHECKING

from compiler.lazy_dataclass import dataclass
from dsl.shared import Span

if TYPE_CHECKING:  # imported where used: a query of a chart without odds or shifts needs none of it
    from compiler.emit import runtime


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


class OddsForm(enum.StrEnum):
    """What a CRT's columns are read by."""

    RATIO = "ratio"  # attack : defense
    DIFFERENTIAL = "differential"  # attack - defense
    STRENGTH = "strength"  # the attack strength alone


class Between(enum.StrEnum):
    """Which column odds falling between two printed columns read."""

    LOWER = "lower"  # the defender's favour
    HIGHER = "higher"  # the attacker's favour


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
        form: what the columns are read by (ratio, differential, strength).
        between: which column odds between two columns read; None for a ratio rule that rounds
            the quotient to n:1 or 1:n instead.
        domain: a strength rule's lowest and highest strength (None: no upper end).
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
    form: OddsForm = OddsForm.RATIO
    between: Between | None = None
    domain: tuple[int, int | None] | None = None


def parse_label(label: str) -> tuple[int, int] | None:
    """`"3:1"` -> (3, 1); None unless one side is 1 and both are positive."""
    from compiler.emit import runtime

    return runtime._odds_ratio(label)


def parse_fraction(label: str) -> Fraction | None:
    """A ratio column as an exact fraction: `"3:2"` and `"1.5:1"` -> 3/2; None if not a ratio."""
    from compiler.emit import runtime

    return runtime._odds_fraction(label)


def parse_band(label: str) -> tuple[int | None, int | None] | None:
    """A differential or strength column's lowest and highest value: `"-1/0"` -> (-1, 0),
    `"+7+"` -> (7, None); None if the label is not such a column."""
    from compiler.emit import runtime

    return runtime._odds_band(label)


def member_id(label_text: str) -> str:
    """The id of an odds column: its printed label (`3:1`, `-1/0`), so JSON and CLI never show another."""
    from compiler.emit import runtime

    return runtime._odds_column_id(label_text)


def raw_odds(rule: OddsRule, attack: int, defense: int) -> tuple[int, int]:
    """The odds ratio before any table edge: (n, 1) or (1, n).

    Args:
        attack, defense: combat factors, whole numbers >= 1.

    Raises:
        OddsProblem: a side has no factors.
    """
    from compiler.emit import runtime

    try:
        return runtime._raw_odds(_runtime_rule(rule), attack, defense)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc


@dataclass(frozen=True)
class Reading:
    """A CRT column read from combat factors: the odds as formed (`9:1`, `+4`, `12`), the column
    read, and whether the table's edge (not the odds) chose it (`9:1 reads the 6:1 column`)."""

    formed: str
    column: str
    clamped: bool
    shift: int = 0


def read(rule: OddsRule, attack: int, defense: int | None, shift: int = 0) -> Reading:
    """The column these factors and column shift read, with the odds as formed.

    Args:
        attack: attack factors (a strength rule's strength).
        defense: defense factors; None for a strength rule.
        shift: total column shift (+ toward the attacker).

    Raises:
        OddsProblem: factors the rule does not take; odds off a `beyond error` table; a shift on a
            rule that does not state whether shifts come before or after clamping.
    """
    from compiler.emit import runtime

    try:
        got = runtime._odds_read(_runtime_rule(rule), attack, defense, shift)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc
    return Reading(got.formed, got.column, got.clamped, shift)


def column(rule: OddsRule, attack: int, defense: int | None, shift: int = 0) -> str:
    """The CRT column label for these forces and column shift (+ toward the attacker).

    Without printed columns the ratio itself is returned (shifts move it along the odds scale).
    The rule is the generated modules' own (`compiler.emit.runtime`), so both always agree.

    Raises:
        OddsProblem: no factors; odds off a `beyond error` table; a shift on a rule that does not
            state whether shifts come before or after clamping.
    """
    from compiler.emit import runtime

    try:
        return runtime._odds_column(_runtime_rule(rule), attack, defense, shift)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc


def runtime_arguments(rule: OddsRule) -> tuple[object, ...]:
    """The runtime `_OddsRule`'s arguments for this rule, as plain values; the optional ones only
    when they differ from the runtime's defaults (a ratio rule that rounds the quotient)."""
    base: tuple[object, ...] = (
        rule.id,
        str(rule.attacker_round),
        str(rule.defender_round),
        rule.columns,
        None if rule.beyond is None else str(rule.beyond),
        None if rule.shift_order is None else str(rule.shift_order),
    )
    if rule.form is OddsForm.RATIO and rule.between is None:
        return base
    return (*base, str(rule.form), None if rule.between is None else str(rule.between), rule.domain)


def _runtime_rule(rule: OddsRule) -> runtime._OddsRule:
    from compiler.emit import runtime

    between = None if rule.between is None else str(rule.between)
    return runtime._OddsRule(
        rule.id,
        rule.attacker_round,
        rule.defender_round,
        rule.columns,
        rule.beyond,
        rule.shift_order,
        str(rule.form),
        between,
        rule.domain,
    )
