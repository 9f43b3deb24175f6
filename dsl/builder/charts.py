"""The builder's rules of a `chart`, `drms` or `external` declaration and of its statements: the
dice it rolls, its value key, keys, columns, footnotes, `allow`, `derive`, the side higher rolls
favour; its DRMs and CRT column shifts; and its table as printed (rows, grids, CRTs printed by
roll, availability grids)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from lark import Token

from dsl import ast
from dsl.builder.base import (
    Block,
    ChartId,
    Meta,
    Rule,
    Stmt,
    Terminals,
    chart_name,
    constant,
    declaring,
    holding,
    kept,
    listing,
    node,
    typed,
)


def _shifts_in_order(block: Block) -> tuple[ast.ShiftDecl, ...]:
    """A chart's column shifts, those of its `shift_group` blocks included, in source order."""
    alone = block.every("shift", ast.ShiftDecl)
    grouped = [s for g in block.every("shift_group", ast.ShiftGroupDecl) for s in g.shifts]
    return tuple(sorted((*alone, *grouped), key=lambda s: (s.span.line, s.span.col)))


def _read_from_chart(
    keyword: str, make: Callable[[ast.Name, ast.Text | None, ast.ShiftSourceDecl, ast.Span], object]
) -> Rule:
    """`shift|drm NAME ["label"] from [TEC] column COLUMN by VAR`: a shift or a DRM read from a
    column of a terrain effects chart, in the row the context variable VAR picks; `make` builds
    its node from the name, the label, the source and the span."""

    def rule(
        self: Terminals,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        chart: ChartId | ast.Name,
        column: ast.Name,
        by: ast.Name,
    ) -> Stmt:
        span = self._span(meta)
        return Stmt(keyword, make(name, label, ast.ShiftSourceDecl(chart_name(chart), column, by, span), span), span)

    return rule


def _split_dice(dice: str) -> tuple[int, int]:
    """`2d6` as (2, 6); `d6` is one die."""
    count_text, _, sides_text = dice.partition("d")
    return int(count_text) if count_text else 1, int(sides_text)


