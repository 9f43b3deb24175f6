"""Every diagnostic code fires on a minimal bad input and stays quiet on its corrected twin.

Cases live in tests/cases: `cNNN_name.chart` must report code CNNN and match the golden
`cNNN_name.errors` (short format); `cNNN_name.ok.chart` is the fixed input and must not.
An import case is a table: `chartc import cNNN_name.csv` must report CNNN exactly as the golden
`cNNN_name.errors` says, and `cNNN_name.ok.csv` must import with no finding to a chart that compiles.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from compiler.diagnostics import CODES, render_human, render_short
from compiler.tools.table_import import Draft, draft, read_table
from tests.conftest import CASES, codes, compile_files, compile_text

BAD = sorted(p for p in CASES.glob("c*.chart") if not p.name.endswith(".ok.chart"))
BAD_IMPORTS = sorted(p for p in CASES.glob("c*.csv") if not p.name.endswith(".ok.csv"))


def _case_code(path: Path) -> str:
    m = re.match(r"c(\d{3})_", path.name)
    assert m, path
    return f"C{m.group(1)}"


def _compile_case(tmp_path: Path, chart: Path, order_suffix: str):
    """A case's chart, plus its `aid.order` sidecar (`<case>.aid.order`) when it has one."""
    files = {"case.chart": chart.read_bytes()}
    order = chart.with_name(chart.name.split(".")[0] + order_suffix)
    if order.is_file():
        files["aid.order"] = order.read_bytes()
    return compile_files(tmp_path, files)


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_code_fires_on_bad_input(case: Path, tmp_path: Path) -> None:
    comp = _compile_case(tmp_path, case, ".aid.order")
    assert _case_code(case) in codes(comp)
    golden = case.with_suffix(".errors")
    got = "".join(render_short(d) + "\n" for d in comp.diagnostics)
    assert got == golden.read_text(encoding="utf-8"), f"update {golden.name} after reviewing the new output"


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_code_quiet_on_fixed_input(case: Path, tmp_path: Path) -> None:
    fixed = case.with_name(case.stem + ".ok.chart")
    comp = _compile_case(tmp_path, fixed, ".ok.aid.order")
    assert _case_code(case) not in codes(comp), [render_short(d) for d in comp.diagnostics]


def _import_case(table: Path) -> Draft:
    """A case's table imported as `chartc import case.csv` would."""
    return draft(read_table(Path("case.csv"), table.read_bytes()), "case", "case")


@pytest.mark.parametrize("case", BAD_IMPORTS, ids=lambda p: p.stem)
def test_import_code_fires_on_bad_table(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _case_code(case) in [f.code for f in _import_case(case).findings]
    (tmp_path / "case.csv").write_bytes(case.read_bytes())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["import", "case.csv", "--out", "case.chart"])
    assert result.exit_code == 1
    golden = case.with_suffix(".errors")
    assert result.stderr == golden.read_text(encoding="utf-8"), f"update {golden.name} after reviewing the new output"


@pytest.mark.parametrize("case", BAD_IMPORTS, ids=lambda p: p.stem)
def test_import_code_quiet_on_fixed_table(case: Path, tmp_path: Path) -> None:
    fixed = _import_case(case.with_name(case.stem + ".ok.csv"))
    assert fixed.findings == ()
    comp = compile_files(tmp_path, {"game.chart": b'game t { title "T" }\n', "case.chart": fixed.text.encode()})
    assert codes(comp) == [], [render_short(d) for d in comp.diagnostics]


def test_every_code_has_a_case() -> None:
    covered = {_case_code(p) for p in [*BAD, *BAD_IMPORTS]}
    assert covered == set(CODES), f"codes without a case: {sorted(set(CODES) - covered)}"


def test_the_registry_holds_every_code_constant_once() -> None:
    # the constants live in compiler/diagnostics/codes.py, their order in registry.py: a code
    # declared but not registered would have no `chartc explain`, no SARIF rule and no case
    from compiler.diagnostics import REGISTRY, Code, codes

    declared = [value for value in vars(codes).values() if isinstance(value, Code)]
    assert sorted(c.code for c in REGISTRY) == sorted(c.code for c in declared)
    # C345-C347 overlays, C419 C427 turns (issue 32); C604 errata dates (issue 31); C484 C485 C492 (issue 30)
    assert len({c.code for c in REGISTRY}) == len(REGISTRY) == 99


def test_unreadable_file(tmp_path: Path) -> None:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "ok.chart").write_text('game t { title "T" }\n', encoding="utf-8")
    (folder / "bad.chart").write_bytes(b'chart [R1] "Caf\xe9" { }\n')
    comp = compile_text(tmp_path, 'game t { title "T" }\n', name="ok.chart")
    [d] = [d for d in comp.diagnostics if d.code == "C102"]
    assert "0xE9" in d.message and (d.span.line, d.span.col) == (1, 16)
    clean = compile_text(tmp_path / "clean", 'game t { title "T" }\n')
    assert "C102" not in codes(clean)


