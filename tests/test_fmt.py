"""`chartc fmt`: the canonical layout, its safety checks and the command."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.tools import fmt
from compiler.tools.fmt import FormatSyntaxError, UnsafeFormat, format_text, syntax_tree_without_spans
from dsl.parser import MAX_NESTING
from tests.conftest import CASES, CHARTS, ROOT

FUZZ_CORPUS = ROOT / "tests" / "fuzz_corpus"


def _readable(folder: Path) -> list[Path]:
    """The UTF-8 `.chart` files of a folder (some test inputs are deliberately not UTF-8)."""
    found = []
    for path in sorted(folder.glob("*.chart")):
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found.append(path)
    return found


@pytest.mark.parametrize("path", sorted(CHARTS.rglob("*.chart")), ids=lambda p: str(p.relative_to(CHARTS)))
def test_corpus_is_formatted(path: Path) -> None:
    # the CI gate `chartc fmt --check charts`: every corpus file is already in the canonical layout
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text


# The fuzz seeds nested thousands deep cost about 1.5 s of CPU each to format and compare: the
# default run formats the same nestings 200 deep (`test_deep_nesting_keeps_its_syntax_tree`), the
# slow run the seeds themselves.
DEEP_SEED_BYTES = 16_000


def _stability_param(path: Path) -> object:
    marks = [pytest.mark.slow] if path.stat().st_size > DEEP_SEED_BYTES else []
    return pytest.param(path, marks=marks, id=f"{path.parent.name}/{path.name}")


@pytest.mark.parametrize("path", [_stability_param(p) for p in [*_readable(CASES), *_readable(FUZZ_CORPUS)]])
def test_formatting_keeps_the_syntax_tree_and_is_stable(path: Path) -> None:
    _assert_stable(path.read_text(encoding="utf-8"))


DEEP_HEADER = 'game t { title "T" }\ncontext fb: flag\nchart [R1] "X" { roll 1d6 column r: text drm d +1 when '


def _deep(form: str, depth: int) -> str:
    return {
        "and_or": "(fb and " * depth + "fb" + ")" * depth,  # as tests/fuzz_corpus/nested_and_or.chart (5000 deep)
        "not": "not " * depth + "fb",  # nested_not.chart
        "parens": "(" * depth + "fb" + ")" * depth,  # nested_parens.chart
    }[form]


@pytest.mark.parametrize("form", ["and_or", "not", "parens"])
@pytest.mark.parametrize("depth", [MAX_NESTING - 10, 200])
def test_deep_nesting_keeps_its_syntax_tree(form: str, depth: int) -> None:
    # 200 deep, like the seeds, is past the parser's nesting limit (a finding): the layout alone is kept
    text = DEEP_HEADER + _deep(form, depth) + ' rows { 1-6: "a" } }\n'
    parses = syntax_tree_without_spans(text, "case.chart") is not None
    assert parses == (form == "parens" or depth <= MAX_NESTING)  # redundant parentheses do not nest conditions
    _assert_stable(text)


def _assert_stable(text: str) -> None:
    """Formatting `text` keeps its syntax tree and formatting the result changes nothing; text
    that does not parse is refused."""
    try:
        once = format_text(text, "case.chart")
    except FormatSyntaxError:
        assert syntax_tree_without_spans(text, "case.chart") is None  # only files that do not parse
        return
    assert syntax_tree_without_spans(once, "case.chart") == syntax_tree_without_spans(text, "case.chart")
    assert format_text(once, "case.chart") == once


# IA2 R5 as typed in a hurry: the rows' pieces are aligned and the spacing normalised.
R5_UNTIDY = """\
chart [R5]   disengagement "Disengagement Chart" {
rule "7.3"
      roll 1d6
  key fighter
  column result : text "Result"
  rows {
    friendly_piston 1-4 : "Disengagement"
    friendly_jet 6: "Combat continues"
  enemy 5-6:"Combat continues"
  }
}
"""

R5_FORMATTED = """\
chart [R5] disengagement "Disengagement Chart" {
  rule "7.3"
  roll 1d6
  key fighter
  column result: text "Result"
  rows {
    friendly_piston 1-4: "Disengagement"
    friendly_jet    6:   "Combat continues"
    enemy           5-6: "Combat continues"
  }
}
"""


def test_rows_are_aligned_and_spacing_normalised() -> None:
    assert format_text(R5_UNTIDY) == R5_FORMATTED


def test_one_statement_and_one_row_per_line() -> None:
    # IA2 R4, written on one line
    text = (
        'chart [R4] escape "Escape Chart" { roll 1d6 key interceptor '
        'rows { piston 1-2: "Safe escape" piston 3-6: "Combat" } }\n'
    )
    assert format_text(text) == (
        'chart [R4] escape "Escape Chart" {\n'
        "  roll 1d6\n"
        "  key interceptor\n"
        "  rows {\n"
        '    piston 1-2: "Safe escape"\n'
        '    piston 3-6: "Combat"\n'
        "  }\n"
        "}\n"
    )


def test_grid_cells_are_aligned() -> None:
    # IA2 R7 (pilot quality): one column per period, `|` between cells
    text = (
        "chart [R7] pilot \"Pilot\" {\n  roll d66\n  grid period [early, late] {\n"
        '    "Green": 11-36|11-45\n    "Veteran": 41-66 | 46-66\n  }\n}\n'
    )
    assert format_text(text) == (
        "chart [R7] pilot \"Pilot\" {\n  roll d66\n  grid period [early, late] {\n"
        '    "Green":   11-36 | 11-45\n    "Veteran": 41-66 | 46-66\n  }\n}\n'
    )


def test_comments_stay_where_they_were() -> None:
    text = (
        "# Combat charts of section 7.\n\n\n"
        'chart [R4] escape "Escape Chart" {   # printed on the player aid\n'
        "        # the interceptor's engine decides the row\n"
        "  key interceptor\n"
        "  rows {\n"
        '    piston 1-2: "Safe escape"   # IA2 R4\n'
        '    jet 5-6: "Combat"\n'
        "  }  # end of rows\n"
        "}\n"
    )
    assert format_text(text) == (
        "# Combat charts of section 7.\n\n"
        'chart [R4] escape "Escape Chart" {  # printed on the player aid\n'
        "  # the interceptor's engine decides the row\n"
        "  key interceptor\n"
        "  rows {\n"
        '    piston 1-2: "Safe escape"  # IA2 R4\n'
        '    jet    5-6: "Combat"\n'
        "  }  # end of rows\n"
        "}\n"
    )


def test_a_statement_with_a_comment_inside_is_kept_as_written() -> None:
    text = (
        'drms [B9] weather "Weather Chart" {\n'
        '  drm december "December 1944" +2   # 6.1\n'
        "  drm november_january \"November 1944 and January 1945\" +1 when month in [1944-11,\n"
        "      # 7.5 lists both months\n"
        "      1945-01]\n"
        "}\n"
    )
    assert format_text(text) == text.replace("+2   # 6.1", "+2  # 6.1")


def test_fmt_off_keeps_lines_byte_for_byte() -> None:
    text = (
        'chart flak "Flak damage to bombers" {\n'
        "  roll 1d6 minus 3 min 0\n"
        "  rows {\n"
        "    # fmt: off\n"
        "    0:   0,  -\n"
        "    1:1,[B3]\n"
        "    # fmt: on\n"
        "    2:2,[B3]\n"
        "  }\n"
        "}\n"
    )
    assert format_text(text) == text.replace("    2:2,[B3]", "    2: 2, [B3]")


def test_fmt_off_keeps_a_trailing_comment_inside_the_region() -> None:
    # issue 33 finding 10: a comment after code inside `# fmt: off` exited 3 ("a comment has no
    # line to follow"): the region's lines, comments and all, are kept byte for byte
    text = (
        'chart flak "Flak damage to bombers" {\n'
        "  roll 1d6 minus 3 min 0\n"
        "  rows {\n"
        "    # fmt: off\n"
        "    0:   0,  -     # IA2 7.1.5: 1d6 minus 3\n"
        "    1:1,[B3]  # one bomber\n"
        "    # fmt: on\n"
        "    2:2,[B3]   # two\n"
        "  }\n"
        "}\n"
    )
    assert format_text(text) == text.replace("    2:2,[B3]   # two", "    2: 2, [B3]  # two")


def test_record_fields_keep_their_lines() -> None:
    # IA2 4.6.2: members written with their fields on one line stay on one line
    text = (
        'enum base "Base" {\n  fields { zone: zone "Zone"  listed: text "Listed in" }\n'
        '  venlo "Venlo" {zone: dutch listed: "4.6.2"}\n}\n'
    )
    assert format_text(text) == (
        'enum base "Base" {\n  fields { zone: zone "Zone"  listed: text "Listed in" }\n'
        '  venlo "Venlo" { zone: dutch  listed: "4.6.2" }\n}\n'
    )


def test_months_and_field_references_stay_joined() -> None:
    text = 'chart t "T" {\n  key month\n  rows {\n    1943-03 .. 1944-12: 8\n    1945-01 +: 9\n  }\n}\n'
    assert format_text(text) == (
        'chart t "T" {\n  key month\n  rows {\n    1943-03..1944-12: 8\n    1945-01+:         9\n  }\n}\n'
    )


def test_crlf_and_bom_become_plain_lf() -> None:
    assert format_text('\ufeffgame t {\r\n  title "T"\r\n}\r\n') == 'game t {\n  title "T"\n}\n'
    assert format_text('game t {\r  title "T"  # the title\r}\r') == 'game t {\n  title "T"  # the title\n}\n'


def test_a_layout_that_does_not_parse_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fmt, "layout", lambda text: text.replace("+1", "1"))
    with pytest.raises(UnsafeFormat, match="does not parse"):
        format_text('chart t "T" {\n  drm fb "F/B Attack" +1 when fb\n}\n')


def test_a_file_that_does_not_parse_is_refused() -> None:
    with pytest.raises(FormatSyntaxError) as info:
        format_text('chart [R4] "Escape" {\n  rows { 3-6: }\n}\n')
    assert info.value.line == 2


def test_a_layout_that_changes_the_tokens_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a formatter bug that drops a DRM's sign must never reach the disk
    monkeypatch.setattr(fmt, "layout", lambda text: text.replace("+1", "+2"))
    with pytest.raises(UnsafeFormat, match="different tokens"):
        format_text('chart t "T" {\n  drm fb "F/B Attack" +1 when fb\n}\n')


# ---- the command ---------------------------------------------------------------------------------


@pytest.fixture()
def untidy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)
    game = tmp_path / "charts" / "ia2"
    game.mkdir(parents=True)
    (game / "combat.chart").write_text(R5_UNTIDY, encoding="utf-8")
    (game / "tidy.chart").write_text(R5_FORMATTED, encoding="utf-8")
    return game


def test_fmt_check_reports_and_writes_nothing(untidy: Path) -> None:
    result = CliRunner().invoke(cli, ["fmt", "--check"])
    assert result.exit_code == 1
    assert "would reformat charts/ia2/combat.chart" in result.output
    assert "1 file would be reformatted, 1 unchanged" in result.output
    assert (untidy / "combat.chart").read_text(encoding="utf-8") == R5_UNTIDY


def test_fmt_diff_prints_a_unified_diff(untidy: Path) -> None:
    result = CliRunner().invoke(cli, ["fmt", "--diff", "charts"])
    assert result.exit_code == 1
    assert '\n-    friendly_jet 6: "Combat continues"\n' in result.output
    assert '\n+    friendly_jet    6:   "Combat continues"\n' in result.output
    assert (untidy / "combat.chart").read_text(encoding="utf-8") == R5_UNTIDY


def test_fmt_writes_then_finds_nothing_to_do(untidy: Path) -> None:
    result = CliRunner().invoke(cli, ["fmt"])
    assert result.exit_code == 0 and "1 file reformatted, 1 unchanged" in result.output
    assert (untidy / "combat.chart").read_text(encoding="utf-8") == R5_FORMATTED
    again = CliRunner().invoke(cli, ["fmt", "--check"])
    assert again.exit_code == 0 and "0 files would be reformatted, 2 unchanged" in again.output


def test_fmt_leaves_a_file_that_does_not_parse(untidy: Path) -> None:
    (untidy / "broken.chart").write_text('chart [R4] "Escape" {\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["fmt"])
    assert result.exit_code == 1
    assert "error: charts/ia2/broken.chart:" in result.output and "1 not formatted" in result.output
    assert (untidy / "combat.chart").read_text(encoding="utf-8") == R5_FORMATTED


def test_fmt_refuses_an_unsafe_result_with_exit_3(untidy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fmt, "layout", lambda text: text.replace('"7.3"', '"7.4"'))
    result = CliRunner().invoke(cli, ["fmt"])
    assert result.exit_code == 3
    assert "not formatted: the formatted text reads as different tokens" in result.output
    assert (untidy / "combat.chart").read_text(encoding="utf-8") == R5_UNTIDY


def test_rows_of_a_rule_fmt_does_not_list_are_aligned_too() -> None:
    # a CRT's `grid ... by roll` lines: every statement of the block is one rule with its own `:`
    text = (
        'chart [DCRT] diff_crt "Differential Combat Results Table" {\n  roll 1d6\n'
        '  grid diff ["-1/0", "+1/+2"] by roll {\n    1-: AE|AR\n    2-5:  AR |EX\n    6+: DR | DE\n  }\n}\n'
    )
    assert format_text(text) == (
        'chart [DCRT] diff_crt "Differential Combat Results Table" {\n  roll 1d6\n'
        '  grid diff ["-1/0", "+1/+2"] by roll {\n    1-:  AE | AR\n    2-5: AR | EX\n    6+:  DR | DE\n  }\n}\n'
    )


def test_fmt_off_without_on_runs_to_the_end_of_its_block() -> None:
    # the docs/language.md example: two rows a line, as a rulebook might print them
    text = (
        'chart flak "Flak damage to bombers" {\n  roll 1d6 minus 3 min 0\n  rows {\n'
        "    # fmt: off\n    0: 0     1: 1\n    2: 2     3: 3\n  }\n      note \"1d6 - 3\"\n}\n"
    )
    assert format_text(text) == text.replace('      note "1d6 - 3"', '  note "1d6 - 3"')
