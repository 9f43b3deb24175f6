"""`chartc fmt`: one canonical layout for chart files.

The formatter works over the parser's own tokens and the tree's statement boundaries, not over a
list of the grammar's rules, so a construct added to the grammar later is still laid out safely:
its tokens are joined with normalised spacing on one line. What it knows about:

* blocks (`{` ... `}`): one statement per line, two spaces of indentation per level; a block
  written on one line (a record member's `{ zone: dutch  listed: "4.6.2" }`) stays on one line;
* table rows (`rows`, `grid` and `availability` rows): the pieces of consecutive rows are aligned
  in columns (a blank line starts a new group);
* spacing: one space between tokens, none before `,` `:` `]` `)` or after `[` `(`, none around
  `..` and the `.` of a field, `|` between cells with a space on each side;
* comments stay where they were: a comment on its own line before the next statement, at that
  statement's indentation; a comment after code at the end of that line;
* blank lines: at most one between statements, none after `{` or before `}`;
* `# fmt: off` ... `# fmt: on` (on their own lines, inside one block): the lines between are kept
  byte for byte.

Safety, like black's: the formatted text must lex to the same tokens, keep every comment in
order, build the same syntax tree (spans aside) and format to itself; otherwise `format_text`
raises `UnsafeFormat` and the caller writes nothing. A statement with a comment inside it is
kept as written.

This module is the safe entry point; the file is read by `compiler.tools.fmt_tree` and laid out
by `compiler.tools.fmt_layout`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from compiler.tools.fmt_layout import UnsafeFormat, lay_out
from compiler.tools.fmt_tree import FormatSyntaxError, parse_with_tokens, tokens_of
from dsl.parser import parse_text
from dsl.shared import Span

if TYPE_CHECKING:
    from lark import Token, Tree

__all__ = ["FormatSyntaxError", "UnsafeFormat", "format_text"]


def _as_read(text: str) -> str:
    """The text as chartc reads a file (`compiler.build.reader`): no BOM, CRLF and lone CR as LF."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def layout(text: str) -> str:
    """The canonical layout of a file's text, without the safety checks (see `format_text`).

    Raises:
        FormatSyntaxError: the text does not parse.
        UnsafeFormat: a statement with a comment inside shares a line with another statement.
    """
    text = _as_read(text)
    parsed = parse_with_tokens(text)
    return lay_out(parsed)


def format_text(text: str, path: str = "<text>") -> str:
    """Format a chart file's text, or raise when it cannot be done safely.

    Args:
        text: the file's contents.
        path: the file's name, for the syntax tree's spans only.

    Returns:
        The canonical text (equal to `text` when it was already formatted).

    Raises:
        FormatSyntaxError: the text does not parse.
        UnsafeFormat: the result would not lex to the same tokens, keep the same comments, build
            the same syntax tree or format to itself. Nothing should be written.
    """
    formatted = layout(text)
    _check_same_meaning(_as_read(text), formatted, path)
    if layout(formatted) != formatted:
        raise UnsafeFormat("formatting the result again changes it")
    return formatted


def _check_same_meaning(before: str, after: str, path: str) -> None:
    first = parse_with_tokens(before)
    try:
        second = parse_with_tokens(after)
    except FormatSyntaxError as exc:
        raise UnsafeFormat(f"the formatted text does not parse (line {exc.line})") from exc
    if _token_values(first.tree) != _token_values(second.tree):
        raise UnsafeFormat("the formatted text reads as different tokens")
    if [c.text for c in first.comments] != [c.text for c in second.comments]:
        raise UnsafeFormat("the formatted text lost or reordered a comment")
    if syntax_tree_without_spans(before, path) != syntax_tree_without_spans(after, path):
        raise UnsafeFormat("the formatted text builds a different syntax tree")


def _token_values(tree: Tree[Token]) -> list[tuple[str, str]]:
    return [(str(token.type), str(token)) for token, _ in tokens_of(tree)]


def syntax_tree_without_spans(text: str, path: str) -> object:
    """The syntax tree of `text` as nested tuples with every span left out (None if it does not
    parse): two texts that differ only in layout give equal values."""
    result = parse_text(text, path)
    return None if result.source is None else _without_spans(result.source)


def _without_spans(value: object) -> object:
    if isinstance(value, Span):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(_without_spans(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, list | tuple):
        return tuple(_without_spans(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _without_spans(item)) for key, item in value.items())
    return value
