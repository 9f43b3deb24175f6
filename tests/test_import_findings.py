"""`chartc import` against a publisher's spreadsheets and a hostile one (issue 32 item 3; issue 33
findings 1, 6 and 7): each test here failed on the code before it.

- imported text is a value, never syntax: a range cell that closes the table and opens an
  `errata` block is C365 and `??CELL` in the draft (finding 1);
- a `;`-separated CSV in cp1252, no header row, space-separated columns, d100 labels, `1 or less`,
  `11+`, a Markdown `\\|`, and a CRT imported as a CRT all draft charts that compile and read as
  the printed table;
- the limits hold before anything is allocated: an XLSX cell at XFD1048576, an ODS row repeated
  50 million times, a 128 KiB CSV cell (finding 6);
- Excel's dates in a value column are reported (finding 7).
"""

from __future__ import annotations

import datetime
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.build.project import Compilation, load
from compiler.cli import cli
from compiler.engine.lookup import lookup
from compiler.tools import table_import
from compiler.tools.table_import import ImportError_, draft, read_table
from dsl.parser import parse_text
from dsl.source_text import quote
from tests.conftest import ROOT
from tests.importgen import csv_bytes, ods_bytes, xlsx_bytes


def _compile(tmp_path: Path, text: str) -> Compilation:
    game = tmp_path / "drafts"
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.chart").write_text('game drafts {\n  title "Drafts"\n}\n', encoding="utf-8")
    (game / "draft.chart").write_text(text, encoding="utf-8")
    return load([game])


def _errors(comp: Compilation) -> list[str]:
    return [f"{d.code} {d.message}" for d in comp.diagnostics if d.severity.value == "error"]


def _answer(comp: Compilation, chart: str, roll: str, **keys: str) -> object:
    found = comp.project.games["drafts"].chart(chart)
    assert found is not None
    return lookup(found, roll, keys, 0).row.values[0]


# ---- finding 1: a cell is a value, never syntax ------------------------------------------------------

INJECTED = '4-6: "b"\n  }\n}\nerrata planted "x" {\n  rule "1"\n}\nchart [R9] planted "P" {\n  rows {\n    17'


@pytest.mark.parametrize("where", ["range", "header", "key", "value", "grid range", "grid head"])
def test_a_crafted_cell_is_never_written_as_syntax(where: str) -> None:
    rows = [["side", "1d6", "Result"], ["a", "1-3", "x"], ["a", "4-6", "y"]]
    match where:
        case "range":
            rows[2][1] = INJECTED
        case "header":
            rows[0][2] = INJECTED
        case "key":
            rows[2][0] = INJECTED
        case "value":
            rows[2][2] = INJECTED
        case "grid range":
            rows = [["1d6", "1:1", "2:1"], ["1-3", "AR", "DR"], [INJECTED, "DR", "DE"]]
        case "grid head":
            rows = [["1d6", "1:1", INJECTED], ["1-3", "AR", "DR"], ["4-6", "DR", "DE"]]
    text = "\n".join(",".join('"' + c.replace('"', '""') + '"' for c in row) for row in rows)
    result = draft(read_table(Path("t.csv"), text.encode()), "t", "T")
    parsed = parse_text(result.text, "t.chart")
    # the draft holds one chart (and its enums, odds rule): no errata, no second chart
    if parsed.source is not None:
        assert not parsed.source.errata and [c.slug.text for c in parsed.source.charts if c.slug] == ["t"]
    else:  # a held-back cell (`??A3`) stops the parse: nothing of the cell was read as syntax
        assert result.findings
    if where in ("range", "grid range"):
        assert [(f.code, f.address) for f in result.findings] == [("C365", "B3" if where == "range" else "A3")]
        assert "errata" not in result.text


