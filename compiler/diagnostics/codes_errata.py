"""Diagnostic codes of errata (6xx), re-exported by `compiler.diagnostics.codes`."""

from __future__ import annotations

from typing import Final

from compiler.diagnostics.code_type import Severity
from compiler.diagnostics.code_type import make_code as _code

# 6xx: errata
ERRATA_TARGET_MISSING: Final = _code(
    "C601", "errata-target-missing", Severity.ERROR,
    "an errata names a chart, row or column that does not exist (or a row ambiguously)",
    "Name the chart by its ID or slug and the row by its key values and printed range, e.g. `piston 3-6`.",
)
ERRATA_CONFLICT: Final = _code(
    "C602", "errata-conflict", Severity.ERROR,
    "two errata change the same cell and neither says which wins (`overrides`)",
    "Add `overrides EARLIER` to the errata that should win.",
)
ERRATA_NO_EFFECT: Final = _code(
    "C603", "errata-no-effect", Severity.WARNING,
    "an errata change leaves the chart as it was",
    "Delete the change, or correct the value it sets.",
)
ERRATA_DATE: Final = _code(
    "C604", "errata-date", Severity.ERROR, "an errata's `date` is not a date (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`)",
    "Write the date the errata was published, e.g. `date \"2021-03-15\"`; a printing's name goes in `edition`.",
)
