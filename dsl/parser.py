"""Parse chart-language text into the syntax tree of `dsl.ast`.

`parse_text(text, path)` never raises for bad input: it returns a `ParseResult` whose `errors`
hold positioned `SyntaxIssue`s (what was found, what was expected, while reading which chart).
Lark is imported lazily so the CLI starts fast for commands that do not parse; the tree is
built by `dsl.builder` during the parse (`dsl.callbacks`), without a parse tree in between.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from threading import Lock
from typing import TYPE_CHECKING, Any

from lark import Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from dsl import ast
from dsl.builder import Builder, BuildError
from dsl.callbacks import Nesting, TooDeep, make_callbacks, parse
from dsl.parser_cache import cached_parser, default_cache_dir
from dsl.recovery import syntax_errors
from dsl.source_text import clip, while_reading

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

    from dsl.builder import Builder

_GRAMMAR_FILE = "chart.lark"
# Deepest nesting of conditions (`not`, `and`/`or` inside parentheses) the later passes accept:
# they recurse, and real charts nest two or three levels. Deeper input is a syntax error.
MAX_NESTING = 50
# Deepest nesting of a formula's operations (each `+`, `*`, `^`, `-x`, call or `if` is a level): the
# later passes recurse over it as over conditions. Longer formulas are split into several formulas.
MAX_FORMULA_NESTING = 100

# Human words for the grammar's terminals, used in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": 'a quoted string like "Combat"',
    "RANGE": "a range like `3-6`, `12+` or `01-08`",
    "INT": "a whole number",
    "DRM_VALUE": "a signed number like `+1` or `-2`",
    "MONTH": "a month like `1944-12`",
    "DICE": "dice like `1d6` or `2d6`",
    "CHART_ID": "a chart ID like `R4`",
    "CMP": "a comparison (`==`, `>=`, ...)",
    "STAR": "`*`",
    "DASH": "`-`",
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "COLON": "`:`",
    "COMMA": "`,`",
    "VBAR": "`|`",
    "SEMICOLON": "`;`",
    "SLASHED": "a list like `6/3` or `-/8/9/11`",
    "CHECK": "`✓`",
    "PLUS": "`+`",
    "$END": "end of file",
}


@dataclass(frozen=True)
class SyntaxIssue:
    """A syntax error: the message, where, and a hint at what the grammar expected; `replacement`,
    where the hint is one mechanical change (`3---6` -> `3-6`), the span to replace and its text."""

    message: str
    span: ast.Span
    help: str | None = None
    replacement: tuple[ast.Span, str] | None = None


@dataclass
class ParseResult:
    """The syntax tree of one file, or None and the syntax errors that stopped it."""

    source: ast.SourceFile | None
    errors: list[SyntaxIssue] = field(default_factory=list)


_PARSER_OPTIONS: dict[str, object] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built once per process, and loaded from the user's cache when saved there."""
    return cached_parser(grammar_text(), _PARSER_OPTIONS, default_cache_dir())


@lru_cache(maxsize=1)
def _building_parser() -> tuple[Lark, Builder, dict[Any, Any]]:
    """The parser, the one builder its callbacks build with, and those callbacks."""
    parser = _parser()
    builder = Builder("", "")
    nesting = Nesting(_NESTING_RULES, MAX_NESTING, _FORMULA_RULES, MAX_FORMULA_NESTING)
    return parser, builder, make_callbacks(parser, builder, nesting)


# the builder is shared by every parse: one parse at a time
_BUILDING = Lock()


def prepare_parser() -> None:
    """Load the parser now: a process about to fork workers that parse loads it once for all."""
    _building_parser()


def grammar_text() -> str:
    """The grammar source (for docs and the strict-mode test)."""
    return files("dsl").joinpath(_GRAMMAR_FILE).read_text(encoding="utf-8")


# A file's text parsed once per process: `chartc diff REV REV` reads the files the two trees
# share twice, and a program that compiles a tree again (tests, tools embedding chartc) re-reads
# files it has already parsed. The syntax tree is immutable (frozen dataclasses and tuples), so
# one tree can be handed out again. Large texts are parsed every time rather than kept, and the
# memo keeps the most recently parsed texts up to a total size (a syntax tree takes about twelve
# times its text's size), so a build of hundreds of games does not keep every tree it parsed.
_MEMO_MAX_CHARS = 256 * 1024
_MEMO_TOTAL_CHARS = 2 * 1024 * 1024
_memo: OrderedDict[tuple[str, str], tuple[ast.SourceFile | None, tuple[SyntaxIssue, ...]]] = OrderedDict()
_memo_chars = 0
_memo_lock = Lock()


