"""`chartc import` and `chartc export`: drafts from spreadsheets and pasted tables, every
spreadsheet corruption reported with its cell, and export -> import round trips of the corpus."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import Compilation, load
from compiler.cli import cli
from compiler.tools.table_export import export_csv, not_plain_reason
from compiler.tools.table_import import Cell, CellKind, draft, guess_dice, read_table
from tests.conftest import ROOT

openpyxl = pytest.importorskip("openpyxl")


def _compile_draft(tmp_path: Path, text: str) -> Compilation:
    game = tmp_path / "drafts"
    game.mkdir(parents=True, exist_ok=True)
    (game / "game.chart").write_text('game drafts {\n  title "Drafts"\n}\n', encoding="utf-8")
    (game / "draft.chart").write_text(text, encoding="utf-8")
    return load([game])


def _errors(comp: Compilation) -> list[str]:
    return [f"{d.code} {d.message}" for d in comp.diagnostics if d.severity.value == "error"]


# ---- export -> import round trips ------------------------------------------------------------------


def _plain_charts(corpus: Compilation):
    return [c for g in corpus.project.games.values() for c in g.charts if not_plain_reason(c) is None]


def test_every_plain_corpus_table_round_trips(corpus: Compilation, tmp_path: Path) -> None:
    charts = _plain_charts(corpus)
    assert len(charts) >= 50  # the corpus's row tables and reference tables
    for i, chart in enumerate(charts):
        if any(key.id == "month" for key in chart.keys):
            continue  # the importer drafts a month key as `enum month`, a builtin's name (C202): IA2's [A1]
        exported = export_csv(chart)
        result = draft(read_table(Path("t.csv"), exported.encode("utf-8")), "imported", chart.title)
        assert result.findings == (), chart.address
        text = result.text
        if chart.partial is not None:  # the gaps of a partial chart are the author's to declare
            text = text.replace('{\n  roll', '{\n  partial "as printed"\n  roll', 1)
        comp = _compile_draft(tmp_path / str(i), text)
        errors = _errors(comp)
        if chart.drms:  # a CSV holds no DRMs: a row only a DRM reaches (Stuka Leader's Fritz X 11+) is C306 there
            errors = [e for e in errors if not e.startswith("C306 ")]
        assert errors == [], (chart.game, chart.address, text)
        imported = comp.project.games["drafts"].chart("imported")
        assert imported is not None and export_csv(imported) == exported, (chart.game, chart.address)


def test_export_cli_and_the_draft_of_r4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)
    out = CliRunner().invoke(cli, ["export", "ia2/R4", "--csv"])
    # IA2 R4 with chartc's errata: the ranges open at both ends (footnote 1's +1 DRM)
    assert out.exit_code == 0
    assert out.output == (
        "interceptor,1d6,Result\npiston,2-,Safe escape\npiston,3+,Combat\njet,4-,Safe escape\njet,5+,Combat\n"
    )
    csv_file = tmp_path / "escape.csv"
    csv_file.write_text(out.output, encoding="utf-8")
    imported = CliRunner().invoke(cli, ["import", str(csv_file)])
    assert imported.exit_code == 0
    assert imported.output == (
        "# Draft made by `chartc import`: check every line against the printed chart.\n\n"
        "enum interceptor \"interceptor\" {\n  piston\n  jet\n}\n\n"
        'chart escape "escape" {\n  roll 1d6\n  key interceptor\n  column result: text "Result"\n  rows {\n'
        '    piston 2-: "Safe escape"\n    piston 3+: "Combat"\n    jet    4-: "Safe escape"\n'
        '    jet    5+: "Combat"\n  }\n}\n'
    )


def test_export_refuses_only_what_has_no_rows_with_the_true_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)
    out = CliRunner().invoke(cli, ["export", "usaaf/crt_odds", "--csv"])  # USAAF 15.1-15.2: an odds rule
    assert out.exit_code == 2
    assert "`usaaf/crt_odds` cannot be exported: it is an odds rule: it forms an odds column from the forces" in (
        out.output
    )


def test_export_writes_every_chart_kind_with_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)

    def lines(address: str) -> list[str]:
        out = CliRunner().invoke(cli, ["export", address, "--csv"])
        assert out.exit_code == 0, out.output
        return out.output.splitlines()

    # IA2 R6 (10.5): read by the Fatigue level, 0-4 no effect
    assert lines("ia2/R6")[:2] == ["fatigue,Effect", "0-4,No effect"]
    # IA2 B9 (6.1): the Weather Chart prints only its DRMs, +2 in December 1944
    assert lines("ia2/B9")[2] == "december,December 1944,+2,month == 1944-12"
    # IA2 R2 (4.6.4): the Bf 109G-6 is automatic (✓) in 3/44, 1-5 in 7/44
    assert lines("ia2/R2")[1].startswith("bf109g6,\u2713,\u2713,\u2713,\u2713,1-5,")
    # IA2 7.9.2 Night Owl: once per month to December 1944, bi-monthly from January 1945, by month spans
    assert lines("ia2/night_owl_frequency")[1:] == [
        "1943-03..1944-12,Once per month", "1945-01+,Once per bi-monthly period"
    ]
    # IA2 R1 (4.1): roll 1 is a 1d3 among the three JG 1 Gruppen, written as in the chart language
    assert lines("ia2/R1")[1] == "1,-> 1d3 { 1: i_jg1; 2: ii_jg1; 3: iii_jg1 },-> [starting_unit_bases]"


# ---- a CRT from CSV and from XLSX, with Excel's corruptions planted ---------------------------------

HEADS = ["1d6", "1:2", "1:1", "3:2", "2:1", "3:1"]
CRT = [
    ["1", "AE", "AE", "AR", "AR", "EX"],
    ["2-3", "AE", "AR", "AR", "EX", "DR"],
    ["4-5", "AR", "EX", "DR", "DR", "DE"],
    ["6", "EX", "DR", "DE", "DE", "DE"],
]


def _csv_bytes(heads: list[str], rows: list[list[str]]) -> bytes:
    return "\n".join(",".join(row) for row in [heads, *rows]).encode("utf-8")


def _xlsx_bytes(heads: list[object], rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in [heads, *rows]:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_csv_and_xlsx_of_one_crt_give_one_draft_and_the_same_findings(tmp_path: Path) -> None:
    # Excel saved `3:1` as the time 03:01 and `2-3` as 3 February (shown as 03-Feb in its CSV)
    csv_rows = [row[:] for row in CRT]
    csv_rows[1][0] = "03-Feb"
    from_csv = draft(read_table(Path("crt.csv"), _csv_bytes([*HEADS[:5], "03:01:00"], csv_rows)), "crt", "CRT")
    xlsx_rows: list[list[object]] = [list(row) for row in CRT]
    xlsx_rows[1][0] = datetime.date(2026, 2, 3)
    xlsx_heads: list[object] = [*HEADS[:5], datetime.time(3, 1)]
    from_xlsx = draft(read_table(Path("crt.xlsx"), _xlsx_bytes(xlsx_heads, xlsx_rows)), "crt", "CRT")
    assert from_csv.text == from_xlsx.text
    assert [(f.code, f.address) for f in from_csv.findings] == [("C361", "F1"), ("C360", "A3")]
    assert [(f.code, f.address) for f in from_xlsx.findings] == [("C361", "F1"), ("C360", "A3")]
    assert "a date (`2026-02-03`) where a range was" in from_xlsx.findings[1].message
    assert "??A3" in from_csv.text and "??F1" in from_csv.text
    assert _errors(_compile_draft(tmp_path / "broken", from_csv.text))  # the draft fails until fixed
    # the cells fixed (typed as text): the draft compiles, and reads as the table does
    fixed = draft(read_table(Path("crt.xlsx"), _xlsx_bytes(list(HEADS), [list(r) for r in CRT])), "crt", "CRT")
    from_fixed_csv = draft(read_table(Path("c.csv"), _csv_bytes(HEADS, CRT)), "crt", "CRT")
    assert fixed.findings == () and fixed.text == from_fixed_csv.text
    comp = _compile_draft(tmp_path / "fixed", fixed.text)
    assert _errors(comp) == []
    crt = comp.project.games["drafts"].chart("crt")
    assert crt is not None and crt.dice is not None and crt.dice.text == "1d6"
    # roll 2 in the 3:1 column: the 2-3 row's last cell
    row = next(r for r in crt.rows if r.range is not None and r.range.printed == "2-3" and r.keys == ("c_3_1",))
    assert row.values == ("DR",)


def test_import_cli_reports_each_cell_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "crt.csv"
    rows = [row[:] for row in CRT]
    rows[2][0] = "4\u20135"  # an en dash from a PDF
    bad.write_bytes(_csv_bytes(HEADS, rows))
    out = CliRunner().invoke(cli, ["import", str(bad), "--out", str(tmp_path / "crt.chart")])
    assert out.exit_code == 1
    assert f"{bad}:A4: error[C363]: `4\u20135` holds an en dash (U+2013), not a hyphen-minus `-`" in out.output
    assert "??A4" in (tmp_path / "crt.chart").read_text(encoding="utf-8")


def test_a_number_where_00_was(tmp_path: Path) -> None:
    # IA2 R9-style percentile table: Excel stored the `00` row as the number 0
    rows: list[list[object]] = [["01-50", "Miss"], ["51-99", "Hit"], [0, "Direct"]]
    result = draft(read_table(Path("p.xlsx"), _xlsx_bytes(["percentile", "Result"], rows)), "p", "P")
    assert [(f.code, f.address) for f in result.findings] == [("C362", "A4")]


def test_pasted_markdown_table(tmp_path: Path) -> None:
    # IA2 R5 pasted from a Markdown page
    text = (
        "| fighter | 1d6 | Result |\n|---|---|---|\n| friendly_piston | 1-4 | Disengagement |\n"
        "| friendly_piston | 5-6 | Combat continues |\n| enemy | 1-4 | Disengagement |\n"
        "| enemy | 5-6 | Combat continues |\n"
    )
    result = draft(read_table(Path("r5.md"), text.encode("utf-8")), "r5", "Disengagement Chart")
    assert result.findings == ()
    comp = _compile_draft(tmp_path, result.text)
    assert _errors(comp) == []
    r5 = comp.project.games["drafts"].chart("r5")
    assert r5 is not None and [k.id for k in r5.keys] == ["fighter"] and len(r5.rows) == 4


@pytest.mark.parametrize(
    "ranges, dice",
    [
        (["1-2", "3-6"], "1d6"),  # IA2 R4
        (["2", "3-11", "12"], "2d6"),  # IA2 7.1.4 bomb detonation
        (["1-5", "6-15", "16-19", "20+"], "1d20"),  # IA2 R9
        (["11-36", "41-66"], "d66"),
        (["01-08", "09-70", "71-00"], "percentile"),  # IA2 R7
        (["0-4", "5-9"], "1d10"),  # a d10 read 0-9
        (["1-7", "8-13"], None),  # no dice spans 1-13
        (["1-2", "3-4", "5+"], "1d6"),  # open-ended: the likeliest dice
    ],
)
def test_dice_guessed_from_the_ranges(ranges: list[str], dice: str | None) -> None:
    assert guess_dice("", ranges) == dice


def test_cell_addresses_run_past_z() -> None:
    rows = read_table(Path("wide.csv"), (",".join(["x"] * 28) + "\n").encode("utf-8"))
    assert rows[0][27] == Cell("x", CellKind.TEXT, "AB1")


def _ods_bytes(rows: list[list[str]]) -> bytes:
    """A minimal OpenDocument spreadsheet (what LibreOffice saves, cut to the parts a reader needs)."""
    import zipfile

    def cell(text: str) -> str:
        return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'

    table_rows = "".join(f"<table:table-row>{''.join(cell(c) for c in row)}</table:table-row>" for row in rows)
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="CRT">{table_rows}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as ods:
        ods.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        ods.writestr("META-INF/manifest.xml", manifest)
        ods.writestr("content.xml", content)
    return out.getvalue()


def test_ods_gives_the_csv_draft() -> None:
    from_ods = draft(read_table(Path("crt.ods"), _ods_bytes([HEADS, *CRT])), "crt", "CRT")
    from_csv = draft(read_table(Path("crt.csv"), _csv_bytes(HEADS, CRT)), "crt", "CRT")
    assert from_ods.findings == () and from_ods.text == from_csv.text
