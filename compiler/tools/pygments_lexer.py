"""A Pygments lexer for `.chart` files, registered as the `chart` plugin (`pygmentize -l chart`).

Its keywords are read from `dsl/chart.lark` (`dsl.keywords`), so a keyword added to the grammar is
coloured here at once; the rest follows the grammar's terminals: `#` comments, double-quoted
strings, `[B6]` chart IDs (and footnote marks `[1]`, which look the same), dice (`2d6`),
months (`1944-07`), days (`1944-06-07`), DRMs (`+1`), ranges (`3-6`, `12+`).
Pygments is not a dependency of chartc: Pygments imports this module only when it is installed.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from dsl.keywords import grammar_keywords

_WORD_END = r"(?![A-Za-z0-9_])"


class ChartLexer(RegexLexer):  # type: ignore[misc]  # Pygments is untyped
    """chartc's chart language."""

    name = "Chart"
    aliases: ClassVar[list[str]] = ["chart", "chartc"]
    filenames: ClassVar[list[str]] = ["*.chart"]
    mimetypes: ClassVar[list[str]] = ["text/x-chart"]
    url = "https://github.com/chartc/chartc"

    tokens: ClassVar[dict[str, list[tuple[object, ...]]]] = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            (r"\[[A-Za-z0-9][A-Za-z0-9_.\-]*\]", Name.Label),
            # a word before `:` is a name even when it is a keyword elsewhere (`column result: text`)
            (r"[A-Za-z_][A-Za-z0-9_]*(?=[ \t]*:)", Name.Variable),
            (words(grammar_keywords(), prefix=r"(?<![A-Za-z0-9_])", suffix=_WORD_END), Keyword),
            (r"[0-9]{4}-[0-9]{2}-[0-9]{2}" + _WORD_END, Number.Other),  # a turn's day `1944-06-07`
            (r"[0-9]{4}-[0-9]{2}" + _WORD_END, Number.Other),
            (r"[0-9]*d[0-9]+" + _WORD_END, Keyword.Type),
            (r"(?<![A-Za-z0-9_])[+-][0-9]+" + _WORD_END, Number.Integer),
            (r"-?[0-9]+(?:(?:-|/)-?[0-9]*)*\+?", Number.Integer),
            (r"==|!=|>=|<=|->|[<>=*]", Operator),
            (r"✓", Keyword.Constant),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"[{}\[\](),:;/-]", Punctuation),
            (r".", Text),
        ]
    }
