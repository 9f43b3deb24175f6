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
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

__all__ = ["FormatSyntaxError", "UnsafeFormat", "format_text"]

INDENT = "  "
# The rules whose statements are table rows, aligned in columns with their neighbours.
ALIGNED_ROWS = frozenset({"row", "grid_row", "avail_row"})
# The rules of record fields: several may share a line, and a block of them may stay on one line.
FIELD_STATEMENTS = frozenset({"field_decl", "field_value", "block_tokens"})
FMT_OFF = "# fmt: off"
FMT_ON = "# fmt: on"

_NO_SPACE_BEFORE = frozenset({",", ":", "]", ")", ".", "..", "=", ";"})
_NO_SPACE_AFTER = frozenset({"[", "(", ".", "..", "="})
_CELL_SEPARATORS = frozenset({",", ":"})
_SPACED_EQUALS = frozenset({"example_key", "example_set", "expect_cell"})


class FormatSyntaxError(Exception):
    """The file does not parse: there is nothing safe to format."""

    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


class UnsafeFormat(Exception):
    """The formatted text would not mean the same (a bug in the formatter): nothing is written."""


class _Kind(enum.StrEnum):
    """What a line-level element of a block body is."""

    STATEMENT = "statement"
    COMMENT = "comment"


@dataclass(frozen=True)
class _Comment:
    """A comment token: where it is and whether it is alone on its line."""

    line: int
    col: int
    text: str
    own_line: bool


@dataclass(frozen=True)
class _Element:
    """A statement or an own-line comment inside a block body, with its source lines."""

    kind: _Kind
    first_line: int
    last_line: int
    node: Tree[Token] | Token | None = None
    comment: _Comment | None = None


@dataclass(frozen=True)
class _Parsed:
    """A file parsed with every token kept, and its comments."""

    lines: list[str]
    tree: Tree[Token]
    comments: list[_Comment]


if TYPE_CHECKING:
    # a block: its `{`, the statements between the braces and its `}`
    _Block = tuple[Token, list[Tree[Token] | Token | None], Token]


# ---- parsing ------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _full_parser() -> tuple[Lark, list[Token]]:
    """The chart grammar with every token kept (keywords and punctuation too) and the comments
    collected by a lexer callback into the returned list (cleared before each parse)."""
    from lark import Lark

    from dsl.parser import grammar_text

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
def _parse(text: str) -> _Parsed:
    """`text` parsed with every token kept. `format_text` reads each text twice, for the layout
    and for its safety checks: the second read is the first's parse (nothing changes a tree)."""
    from lark.exceptions import UnexpectedInput

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
    return _Parsed(lines, tree, comments)


def _comment(token: Token, lines: list[str]) -> _Comment:
    line, col = int(token.line or 1), int(token.column or 1)
    own_line = not lines[line - 1][: col - 1].strip()
    return _Comment(line, col, str(token).rstrip(), own_line)


def _leaves(node: Tree[Token] | Token) -> list[tuple[Token, str]]:
    """The tokens under `node` in source order, each with the name of the rule holding it."""
    from lark import Token, Tree

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
    """The first (or `last`) token under `node`, as `_leaves(node)` would list it, without
    walking the whole subtree (a deeply nested condition is walked once, not once per line)."""
    from lark import Token, Tree

    stack: list[Tree[Token] | Token | None] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Token):
            return item
        if isinstance(item, Tree):
            stack.extend(item.children if last else reversed(item.children))
    return None


def _first_token(node: Tree[Token] | Token) -> Token:
    token = _edge_token(node)
    if token is None:
        raise IndexError("a node without tokens")
    return token


def _last_token(node: Tree[Token] | Token) -> Token:
    token = _edge_token(node, last=True)
    if token is None:
        raise IndexError("a node without tokens")
    return token


def _first_line(node: Tree[Token] | Token) -> int:
    return int(_first_token(node).line or 1)


def _last_line(node: Tree[Token] | Token) -> int:
    return int(_last_token(node).end_line or 1)


def _has_tokens(node: Tree[Token] | Token | None) -> bool:
    return node is not None and _edge_token(node) is not None


# ---- spacing ------------------------------------------------------------------------------------


def _separator(before: tuple[Token, str], after: tuple[Token, str]) -> str:
    """The spacing between two adjacent tokens of one line."""
    prev, cur = before[0], after[0]
    if "=" in (str(cur), str(prev)) and _SPACED_EQUALS & {before[1], after[1]}:
        return " "  # `key interceptor = jet` in an example; `(interceptor=jet)` in a chained result
    if (str(cur) == "(" and before[1] == "expr_call") or (str(prev) == "-" and before[1] == "expr_neg"):
        return ""  # `floor(n / 3)`, `-n`: a formula's function call and negation
    if str(cur) in _NO_SPACE_BEFORE or str(prev) in _NO_SPACE_AFTER:
        return ""
    if str(cur) == "+" and prev.type in ("INT", "MONTH") and after[1] != "expr_add":
        return ""  # an open end: `1946+`, `1945-01+`
    return " "


