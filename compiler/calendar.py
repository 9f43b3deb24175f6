"""Months of a game's calendar: a `Month` value type, parsed once and ordered.

A month is written `YYYY-MM` in the charts and in every output; inside chartc it is a `Month`,
compared as (year, month) and counted by its ordinal, so a stretch of the calendar is measured
without listing its months.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
# The longest calendar a game may declare: a century of monthly turns. Longer spans are typos
# (`0000-01 to 9999-12`), and each month becomes a key value that outputs list.
MAX_CALENDAR_MONTHS = 1200


@dataclass(frozen=True, order=True)
class Month:
    """A calendar month (`1944-07`); ordered by year, then month."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: str) -> Month | None:
        """`YYYY-MM` as a Month, or None when it is not a real month."""
        m = _MONTH_RE.match(text)
        if not m or not 1 <= int(m.group(2)) <= 12:
            return None
        return cls(int(m.group(1)), int(m.group(2)))

    @property
    def ordinal(self) -> int:
        """Months since year 0 began: consecutive months have consecutive ordinals."""
        return self.year * 12 + self.month - 1

    @classmethod
    def from_ordinal(cls, ordinal: int) -> Month:
        return cls(ordinal // 12, ordinal % 12 + 1)

    def next(self) -> Month:
        return Month.from_ordinal(self.ordinal + 1)

    def previous(self) -> Month:
        return Month.from_ordinal(self.ordinal - 1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


def months_between(first: Month, last: Month) -> int:
    """How many months `first` to `last` spans, both included (0 when `last` comes first)."""
    return max(0, last.ordinal - first.ordinal + 1)


def month_range(first: Month, last: Month) -> list[Month]:
    """Every month from `first` to `last` inclusive."""
    return [Month.from_ordinal(o) for o in range(first.ordinal, last.ordinal + 1)]


def span_text(first: Month, last: Month) -> str:
    """`1944-07` for one month, `1944-07 to 1944-09` for several."""
    return str(first) if first == last else f"{first} to {last}"
