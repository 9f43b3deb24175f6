"""The keywords of the chart language: every quoted word of `chart.lark`.

The grammar writes keywords as string literals (`"chart"`, `"roll"`), so the contextual lexer
folds them out of NAME; this reads them back for editor completion and for the test that the
highlighting grammars colour every one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

GRAMMAR_FILE = "chart.lark"

# a string literal of the grammar that is a word (`"chart"`, `"high_rolls"`), not punctuation
_KEYWORD = re.compile(r'"([a-z][a-z0-9_]*)"i?')
_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)


def grammar_text() -> str:
    """The text of `dsl/chart.lark` as installed."""
    return files("dsl").joinpath(GRAMMAR_FILE).read_text(encoding="utf-8")


def keywords_of(grammar: str) -> list[str]:
    """The keywords of a grammar text, sorted; comments are skipped."""
    return sorted(set(_KEYWORD.findall(_COMMENT.sub("", grammar))))


@lru_cache(maxsize=1)
def grammar_keywords() -> tuple[str, ...]:
    """The keywords of the installed grammar."""
    return tuple(keywords_of(grammar_text()))
