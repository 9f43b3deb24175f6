"""`kept CODE at SUBJECT because "why"`: the warnings the books' own print causes (USAAF's May 1944
in no game turn, C411; IA2's postings before the aircraft's availability, C412) are notes (C484) in
the real charts, and the code still fires on a copy that does not keep them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from compiler.build.project import Compilation
from compiler.diagnostics import Severity, render_short
from compiler.emit.json import emit_game_json
from tests.conftest import CHARTS, codes, compile_files, compile_text

_TURNS = (
    'game t { title "T" calendar 1944-01 to 1944-12 period gt1 "Game Turn 1" 1944-01 to 1944-04 '
    'period gt4 "Game Turn 4" 1944-06 to 1944-10 period gt9 "Game Turn 9" 1944-12 to 1944-12 }\n'
)


def test_corpus_keeps_the_five_printed_warnings(corpus: Compilation) -> None:
    kept = [d for d in corpus.diagnostics if d.code == "C484"]
    # USAAF 23.1/22.8: May 1944 in no game turn; IA2 10.4 (three postings) and 10.15.3 (Schweinfurt)
    assert sorted((Path(d.span.file).parent.name, d.message.split(";")[0]) for d in kept) == [
        ("ia2", "`Intercept Raid on Schweinfurt` (Historical Mission, 1943-08) uses `Bf 109G-6/R6`, available "
         "only from 1944-03 (C412)"),
        ("ia2", "`Schnörrer: EKdo 262` (Jet Ace's unit, 1944-06) uses `Me 262A-1a`, available only from 1944-07 "
         "(C412)"),
        ("ia2", "`Späte: EKdo 16` (Jet Ace's unit, 1944-05) uses `Me 163B-1`, available only from 1944-07 (C412)"),
        ("ia2", "`Späte: JG 7` (Jet Ace's unit, 1944-03) uses `Me 262A-1b`, available only from 1944-07 (C412)"),
        ("usaaf", "no period covers 1944-05, between `gt3` and `gt4` (C411)"),
    ]
    assert [render_short(d) for d in corpus.diagnostics if d.severity is Severity.WARNING] == []


def test_usaaf_header_without_its_kept_statement_warns(tmp_path: Path) -> None:
    text = (CHARTS / "usaaf" / "game.chart").read_text(encoding="utf-8")
    assert "kept C411 at 1944-05" in text
    unkept = "\n".join(line for line in text.splitlines() if not line.startswith("kept C411"))
    comp = compile_text(tmp_path, unkept, game="usaaf", name="game.chart")
    [found] = [d for d in comp.diagnostics if d.code in ("C411", "C484")]
    assert (found.code, found.message) == ("C411", "no period covers 1944-05, between `gt3` and `gt4`")


def test_ia2_postings_without_their_kept_statements_warn(tmp_path: Path) -> None:
    files = {p.name: p.read_bytes() for p in (CHARTS / "ia2").iterdir() if p.suffix == ".chart"}
    files["modes.chart"] = b"\n".join(
        line for line in files["modes.chart"].splitlines() if not line.startswith(b"kept C412")
    )
    comp = compile_files(tmp_path, files, game="ia2")
    assert "C484" not in codes(comp)
    # 10.4: Schnörrer June 1944, Späte May and March 1944 in jets from July 1944; 10.15.3 August 1943
    assert sorted(d.message.split("`")[1] for d in comp.diagnostics if d.code == "C412") == [
        "Intercept Raid on Schweinfurt",
        "Schnörrer: EKdo 262",
        "Späte: EKdo 16",
        "Späte: JG 7",
    ]


def test_keeping_one_hole_leaves_the_others_reported(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, _TURNS + 'kept C411 at 1944-05 because "the print leaves May out"\n')
    found = sorted((d.code, d.message.split(";")[0]) for d in comp.diagnostics)
    assert found == [
        ("C411", "no period covers 1944-11, between `gt4` and `gt9`"),
        ("C484", "no period covers 1944-05, between `gt1` and `gt4` (C411)"),
    ]


def test_a_hole_of_several_months_is_kept_by_its_span(tmp_path: Path) -> None:
    turns = _TURNS.replace("1944-06 to 1944-10", "1944-07 to 1944-11")  # May and June out
    assert codes(compile_text(tmp_path, turns + 'kept C411 at 1944-05 because "x"\n')) == ["C411", "C485"]
    comp = compile_text(tmp_path, turns + 'kept C411 at 1944-05..1944-06 because "May and June"\n')
    [note] = comp.diagnostics
    assert note.code == "C484" and note.message.startswith("no period covers 1944-05 to 1944-06")


def test_kept_at_an_unknown_record_is_an_unknown_name(tmp_path: Path) -> None:
    text = (
        'game t { title "T" calendar 1944-03 to 1944-12 }\n'
        'enum aircraft { fields { available: month } me262 "Me 262A-1a" { available: 1944-07 } }\n'
        'enum posting { fields { month: month  aircraft: aircraft }\n'
        '  ekdo262 "EKdo 262" { month: 1944-06  aircraft: me262 } }\n'
        'kept C412 at postng.ekdo262 because "x"\n'
        'kept C412 at posting.ekdo26 because "x"\n'
    )
    comp = compile_text(tmp_path, text)
    assert [(d.code, d.message, d.help) for d in comp.diagnostics if d.code == "C201"] == [
        ("C201", "unknown enum `postng` in `kept`", "did you mean `posting`?"),
        ("C201", "`posting` has no record `ekdo26`", "did you mean `ekdo262`?"),
    ]
    assert "C412" in codes(comp)  # neither statement keeps it


def test_kept_statements_are_in_the_game_json(corpus: Compilation) -> None:
    # USAAF 23.1/22.8: May 1944 in no game turn; IA2 10.4 (Schnörrer's EKdo 262 posting) kept as printed
    schema = json.loads((CHARTS.parent / "schemas" / "chartc-game.schema.json").read_text("utf-8"))
    usaaf = json.loads(emit_game_json(corpus.project.games["usaaf"]))
    jsonschema.validate(usaaf, schema)
    [may] = usaaf["kept_findings"]
    assert (may["code"], may["at"], may["at_kind"], may["source_file"], may["line"]) == (
        "C411", "1944-05", "months", "usaaf/game.chart", 27
    )
    assert may["because"].startswith("23.1 prints Game Turn 3 as March/April and 22.8 Game Turn 4 as June")
    ia2 = json.loads(emit_game_json(corpus.project.games["ia2"]))
    assert [(k["code"], k["at"], k["at_kind"]) for k in ia2["kept_findings"]] == [
        ("C412", "ace_posting.schnoerrer_ekdo262", "record"),
        ("C412", "ace_posting.spaete_ekdo16", "record"),
        ("C412", "ace_posting.spaete_jg7", "record"),
        ("C412", "mission.schweinfurt", "record"),
    ]
