"""Every independent syntax error of a file, and none caused only by an earlier one.

A file that does not parse is read again by `syntax_errors`, token by token through Lark's
interactive parser (the same parser and lexer as the build, so its first error is the build's).
After an error the reader recovers in panic mode, by lines:

- what the parser read of the error's line is taken back (its stack popped to where the line
  began), and the rest of the line is skipped, with every block a `{` on that line opens (so a
  bad `rows x {` line skips its rows, not only the line): as if the line were deleted;
- reading resumes at the first token of a later line that the parser accepts where it stopped;
- a top-level keyword (`chart`, `enum`, ...) in the first column, met while skipping or as the
  error itself, starts a fresh parse there: a block left open above it (a missing `}`) is one
  error, not a cascade;
- an unexpected end of file after an earlier error is not reported: a block the recovery skipped
  into is most often what left it open.

Errors are returned in the order found, at most `MAX_ERRORS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.parsers.lalr_interactive_parser import InteractiveParser

# more than this many errors in one file is a file of another kind, not a chart with slips
MAX_ERRORS = 50
# the keywords that begin a top-level declaration (`_item` in dsl/chart.lark)
_TOP_LEVEL = frozenset(
    {"GAME", "ENUM", "CONTEXT", "CHART", "DRMS", "EXTERNAL", "ODDS", "INVARIANT", "ERRATA", "EXAMPLE", "FORMULA"}
)
_NOT_NEWLINE = re.compile(r"[^\n]")


def syntax_errors(parser: Lark, text: str) -> list[UnexpectedInput]:
    """The independent syntax errors of `text` (empty when it parses)."""
    return _Recovery(parser, text).run()


class _Recovery:
    def __init__(self, parser: Lark, text: str) -> None:
        self.parser = parser
        self.text = text
        self.errors: list[UnexpectedInput] = []
        self.skipping = False
        self.error_line = 0  # the line of the last error: the rest of it is skipped
        self.depth = 0  # braces opened (minus closed) by the tokens skipped since the last error
        self.last_line = 0  # the line of the token before this one

    def run(self) -> list[UnexpectedInput]:
        start = 0
        while start >= 0 and len(self.errors) < MAX_ERRORS:
            start = self._read_from(start)
        return self.errors

    def _read_from(self, offset: int) -> int:
        """Read from `offset` (a fresh parse); the offset of a top-level keyword to read from
        next, or -1 when the file is read to its end."""
        text = self.text if offset == 0 else _NOT_NEWLINE.sub(" ", self.text[:offset]) + self.text[offset:]
        interactive = self.parser.parse_interactive(text)
        self.skipping, self.depth, self.last_line = False, 0, 0
        for token, error in _lexed(interactive):
            if len(self.errors) >= MAX_ERRORS:
                return -1
            if token is None:  # a character no terminal begins with: skipped, as the line's rest
                if not self.skipping:
                    self._error(error)
                continue
            line_start = token.line is not None and token.line > self.last_line
            self.last_line = token.line if token.line is not None else self.last_line
            fresh = line_start and token.column == 1 and token.type in _TOP_LEVEL and offset != token.start_pos
            if self.skipping:
                if fresh and self.depth <= 0:
                    return token.start_pos or 0
                if not self._resumes(interactive, token, line_start):
                    continue
            if error is None:
                try:
                    interactive.feed_token(token)
                    continue
                except UnexpectedToken as exc:
                    error = exc
            self._error(error)
            if fresh:
                return token.start_pos or 0
            _take_back_line(interactive, self.error_line)
            self._skip(token)
        if not self.errors:
            state = interactive.lexer_thread.state
            try:
                interactive.feed_eof(state.last_token if state is not None else None)  # type: ignore[no-untyped-call]
            except UnexpectedInput as exc:
                self.errors.append(exc)
        return -1

    def _error(self, error: UnexpectedInput | None) -> None:
        assert error is not None
        self.errors.append(error)
        self.skipping, self.depth = True, 0
        self.error_line = error.line if isinstance(error.line, int) else self.last_line

    def _skip(self, token: Token) -> None:
        match token.type:
            case "LBRACE":
                self.depth += 1
            case "RBRACE":
                self.depth -= 1
            case _:
                pass

    def _resumes(self, interactive: InteractiveParser, token: Token, line_start: bool) -> bool:
        """Whether reading resumes at `token` (else it is skipped)."""
        if line_start and self.depth <= 0 and token.line != self.error_line and _accepts(interactive, token):
            self.skipping = False
            return True
        self._skip(token)
        return False


def _accepts(interactive: InteractiveParser, token: Token) -> bool:
    """Whether the parser can shift `token` where it stands (tried on a shallow copy)."""
    if token.type not in interactive.choices():  # type: ignore[no-untyped-call]
        return False
    trial = interactive.copy(deepcopy_values=False)  # type: ignore[no-untyped-call]
    try:
        trial.feed_token(token)
    except UnexpectedInput:
        return False
    return True


def _take_back_line(interactive: InteractiveParser, line: int) -> None:
    """Pop what the parser shifted or reduced from `line` on (the start of a row whose `:` is
    missing), so that the next line is read where the bad line began."""
    state = interactive.parser_state
    while state.value_stack and _line_of(state.value_stack[-1]) >= line:
        state.value_stack.pop()
        state.state_stack.pop()


def _line_of(value: object) -> int:
    """The line a value on the parser's stack begins at (0 when it has none: an empty rule)."""
    line = getattr(value, "line", None)
    if line is None:
        meta = getattr(value, "meta", None)
        line = getattr(meta, "line", None) if meta is not None and not meta.empty else None
    return line if isinstance(line, int) else 0


def _lexed(interactive: InteractiveParser) -> Iterator[tuple[Token | None, UnexpectedInput | None]]:
    """The tokens of the text, each with the error the contextual lexer raised for it (a token
    this parser state does not expect, lexed by the root lexer), or None and the error for a
    character no terminal begins with (then skipped)."""
    while True:
        try:
            for token in interactive.lexer_thread.lex(interactive.parser_state):  # type: ignore[no-untyped-call]
                yield token, None
            return
        except UnexpectedToken as exc:
            yield exc.token, exc
        except UnexpectedCharacters as exc:
            state = interactive.lexer_thread.state
            assert state is not None
            position = state.line_ctr.char_pos
            state.line_ctr.feed(state.text.text[position : position + 1])
            yield None, exc
