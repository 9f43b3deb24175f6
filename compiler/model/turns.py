"""A turn track of days split into halves (`turns 1944-06-06 AM to 1944-06-12 PM halves [AM, PM]`).

A turn is written `1944-06-07 PM`: an ISO day, a space, one of the track's halves. Inside chartc it
stays that text (a `str`, as outputs print it); the track orders turns by day, then by the half's
place in `halves` (never as text: a game may name its halves `day`, `night` or `dawn`, `dusk`).
The player aid prints a turn as the book does: `7 June PM`.
"""

from __future__ import annotations

import datetime
import re

from dsl.lazy_dataclass import dataclass

_TURN_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) ([A-Za-z_][A-Za-z0-9_]*)$")
# The longest track a game may declare: each turn becomes a key value that outputs list.
MAX_TURNS = 2000
MONTH_NAMES_LONG = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)


def parse_day(text: str) -> datetime.date | None:
    """`YYYY-MM-DD` as a date, or None when no such day exists (`2026-02-30`)."""
    try:
        return datetime.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None


@dataclass(frozen=True)
class TurnTrack:
    """A game's turns: every day from `first_day` to `last_day`, each split into `halves` (two or
    more, in play order); the track starts at `first_half` of the first day and ends at `last_half`
    of the last."""

    first_day: datetime.date
    last_day: datetime.date
    halves: tuple[str, ...]
    first_half: str
    last_half: str

    @property
    def first(self) -> str:
        return f"{self.first_day.isoformat()} {self.first_half}"

    @property
    def last(self) -> str:
        return f"{self.last_day.isoformat()} {self.last_half}"

    def ordinal(self, turn: str) -> int | None:
        """The turn's place on an unbounded track of these halves (consecutive turns have
        consecutive ordinals), or None when `turn` is not a day and a half of this track."""
        m = _TURN_RE.match(turn)
        day = parse_day(turn[:10]) if m else None
        if m is None or day is None or m.group(4) not in self.halves:
            return None
        return day.toordinal() * len(self.halves) + self.halves.index(m.group(4))

    def from_ordinal(self, ordinal: int) -> str:
        day, half = divmod(ordinal, len(self.halves))
        return f"{datetime.date.fromordinal(day).isoformat()} {self.halves[half]}"

    def contains(self, turn: str) -> bool:
        """Whether `turn` is a turn of the track (a real day, a half it has, inside its ends)."""
        o = self.ordinal(turn)
        return o is not None and self._first <= o <= self._last

    @property
    def _first(self) -> int:
        return self.first_day.toordinal() * len(self.halves) + self.halves.index(self.first_half)

    @property
    def _last(self) -> int:
        return self.last_day.toordinal() * len(self.halves) + self.halves.index(self.last_half)

    def count(self) -> int:
        return max(0, self._last - self._first + 1)

    def turns(self) -> list[str]:
        """Every turn of the track, in play order."""
        return [self.from_ordinal(o) for o in range(self._first, self._last + 1)]


def turn_label(turn: str) -> str:
    """A turn as the book prints it: `1944-06-07 PM` is `7 June PM` (the text itself when it is not
    a turn)."""
    m = _TURN_RE.match(turn)
    day = parse_day(turn[:10]) if m else None
    if m is None or day is None:
        return turn
    return f"{day.day} {MONTH_NAMES_LONG[day.month - 1]} {m.group(4)}"


def turn_span_label(first: str, last: str | None) -> str:
    """`7 June AM to 8 June PM`, `9 June AM on` (open end), or one turn's label."""
    if last is None:
        return f"{turn_label(first)} on"
    return turn_label(first) if first == last else f"{turn_label(first)} to {turn_label(last)}"