def test_syntax_error_is_positioned_and_other_files_still_checked(tmp_path: Path) -> None:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text('game t { title "T" }\nchart [R1] "One" {\n  roll 1d6\n  rows { 3---6: "x" }\n}\n')
    comp = compile_text(
        tmp_path, 'chart [R2] "Two" { roll 1d6 column r: text rows { 1-2: "a" 2-6: "b" } }\n', name="b.chart"
    )
    syntax = [d for d in comp.diagnostics if d.code == "C101"]
    assert len(syntax) == 1
    d = syntax[0]
    assert (d.span.file, d.span.line, d.span.col) == ("charts/t/a.chart", 4, 12)
    assert d.message == "`3---6` is not a range while reading chart `R1`" and d.help == "write `3-6`"
    assert "C301" in codes(comp)  # b.chart was still checked


def test_end_of_file_is_positioned(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, 'game t { title "T" }\nchart [R1] "One" {\n  roll 1d6\n')
    [d] = comp.diagnostics
    assert d.code == "C101" and "end of file" in d.message
    assert (d.span.line, d.span.col) == (3, 11)  # just after `roll 1d6`, where `}` is missing


def test_unknown_name_suggests_closest(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, (CASES / "c201_unknown_name.chart").read_text())
    [d] = [d for d in comp.diagnostics if d.code == "C201"]
    assert d.help == "did you mean `piston`?"


def test_human_format_shows_line_and_caret(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, (CASES / "c301_overlapping_ranges.chart").read_text())
    [d] = [d for d in comp.diagnostics if d.code == "C301"]
    text = render_human(d, comp.sources)
    lines = text.splitlines()
    assert lines[0] == "error[C301]: `3-6` overlaps `1-3` in chart `R4` (both select 3)"
    assert lines[1].startswith("  --> charts/t/case.chart:6:")
    caret_line = next(line for line in lines if set(line.split("|")[-1].strip()) <= {"^"} and "^" in line)
    source_line = lines[lines.index(caret_line) - 1]
    col = caret_line.index("^")
    assert source_line[col : col + 3] == "3-6"
    assert "= help:" in text


def test_severities_are_stable() -> None:
    # IA2 R4's falling-off DRM is a print defect, not a broken chart: a warning.
    assert CODES["C305"].severity.value == "warning"
    assert CODES["C308"].severity.value == "note"
    assert CODES["C411"].severity.value == "warning"  # periods are the designer's business, not a broken chart
    assert CODES["C414"].severity.value == "warning"  # a stated count the print contradicts is a print defect
    # two printings of one fact that disagree are a print defect too, kept as printed with `allow C417`
    assert CODES["C417"].severity.value == "warning"
    soft = ("C411", "C412", "C414", "C417")
    # a CRT's design findings (dominance, monotonic rows, print width) are the designer's call
    soft += ("C430", "C431", "C433", "C434")
    # an example the book contradicts, kept as printed, is a note; a stale `contradicts` a warning
    soft += ("C461", "C462")
    # two facts or a book's inconsistency kept as printed are notes; a declaration the data no longer
    # matches, a result outside its domain and a range past a limit are warnings (the print's, or stale)
    soft += ("C418", "C475", "C476", "C480", "C481", "C482", "C484", "C485", "C491", "C492")
    assert all(CODES[k].severity.value == "note" for k in ("C418", "C476", "C481", "C484"))
    assert all(CODES[k].severity.value == "warning" for k in ("C475", "C480", "C482", "C485", "C491", "C492"))
    # a `one` shift group whose shifts can both hold: the rules may mean it, as C330 for DRMs (issue 32)
    soft += ("C426",)
    # an empty cell may be the print's own blank; a field a few records leave out may be optional (issue 32)
    soft += ("C440", "C441")
    assert all(CODES[k].severity.value == "warning" for k in ("C430", "C431", "C433"))
    assert all(
        c.severity.value == "error"
        for k, c in CODES.items()
        if (k[1] in "14" and k not in soft) or k in ("C301", "C302")
    )


def test_an_id_and_slug_differing_only_in_case_are_one_chart(tmp_path: Path) -> None:
    # regression: `chart [R1] r1` folded both handles to `r1` and reported the chart twice (C202)
    text = 'game t { title "T" }\nchart [R1] r1 "One" { roll 1d6 column r: text rows { 1-6: "a" } }\n'
    assert codes(compile_text(tmp_path, text)) == []
    twice = text + 'chart [r1] "Two" { roll 1d6 column r: text rows { 1-6: "a" } }\n'
    assert codes(compile_text(tmp_path / "twice", twice)) == ["C202"]


def test_record_dated_before_its_item_is_available(tmp_path: Path) -> None:
    # C412 on reference data: a mission dated 1943-08 that flies an aircraft available from 1944-03
    text = (
        'game t { title "T" calendar 1943-01 to 1945-05 }\n'
        'enum aircraft { fields { available: month } g6r6 "Bf 109G-6/R6" { available: 1944-03 } }\n'
        "enum mission { fields { month: month  aircraft: aircraft } "
        'schweinfurt "Schweinfurt" { month: MONTH  aircraft: g6r6 } }\n'
    )
    found = compile_text(tmp_path, text.replace("MONTH", "1943-08")).diagnostics
    assert [(d.code, d.message) for d in found] == [
        ("C412", "`Schweinfurt` (mission, 1943-08) uses `Bf 109G-6/R6`, available only from 1944-03")
    ]
    assert compile_text(tmp_path / "ok", text.replace("MONTH", "1944-03")).diagnostics == []
