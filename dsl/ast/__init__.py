"""Syntax tree of one `.chart` file: what was written, with a source span on every node.

The parser (`dsl.parser`) builds these frozen dataclasses as Lark parses (`dsl.builder`). Nothing
here is resolved: names are plain strings, ranges keep their printed text (`9-0`, `01-08`, `12+`),
and the compiler's resolver (`compiler.resolve`) turns them into the typed chart model. Modules:
`values` (what a statement writes: names, ranges, cells, key values, chained cells, conditions,
formula expressions), `charts` (a chart's declaration and statements, its DRMs and shifts, its
table as printed), `declarations` (the game header, enums, context variables, odds rules,
invariants, errata, worked examples, formulas); `SourceFile`, the root, is here. `Span`, `Side`,
the kinds the model keeps unchanged (`DiceForm`, `CompareOp`, `Rounding`, ...) and the nodes both
trees build alike (`not`/`and`/`or`, a formula's operations) are defined in `dsl.shared` and
re-exported here, so `from dsl import ast; ast.ChartDecl` names every node.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl.ast.charts import AllowDecl as AllowDecl
from dsl.ast.charts import AvailabilityDecl as AvailabilityDecl
from dsl.ast.charts import AvailCell as AvailCell
from dsl.ast.charts import AvailKind as AvailKind
from dsl.ast.charts import AvailRowDecl as AvailRowDecl
from dsl.ast.charts import BoundsDecl as BoundsDecl
from dsl.ast.charts import CellText as CellText
from dsl.ast.charts import ChartDecl as ChartDecl
from dsl.ast.charts import ChartKind as ChartKind
from dsl.ast.charts import ColumnDecl as ColumnDecl
from dsl.ast.charts import CombineDecl as CombineDecl
from dsl.ast.charts import DeriveDecl as DeriveDecl
from dsl.ast.charts import DiceAlternativeDecl as DiceAlternativeDecl
from dsl.ast.charts import DiceDecl as DiceDecl
from dsl.ast.charts import DrmDecl as DrmDecl
from dsl.ast.charts import DrmFromDecl as DrmFromDecl
from dsl.ast.charts import DrmGroupDecl as DrmGroupDecl
from dsl.ast.charts import DrmPerDecl as DrmPerDecl
from dsl.ast.charts import Favoured as Favoured
from dsl.ast.charts import FootnoteDecl as FootnoteDecl
from dsl.ast.charts import GridDecl as GridDecl
from dsl.ast.charts import GridRowDecl as GridRowDecl
from dsl.ast.charts import KeyDecl as KeyDecl
from dsl.ast.charts import OverlayDecl as OverlayDecl
from dsl.ast.charts import RollGridDecl as RollGridDecl
from dsl.ast.charts import RollLineDecl as RollLineDecl
from dsl.ast.charts import RowDecl as RowDecl
from dsl.ast.charts import ShiftDecl as ShiftDecl
from dsl.ast.charts import ShiftGroupDecl as ShiftGroupDecl
from dsl.ast.charts import ShiftSourceDecl as ShiftSourceDecl
from dsl.ast.charts import ValueKeyDecl as ValueKeyDecl
from dsl.ast.declarations import CellFact as CellFact
from dsl.ast.declarations import ColumnSumInvariant as ColumnSumInvariant
from dsl.ast.declarations import ContextDecl as ContextDecl
from dsl.ast.declarations import CountFact as CountFact
from dsl.ast.declarations import CountInvariant as CountInvariant
from dsl.ast.declarations import DistancesInvariant as DistancesInvariant
from dsl.ast.declarations import DrmFact as DrmFact
from dsl.ast.declarations import EnumDecl as EnumDecl
from dsl.ast.declarations import ExampleDecl as ExampleDecl
from dsl.ast.declarations import ExampleInput as ExampleInput
from dsl.ast.declarations import ExpectDecl as ExpectDecl
from dsl.ast.declarations import Fact as Fact
from dsl.ast.declarations import FactKey as FactKey
from dsl.ast.declarations import FactRoll as FactRoll
from dsl.ast.declarations import FieldDecl as FieldDecl
from dsl.ast.declarations import FieldFact as FieldFact
from dsl.ast.declarations import FieldTest as FieldTest
from dsl.ast.declarations import FieldValue as FieldValue
from dsl.ast.declarations import FormulaDecl as FormulaDecl
from dsl.ast.declarations import FormulaFact as FormulaFact
from dsl.ast.declarations import GameDecl as GameDecl
from dsl.ast.declarations import InvariantDecl as InvariantDecl
from dsl.ast.declarations import LimitFact as LimitFact
from dsl.ast.declarations import MemberDecl as MemberDecl
from dsl.ast.declarations import OddsDecl as OddsDecl
from dsl.ast.declarations import OddsDomain as OddsDomain
from dsl.ast.declarations import PeriodDecl as PeriodDecl
from dsl.ast.declarations import ResultOrder as ResultOrder
from dsl.ast.declarations import SameInvariant as SameInvariant
from dsl.ast.declarations import SymmetricInvariant as SymmetricInvariant
from dsl.ast.declarations import TurnsDecl as TurnsDecl
from dsl.ast.errata import AddDrm as AddDrm
from dsl.ast.errata import AddNote as AddNote
from dsl.ast.errata import AddRow as AddRow
from dsl.ast.errata import AmendDecl as AmendDecl
from dsl.ast.errata import AmendOp as AmendOp
from dsl.ast.errata import ChangeCalendar as ChangeCalendar
from dsl.ast.errata import ChangeCell as ChangeCell
from dsl.ast.errata import ChangeDomain as ChangeDomain
from dsl.ast.errata import ChangeDrm as ChangeDrm
from dsl.ast.errata import ChangeField as ChangeField
from dsl.ast.errata import ChangeNote as ChangeNote
from dsl.ast.errata import ChangePeriod as ChangePeriod
from dsl.ast.errata import ChangeRequires as ChangeRequires
from dsl.ast.errata import ChangeResult as ChangeResult
from dsl.ast.errata import Complete as Complete
from dsl.ast.errata import ErrataDecl as ErrataDecl
from dsl.ast.errata import MoveRow as MoveRow
from dsl.ast.errata import RemoveDrm as RemoveDrm
from dsl.ast.errata import RemovePeriod as RemovePeriod
from dsl.ast.errata import RemoveRow as RemoveRow
from dsl.ast.errata import Retitle as Retitle
from dsl.ast.errata import RowRef as RowRef
from dsl.ast.rules import AmbiguousDecl as AmbiguousDecl
from dsl.ast.rules import BoundDecl as BoundDecl
from dsl.ast.rules import ConflictDecl as ConflictDecl
from dsl.ast.rules import KeptFindingDecl as KeptFindingDecl
from dsl.ast.rules import LimitCaseDecl as LimitCaseDecl
from dsl.ast.rules import LimitDecl as LimitDecl
from dsl.ast.rules import PlaceDecl as PlaceDecl
from dsl.ast.rules import ReadingDecl as ReadingDecl
from dsl.ast.rules import ReadingFact as ReadingFact
from dsl.ast.values import ChainKeyText as ChainKeyText
from dsl.ast.values import ChainKind as ChainKind
from dsl.ast.values import ChainText as ChainText
from dsl.ast.values import Cond as Cond
from dsl.ast.values import CondAll as CondAll
from dsl.ast.values import CondAny as CondAny
from dsl.ast.values import CondCompare as CondCompare
from dsl.ast.values import CondFlag as CondFlag
from dsl.ast.values import CondIn as CondIn
from dsl.ast.values import CondNot as CondNot
from dsl.ast.values import DomainDecl as DomainDecl
from dsl.ast.values import Expr as Expr
from dsl.ast.values import ExprBinary as ExprBinary
from dsl.ast.values import ExprCall as ExprCall
from dsl.ast.values import ExprIf as ExprIf
from dsl.ast.values import ExprName as ExprName
from dsl.ast.values import ExprNeg as ExprNeg
from dsl.ast.values import ExprNumber as ExprNumber
from dsl.ast.values import KeyValueKind as KeyValueKind
from dsl.ast.values import KeyValueText as KeyValueText
from dsl.ast.values import MonthText as MonthText
from dsl.ast.values import Name as Name
from dsl.ast.values import Operand as Operand
from dsl.ast.values import OperandKind as OperandKind
from dsl.ast.values import RangeText as RangeText
from dsl.ast.values import RequiresDecl as RequiresDecl
from dsl.ast.values import SubOutcomeText as SubOutcomeText
from dsl.ast.values import Text as Text
from dsl.ast.values import ValueKind as ValueKind
from dsl.ast.values import ValueText as ValueText
from dsl.ast.values import Written as Written
from dsl.shared import All as All
from dsl.shared import Any_ as Any_
from dsl.shared import Between as Between
from dsl.shared import Beyond as Beyond
from dsl.shared import Binary as Binary
from dsl.shared import BoundKind as BoundKind
from dsl.shared import CompareOp as CompareOp
from dsl.shared import DiceForm as DiceForm
from dsl.shared import ExpectKind as ExpectKind
from dsl.shared import ExprOp as ExprOp
from dsl.shared import GroupMode as GroupMode
from dsl.shared import IfElse as IfElse
from dsl.shared import Neg as Neg
from dsl.shared import Not as Not
from dsl.shared import Number as Number
from dsl.shared import OddsForm as OddsForm
from dsl.shared import RollStep as RollStep
from dsl.shared import Rounding as Rounding
from dsl.shared import ShiftOrder as ShiftOrder
from dsl.shared import Side as Side
from dsl.shared import Span as Span
from dsl.shared import StepKind as StepKind


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
    limits: tuple[LimitDecl, ...] = ()
    conflicts: tuple[ConflictDecl, ...] = ()
    ambiguities: tuple[AmbiguousDecl, ...] = ()
    kept: tuple[KeptFindingDecl, ...] = ()
