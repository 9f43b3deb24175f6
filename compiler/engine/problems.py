"""Why a question to a chart has no answer: the exceptions of the query layer."""

from __future__ import annotations


class LookupProblem(Exception):
    """The lookup cannot select a row; the message says why in the player's words."""


class LookupUsage(LookupProblem):
    """The question itself is malformed for this chart (a wrong key, a roll given or missing):
    a usage error (exit 2), not a roll that selects no row (exit 1)."""


class NoRow(LookupProblem):
    """The roll (natural roll + DRM) and keys select no row: a gap, or a modified roll off the
    table's end without an open-ended row."""


class NoPeriod(LookupUsage):
    """A month given for a key `period` falls in none of the game's periods (`month`, as typed)."""

    def __init__(self, message: str, month: str) -> None:
        super().__init__(message)
        self.month = month

