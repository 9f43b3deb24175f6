"""Printings as values: the charts as corrected (every errata), as printed (none), or up to a named
errata (`--printing NAME`), in the resolver, the compiled-game cache, the build record, every
command that reads charts, and `chartc diff` between two printings (that round's errata sheet)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build import cache as game_cache
from compiler.build.project import load, load_game
from compiler.cli import cli
from compiler.errata.printing import AS_CORRECTED, AS_PRINTED, UnknownPrinting, UpTo, printing_key
from tests.conftest import ROOT, compile_text

# Two rounds of errata on one chart, in the order the publisher issued them: the second printing
# corrects a range, the 2021 errata then retitle the chart and change the Combat result.
TWO_ROUNDS = '''game t { title "Test game" }
chart [R4] escape "Escape Chart" {
  roll 1d6
  column result: text "Result"
  rows {
    1-2: "Safe escape"
    3-6: "Combat"
  }
}
errata second "Second printing errata" {
  edition "second printing"
  date "2019-06"
  order 1
  amend R4 { move 1-2 to 1-3 because "1-3 escapes, as 7.1.10 says" move 3-6 to 4-6 }
}
errata e2021 "Official errata (2021)" {
  source "publisher website"
  date "2021-03-15"
  order 2
  amend R4 { retitle "Escape Chart (corrected)" change 4-6 column result to "Evade" because "7.1.10: evade" }
}
'''


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "t.chart").write_text(TWO_ROUNDS, encoding="utf-8")
    return folder


def _rows(comp) -> list[tuple[str, object]]:
    chart = comp.project.games["t"].chart("R4")
    return [(r.range.printed, r.values[0]) for r in chart.rows]


def test_each_printing_builds_its_own_state(tmp_path: Path) -> None:
    _game(tmp_path)
    with contextlib.chdir(tmp_path):
        printed, second, corrected = (load([Path("charts")], p) for p in (AS_PRINTED, UpTo("second"), AS_CORRECTED))
    assert _rows(printed) == [("1-2", "Safe escape"), ("3-6", "Combat")]
    assert _rows(second) == [("1-3", "Safe escape"), ("4-6", "Combat")]  # the second printing only
    assert _rows(corrected) == [("1-3", "Safe escape"), ("4-6", "Evade")]
    assert [e.id for e in second.project.games["t"].errata] == ["second"]
    assert second.project.games["t"].chart("R4").title == "Escape Chart"
    assert corrected.project.games["t"].chart("R4").title == "Escape Chart (corrected)"
    assert [e.id for e in printed.project.games["t"].errata] == []
    assert not [d for d in second.diagnostics if d.severity.value == "error"]


def test_the_last_errata_named_is_every_errata(tmp_path: Path) -> None:
    _game(tmp_path)
    with contextlib.chdir(tmp_path):
        upto, corrected = load([Path("charts")], UpTo("e2021")), load([Path("charts")])
    # the same charts; only the printing each game says it was built in differs
    [(key, label, left_out)] = [(g.printing, g.printing_label, g.left_out) for g in upto.project.games.values()]
    assert (key, label, left_out) == ("up-to-e2021", "up to errata e2021", ())
    assert corrected.project.games["t"].printing == "amended"
    renamed = {g: replace(game, printing="amended", printing_label="as corrected")
               for g, game in upto.project.games.items()}
    assert renamed == dict(corrected.project.games)


def test_ia2_up_to_the_1943_44_errata_is_the_book_with_that_round_only(corpus, corpus_as_printed) -> None:
    with contextlib.chdir(ROOT):
        round1 = load([Path("charts/ia2")], UpTo("ia2_1943_44")).project.games["ia2"]
    # IA2 errata 1943-44: "Chart [C3] (correction): This chart is the Optional version. The Extended
    # Burst Charts on the Ops Map and in the rules are the standard charts for use."
    assert round1.chart("extended_burst").title == "Extended Burst (standard chart)"
    assert corpus_as_printed.project.games["ia2"].chart("extended_burst").title == "Extended Burst"
    # chartc_ia2 (order 2) is not applied yet: R4 keeps the printed 3-6 (7.1.10), corrected to 3+ after it
    ranges = [r.range.printed for r in round1.chart("R4").rows if r.keys == ("piston",)]
    assert ranges == ["1-2", "3-6"]
    corrected = [r.range.printed for r in corpus.project.games["ia2"].chart("R4").rows if r.keys == ("piston",)]
    assert corrected == ["2-", "3+"]
    assert [e.id for e in round1.errata] == ["ia2_1943_44"]


def test_an_unknown_printing_names_the_games_errata(tmp_path: Path) -> None:
    _game(tmp_path)
    with contextlib.chdir(tmp_path), pytest.raises(UnknownPrinting) as caught:
        load([Path("charts")], UpTo("secnd"))
    assert str(caught.value) == (
        "game `t` has no errata `secnd`; did you mean `second`? its errata, in the order they apply: "
        "`second`, `e2021`"
    )


def test_a_game_without_errata_has_no_named_printing(tmp_path: Path) -> None:
    compile_text(tmp_path, 'game t { title "T" }\n')
    with contextlib.chdir(tmp_path), pytest.raises(UnknownPrinting, match="game `t` has no errata, so there"):
        load([Path("charts")], UpTo("second"))


def test_an_override_of_an_errata_left_out_is_no_unknown_name(tmp_path: Path) -> None:
    # the 2021 errata overrides the second printing's: up to `second`, e2021 is not applied at all
    text = TWO_ROUNDS.replace("  order 2\n", "  order 2\n  overrides second\n")
    with contextlib.chdir(tmp_path):
        compile_text(tmp_path, text)
        comp = load([Path("charts")], UpTo("second"))
    assert [d.code for d in comp.diagnostics] == []


def test_a_saved_game_of_one_printing_never_answers_for_another(tmp_path: Path) -> None:
    _game(tmp_path)
    cache = tmp_path / "cache"
    printings = (AS_CORRECTED, AS_PRINTED, UpTo("second"), UpTo("e2021"))
    with contextlib.chdir(tmp_path):
        first = [_rows(load_game(Path("charts/t"), p, cache_dir=cache)) for p in printings]
        again = [_rows(load_game(Path("charts/t"), p, cache_dir=cache)) for p in printings]
    assert first == again
    assert first[1] == [("1-2", "Safe escape"), ("3-6", "Combat")] and first[2] == [("1-3", "Safe escape"),
                                                                                     ("4-6", "Combat")]
    assert len(list(cache.glob("game-*.pickle"))) == 4  # one saved game per printing
    sources = {"t.chart": TWO_ROUNDS}
    keys = {game_cache.game_key("t", p, sources) for p in printings}
    slots = {game_cache.slot_name(tmp_path, p) for p in printings}
    assert len(keys) == len(slots) == 4
    assert [printing_key(p) for p in printings] == ["amended", "as-printed", "up-to-second", "up-to-e2021"]


def test_a_build_record_of_one_printing_never_answers_for_another(tmp_path: Path, monkeypatch) -> None:
    _game(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    runner = CliRunner()
    built = runner.invoke(cli, ["build", "charts", "--printing", "second", "--out", "out"])
    assert built.exit_code == 0, built.output
    doc = json.loads((tmp_path / "out" / "t" / "t.json").read_text())
    assert [e["id"] for e in doc["errata"]] == ["second"]
    assert doc["errata"][0]["edition"] == "second printing" and doc["errata"][0]["date"] == "2019-06"
    same = runner.invoke(cli, ["build", "charts", "--printing", "second", "--out", "out", "--check"])
    assert same.exit_code == 0 and "up to date" in same.output
    for other in (["--as-printed"], [], ["--printing", "e2021"]):
        r = runner.invoke(cli, ["build", "charts", *other, "--out", "out", "--check"])
        assert r.exit_code == 1, (other, r.output)  # the record of `second` is not this printing's
        assert "stale:    out/t/t.json" in r.output
    default = runner.invoke(cli, ["build", "charts", "--printing", "second"])
    assert default.exit_code == 0, default.output
    assert (tmp_path / "build" / "up-to-second" / "t" / "t.json").read_text() == (
        tmp_path / "out" / "t" / "t.json").read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "ia2/R4", "3", "--key", "interceptor=piston"],
        ["odds", "ia2/R4", "--key", "interceptor=piston"],
        ["compute", "usaaf/production_increase", "--set", "production=10"],
        ["analyze", "usaaf/CRT"],
        ["check", "charts/ia2"],
        ["build", "charts/ia2", "--check"],
    ],
)
def test_every_command_that_reads_charts_names_a_printing(run, args: list[str]) -> None:
    r = run(*args, "--printing", "ia2_1943")
    assert r.exit_code == 2
    game = args[1].split("/")[-1] if args[0] in ("check", "build") else args[1].split("/")[0]
    assert f"game `{game}` has no errata `ia2_1943`" in r.output
    both = run(*args, "--printing", "ia2_1943_44", "--as-printed")
    assert both.exit_code == 2 and "--as-printed and --printing name different printings" in both.output


def test_lookup_up_to_the_1943_44_errata_reads_the_printed_escape_range(run) -> None:
    # IA2 7.1.10: R4 prints combat on 3-6 for a piston-engined interceptor; chartc_ia2 (order 2)
    # reads it 3+, the 1943-44 errata (order 1) do not touch R4
    r = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--printing", "ia2_1943_44", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["range"] == "3-6"
    corrected = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--format", "json")
    assert json.loads(corrected.stdout)["range"] == "3+"


def test_diff_between_printings_lists_that_round_only(run, tmp_path: Path) -> None:
    sheet = tmp_path / "round1.html"
    r = run("diff", "charts/ia2", "--old-as-printed", "--new-printing", "ia2_1943_44", "--format", "json",
            "--html", str(sheet))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert (doc["old"], doc["new"]) == ("charts/ia2 (as printed)", "charts/ia2 (up to errata ia2_1943_44)")
    # IA2 errata 1943-44: C3 is the optional chart; the extended burst chart of 7.1.13 the standard one
    assert [(c["chart"], c["where"]) for c in doc["changes"]] == [
        ("extended_burst", "title"), ("extended_burst", "errata note")]
    assert doc["changes"][0]["reason"] == "the rules call this chart [C3], which the errata makes the optional chart"
    assert doc["changes"][1]["new"].startswith("Chart [C3] is the Optional version")
    html = sheet.read_text()
    assert "Extended Burst (standard chart)" in html and "3+" not in html and "Corrections of print" not in html
    round2 = run("diff", "charts/ia2", "--old-printing", "ia2_1943_44", "--format", "json")
    changes = json.loads(round2.stdout)["changes"]
    # chartc_ia2 only: R4's four moved ranges (7.1.10, 7.9.1), Knight's Cross (7.8.7), promotion (7.9.3)
    assert sorted((c["chart"], c["old"], c["new"]) for c in changes) == [
        ("R4", "1-2", "2-"), ("R4", "1-4", "4-"), ("R4", "3-6", "3+"), ("R4", "5-6", "5+"),
        ("knights_cross", "1", "1-"), ("promotion", "1-4", "4-")]
    cited = "Corrections of print defects, from the rules text (charts/ia2/errata.chart)"
    assert {c["cite"] for c in changes} == {cited}


def test_diff_without_new_needs_two_printings(run) -> None:
    r = run("diff", "charts/ia2")
    assert r.exit_code == 2 and "give NEW, or read OLD in two printings" in r.output


def test_the_errata_sheet_cites_the_edition_and_date(tmp_path: Path, monkeypatch) -> None:
    _game(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["diff", "charts", "--old-as-printed", "--new-printing", "second", "--format", "json"])
    assert r.exit_code == 0, r.output
    cites = {c["cite"] for c in json.loads(r.stdout)["changes"]}
    assert cites == {"Second printing errata (second printing; 2019-06)"}


def test_a_misspelt_errata_field_says_did_you_mean(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, TWO_ROUNDS.replace('  edition "second printing"', '  edtion "second printing"'))
    [d] = comp.diagnostics
    assert d.code == "C101" and d.span.line == 11
    assert d.help is not None and d.help.startswith("did you mean `edition`? expected `amend`, `date`, `edition`")


def test_an_errata_dated_in_words_is_c604_and_keeps_no_date(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, TWO_ROUNDS.replace('date "2019-06"', 'date "June 2019"'))
    assert [(d.code, d.message) for d in comp.diagnostics] == [
        ("C604", "errata `second` is dated `June 2019`, which is not a date")]
    assert comp.project.games["t"].errata[0].date is None
    assert comp.project.games["t"].errata[0].edition == "second printing"


def test_the_printing_option_is_documented(run) -> None:
    for command in ("lookup", "odds", "compute", "check", "build", "analyze"):
        assert "--printing ERRATA" in run(command, "--help").output, command
    text = run("diff", "--help").output
    assert "--new-printing ERRATA" in text and "--old-printing ERRATA" in text and "--new-as-printed" in text
