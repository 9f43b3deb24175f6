"""A limit or allowance the rules state as a number ("4 sorties a month", "six bombers in any one
hex"): what it counts, its cases (a bound, when it applies, the rule each cites), and how a bound
reads. The first case whose condition holds applies; a case without a condition always does.
(`chartc lookup GAME/LIMIT` reads one through `compiler.engine.limits`.)"""

from __future__ import annotations

from compiler.model.conditions import Condition
from dsl.lazy_dataclass import dataclass
from dsl.shared import BoundKind, Span

__all__ = ["Bound", "BoundKind", "Limit", "LimitCase"]


@dataclass(frozen=True)
class Bound:
    """What a limit allows: the whole numbers from `low` to `high` (None: open at that end; a count
    is never below 0). `at most 4` is (None, 4), `at least 1` (1, None), `exactly 8` (8, 8), `2 to
    6` (2, 6), `unlimited` (None, None), `forbidden` (0, 0): a prohibition the rules state."""

    kind: BoundKind
    low: int | None
    high: int | None

    @property
    def least(self) -> int:
        """The least count allowed (a count starts at 0)."""
        return self.low if self.low is not None else 0

    def allows(self, count: int) -> bool:
        return count >= self.least and (self.high is None or count <= self.high)

    @property
    def number(self) -> int | None:
        """The one number the bound states (`at most 4`: 4; `at least 1`: 1; `exactly 8`: 8); None
        for a range or `unlimited`."""
        match self.kind:
            case BoundKind.AT_MOST:
                return self.high
            case BoundKind.AT_LEAST | BoundKind.EXACTLY | BoundKind.FORBIDDEN:
                return self.low
            case BoundKind.BETWEEN | BoundKind.UNLIMITED:
                return None

    @property
    def text(self) -> str:
        """`at most 4`, `at least 1`, `exactly 8`, `2 to 6`, `unlimited`, `forbidden`."""
        match self.kind:
            case BoundKind.AT_MOST:
                return f"at most {self.high}"
            case BoundKind.AT_LEAST:
                return f"at least {self.low}"
            case BoundKind.EXACTLY:
                return f"exactly {self.low}"
            case BoundKind.BETWEEN:
                return f"{self.low} to {self.high}"
            case BoundKind.UNLIMITED:
                return "unlimited"
            case BoundKind.FORBIDDEN:
                return "forbidden"


@dataclass(frozen=True)
class LimitCase:
    """One case of a limit: its bound, the condition it applies under (None: always) and the rule
    it cites (None: the limit's own)."""

    bound: Bound
    when: Condition | None
    cite: str | None
    span: Span


@dataclass(frozen=True)
class Limit:
    """`limit NAME "title" { rule ... counts ... CASE... }`, addressed like a chart (`ia2/sorties_per_month`)."""

    id: str
    title: str
    rule: str | None
    notes: tuple[str, ...]
    counts: str | None
    cases: tuple[LimitCase, ...]
    source_file: str
    span: Span

    @property
    def hull(self) -> tuple[int, int | None]:
        """The least and greatest count any case allows (None: no greatest)."""
        lows = [c.bound.least for c in self.cases]
        highs = [c.bound.high for c in self.cases]
        closed = [h for h in highs if h is not None]
        return (min(lows) if lows else 0), (max(closed) if closed and len(closed) == len(highs) else None)
