"""Build the syntax tree of `dsl.ast` while Lark parses, one method per grammar rule.

Lark's LALR parser calls each method as it reduces the rule (`dsl.callbacks`), bottom-up, with
the rule's `meta` (its extent in the text) and its already-built children, in grammar order, as
Lark's parse tree would hold them. Optional parts are `[...]` in the grammar, so an absent part
arrives as None and every method has a fixed signature. Terminals are turned into values as the
parser shifts them: `NAME` into `ast.Name`, `STRING` into an unescaped `ast.Text`, and every
numeric terminal is checked against `MAX_DIGITS`.

Statements of a block (`game`, `chart`, `odds`, `errata`) arrive as `_Stmt`s tagged with their
keyword; `_Block` sorts them, keeps the first of a statement allowed once and records the
others as repeated (reported as C103).

This module imports Lark; `dsl.parser` imports it only when it parses.
"""

from __future__ import annotations

import ast as _pyast
import dataclasses
import re
from dataclasses import dataclass
from typing import TypeVar, assert_never

from lark import Token

from dsl import ast
from dsl.source_text import clip, while_reading

# Whole numbers in a chart have at most this many digits (leading zeros included): no wargame
# chart needs a number near a billion, and Python refuses to read integers over 4,300 digits.
MAX_DIGITS = 9
_TOO_MANY_DIGITS = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")

# What Python's literal syntax would read differently from the bare text: escapes, and the
# characters its tokenizer refuses or rewrites inside a literal (NUL, a carriage return).
_NEEDS_DECODING = re.compile("[\\\\\r\0\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")

_T = TypeVar("_T")

# (line, col, end_line, end_col) of a rule's text, None when it matched nothing
Extent = tuple[int, int, int, int] | None
Meta = Extent


# Deepest nesting of rolls in cells (`-> 1d6 { 1-3: -> 1d6 { ... } }`): deeper ones would pass what
# the generated module's Python source may nest (its parser stops at 200 parentheses).
MAX_ROLL_NESTING = 50


def _roll_depth(chain: ast.ChainText) -> int:
    """How many rolls in cells nest at `chain`, itself included. The builder checks each roll as it
    is built, so the rolls inside are at most MAX_ROLL_NESTING deep: this walk is bounded."""
    inner = [o.value.chain for o in chain.outcomes if o.value.chain is not None]
    return 1 + max((_roll_depth(c) for c in inner if c.kind is ast.ChainKind.ROLL), default=0)


class BuildError(Exception):
    """A problem found while building the tree (a bad escape, a number too long): a syntax error."""

    def __init__(self, message: str, span: ast.Span, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help


@dataclass(frozen=True)
class _ChartId:
    """`[R4]`: the chart ID and the span of the whole bracketed reference."""

    name: ast.Name
    span: ast.Span


@dataclass(frozen=True)
class _ResultCodes:
    """`codes` inside an enum, before the enum gathers its items."""

    span: ast.Span


@dataclass(frozen=True)
class _Stmt:
    """One statement of a block, tagged with its keyword, before the block sorts them."""

    keyword: str
    node: object
    span: ast.Span


class _NaturalMark:
    """`natural` after a row's range: the row reads the natural roll."""


class _Block:
    """The statements of one block by keyword."""

    def __init__(self, stmts: tuple[_Stmt, ...]) -> None:
        self._by_keyword: dict[str, list[_Stmt]] = {}
        for stmt in stmts:
            self._by_keyword.setdefault(stmt.keyword, []).append(stmt)
        self._repeated: list[ast.Span] = []

    def one(self, keyword: str, cls: type[_T]) -> _T | None:
        """The first statement `keyword` (allowed once); every later one is recorded as repeated."""
        found = self._by_keyword.get(keyword, [])
        self._repeated.extend(extra.span for extra in found[1:])
        return _typed(found[0].node, cls) if found else None

    def last(self, keyword: str, cls: type[_T]) -> _T | None:
        """The last statement `keyword`, where a later one silently replaces an earlier one."""
        found = self._by_keyword.get(keyword, [])
        return _typed(found[-1].node, cls) if found else None

    def every(self, keyword: str, cls: type[_T]) -> tuple[_T, ...]:
        """Every statement `keyword`, in source order."""
        return tuple(_typed(stmt.node, cls) for stmt in self._by_keyword.get(keyword, []))

    def one_group(self, keyword: str, cls: type[_T]) -> tuple[_T, ...] | None:
        """Like `one`, for a statement that lists several items (`columns [...]`, `calendar A to B`)."""
        group = self.one(keyword, tuple)
        return tuple(_typed(item, cls) for item in group) if group is not None else None

    def every_item(self, keyword: str, cls: type[_T]) -> tuple[_T, ...]:
        """The items of every statement `keyword` that lists several (`rows { ... }`), in order."""
        return tuple(_typed(item, cls) for group in self.every(keyword, tuple) for item in group)

    def span_of(self, keyword: str) -> ast.Span | None:
        """The span of the first statement `keyword`, None when there is none."""
        found = self._by_keyword.get(keyword, [])
        return found[0].span if found else None

    @property
    def repeated(self) -> tuple[ast.Span, ...]:
        """The spans of the statements `one` found repeated, in source order."""
        return tuple(sorted(set(self._repeated)))


def _shifts_in_order(block: _Block) -> tuple[ast.ShiftDecl, ...]:
    """A chart's column shifts, those of its `shift_group` blocks included, in source order."""
    alone = block.every("shift", ast.ShiftDecl)
    grouped = [s for g in block.every("shift_group", ast.ShiftGroupDecl) for s in g.shifts]
    return tuple(sorted((*alone, *grouped), key=lambda s: (s.span.line, s.span.col)))


def _typed(node: object, cls: type[_T]) -> _T:
    if not isinstance(node, cls):  # pragma: no cover - the grammar fixes each keyword's node type
        raise TypeError(f"expected {cls.__name__}, built {type(node).__name__}")
    return node


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
)
_TOKEN_VALUE_KINDS = {
    "INT": ast.ValueKind.INT,
    "DRM_VALUE": ast.ValueKind.INT,
    "DASH": ast.ValueKind.NONE,
    "SLASHED": ast.ValueKind.SLASHED,
    "MONTH": ast.ValueKind.MONTH,
}


