"""The `aid.order` file of a game folder: the player aid's chart order and group headings.

One chart per line (its printed ID or slug, optionally as `game/ID`), `== Heading` starts a group,
`#` starts a comment, and a line `--- Rules reference` (three dashes, then the part's title) ends the
player aid proper: the charts after it, and those the file does not list, print as the rules
reference after the aid. `read_order` parses it into entries with line numbers; the checker reports
unknown or repeated charts (C416) and the HTML emitter lays the aid out from the same entries.
"""

from __future__ import annotations

from dsl.lazy_dataclass import dataclass

ORDER_FILE = "aid.order"
DIVIDER = "---"
"""Starts the rules reference part: `--- Rules reference` (the text after the dashes is its title)."""
DEFAULT_REFERENCE_TITLE = "Rules reference"


@dataclass(frozen=True)
class OrderEntry:
    """A line of the file: a group `heading`, a chart `address` or the rules reference `divider`
    (its title), with its 1-based line number."""

    line: int
    heading: str | None
    address: str | None
    divider: str | None = None


def read_order(text: str, game_id: str) -> list[OrderEntry]:
    """Parse an `aid.order` text (a BOM and CRLF line ends are accepted; only LF ends a line, as the
    reader counts lines: a VT, NEL or U+2028 inside a line is text, not a line end)."""
    entries = []
    for number, raw in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith(DIVIDER):
            entries.append(OrderEntry(number, None, None, line.lstrip("-").strip() or DEFAULT_REFERENCE_TITLE))
            continue
        if line.startswith("=="):
            entries.append(OrderEntry(number, line[2:].strip(), None))
            continue
        address = line.removeprefix(f"{game_id}/")
        entries.append(OrderEntry(number, None, address))
    return entries
