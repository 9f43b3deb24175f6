"""Odds rules for combat results tables (CRT): column forms, rounding, table edges, column shifts.

Three forms of column. Ratio columns (USAAF 15.1-15.2): attacker-high odds divide attack by defense
and round down (26 vs 7 -> 3:1), defender-high odds divide defense by attack and round up (5 vs 11
-> 1:3), equal forces are 1:1; or, for non-unit ratios (`3:2`, `1.5:1`), the exact ratio is compared
with the columns as fractions and odds between two columns read the lower (or higher) one.
Differential columns read attack minus defense (`-3-`, `-1/0`, `+7+`); strength columns read the
attack strength alone (`1-2`, `9+`) inside a declared domain. The rule itself lives in the runtime
(`compiler.engine.runtime.odds`), which every generated module carries, so the CLI and the modules
agree.
"""

from __future__ import annotations

from fractions import Fraction

from compiler.engine import plain
from compiler.model.odds import OddsRule
from dsl.lazy_dataclass import dataclass


class OddsProblem(Exception):
    """Odds that cannot be formed or read (no forces, or off a table that says `beyond error`)."""


def parse_label(label: str) -> tuple[int, int] | None:
    """`"3:1"` -> (3, 1); None unless one side is 1 and both are positive."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    return runtime._odds_ratio(label)


def parse_fraction(label: str) -> Fraction | None:
    """A ratio column as an exact fraction: `"3:2"` and `"1.5:1"` -> 3/2; None if not a ratio."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    return runtime._odds_fraction(label)


def parse_band(label: str) -> tuple[int | None, int | None] | None:
    """A differential or strength column's lowest and highest value: `"-1/0"` -> (-1, 0),
    `"+7+"` -> (7, None); None if the label is not such a column."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    return runtime._odds_band(label)


def member_id(label_text: str) -> str:
    """The id of an odds column: its printed label (`3:1`, `-1/0`), so JSON and CLI never show another."""
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    return runtime._odds_column_id(label_text)


def raw_odds(rule: OddsRule, attack: int, defense: int) -> tuple[int, int]:
    """The odds ratio before any table edge: (n, 1) or (1, n).

    Args:
        attack, defense: combat factors, whole numbers >= 1.

    Raises:
        OddsProblem: a side has no factors.
    """
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    try:
        return runtime._raw_odds(plain.odds_rule(rule), attack, defense)
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
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    try:
        got = runtime._odds_read(plain.odds_rule(rule), attack, defense, shift)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc
    return Reading(got.formed, got.column, got.clamped, shift)


def column(rule: OddsRule, attack: int, defense: int | None, shift: int = 0) -> str:
    """The CRT column label for these forces and column shift (+ toward the attacker).

    Without printed columns the ratio itself is returned (shifts move it along the odds scale).
    The rule is the generated modules' own (`compiler.engine.runtime`), so both always agree.

    Raises:
        OddsProblem: no factors; odds off a `beyond error` table; a shift on a rule that does not
            state whether shifts come before or after clamping.
    """
    # lazy: runtime parts on first use: `chartc lookup` loads only those it calls (engine/runtime/__init__.py)
    from compiler.engine.runtime import odds as runtime

    try:
        return runtime._odds_column(plain.odds_rule(rule), attack, defense, shift)
    except ValueError as exc:
        raise OddsProblem(str(exc)) from exc