def parse_text(text: str, path: str) -> ParseResult:
    """Parse one file's text.

    Args:
        text: the file's contents (already decoded; a leading BOM is ignored).
        path: the path used in spans, relative to the project for stable output.

    Returns:
        A ParseResult with the syntax tree, or with `source=None` and at least one error.
    """
    if len(text) > _MEMO_MAX_CHARS:
        return _parse_text(text, path)
    source, errors = _parse_text_once(text, path)
    return ParseResult(source, list(errors))


def _parse_text_once(text: str, path: str) -> tuple[ast.SourceFile | None, tuple[SyntaxIssue, ...]]:
    global _memo_chars
    key = (text, path)
    with _memo_lock:
        held = _memo.get(key)
        if held is not None:
            _memo.move_to_end(key)
            return held
    result = _parse_text(text, path)
    held = result.source, tuple(result.errors)
    with _memo_lock:
        if key not in _memo:
            _memo[key] = held
            _memo_chars += len(text)
            while _memo_chars > _MEMO_TOTAL_CHARS:
                (old_text, _), _ = _memo.popitem(last=False)
                _memo_chars -= len(old_text)
    return held


def _parse_text(text: str, path: str) -> ParseResult:
    text = text.removeprefix("\ufeff")
    parser, builder, callbacks = _building_parser()
    with _BUILDING:
        builder.path, builder.text = path, text
        try:
            return ParseResult(parse(parser, callbacks, text))
        except UnexpectedInput as exc:
            return ParseResult(None, _syntax_issues(parser, exc, text, path))
        except TooDeep:
            problem = None
        except BuildError as exc:
            problem = SyntaxIssue(exc.message, exc.span, exc.help)
        finally:
            builder.path, builder.text = "", ""
    # The build stopped early. What a parse reports first: a syntax error anywhere in the file,
    # then the first node nested too deeply (found in the parse tree), then the builder's problem.
    try:
        tree = parser.parse(text)
    except UnexpectedInput as exc:
        return ParseResult(None, _syntax_issues(parser, exc, text, path))
    too_deep = _too_deep(tree, path)
    if too_deep is not None:
        return ParseResult(None, [too_deep])
    assert problem is not None, "a file nested too deeply has a node nested too deeply"
    return ParseResult(None, [problem])


_NESTING_RULES = frozenset({"or_cond", "and_cond", "cond_not"})
_FORMULA_RULES = frozenset(
    {"expr_add", "expr_sub", "expr_mul", "expr_div", "expr_pow", "expr_neg", "expr_call", "expr_if"}
)


def _too_deep(tree: Tree[Token], path: str) -> SyntaxIssue | None:
    """The first node nested deeper than MAX_NESTING conditions or MAX_FORMULA_NESTING formula
    operations, as a syntax error (walked without recursion)."""
    stack = [(tree, 0, 0)]
    while stack:
        node, depth, operations = stack.pop()
        if depth > MAX_NESTING or operations > MAX_FORMULA_NESTING:
            m = node.meta
            span = ast.Span(path, m.line, m.column, m.line, m.column + 1)
            if depth > MAX_NESTING:
                return SyntaxIssue(
                    f"this condition is nested more than {MAX_NESTING} levels deep",
                    span,
                    "split the DRM into several DRMs, or remove redundant `not`s and parentheses",
                )
            return SyntaxIssue(
                f"this formula nests more than {MAX_FORMULA_NESTING} operations",
                span,
                "split it into several formulas: a formula may use another by name",
            )
        deeper = depth + (node.data in _NESTING_RULES)
        more = operations + (node.data in _FORMULA_RULES)
        stack.extend((child, deeper, more) for child in node.children if isinstance(child, Tree))
    return None


# ---- syntax errors -----------------------------------------------------------------------------


def _syntax_issues(parser: Lark, first: UnexpectedInput, text: str, path: str) -> list[SyntaxIssue]:
    """Every independent syntax error of the text (`dsl.recovery`), the parse's `first` among them."""
    found = syntax_errors(parser, text) or [first]
    return [_syntax_issue(exc, text, path) for exc in found]


