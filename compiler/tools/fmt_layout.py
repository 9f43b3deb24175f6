"""`chartc fmt`'s canonical layout of a parsed file (the rules are in `compiler.tools.fmt`'s
docstring): blocks one statement a line, table rows aligned in columns, canonical spacing between
tokens, comments where they were, `# fmt: off` regions kept byte for byte.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token, Tree

from compiler.tools.fmt_tree import (
    Comment,
    Parsed,
    around_block,
    find_block,
    first_line_of,
    first_token_of,
    has_tokens,
    last_line_of,
    last_token_of,
    tokens_of,
)

if TYPE_CHECKING:
    from lark import Token, Tree

    from compiler.tools.fmt_tree import Block

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


class UnsafeFormat(Exception):
    """The formatted text would not mean the same (a bug in the formatter): nothing is written."""


class _Kind(enum.StrEnum):
    """What a line-level element of a block body is."""

    STATEMENT = "statement"
    COMMENT = "comment"


@dataclass(frozen=True)
class _Element:
    """A statement or an own-line comment inside a block body, with its source lines."""

    kind: _Kind
    first_line: int
    last_line: int
    node: Tree[Token] | Token | None = None
    comment: Comment | None = None


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
    if str(cur) == "+" and after[1] == "turn_from":
        return ""  # a turn's open end: `1944-06-11 AM+`
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
    """Lays out one parsed file (the rules are in `compiler.tools.fmt`'s docstring)."""

    def __init__(self, parsed: Parsed) -> None:
        self.lines = parsed.lines
        self.comments = parsed.comments
        self.out: list[str] = []
        self._table_rules: frozenset[str] = ALIGNED_ROWS
        # trailing comments by the line of the code they follow
        self.trailing = {c.line: c for c in parsed.comments if not c.own_line}
        # _one_line by node
        self._single: dict[int, tuple[Tree[Token] | Token, str | None]] = {}

    def run(self, tree: Tree[Token]) -> str:
        statements = [child for child in tree.children if has_tokens(child)]
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
                for line in range(element.first_line, end + 1):
                    self.trailing.pop(line, None)  # kept verbatim with its line
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
            _Element(_Kind.STATEMENT, first_line_of(node), last_line_of(node), node=node)
            for node in statements
            if node is not None and has_tokens(node)
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
        first, last = first_line_of(node), last_line_of(node)
        return not any(first <= c.line <= last for c in self.comments if c.line != last or c.own_line)

    def _plain_around(self, node: Tree[Token] | Token, block: Block) -> bool:
        """Whether a block statement has no comment before its `{` line or after its `}` (the
        comments inside the block are laid out with its statements)."""
        first, last = first_line_of(node), last_line_of(node)
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        for c in self.comments:
            if first <= c.line < open_line or (close_line < c.line <= last and (c.line != last or c.own_line)):
                return False
        return True

    # -- statements

    def _statement(self, node: Tree[Token] | Token, depth: int) -> None:
        block = find_block(node)
        if not (self._plain(node) if block is None else self._plain_around(node, block)):
            self._verbatim(node)
            return
        single = self._one_line(node)
        if single is not None:
            self._line(INDENT * depth + single, last_line_of(node))
            return
        assert block is not None
        head, tail = around_block(node, block)
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        self._line(INDENT * depth + _block_prefix(head), open_line)
        self._body([child for child in block[1] if has_tokens(child)], depth + 1, open_line, close_line)
        self._line(INDENT * depth + _block_suffix(tail), close_line)

    def _one_line(self, node: Tree[Token] | Token) -> str | None:
        """A plain statement's text on one line, or None for a block written on several lines."""
        # asked by _same_line_run, then by _statement; the node is kept so that its id is not
        # reused (a block's `block_tokens` node is made afresh by each find_block)
        if id(node) not in self._single:
            self._single[id(node)] = (node, self._one_line_of(node))
        return self._single[id(node)][1]

    def _one_line_of(self, node: Tree[Token] | Token) -> str | None:
        block = find_block(node)
        if block is None:
            return _join(tokens_of(node))
        open_line, close_line = int(block[0].line or 1), int(block[2].line or 1)
        body = [child for child in block[1] if child is not None and has_tokens(child)]
        if any(open_line <= c.line <= close_line and c.line != close_line for c in self.comments):
            return None
        head, tail = around_block(node, block)
        if not body:
            return _block_prefix(head) + _block_suffix(tail)
        if open_line != close_line or not all(_is_field(child) for child in body):
            return None
        items = "  ".join(_join(tokens_of(child)) for child in body)
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
        first, last = first_line_of(node), last_line_of(node)
        first_token, last_token = first_token_of(node), last_token_of(node)
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


def _homogeneous_rows(statements: Sequence[Tree[Token] | Token | None]) -> frozenset[str]:
    """The rule of a block's statements when they are all of one rule, each with a `:` of its own
    and none a record field: rows of a table the grammar may have added since (a CRT's
    `grid ... by roll` lines), aligned like `rows`."""
    nodes = [s for s in statements if s is not None and has_tokens(s)]
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
    return isinstance(node, Tree) and str(node.data) in FIELD_STATEMENTS


def _block_prefix(head: list[tuple[Token, str]]) -> str:
    return _join(head) + " {" if head else "{"


def _block_suffix(tail: list[tuple[Token, str]]) -> str:
    return "}" + (" " + _join(tail) if tail else "")


def _row_pieces(row: Tree[Token] | Token) -> list[str]:
    """A table row cut into the pieces that align: each cell with the `,` or `:` after it, and
    each `|` on its own."""
    assert isinstance(row, Tree)
    pieces: list[str] = []
    for child in row.children:
        if child is None or not has_tokens(child):
            continue
        assert child is not None
        text = _join(tokens_of(child))
        if isinstance(child, Token) and str(child) in _CELL_SEPARATORS and child.type != "STRING" and pieces:
            pieces[-1] += text
        else:
            pieces.append(text)
    return pieces


def lay_out(parsed: Parsed) -> str:
    """The canonical layout of a parsed file's text.

    Raises:
        UnsafeFormat: a statement with a comment inside shares a line with another statement, or
            a comment has no line to follow.
    """
    return _Layout(parsed).run(parsed.tree)
