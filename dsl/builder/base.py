"""What every family of the builder's rules uses: spans, terminals, statements sorted into blocks,
build errors, and the table forms of the rules that only wrap their children.

A rule of the grammar is a method of the builder, named like the rule; Lark's parser calls it as
it reduces the rule (`dsl.callbacks`) with the rule's extent and its children. Most rules only put
their children into a node or a statement, and are written as one line of a table: `title =
holding("title")`, `round_down = constant(Rounding.DOWN)`, `allow = declaring("allow",
ast.AllowDecl)`; the others are methods.
"""

from __future__ import annotations

import ast as _pyast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

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


class BuildError(Exception):
    """A problem found while building the tree (a bad escape, a number too long): a syntax error."""

    def __init__(self, message: str, span: ast.Span, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help


@dataclass(frozen=True)
class ChartId:
    """`[R4]`: the chart ID and the span of the whole bracketed reference."""

    name: ast.Name
    span: ast.Span


def chart_name(written: ChartId | ast.Name) -> ast.Name:
    """The chart a statement names, by `[ID]` or by slug."""
    return written.name if isinstance(written, ChartId) else written


def cover(first: ast.Span, last: ast.Span) -> ast.Span:
    """The span from the start of `first` to the end of `last`."""
    return ast.Span(first.file, first.line, first.col, last.end_line, last.end_col)


@dataclass(frozen=True)
class Stmt:
    """One statement of a block, tagged with its keyword, before the block sorts them."""

    keyword: str
    node: object
    span: ast.Span


class Block:
    """The statements of one block (`game`, `chart`, `odds`, `errata`, ...) by keyword: the first
    of a statement allowed once is kept, the others recorded as repeated (reported as C103)."""

    def __init__(self, stmts: tuple[Stmt, ...]) -> None:
        self._by_keyword: dict[str, list[Stmt]] = {}
        for stmt in stmts:
            self._by_keyword.setdefault(stmt.keyword, []).append(stmt)
        self._repeated: list[ast.Span] = []

    def one(self, keyword: str, cls: type[_T]) -> _T | None:
        """The first statement `keyword` (allowed once); every later one is recorded as repeated."""
        found = self._by_keyword.get(keyword, [])
        self._repeated.extend(extra.span for extra in found[1:])
        return typed(found[0].node, cls) if found else None

    def last(self, keyword: str, cls: type[_T]) -> _T | None:
        """The last statement `keyword`, where a later one silently replaces an earlier one."""
        found = self._by_keyword.get(keyword, [])
        return typed(found[-1].node, cls) if found else None

    def every(self, keyword: str, cls: type[_T]) -> tuple[_T, ...]:
        """Every statement `keyword`, in source order."""
        return tuple(typed(stmt.node, cls) for stmt in self._by_keyword.get(keyword, []))

    def one_group(self, keyword: str, cls: type[_T]) -> tuple[_T, ...] | None:
        """Like `one`, for a statement that lists several items (`columns [...]`, `calendar A to B`)."""
        group = self.one(keyword, tuple)
        return tuple(typed(item, cls) for item in group) if group is not None else None

    def every_item(self, keyword: str, cls: type[_T]) -> tuple[_T, ...]:
        """The items of every statement `keyword` that lists several (`rows { ... }`), in order."""
        return tuple(typed(item, cls) for group in self.every(keyword, tuple) for item in group)

    def span_of(self, keyword: str) -> ast.Span | None:
        """The span of the first statement `keyword`, None when there is none."""
        found = self._by_keyword.get(keyword, [])
        return found[0].span if found else None

    @property
    def repeated(self) -> tuple[ast.Span, ...]:
        """The spans of the statements `one` found repeated, in source order."""
        return tuple(sorted(set(self._repeated)))


def typed(node: object, cls: type[_T]) -> _T:
    if not isinstance(node, cls):  # pragma: no cover - the grammar fixes each keyword's node type
        raise TypeError(f"expected {cls.__name__}, built {type(node).__name__}")
    return node


class Terminals:
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


# ---- rules written as a line of a table

Rule = Callable[..., Any]
"""A rule as the builder's method: called with the builder, the rule's extent and its children."""

Read = Callable[[Any], Any]
"""How a child is read before it goes into a node: `int` for a number's token."""


def constant(value: object) -> Rule:
    """A rule that stands for one value: a keyword among alternatives (`round down`, `best`)."""

    def rule(self: Terminals, meta: Meta) -> object:
        return value

    return rule


def keyword(name: str, value: object) -> Rule:
    """A statement that keywords alone make (`beyond clamp`, `follow`), filed under `name` with `value`."""

    def rule(self: Terminals, meta: Meta) -> Stmt:
        return Stmt(name, value, self._span(meta))

    return rule


def holding(name: str, read: Read | None = None) -> Rule:
    """A statement filed under `name` that holds its one child (`title "..."`), or its child read
    by `read` (`order 2`: `int`)."""
    if read is None:

        def rule(self: Terminals, meta: Meta, child: object) -> Stmt:
            return Stmt(name, child, self._span(meta))

        return rule

    def rule_read(self: Terminals, meta: Meta, child: object) -> Stmt:
        return Stmt(name, read(child), self._span(meta))

    return rule_read


def listing(name: str | None = None) -> Rule:
    """A rule that lists its children (`aka "A", "B"`): their tuple, or a statement filed under
    `name` holding it (`columns ["1:2", "1:1"]`)."""
    if name is None:
        return lambda self, meta, *children: children

    def rule(self: Terminals, meta: Meta, *children: object) -> Stmt:
        return Stmt(name, children, self._span(meta))

    return rule


def node(cls: Callable[..., Any], *read: Read) -> Rule:
    """A rule whose value is the node `cls(child, ..., span)`; with `read`, each child read by the
    matching one (`footnote 1 "..."`: `int, kept`)."""
    if not read:
        return lambda self, meta, *children: cls(*children, self._span(meta))

    def rule_read(self: Terminals, meta: Meta, *children: object) -> Any:
        return cls(*(r(c) for r, c in zip(read, children, strict=True)), self._span(meta))

    return rule_read


def joining(cls: Callable[..., Any]) -> Rule:
    """A rule whose node holds all its children as one tuple: `A and B and C` -> `cls((A, B, C), span)`."""
    return lambda self, meta, *children: cls(children, self._span(meta))


def declaring(name: str, cls: Callable[..., Any], *read: Read) -> Rule:
    """A statement filed under `name` that declares the node `cls(child, ..., span)` (`allow CODE
    "reason"`); with `read`, each child read by the matching one."""
    make = node(cls, *read)

    def rule(self: Terminals, meta: Meta, *children: object) -> Stmt:
        decl = make(self, meta, *children)
        return Stmt(name, decl, decl.span)

    return rule


def kept(child: object) -> object:
    """A child as built (beside another that is read)."""
    return child


def same(self: Terminals, meta: Meta, child: object) -> object:
    """A rule whose value is its one child (`because "..."`, a period's bound)."""
    return child
