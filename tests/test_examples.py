"""Issue 14: the rulebook's worked examples as `example` blocks, held against the charts by
`chartc check`, written into the JSON and run by the generated Python's `check_examples()`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from compiler.cli import cli
from compiler.diagnostics.render import render_short
from dsl.parser import parse_text
from tests.conftest import ROOT, codes, compile_text, import_module

# A test R4 shaped like IA2 7.1.10's Escape Chart: a piston-engined fighter escapes on 1-2, a jet on 1;
# an F/B attack adds +1 (IA2 R4 footnote 1).
ESCAPE = """game t { title "Test game" }
enum kind { piston "Piston-engined" jet "Jet" }
context fb_attack: flag "F/B attack"
context kills: int "Kills" 0-300
chart [R4] escape "Escape" {
  rule "7.1.10"
  roll 1d6
  key interceptor: kind
  column result: text "Result"
  drm fb "F/B attack" +1 when fb_attack
  drm ace "Ace" -1 when kills >= 5
  allow C305 "an ace's jet on a 1 reads no row, as the example jet_off states"
  rows { piston 1-2: "Escape"  piston 3+: "Combat"  jet 1: "Escape"  jet 2+: "Combat" }
}
"""

AGREEING = """
example fb_piston "A piston fighter on an F/B attack rolls 2" {
  rule "7.1.10"
  chart [R4]
  key interceptor = "Piston-engined"
  roll 2
  when fb_attack
  expect result = "Combat"
  expect row 3+
  expect drm +1
  expect modified 3
}
example ace_jet "An ace in a jet rolls 2: -1, so 1" {
  rule "7.1.10"
  chart escape
  key interceptor = jet
  roll 2
  set kills = 5
  expect result = "Escape"
  expect modified 1
}
example jet_off "A jet rolls 1 with -1: no row" {
  rule "7.1.10"
  chart [R4]
  key interceptor = jet
  roll 1
  set kills = 7
  expect no row
}
"""


def _game(tmp_path: Path, examples: str):
    return compile_text(tmp_path, ESCAPE + examples)


def test_keywords_of_examples_stay_usable_as_names() -> None:
    # the example's keywords (`set`, `follow`, `expect`, `attack`, ...) are names elsewhere, and a
    # record field named `rule` after another field still parses (an LALR state shared with the
    # example's `expect` value once made `rule` a keyword there: IA2 reference.chart line 99)
    text = """
    enum word { set "Set" follow "Follow" expect "Expect" attack "Attack" defense "Defense" contradicts "C" }
    enum unit "Unit" { fields { p: int  rule: text } a "A" { p: 2  rule: "x" } }
    chart [X] set "Set" { rule "1" roll 1d6 key word column r: text rows { set 1-6: "a" follow 1-6: "b" } }
    """
    result = parse_text(text, "k.chart")
    assert result.errors == []
    assert result.source.charts[0].slug.text == "set"


def test_agreeing_examples_are_quiet(tmp_path: Path) -> None:
    comp = _game(tmp_path, AGREEING)
    assert codes(comp) == []
    assert [e.id for e in comp.project.games["t"].examples] == ["fb_piston", "ace_jet", "jet_off"]


def test_a_wrong_result_is_reported_with_both_spans(tmp_path: Path) -> None:
    # the example forgets the F/B attack flag: 2 reads row 1-2, Escape
    comp = _game(
        tmp_path,
        """
