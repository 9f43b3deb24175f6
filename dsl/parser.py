"""Parse chart-language text into the syntax tree of `dsl.ast`.

`parse_text(text, path)` never raises for bad input: it returns a `ParseResult` whose `errors`
hold positioned `SyntaxIssue`s (what was found, what was expected, while reading which chart).
Lark is imported lazily so the CLI starts fast for commands that do not parse.
"""

from __future__ import annotations

import ast as _pyast
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dsl import ast

_GRAMMAR_FILE = "chart.lark"
# Deepest nesting of conditions (`not`, `and`/`or` inside parentheses) the later passes accept:
# they recurse, and real charts nest two or three levels. Deeper input is a syntax error.
MAX_NESTING = 50

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
    "$END": "end of file",
}


@dataclass(frozen=True)
class SyntaxIssue:
    """A syntax error: the message, where, and a hint at what the grammar expected."""

    message: str
    span: ast.Span
    help: str | None = None


@dataclass
class ParseResult:
    source: ast.SourceFile | None
    errors: list[SyntaxIssue] = field(default_factory=list)


@lru_cache(maxsize=1)
def _parser() -> Any:
    from lark import Lark

    return Lark.open_from_package(
        "dsl",
        _GRAMMAR_FILE,
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        cache=False,
    )


def grammar_text() -> str:
    """The grammar source (for docs and the strict-mode test)."""
    from importlib.resources import files

    return files("dsl").joinpath(_GRAMMAR_FILE).read_text(encoding="utf-8")


def parse_text(text: str, path: str) -> ParseResult:
    """Parse one file's text.

    Args:
        text: the file's contents (already decoded; a leading BOM is ignored).
        path: the path used in spans, relative to the project for stable output.

    Returns:
        A ParseResult with the syntax tree, or with `source=None` and at least one error.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError

    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        return ParseResult(None, [_syntax_issue(exc, text, path, UnexpectedCharacters, UnexpectedEOF)])
    too_deep = _too_deep(tree, path)
    if too_deep is not None:
        return ParseResult(None, [too_deep])
    try:
        return ParseResult(_Builder(path).source_file(tree))
    except VisitError as exc:  # pragma: no cover - builder bugs surface as internal errors
        raise exc.orig_exc from exc
    except _BuildError as exc:
        return ParseResult(None, [SyntaxIssue(exc.message, exc.span, exc.help)])


_NESTING_RULES = frozenset({"or_cond", "and_cond", "cond_not"})


def _too_deep(tree: Any, path: str) -> SyntaxIssue | None:
    """The first node nested deeper than MAX_NESTING, as a syntax error (walked without recursion)."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            m = node.meta
            return SyntaxIssue(
                f"this condition is nested more than {MAX_NESTING} levels deep",
                ast.Span(path, m.line, m.column, m.line, m.column + 1),
                "split the DRM into several DRMs, or remove redundant `not`s and parentheses",
            )
        deeper = depth + (node.data in _NESTING_RULES)
        stack.extend((child, deeper) for child in node.children if hasattr(child, "children"))
    return None


