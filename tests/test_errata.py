"""Errata as data: every amendment operation, provenance in the outputs, --as-printed, chartc diff."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_game, render_outputs
from compiler.cli import cli
from compiler.errata.printing import AS_PRINTED
from compiler.tools.diff import diff_projects, errata_sheet_html
from tests.conftest import ROOT, codes, compile_text

BASE = '''game t { title "Test game" }
enum side { piston "Piston-engined" jet "Jet or Rocket" }
chart [R4] escape "Escape Chart" {
  roll 1d6
  key side
  column result: text "Result"
  partial "the jet rows are torn off"
  rows {
    piston 1-2: "Safe escape"
    piston 3-6: "Combat"
  }
}
'''


def chart_after(tmp_path: Path, errata: str, as_printed: bool = False):
    comp = compile_text(tmp_path, BASE + errata)
    return comp, comp.project.games["t"].chart("R4")


def test_add_rows_and_complete(tmp_path: Path) -> None:
    comp, r4 = chart_after(
        tmp_path,
        'errata e1 "Publisher errata" { source "website" date "2020-01" '
        'amend R4 { add jet 1-4: "Safe escape" add jet 5-6: "Combat" complete because "rows restored" } }',
    )
    assert comp.diagnostics == []
    assert len(r4.rows) == 4 and r4.partial is None and r4.errata.printed_partial == "the jet rows are torn off"
    added = [r for r in r4.rows if r.added]
    assert [r.range.printed for r in added] == ["1-4", "5-6"] and all(r.errata == ("e1",) for r in added)
    assert r4.errata.reasons == (("e1", "rows restored"),)


def test_remove_row(tmp_path: Path) -> None:
    comp, r4 = chart_after(tmp_path, 'errata e1 "E" { amend R4 { remove piston 1-2 because "misprint" } }')
    assert [r.range.printed for r in r4.rows] == ["3-6"]
    assert [r.range.printed for r in r4.errata.removed_rows] == ["1-2"] and r4.errata.removed_rows[0].errata == ("e1",)
    # the checker checks the amended chart: 1-2 now selects nothing (a note, since R4 is declared partial)
    assert any(d.code == "C308" and "rolls 1-2" in d.message for d in comp.diagnostics)


def test_change_cell_keeps_the_printed_value(tmp_path: Path) -> None:
    comp, r4 = chart_after(
        tmp_path, 'errata e1 "E" { amend R4 { change "Piston-engined" 3-6 column result to "Evade" } }'
    )
    row = next(r for r in r4.rows if r.errata)
    assert row.values == ("Evade",) and row.printed_values == ("Combat",) and not row.added
    assert comp.diagnostics[0].code == "C308"  # only the chart's own partial note remains


def test_move_range(tmp_path: Path) -> None:
    _, r4 = chart_after(tmp_path, 'errata e1 "E" { amend R4 { move piston 3-6 to 3+ } }')
    row = next(r for r in r4.rows if r.errata)
    assert (row.range.printed, row.range.low, row.range.high, row.printed_range) == ("3+", 3, None, "3-6")


def test_retitle_and_note(tmp_path: Path) -> None:
    _, r4 = chart_after(
        tmp_path,
        'errata e1 "E" { amend R4 { retitle "Escape Chart (optional)" note "This is the optional version." } }',
    )
    assert (r4.title, r4.errata.printed_title) == ("Escape Chart (optional)", "Escape Chart")
    assert r4.errata.notes == (("e1", "This is the optional version."),)


def test_errata_apply_in_order_and_override(tmp_path: Path) -> None:
    comp, r4 = chart_after(
        tmp_path,
        'errata late "Second printing" { order 2 overrides early '
        'amend R4 { change piston 3-6 column result to "Escape" } }\n'
        'errata early "First printing" { order 1 amend R4 { change piston 3-6 column result to "Evade" } }\n',
    )
    assert "C602" not in codes(comp)
    row = next(r for r in r4.rows if r.errata)
    assert row.values == ("Escape",) and row.errata == ("early", "late") and row.printed_values == ("Combat",)
    assert [e.id for e in comp.project.games["t"].errata] == ["early", "late"]


@pytest.mark.parametrize(
    "errata, message",
    [
        ('amend R5 { remove piston 1-2 }', "amends chart `R5`, which does not exist"),
        ('amend R4 { remove piston 1-3 }', "names row `piston 1-3` of chart `R4`, which has no such row"),
        ('amend R4 { remove piston }', "matches 2 rows"),
        ('amend R4 { change piston 3-6 column reslt to "X" }', "which chart `R4` does not have"),
    ],
)
def test_errata_naming_nothing_is_reported(tmp_path: Path, errata: str, message: str) -> None:
    comp, _ = chart_after(tmp_path, f'errata e1 "E" {{ {errata} }}')
    found = [d for d in comp.diagnostics if d.code == "C601"]
    assert len(found) == 1 and message in found[0].message


@pytest.mark.parametrize(
    "errata",
    [
        'amend R4 { move piston 3-6 to 3-6 }',
        'amend R4 { retitle "Escape Chart" }',
        'amend R4 { change piston 1-2 column result to "Safe escape" }',
    ],
)
def test_errata_without_effect_is_reported(tmp_path: Path, errata: str) -> None:
    comp, _ = chart_after(tmp_path, f'errata e1 "E" {{ {errata} }}')
    assert "C603" in codes(comp)


def test_outputs_mark_amended_cells(tmp_path: Path) -> None:
    comp, _ = chart_after(
        tmp_path,
        'errata e1 "Publisher errata" { source "website" amend R4 { change piston 3-6 column result to "Evade" } }',
    )
    out = render_outputs(comp.project)
    doc = json.loads(out["t/t.json"])
    r4 = doc["charts"][0]
    assert r4["errata"]["applied"] == ["e1"]
    changed = r4["rows"][1]
    assert changed["errata"] == ["e1"] and changed["printed"] == {"range": "3-6", "values": {"result": "Combat"}}
    assert "errata" not in r4["rows"][0]
    assert doc["errata"] == [
        {"id": "e1", "title": "Publisher errata", "source": "website", "date": None, "order": 0, "notes": []}
    ]
    html = out["t/t.html"]
    assert (
        'Evade <span class="was">(printed Combat)</span><sup class="errata">E1</sup>' in html
    )  # marked by text, not colour
    # the key names the document once (cited by name, no dash fragment); the note gives its mark
    assert "<b>E1</b> Publisher errata (website)." in html
    assert '<span class="lead">Errata</span> E1: amended the marked cells.' in html
    assert "Errata applied: e1" in out["t/t.py"]


def _copy_project(tmp_path: Path, games: tuple[str, ...] = ("aa_rules", "ia2", "stuka_leader", "usaaf")) -> Path:
    """A copy of the real charts/ in tmp_path, of only `games` where the others prove nothing (each
    game compiles and renders on its own; a whole copy cost about 2 s of CPU a build)."""
    for game in games:
        shutil.copytree(ROOT / "charts" / game, tmp_path / "charts" / game)
    return tmp_path / "charts"


def test_removing_an_errata_file_reverts_exactly_its_outputs(tmp_path: Path, corpus_outputs, corpus_as_printed) -> None:
    # IA2 and USAAF, each with its errata: IA2's removed, USAAF's kept
    charts = _copy_project(tmp_path, ("ia2", "usaaf"))
    with_errata = corpus_outputs()  # the session's corpus: the same files as the copy
    as_printed = render_game(corpus_as_printed.project.games["ia2"])
    (charts / "ia2" / "errata.chart").unlink()
    without = render_outputs(load([charts]).project)
    for rel, text in without.items():
        if rel == "ia2/ia2.json":  # the same data; only the printing it names differs
            built, printed = json.loads(text), json.loads(as_printed[rel])
            assert built.pop("printing") == {"key": "amended", "label": "as corrected", "left_out": []}
            assert printed.pop("printing") == {"key": "as-printed", "label": "as printed",
                                               "left_out": ["ia2_1943_44", "chartc_ia2"]}
            assert built == printed
        elif rel.startswith("ia2/"):
            assert text == as_printed[rel], rel  # IA2 is back to the book as printed
        else:
            assert text == with_errata[rel], rel  # other games keep their errata
    assert sorted({rel.split("/")[0] for rel in without}) == ["ia2", "usaaf"]
    assert with_errata["ia2/ia2.json"] != without["ia2/ia2.json"]


def test_build_as_printed_writes_the_book_as_printed(tmp_path: Path, monkeypatch) -> None:
    _copy_project(tmp_path, ("usaaf",))  # USAAF's Target Systems table, the errata's added Berlin row
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["build", "--as-printed"])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "build" / "as-printed" / "usaaf" / "usaaf.json").read_text())
    targets = next(c for c in doc["charts"] if c["address"] == "target_systems")
    assert len(targets["rows"]) == 22 and "errata" not in targets and doc["errata"] == []
    assert not (tmp_path / "generated").exists()


def test_diff_of_a_tree_against_itself_is_empty(corpus) -> None:
    project = corpus.project
    assert diff_projects(project, project) == []


def test_diff_reports_exactly_one_changed_cell(tmp_path: Path, corpus) -> None:
    charts = _copy_project(tmp_path)
    path = charts / "ia2" / "combat.chart"
    text = path.read_text()
    path.write_text(text.replace('jet    1-4: "Safe escape"', 'jet    1-4: "Evade"'))
    changes = diff_projects(corpus.project, load([charts]).project)
    # chartc's errata reads the printed 1-4 as 4- (7.9.1's Gruppe Leader -1 DRM)
    assert [c.text() for c in changes] == ["R4, interceptor Jet or Rocket, roll 4-: Result: Safe escape \u2192 Evade"]


def test_diff_ignores_reordered_rows_and_reports_a_moved_range_once(tmp_path: Path, corpus, corpus_as_printed) -> None:
    charts = _copy_project(tmp_path)
    path = charts / "ia2" / "combat.chart"
    text = path.read_text()
    swapped = text.replace(
        '    jet    1-4: "Safe escape"\n    jet    5-6: "Combat"',
        '    jet    5-6: "Combat"\n    jet    1-4: "Safe escape"',
    )
    assert swapped != text
    path.write_text(swapped)
    assert diff_projects(corpus.project, load([charts]).project) == []
    path.write_text(text.replace('piston 3-6: "Combat"', 'piston 3-7: "Combat"'))
    changes = diff_projects(corpus_as_printed.project, load([charts], printing=AS_PRINTED).project)
    assert [(c.kind, c.old, c.new) for c in changes] == [("range", "3-6", "3-7")]


def test_diff_as_printed_lists_the_errata(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["diff", "charts", "charts", "--as-printed", "--format", "json"])
    doc = json.loads(r.stdout)
    texts = [c["text"] for c in doc["changes"]]
    assert "R4, interceptor Piston-engined, roll 3-6: 3-6 \u2192 3+" in texts
    assert any(t.startswith("target_systems, city Berlin: row added") for t in texts)
    berlin = next(c for c in doc["changes"] if c["kind"] == "row added")
    assert (
        berlin["cite"] == "Corrected Target Systems Planning Table (With Berlin) (USAAF rulebook, 25.0 Charts & Tables)"
    )


def test_errata_sheet_snapshot(snapshot, corpus, corpus_as_printed) -> None:
    a = corpus_as_printed.project
    b = corpus.project
    changes = diff_projects(a, b)
    html = errata_sheet_html(
        changes, {g.id: g.title for g in b.games.values()}, "the rulebooks as printed", "with errata"
    )
    assert html.count("<tr><th scope=\"row\">") == len(changes)  # one change per line
    assert html == snapshot


def test_diff_between_git_revisions_in_a_fresh_clone(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _copy_project(repo, ("ia2",))  # the changed cell is IA2's
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "charts as printed")
    path = repo / "charts" / "ia2" / "optional.chart"
    path.write_text(path.read_text().replace('"Green":           01-08 | 01-06', '"Green":           01-09 | 01-06'))
    git("commit", "-qam", "change one cell")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True, capture_output=True)
    r = subprocess.run(
        [sys.executable, "-c", "from compiler.cli import main; main()", "diff", "HEAD~1", "HEAD", "--format", "json"],
        cwd=clone, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 0, r.stderr
    changes = json.loads(r.stdout)["changes"]
    assert [(c["chart"], c["kind"], c["old"], c["new"]) for c in changes] == [("R7", "range", "01-08", "01-09")]
