"""`chartc fmt`'s reading of a file: the chart grammar parsed with every token kept (keywords and
punctuation too) and the comments collected, and the walks over that tree the layout needs: a
node's tokens in order, its first and last token and line, the block (`{` ... `}`) it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from dsl.parser import grammar_text

if TYPE_CHECKING:
    from lark import Lark, Token, Tree


class FormatSyntaxError(Exception):
    """The file does not parse: there is nothing safe to format."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass(frozen=True)
class Comment:
    """A comment token: where it is and whether it is alone on its line."""

    line: int
    col: int
    text: str
    own_line: bool


@dataclass(frozen=True)
class Parsed:
    """A file parsed with every token kept, and its comments."""

    lines: list[str]
    tree: Tree[Token]
    comments: list[Comment]


if TYPE_CHECKING:
    # a block: its `{`, the statements between the braces and its `}`
    Block = tuple[Token, list[Tree[Token] | Token | None], Token]


@lru_cache(maxsize=1)
def _full_parser() -> tuple[Lark, list[Token]]:
    """The chart grammar with every token kept (keywords and punctuation too) and the comments
    collected by a lexer callback into the returned list (cleared before each parse)."""
    comments: list[Token] = []
    parser = Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        keep_all_tokens=True,
        lexer_callbacks={"COMMENT": comments.append},
    )
    return parser, comments


@lru_cache(maxsize=4)
def parse_with_tokens(text: str) -> Parsed:
    """`text` parsed with every token kept. `format_text` reads each text twice, for the layout
    and for its safety checks: the second read is the first's parse (nothing changes a tree)."""
    parser, collected = _full_parser()
    collected.clear()
    try:
        tree = parser.parse(text)
    except UnexpectedInput as exc:
        line = exc.line if isinstance(exc.line, int) and exc.line > 0 else 1
        col = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
        raise FormatSyntaxError("the file does not parse (run `chartc check` for the details)", line, col) from exc
    lines = text.split("\n")
    comments = [_comment(token, lines) for token in collected]
    collected.clear()
    return Parsed(lines, tree, comments)


def _comment(token: Token, lines: list[str]) -> Comment:
    line, col = int(token.line or 1), int(token.column or 1)
    own_line = not lines[line - 1][: col - 1].strip()
    return Comment(line, col, str(token).rstrip(), own_line)


def tokens_of(node: Tree[Token] | Token) -> list[tuple[Token, str]]:
    """The tokens under `node` in source order, each with the name of the rule holding it."""
    if isinstance(node, Token):
        return [(node, "")]
    found: list[tuple[Token, str]] = []
    stack: list[tuple[Tree[Token] | Token | None, str]] = [(node, "")]
    while stack:
        item, parent = stack.pop()
        if isinstance(item, Token):
            found.append((item, parent))
        elif isinstance(item, Tree):
            stack.extend((child, str(item.data)) for child in reversed(item.children))
    return found


def _edge_token(node: Tree[Token] | Token, last: bool = False) -> Token | None:
    """The first (or `last`) token under `node`, as `tokens_of(node)` would list it, without
    walking the whole subtree (a deeply nested condition is walked once, not once per line)."""
    stack: list[Tree[Token] | Token | None] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            return item
        if isinstance(item, Tree):
            stack.extend(item.children if last else reversed(item.children))
    return None


def first_token_of(node: Tree[Token] | Token) -> Token:
    token = _edge_token(node)
    if token is None:
        raise IndexError("a node without tokens")
    return token


def last_token_of(node: Tree[Token] | Token) -> Token:
    token = _edge_token(node, last=True)
    if token is None:
        raise IndexError("a node without tokens")
    return token


def first_line_of(node: Tree[Token] | Token) -> int:
    return int(first_token_of(node).line or 1)


def last_line_of(node: Tree[Token] | Token) -> int:
    return int(last_token_of(node).end_line or 1)


def has_tokens(node: Tree[Token] | Token | None) -> bool:
    return node is not None and _edge_token(node) is not None


def find_block(node: Tree[Token] | Token) -> Block | None:
    """The first `{`, the statements after it and the matching `}` among a node's descendants."""
    stack: list[Tree[Token] | Token | None] = [node]
    while stack:
        item = stack.pop()
        if not isinstance(item, Tree):
            continue
        kids = item.children
        opens = [i for i, k in enumerate(kids) if isinstance(k, Token) and str(k) == "{" and k.type != "STRING"]
        closes = [i for i, k in enumerate(kids) if isinstance(k, Token) and str(k) == "}" and k.type != "STRING"]
        if opens and closes and opens[0] < closes[-1]:
            inner = kids[opens[0] + 1 : closes[-1]]
            if len(opens) != 1 or len(closes) != 1:
                return None
            open_token, close_token = kids[opens[0]], kids[closes[-1]]
            assert isinstance(open_token, Token) and isinstance(close_token, Token)
            if any(isinstance(k, Token) for k in inner):
                # bare tokens between the braces (an invariant's `{ count ... }`): one statement
                return open_token, [Tree("block_tokens", list(inner))], close_token
            return open_token, list(inner), close_token
        stack.extend(reversed(kids))
    return None


def around_block(node: Tree[Token] | Token, block: Block) -> tuple[list[tuple[Token, str]], list[tuple[Token, str]]]:
    """The tokens of a statement before its block's `{` and after its `}`."""
    leaves = tokens_of(node)
    open_at = next(i for i, (t, _) in enumerate(leaves) if t is block[0])
    close_at = next(i for i, (t, _) in enumerate(leaves) if t is block[2])
    return leaves[:open_at], leaves[close_at + 1 :]