def _syntax_issue(exc: UnexpectedInput, text: str, path: str) -> SyntaxIssue:
    at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
    line, col = _end_position(text) if at_end else _error_position(exc, text)
    span = ast.Span(path, line, col, line, col + 1)
    where = while_reading(text, line)
    expected = _expected_words(_expected_terminals(exc))
    if isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {_describe_char(text, exc.pos_in_stream)}{where}"
    elif at_end or not isinstance(exc, UnexpectedToken):
        message = f"unexpected end of file{where}"
    else:
        message = f"unexpected `{clip(str(exc.token))}`{where}"
    help_text = f"expected {expected}" if expected else None
    near = _near_keyword(exc)
    if near is not None and help_text is not None:  # `edtion` in an errata block: `edition`
        help_text = f"did you mean `{near}`? {help_text}"
    keyword = _keyword_for_name(exc)
    if keyword:
        message = f"`{keyword}` is a keyword of the chart language and cannot be a name here{where}"
        help_text = f"choose a name that is not a keyword, e.g. `my_{keyword}`"
    start, word = _word_at(text, line, col)
    bad_range = re.fullmatch(r"(\d+)-{2,}(\d+)(:?)", word)
    replacement = None
    if bad_range:
        message = f"`{word.rstrip(':')}` is not a range{where}"
        help_text = f"write `{bad_range.group(1)}-{bad_range.group(2)}`"
        written = ast.Span(path, line, start, line, start + len(word))
        replacement = written, f"{bad_range.group(1)}-{bad_range.group(2)}{bad_range.group(3)}"
    return SyntaxIssue(message, span, help_text, replacement)


def _near_keyword(exc: UnexpectedInput) -> str | None:
    """The keyword the grammar expected that a misspelt word is closest to (`edtion` for `edition`),
    by difflib's ratio of at least 0.75; None for any other error."""
    if not isinstance(exc, UnexpectedToken) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(exc.token)):
        return None
    literals = _literal_terminals()
    words = sorted({w for name in exc.expected if (w := literals.get(name)) and w.isidentifier()})
    import difflib  # lazy: only for a syntax error

    close = difflib.get_close_matches(str(exc.token), words, n=1, cutoff=0.75)
    return close[0] if close and close[0] != str(exc.token) else None


def _keyword_for_name(exc: UnexpectedInput) -> str | None:
    """A keyword written where the parser wanted a name (`chart [T1] key "..."`): keywords are
    read as the keyword in some places even where only a name can follow."""
    if not isinstance(exc, UnexpectedToken) or "NAME" not in exc.expected or exc.token.type == "NAME":
        return None
    value = str(exc.token)
    return value if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value) else None


def _expected_terminals(exc: UnexpectedInput) -> Iterable[str]:
    """The names of the terminals the parser (or the lexer) would have accepted."""
    if isinstance(exc, UnexpectedToken | UnexpectedEOF):
        return [str(name) for name in exc.expected]
    if isinstance(exc, UnexpectedCharacters):
        return exc.allowed
    return ()


def _word_at(text: str, line: int, col: int) -> tuple[int, str]:
    """The run of non-blank characters around a position (for friendlier messages), and the column
    it starts at."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return col, ""
    raw = lines[line - 1]
    start = end = min(max(col - 1, 0), len(raw))
    while start > 0 and not raw[start - 1].isspace():
        start -= 1
    while end < len(raw) and not raw[end].isspace():
        end += 1
    return start + 1, raw[start:end]


def _end_position(text: str) -> tuple[int, int]:
    """Just after the last non-blank character: where the missing text should have been."""
    body = text.rstrip()
    lines = body.split("\n")
    return len(lines), len(lines[-1]) + 1


def _error_position(exc: UnexpectedInput, text: str) -> tuple[int, int]:
    """Where the error is; a token without a position (`line` is `?`) counts as the last line."""
    line: object = exc.line
    col: object = exc.column
    if not isinstance(line, int) or line < 1:
        lines = text.split("\n")
        line = max(1, len(lines))
        col = len(lines[-1]) + 1 if lines else 1
    if not isinstance(col, int) or col < 1:
        col = 1
    return line, col


def _describe_char(text: str, pos: int | None) -> str:
    if pos is None or pos >= len(text):
        return "at end of file"
    ch = text[pos]
    if ch.isprintable() and not ch.isspace():
        return f"`{ch}`"
    return f"U+{ord(ch):04X}"


def _expected_words(names: Iterable[str]) -> str:
    """`a name, a range like ... or `}`` for the terminals the grammar expected (at most eight)."""
    words = sorted({_terminal_word(name) for name in names})
    if len(words) > 8:
        words = [*words[:8], "..."]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else ""


def _terminal_word(name: str) -> str:
    """A terminal in the words of the language: a keyword or punctuation as written (`drm_group`,
    `->`), a pattern as its description; never the grammar's own name for it (`__ANON_2`)."""
    word = _TERMINAL_WORDS.get(name)
    if word is not None:
        return word
    literal = _literal_terminals().get(name)
    return f"`{literal}`" if literal is not None else "more text"


@lru_cache(maxsize=1)
def _literal_terminals() -> dict[str, str]:
    """Each terminal the grammar writes as a literal string (keywords, `->`, `..`), by name."""
    return {t.name: t.pattern.value for t in _parser().terminals if isinstance(t.pattern, PatternStr)}