def test_an_injected_range_does_not_change_a_lookup(tmp_path: Path) -> None:
    # issue 33 finding 1: after the import, `lookup ia2/R9 17` answered from the planted chart
    table = f'1d20,Result\n1-16,Miss\n"{INJECTED.replace(chr(34), chr(34) * 2)}",Hit\n'
    (tmp_path / "r9.csv").write_text(table, encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(tmp_path / "r9.csv"), "--out", str(tmp_path / "r9.chart")])
    assert out.exit_code == 1 and "error[C365]" in out.output
    assert "??A3" in (tmp_path / "r9.chart").read_text(encoding="utf-8")


# ---- issue 32 item 3: what publishers' spreadsheets hold ---------------------------------------------


def test_a_semicolon_csv_in_cp1252_drafts_its_labels(tmp_path: Path) -> None:
    # Excel in Germany: `;` between columns, cp1252 text, `1 or less` / `11+` labels
    data = "Wurf;Ergebnis;Verluste\r\n2 or less;Rückzug über Fluss;0\r\n3-10;Kampf;1\r\n11+;Großer Sieg;2\r\n"
    sheet = table_import.read_sheet(Path("de.csv"), data.encode("cp1252"))
    assert sheet.notes == (
        "read as cp1252: the file is not UTF-8 (--encoding names another)",
        "columns separated by semicolons",
    )
    result = draft(sheet.rows, "de", "Kampf")
    assert result.findings == ()
    comp = _compile(tmp_path, result.text)
    assert _errors(comp) == []
    assert "roll 2d6" in result.text  # 2 or less .. 11+ spans 2d6's 2-12 with open ends
    assert "2-: " in result.text and "11+: " in result.text
    assert _answer(comp, "de", "3") == "Kampf" and _answer(comp, "de", "12") == "Großer Sieg"
    assert '"Rückzug über Fluss"' in result.text


def test_encoding_override_and_a_file_in_no_encoding(tmp_path: Path) -> None:
    data = "2d6,Result\n2-6,Attaque réussie\n7+,Échec\n".encode("utf-16")
    assert read_table(Path("f.csv"), data)[1][1].text == "Attaque réussie"  # UTF-16 with its BOM
    latin = "2d6,Result\n2-6,Attaque réussie\n7+,Échec\n".encode("latin-1")
    assert read_table(Path("f.csv"), latin, encoding="latin-1")[2][1].text == "Échec"
    with pytest.raises(ImportError_, match="no such encoding"):
        read_table(Path("f.csv"), latin, encoding="klingon")
    with pytest.raises(ImportError_, match="not utf-8 text"):
        read_table(Path("f.csv"), latin, encoding="utf-8")
    (tmp_path / "f.csv").write_bytes(latin)
    out = CliRunner().invoke(cli, ["import", str(tmp_path / "f.csv"), "--encoding", "latin-1"])
    assert out.exit_code == 0 and '"Échec"' in out.output and "note:" not in out.output


def test_no_header_row_and_space_separated_columns(tmp_path: Path) -> None:
    # a CRT typed in a text editor: no header, one space between columns
    table = "2 AE AR\n3-6 AR DR\n7-11 DR DE\n12 DE DE\n"
    rows = read_table(Path("crt.txt"), table.encode())
    assert [c.text for c in rows[1]] == ["3-6", "AR", "DR"]
    result = draft(rows, "crt", "CRT")
    assert result.findings == () and "roll 2d6" in result.text
    comp = _compile(tmp_path, result.text)
    assert _errors(comp) == []
    assert _answer(comp, "crt", "2") == "AE" and _answer(comp, "crt", "12") == "DE"
    # the same as a CSV without a header: the first row is a row
    result = draft(read_table(Path("t.csv"), b"1-2,Miss\n3-5,Hit\n6,Kill\n"), "t", "T")
    assert result.findings == () and "roll 1d6" in result.text and '1-2: "Miss"' in result.text


