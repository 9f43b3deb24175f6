"""Colouring of `.chart` files: the TextMate grammar of editors/vscode kept in sync with
dsl/chart.lark, the VS Code language configuration, and the Pygments `chart` lexer plugin."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dsl.keywords import grammar_keywords, grammar_text, keywords_of
from tests.conftest import CHARTS, ROOT

VSCODE = ROOT / "editors" / "vscode"
TM_GRAMMAR = VSCODE / "syntaxes" / "chart.tmLanguage.json"


def _rule(grammar: dict[str, Any], pattern: dict[str, Any]) -> dict[str, Any]:
    """A pattern with its `include` followed into the repository."""
    include = pattern.get("include")
    return grammar["repository"][include[1:]] if include else pattern


def scope_of(grammar: dict[str, Any], word: str) -> str | None:
    """The scope the TextMate grammar gives `word` written alone: as a TextMate engine picks it,
    the first top-level pattern (in order) that matches at the word's start, if it covers it all."""
    for pattern in grammar["patterns"]:
        rule = _rule(grammar, pattern)
        found = re.match(rule.get("match") or rule["begin"], word)
        if found is None:
            continue
        end = found.end()
        if "begin" in rule:  # a begin/end rule (a string) runs to the first match of its end
            closing = re.compile(rule["end"]).search(word, end)
            end = closing.end() if closing else len(word)
        return str(rule["name"]) if end == len(word) else None
    return None


def uncoloured(lark_grammar: str, tm_grammar: dict[str, Any]) -> list[str]:
    """The keywords of a lark grammar text that the TextMate grammar does not colour as keywords."""
    return [k for k in keywords_of(lark_grammar) if not (scope_of(tm_grammar, k) or "").startswith("keyword.")]


@pytest.fixture(scope="module")
def tm() -> dict[str, Any]:
    grammar: dict[str, Any] = json.loads(TM_GRAMMAR.read_text(encoding="utf-8"))
    return grammar


def test_every_keyword_of_the_grammar_is_coloured(tm: dict[str, Any]) -> None:
    assert len(grammar_keywords()) > 100  # chart.lark's quoted words: `chart`, `roll`, `high_rolls`, ...
    assert uncoloured(grammar_text(), tm) == []


def test_a_keyword_added_to_the_grammar_without_colouring_is_caught(tm: dict[str, Any]) -> None:
    grown = grammar_text() + '\nsurge: "surge" NAME  // a new statement nobody coloured\n'
    assert uncoloured(grown, tm) == ["surge"]


def test_the_textmate_grammar_tells_the_terminals_apart(tm: dict[str, Any]) -> None:
    # as written in charts/ia2: a comment, a chart ID, dice, a month, a DRM, a range, an open end
    assert scope_of(tm, "# IA2 7.1.10") == "comment.line.number-sign.chart"
    assert scope_of(tm, '"Escape Chart"') == "string.quoted.double.chart"
    assert scope_of(tm, "[R4]") == "entity.name.tag.chart-id.chart"
    assert scope_of(tm, "2d6") == "support.type.dice.chart"
    assert scope_of(tm, "1944-07") == "constant.numeric.month.chart"
    assert scope_of(tm, "+1") == "constant.numeric.drm.chart"
    assert scope_of(tm, "3-6") == scope_of(tm, "12+") == "constant.numeric.range.chart"
    assert scope_of(tm, "piston") == "variable.other.chart"
    assert scope_of(tm, "result: text") is None  # a keyword before `:` is a name: the field rule takes it
    assert re.match(_rule(tm, {"include": "#field-name"})["match"], "result: text")


def test_the_language_configuration_has_comments_brackets_and_quotes() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    [language] = package["contributes"]["languages"]
    assert language["extensions"] == [".chart"]
    config = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"] == {"lineComment": "#"}  # chart.lark: COMMENT: /#[^\n]*/
    assert ["{", "}"] in config["brackets"] and ["[", "]"] in config["brackets"]
    assert {"open": '"', "close": '"', "notIn": ["string", "comment"]} in config["autoClosingPairs"]
    [grammar] = package["contributes"]["grammars"]
    assert (VSCODE / grammar["path"]).resolve() == TM_GRAMMAR.resolve()


def test_the_extension_client_starts_chartc_lsp() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert package["contributes"]["configuration"]["properties"]["chartc.command"]["default"] == ["chartc", "lsp"]
    client = (VSCODE / package["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in client and "TransportKind.stdio" in client


# ---- Pygments ----------------------------------------------------------------------------------


def test_the_pygments_plugin_colours_a_chart_without_errors() -> None:
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Error, Keyword, Name, Number, String

    lexer = get_lexer_by_name("chart")  # found through the `pygments.lexers` entry point
    text = (CHARTS / "ia2" / "combat.chart").read_text(encoding="utf-8")
    tokens = list(lexer.get_tokens(text))
    assert [t for t in tokens if t[0] in Error] == []
    # IA2 R4: `chart [R4] escape "Escape Chart" {` then `roll 1d6`
    words = [(kind, value) for kind, value in tokens if value.strip()]
    assert words[words.index((Keyword, "chart")) + 1 :][:3] == [
        (Name.Label, "[R4]"), (Name, "escape"), (String.Double, '"Escape Chart"')
    ]
    assert (Keyword.Type, "1d6") in words and (Number.Integer, "3-6") in words
    assert (Name.Variable, "result") in words  # `column result: text`: a name, though `result` is a keyword


def test_the_pygments_lexer_reads_every_chart_file_without_an_error_token() -> None:
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Error

    lexer = get_lexer_by_name("chart")
    for path in sorted(CHARTS.glob("*/*.chart")):
        bad = [v for t, v in lexer.get_tokens(path.read_text(encoding="utf-8")) if t in Error]
        assert bad == [], path


def test_pygmentize_knows_the_chart_lexer(tmp_path: Path) -> None:
    pygmentize = shutil.which("pygmentize")
    if pygmentize is None:
        pytest.skip("pygmentize is not on PATH")
    source = tmp_path / "r4.chart"
    source.write_text('chart [R4] escape "Escape Chart" {\n  roll 1d6\n}\n', encoding="utf-8")
    html = subprocess.run(
        [pygmentize, "-l", "chart", "-f", "html", str(source)], capture_output=True, text=True, check=True
    ).stdout
    assert '<span class="k">chart</span>' in html and '<span class="nl">[R4]</span>' in html