class ChartRules(Terminals):
    """Chart declarations and the statements of a chart's block."""

    chart_id = node(ChartId)
    decl_id = node(ChartId)

    def chart(
        self, meta: Meta, chart_id: ChartId | None, slug: ast.Name | None, title: ast.Text, *stmts: Stmt
    ) -> ast.ChartDecl:
        return self._chart(ast.ChartKind.CHART, meta, chart_id, slug, title, stmts)

    def drms(
        self, meta: Meta, chart_id: ChartId | None, slug: ast.Name | None, title: ast.Text, *stmts: Stmt
    ) -> ast.ChartDecl:
        return self._chart(ast.ChartKind.DRMS, meta, chart_id, slug, title, stmts)

    def _chart(
        self,
        kind: ast.ChartKind,
        meta: Meta,
        chart_id: ChartId | None,
        slug: ast.Name | None,
        title: ast.Text,
        stmts: tuple[Stmt, ...],
    ) -> ast.ChartDecl:
        block = Block(stmts)
        return ast.ChartDecl(
            kind=kind,
            chart_id=chart_id.name if chart_id else None,
            slug=slug,
            title=title,
            span=self._span(meta),
            rule=block.one("rule", ast.Text),
            roll=block.one("roll", ast.DiceDecl),
            roll_alternatives=block.every("roll_when", ast.DiceAlternativeDecl),
            zero_reads=block.one("zero_reads", ast.Number),
            repeat=block.one("repeat", ast.Number),
            value_key=block.one("value", ast.ValueKeyDecl),
            keys=block.every("key", ast.KeyDecl),
            columns=block.every("column", ast.ColumnDecl),
            drms=block.every("drm", ast.DrmDecl),
            drm_groups=block.every("drm_group", ast.DrmGroupDecl),
            drms_from=block.every("drm_from", ast.DrmFromDecl),
            combine=block.one("combine", ast.CombineDecl),
            modified_clamp=block.one("modified_clamp", ast.BoundsDecl),
            high_rolls_favour=block.one("roll_favours", ast.Favoured),
            shifts=_shifts_in_order(block),
            shift_groups=block.every("shift_group", ast.ShiftGroupDecl),
            shift_cap=block.one("shift_cap", ast.BoundsDecl),
            footnotes=block.every("footnote", ast.FootnoteDecl),
            notes=block.every("note", ast.Text),
            partial=block.one("partial", ast.Text),
            partial_span=block.span_of("partial"),
            drm_meaning=block.one("drm_meaning", ast.Text),
            derive=block.one("derive", ast.DeriveDecl),
            rows=block.every_item("rows", ast.RowDecl),
            grids=block.every("grid", ast.GridDecl),
            roll_grids=block.every("roll_grid", ast.RollGridDecl),
            availability=block.every("availability", ast.AvailabilityDecl),
            allows=block.every("allow", ast.AllowDecl),
            aid_chance=block.one("aid_chance", bool),
            overlays=block.every("overlay", ast.OverlayDecl),
            repeated=block.repeated,  # last: the arguments are read in order, and `one` records repeats
        )

    def external(
        self, meta: Meta, chart_id: ChartId, slug: ast.Name | None, title: ast.Text, note: ast.Text | None
    ) -> ast.ChartDecl:
        notes = (note,) if note else ()
        return ast.ChartDecl(ast.ChartKind.EXTERNAL, chart_id.name, slug, title, self._span(meta), notes=notes)

    rule = holding("rule")
    note = holding("note")
    partial = holding("partial")
    drm_meaning = holding("drm_meaning")

    def favour_attacker(self, meta: Meta) -> Stmt:
        return Stmt("roll_favours", ast.Favoured(ast.Side.ATTACKER, self._span(meta)), self._span(meta))

    def favour_defender(self, meta: Meta) -> Stmt:
        return Stmt("roll_favours", ast.Favoured(ast.Side.DEFENDER, self._span(meta)), self._span(meta))

    footnote = declaring("footnote", ast.FootnoteDecl, int, kept)
    allow = declaring("allow", ast.AllowDecl)

    def derive(self, meta: Meta, base: ChartId | ast.Name, bands: Token | None) -> Stmt:
        decl = ast.DeriveDecl(chart_name(base), int(bands) if bands is not None else 0, self._span(meta))
        return Stmt("derive", decl, decl.span)

    # ---- dice, value key, keys, columns

    def roll(
        self, meta: Meta, dice: ast.DiceDecl, steps: tuple[ast.RollStep, ...] | None, when: ast.Cond | None
    ) -> Stmt:
        if steps:
            dice = dataclasses.replace(dice, steps=dice.steps + steps)
        if when is None:
            return Stmt("roll", dice, self._span(meta))
        decl = ast.DiceAlternativeDecl(dice, when, self._span(meta))
        return Stmt("roll_when", decl, decl.span)

    def roll_steps(self, meta: Meta, *steps: ast.RollStep) -> tuple[ast.RollStep, ...]:
        return steps

    def step_drms(self, meta: Meta) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.DRMS, self._span(meta))

    def step_minus(self, meta: Meta, amount: Token) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.ADD, self._span(meta), -int(amount))

    def step_plus(self, meta: Meta, amount: Token) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.ADD, self._span(meta), int(amount))

    def step_times(self, meta: Meta, factor: Token) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.TIMES, self._span(meta), int(factor))

    def step_doubled(self, meta: Meta) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.TIMES, self._span(meta), 2)

    def step_halved(self, meta: Meta, rounding: ast.Rounding) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.HALVE, self._span(meta), rounding=rounding)

    def step_minimum(self, meta: Meta, bound: Token) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.MINIMUM, self._span(meta), int(bound))

    def step_maximum(self, meta: Meta, bound: Token) -> ast.RollStep:
        return ast.RollStep(ast.StepKind.MAXIMUM, self._span(meta), int(bound))

    def dice_sum(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.SUM, count, sides, f"{count}d{sides}", self._span(meta))

    def dice_d66(self, meta: Meta) -> ast.DiceDecl:
        return ast.DiceDecl(ast.DiceForm.D66, 2, 6, "d66", self._span(meta))

    def dice_percentile(self, meta: Meta) -> ast.DiceDecl:
        return ast.DiceDecl(ast.DiceForm.PERCENTILE, 2, 10, "percentile", self._span(meta))

    def dice_lower_tens(self, meta: Meta) -> ast.DiceDecl:
        return ast.DiceDecl(ast.DiceForm.LOWER_TENS, 2, 10, "percentile lower as tens", self._span(meta))

    def dice_lower(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.LOWER, count, sides, f"lower of {dice}", self._span(meta))

    def dice_minus(self, meta: Meta, dice: Token, subtract: Token, floor: Token) -> ast.DiceDecl:
        """`1d6 minus 3 min 0`, the older spelling of `1d6 then drms then minus 3 then minimum 0`
        (IA2 7.1.5): the DRMs come before the subtraction, as the rules add them to the roll."""
        count, sides = _split_dice(dice)
        span = self._span(meta)
        steps = (
            ast.RollStep(ast.StepKind.DRMS, span),
            ast.RollStep(ast.StepKind.ADD, self._token_span(subtract), -int(subtract)),
            ast.RollStep(ast.StepKind.MINIMUM, self._token_span(floor), int(floor)),
        )
        return ast.DiceDecl(ast.DiceForm.SUM, count, sides, f"{count}d{sides}", span, steps=steps)

    def dice_higher(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.HIGHER, count, sides, f"higher of {dice}", self._span(meta))

    def dice_highest(self, meta: Meta, keep: Token, dice: Token) -> ast.DiceDecl:
        return self._keep(meta, ast.DiceForm.HIGHEST, int(keep), dice, f"highest {keep} of {dice}")

    def dice_lowest(self, meta: Meta, keep: Token, dice: Token) -> ast.DiceDecl:
        return self._keep(meta, ast.DiceForm.LOWEST, int(keep), dice, f"lowest {keep} of {dice}")

    def dice_drop_lowest(self, meta: Meta, drop: Token, dice: Token) -> ast.DiceDecl:
        count, _ = _split_dice(dice)
        return self._keep(meta, ast.DiceForm.HIGHEST, count - int(drop), dice, f"drop lowest {drop} of {dice}")

    def dice_drop_highest(self, meta: Meta, drop: Token, dice: Token) -> ast.DiceDecl:
        count, _ = _split_dice(dice)
        return self._keep(meta, ast.DiceForm.LOWEST, count - int(drop), dice, f"drop highest {drop} of {dice}")

    def _keep(self, meta: Meta, form: ast.DiceForm, keep: int, dice: Token, text: str) -> ast.DiceDecl:
        """A keep-highest/lowest form; `drop N of M` arrives here as keep M-N."""
        count, sides = _split_dice(dice)
        return ast.DiceDecl(form, count, sides, text, self._span(meta), keep=keep)

    def dice_exploding(self, meta: Meta, dice: Token, depth: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        text = f"exploding {dice} depth {depth}"
        return ast.DiceDecl(ast.DiceForm.EXPLODE, count, sides, text, self._span(meta), depth=int(depth))

    def dice_versus(self, meta: Meta, ours: Token, theirs: Token) -> ast.DiceDecl:
        count, sides = _split_dice(ours)
        versus_count, versus_sides = _split_dice(theirs)
        return ast.DiceDecl(
            ast.DiceForm.VERSUS,
            count,
            sides,
            f"{ours} versus {theirs}",
            self._span(meta),
            versus_count=versus_count,
            versus_sides=versus_sides,
        )

    zero_reads = declaring("zero_reads", ast.Number, int)
    repeat = declaring("repeat", ast.Number, int)

    def value_key(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, domain: Token, within: ast.Name | None
    ) -> Stmt:
        decl = ast.ValueKeyDecl(name, label, self._range(domain), self._span(meta), within)
        return Stmt("value", decl, decl.span)

    def key(self, meta: Meta, name: ast.Name, type_name: ast.Name | None) -> Stmt:
        decl = ast.KeyDecl(name, type_name or name, self._span(meta))
        return Stmt("key", decl, decl.span)

    column = declaring("column", ast.ColumnDecl)


class ModifierRules(Terminals):
    """DRMs, column shifts and the conditions they apply under."""

    def drm(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        per: ast.DrmPerDecl | None,
        when: ast.Cond | None,
        footnote: Token | None,
    ) -> Stmt:
        decl = ast.DrmDecl(
            name,
            label,
            int(value),
            self._token_span(value),
            when,
            int(footnote) if footnote is not None else None,
            self._span(meta),
            per,
        )
        return Stmt("drm", decl, decl.span)

    def drm_per(self, meta: Meta, step: Token | None, var: ast.Name, rounding: ast.Rounding | None) -> ast.DrmPerDecl:
        """`per [N] VAR [round down|up|nearest]`: N defaults to 1, rounding to down."""
        count = int(step) if step is not None else 1
        return ast.DrmPerDecl(count, var, rounding or ast.Rounding.DOWN, self._span(meta))

    def drm_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *drms: Stmt
    ) -> Stmt:
        decl = ast.DrmGroupDecl(name, label, mode, tuple(typed(d.node, ast.DrmDecl) for d in drms), self._span(meta))
        return Stmt("drm_group", decl, decl.span)

    group_best = constant(ast.GroupMode.BEST)
    group_worst = constant(ast.GroupMode.WORST)
    group_one = constant(ast.GroupMode.ONE)
    modified_clamp = declaring("modified_clamp", ast.BoundsDecl, int, int)

    def combine(self, meta: Meta, clamp_min: Token | None, clamp_max: Token | None) -> Stmt:
        low = int(clamp_min) if clamp_min is not None else None
        high = int(clamp_max) if clamp_max is not None else None
        decl = ast.CombineDecl(low, high, self._span(meta))
        return Stmt("combine", decl, decl.span)

    # ---- CRT column shifts

    def shift_value(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        when: ast.Cond | None,
    ) -> Stmt:
        decl = ast.ShiftDecl(name, label, int(value), when, None, None, self._span(meta))
        return Stmt("shift", decl, decl.span)

    shift_from = _read_from_chart(
        "shift", lambda name, label, source, span: ast.ShiftDecl(name, label, None, None, source, None, span)
    )
    drm_from = _read_from_chart("drm_from", ast.DrmFromDecl)

    def shift_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *shifts: Stmt
    ) -> Stmt:
        members = tuple(dataclasses.replace(typed(s.node, ast.ShiftDecl), group=name) for s in shifts)
        decl = ast.ShiftGroupDecl(name, label, mode, members, self._span(meta))
        return Stmt("shift_group", decl, decl.span)

    shift_cap = declaring("shift_cap", ast.BoundsDecl, int, int)