class _BuildError(Exception):
    def __init__(self, message: str, span: ast.Span, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help


# ---- syntax errors -----------------------------------------------------------------------------


def _syntax_issue(exc: Any, text: str, path: str, unexpected_chars: type, unexpected_eof: type) -> SyntaxIssue:
    at_end = isinstance(exc, unexpected_eof) or getattr(getattr(exc, "token", None), "type", "") == "$END"
    line, col = _end_position(text) if at_end else _error_position(exc, text)
    span = ast.Span(path, line, col, line, col + 1)
    chart = _enclosing_chart(text, line)
    where = f" while reading {chart}" if chart else ""
    expected = _expected_words(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    if isinstance(exc, unexpected_chars):
        found = _describe_char(text, exc.pos_in_stream)
        message = f"unexpected character {found}{where}"
    elif at_end:
        message = f"unexpected end of file{where}"
    else:
        token = exc.token
        message = f"unexpected `{_clip(str(token))}`{where}"
    help_text = f"expected {expected}" if expected else None
    word = _word_at(text, line, col)
    bad_range = re.fullmatch(r"(\d+)-{2,}(\d+):?", word)
    if bad_range:
        message = f"`{word.rstrip(':')}` is not a range{where}"
        help_text = f"write `{bad_range.group(1)}-{bad_range.group(2)}`"
    return SyntaxIssue(message, span, help_text)


def _word_at(text: str, line: int, col: int) -> str:
    """The run of non-blank characters around a position (for friendlier messages)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    raw = lines[line - 1]
    start = end = min(max(col - 1, 0), len(raw))
    while start > 0 and not raw[start - 1].isspace():
        start -= 1
    while end < len(raw) and not raw[end].isspace():
        end += 1
    return raw[start:end]


def _end_position(text: str) -> tuple[int, int]:
    """Just after the last non-blank character: where the missing text should have been."""
    body = text.rstrip()
    lines = body.split("\n")
    return len(lines), len(lines[-1]) + 1


def _error_position(exc: Any, text: str) -> tuple[int, int]:
    line = getattr(exc, "line", -1)
    col = getattr(exc, "column", -1)
    if not isinstance(line, int) or line < 1:
        lines = text.split("\n")
        line = max(1, len(lines))
        col = len(lines[-1]) + 1 if lines else 1
    if not isinstance(col, int) or col < 1:
        col = 1
    return line, col


def _describe_char(text: str, pos: int) -> str:
    if pos is None or pos >= len(text):
        return "at end of file"
    ch = text[pos]
    if ch.isprintable() and not ch.isspace():
        return f"`{ch}`"
    return f"U+{ord(ch):04X}"


def _clip(s: str, limit: int = 40) -> str:
    s = s.replace("\n", "\\n")
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _expected_words(names: Any) -> str:
    words = []
    for name in sorted(set(names)):
        word = _TERMINAL_WORDS.get(name)
        if word is None:
            # anonymous keyword terminals are named after their text, e.g. "ROWS" for `rows`
            word = f"`{name.lower()}`" if name.isupper() and name.isalpha() else f"`{name}`"
        words.append(word)
    words = sorted(set(words))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else ""


def _enclosing_chart(text: str, line: int) -> str | None:
    """The name of the last `chart`/`drms` header at or above `line` (a best-effort hint)."""
    header = re.compile(r'^\s*(chart|drms|errata|invariant|odds|enum|game)\s+(?:\[([^\]\s]+)\])?\s*([A-Za-z_][A-Za-z0-9_]*)?')
    lines = text.split("\n")[:line]
    for raw in reversed(lines):
        m = header.match(raw)
        if m and (m.group(2) or m.group(3)):
            kind = "chart" if m.group(1) in ("chart", "drms") else m.group(1)
            return f"{kind} `{m.group(2) or m.group(3)}`"
    return None


# ---- tree -> syntax tree -----------------------------------------------------------------------


class _Builder:
    """Turns Lark's parse tree into `dsl.ast` nodes (explicit per rule; the grammar is small)."""

    def __init__(self, path: str) -> None:
        self.path = path

    # spans
    def span_of(self, node: Any) -> ast.Span:
        if hasattr(node, "meta"):
            m = node.meta
            if getattr(m, "empty", False):
                return ast.Span(self.path, 1, 1, 1, 1)
            return ast.Span(self.path, m.line, m.column, m.end_line, m.end_column)
        return ast.Span(self.path, node.line, node.column, node.end_line, node.end_column)

    def name(self, tok: Any) -> ast.Name:
        return ast.Name(str(tok), self.span_of(tok))

    def text(self, tok: Any) -> ast.Text:
        return ast.Text(_unquote(str(tok), self.span_of(tok)), self.span_of(tok))

    def month(self, tok: Any) -> ast.MonthText:
        return ast.MonthText(str(tok), self.span_of(tok))

    # file
    def source_file(self, tree: Any) -> ast.SourceFile:
        games, enums, contexts, charts, odds, invariants, errata = [], [], [], [], [], [], []
        for item in tree.children:
            kind = item.data
            if kind == "game":
                games.append(self.game(item))
            elif kind == "enum":
                enums.append(self.enum(item))
            elif kind == "context":
                contexts.append(self.context(item))
            elif kind == "external":
                charts.append(self.external(item))
            elif kind == "odds":
                odds.append(self.odds(item))
            elif kind in ("inv_count", "inv_count_all", "inv_column_sum"):
                invariants.append(self.invariant(item))
            elif kind == "errata":
                errata.append(self.errata(item))
            else:
                charts.append(self.chart(item))
        return ast.SourceFile(self.path, tuple(games), tuple(enums), tuple(contexts), tuple(charts), tuple(odds), tuple(invariants), tuple(errata))

    def game(self, tree: Any) -> ast.GameDecl:
        name = self.name(tree.children[0])
        title = source = calendar = None
        periods = []
        repeated = []
        seen_kinds: set[str] = set()
        for stmt in tree.children[1:]:
            if stmt.data in seen_kinds and stmt.data != "period":
                repeated.append(self.span_of(stmt))
                continue
            seen_kinds.add(stmt.data)
            if stmt.data == "title":
                title = self.text(stmt.children[0])
            elif stmt.data == "source":
                source = self.text(stmt.children[0])
            elif stmt.data == "calendar":
                calendar = (self.month(stmt.children[0]), self.month(stmt.children[1]))
            elif stmt.data == "period":
                c = stmt.children
                first = self.period_bound(c[2], start=True)
                last = self.period_bound(c[3], start=False) if getattr(c[3], "data", None) == "period_bound" else None
                periods.append(ast.PeriodDecl(self.name(c[0]), self.text(c[1]), first, last, self.span_of(stmt)))
        return ast.GameDecl(name, title, source, calendar, tuple(periods), self.span_of(tree), tuple(repeated))

    def period_bound(self, tree: Any, start: bool) -> ast.MonthText:
        tok = tree.children[0]
        text = str(tok)
        if tok.type == "INT":  # a year: from its January, or to its December
            text = f"{int(text):04d}-{'01' if start else '12'}"
        return ast.MonthText(text, self.span_of(tok))

    def enum(self, tree: Any) -> ast.EnumDecl:
        name = self.name(tree.children[0])
        label = None
        members, field_decls = [], []
        for child in tree.children[1:]:
            data = getattr(child, "data", None)
            if data == "member":
                members.append(self.member(child))
            elif data == "fields":
                for f in child.children:
                    c = f.children
                    flabel = self.text(c[2]) if len(c) > 2 else None
                    field_decls.append(ast.FieldDecl(self.name(c[0]), self.name(c[1]), flabel, self.span_of(f)))
            else:
                label = self.text(child)
        return ast.EnumDecl(name, label, tuple(field_decls), tuple(members), self.span_of(tree))

    def member(self, tree: Any) -> ast.MemberDecl:
        c = tree.children
        label = None
        fields: list[ast.FieldValue] = []
        aliases: list[ast.Text] = []
        for child in c[1:]:
            data = getattr(child, "data", None)
            if data == "member_body":
                for fv in child.children:
                    fields.append(ast.FieldValue(self.name(fv.children[0]), self.value(fv.children[1]), self.span_of(fv)))
            elif data == "aliases":
                aliases.extend(self.text(a) for a in child.children)
            else:
                label = self.text(child)
        return ast.MemberDecl(self.name(c[0]), label, tuple(fields), tuple(aliases), self.span_of(tree))

    def context(self, tree: Any) -> ast.ContextDecl:
        c = tree.children
        label = self.text(c[2]) if len(c) > 2 else None
        return ast.ContextDecl(self.name(c[0]), self.name(c[1]), label, self.span_of(tree))

    def chart(self, tree: Any) -> ast.ChartDecl:
        chart_id = slug = title = None
        stmts: dict[str, list[Any]] = {}
        for child in tree.children:
            data = getattr(child, "data", None)
            if data == "chart_id":
                chart_id = self.name(child.children[0])
            elif data is None and child.type == "NAME":
                slug = self.name(child)
            elif data is None and child.type == "STRING":
                title = self.text(child)
            else:
                stmts.setdefault(data, []).append(child)
        repeated: list[ast.Span] = []

        def single(kind: str) -> Any:
            found = stmts.get(kind, [])
            repeated.extend(self.span_of(extra) for extra in found[1:])
            return found[0] if found else None

        rule = single("rule")
        roll = single("roll")
        value_key = single("value_key")
        combine = single("combine")
        partial = single("partial")
        modified = single("modified")
        derive = single("derive")
        assert title is not None
        return ast.ChartDecl(
            kind=tree.data,
            chart_id=chart_id,
            slug=slug,
            title=title,
            rule=self.text(rule.children[0]) if rule else None,
            roll=self.dice(roll.children[0]) if roll else None,
            value_key=self.value_key(value_key) if value_key else None,
            keys=tuple(self.key(k) for k in stmts.get("key", [])),
            columns=tuple(self.column(c) for c in stmts.get("column", [])),
            drms=tuple(self.drm(d) for d in stmts.get("drm", [])),
            combine=self.combine(combine) if combine else None,
            footnotes=tuple(self.footnote(f) for f in stmts.get("footnote", [])),
            notes=tuple(self.text(n.children[0]) for n in stmts.get("note", [])),
            partial=self.text(partial.children[0]) if partial else None,
            modified=self.text(modified.children[0]) if modified else None,
            derive=self.derive(derive) if derive else None,
            rows=tuple(self.row(r) for rows in stmts.get("rows", []) for r in rows.children),
            grids=tuple(self.grid(g) for g in stmts.get("grid", [])),
            availability=tuple(self.availability(a) for a in stmts.get("availability", [])),
            repeated=tuple(repeated),
            span=self.span_of(tree),
            allows=tuple(self.allow(a) for a in stmts.get("allow", [])),
        )

    def external(self, tree: Any) -> ast.ChartDecl:
        c = tree.children
        chart_id = self.name(c[0].children[0])
        rest = list(c[1:])
        slug = self.name(rest.pop(0)) if rest and rest[0].type == "NAME" else None
        title = self.text(rest.pop(0))
        notes = (self.text(rest[0]),) if rest else ()
        return ast.ChartDecl(
            kind="external", chart_id=chart_id, slug=slug, title=title, rule=None, roll=None, value_key=None,
            keys=(), columns=(), drms=(), combine=None, footnotes=(), notes=notes, partial=None, modified=None, derive=None, rows=(),
            grids=(), availability=(), repeated=(), span=self.span_of(tree),
        )

    def errata(self, tree: Any) -> ast.ErrataDecl:
        c = tree.children
        source = date = None
        order = None
        overrides: list[ast.Name] = []
        notes: list[ast.Text] = []
        amends: list[ast.AmendDecl] = []
        for stmt in c[2:]:
            if stmt.data == "source":
                source = self.text(stmt.children[0])
            elif stmt.data == "errata_date":
                date = self.text(stmt.children[0])
            elif stmt.data == "errata_order":
                order = int(str(stmt.children[0]))
            elif stmt.data == "errata_overrides":
                overrides.extend(self.name(n) for n in stmt.children)
            elif stmt.data == "note":
                notes.append(self.text(stmt.children[0]))
            else:
                amends.append(self.amend(stmt))
        return ast.ErrataDecl(
            self.name(c[0]), self.text(c[1]), source, date, order, tuple(overrides), tuple(notes), tuple(amends), self.span_of(tree)
        )

    def amend(self, tree: Any) -> ast.AmendDecl:
        c = tree.children
        return ast.AmendDecl(self._chart_name(c[0]), tuple(self.amend_op(op) for op in c[1:]), self.span_of(tree))

    def amend_op(self, tree: Any) -> ast.AmendOp:
        kind = tree.data.removeprefix("op_")
        row = column = value = new_range = text = because = None
        ref_keys: tuple[ast.KeyValueText, ...] = ()
        ref_range = None
        for child in tree.children:
            data = getattr(child, "data", None)
            if data == "row":
                row = self.row(child)
            elif data == "row_ref":
                keys = [self.key_value(k) for k in child.children if getattr(k, "data", None) == "key_value"]
                ref_keys = tuple(keys)
                ranges = [k for k in child.children if getattr(k, "type", None) == "RANGE"]
                ref_range = ast.RangeText(str(ranges[0]), self.span_of(ranges[0])) if ranges else None
            elif data == "because":
                because = self.text(child.children[0])
            elif data == "value":
                value = self.value(child)
            elif getattr(child, "type", None) == "NAME":
                column = self.name(child)
            elif getattr(child, "type", None) == "RANGE":
                new_range = ast.RangeText(str(child), self.span_of(child))
            elif getattr(child, "type", None) == "STRING":
                text = self.text(child)
        return ast.AmendOp(kind, row, ref_keys, ref_range, column, value, new_range, text, because, self.span_of(tree))

    def _chart_name(self, node: Any) -> ast.Name:
        if getattr(node, "data", None) == "chart_id":
            return self.name(node.children[0])
        return self.name(node)

    def derive(self, tree: Any) -> ast.DeriveDecl:
        c = tree.children
        shift = int(str(c[1])) if len(c) > 1 else 0
        return ast.DeriveDecl(self._chart_name(c[0]), shift, self.span_of(tree))

    def invariant(self, tree: Any) -> ast.InvariantDecl:
        c = tree.children
        name, text = self.name(c[0]), self.text(c[1])
        if tree.data == "inv_count_all":
            enum, count = c[2], c[3]
            return ast.InvariantDecl("count", name, text, (self.name(enum),), None, int(str(count)), self.span_of(tree))
        if tree.data == "inv_count":
            enum, field, value, count = c[2], c[3], c[4], c[5]
            return ast.InvariantDecl("count", name, text, (self.name(enum), self.name(field)), self.value(value), int(str(count)), self.span_of(tree))
        chart, part, enum, field = c[2], c[3], c[4], c[5]
        return ast.InvariantDecl(
            "column_sum", name, text, (self._chart_name(chart), self.name(enum), self.name(field)), None, int(str(part)), self.span_of(tree)
        )

    def odds(self, tree: Any) -> ast.OddsDecl:
        chart_id = None
        rest = list(tree.children)
        if getattr(rest[0], "data", None) == "chart_id":
            chart_id = self.name(rest.pop(0).children[0])
        name = self.name(rest.pop(0))
        title = self.text(rest.pop(0))
        found: dict[str, list[Any]] = {}
        for stmt in rest:
            found.setdefault(stmt.data, []).append(stmt)
        repeated = [self.span_of(x) for kind, items in found.items() if kind != "note" for x in items[1:]]

        def first(*kinds: str) -> Any:
            items = [x for k in kinds for x in found.get(k, [])]
            if len(items) > 1 and len(kinds) > 1:
                repeated.extend(self.span_of(x) for x in items[1:])
            return items[0] if items else None

        rule = first("rule")
        columns = first("odds_columns")
        att = first("round_attacker_high")
        dfn = first("round_defender_high")
        beyond = first("beyond_clamp", "beyond_error")
        shift = first("shift_before_clamp", "shift_after_clamp")
        return ast.OddsDecl(
            chart_id=chart_id,
            name=name,
            title=title,
            rule=self.text(rule.children[0]) if rule else None,
            notes=tuple(self.text(n.children[0]) for n in found.get("note", [])),
            columns=tuple(self.text(c) for c in columns.children) if columns else (),
            attacker_round=att.children[0].data.removeprefix("round_") if att else None,
            defender_round=dfn.children[0].data.removeprefix("round_") if dfn else None,
            beyond=beyond.data.removeprefix("beyond_") if beyond else None,
            shift_order=shift.data.removeprefix("shift_").removesuffix("_clamp") if shift else None,
            repeated=tuple(sorted(set(repeated))),
            span=self.span_of(tree),
        )

    def allow(self, tree: Any) -> ast.AllowDecl:
        c = tree.children
        return ast.AllowDecl(self.name(c[0]), self.text(c[1]), self.span_of(tree))

    def dice(self, tree: Any) -> ast.DiceDecl:
        span = self.span_of(tree)
        c = tree.children
        if tree.data == "dice_d66":
            return ast.DiceDecl("d66", 2, 6, 0, 0, "d66", span)
        if tree.data == "dice_percentile":
            return ast.DiceDecl("percentile", 2, 10, 0, 0, "percentile", span)
        count, sides = _split_dice(str(c[0]), self.span_of(c[0]))
        if tree.data == "dice_lower":
            return ast.DiceDecl("lower", count, sides, 0, 0, f"lower of {c[0]}", span)
        if tree.data == "dice_minus":
            sub, floor = int(c[1]), int(c[2])
            return ast.DiceDecl("minus", count, sides, sub, floor, f"{c[0]} minus {sub} min {floor}", span)
        return ast.DiceDecl("sum", count, sides, 0, 0, f"{count}d{sides}", span)

    def value_key(self, tree: Any) -> ast.ValueKeyDecl:
        c = tree.children
        label = self.text(c[1]) if len(c) == 3 else None
        rng = c[-1]
        return ast.ValueKeyDecl(self.name(c[0]), label, ast.RangeText(str(rng), self.span_of(rng)), self.span_of(tree))

    def key(self, tree: Any) -> ast.KeyDecl:
        c = tree.children
        name = self.name(c[0])
        return ast.KeyDecl(name, self.name(c[1]) if len(c) > 1 else name, self.span_of(tree))

    def column(self, tree: Any) -> ast.ColumnDecl:
        c = tree.children
        label = self.text(c[2]) if len(c) > 2 else None
        return ast.ColumnDecl(self.name(c[0]), self.name(c[1]), label, self.span_of(tree))

    def drm(self, tree: Any) -> ast.DrmDecl:
        c = list(tree.children)
        name = self.name(c.pop(0))
        label = self.text(c.pop(0)) if c and getattr(c[0], "type", None) == "STRING" else None
        value_tok = c.pop(0)
        when = None
        footnote = None
        for rest in c:
            if getattr(rest, "type", None) == "INT":
                footnote = int(rest)
            else:
                when = self.cond(rest)
        return ast.DrmDecl(name, label, int(str(value_tok)), self.span_of(value_tok), when, footnote, self.span_of(tree))

    def cond(self, node: Any) -> ast.Cond:
        span = self.span_of(node)
        if getattr(node, "data", None) is None:  # a bare NAME folded by `?` rules
            return ast.CondFlag(self.name(node), span)
        c = node.children
        if node.data == "cond_flag":
            return ast.CondFlag(self.name(c[0]), span)
        if node.data == "cond_compare":
            return ast.CondCompare(self.name(c[0]), str(c[1]), self.operand(c[2]), span)
        if node.data == "cond_in":
            return ast.CondIn(self.name(c[0]), tuple(self.operand(o) for o in c[1:]), span)
        if node.data == "cond_not":
            return ast.CondNot(self.cond(c[0]), span)
        if node.data == "and_cond":
            return ast.CondAll(tuple(self.cond(p) for p in c), span)
        if node.data == "or_cond":
            return ast.CondAny(tuple(self.cond(p) for p in c), span)
        raise _BuildError(f"unsupported condition `{node.data}`", span)  # pragma: no cover

    def operand(self, tree: Any) -> ast.Operand:
        tok = tree.children[0]
        kind = {"MONTH": "month", "INT": "int", "DRM_VALUE": "int", "NAME": "name", "STRING": "text"}[tok.type]
        text = _unquote(str(tok), self.span_of(tok)) if kind == "text" else str(tok)
        return ast.Operand(kind, text, self.span_of(tok))

    def combine(self, tree: Any) -> ast.CombineDecl:
        c = tree.children
        if len(c) == 2:
            return ast.CombineDecl(int(str(c[0])), int(str(c[1])), self.span_of(tree))
        return ast.CombineDecl(None, None, self.span_of(tree))

    def footnote(self, tree: Any) -> ast.FootnoteDecl:
        c = tree.children
        return ast.FootnoteDecl(int(str(c[0])), self.text(c[1]), self.span_of(tree))

    def key_value(self, tree: Any) -> ast.KeyValueText:
        tok = tree.children[0]
        if getattr(tok, "data", None) is not None:
            return self.month_span(tok)
        span = self.span_of(tok)
        if tok.type == "STRING":
            return ast.KeyValueText("text", _unquote(str(tok), span), span)
        if tok.type == "STAR":
            return ast.KeyValueText("any", "*", span)
        return ast.KeyValueText("name", str(tok), span)

    def month_span(self, tree: Any) -> ast.KeyValueText:
        c = [str(t) for t in tree.children]
        span = self.span_of(tree)
        if tree.data == "month_one":
            return ast.KeyValueText("months", c[0], span, c[0], c[0])
        if tree.data == "month_between":
            return ast.KeyValueText("months", f"{c[0]}..{c[1]}", span, c[0], c[1])
        return ast.KeyValueText("months", f"{c[0]}+", span, c[0], None)

    def value(self, tree: Any) -> ast.ValueText:
        tok = tree.children[0]
        if getattr(tok, "data", None) == "chart_id":
            inner = tok.children[0]
            return ast.ValueText("chart", str(inner), self.span_of(tok))
        span = self.span_of(tok)
        kind = {
            "STRING": "text", "INT": "int", "DRM_VALUE": "int", "NAME": "name", "DASH": "none",
            "SLASHED": "slashed", "MONTH": "month",
        }[tok.type]
        text = _unquote(str(tok), span) if kind == "text" else str(tok)
        return ast.ValueText(kind, text, span)

    def row(self, tree: Any) -> ast.RowDecl:
        keys, values = [], []
        rng = None
        for child in tree.children:
            data = getattr(child, "data", None)
            if data == "key_value":
                keys.append(self.key_value(child))
            elif data == "value":
                values.append(self.value(child))
            else:
                rng = ast.RangeText(str(child), self.span_of(child))
        return ast.RowDecl(tuple(keys), rng, tuple(values), self.span_of(tree))

    def grid(self, tree: Any) -> ast.GridDecl:
        c = tree.children
        columns = tuple(self.key_value(k) for k in c[1:] if getattr(k, "data", None) == "key_value")
        rows = tuple(self.grid_row(r) for r in c[1:] if getattr(r, "data", None) == "grid_row")
        return ast.GridDecl(self.name(c[0]), columns, rows, self.span_of(tree))

    def grid_row(self, tree: Any) -> ast.GridRowDecl:
        values, cells = [], []
        for child in tree.children:
            if child.data == "value":
                values.append(self.value(child))
            else:
                tok = child.children[0]
                rng = ast.RangeText(str(tok), self.span_of(tok)) if tok.type == "RANGE" else None
                cells.append(ast.CellText(rng, self.span_of(child)))
        return ast.GridRowDecl(tuple(values), tuple(cells), self.span_of(tree))


    def availability(self, tree: Any) -> ast.AvailabilityDecl:
        c = tree.children
        columns = tuple(self.key_value(k) for k in c[2:] if getattr(k, "data", None) == "key_value")
        rows = []
        for r in c[2:]:
            if getattr(r, "data", None) != "avail_row":
                continue
            key = self.key_value(r.children[0])
            cells = []
            for cell in r.children[1:]:
                tok = cell.children[0]
                cspan = self.span_of(tok)
                if tok.type == "RANGE":
                    cells.append(ast.AvailCell("range", ast.RangeText(str(tok), cspan), cspan))
                else:
                    cells.append(ast.AvailCell("auto" if tok.type == "CHECK" else "none", None, cspan))
            rows.append(ast.AvailRowDecl(key, tuple(cells), self.span_of(r)))
        return ast.AvailabilityDecl(self.name(c[0]), self.name(c[1]), columns, tuple(rows), self.span_of(tree))


def _split_dice(text: str, span: ast.Span) -> tuple[int, int]:
    count_text, _, sides_text = text.partition("d")
    count = int(count_text) if count_text else 1
    return count, int(sides_text)


def _unquote(literal: str, span: ast.Span) -> str:
    """Decode a double-quoted literal using Python's escapes (`\\"`, `\\\\`, `\\n`, `\\u00e9`)."""
    try:
        value = _pyast.literal_eval(literal)
    except (ValueError, SyntaxError) as exc:
        raise _BuildError(
            f"invalid escape in string {_clip(literal)}",
            span,
            "use `\\\\` for a backslash and `\\\"` for a quote",
        ) from exc
    if not isinstance(value, str):  # pragma: no cover - the STRING terminal guarantees a str
        raise _BuildError("expected a string", span)
    surrogate = next((ch for ch in value if "\ud800" <= ch <= "\udfff"), None)
    if surrogate is not None:
        raise _BuildError(
            f"`\\u{ord(surrogate):04x}` in string {_clip(literal)} is half of a UTF-16 pair, not a character",
            span,
            "write the character itself, or its code point as `\\U0001f600`",
        )
    return value