class _Terminals:
    """Spans, and the callbacks Lark calls with each terminal (named like it) as it shifts it.

    `path` and `text` are those of the file being parsed (set before each parse).
    """

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    def _span(self, meta: Meta) -> ast.Span:
        if meta is None:  # a rule that matched no text
            return ast.Span(self.path, 1, 1, 1, 1)
        return ast.Span(self.path, *meta)

    def _token_span(self, tok: Token) -> ast.Span:
        line, col, end_line, end_col = tok.line, tok.column, tok.end_line, tok.end_column
        assert line is not None and col is not None and end_line is not None and end_col is not None, (
            "lexed tokens have positions"
        )
        return ast.Span(self.path, line, col, end_line, end_col)

    def _range(self, tok: Token) -> ast.RangeText:
        return ast.RangeText(str(tok), self._token_span(tok))

    def _month(self, tok: Token) -> ast.MonthText:
        return ast.MonthText(str(tok), self._token_span(tok))

    def NAME(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), self._token_span(tok))

    def CHART_ID(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), self._token_span(tok))

    def STRING(self, tok: Token) -> ast.Text:
        span = self._token_span(tok)
        return ast.Text(unquote(str(tok), span), span)

    def _number(self, tok: Token) -> Token:
        """The token, once every run of digits in it is at most MAX_DIGITS long."""
        long_run = _TOO_MANY_DIGITS.search(tok)
        if long_run is not None:
            span = self._token_span(tok)
            start = span.col + long_run.start()
            digits = long_run.group()
            too_long = f"the number `{clip(digits)}` is too long ({len(digits)} digits, at most {MAX_DIGITS})"
            raise BuildError(
                too_long + while_reading(self.text, span.line),
                ast.Span(self.path, span.line, start, span.line, start + len(digits)),
                f"a whole number in a chart has at most {MAX_DIGITS} digits; check for a missing `-`, `,` or space",
            )
        return tok

    INT = RANGE = DRM_VALUE = SLASHED = DICE = _number


