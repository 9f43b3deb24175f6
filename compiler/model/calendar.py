"""Months of a game's calendar: a `Month` value type, parsed once and ordered.

A month is written `YYYY-MM` in the charts and in every output; inside chartc it is a `Month`,
compared and counted by its ordinal, so a stretch of the calendar is measured without listing
its months.
"""

from __future__ import annotations

import re

_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
# The longest calendar a game may declare: a century of monthly turns. Longer spans are typos
# (`0000-01 to 9999-12`), and each month becomes a key value that outputs list.
MAX_CALENDAR_MONTHS = 1200


class Month(str):
    """A calendar month, written `1944-07`; ordered by year, then month.

    It is its written form (a `str`), so outputs and messages print it unchanged and it equals the
    text it was read from; it is made only by `Month.parse` and `Month.from_ordinal`, so every
    Month is a real month, and months compare by their ordinals, never as text.
    """

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Month | None:
        """`YYYY-MM` as a Month, or None when it is not a real month."""
        m = _MONTH_RE.match(text)
        if not m or not 1 <= int(m.group(2)) <= 12:
            return None
        return cls(text)

    @classmethod
    def from_ordinal(cls, ordinal: int) -> Month:
        """The month `ordinal` months after January of year 0."""
        year, month = divmod(ordinal, 12)
        return cls(f"{year:04d}-{month + 1:02d}")

    @property
    def year(self) -> int:
        return int(self[:-3])

    @property
    def month(self) -> int:
        return int(self[-2:])

    @property
    def ordinal(self) -> int:
        """Months since year 0 began: consecutive months have consecutive ordinals."""
        return self.year * 12 + self.month - 1

    @property
    def name(self) -> str:
        """The month's English abbreviation, as rulebooks print it: `1944-12` is `Dec`."""
        return MONTH_NAMES[self.month - 1]

    @property
    def printed(self) -> str:
        """The month as the rulebooks' tables print it (IA2 R1-R3): `1944-07` is `7/44`."""
        return f"{self.month}/{self.year % 100:02d}"

    def next(self) -> Month:
        return Month.from_ordinal(self.ordinal + 1)

    def previous(self) -> Month:
        return Month.from_ordinal(self.ordinal - 1)

    def __lt__(self, other: object) -> bool:
        return self.ordinal < _ordinal(other)

    def __le__(self, other: object) -> bool:
        return self.ordinal <= _ordinal(other)

    def __gt__(self, other: object) -> bool:
        return self.ordinal > _ordinal(other)

    def __ge__(self, other: object) -> bool:
        return self.ordinal >= _ordinal(other)


def _ordinal(other: object) -> int:
    """The ordinal of a Month, or of a month's text (a month compared with a key value typed in)."""
    month = other if isinstance(other, Month) else Month.parse(other) if isinstance(other, str) else None
    if month is None:
        raise TypeError(f"cannot compare a month with {other!r}")
    return month.ordinal


MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def months_between(first: Month, last: Month) -> int:
    """How many months `first` to `last` spans, both included (0 when `last` comes first)."""
    return max(0, last.ordinal - first.ordinal + 1)


def month_range(first: Month, last: Month) -> list[Month]:
    """Every month from `first` to `last` inclusive."""
    return [Month.from_ordinal(o) for o in range(first.ordinal, last.ordinal + 1)]


def span_text(first: Month, last: Month) -> str:
    """`1944-07` for one month, `1944-07 to 1944-09` for several."""
    return str(first) if first == last else f"{first} to {last}"