@pytest.mark.parametrize(
    "printed, written",
    [("1 or less", "1-"), ("11+", "11+"), ("11 or more", "11+"), ("≤ 2", "2-"), ("2 to 4", "2-4"),
     ("01-05", "01-05"), ("00", "00"), ("96-00", "96-00"), ("seven", None), ('3": x', None)],
)
def test_printed_row_labels(printed: str, written: str | None) -> None:
    from compiler.tools.table_labels import range_text  # the module this change adds

    assert range_text(printed) == written


def test_d100_labels_draft_a_percentile_chart(tmp_path: Path) -> None:
    # IA2 R7-style: `01-05` ... `96-99`, `00`
    table = "d%,Result\n01-05,Jam\n06-50,Miss\n51-99,Hit\n00,Critical\n"
    result = draft(read_table(Path("p.csv"), table.encode()), "p", "P")
    assert result.findings == () and "roll percentile" in result.text
    comp = _compile(tmp_path, result.text)
    assert _errors(comp) == []
    assert _answer(comp, "p", "1") == "Jam" and _answer(comp, "p", "00") == "Critical"


def test_markdown_escaped_bar_is_one_cell(tmp_path: Path) -> None:
    table = "| 1d6 | Result |\n|---|---|\n| 1-3 | Miss \\| abort |\n| 4-6 | Hit |\n"
    rows = read_table(Path("t.md"), table.encode())
    assert [c.text for c in rows[1]] == ["1-3", "Miss | abort"]
    comp = _compile(tmp_path, draft(rows, "t", "T").text)
    assert _errors(comp) == [] and _answer(comp, "t", "2") == "Miss | abort"


def test_a_crt_is_imported_as_a_crt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a classic CRT: odds across, result codes in the cells
    table = "1d6,1:2,1:1,2:1,3:1\n1,AE,AE,AR,EX\n2-3,AE,AR,EX,DR\n4-5,AR,EX,DR,DE\n6,EX,DR,DE,DE\n"
    result = draft(read_table(Path("crt.csv"), table.encode()), "crt", "CRT")
    assert "odds crt_odds" in result.text and "key odds: crt_odds" in result.text
    assert "enum crt_result" in result.text and "  codes\n" in result.text
    comp = _compile(tmp_path, result.text)
    assert _errors(comp) == []
    assert _answer(comp, "crt", "2", odds="3:1") == "DR"
    # 26 vs 7 rounds down to 3:1 (the odds rule the draft wrote), roll 2 reads DR
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli, ["lookup", "drafts/crt", "2", "--attack", "26", "--defense", "7", "--charts", "."])
    assert out.exit_code == 0 and "odds: 3:1" in out.output and "DR" in out.output


@pytest.mark.parametrize(
    "heads, form",
    [(["-2", "-1/0", "+1/+2", "+3+"], "form differential"), (["1-2", "3-5", "6-9", "10+"], "form strength")],
)
def test_differential_and_strength_crts(tmp_path: Path, heads: list[str], form: str) -> None:
    table = "\n".join([",".join(["1d6", *heads]), "1-3,AR,AR,DR,DE", "4-6,AR,DR,DE,DE"]) + "\n"
    result = draft(read_table(Path("crt.csv"), table.encode()), "crt", "CRT")
    assert form in result.text
    comp = _compile(tmp_path, result.text)
    assert _errors(comp) == []
    assert _answer(comp, "crt", "5", odds=heads[-1]) == "DE"


# ---- finding 6: limits before allocation -------------------------------------------------------------


