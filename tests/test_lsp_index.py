"""The language server's answers without a client: positions, names, chances, completion, fixes.

`compiler.lsp.index` and `compiler.lsp.positions` are plain Python over chartc's own check, so
they are tested in-process here; tests/test_lsp.py drives the real server over stdio.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import display_path
from compiler.cli import cli
from compiler.lsp.index import GameIndex, Kind
from compiler.lsp.positions import Position, from_utf16, lines_of, span_range, to_utf16
from compiler.lsp.workspace import check_game
from dsl.ast import Span
from tests.conftest import ROOT

DEMO = ROOT / "tests" / "data" / "lsp" / "lspdemo"


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "lspdemo"
    shutil.copytree(DEMO, folder)
    return folder


def _index(folder: Path, unsaved: dict[Path, str] | None = None) -> GameIndex:
    check = check_game(folder, unsaved or {})
    assert check is not None
    return GameIndex(check)


# ---- positions --------------------------------------------------------------------------------


def test_utf16_columns_count_an_astral_character_twice() -> None:
    # the demo's title line: `Zürich` (ü is one UTF-16 unit), then 𝔄 (U+1D504, a surrogate pair)
    lines = lines_of('game x {\n  title "Zürich 𝔄 demo"\n}')
    assert to_utf16(lines, 2, 11) == Position(1, 10)  # `ü` at character 10 is unit 10: same count
    assert to_utf16(lines, 2, 17) == Position(1, 16)  # 𝔄 itself starts at unit 16
    assert to_utf16(lines, 2, 18) == Position(1, 18)  # the space after 𝔄: units 16 and 17 were 𝔄
    assert from_utf16(lines, Position(1, 18)) == (2, 18)
    assert from_utf16(lines, Position(1, 17)) == (2, 18)  # inside the pair: the next character
    assert from_utf16(lines, Position(1, 99)) == (2, 24)  # past the line's end (23 characters): its end
    assert from_utf16(lines, Position(7, 0)) == (3, 2)  # past the text's end: the end of the text
    assert to_utf16(lines, 9, 1) == Position(2, 1)  # an end-of-file span


def test_a_span_range_converts_both_ends() -> None:
    lines = lines_of('  drm storm "Stürm 𝔄" +1 when sky == stormy')
    assert span_range(lines, Span("f", 1, 38, 1, 44)).start == Position(0, 38)
    assert span_range(lines, Span("f", 1, 38, 1, 44)).end == Position(0, 44)


# ---- names ------------------------------------------------------------------------------------


def test_references_of_a_member_cover_its_declaration_rows_and_conditions(game: Path) -> None:
    index = _index(game)
    combat = display_path(game / "combat.chart")
    found = index.references(combat, 10, 6)  # `storm` of the row `storm 1-5: "Miss"`
    where = [(Path(s.file).name, s.line, s.col) for s in found]
    # declared in game.chart line 10; keys of combat.chart rows 10 and 11 (the DRM named `storm`
    # on line 6 is a DRM's name, not the member, and `stormy` is another name)
    assert where == [("combat.chart", 10, 5), ("combat.chart", 11, 5), ("game.chart", 10, 3)]
    assert index.references(combat, 10, 6, with_declaration=False)[-1].file == combat


def test_a_chart_reference_and_an_aid_order_line_lead_to_the_chart(game: Path) -> None:
    (game / "aid.order").write_text("== Combat\nA2\nA1\n", encoding="utf-8")
    index = _index(game)
    combat = display_path(game / "combat.chart")
    [target] = index.definition(combat, 20, 11)  # `6:   [A1]` in chart A2
    assert (target.kind, target.name, target.span.line, target.span.col) == (Kind.CHART, "A1", 1, 8)
    [by_order] = index.definition(display_path(game / "aid.order"), 3, 1)
    assert by_order == target
    assert {(Path(s.file).name, s.line) for s in index.references(combat, 1, 8)} == {
        ("combat.chart", 1), ("combat.chart", 20), ("aid.order", 3)
    }


def test_a_context_variable_in_a_condition_leads_to_its_context_line(game: Path) -> None:
    index = _index(game)
    [decl] = index.definition(display_path(game / "combat.chart"), 6, 32)  # `sky` in `when sky == stormy`
    assert (decl.kind, Path(decl.span.file).name, decl.span.line) == (Kind.CONTEXT, "game.chart", 14)
    hover = index.hover(display_path(game / "combat.chart"), 6, 32)
    assert hover is not None and '**context variable** `sky`: enum "Weather over the target"' in hover


def test_a_period_used_as_a_key_leads_to_its_period_line(game: Path) -> None:
    # periods as Stuka Leader declares them (`period y1936_1941 "1936 - 1941" 1936 to 1941`) and a
    # chart keyed by them, all in unsaved buffers; the new file is on disk so the folder lists it
    header = game / "game.chart"
    periods = '  period early "1939 - 1941" 1939 to 1941\n  period late "1942 - 1945" 1942 to 1945\n'
    title = '  title "Zürich 𝔄 demo"\n'
    text = header.read_text(encoding="utf-8").replace(title, title + periods)
    dated = game / "dated.chart"
    dated.write_text("", encoding="utf-8")
    chart = 'chart pilots "Pilots" {\n  key period\n  column count: int "Pilots"\n'
    chart += "  rows {\n    early: 3\n    late:  5\n  }\n}\n"
    index = _index(game, {header: text, dated: chart})
    assert [d.code for d in index.check.compilation.diagnostics if d.span.file.endswith("dated.chart")] == []
    [decl] = index.definition(display_path(dated), 6, 5)  # `late` of the row `late:  5`
    assert (decl.kind, Path(decl.span.file).name, decl.span.line, decl.span.col) == (Kind.PERIOD, "game.chart", 7, 10)
    hover = index.hover(display_path(dated), 6, 5)
    assert hover is not None and hover.startswith('**period** `late` "1942 - 1945"')


def test_unsaved_text_is_checked_with_the_files_beside_it(game: Path) -> None:
    # the open game.chart buffer declares `stormy`; combat.chart on disk uses it: no C201 left
    declared = (game / "game.chart").read_text(encoding="utf-8")
    text = declared.replace('  storm "Storm"\n', '  storm "Storm"\n  stormy "Gale"\n')
    index = _index(game, {game / "game.chart": text})
    assert "C201" not in [d.code for d in index.check.compilation.diagnostics]
    assert "C201" in [d.code for d in _index(game).check.compilation.diagnostics]


# ---- hover, completion, outline ----------------------------------------------------------------


def test_hover_on_a_row_gives_the_natural_chance_and_the_drm_totals_reaching_it(game: Path) -> None:
    index = _index(game)
    combat = display_path(game / "combat.chart")
    # `clear 0-3: "Miss"` on 1d6: 1-3 natural = 1/2; the storm DRM's condition names an unknown value
    # (`stormy`, the demo's C201) so it can never hold, and the night -1 is the only DRM
    text = index.hover(combat, 8, 12)
    assert text is not None
    assert "natural roll: **50% (1/2)**" in text
    assert "selected under DRM totals -1 to 0 (declared span: DRM -1 to 0)" in text


def test_drm_totals_are_written_signed_in_runs() -> None:
    from compiler.lsp.index import totals_text

    assert totals_text([-1, 0, 1]) == "-1 to +1"
    assert totals_text([-2, 0, 1, 2, 3]) == "-2, 0 to +3"
    assert totals_text([2]) == "+2"


def test_hover_on_a_diagnostic_code_is_chartc_explain(game: Path) -> None:
    combat = game / "combat.chart"
    allow = '  roll 1d6\n  allow C305 "night rolls"\n  key'
    text = combat.read_text(encoding="utf-8").replace("  roll 1d6\n  key", allow, 1)
    index = _index(game, {combat: text})
    hover = index.hover(display_path(combat), 3, 10)
    assert hover is not None and hover.startswith("**C305** `modified-roll-off-table`")


def test_completion_after_a_bracket_offers_chart_ids(game: Path) -> None:
    index = _index(game)
    combat = display_path(game / "combat.chart")
    assert [label for label, _ in index.completions(combat, 20, 11)] == ["A1", "A2"]  # after `6:   [`
    assert [label for label, _ in index.completions(combat, 20, 12)] == ["A1", "A2"]  # after `6:   [A`
    everything = [label for label, _ in index.completions(combat, 2, 3)]
    assert {"roll", "drm", "when", "high_rolls"} <= set(everything) and "clear" in everything


def test_the_outline_lists_the_charts_of_a_file(game: Path) -> None:
    index = _index(game)
    symbols = index.symbols(display_path(game / "combat.chart"))
    assert [(s.kind, s.name, s.detail) for s in symbols] == [
        (Kind.CHART, "[A1] attack", "Angriff über Zürich"),
        (Kind.CHART, "[A2] follow_up", "Nachschlag"),
    ]


# ---- code actions -------------------------------------------------------------------------------


def test_fixes_are_the_findings_own_fixes(game: Path) -> None:
    combat = game / "combat.chart"
    text = combat.read_text(encoding="utf-8").replace('    storm 6:   "Hit"', '    storm 6-8: "Hit"')
    index = _index(game, {combat: text})
    fixes = index.fixes(index.check.compilation.diagnostics)
    # C305: the night DRM (-1) takes a storm roll of 1 to 0, below the lowest row `storm 1-5` (its
    # fix opens that row: `5-`); C201 `stormy`, closest `storm`; C303 `6-8`, past 1d6's faces: `6+`.
    # Each is a guess at the intent (unsafe), so none is the preferred action.
    edits = [(f.diagnostic.code, [(e.span.line, e.span.col, e.span.end_col, e.text) for e in f.edits]) for f in fixes]
    assert edits == [
        ("C305", [(10, 11, 14, "5-")]),
        ("C201", [(6, 38, 44, "storm")]),
        ("C303", [(11, 11, 14, "6+")]),
    ]
    assert [f.title for f in fixes] == [
        "make the range open-ended: `5-`", "replace `stormy` with `storm`", "make the range open-ended: `6+`"
    ]
    assert not any(f.preferred for f in fixes)


def test_a_fix_that_blanks_its_line_deletes_the_line(game: Path) -> None:
    combat = game / "combat.chart"
    # an `allow` that silences nothing (C501): its safe fix deletes the statement, and with it the line
    text = combat.read_text(encoding="utf-8").replace("  roll 1d6\n", '  roll 1d6\n  allow C430 "no CRT here"\n', 1)
    index = _index(game, {combat: text})
    [fix] = [f for f in index.fixes(index.check.compilation.diagnostics) if f.diagnostic.code == "C501"]
    assert fix.preferred and fix.title == "delete `allow C430`"
    assert [(e.span.line, e.span.col, e.span.end_line, e.span.end_col, e.text) for e in fix.edits] == [(3, 1, 4, 1, "")]


def test_lsp_without_the_extra_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` now raises ImportError
    result = CliRunner().invoke(cli, ["lsp"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "chartc lsp needs the `lsp` extra (pygls is not installed): pip install 'chartc[lsp]'"
    ]


def test_a_quick_fix_writes_a_label_quoted(game: Path) -> None:
    # a row keyed by the printed label, misspelt: the closest spelling is the label `Storm front`,
    # which only a string can say (the old quick fix wrote it bare and broke the file)
    header, combat = game / "game.chart", game / "combat.chart"
    labelled = header.read_text(encoding="utf-8").replace('storm "Storm"', 'storm "Storm front"')
    text = combat.read_text(encoding="utf-8").replace('    storm 1-5: "Miss"', '    "Storm fron" 1-5: "Miss"')
    index = _index(game, {header: labelled, combat: text})
    [fix] = [f for f in index.fixes(index.check.compilation.diagnostics) if f.diagnostic.code == "C201"
             and "`Storm fron`" in f.diagnostic.message]
    assert [(e.span.line, e.span.col, e.span.end_col, e.text) for e in fix.edits] == [(10, 5, 17, '"Storm front"')]
    fixed = text.replace('"Storm fron"', '"Storm front"')
    after = _index(game, {header: labelled, combat: fixed}).check.compilation.diagnostics
    assert [d.message for d in after if d.code == "C201"] == ["`stormy` is not a value of `weather`"]  # the demo's own


def test_completion_offers_the_charts_of_the_unsaved_file_being_edited(game: Path) -> None:
    # issue 31: a chart just typed in the editor (not saved, the buffer not parsing yet) is offered
    # after `[`, beside the checked game's charts
    combat = game / "combat.chart"
    typed = combat.read_text(encoding="utf-8") + '\nchart [A3] again "Noch einmal" {\n  roll 1d6\n  rows {\n    1-6: ['
    index = _index(game, {combat: typed})
    name = display_path(combat)
    line = typed.count("\n") + 1
    labels = [label for label, _ in index.completions(name, line, len("    1-6: [") + 1)]
    assert labels[:2] == ["A1", "A2"] and "A3" in labels and len(labels) == len(set(labels))
    # once the file parses (the game still has an error: A3 has no column), A3 comes from its syntax tree
    done = typed + 'A1]\n  }\n}\n'
    index = _index(game, {combat: done})
    assert "A3" in [label for label, _ in index.completions(name, line, len("    1-6: [") + 1)]