class _NaturalMark:
    """`natural` after a row's range: the row reads the natural roll."""


_NATURAL = _NaturalMark()


class LayoutRules(Terminals):
    """Rows, grids and availability grids."""

    rows = listing("rows")

    def row(self, meta: Meta, *parts: ast.KeyValueText | Token | ast.ValueText | _NaturalMark | None) -> ast.RowDecl:
        """`key_value* [RANGE] [natural] ":" value ("," value)*`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        natural = any(p is _NATURAL for p in parts)
        return ast.RowDecl(keys, printed, values, self._span(meta), natural)

    natural_mark = constant(_NATURAL)

    def overlay(
        self, meta: Meta, name: ast.Name | None, label: ast.Text | None, when: ast.Cond, *rows: ast.RowDecl
    ) -> Stmt:
        """`overlay [NAME] ["label"] when COND { row* }`."""
        decl = ast.OverlayDecl(name, label, when, rows, self._span(meta))
        return Stmt("overlay", decl, decl.span)

    def weighted_row(self, meta: Meta, *parts: ast.KeyValueText | Token | ast.ValueText) -> ast.RowDecl:
        """`key_value* RANGE "in" INT ":" value ("," value)*`: the weight and what it is out of."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        tokens = [p for p in parts if isinstance(p, Token)]
        weight, out_of = tokens[0], tokens[-1]
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        written = ast.Written(str(out_of), self._token_span(out_of))
        return ast.RowDecl(keys, self._range(weight), values, self._span(meta), out_of=written)

    def grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.GridRowDecl) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.GridRowDecl))
        decl = ast.GridDecl(key, columns, rows, self._span(meta))
        return Stmt("grid", decl, decl.span)

    def grid_row(self, meta: Meta, *parts: ast.ValueText | ast.CellText) -> ast.GridRowDecl:
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        cells = tuple(p for p in parts if isinstance(p, ast.CellText))
        return ast.GridRowDecl(values, cells, self._span(meta))

    def roll_grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.RollLineDecl) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        lines = tuple(p for p in parts if isinstance(p, ast.RollLineDecl))
        decl = ast.RollGridDecl(key, columns, lines, self._span(meta))
        return Stmt("roll_grid", decl, decl.span)

    def roll_line(self, meta: Meta, written: Token, *values: ast.ValueText) -> ast.RollLineDecl:
        return ast.RollLineDecl(self._range(written), values, self._span(meta))

    def cell(self, meta: Meta, written: Token) -> ast.CellText:
        return ast.CellText(self._range(written) if written.type == "RANGE" else None, self._span(meta))

    def availability(
        self, meta: Meta, row_key: ast.Name, col_key: ast.Name, *parts: ast.KeyValueText | ast.AvailRowDecl
    ) -> Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.AvailRowDecl))
        decl = ast.AvailabilityDecl(row_key, col_key, columns, rows, self._span(meta))
        return Stmt("availability", decl, decl.span)

    def avail_row(self, meta: Meta, key: ast.KeyValueText, *cells: ast.AvailCell) -> ast.AvailRowDecl:
        return ast.AvailRowDecl(key, cells, self._span(meta))

    def avail_cell(self, meta: Meta, written: Token) -> ast.AvailCell:
        span = self._token_span(written)
        match written.type:
            case "RANGE":
                return ast.AvailCell(ast.AvailKind.RANGE, self._range(written), span)
            case "CHECK":
                return ast.AvailCell(ast.AvailKind.AUTO, None, span)
            case _:  # DASH
                return ast.AvailCell(ast.AvailKind.NONE, None, span)
