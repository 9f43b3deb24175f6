"""The codes of the constructs from the field (issue 32), beside `codes.py` (which re-exports them):
overlays, a band of rows printed over a table (C345-C347); turn tracks of days split into halves
(C419, C427). Stable and never reused, as every code.
"""

from __future__ import annotations

from typing import Final

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.code_type import make_code as _code

OVERLAY_OVERLAP: Final = _code(
    "C345", "overlay-overlap", Severity.ERROR, "two rows of one overlay select the same roll for the same keys",
    "Shorten one of the overlay's ranges: while the overlay holds, each roll must select exactly one of its rows.",
)
OVERLAY_OUTSIDE: Final = _code(
    "C346", "overlay-outside-roll", Severity.ERROR,
    "an overlay's range reaches a roll that the chart's dice, arithmetic and DRMs can never make",
    "Correct the overlay's printed range to rolls the chart can make, or declare the DRM that reaches it.",
)
OVERLAY_NEVER: Final = _code(
    "C347", "overlay-never-applies", Severity.WARNING,
    "no context makes an overlay's condition true, so its rows are never read",
    "Correct the overlay's `when` condition (a value it compares with may be outside the variable's declared "
    "range, or two parts may contradict each other).",
)
INVALID_TURN: Final = _code(
    "C419", "invalid-turn", Severity.ERROR,
    "a turn names a day that does not exist or a half the track does not have, or a turn span or track runs "
    "backwards",
    "Write turns as `YYYY-MM-DD HALF` with a real day and one of the track's `halves`, spans and tracks from "
    "first to last, and at least two different halves.",
)
TURN_OUTSIDE_TRACK: Final = _code(
    "C427", "turn-outside-track", Severity.ERROR,
    "a turn lies outside the game's turn track",
    "Check the turn, or widen the game's `turns` track.",
)