def _join(leaves: list[tuple[Token, str]]) -> str:
    """Tokens on one line with the canonical spacing."""
    out: list[str] = []
    for i, leaf in enumerate(leaves):
        if i:
            out.append(_separator(leaves[i - 1], leaf))
        out.append(str(leaf[0]))
    return "".join(out)


# ---- layout -------------------------------------------------------------------------------------


class _Layout:
    """Lays out one parsed file (see the module docstring for the rules)."""

    def __init__(self, parsed: _Parsed) -> None:
        self.lines = parsed.lines
        self.comments = parsed.comments
        self.out: list[str] = []
        self._table_rules: frozenset[str] = ALIGNED_ROWS
        # trailing comments by the line of the code they follow
        self.trailing = {c.line: c for c in parsed.comments if not c.own_line}
        # _one_line by node
        self._single: dict[int, tuple[Tree[Token] | Token, str | None]] = {}

    def run(self, tree: Tree[Token]) -> str:
        statements = [child for child in tree.children if _has_tokens(child)]
        self._body(statements, 0, 0, len(self.lines) + 1)
        if self.trailing:
            raise UnsafeFormat(f"line {min(self.trailing)}: a comment has no line to follow")
        while self.out and not self.out[-1].strip():
            self.out.pop()
        return "\n".join(self.out) + "\n" if self.out else ""

    # -- block bodies

    def _body(
        self, statements: Sequence[Tree[Token] | Token | None], depth: int, open_line: int, close_line: int
    ) -> None:
        """Emit the statements and own-line comments strictly between two source lines' braces."""
        elements = self._elements(statements, open_line, close_line)
        self._table_rules = ALIGNED_ROWS | _homogeneous_rows(statements)
        previous_last: int | None = None
        i = 0
        while i < len(elements):
            element = elements[i]
            if previous_last is not None and self._blank_between(previous_last, element.first_line):
                self.out.append("")
            if element.comment is not None and element.comment.text == FMT_OFF:
                end = self._fmt_off_end(elements, i, close_line)
                self.out.extend(self.lines[element.first_line - 1 : end])
                previous_last = end
                while i < len(elements) and elements[i].first_line <= end:
                    i += 1
                continue
            if element.kind is _Kind.COMMENT:
                assert element.comment is not None
                self.out.append(INDENT * depth + element.comment.text)
                previous_last = element.last_line
                i += 1
                continue
            group_end = self._row_group_end(elements, i)
            if group_end > i + 1:
                self._rows(elements[i:group_end], depth)
                previous_last = elements[group_end - 1].last_line
                i = group_end
                continue
            run_end = self._same_line_run(elements, i)
            if run_end > i + 1:
                texts = [self._one_line(e.node) for e in elements[i:run_end] if e.node is not None]
                joined = "  ".join(t for t in texts if t is not None)
                self._line(INDENT * depth + joined, elements[run_end - 1].last_line)
                previous_last = elements[run_end - 1].last_line
                i = run_end
                continue
            assert element.node is not None
            self._statement(element.node, depth)
            previous_last = element.last_line
            i += 1

    def _elements(
        self, statements: Sequence[Tree[Token] | Token | None], open_line: int, close_line: int
    ) -> list[_Element]:
        found = [
            _Element(_Kind.STATEMENT, _first_line(node), _last_line(node), node=node)
            for node in statements
            if node is not None and _has_tokens(node)
        ]
        inside = [(e.first_line, e.last_line) for e in found]
        for comment in self.comments:
            if not comment.own_line or not open_line < comment.line < close_line:
                continue
            if any(first <= comment.line <= last for first, last in inside):
                continue
            found.append(_Element(_Kind.COMMENT, comment.line, comment.line, comment=comment))
        return sorted(found, key=lambda e: (e.first_line, e.kind is _Kind.STATEMENT))

    def _blank_between(self, last_line: int, next_line: int) -> bool:
        return any(not self.lines[n - 1].strip() for n in range(last_line + 1, next_line))

    def _fmt_off_end(self, elements: list[_Element], start: int, close_line: int) -> int:
        """The last source line kept verbatim for a `# fmt: off` at `elements[start]`."""
        end = close_line - 1 if close_line <= len(self.lines) else len(self.lines)
        for element in elements[start + 1 :]:
            if element.comment is not None and element.comment.text == FMT_ON:
                end = element.first_line
                break
        for element in elements[start + 1 :]:
            if element.first_line <= end:
                end = max(end, element.last_line)
        return end

    def _row_group_end(self, elements: list[_Element], start: int) -> int:
        """One past the last table row aligned with `elements[start]` (itself if it is no row)."""
        from lark import Tree

        end = last_row = start
        while end < len(elements):
            element = elements[end]
            node = element.node
            if end > start and self._blank_between(elements[end - 1].last_line, element.first_line):
                break
            if element.comment is not None and element.comment.text not in (FMT_OFF, FMT_ON) and end > start:
                end += 1  # a comment line between rows does not split their table
                continue
            if not (isinstance(node, Tree) and str(node.data) in self._table_rules and self._plain(node)):
                break
            end += 1
            last_row = end
        return last_row

    def _plain(self, node: Tree[Token] | Token) -> bool:
        """Whether a statement has no comment inside it (a trailing one on its last line is fine)."""
        first, last = _first_line(node), _last_line(node)
        return not any(first <= c.line <= last for c in self.comments if c.line != last or c.own_line)

    def _plain_around(self, node: Tree[Token] | Token, block: _Block) -> bool:
        """Whether a block statement has no comment before its `{` line or after its `}` (the
        comments inside the block are laid out with its statements)."""
        first, last = _first_line(node), _last_line(node)
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        for c in self.comments:
            if first <= c.line < open_line or (close_line < c.line <= last and (c.line != last or c.own_line)):
                return False
        return True

    # -- statements

    def _statement(self, node: Tree[Token] | Token, depth: int) -> None:
        block = _find_block(node)
        if not (self._plain(node) if block is None else self._plain_around(node, block)):
            self._verbatim(node)
            return
        single = self._one_line(node)
        if single is not None:
            self._line(INDENT * depth + single, _last_line(node))
            return
        assert block is not None
        head, tail = _around_block(node, block)
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        self._line(INDENT * depth + _block_prefix(head), open_line)
        self._body([child for child in block[1] if _has_tokens(child)], depth + 1, open_line, close_line)
        self._line(INDENT * depth + _block_suffix(tail), close_line)

    def _one_line(self, node: Tree[Token] | Token) -> str | None:
        """A plain statement's text on one line, or None for a block written on several lines."""
        # asked by _same_line_run, then by _statement; the node is kept so that its id is not
        # reused (a block's `block_tokens` node is made afresh by each _find_block)
        if id(node) not in self._single:
            self._single[id(node)] = (node, self._one_line_of(node))
        return self._single[id(node)][1]

    def _one_line_of(self, node: Tree[Token] | Token) -> str | None:
        block = _find_block(node)
        if block is None:
            return _join(_leaves(node))
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        body = [child for child in block[1] if child is not None and _has_tokens(child)]
        if any(open_line <= c.line <= close_line and c.line != close_line for c in self.comments):
            return None
        head, tail = _around_block(node, block)
        if not body:
            return _block_prefix(head) + _block_suffix(tail)
        if open_line != close_line or not all(_is_field(child) for child in body):
            return None
        items = "  ".join(_join(_leaves(child)) for child in body)
        return f"{_block_prefix(head)} {items} {_block_suffix(tail)}"

    def _same_line_run(self, elements: list[_Element], start: int) -> int:
        """One past the last statement written on the same source line as the one before it,
        from `elements[start]` on (record fields written several to a line stay so)."""
        end = start + 1
        while end < len(elements):
            prev, element = elements[end - 1], elements[end]
            if not (_is_field(element.node) and _is_field(prev.node)) or element.first_line != prev.last_line:
                break
            end += 1
        nodes = [e.node for e in elements[start:end] if e.node is not None]
        if not all(self._plain(n) and self._one_line(n) is not None for n in nodes):
            return start + 1
        return end

    def _line(self, code: str, source_line: int) -> None:
        """One output line, with the trailing comment of the source line it ends."""
        comment = self.trailing.pop(source_line, None)
        self.out.append(code + ("  " + comment.text if comment else ""))

    def _verbatim(self, node: Tree[Token] | Token) -> None:
        """A statement with a comment inside it, kept as written (its lines must be its own)."""
        first, last = _first_line(node), _last_line(node)
        first_token, last_token = _first_token(node), _last_token(node)
        before = self.lines[first - 1][: int(first_token.column or 1) - 1]
        after = self.lines[last - 1][int(last_token.end_column or 1) - 1 :].strip()
        if before.strip() or (after and not after.startswith("#")):
            raise UnsafeFormat(
                f"line {first}: a statement with a comment inside shares its lines with another statement"
            )
        for n in range(first, last + 1):
            self.trailing.pop(n, None)
        self.out.extend(self.lines[first - 1 : last])

    def _rows(self, elements: list[_Element], depth: int) -> None:
        """Table rows with their pieces aligned in columns, and the comment lines among them."""
        pieces = {id(e): _row_pieces(e.node) for e in elements if e.node is not None}
        widths: dict[int, int] = {}
        for row_pieces in pieces.values():
            for i, piece in enumerate(row_pieces[:-1]):
                widths[i] = max(widths.get(i, 0), len(piece))
        codes = {
            key: INDENT * depth + " ".join([*(p.ljust(widths[i]) for i, p in enumerate(row[:-1])), row[-1]])
            for key, row in pieces.items()
        }
        # the trailing comments of a table line up, one column after its longest commented row
        commented = [codes[id(e)] for e in elements if e.node is not None and e.last_line in self.trailing]
        comment_column = max((len(code) for code in commented), default=0)
        for element in elements:
            if element.comment is not None:
                self.out.append(INDENT * depth + element.comment.text)
                continue
            code = codes[id(element)]
            self._line(code.ljust(comment_column) if element.last_line in self.trailing else code, element.last_line)