class Builder(_Terminals):
    """Builds one file's `ast.SourceFile` rule by rule (`dsl.callbacks.make_callbacks`).

    Raises:
        BuildError: from a terminal callback, for a bad string escape or a number with more
            than `MAX_DIGITS` digits.
    """

    # ---- file

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
                case ast.CountInvariant() | ast.ColumnSumInvariant() | ast.SameInvariant():
                    invariants.append(item)
                case ast.ErrataDecl():
                    errata.append(item)
                case ast.ExampleDecl():
                    examples.append(item)
                case ast.FormulaDecl():
                    formulas.append(item)
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
        )

    # ---- game header

    def game(self, meta: Meta, name: ast.Name, *stmts: _Stmt) -> ast.GameDecl:
        block = _Block(stmts)
        title = block.one("title", ast.Text)
        source = block.one("source", ast.Text)
        months = block.one_group("calendar", ast.MonthText)
        calendar = (months[0], months[1]) if months else None
        aid_chance = block.one("aid_chance", bool)
        return ast.GameDecl(
            name,
            title,
            source,
            calendar,
            block.every("period", ast.PeriodDecl),
            self._span(meta),
            block.repeated,
            aid_chance=aid_chance,
        )

    def aid_chance_on(self, meta: Meta) -> _Stmt:
        return _Stmt("aid_chance", True, self._span(meta))

    def aid_chance_off(self, meta: Meta) -> _Stmt:
        return _Stmt("aid_chance", False, self._span(meta))

    def title(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("title", text, self._span(meta))

    def source(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("source", text, self._span(meta))

    def calendar(self, meta: Meta, first: Token, last: Token) -> _Stmt:
        return _Stmt("calendar", (self._month(first), self._month(last)), self._span(meta))

    def period(self, meta: Meta, name: ast.Name, label: ast.Text, first: Token, last: Token) -> _Stmt:
        """`to` a bound, or `+` for open-ended; a bare year reads as its January or December."""
        end = None if last.type == "PLUS" else self._period_month(last, start=False)
        decl = ast.PeriodDecl(name, label, self._period_month(first, start=True), end, self._span(meta))
        return _Stmt("period", decl, decl.span)

    def period_bound(self, meta: Meta, tok: Token) -> Token:
        return tok

    def _period_month(self, tok: Token, start: bool) -> ast.MonthText:
        if tok.type == "INT":
            return ast.MonthText(f"{int(tok):04d}-{'01' if start else '12'}", self._token_span(tok))
        return self._month(tok)

    # ---- enums and context variables

    def enum(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        *items: ast.MemberDecl | tuple[ast.FieldDecl, ...] | _ResultCodes | ast.ResultOrder,
    ) -> ast.EnumDecl:
        members = tuple(i for i in items if isinstance(i, ast.MemberDecl))
        field_decls = tuple(f for i in items if isinstance(i, tuple) for f in i)
        codes = next((i.span for i in items if isinstance(i, _ResultCodes)), None)
        order = next((i for i in items if isinstance(i, ast.ResultOrder)), None)
        return ast.EnumDecl(name, label, field_decls, members, self._span(meta), codes, order)

    def result_codes(self, meta: Meta) -> _ResultCodes:
        return _ResultCodes(self._span(meta))

    def result_order(self, meta: Meta, first: ast.Name, *rest: Token | ast.Name) -> ast.ResultOrder:
        ops = tuple(ast.Text(str(t), self._token_span(t)) for t in rest if isinstance(t, Token))
        names = (first, *(n for n in rest if isinstance(n, ast.Name)))
        return ast.ResultOrder(names, ops, self._span(meta))

    def fields(self, meta: Meta, *decls: ast.FieldDecl) -> tuple[ast.FieldDecl, ...]:
        return decls

    def field_decl(self, meta: Meta, name: ast.Name, type_name: ast.Name, label: ast.Text | None) -> ast.FieldDecl:
        return ast.FieldDecl(name, type_name, label, self._span(meta))

    def member(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        fields: tuple[ast.FieldValue, ...] | None,
        aliases: tuple[ast.Text, ...] | None,
    ) -> ast.MemberDecl:
        return ast.MemberDecl(name, label, fields or (), aliases or (), self._span(meta))

    def member_body(self, meta: Meta, *fields: ast.FieldValue) -> tuple[ast.FieldValue, ...]:
        return fields

    def field_value(self, meta: Meta, name: ast.Name, value: ast.ValueText) -> ast.FieldValue:
        return ast.FieldValue(name, value, self._span(meta))

    def aliases(self, meta: Meta, *labels: ast.Text) -> tuple[ast.Text, ...]:
        return labels

    def context(
        self, meta: Meta, name: ast.Name, type_name: ast.Name, label: ast.Text | None, domain: Token | None
    ) -> ast.ContextDecl:
        return ast.ContextDecl(name, type_name, label, self._span(meta), self._range(domain) if domain else None)

    # ---- charts

    def chart_id(self, meta: Meta, name: ast.Name) -> _ChartId:
        return _ChartId(name, self._span(meta))

    def decl_id(self, meta: Meta, name: ast.Name) -> _ChartId:
        return _ChartId(name, self._span(meta))

    def chart(
        self, meta: Meta, chart_id: _ChartId | None, slug: ast.Name | None, title: ast.Text, *stmts: _Stmt
    ) -> ast.ChartDecl:
        return self._chart(ast.ChartKind.CHART, meta, chart_id, slug, title, stmts)

    def drms(
        self, meta: Meta, chart_id: _ChartId | None, slug: ast.Name | None, title: ast.Text, *stmts: _Stmt
    ) -> ast.ChartDecl:
        return self._chart(ast.ChartKind.DRMS, meta, chart_id, slug, title, stmts)

    def _chart(
        self,
        kind: ast.ChartKind,
        meta: Meta,
        chart_id: _ChartId | None,
        slug: ast.Name | None,
        title: ast.Text,
        stmts: tuple[_Stmt, ...],
    ) -> ast.ChartDecl:
        block = _Block(stmts)
        # the statements allowed once, read before `repeated` is taken
        rule = block.one("rule", ast.Text)
        roll = block.one("roll", ast.DiceDecl)
        value_key = block.one("value", ast.ValueKeyDecl)
        combine = block.one("combine", ast.CombineDecl)
        partial = block.one("partial", ast.Text)
        drm_meaning = block.one("drm_meaning", ast.Text)
        derive = block.one("derive", ast.DeriveDecl)
        modified_clamp = block.one("modified_clamp", ast.ModifiedClampDecl)
        zero_reads = block.one("zero_reads", ast.ZeroReadsDecl)
        repeat = block.one("repeat", ast.RepeatDecl)
        favoured = block.one("roll_favours", ast.Favoured)
        shift_cap = block.one("shift_cap", ast.ShiftCapDecl)
        aid_chance = block.one("aid_chance", bool)
        return ast.ChartDecl(
            kind=kind,
            chart_id=chart_id.name if chart_id else None,
            slug=slug,
            title=title,
            rule=rule,
            roll=roll,
            value_key=value_key,
            keys=block.every("key", ast.KeyDecl),
            columns=block.every("column", ast.ColumnDecl),
            drms=block.every("drm", ast.DrmDecl),
            combine=combine,
            footnotes=block.every("footnote", ast.FootnoteDecl),
            notes=block.every("note", ast.Text),
            partial=partial,
            drm_meaning=drm_meaning,
            derive=derive,
            rows=block.every_item("rows", ast.RowDecl),
            grids=block.every("grid", ast.GridDecl),
            availability=block.every("availability", ast.AvailabilityDecl),
            repeated=block.repeated,
            span=self._span(meta),
            allows=block.every("allow", ast.AllowDecl),
            drm_groups=block.every("drm_group", ast.DrmGroupDecl),
            modified_clamp=modified_clamp,
            zero_reads=zero_reads,
            repeat=repeat,
            roll_alternatives=block.every("roll_when", ast.DiceAlternativeDecl),
            high_rolls_favour=favoured,
            roll_grids=block.every("roll_grid", ast.RollGridDecl),
            shifts=_shifts_in_order(block),
            shift_groups=block.every("shift_group", ast.ShiftGroupDecl),
            shift_cap=shift_cap,
            drms_from=block.every("drm_from", ast.DrmFromDecl),
            aid_chance=aid_chance,
        )

    def external(
        self, meta: Meta, chart_id: _ChartId, slug: ast.Name | None, title: ast.Text, note: ast.Text | None
    ) -> ast.ChartDecl:
        return ast.ChartDecl(
            kind=ast.ChartKind.EXTERNAL,
            chart_id=chart_id.name,
            slug=slug,
            title=title,
            rule=None,
            roll=None,
            value_key=None,
            keys=(),
            columns=(),
            drms=(),
            combine=None,
            footnotes=(),
            notes=(note,) if note else (),
            partial=None,
            drm_meaning=None,
            derive=None,
            rows=(),
            grids=(),
            availability=(),
            repeated=(),
            span=self._span(meta),
        )

    def rule(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("rule", text, self._span(meta))

    def note(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("note", text, self._span(meta))

    def partial(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("partial", text, self._span(meta))

    def drm_meaning(self, meta: Meta, text: ast.Text) -> _Stmt:
        return _Stmt("drm_meaning", text, self._span(meta))

    def favour_attacker(self, meta: Meta) -> _Stmt:
        return _Stmt("roll_favours", ast.Favoured(ast.Side.ATTACKER, self._span(meta)), self._span(meta))

    def favour_defender(self, meta: Meta) -> _Stmt:
        return _Stmt("roll_favours", ast.Favoured(ast.Side.DEFENDER, self._span(meta)), self._span(meta))

    def footnote(self, meta: Meta, mark: Token, text: ast.Text) -> _Stmt:
        decl = ast.FootnoteDecl(int(mark), text, self._span(meta))
        return _Stmt("footnote", decl, decl.span)

    def allow(self, meta: Meta, code: ast.Name, reason: ast.Text) -> _Stmt:
        decl = ast.AllowDecl(code, reason, self._span(meta))
        return _Stmt("allow", decl, decl.span)

    def derive(self, meta: Meta, base: _ChartId | ast.Name, bands: Token | None) -> _Stmt:
        decl = ast.DeriveDecl(_chart_name(base), int(bands) if bands is not None else 0, self._span(meta))
        return _Stmt("derive", decl, decl.span)

    # ---- dice, keys, columns, DRMs

    def roll(self, meta: Meta, dice: ast.DiceDecl, when: ast.Cond | None) -> _Stmt:
        if when is None:
            return _Stmt("roll", dice, self._span(meta))
        decl = ast.DiceAlternativeDecl(dice, when, self._span(meta))
        return _Stmt("roll_when", decl, decl.span)

    def dice_sum(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.SUM, count, sides, 0, 0, f"{count}d{sides}", self._span(meta))

    def dice_d66(self, meta: Meta) -> ast.DiceDecl:
        return ast.DiceDecl(ast.DiceForm.D66, 2, 6, 0, 0, "d66", self._span(meta))

    def dice_percentile(self, meta: Meta) -> ast.DiceDecl:
        return ast.DiceDecl(ast.DiceForm.PERCENTILE, 2, 10, 0, 0, "percentile", self._span(meta))

    def dice_lower(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.LOWER, count, sides, 0, 0, f"lower of {dice}", self._span(meta))

    def dice_minus(self, meta: Meta, dice: Token, subtract: Token, floor: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        sub, low = int(subtract), int(floor)
        return ast.DiceDecl(
            ast.DiceForm.MINUS, count, sides, sub, low, f"{dice} minus {sub} min {low}", self._span(meta)
        )

    def dice_higher(self, meta: Meta, dice: Token) -> ast.DiceDecl:
        count, sides = _split_dice(dice)
        return ast.DiceDecl(ast.DiceForm.HIGHER, count, sides, 0, 0, f"higher of {dice}", self._span(meta))

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
        return ast.DiceDecl(form, count, sides, 0, 0, text, self._span(meta), keep=keep)

    def dice_versus(self, meta: Meta, ours: Token, theirs: Token) -> ast.DiceDecl:
        count, sides = _split_dice(ours)
        versus_count, versus_sides = _split_dice(theirs)
        return ast.DiceDecl(
            ast.DiceForm.VERSUS,
            count,
            sides,
            0,
            0,
            f"{ours} versus {theirs}",
            self._span(meta),
            versus_count=versus_count,
            versus_sides=versus_sides,
        )

    def zero_reads(self, meta: Meta, value: Token) -> _Stmt:
        decl = ast.ZeroReadsDecl(int(value), self._span(meta))
        return _Stmt("zero_reads", decl, decl.span)

    def repeat(self, meta: Meta, times: Token) -> _Stmt:
        decl = ast.RepeatDecl(int(times), self._span(meta))
        return _Stmt("repeat", decl, decl.span)

    def value_key(self, meta: Meta, name: ast.Name, label: ast.Text | None, domain: Token) -> _Stmt:
        decl = ast.ValueKeyDecl(name, label, self._range(domain), self._span(meta))
        return _Stmt("value", decl, decl.span)

    def key(self, meta: Meta, name: ast.Name, type_name: ast.Name | None) -> _Stmt:
        decl = ast.KeyDecl(name, type_name or name, self._span(meta))
        return _Stmt("key", decl, decl.span)

    def column(self, meta: Meta, name: ast.Name, type_name: ast.Name, label: ast.Text | None) -> _Stmt:
        decl = ast.ColumnDecl(name, type_name, label, self._span(meta))
        return _Stmt("column", decl, decl.span)

    def drm(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        per: ast.DrmPerDecl | None,
        when: ast.Cond | None,
        footnote: Token | None,
    ) -> _Stmt:
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
        return _Stmt("drm", decl, decl.span)

    def drm_per(self, meta: Meta, step: Token | None, var: ast.Name, rounding: ast.Rounding | None) -> ast.DrmPerDecl:
        """`per [N] VAR [round down|up|nearest]`: N defaults to 1, rounding to down."""
        count = int(step) if step is not None else 1
        return ast.DrmPerDecl(count, var, rounding or ast.Rounding.DOWN, self._span(meta))

    def drm_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *drms: _Stmt
    ) -> _Stmt:
        decl = ast.DrmGroupDecl(name, label, mode, tuple(_typed(d.node, ast.DrmDecl) for d in drms), self._span(meta))
        return _Stmt("drm_group", decl, decl.span)

    def group_best(self, meta: Meta) -> ast.GroupMode:
        return ast.GroupMode.BEST

    def group_worst(self, meta: Meta) -> ast.GroupMode:
        return ast.GroupMode.WORST

    def group_one(self, meta: Meta) -> ast.GroupMode:
        return ast.GroupMode.ONE

    def modified_clamp(self, meta: Meta, low: Token, high: Token) -> _Stmt:
        decl = ast.ModifiedClampDecl(int(low), int(high), self._span(meta))
        return _Stmt("modified_clamp", decl, decl.span)

    def combine(self, meta: Meta, clamp_min: Token | None, clamp_max: Token | None) -> _Stmt:
        low = int(clamp_min) if clamp_min is not None else None
        high = int(clamp_max) if clamp_max is not None else None
        decl = ast.CombineDecl(low, high, self._span(meta))
        return _Stmt("combine", decl, decl.span)

    # ---- CRT column shifts

    def shift_value(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        value: Token,
        when: ast.Cond | None,
    ) -> _Stmt:
        decl = ast.ShiftDecl(name, label, int(value), when, None, None, self._span(meta))
        return _Stmt("shift", decl, decl.span)

    def shift_from(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        chart: _ChartId | ast.Name,
        column: ast.Name,
        by: ast.Name,
    ) -> _Stmt:
        span = self._span(meta)
        chart_name = chart.name if isinstance(chart, _ChartId) else chart
        source = ast.ShiftSourceDecl(chart_name, column, by, span)
        decl = ast.ShiftDecl(name, label, None, None, source, None, span)
        return _Stmt("shift", decl, span)

    def drm_from(
        self,
        meta: Meta,
        name: ast.Name,
        label: ast.Text | None,
        chart: _ChartId | ast.Name,
        column: ast.Name,
        by: ast.Name,
    ) -> _Stmt:
        span = self._span(meta)
        chart_name = chart.name if isinstance(chart, _ChartId) else chart
        decl = ast.DrmFromDecl(name, label, ast.ShiftSourceDecl(chart_name, column, by, span), span)
        return _Stmt("drm_from", decl, span)

    def shift_group(
        self, meta: Meta, name: ast.Name, label: ast.Text | None, mode: ast.GroupMode, *shifts: _Stmt
    ) -> _Stmt:
        members = tuple(dataclasses.replace(_typed(s.node, ast.ShiftDecl), group=name) for s in shifts)
        decl = ast.ShiftGroupDecl(name, label, mode, members, self._span(meta))
        return _Stmt("shift_group", decl, decl.span)

    def shift_cap(self, meta: Meta, low: Token, high: Token) -> _Stmt:
        decl = ast.ShiftCapDecl(int(low), int(high), self._span(meta))
        return _Stmt("shift_cap", decl, decl.span)

    # ---- conditions

    def or_cond(self, meta: Meta, *parts: ast.Cond) -> ast.CondAny:
        return ast.CondAny(parts, self._span(meta))

    def and_cond(self, meta: Meta, *parts: ast.Cond) -> ast.CondAll:
        return ast.CondAll(parts, self._span(meta))

    def cond_not(self, meta: Meta, inner: ast.Cond) -> ast.CondNot:
        return ast.CondNot(inner, self._span(meta))

    def cond_flag(self, meta: Meta, var: ast.Name) -> ast.CondFlag:
        return ast.CondFlag(var, self._span(meta))

    def cond_compare(self, meta: Meta, var: ast.Name, op: Token, operand: ast.Operand) -> ast.CondCompare:
        return ast.CondCompare(var, ast.CompareOp(str(op)), operand, self._span(meta))

    def cond_in(self, meta: Meta, var: ast.Name, *operands: ast.Operand) -> ast.CondIn:
        return ast.CondIn(var, operands, self._span(meta))

    def operand(self, meta: Meta, written: ast.Name | ast.Text | Token) -> ast.Operand:
        match written:
            case ast.Name(text, span):
                return ast.Operand(ast.OperandKind.NAME, text, span)
            case ast.Text(text, span):
                return ast.Operand(ast.OperandKind.TEXT, text, span)
            case Token(type="MONTH"):
                return ast.Operand(ast.OperandKind.MONTH, str(written), self._token_span(written))
            case _:  # INT or DRM_VALUE
                return ast.Operand(ast.OperandKind.INT, str(written), self._token_span(written))

    # ---- rows, key values and cells

    def rows(self, meta: Meta, *rows: ast.RowDecl) -> _Stmt:
        return _Stmt("rows", rows, self._span(meta))

    def row(self, meta: Meta, *parts: ast.KeyValueText | Token | ast.ValueText | _NaturalMark | None) -> ast.RowDecl:
        """`key_value* [RANGE] [natural] ":" value ("," value)*`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        natural = any(isinstance(p, _NaturalMark) for p in parts)
        return ast.RowDecl(keys, printed, values, self._span(meta), natural)

    amend_row = row  # an errata's `add` row: the same row, a rule of its own in the grammar

    def natural_mark(self, meta: Meta) -> _NaturalMark:
        return _NaturalMark()

    def key_value(self, meta: Meta, written: ast.Name | ast.Text | Token | ast.KeyValueText) -> ast.KeyValueText:
        match written:
            case ast.KeyValueText():
                return written
            case ast.Name(text, span):
                return ast.KeyValueText(ast.KeyValueKind.NAME, text, span)
            case ast.Text(text, span):
                return ast.KeyValueText(ast.KeyValueKind.TEXT, text, span)
            case _:  # STAR
                return ast.KeyValueText(ast.KeyValueKind.ANY, "*", self._token_span(written))

    def month_one(self, meta: Meta, month: Token) -> ast.KeyValueText:
        return ast.KeyValueText(ast.KeyValueKind.MONTHS, str(month), self._span(meta), str(month), str(month))

    def month_between(self, meta: Meta, first: Token, last: Token) -> ast.KeyValueText:
        return ast.KeyValueText(ast.KeyValueKind.MONTHS, f"{first}..{last}", self._span(meta), str(first), str(last))

    def month_from(self, meta: Meta, first: Token) -> ast.KeyValueText:
        return ast.KeyValueText(ast.KeyValueKind.MONTHS, f"{first}+", self._span(meta), str(first), None)

    def value(self, meta: Meta, written: ast.Text | ast.Name | _ChartId | ast.ChainText | Token) -> ast.ValueText:
        match written:
            case ast.Text(text, span):
                return ast.ValueText(ast.ValueKind.TEXT, text, span)
            case ast.Name(text, span):
                return ast.ValueText(ast.ValueKind.NAME, text, span)
            case _ChartId(name, span):
                return ast.ValueText(ast.ValueKind.CHART, name.text, span)
            case ast.ChainText():
                return ast.ValueText(ast.ValueKind.CHAIN, chain_text(written), written.span, written)
            case _:
                return ast.ValueText(_TOKEN_VALUE_KINDS[written.type], str(written), self._token_span(written))

    amend_value = value  # an errata's cell value: a rule of its own in the grammar
    fact_value = value  # a value an invariant compares or selects: a rule of its own in the grammar

    # -- chained results

    def chain_chart(self, meta: Meta, target: _ChartId, args: _ChainArgs | None) -> ast.ChainText:
        keys, drm = args if args is not None else ((), None)
        return ast.ChainText(ast.ChainKind.CHART, self._span(meta), target.name, keys, drm)

    def chain_again(self, meta: Meta, args: _ChainArgs | None) -> ast.ChainText:
        keys, drm = args if args is not None else ((), None)
        return ast.ChainText(ast.ChainKind.AGAIN, self._span(meta), None, keys, drm)

    def chain_roll(self, meta: Meta, dice: Token, *outcomes: ast.SubOutcomeText) -> ast.ChainText:
        chain = ast.ChainText(ast.ChainKind.ROLL, self._span(meta), dice=str(dice), outcomes=outcomes)
        if _roll_depth(chain) > MAX_ROLL_NESTING:
            raise BuildError(
                f"this roll in a cell is nested more than {MAX_ROLL_NESTING} levels deep",
                chain.span,
                "put the inner rolls in a chart of their own and chain to it (`-> [ID]`)",
            )
        return chain

    def chain_args(self, meta: Meta, *args: ast.ChainKeyText | int) -> _ChainArgs:
        keys = tuple(a for a in args if isinstance(a, ast.ChainKeyText))
        drms = [a for a in args if isinstance(a, int)]
        return keys, (sum(drms) if drms else None)

    def chain_key(self, meta: Meta, key: ast.Name, value: ast.Name | ast.Text) -> ast.ChainKeyText:
        return ast.ChainKeyText(key, value.text, self._span(meta))

    def chain_drm(self, meta: Meta, value: Token) -> int:
        return int(str(value))

    def sub_outcome(self, meta: Meta, written: Token, value: ast.ValueText) -> ast.SubOutcomeText:
        return ast.SubOutcomeText(self._range(written), value, self._span(meta))

    def grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.GridRowDecl) -> _Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.GridRowDecl))
        decl = ast.GridDecl(key, columns, rows, self._span(meta))
        return _Stmt("grid", decl, decl.span)

    def grid_row(self, meta: Meta, *parts: ast.ValueText | ast.CellText) -> ast.GridRowDecl:
        values = tuple(p for p in parts if isinstance(p, ast.ValueText))
        cells = tuple(p for p in parts if isinstance(p, ast.CellText))
        return ast.GridRowDecl(values, cells, self._span(meta))

    def roll_grid(self, meta: Meta, key: ast.Name, *parts: ast.KeyValueText | ast.RollLineDecl) -> _Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        lines = tuple(p for p in parts if isinstance(p, ast.RollLineDecl))
        decl = ast.RollGridDecl(key, columns, lines, self._span(meta))
        return _Stmt("roll_grid", decl, decl.span)

    def roll_line(self, meta: Meta, written: Token, *values: ast.ValueText) -> ast.RollLineDecl:
        return ast.RollLineDecl(self._range(written), values, self._span(meta))

    def cell(self, meta: Meta, written: Token) -> ast.CellText:
        return ast.CellText(self._range(written) if written.type == "RANGE" else None, self._span(meta))

    def availability(
        self, meta: Meta, row_key: ast.Name, col_key: ast.Name, *parts: ast.KeyValueText | ast.AvailRowDecl
    ) -> _Stmt:
        columns = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        rows = tuple(p for p in parts if isinstance(p, ast.AvailRowDecl))
        decl = ast.AvailabilityDecl(row_key, col_key, columns, rows, self._span(meta))
        return _Stmt("availability", decl, decl.span)

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

    # ---- odds ratios for CRT columns

    def odds(
        self, meta: Meta, chart_id: _ChartId | None, name: ast.Name, title: ast.Text, *stmts: _Stmt
    ) -> ast.OddsDecl:
        block = _Block(stmts)
        rule = block.one("rule", ast.Text)
        columns = block.one_group("columns", ast.Text)
        attacker_round = block.one("attacker_high", ast.Rounding)
        defender_round = block.one("defender_high", ast.Rounding)
        beyond = block.one("beyond", ast.Beyond)
        shift_order = block.one("shift", ast.ShiftOrder)
        form = block.one("form", ast.OddsForm)
        between = block.one("between", ast.Between)
        return ast.OddsDecl(
            chart_id=chart_id.name if chart_id else None,
            name=name,
            title=title,
            rule=rule,
            notes=block.every("note", ast.Text),
            columns=columns or (),
            attacker_round=attacker_round,
            defender_round=defender_round,
            beyond=beyond,
            shift_order=shift_order,
            repeated=block.repeated,
            span=self._span(meta),
            form=form,
            form_span=block.span_of("form"),
            between=between,
            between_span=block.span_of("between"),
            domain=block.one("domain", ast.OddsDomain),
            round_spans=tuple(s for s in (block.span_of("attacker_high"), block.span_of("defender_high")) if s),
            partial=block.one("partial", ast.Text),
        )

    def odds_columns(self, meta: Meta, *columns: ast.Text) -> _Stmt:
        return _Stmt("columns", columns, self._span(meta))

    def round_attacker_high(self, meta: Meta, rounding: ast.Rounding) -> _Stmt:
        return _Stmt("attacker_high", rounding, self._span(meta))

    def round_defender_high(self, meta: Meta, rounding: ast.Rounding) -> _Stmt:
        return _Stmt("defender_high", rounding, self._span(meta))

    def round_down(self, meta: Meta) -> ast.Rounding:
        return ast.Rounding.DOWN

    def round_up(self, meta: Meta) -> ast.Rounding:
        return ast.Rounding.UP

    def round_nearest(self, meta: Meta) -> ast.Rounding:
        return ast.Rounding.NEAREST

    def beyond_clamp(self, meta: Meta) -> _Stmt:
        return _Stmt("beyond", ast.Beyond.CLAMP, self._span(meta))

    def beyond_error(self, meta: Meta) -> _Stmt:
        return _Stmt("beyond", ast.Beyond.ERROR, self._span(meta))

    def shift_before_clamp(self, meta: Meta) -> _Stmt:
        return _Stmt("shift", ast.ShiftOrder.BEFORE, self._span(meta))

    def shift_after_clamp(self, meta: Meta) -> _Stmt:
        return _Stmt("shift", ast.ShiftOrder.AFTER, self._span(meta))

    def form_ratio(self, meta: Meta) -> _Stmt:
        return _Stmt("form", ast.OddsForm.RATIO, self._span(meta))

    def form_differential(self, meta: Meta) -> _Stmt:
        return _Stmt("form", ast.OddsForm.DIFFERENTIAL, self._span(meta))

    def form_strength(self, meta: Meta) -> _Stmt:
        return _Stmt("form", ast.OddsForm.STRENGTH, self._span(meta))

    def between_lower(self, meta: Meta) -> _Stmt:
        return _Stmt("between", ast.Between.LOWER, self._span(meta))

    def between_higher(self, meta: Meta) -> _Stmt:
        return _Stmt("between", ast.Between.HIGHER, self._span(meta))

    def domain_closed(self, meta: Meta, low: Token, high: Token) -> _Stmt:
        span = self._span(meta)
        return _Stmt("domain", ast.OddsDomain(int(low), int(high), span), span)

    def domain_open(self, meta: Meta, low: Token, _plus: Token) -> _Stmt:
        span = self._span(meta)
        return _Stmt("domain", ast.OddsDomain(int(low), None, span), span)

    # ---- invariants

    def inv_count(
        self,
        meta: Meta,
        name: ast.Name,
        text: ast.Text,
        enum: ast.Name,
        field: ast.Name,
        value: ast.ValueText,
        count: Token,
    ) -> ast.CountInvariant:
        where = ast.FieldEquals(field, value, _cover(field.span, value.span))
        return ast.CountInvariant(name, text, enum, where, int(count), self._span(meta))

    def inv_count_all(
        self, meta: Meta, name: ast.Name, text: ast.Text, enum: ast.Name, count: Token
    ) -> ast.CountInvariant:
        return ast.CountInvariant(name, text, enum, None, int(count), self._span(meta))

    def inv_column_sum(
        self,
        meta: Meta,
        name: ast.Name,
        text: ast.Text,
        chart: _ChartId | ast.Name,
        part: Token,
        enum: ast.Name,
        field: ast.Name,
    ) -> ast.ColumnSumInvariant:
        return ast.ColumnSumInvariant(name, text, _chart_name(chart), int(part), enum, field, self._span(meta))

    # ---- worked examples

    def example(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: _Stmt) -> ast.ExampleDecl:
        block = _Block(stmts)
        chart = block.one("chart", ast.Name)
        formula = block.one("formula", ast.Name)
        rolls = block.one_group("roll", ast.Name) or ()
        attack = block.one("attack", int)
        defense = block.one("defense", int)
        shift = block.one("shift", int)
        follow = block.one("follow", bool)
        return ast.ExampleDecl(
            name,
            title,
            block.one("rule", ast.Text),
            block.every("note", ast.Text),
            chart,
            formula,
            block.every("key", ast.ExampleInput),
            rolls,
            block.every_item("when", ast.Name),
            block.every("set", ast.ExampleInput),
            sum(block.every("drm", int)),
            attack,
            defense,
            shift,
            bool(follow),
            block.every("expect", ast.ExpectDecl),
            block.one("contradicts", ast.Text),
            self._span(meta),
            block.repeated,
            bool(block.one("aid", bool)),
        )

    def example_chart(self, meta: Meta, chart: _ChartId | ast.Name) -> _Stmt:
        return _Stmt("chart", _chart_name(chart), self._span(meta))

    def example_formula(self, meta: Meta, name: ast.Name) -> _Stmt:
        return _Stmt("formula", name, self._span(meta))

    def expect_number(self, meta: Meta, value: Token) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.NUMBER, str(value))

    # ---- computed values

    def formula(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: _Stmt) -> ast.FormulaDecl:
        block = _Block(stmts)
        result = block.one("result", object)
        return ast.FormulaDecl(
            name,
            title,
            block.one("rule", ast.Text),
            block.every("note", ast.Text),
            result if isinstance(result, _EXPR_TYPES) else None,
            self._span(meta),
            block.repeated,
        )

    def formula_result(self, meta: Meta, expr: ast.Expr) -> _Stmt:
        return _Stmt("result", expr, self._span(meta))

    def _binary(self, meta: Meta, op: ast.ExprOp, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.ExprBinary(op, left, right, self._span(meta))

    def expr_add(self, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return self._binary(meta, ast.ExprOp.ADD, left, right)

    def expr_sub(self, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return self._binary(meta, ast.ExprOp.SUB, left, right)

    def expr_mul(self, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return self._binary(meta, ast.ExprOp.MUL, left, right)

    def expr_div(self, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return self._binary(meta, ast.ExprOp.DIV, left, right)

    def expr_pow(self, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return self._binary(meta, ast.ExprOp.POW, left, right)

    def expr_neg(self, meta: Meta, inner: ast.Expr) -> ast.Expr:
        return ast.ExprNeg(inner, self._span(meta))

    def expr_number(self, meta: Meta, value: Token) -> ast.Expr:
        return ast.ExprNumber(int(value), self._token_span(value))

    def expr_name(self, meta: Meta, name: ast.Name) -> ast.Expr:
        return ast.ExprName(name, name.span)

    def expr_call(self, meta: Meta, function: ast.Name, *args: ast.Expr) -> ast.Expr:
        return ast.ExprCall(function, args, self._span(meta))

    def expr_if(self, meta: Meta, cond: ast.Cond, then: ast.Expr, otherwise: ast.Expr) -> ast.Expr:
        return ast.ExprIf(cond, then, otherwise, self._span(meta))

    def example_key(self, meta: Meta, name: ast.Name, value: ast.Name | ast.Text | Token) -> _Stmt:
        return _Stmt("key", ast.ExampleInput(name, _word(value), self._span(meta)), self._span(meta))

    def example_roll(self, meta: Meta, *rolls: Token) -> _Stmt:
        return _Stmt("roll", tuple(ast.Name(str(r), self._token_span(r)) for r in rolls), self._span(meta))

    def example_when(self, meta: Meta, *flags: ast.Name) -> _Stmt:
        return _Stmt("when", flags, self._span(meta))

    def example_set(self, meta: Meta, name: ast.Name, value: ast.Name | ast.Text | Token) -> _Stmt:
        return _Stmt("set", ast.ExampleInput(name, _word(value), self._span(meta)), self._span(meta))

    def expect_value(
        self, meta: Meta, written: ast.Text | ast.Name | _ChartId | ast.ChainText | Token
    ) -> ast.ValueText:
        return self.value(meta, written)

    def expect_chart(self, meta: Meta, name: ast.Name) -> _ChartId:
        return _ChartId(name, self._span(meta))

    def example_drm(self, meta: Meta, value: Token) -> _Stmt:
        return _Stmt("drm", int(value), self._span(meta))

    def example_attack(self, meta: Meta, value: Token) -> _Stmt:
        return _Stmt("attack", int(value), self._span(meta))

    def example_defense(self, meta: Meta, value: Token) -> _Stmt:
        return _Stmt("defense", int(value), self._span(meta))

    def example_shift(self, meta: Meta, value: Token) -> _Stmt:
        return _Stmt("shift", int(value), self._span(meta))

    def example_follow(self, meta: Meta) -> _Stmt:
        return _Stmt("follow", True, self._span(meta))

    def example_aid(self, meta: Meta) -> _Stmt:
        return _Stmt("aid", True, self._span(meta))

    def example_contradicts(self, meta: Meta, why: ast.Text) -> _Stmt:
        return _Stmt("contradicts", why, self._span(meta))

    def _expect(self, meta: Meta, kind: ast.ExpectKind, text: str = "") -> _Stmt:
        return _Stmt("expect", ast.ExpectDecl(kind, self._span(meta), text=text), self._span(meta))

    def expect_cell(self, meta: Meta, column: ast.Name, value: ast.ValueText) -> _Stmt:
        decl = ast.ExpectDecl(ast.ExpectKind.CELL, self._span(meta), column, value, value.text)
        return _Stmt("expect", decl, decl.span)

    def expect_row(self, meta: Meta, printed: Token) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.ROW, str(printed))

    def expect_modified(self, meta: Meta, value: Token) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.MODIFIED, str(value))

    def expect_drm(self, meta: Meta, value: Token) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.DRM, str(value))

    def expect_odds(self, meta: Meta, label: ast.Text) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.ODDS, label.text)

    def expect_no_row(self, meta: Meta) -> _Stmt:
        return self._expect(meta, ast.ExpectKind.NO_ROW)
    def inv_same(
        self, meta: Meta, name: ast.Name, text: ast.Text, left: ast.Fact, right: ast.Fact
    ) -> ast.SameInvariant:
        return ast.SameInvariant(name, text, left, right, self._span(meta))

    def fact_cell(
        self,
        meta: Meta,
        chart: _ChartId | ast.Name,
        select: tuple[ast.FactKey | ast.FactRoll, ...] | None,
        column: ast.Name,
    ) -> ast.CellFact:
        return ast.CellFact(_chart_name(chart), select or (), column, self._span(meta))

    def fact_field(self, meta: Meta, enum: ast.Name, member: ast.Name, field: ast.Name) -> ast.FieldFact:
        return ast.FieldFact(enum, member, field, self._span(meta))

    def fact_count(
        self, meta: Meta, enum: ast.Name, field: ast.Name | None, value: ast.ValueText | None
    ) -> ast.CountFact:
        where = ast.FieldEquals(field, value, _cover(field.span, value.span)) if field and value else None
        return ast.CountFact(enum, where, self._span(meta))

    def fact_select(self, meta: Meta, *args: ast.FactKey | ast.FactRoll) -> tuple[ast.FactKey | ast.FactRoll, ...]:
        return args

    def fact_key(self, meta: Meta, key: ast.Name, value: ast.ValueText) -> ast.FactKey:
        return ast.FactKey(key, value, self._span(meta))

    def fact_roll(self, meta: Meta, value: Token) -> ast.FactRoll:
        return ast.FactRoll(int(str(value)), self._span(meta))

    # ---- errata

    def errata(self, meta: Meta, name: ast.Name, title: ast.Text, *stmts: _Stmt) -> ast.ErrataDecl:
        block = _Block(stmts)
        order = block.last("order", int)
        overrides = block.every_item("overrides", ast.Name)
        return ast.ErrataDecl(
            name,
            title,
            block.last("source", ast.Text),
            block.last("date", ast.Text),
            order,
            overrides,
            block.every("note", ast.Text),
            block.every("amend", ast.AmendDecl),
            self._span(meta),
        )

    def errata_date(self, meta: Meta, date: ast.Text) -> _Stmt:
        return _Stmt("date", date, self._span(meta))

    def errata_order(self, meta: Meta, order: Token) -> _Stmt:
        return _Stmt("order", int(order), self._span(meta))

    def errata_overrides(self, meta: Meta, *names: ast.Name) -> _Stmt:
        return _Stmt("overrides", names, self._span(meta))

    def amend(self, meta: Meta, chart: _ChartId | ast.Name, *ops: ast.AmendOp) -> _Stmt:
        decl = ast.AmendDecl(_chart_name(chart), ops, self._span(meta))
        return _Stmt("amend", decl, decl.span)

    def op_add(self, meta: Meta, row: ast.RowDecl, because: ast.Text | None) -> ast.AddRow:
        return ast.AddRow(row, because, self._span(meta))

    def op_remove(self, meta: Meta, ref: ast.RowRef, because: ast.Text | None) -> ast.RemoveRow:
        return ast.RemoveRow(ref, because, self._span(meta))

    def op_change(
        self, meta: Meta, ref: ast.RowRef, column: ast.Name, value: ast.ValueText, because: ast.Text | None
    ) -> ast.ChangeCell:
        return ast.ChangeCell(ref, column, value, because, self._span(meta))

    def op_move(self, meta: Meta, ref: ast.RowRef, new_range: Token, because: ast.Text | None) -> ast.MoveRow:
        return ast.MoveRow(ref, self._range(new_range), because, self._span(meta))

    def op_retitle(self, meta: Meta, title: ast.Text, because: ast.Text | None) -> ast.Retitle:
        return ast.Retitle(title, because, self._span(meta))

    def op_complete(self, meta: Meta, because: ast.Text | None) -> ast.Complete:
        return ast.Complete(because, self._span(meta))

    def op_note(self, meta: Meta, text: ast.Text) -> ast.AddNote:
        return ast.AddNote(text, self._span(meta))

    def row_ref(self, meta: Meta, *parts: ast.KeyValueText | Token | None) -> ast.RowRef:
        """`key_value* [RANGE]`."""
        keys = tuple(p for p in parts if isinstance(p, ast.KeyValueText))
        printed = next((self._range(p) for p in parts if isinstance(p, Token)), None)
        return ast.RowRef(keys, printed)

    ref_key = key_value  # a key of an errata's row reference: a rule of its own in the grammar

    def because(self, meta: Meta, reason: ast.Text) -> ast.Text:
        return reason


_EXPR_TYPES = (ast.ExprNumber, ast.ExprName, ast.ExprBinary, ast.ExprNeg, ast.ExprCall, ast.ExprIf)


def _word(written: ast.Name | ast.Text | Token) -> str:
    """An example's key or context value as written (a quoted label without its quotes)."""
    return written.text if isinstance(written, ast.Name | ast.Text) else str(written)


def _chart_name(written: _ChartId | ast.Name) -> ast.Name:
    """The chart a statement names, by `[ID]` or by slug."""
    return written.name if isinstance(written, _ChartId) else written


def _cover(first: ast.Span, last: ast.Span) -> ast.Span:
    """The span from the start of `first` to the end of `last`."""
    return ast.Span(first.file, first.line, first.col, last.end_line, last.end_col)


# a chain's arguments: the keys given, and the DRM carried (None when not written)
_ChainArgs = tuple[tuple[ast.ChainKeyText, ...], int | None]


def chain_text(chain: ast.ChainText) -> str:
    """A chained cell in one canonical line: `-> [B6] (interceptor=jet, +1)`, `-> again`,
    `-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`."""
    args = [f"{k.key.text}={_chain_key_value(k.value)}" for k in chain.keys]
    args += [f"{chain.drm:+d}"] if chain.drm is not None else []
    carried = f" ({', '.join(args)})" if args else ""
    match chain.kind:
        case ast.ChainKind.CHART:
            return f"-> [{chain.target.text if chain.target else ''}]{carried}"
        case ast.ChainKind.AGAIN:
            return f"-> again{carried}"
        case ast.ChainKind.ROLL:
            inner = "; ".join(f"{o.range.text}: {_written(o.value)}" for o in chain.outcomes)
            return f"-> {chain.dice} {{ {inner} }}"
        case _:
            assert_never(chain.kind)


def _written(value: ast.ValueText) -> str:
    """A cell as written back into a chain's text: text quoted, everything else as it reads."""
    return _chain_key_value(value.text, quote=True) if value.kind is ast.ValueKind.TEXT else value.text


def _chain_key_value(value: str, quote: bool = False) -> str:
    """A chain key's value as written back: a name bare, anything else quoted (`quote`: always)."""
    if not quote and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _split_dice(dice: str) -> tuple[int, int]:
    """`2d6` as (2, 6); `d6` is one die."""
    count_text, _, sides_text = dice.partition("d")
    return int(count_text) if count_text else 1, int(sides_text)


def unquote(literal: str, span: ast.Span) -> str:
    """Decode a double-quoted literal using Python's escapes (`\\"`, `\\\\`, `\\n`, `\\u00e9`).

    Raises:
        BuildError: an invalid escape, or a `\\u` escape that is half of a UTF-16 pair.
    """
    if _NEEDS_DECODING.search(literal) is None:  # most strings: the text between the quotes
        return literal[1:-1]
    try:
        value = _pyast.literal_eval(literal)
    except (ValueError, SyntaxError) as exc:
        raise BuildError(
            f"invalid escape in string {clip(literal)}",
            span,
            'use `\\\\` for a backslash and `\\"` for a quote',
        ) from exc
    if not isinstance(value, str):  # pragma: no cover - the STRING terminal guarantees a str
        raise BuildError("expected a string", span)
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        raise BuildError(
            f"`\\u{ord(surrogate.group()):04x}` in string {clip(literal)} is half of a UTF-16 pair, not a character",
            span,
            "write the character itself, or its code point as `\\U0001f600`",
        )
    return value
