"""The builder's rules of what statements write: key values (names, labels, `*`, months), cell
values, chained cells (`-> [B6] (interceptor=jet, +1)`, `-> again`, `-> 1d6 { ... }`), DRM
conditions and formula expressions."""

from __future__ import annotations

from typing import assert_never

from lark import Token

from dsl import ast
from dsl.builder.base import (
    BuildError,
    ChartId,
    Meta,
    Rule,
    Terminals,
    joining,
    node,
)
from dsl.source_text import name_or_quote, quote

# Deepest nesting of rolls in cells (`-> 1d6 { 1-3: -> 1d6 { ... } }`): deeper ones would pass what
# the generated module's Python source may nest (its parser stops at 200 parentheses).
MAX_ROLL_NESTING = 50

_TOKEN_VALUE_KINDS = {
    "INT": ast.ValueKind.INT,
    "DRM_VALUE": ast.ValueKind.INT,
    "DASH": ast.ValueKind.NONE,
    "SLASHED": ast.ValueKind.SLASHED,
    "MONTH": ast.ValueKind.MONTH,
}

# a chain's arguments: the keys given, and the DRM carried (None when not written)
_ChainArgs = tuple[tuple[ast.ChainKeyText, ...], int | None]


class ValueRules(Terminals):
    """Key values, cell values and chained cells."""

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

    def turn_one(self, meta: Meta, day: Token, half: ast.Name) -> ast.KeyValueText:
        turn = f"{day} {half.text}"
        return ast.KeyValueText(ast.KeyValueKind.TURNS, turn, self._span(meta), turn, turn)

    def turn_between(
        self, meta: Meta, first: Token, first_half: ast.Name, last: Token, last_half: ast.Name
    ) -> ast.KeyValueText:
        a, b = f"{first} {first_half.text}", f"{last} {last_half.text}"
        return ast.KeyValueText(ast.KeyValueKind.TURNS, f"{a}..{b}", self._span(meta), a, b)

    def turn_from(self, meta: Meta, first: Token, half: ast.Name) -> ast.KeyValueText:
        turn = f"{first} {half.text}"
        return ast.KeyValueText(ast.KeyValueKind.TURNS, f"{turn}+", self._span(meta), turn, None)

    def value(
        self, meta: Meta, written: ast.Text | ast.Name | ChartId | ast.ChainText | ast.ValueText | Token
    ) -> ast.ValueText:
        match written:
            case ast.ValueText():  # `one of [...]`, or a value named `one`
                return written
            case ast.Text(text, span):
                return ast.ValueText(ast.ValueKind.TEXT, text, span)
            case ast.Name(text, span):
                return ast.ValueText(ast.ValueKind.NAME, text, span)
            case ChartId(name, span):
                return ast.ValueText(ast.ValueKind.CHART, name.text, span)
            case ast.ChainText():
                return ast.ValueText(ast.ValueKind.CHAIN, chain_text(written), written.span, written)
            case _:
                return ast.ValueText(_TOKEN_VALUE_KINDS[written.type], str(written), self._token_span(written))

    def value_one(self, meta: Meta) -> ast.ValueText:
        """`one` where a value is written: a name (the keyword only starts `one of [...]`)."""
        return ast.ValueText(ast.ValueKind.NAME, "one", self._span(meta))

    def choice(self, meta: Meta, *options: ast.ValueText) -> ast.ValueText:
        """`one of [a, b, c]`: a result that offers its outcomes to choose from."""
        text = f"one of [{', '.join(_written(o) for o in options)}]"
        return ast.ValueText(ast.ValueKind.CHOICE, text, self._span(meta), options=options)

    # ---- chained results

    def chain_chart(self, meta: Meta, target: ChartId, args: _ChainArgs | None) -> ast.ChainText:
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


def _roll_depth(chain: ast.ChainText) -> int:
    """How many rolls in cells nest at `chain`, itself included. The builder checks each roll as it
    is built, so the rolls inside are at most MAX_ROLL_NESTING deep: this walk is bounded."""
    inner = [o.value.chain for o in chain.outcomes if o.value.chain is not None]
    return 1 + max((_roll_depth(c) for c in inner if c.kind is ast.ChainKind.ROLL), default=0)


def chain_text(chain: ast.ChainText) -> str:
    """A chained cell in one canonical line: `-> [B6] (interceptor=jet, +1)`, `-> again`,
    `-> 1d6 { 1-4: fw190a6; 5-6: fw190a7 }`."""
    match chain.kind:
        case ast.ChainKind.CHART:
            where = f"[{chain.target.text if chain.target else ''}]"
        case ast.ChainKind.AGAIN:
            where = "again"
        case ast.ChainKind.ROLL:
            inner = "; ".join(f"{o.range.text}: {_written(o.value)}" for o in chain.outcomes)
            return f"-> {chain.dice} {{ {inner} }}"
        case _:
            assert_never(chain.kind)
    # the keys and the DRM carried over to the chart read next
    args = [f"{k.key.text}={name_or_quote(k.value)}" for k in chain.keys]
    args += [f"{chain.drm:+d}"] if chain.drm is not None else []
    return f"-> {where} ({', '.join(args)})" if args else f"-> {where}"


def _written(value: ast.ValueText) -> str:
    """A cell as written back into a chain's or a choice's text: text quoted, everything else as it reads."""
    return quote(value.text) if value.kind is ast.ValueKind.TEXT else value.text


class ConditionRules(Terminals):
    """DRM conditions: flags, comparisons, lists, `not`, `and`, `or`."""

    or_cond = joining(ast.CondAny)
    and_cond = joining(ast.CondAll)
    cond_not = node(ast.CondNot)
    cond_flag = node(ast.CondFlag)

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


def _binary(op: ast.ExprOp) -> Rule:
    """The rule of a binary operation: `left OP right`."""

    def rule(self: Terminals, meta: Meta, left: ast.Expr, right: ast.Expr) -> ast.Expr:
        return ast.ExprBinary(op, left, right, self._span(meta))

    return rule


class ExpressionRules(Terminals):
    """A formula's expression: numbers, names, operations, calls, `if`."""

    expr_add = _binary(ast.ExprOp.ADD)
    expr_sub = _binary(ast.ExprOp.SUB)
    expr_mul = _binary(ast.ExprOp.MUL)
    expr_div = _binary(ast.ExprOp.DIV)
    expr_pow = _binary(ast.ExprOp.POW)
    expr_neg = node(ast.ExprNeg)

    def expr_number(self, meta: Meta, value: Token) -> ast.Expr:
        return ast.ExprNumber(int(value), self._token_span(value))

    def expr_name(self, meta: Meta, name: ast.Name) -> ast.Expr:
        return ast.ExprName(name, name.span)

    def expr_call(self, meta: Meta, function: ast.Name, *args: ast.Expr) -> ast.Expr:
        return ast.ExprCall(function, args, self._span(meta))

    expr_if = node(ast.ExprIf)
