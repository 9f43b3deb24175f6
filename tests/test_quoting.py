"""Every place that writes chart text writes it through `dsl.source_text.quote`: a chained cell's
canonical text (`dsl/builder/values.py`), a quick fix (`compiler/diagnostics/fixes.py`) and a draft
of `chartc import` (`compiler/tools/table_import.py`). Text holding a quote, a backslash or a line
break must read back as itself; before, the chain text and the import draft escaped only the quote
and the backslash, so a cell with a line break in a spreadsheet wrote a draft that did not parse.
"""

from __future__ import annotations

import re
from pathlib import Path

from compiler.build.project import load
from compiler.tools.table_import import draft, read_table
from dsl import ast
from dsl.parser import parse_text
from dsl.source_text import name_or_quote, quote
from tests.conftest import ROOT

# A label as a spreadsheet cell may hold it: quotes, a backslash, a line break, a tab, a control character
AWKWARD = 'Safe "escape"\nback to base \\ (see\trule 7.1.10)\x07'


def _cells(source: ast.SourceFile) -> list[ast.ValueText]:
    """Every cell value of every chart's rows in `source`."""
    return [value for chart in source.charts for row in chart.rows for value in row.values]


def test_name_or_quote_leaves_a_name_bare_and_quotes_the_rest() -> None:
    assert name_or_quote("piston") == "piston"
    assert name_or_quote("Piston-engined") == '"Piston-engined"'
    assert name_or_quote("1944") == '"1944"'  # a number is not a NAME where a name may stand
    assert name_or_quote(AWKWARD) == quote(AWKWARD)


def test_a_chained_cell_writes_its_key_values_and_cells_through_quote() -> None:
    # IA2 R4-style chain: `-> [B6]` with a key value that is a label, and a roll in a cell
    label = quote(AWKWARD)
    source = (
        'chart [R1] first "First" {\n  roll 1d6\n  column result: text "Result"\n  rows {\n'
        f"    1-3: -> [B6] (interceptor={label}, side=jet, +1)\n"
        f"    4-6: -> 1d6 {{ 1-3: {label}; 4-6: 7 }}\n"
        "  }\n}\n"
    )
    parsed = parse_text(source, "t.chart")
    assert parsed.errors == [] and parsed.source is not None
    chained = [v.text for v in _cells(parsed.source)]
    assert chained == [
        f"-> [B6] (interceptor={label}, side=jet, +1)",
        f"-> 1d6 {{ 1-3: {label}; 4-6: 7 }}",
    ]
    # the canonical text is chart text: written back as a cell, it parses to the same chain
    again = parse_text(source.replace("1-3: ->", "1-3: " + chained[0] + " #", 1), "t.chart")
    assert again.source is not None and [v.text for v in _cells(again.source)] == chained


def test_an_imported_cell_with_a_line_break_drafts_a_chart_that_reads_back(tmp_path: Path) -> None:
    # IA2 R4 retyped in a spreadsheet, one result cell wrapped onto two lines (Alt+Enter)
    escaped = AWKWARD.replace('"', '""')
    csv = f'interceptor,1d6,Result\npiston,1-2,"{escaped}"\npiston,3-6,Combat\n'
    result = draft(read_table(Path("r4.csv"), csv.encode("utf-8")), "r4", 'Escape "Chart"')
    assert result.findings == ()
    assert f"    piston 1-2: {quote(AWKWARD)}" in result.text.splitlines()
    game = tmp_path / "drafts"
    game.mkdir()
    (game / "game.chart").write_text('game drafts {\n  title "Drafts"\n}\n', encoding="utf-8")
    (game / "r4.chart").write_text(result.text, encoding="utf-8")
    comp = load([game])
    assert [d.code for d in comp.diagnostics if d.severity.value == "error"] == []
    r4 = comp.project.games["drafts"].chart("r4")
    assert r4 is not None and r4.title == 'Escape "Chart"'
    assert [str(row.values[0]) for row in r4.rows] == [AWKWARD, "Combat"]


def test_no_other_module_escapes_a_quote_by_hand() -> None:
    # a hand-written escape (`.replace('"', '\\"')`) is how the two copies above looked
    by_hand = re.compile(r"""\.replace\(\s*(?:'"'|"\\"")""")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("dsl", "compiler")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_hand.search(line)
    ]
    assert found == []
