"""Build the syntax tree of `dsl.ast` while Lark parses, one method per grammar rule.

Lark's LALR parser calls each method as it reduces the rule (`dsl.callbacks`), bottom-up, with
the rule's `meta` (its extent in the text) and its already-built children, in grammar order, as
Lark's parse tree would hold them. Optional parts are `[...]` in the grammar, so an absent part
arrives as None and every method has a fixed signature. Terminals are turned into values as the
parser shifts them: `NAME` into `ast.Name`, `STRING` into an unescaped `ast.Text`, and every
numeric terminal is checked against `MAX_DIGITS`.

Statements of a block (`game`, `chart`, `odds`, `errata`) arrive as `Stmt`s tagged with their
keyword; `Block` sorts them, keeps the first of a statement allowed once and records the
others as repeated (reported as C103).

The rules live in a class per family of the grammar, each a base of `Builder`: `values` (what
statements write: values, chained cells, conditions, expressions), `charts` (a chart and its
statements, DRMs and shifts, its table), `declarations` (the game header, enums, odds rules,
invariants, errata, examples, formulas); `base` holds what they share. This package imports
Lark; `dsl.parser` imports it only when it parses.
"""

from __future__ import annotations

from typing import assert_never

from dsl import ast
from dsl.builder.base import MAX_DIGITS as MAX_DIGITS
from dsl.builder.base import BuildError as BuildError
from dsl.builder.base import Extent as Extent
from dsl.builder.base import Meta as Meta
from dsl.builder.base import unquote as unquote
from dsl.builder.charts import ChartRules, LayoutRules, ModifierRules
from dsl.builder.declarations import ExampleRules, FormulaRules, HeaderRules, InvariantRules, OddsRules
from dsl.builder.errata import ErrataRules
from dsl.builder.rules import RuleRules
from dsl.builder.values import MAX_ROLL_NESTING as MAX_ROLL_NESTING
from dsl.builder.values import ConditionRules, ExpressionRules, ValueRules
from dsl.builder.values import chain_text as chain_text

_Item = (
    ast.GameDecl
    | ast.EnumDecl
    | ast.ContextDecl
    | ast.ChartDecl
    | ast.OddsDecl
    | ast.InvariantDecl
    | ast.ErrataDecl
    | ast.ExampleDecl
    | ast.FormulaDecl
    | ast.LimitDecl
    | ast.ConflictDecl
    | ast.AmbiguousDecl
    | ast.KeptFindingDecl
)


class Builder(
    HeaderRules,
    ChartRules,
    ModifierRules,
    LayoutRules,
    ValueRules,
    ConditionRules,
    ExpressionRules,
    OddsRules,
    InvariantRules,
    ErrataRules,
    ExampleRules,
    FormulaRules,
    RuleRules,
):
    """Builds one file's `ast.SourceFile` rule by rule (`dsl.callbacks.make_callbacks`).

    Raises:
        BuildError: from a terminal callback, for a bad string escape or a number with more
            than `MAX_DIGITS` digits.
    """

    def start(self, meta: Meta, *items: _Item) -> ast.SourceFile:
        games: list[ast.GameDecl] = []
        enums: list[ast.EnumDecl] = []
        contexts: list[ast.ContextDecl] = []
        charts: list[ast.ChartDecl] = []
        odds: list[ast.OddsDecl] = []
        invariants: list[ast.InvariantDecl] = []
        errata: list[ast.ErrataDecl] = []
        examples: list[ast.ExampleDecl] = []
        formulas: list[ast.FormulaDecl] = []
        limits: list[ast.LimitDecl] = []
        conflicts: list[ast.ConflictDecl] = []
        ambiguities: list[ast.AmbiguousDecl] = []
        kept: list[ast.KeptFindingDecl] = []
        for item in items:
            match item:
                case ast.GameDecl():
                    games.append(item)
                case ast.EnumDecl():
                    enums.append(item)
                case ast.ContextDecl():
                    contexts.append(item)
                case ast.ChartDecl():
                    charts.append(item)
                case ast.OddsDecl():
                    odds.append(item)
                case (
                    ast.CountInvariant()
                    | ast.ColumnSumInvariant()
                    | ast.SameInvariant()
                    | ast.SymmetricInvariant()
                    | ast.DistancesInvariant()
                ):
                    invariants.append(item)
                case ast.ErrataDecl():
                    errata.append(item)
                case ast.ExampleDecl():
                    examples.append(item)
                case ast.FormulaDecl():
                    formulas.append(item)
                case ast.LimitDecl():
                    limits.append(item)
                case ast.ConflictDecl():
                    conflicts.append(item)
                case ast.AmbiguousDecl():
                    ambiguities.append(item)
                case ast.KeptFindingDecl():
                    kept.append(item)
                case _:
                    assert_never(item)
        return ast.SourceFile(
            self.path,
            tuple(games),
            tuple(enums),
            tuple(contexts),
            tuple(charts),
            tuple(odds),
            tuple(invariants),
            tuple(errata),
            tuple(examples),
            tuple(formulas),
            tuple(limits),
            tuple(conflicts),
            tuple(ambiguities),
            tuple(kept),
        )

    # Rules of their own in the grammar that build what another rule builds (an errata's row,
    # value and row reference, an invariant's value, an example's expected value: each a rule of
    # its own so that the words that may follow it stay names elsewhere; see `dsl/chart.lark`).
    amend_row = LayoutRules.row
    amend_value = ValueRules.value
    fact_value = ValueRules.value
    expect_value = ValueRules.value
    ref_key = ValueRules.key_value
