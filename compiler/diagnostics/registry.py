"""The registry of diagnostic codes: every code of `compiler.diagnostics.codes` in one ordered tuple,
and the lookups by id (`C301`) and by name (`overlapping-ranges`).

The order is the SARIF report's rule order (`ruleIndex`); `tests/test_diagnostics.py` fails when a
code constant is left out of `REGISTRY`.
"""

from __future__ import annotations

from typing import Final

from compiler.diagnostics import codes
from compiler.diagnostics.code_type import Code

REGISTRY: Final[tuple[Code, ...]] = (
    codes.SYNTAX_ERROR,
    codes.UNREADABLE_FILE,
    codes.REPEATED_STATEMENT,
    codes.UNKNOWN_NAME,
    codes.DUPLICATE_NAME,
    codes.GAME_HEADER,
    codes.OVERLAPPING_RANGES,
    codes.GAP,
    codes.RANGE_OUTSIDE_FACES,
    codes.REVERSED_RANGE,
    codes.MODIFIED_ROLL_OFF_TABLE,
    codes.UNREACHABLE_ROW,
    codes.ZERO_FACE_UNSTATED,
    codes.INVALID_ZERO_READS,
    codes.INVALID_REPEAT,
    codes.INVALID_ROLL_STEP,
    codes.WEIGHTS_FILL,
    codes.OVERLAY_OVERLAP,
    codes.OVERLAY_OUTSIDE,
    codes.OVERLAY_NEVER,
    codes.INVALID_RANGE,
    codes.PARTIAL_CHART,
    codes.PARTIAL_BUT_COMPLETE,
    codes.MODIFIED_GAP,
    codes.ROWS_OUT_OF_ORDER,
    codes.DRM_GROUP_OVERLAP,
    codes.PER_STEP_DOMAIN,
    codes.CONTEXT_DOMAIN,
    codes.REACH_APPROXIMATED,
    codes.DATE_FOR_RANGE,
    codes.TIME_FOR_ODDS,
    codes.ZERO_FOR_DOUBLE_ZERO,
    codes.FOREIGN_DASH,
    codes.UNKNOWN_DICE,
    codes.NOT_A_RANGE,
    codes.GRID_SHAPE,
    codes.TYPE_MISMATCH,
    codes.ROW_SHAPE,
    codes.CHART_SHAPE,
    codes.INVALID_DICE,
    codes.INVALID_MONTH,
    codes.INVALID_CONDITION,
    codes.THRESHOLD_ORDER,
    codes.MONTH_OUTSIDE_CALENDAR,
    codes.COLUMN_ORDER,
    codes.PERIOD_COVERAGE,
    codes.INVALID_TURN,
    codes.TURN_OUTSIDE_TRACK,
    codes.BEFORE_AVAILABLE,
    codes.DRM_ON_DIGIT_ROLL,
    codes.INVARIANT_VIOLATED,
    codes.CHART_TOO_LARGE,
    codes.AID_ORDER,
    codes.FACTS_DISAGREE,
    codes.FACTS_KEPT,
    codes.EMPTY_CELL,
    codes.RECORD_FIELD_MISSING,
    codes.ODDS_BETWEEN,
    codes.ODDS_FORM_CONFLICT,
    codes.ODDS_DOMAIN,
    codes.CRT_DOMINANCE,
    codes.CRT_MONOTONIC,
    codes.RESULT_ORDER,
    codes.CRT_TOO_WIDE,
    codes.RESULT_CODE_UNUSED,
    codes.SHIFT_TARGET,
    codes.SHIFT_GROUP,
    codes.SHIFT_SOURCE,
    codes.SHIFT_GROUP_OVERLAP,
    codes.UNUSED_SUPPRESSION,
    codes.INVALID_SUPPRESSION,
    codes.ERRATA_TARGET_MISSING,
    codes.ERRATA_CONFLICT,
    codes.ERRATA_NO_EFFECT,
    codes.ERRATA_DATE,
    codes.CHAIN_KEY,
    codes.CHAIN_DRM,
    codes.CHAIN_CYCLE,
    codes.CHAIN_TARGET,
    codes.CHAIN_ROLL,
    codes.CHOICE_SHAPE,
    codes.EXAMPLE_CONTRADICTED,
    codes.EXAMPLE_KEPT,
    codes.EXAMPLE_AGREES,
    codes.EXAMPLE_UNREADABLE,
    codes.FORMULA_NOT_WHOLE,
    codes.FORMULA_UNDEFINED,
    codes.FORMULA_ARGUMENTS,
    codes.OUTSIDE_DOMAIN,
    codes.OUTSIDE_DOMAIN_KEPT,
    codes.BOOK_INCONSISTENCY,
    codes.BOOK_INCONSISTENCY_KEPT,
    codes.INCONSISTENCY_RESOLVED,
    codes.INCONSISTENCY_SHAPE,
    codes.FINDING_KEPT,
    codes.KEPT_UNMATCHED,
    codes.LIMIT_SHAPE,
    codes.OUTSIDE_LIMIT,
    codes.FORBIDDEN_ALLOWED,
)
CODES: Final[dict[str, Code]] = {c.code: c for c in REGISTRY}
# The notes that list what the book itself gets wrong, kept as printed with a reason: two facts
# printed twice, a worked example, a formula's gap, a conflict or ambiguous print, a kept warning
# (the check summary counts them).
KEPT_AS_PRINTED: Final = frozenset(c.code for c in (codes.FACTS_KEPT, codes.EXAMPLE_KEPT,
                                                    codes.OUTSIDE_DOMAIN_KEPT, codes.BOOK_INCONSISTENCY_KEPT,
                                                    codes.FINDING_KEPT))
CODES_BY_NAME: Final[dict[str, Code]] = {c.name: c for c in REGISTRY}


def suppressible(code: str) -> bool:
    """Whether `allow CODE` may silence the code with this id (unknown ids: no)."""
    known = CODES.get(code)
    return known is not None and known.suppressible
