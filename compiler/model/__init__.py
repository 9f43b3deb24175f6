"""The resolved chart model: every name bound, every range read as integers, spans kept.

Built by `compiler.resolve` from the syntax tree; read by the checks, the emitters and `lookup`.
Nothing in here refers back to Lark or to the syntax tree. Modules: `values` (cells, ranges,
month spans), `types` (enums, records, periods, context variables, column types), `conditions`
(DRMs and their conditions), `chart` (charts, rows, layouts, errata marks), `game`.
"""

from __future__ import annotations

from compiler.calendar import Month
from compiler.model.chart import (
    AUTOMATIC,
    AVAILABLE,
    NOT_AVAILABLE,
    AvailabilityCell,
    AvailabilityLayout,
    AvailabilityMark,
    Chart,
    ChartErrata,
    ChartKind,
    Column,
    GridLayout,
    GridRow,
    Key,
    Row,
    ShortRow,
    ValueKey,
    drm_span,
)
from compiler.model.conditions import (
    All,
    Any_,
    Compare,
    CompareOp,
    Condition,
    Drm,
    Flag,
    Footnote,
    In,
    Not,
    Operand,
)
from compiler.model.game import (
    ChartIndex,
    ColumnSumInvariant,
    CountInvariant,
    ErrataDoc,
    Game,
    Invariant,
    Project,
    Suppression,
)
from compiler.model.types import (
    COLUMN_TYPES,
    FIELD_TYPES,
    SLASHED_PARTS,
    BuiltinType,
    ColumnType,
    ContextType,
    ContextVar,
    EnumRef,
    EnumType,
    Field,
    Member,
    Period,
)
from compiler.model.values import (
    ChartRef,
    DieRange,
    KeyMatch,
    MemberId,
    MonthSpan,
    Slashed,
    Text,
    Value,
    key_matches,
)

__all__ = [
    "AUTOMATIC", "AVAILABLE", "COLUMN_TYPES", "FIELD_TYPES", "NOT_AVAILABLE", "SLASHED_PARTS", "All", "Any_",
    "AvailabilityCell", "AvailabilityLayout", "AvailabilityMark", "BuiltinType", "Chart", "ChartErrata", "ChartIndex", "ChartKind",
    "ChartRef", "Column", "ColumnSumInvariant", "ColumnType", "Compare", "CompareOp", "Condition", "ContextType",
    "ContextVar", "CountInvariant", "DieRange", "Drm", "EnumRef", "EnumType", "ErrataDoc", "Field", "Flag", "Footnote",
    "Game", "GridLayout", "GridRow", "In", "Invariant", "Key", "KeyMatch", "Member", "MemberId", "Month", "MonthSpan",
    "Not", "Operand", "Period", "Project", "Row", "ShortRow", "Slashed", "Suppression", "Text", "Value", "ValueKey", "drm_span",
    "key_matches",
]