def _find_block(node: Tree[Token] | Token) -> _Block | None:
    """The first `{`, the statements after it and the matching `}` among a node's descendants."""
    from lark import Token, Tree

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


def _homogeneous_rows(statements: Sequence[Tree[Token] | Token | None]) -> frozenset[str]:
    """The rule of a block's statements when they are all of one rule, each with a `:` of its own
    and none a record field: rows of a table the grammar may have added since (a CRT's
    `grid ... by roll` lines), aligned like `rows`."""
    from lark import Token, Tree

    nodes = [s for s in statements if s is not None and _has_tokens(s)]
    rules = {str(n.data) for n in nodes if isinstance(n, Tree)}
    if len(rules) != 1 or len(nodes) < 2 or not all(isinstance(n, Tree) for n in nodes) or rules & FIELD_STATEMENTS:
        return frozenset()
    has_colon = all(
        any(isinstance(k, Token) and str(k) == ":" and k.type != "STRING" for k in n.children)
        for n in nodes
        if isinstance(n, Tree)
    )
    return frozenset(rules) if has_colon else frozenset()


def _is_field(node: Tree[Token] | Token | None) -> bool:
    from lark import Tree

    return isinstance(node, Tree) and str(node.data) in FIELD_STATEMENTS


def _around_block(node: Tree[Token] | Token, block: _Block) -> tuple[list[tuple[Token, str]], list[tuple[Token, str]]]:
    """The tokens of a statement before its block's `{` and after its `}`."""
    leaves = _leaves(node)
    open_at = next(i for i, (t, _) in enumerate(leaves) if t is block[0])
    close_at = next(i for i, (t, _) in enumerate(leaves) if t is block[2])
    return leaves[:open_at], leaves[close_at + 1 :]