example fb_piston "A piston fighter on an F/B attack rolls 2" {
  rule "7.1.10"
  chart [R4]
  key interceptor = piston
  roll 2
  expect result = "Combat"
}
""",
    )
    (finding,) = comp.diagnostics
    assert finding.code == "C460"
    assert render_short(finding) == (
        "charts/t/case.chart:21:3: error[C460]: example `fb_piston` (rule 7.1.10): the book gives result "
        "`Combat`, `R4` gives `Escape` (roll 2, row 1-2)"
    )
    (label,) = finding.labels
    assert (label.span.line, label.message) == (13, "the row `R4` selects")


def test_an_example_edited_to_a_wrong_value_fails_check(tmp_path: Path) -> None:
    # each expectation of an agreeing example, edited, is C460 at its own line
    edits = {
        'expect result = "Combat"': 'expect result = "Escape"',
        "expect row 3+": "expect row 1-2",
        "expect drm +1": "expect drm +2",
        "expect modified 3": "expect modified 4",
    }
    for right, wrong in edits.items():
        comp = _game(tmp_path / wrong.split()[1], AGREEING.replace(right, wrong, 1))
        assert codes(comp) == ["C460"], wrong
        assert comp.diagnostics[0].span.line == 14 + 1 + list(edits).index(right) + 7


def test_no_row_expectation(tmp_path: Path) -> None:
    # jet 1 with the ace's -1 is 0: below the table; `expect result` there says what the chart lacks
    comp = _game(tmp_path, AGREEING.replace("  expect no row\n", '  expect result = "Escape"\n'))
    assert codes(comp) == ["C460"]
    assert "`R4` gives `no row` (modified roll 0 (natural 1, DRM -1) selects no row" in comp.diagnostics[0].message


def test_contradicts_keeps_the_book_as_a_note_and_goes_stale_as_a_warning(tmp_path: Path) -> None:
    kept = AGREEING.replace(
        '  when fb_attack\n  expect result = "Combat"\n  expect row 3+\n  expect drm +1\n  expect modified 3\n',
        '  expect result = "Combat"\n  contradicts "the book adds the F/B DRM unsaid"\n',
    )
    comp = _game(tmp_path / "kept", kept)
    assert codes(comp) == ["C461"]
    assert comp.diagnostics[0].message.endswith("the charts are kept as printed: the book adds the F/B DRM unsaid")
    stale = AGREEING.replace("  expect no row\n", '  expect no row\n  contradicts "an old printing"\n')
    assert codes(_game(tmp_path / "stale", stale)) == ["C462"]


def test_unreadable_examples(tmp_path: Path) -> None:
    bad = {
        "roll 2\n  when fb_attack": "roll 7\n  when fb_attack",  # 7 is not a roll of 1d6
        "key interceptor = jet": "key interceptor = rocket",  # not a value of the key
        "set kills = 5": "set kils = 5",  # not a context variable
        'rule "7.1.10"\n  chart escape': "chart escape",  # no rule
    }
    for right, wrong in bad.items():
        comp = _game(tmp_path / str(len(wrong)), AGREEING.replace(right, wrong, 1))
        assert codes(comp) == ["C463"], (wrong, [render_short(d) for d in comp.diagnostics])


def test_unknown_chart_and_column_suggest_the_name(tmp_path: Path) -> None:
    comp = _game(
        tmp_path,
        AGREEING.replace("chart [R4]", "chart [R44]", 1).replace('expect result = "Escape"', 'expect reslt = "Escape"'),
    )
    found = sorted((d.code, d.help) for d in comp.diagnostics)
    assert found == [("C201", "did you mean `R4`?"), ("C201", "did you mean `result`?")]


def test_a_followed_chain_is_checked_on_its_last_step(tmp_path: Path) -> None:
    # chainlab: A 4 -> B (theirs, +1); B 8+1 = 9 -> C (+2); C 2+2 = 4 -> the 1d6 in the cell, 5: Killed
    shutil.copytree(ROOT / "tests" / "data" / "charts" / "chainlab", tmp_path / "charts" / "chainlab")
    example = """
