"""The codes of `chartc import` (C360-C369): what a spreadsheet or a PDF did to a table's cells.
Re-exported by `compiler.diagnostics.codes`, where every pass finds them."""

from __future__ import annotations

from typing import Final

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.code_type import make_code as _code

# ---- `chartc import`: what a spreadsheet or a PDF did to a table's cells (C360-C369)
DATE_FOR_RANGE: Final = _code(
    "C360", "date-for-range", Severity.ERROR,
    "an imported cell holds a date where a range or a column head was (a spreadsheet read `1-2` as 2 January)",
    "Type the cell again as text (a leading `'`, or the column formatted as Text first), e.g. `1-2`, "
    "and import again.",
)
TIME_FOR_ODDS: Final = _code(
    "C361", "time-for-odds", Severity.ERROR,
    "an imported cell holds a time where odds or a range were (a spreadsheet read `3:1` as 03:01)",
    "Type the cell again as text (a leading `'`, or the column formatted as Text first), e.g. `3:1`, "
    "and import again.",
)
ZERO_FOR_DOUBLE_ZERO: Final = _code(
    "C362", "zero-for-double-zero", Severity.ERROR,
    "an imported percentile range column holds the number 0 where the roll `00` was",
    "Type `00` again as text (a leading `'`, or the column formatted as Text first) and import again.",
)
FOREIGN_DASH: Final = _code(
    "C363", "foreign-dash", Severity.ERROR,
    "an imported range, column head or value holds a dash that is not a hyphen-minus (an en dash or a minus "
    "sign from a PDF)",
    "Retype the dash as the hyphen-minus `-` (`4-5`, `-1`) and import again.",
)
UNKNOWN_DICE: Final = _code(
    "C364", "unknown-dice", Severity.ERROR,
    "an imported table's ranges fit no dice chartc knows, and its range column's header names none",
    "Head the range column with the dice (`2d6`, `d66`, `percentile`) and import again, "
    "or write the `roll` line in the draft by hand.",
)
NOT_A_RANGE: Final = _code(
    "C365", "not-a-range", Severity.ERROR,
    "an imported cell in the range column is no die range a rulebook prints (`3-6`, `12+`, `1 or less`, `01-05`)",
    "Type the range as the rulebook prints it (`3-6`, `5+`, `1 or less`) and import again; chartc writes "
    "no other text where a range stands.",
)
