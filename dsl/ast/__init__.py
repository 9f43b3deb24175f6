"""Syntax tree of one `.chart` file: what was written, with a source span on every node.

The parser (`dsl.parser`) builds these frozen dataclasses as Lark parses (`dsl.builder`). Nothing
here is resolved: names are plain strings, ranges keep their printed text (`9-0`, `01-08`, `12+`),
and the compiler's resolver (`compiler.resolve`) turns them into the typed chart model. One module
per family of statements: `values` (what a cell or key writes), `header`, `conditions`,
`modifiers` (DRMs and column shifts), `charts`, `layouts` (rows, grids, availability), `odds`,
`invariants`, `errata`, `examples`, `formulas`; `SourceFile`, the root, is here. `Span`, `Side`
and the kinds the model keeps unchanged (`DiceForm`, `CompareOp`, `Rounding`, ...) are defined in
`dsl.shared` and re-exported here, so `from dsl import ast; ast.ChartDecl` names every node.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.charts import AllowDecl as AllowDecl
from dsl.ast.charts import ChartDecl as ChartDecl
from dsl.ast.charts import ChartKind as ChartKind
from dsl.ast.charts import ColumnDecl as ColumnDecl
from dsl.ast.charts import DeriveDecl as DeriveDecl
from dsl.ast.charts import DiceAlternativeDecl as DiceAlternativeDecl
from dsl.ast.charts import DiceDecl as DiceDecl
from dsl.ast.charts import Favoured as Favoured
from dsl.ast.charts import FootnoteDecl as FootnoteDecl
from dsl.ast.charts import KeyDecl as KeyDecl
from dsl.ast.charts import RepeatDecl as RepeatDecl
from dsl.ast.charts import ValueKeyDecl as ValueKeyDecl
from dsl.ast.charts import ZeroReadsDecl as ZeroReadsDecl
from dsl.ast.conditions import Cond as Cond
from dsl.ast.conditions import CondAll as CondAll
from dsl.ast.conditions import CondAny as CondAny
from dsl.ast.conditions import CondCompare as CondCompare
from dsl.ast.conditions import CondFlag as CondFlag
from dsl.ast.conditions import CondIn as CondIn
from dsl.ast.conditions import CondNot as CondNot
from dsl.ast.conditions import Operand as Operand
from dsl.ast.conditions import OperandKind as OperandKind
from dsl.ast.errata import AddNote as AddNote
from dsl.ast.errata import AddRow as AddRow
from dsl.ast.errata import AmendDecl as AmendDecl
from dsl.ast.errata import AmendOp as AmendOp
from dsl.ast.errata import ChangeCell as ChangeCell
from dsl.ast.errata import Complete as Complete
from dsl.ast.errata import ErrataDecl as ErrataDecl
from dsl.ast.errata import MoveRow as MoveRow
from dsl.ast.errata import RemoveRow as RemoveRow
from dsl.ast.errata import Retitle as Retitle
from dsl.ast.errata import RowRef as RowRef
from dsl.ast.examples import ExampleDecl as ExampleDecl
from dsl.ast.examples import ExampleInput as ExampleInput
from dsl.ast.examples import ExpectDecl as ExpectDecl
from dsl.ast.formulas import Expr as Expr
from dsl.ast.formulas import ExprBinary as ExprBinary
from dsl.ast.formulas import ExprCall as ExprCall
from dsl.ast.formulas import ExprIf as ExprIf
from dsl.ast.formulas import ExprName as ExprName
from dsl.ast.formulas import ExprNeg as ExprNeg
from dsl.ast.formulas import ExprNumber as ExprNumber
from dsl.ast.formulas import FormulaDecl as FormulaDecl
from dsl.ast.header import ContextDecl as ContextDecl
from dsl.ast.header import EnumDecl as EnumDecl
from dsl.ast.header import FieldDecl as FieldDecl
from dsl.ast.header import FieldValue as FieldValue
from dsl.ast.header import GameDecl as GameDecl
from dsl.ast.header import MemberDecl as MemberDecl
from dsl.ast.header import PeriodDecl as PeriodDecl
from dsl.ast.header import ResultOrder as ResultOrder
from dsl.ast.invariants import CellFact as CellFact
from dsl.ast.invariants import ColumnSumInvariant as ColumnSumInvariant
from dsl.ast.invariants import CountFact as CountFact
from dsl.ast.invariants import CountInvariant as CountInvariant
from dsl.ast.invariants import Fact as Fact
from dsl.ast.invariants import FactKey as FactKey
from dsl.ast.invariants import FactRoll as FactRoll
from dsl.ast.invariants import FieldEquals as FieldEquals
from dsl.ast.invariants import FieldFact as FieldFact
from dsl.ast.invariants import InvariantDecl as InvariantDecl
from dsl.ast.invariants import SameInvariant as SameInvariant
from dsl.ast.layouts import AvailabilityDecl as AvailabilityDecl
from dsl.ast.layouts import AvailCell as AvailCell
from dsl.ast.layouts import AvailKind as AvailKind
from dsl.ast.layouts import AvailRowDecl as AvailRowDecl
from dsl.ast.layouts import CellText as CellText
from dsl.ast.layouts import GridDecl as GridDecl
from dsl.ast.layouts import GridRowDecl as GridRowDecl
from dsl.ast.layouts import RollGridDecl as RollGridDecl
from dsl.ast.layouts import RollLineDecl as RollLineDecl
from dsl.ast.layouts import RowDecl as RowDecl
from dsl.ast.modifiers import CombineDecl as CombineDecl
from dsl.ast.modifiers import DrmDecl as DrmDecl
from dsl.ast.modifiers import DrmFromDecl as DrmFromDecl
from dsl.ast.modifiers import DrmGroupDecl as DrmGroupDecl
from dsl.ast.modifiers import DrmPerDecl as DrmPerDecl
from dsl.ast.modifiers import ModifiedClampDecl as ModifiedClampDecl
from dsl.ast.modifiers import ShiftCapDecl as ShiftCapDecl
from dsl.ast.modifiers import ShiftDecl as ShiftDecl
from dsl.ast.modifiers import ShiftGroupDecl as ShiftGroupDecl
from dsl.ast.modifiers import ShiftSourceDecl as ShiftSourceDecl
from dsl.ast.odds import OddsDecl as OddsDecl
from dsl.ast.odds import OddsDomain as OddsDomain
from dsl.ast.values import ChainKeyText as ChainKeyText
from dsl.ast.values import ChainKind as ChainKind
from dsl.ast.values import ChainText as ChainText
from dsl.ast.values import KeyValueKind as KeyValueKind
from dsl.ast.values import KeyValueText as KeyValueText
from dsl.ast.values import MonthText as MonthText
from dsl.ast.values import Name as Name
from dsl.ast.values import RangeText as RangeText
from dsl.ast.values import SubOutcomeText as SubOutcomeText
from dsl.ast.values import Text as Text
from dsl.ast.values import ValueKind as ValueKind
from dsl.ast.values import ValueText as ValueText
from dsl.shared import Between as Between
from dsl.shared import Beyond as Beyond
from dsl.shared import CompareOp as CompareOp
from dsl.shared import DiceForm as DiceForm
from dsl.shared import ExpectKind as ExpectKind
from dsl.shared import ExprOp as ExprOp
from dsl.shared import GroupMode as GroupMode
from dsl.shared import OddsForm as OddsForm
from dsl.shared import Rounding as Rounding
from dsl.shared import ShiftOrder as ShiftOrder
from dsl.shared import Side as Side
from dsl.shared import Span as Span


@dataclass(frozen=True)
class SourceFile:
    """Everything declared in one `.chart` file."""

    path: str
    game: tuple[GameDecl, ...]
    enums: tuple[EnumDecl, ...]
    contexts: tuple[ContextDecl, ...]
    charts: tuple[ChartDecl, ...]
    odds: tuple[OddsDecl, ...] = ()
    invariants: tuple[InvariantDecl, ...] = ()
    errata: tuple[ErrataDecl, ...] = ()
    examples: tuple[ExampleDecl, ...] = ()
    formulas: tuple[FormulaDecl, ...] = ()