example killed "An encounter that ends in a crash" {
  rule "1.1"
  chart [A]
  roll 4, 8, 2, 5
  follow
  expect fate = "Killed"
  expect modified 4
}
"""
    (tmp_path / "charts" / "chainlab" / "examples.chart").write_text(example, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["check", str(tmp_path / "charts"), "--format", "short"])
    assert result.exit_code == 0, result.output
    (tmp_path / "charts" / "chainlab" / "examples.chart").write_text(example.replace("5\n", "3\n", 1))
    result = runner.invoke(cli, ["check", str(tmp_path / "charts"), "--format", "short"])
    assert result.exit_code == 1
    assert "the book gives fate `Killed`, `C` gives `Bails out`" in result.output


def test_a_crt_example_reads_the_odds_column(tmp_path: Path) -> None:
    # USAAF 15.1-15.2: 26 against 7 is 3:1 (rounded in the defender's favour)
    shutil.copytree(ROOT / "charts" / "usaaf", tmp_path / "charts" / "usaaf")
    for odds, ok in (('"3:1"', True), ('"4:1"', False)):
        text = (
            f'example odds_test "26 against 7" {{\n  rule "15.2"\n  chart crt_odds\n'
            f"  attack 26\n  defense 7\n  expect odds {odds}\n}}\n"
        )
        (tmp_path / "charts" / "usaaf" / "examples_test.chart").write_text(text, encoding="utf-8")
        result = CliRunner().invoke(cli, ["check", str(tmp_path / "charts"), "--format", "short"])
        assert ("C460" not in result.output) is ok, result.output


def test_json_and_generated_python_carry_the_examples(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "game.chart").write_text(ESCAPE + AGREEING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build", "charts", "--out", "out"])
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "out" / "t" / "t.json").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "schemas" / "chartc-game.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    first = doc["examples"][0]
    assert first["inputs"]["keys"] == {"interceptor": "Piston-engined"}
    assert first["inputs"]["when"] == ["fb_attack"]
    assert first["expect"] == [
        {"kind": "cell", "column": "result", "value": "Combat"},
        {"kind": "row", "range": "3+"},
        {"kind": "drm", "value": 1},
        {"kind": "modified", "value": 3},
    ]
    assert (first["source_file"], first["line"]) == ("t/game.chart", 16)
    module = import_module(tmp_path / "out" / "t" / "t.py", "t_examples")
    # jet_off: the ace's -1 takes a jet's 1 off the table: the module raises NoRowError, as the book says
    assert [e[0] for e in module.EXAMPLES] == ["fb_piston", "ace_jet", "jet_off"]
    assert module.EXAMPLES[2][3] is None
    assert module.check_examples() == []
    # the module's own calls: R4 with the F/B attack flag is +1
    assert module.EXAMPLES[0][2]() == {"result": "Combat"}
    text = (tmp_path / "out" / "t" / "t.py").read_text(encoding="utf-8")
    assert "lambda: lookup_r4(2, interceptor='piston', drm=drm_r4(fb_attack=True))," in text


def test_the_generated_check_finds_a_module_that_disagrees(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "game.chart").write_text(ESCAPE + AGREEING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["build", "charts", "--out", "out"]).exit_code == 0
    path = tmp_path / "out" / "t" / "t.py"
    # a hand edit of the module's rows: piston 3+ now reads Escape
    text = path.read_text(encoding="utf-8")
    assert text.count("'Combat'") >= 2
    path.write_text(text.replace("(('piston',), 3, None, ('Combat',))", "(('piston',), 3, None, ('Escape',))"))
    module = import_module(path, "t_examples_edited")
    assert module.check_examples() == [
        "fb_piston (rule 7.1.10): the book gives {'result': 'Combat'}, the module {'result': 'Escape'}"
    ]


def test_the_corpus_record_lists_the_corpus_examples_and_each_contradiction() -> None:
    # docs/records/corpus.md's examples table is the script's output: a new example or decision must reach it
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "scripts/examples_report.py", "--check"], cwd=ROOT, capture_output=True)
    assert done.returncode == 0, done.stdout


def test_the_corpus_examples_agree_or_say_why(tmp_path: Path) -> None:
    # every worked example in charts/ is read; the four the IA2 book contradicts are kept as printed
    from compiler.build.project import load

    comp = load([ROOT / "charts"])
    found = sorted((d.code, d.message.split("`")[1]) for d in comp.diagnostics if d.code.startswith("C46"))
    assert found == [
        ("C461", "bf109_tight_turn_after_engine_hit"),  # IA2 7.12: the agile tight turn right after the engine hit
        ("C461", "chandelle_card"),  # IA2 7.2.2.10: the card's Chandelle avoids all damage; 10.8's avoids 3 hits
        ("C461", "cuban_eight_card"),  # IA2 7.12: the card's Cuban 8 improves 2; 10.8's improves 1
        ("C461", "fatigue_16_landing"),  # IA2 7.12: +2 landing at Fatigue 16; R6 gives +2 from 20
        ("C461", "initiative_7_12"),  # IA2 7.12: Agile +2 on B12 right after the engine hit that 7.2.2.9 says ends it
        ("C461", "initiative_7_12"),  # ... and no -1 for Fatigue 16 (R6): the differential and the row
        ("C461", "initiative_7_12_round_2"),  # IA2 7.12 round 2: the same two
        ("C461", "initiative_7_12_round_2"),
        ("C461", "landing_7_12"),  # IA2 7.12: +1 engine, +2 fatigue at 16 on B7; R6 gives +1
        ("C461", "r1_start_jg2_aircraft"),  # IA2 4.4: a 6 gives an FW 190A-8; R1 prints 5-6: FW 190A-7
        ("C461", "r7_july_1944_79"),  # IA2 10.6.1: 79 in 1944 late; R7 prints Veteran 1 Skill at 73-78
    ]
    counts = {g: len(game.examples) for g, game in comp.project.games.items()}
    # USAAF: 10 read charts (14.2's swarming choice among them), 4 compute 22.2-22.5's production formulas,
    # 1 the 9.2 landing turn, 1 20.1's city points, 1 21.2's seven P51s;
    # Stuka Leader: 14 more with issue 15's charts, 47 more with issue 30's (docs/coverage/stuka_leader.md),
    # 1 more for L400's adjacent areas read from the board's adjacency;
    # IA2: every worked example of the book, in part or whole (docs/coverage/ia2.md, issue 30; 7.12's
    # three choices when disadvantaged in charts/ia2/choices.chart)
    assert counts == {"aa_rules": 2, "ia2": 105, "stuka_leader": 79, "usaaf": 17}


def test_an_example_marked_aid_is_printed_under_its_chart(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    marked = AGREEING.replace("  expect modified 3\n}", "  expect modified 3\n  aid\n}", 1)
    (folder / "game.chart").write_text(ESCAPE + marked, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["build", "charts", "--out", "out"]).exit_code == 0
    html = (tmp_path / "out" / "t" / "t.html").read_text(encoding="utf-8")
    # IA2 7.1.10-like: a piston fighter on an F/B attack rolls 2, +1: row 3+, Combat
    line = (
        '<span class="lead">Example</span> A piston fighter on an F/B attack rolls 2 (7.1.10): Piston-engined, '
        "roll 2, F/B attack \u2192 Result: Combat; row 3+; DRM +1; modified roll 3"
    )
    assert line in html
    # the examples not marked `aid` are not printed
    assert "An ace in a jet rolls 2" not in html
    doc = json.loads((tmp_path / "out" / "t" / "t.json").read_text(encoding="utf-8"))
    assert [e["aid"] for e in doc["examples"]] == [True, False, False]


def test_rolls_an_example_does_not_use_are_unreadable(tmp_path: Path) -> None:
    # chainlab A: a 1 ends the chain ("Nothing"), so the rolls 5, 5 are never made
    shutil.copytree(ROOT / "tests" / "data" / "charts" / "chainlab", tmp_path / "charts" / "chainlab")
    text = 'example f3 "x" {\n  rule "1.1"\n  chart [A]\n  follow\n  roll 1, 5, 5\n  expect result = "Nothing"\n}\n'
    (tmp_path / "charts" / "chainlab" / "examples.chart").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "charts"), "--format", "short"])
    assert "C463" in result.output and "the rolls 5, 5 were not used" in result.output
    # on an odds rule, a roll is not an input at all (USAAF 15.1-15.2)
    shutil.copytree(ROOT / "charts" / "usaaf", tmp_path / "u" / "usaaf")
    odds = (
        'example o "x" {\n  rule "15.1"\n  chart crt_odds\n  roll 3\n  attack 26\n  defense 7\n  expect odds "3:1"\n}\n'
    )
    (tmp_path / "u" / "usaaf" / "examples_test.chart").write_text(odds, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "u"), "--format", "short"])
    assert "C463" in result.output and "an odds rule: it takes the forces" in result.output