def _block_prefix(head: list[tuple[Token, str]]) -> str:
    return _join(head) + " {" if head else "{"


def _block_suffix(tail: list[tuple[Token, str]]) -> str:
    return "}" + (" " + _join(tail) if tail else "")


def _row_pieces(row: Tree[Token] | Token) -> list[str]:
    """A table row cut into the pieces that align: each cell with the `,` or `:` after it, and
    each `|` on its own."""
    from lark import Token, Tree

    assert isinstance(row, Tree)
    pieces: list[str] = []
    for child in row.children:
        if child is None or not _has_tokens(child):
            continue
        assert child is not None
        text = _join(_leaves(child))
        if isinstance(child, Token) and str(child) in _CELL_SEPARATORS and child.type != "STRING" and pieces:
            pieces[-1] += text
        else:
            pieces.append(text)
    return pieces


# ---- the safe entry point -----------------------------------------------------------------------


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
    parsed = _parse(text)
    return _Layout(parsed).run(parsed.tree)


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
    first = _parse(before)
    try:
        second = _parse(after)
    except FormatSyntaxError as exc:
        raise UnsafeFormat(f"the formatted text does not parse (line {exc.line})") from exc
    if _token_values(first.tree) != _token_values(second.tree):
        raise UnsafeFormat("the formatted text reads as different tokens")
    if [c.text for c in first.comments] != [c.text for c in second.comments]:
        raise UnsafeFormat("the formatted text lost or reordered a comment")
    if syntax_tree_without_spans(before, path) != syntax_tree_without_spans(after, path):
        raise UnsafeFormat("the formatted text builds a different syntax tree")


def _token_values(tree: Tree[Token]) -> list[tuple[str, str]]:
    return [(str(token.type), str(token)) for token, _ in _leaves(tree)]


def syntax_tree_without_spans(text: str, path: str) -> object:
    """The syntax tree of `text` as nested tuples with every span left out (None if it does not
    parse): two texts that differ only in layout give equal values."""
    from dsl.parser import parse_text

    result = parse_text(text, path)
    return None if result.source is None else _without_spans(result.source)


def _without_spans(value: object) -> object:
    from dsl.shared import Span

    if isinstance(value, Span):
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(_without_spans(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, list | tuple):
        return tuple(_without_spans(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _without_spans(item)) for key, item in value.items())
    return value