def _import_in_a_child(path: Path) -> subprocess.CompletedProcess[str]:
    """`chartc import PATH` in a child process held to 2 GB of memory and 120 s: on the code before
    the limits, the XLSX aborted the process and the ODS ran out of memory."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", "import", str(path)],
        capture_output=True, text=True, timeout=120, preexec_fn=limit, cwd=ROOT, check=False,
    )


def test_an_xlsx_cell_at_xfd1048576_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "far.xlsx"
    path.write_bytes(xlsx_bytes([["1d6", "Result"], ["1-6", "x"]], far_cell=True))
    assert path.stat().st_size < 8_000
    done = _import_in_a_child(path)
    assert done.returncode == 2, done.stderr[-500:]
    assert "XFD1048576 reaches row 1,048,576: chartc imports at most 1,001 rows" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_ods_row_repeated_fifty_million_times_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "repeat.ods"
    path.write_bytes(ods_bytes([["1d6", "Result"], ["1-6", "x"]], repeat_row=(1, 50_000_000)))
    done = _import_in_a_child(path)
    assert done.returncode == 2, done.stderr[-500:]
    assert "the first table reaches row 50,000,001" in done.stderr and "Traceback" not in done.stderr


def test_trailing_empty_ods_rows_as_libreoffice_saves_them_are_read() -> None:
    data = ods_bytes([["1d6", "Result"], ["1-6", "x"]], trailing_empty_rows=1_048_000)
    assert [[c.text for c in row] for row in read_table(Path("t.ods"), data) if any(c.text for c in row)] == [
        ["1d6", "Result"], ["1-6", "x"],
    ]


def test_a_128_kib_csv_cell_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text("1d6,Result\n1-6," + "x" * 140_000 + "\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(path)])
    assert out.exit_code == 2 and "chartc imports at most 4,096 characters a cell" in out.output
    path.write_text("1d6,Result\n1-6," + "x" * 5_000 + "\n", encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(path)])
    assert out.exit_code == 2 and "cell B2 holds 5,000 characters" in out.output


@pytest.mark.parametrize("rows, columns, message", [(1_002, 2, "reaches row 1,002"), (3, 65, "reaches column 65")])
def test_rows_and_columns_past_the_limits(rows: int, columns: int, message: str) -> None:
    text = "\n".join(",".join(["1"] * columns) for _ in range(rows))
    for path, data in [(Path("t.csv"), text.encode()), (Path("t.xlsx"), xlsx_bytes([["1"] * columns] * rows))]:
        with pytest.raises(ImportError_, match=message):
            read_table(path, data)


# ---- finding 7: Excel's dates reported wherever they are ---------------------------------------------


def test_a_range_excel_made_a_date_in_a_value_column_is_reported() -> None:
    # a `Range` column of a fire table: Excel read `3-6` as 6 March
    rows: list[list[object]] = [["1d6", "Range"], ["1-3", "1-2"], ["4-6", datetime.datetime(2026, 3, 6)]]
    result = draft(read_table(Path("t.xlsx"), xlsx_bytes(rows)), "t", "T")
    assert [(f.code, f.address) for f in result.findings] == [("C360", "B3")]
    assert "a date (`2026-03-06`) where a value was" in result.findings[0].message
    assert "??B3" in result.text
    # the same table saved as CSV by Excel: `6-Mar`
    result = draft(read_table(Path("t.csv"), b"1d6,Range\n1-3,1-2\n4-6,6-Mar\n"), "t", "T")
    assert [(f.code, f.address) for f in result.findings] == [("C360", "B3")]


# ---- issue 33 class (a): the one quoting function round-trips any text ----------------------------


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=60))
def test_any_text_quoted_reads_back_as_itself(text: str) -> None:
    literal = quote(text)
    source = f"chart t {literal} {{\n  roll 1d6\n  column result: text {literal}\n  rows {{\n"
    source += f"    1-6: {literal}\n  }}\n}}\n"
    parsed = parse_text(source, "t.chart")
    assert parsed.errors == [] and parsed.source is not None
    [chart] = parsed.source.charts
    assert chart.title.text == text
    assert chart.rows[0].values[0].text in (literal, text)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), min_size=1, max_size=40).filter(
        lambda t: t.strip() not in ("", "-")
    )
)
def test_any_cell_imported_is_a_value_that_reads_back(text: str) -> None:
    # a cell as a spreadsheet holds it (the reader strips its ends): the draft's cell reads back as it
    rows = [["1d6", "Result"], ["1-6", text]]
    cells = read_table(Path("t.csv"), csv_bytes(rows))
    result = draft(cells, "t", text)  # the text as the chart's title too
    parsed = parse_text(result.text, "t.chart")
    if result.findings:  # a cell Excel would have damaged (`6-Mar`): held back, never written
        assert parsed.source is None or "??" in result.text
        return
    assert parsed.errors == [] and parsed.source is not None
    assert not parsed.source.errata and len(parsed.source.charts) == 1
    assert parsed.source.charts[0].title.text == text
    [value] = parsed.source.charts[0].rows[0].values
    assert value.text in (quote(cells[1][1].text), cells[1][1].text)


@pytest.mark.parametrize(
    "table",
    [
        "1d6,Losses\n1-3,1000000000\n4-6,2\n",  # 10 digits: a text cell, not an int the language refuses
        "Side,1d6,Result\norder,1-6,x\nfields,1-6,y\n",  # an enum's own words as key values
        "1999999999999999d6,Result\n1-6,x\n",  # no dice of 16 digits: the column is no range column
        "2d6,Result\n2-12345,x\n",  # no roll past 9999
    ],
)
def test_a_draft_without_findings_parses(table: str) -> None:
    # found by the round-trip fuzzer (tests/import_differential.py): each drafted clean, did not parse
    result = draft(read_table(Path("t.csv"), table.encode()), "t", "T")
    assert result.findings or parse_text(result.text, "t.chart").errors == []


def test_a_chart_keyed_by_an_enum_without_members_is_checked_without_a_traceback(tmp_path: Path) -> None:
    # the checker met `reach[0]` of an empty list (compiler/checks/coverage.py): a key column with no
    # value drafted `enum Side "Side" {}` (import now leaves such a column out), so the chart had no
    # key combination and no reachable roll
    text = ('enum Side "Side" {\n}\n\nchart t "T" {\n  roll 2d6\n  key Side\n  column result: text "Result"\n'
            '  rows {\n    * 2-7: "a"\n    * 8-12: "b"\n  }\n}\n')
    comp = _compile(tmp_path, text)
    assert _errors(comp) == [
        "C306 row `2-7` of chart `t` can never be selected: 2d6 rolls nothing: key `Side` has no values",
        "C306 row `8-12` of chart `t` can never be selected: 2d6 rolls nothing: key `Side` has no values",
    ]


def test_a_chart_whose_natural_rows_read_every_roll_is_checked(tmp_path: Path) -> None:
    # the other way to no modified roll: `natural` rows read every face of the d6, so the `7` row
    # (only a +1 DRM on a modified roll reaches it) is never selected
    comp = _compile(
        tmp_path,
        "context fb: flag\n"
        'chart [R4] "Escape" {\n  roll 1d6\n  column result: text\n  drm fb "F/B attack" +1 when fb\n'
        '  rows {\n    1-6 natural: "Safe"\n    7: "Odd"\n  }\n}\n',
    )
    assert _errors(comp) == [
        "C306 row `7` of chart `R4` can never be selected: 7 is not a face of a d6 (1 to 6), and no DRM reaches it"
    ]
    assert _answer(comp, "R4", "6") == "Safe"


def test_a_column_empty_in_every_row_is_left_out_not_a_memberless_enum(tmp_path) -> None:
    # issue 32: a key column with no values drafted `enum Type "Type" {}` and rows keyed `*`, which
    # the checker then reported as unreachable rows (C306); a spacer value column drafted only `-`
    made = draft(read_table(Path("t.csv"), b"Type,Roll,Result,Notes\n,1-3,Miss,\n,4-6,Hit,\n"), "t", "T")
    assert "enum" not in made.text and "key" not in made.text and "column notes" not in made.text
    assert '  # the column "Type" is empty in every row: left out' in made.text
    assert '  # the column "Notes" is empty in every row: left out' in made.text
    assert '    1-3: "Miss"' in made.text and '    4-6: "Hit"' in made.text
    assert not _compile(tmp_path, made.text).has_errors
