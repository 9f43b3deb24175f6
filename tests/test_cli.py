"""The command line contract of DESIGN.md, run through click's runner against the real corpus."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import CASES, ROOT


def test_lookup_r4_piston_3_is_combat(run) -> None:
    # IA2 R4: piston 3-6 -> combat
    r = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--as-printed")
    assert r.exit_code == 0
    assert "Result: Combat" in r.output and "row 3-6" in r.output
    # chartc's errata opens the printed 3-6 to 3+ (footnote 1's +1 DRM); the answer is the same
    r = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston")
    assert r.exit_code == 0 and "Result: Combat" in r.output and "row 3+" in r.output


def test_lookup_names_a_referenced_chart_and_its_address(run) -> None:
    # USAAF 9.3: US units still on the map when the 18 mission turns are flown -> the War Now Ends Table
    out = run("lookup", "usaaf/last_mission_turn", "--key", "mission_end=all_flown").output
    assert "  US aircraft units still on the map: see War Now Ends Table: changes (war_now_ends)\n" in out
    # IA2 B1 (7.1.2): an 11 is Out of the Sun, then the straggler roll
    out = run("lookup", "ia2/B1", "11").output
    assert out.splitlines()[-1] == "  Then: see Straggler roll (after an 11 on the Interception Chart [B1]) (straggler)"


def test_lookup_by_printed_label(run) -> None:
    # IA2 R7: 57 in the "1944 late" column is Veteran
    r = run("lookup", "ia2/R7", "57", "--key", "period=1944 late")
    assert r.exit_code == 0 and "Pilot: Veteran" in r.output


def test_lookup_with_drm(run) -> None:
    # IA2 R9: 19 with the +2 strafe DRM is 21 -> 20+ Vital, 3 points
    r = run("lookup", "ia2/R9", "19", "--drm", "2")
    assert r.exit_code == 0
    assert "19 + DRM 2 = 21 -> row 20+" in r.output and "Vital" in r.output and "Points awarded: 3" in r.output


def test_lookup_json(run) -> None:
    r = run("lookup", "ia2/R9", "19", "--drm", "2", "--json")
    doc = json.loads(r.output)
    assert doc["modified"] == 21 and doc["values"]["points"] == 3 and doc["range"] == "20+"


@pytest.mark.parametrize(
    "args, message",
    [
        (["ia2/R4", "7", "--key", "interceptor=piston"], "7 cannot be rolled on 1d6"),
        (
            ["ia2/R4", "6", "--key", "interceptor=piston", "--drm", "1", "--as-printed"],
            "modified roll 7 (natural 6, DRM +1) selects no row",
        ),
        (["ia2/R7", "90", "--key", "period=1945"], "roll 90 selects no row"),
    ],
)
def test_lookup_without_a_row_fails_clearly(run, args, message) -> None:
    r = run("lookup", *args)
    assert r.exit_code == 1
    assert message in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["ia2/R4", "3", "--key", "interceptor=pistn"], "did you mean `piston`?"),
        (["ia2/R4", "3"], "add `--key interceptor=VALUE`"),
        (["ia2/range_effects", "3", "--key", "range=close"], "leave out the roll"),
        (["ia2/R4", "--key", "interceptor=piston"], "needs a roll"),
        (["ia2/R4", "x", "--key", "interceptor=piston"], "is not a roll"),
    ],
)
def test_a_malformed_question_is_a_usage_error(run, args, message) -> None:
    r = run("lookup", *args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_lookup_unknown_chart_is_a_usage_error(run) -> None:
    r = run("lookup", "ia2/R44", "3")
    assert r.exit_code == 2 and "did you mean `R4`?" in r.output


def test_check_corpus_exits_clean_with_known_findings(run) -> None:
    r = run("check", "charts", "--format", "short")
    assert r.exit_code == 0
    # the books' own warnings are kept as printed: notes (C484), USAAF's May 1944 hole among them
    assert "note[C484]" in r.output and "warning[" not in r.output and "error[" not in r.output


def test_check_strict_passes_once_the_print_defects_are_kept(run, tmp_path: Path) -> None:
    # the USAAF May 1944 hole (C411) has no clear correction: kept as printed, `--strict` passes
    assert run("check", "charts", "--strict").exit_code == 0
    # a copy of the header without its `kept C411` statement fails `--strict` on the warning
    text = (ROOT / "charts" / "usaaf" / "game.chart").read_text(encoding="utf-8")
    folder = tmp_path / "charts" / "usaaf"
    folder.mkdir(parents=True)
    (folder / "game.chart").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("kept C411")), encoding="utf-8"
    )
    r = run("check", str(tmp_path / "charts"), "--strict", "--format", "short")
    assert r.exit_code == 1 and "C411" in r.output


def test_check_reports_errors_with_exit_1(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "charts" / "t").mkdir(parents=True)
    (tmp_path / "charts" / "t" / "a.chart").write_text(
        'game t { title "T" }\nchart [R1] "X" { roll 1d6 column r: text rows { 1-3: "a" } }\n'
    )
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check"])
    assert r.exit_code == 1 and "error[C302]: rolls 4-6 select no row of chart `R1`" in r.output


def test_bad_path_is_a_usage_error(run) -> None:
    r = run("check", "no/such/folder")
    assert r.exit_code == 2 and "no such file or folder" in r.output




def test_build_check_passes_on_committed_outputs(project: Path) -> None:
    # the real corpus, kept: the committed generated/ and IA2's warnings are what is checked; the
    # other `build --check` tests below run on `small_project` (four one-chart games, about 0.1 s a
    # build against about 2 s for a copy of the real corpus)
    # a warning to print: IA2's first `allow C305` (a modified roll past the rows of a chart the book does
    # not print) no longer allowed: a comment in the statement's line, so that every output, line numbers
    # included, stays as committed (an allow is in no output; a `kept` statement is in the game JSON)
    drms = project / "charts" / "ia2" / "card_drms.chart"
    lines = drms.read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines) if line.strip().startswith("allow C305"))
    lines[first] = "  # not allowed"
    drms.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 0, r.output
    # issue 31: a build prints the warnings `check` prints, and their count with the notes'
    checked = CliRunner().invoke(cli, ["check", "--format", "short"])
    warnings = [line for line in checked.stdout.splitlines() if ": warning[" in line]
    # B12's modified roll falls off its highest and its lowest known row: two C305
    assert len(warnings) == 2 and [line for line in r.stderr.splitlines() if ": warning[" in line] == warnings
    notes = sum(": note[" in line for line in checked.stdout.splitlines())
    assert f"2 warnings, {notes} notes (`chartc check` prints each note)" in r.stderr.splitlines()
    # the recorded --check (nothing compiled) prints the same; --quiet prints none of it
    again = CliRunner().invoke(cli, ["build", "--check"])
    assert again.exit_code == 0 and again.stderr == r.stderr
    quiet = CliRunner().invoke(cli, ["build", "--check", "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and "up to date" in quiet.stdout


def test_build_check_fails_when_a_file_is_edited(small_project: Path) -> None:
    py = small_project / "generated" / "alpha" / "alpha.py"
    py.write_text(py.read_text() + "# hand edit\n")
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1 and "stale:" in r.output and "# hand edit" in r.output
    assert py.read_text().endswith("# hand edit\n")  # --check writes nothing


def test_build_check_fails_when_a_file_is_deleted(small_project: Path) -> None:
    (small_project / "generated" / "alpha" / "alpha.json").unlink()
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1 and "missing:" in r.output


def test_build_check_fails_on_an_orphaned_game_and_build_removes_it(small_project: Path) -> None:
    # the charts of a game are deleted: its generated files are orphans (delta here)
    import shutil as sh

    sh.rmtree(small_project / "charts" / "delta")
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1 and "orphaned:" in r.output and "delta/delta.json" in r.output
    assert CliRunner().invoke(cli, ["build"]).exit_code == 0
    assert not (small_project / "generated" / "delta").exists()
    assert CliRunner().invoke(cli, ["build", "--check"]).exit_code == 0


def test_build_leaves_files_it_did_not_write_alone(small_project: Path) -> None:
    notes = small_project / "generated" / "alpha" / "notes.txt"
    notes.write_text("my notes")
    assert CliRunner().invoke(cli, ["build", "--check"]).exit_code == 0
    assert CliRunner().invoke(cli, ["build"]).exit_code == 0
    assert notes.read_text() == "my notes"


def test_failed_build_leaves_outputs_untouched(small_project: Path) -> None:
    before = {p: p.read_bytes() for p in (small_project / "generated").rglob("*") if p.is_file()}
    chart = small_project / "charts" / "alpha" / "alpha.chart"
    chart.write_text(chart.read_text().replace('4-6: "Combat"', '3-6: "Combat"'))  # rows overlap at 3
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "nothing was written" in r.output
    after = {p: p.read_bytes() for p in (small_project / "generated").rglob("*") if p.is_file()}
    assert after == before


def test_internal_error_exits_3_with_a_report_request(monkeypatch, capsys) -> None:
    import compiler.build.project
    import compiler.cli as cli_module

    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(compiler.build.project, "load", boom)
    monkeypatch.setattr("sys.argv", ["chartc", "check", "charts"])
    monkeypatch.chdir(ROOT)
    with pytest.raises(SystemExit) as exc:
        cli_module.main()
    assert exc.value.code == 3
    err = capsys.readouterr().err
    assert "RuntimeError: simulated bug" in err and "Please report it" in err


def test_console_script_is_installed() -> None:
    assert shutil.which("chartc") is not None or os.environ.get("CI") is None


def test_odds_r9_with_strafe(run) -> None:
    # IA2 R9 (10.16): 18-20 with the +2 strafe DRM -> 20+ Vital, 3 of 20 natural results
    r = run("odds", "ia2/R9", "--drm", "2")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    vital = next(line for line in lines if line.strip().startswith("20+"))
    assert "3/20 (15%)" in vital and "Vital" in vital
    assert any(line.strip().startswith("1-5") and "3/20 (15%)" in line and "Miss" in line for line in lines)
    assert "expected Points awarded: 27/20 = 1.35" in r.output  # 0*3/20 + 1*10/20 + 2*4/20 + 3*3/20
    assert "3 to 22: 1/20 (5%) each" in r.output  # the modified roll: 1d20 + 2
    assert "no row" not in r.output


def test_odds_natural_roll_is_the_default(run) -> None:
    # IA2 R9 natural: 20+ Vital only on a natural 20; 1.05 points on average
    r = run("odds", "ia2/R9")
    assert r.exit_code == 0 and "natural roll" in r.output
    assert "expected Points awarded: 21/20 = 1.05" in r.output
    assert next(line for line in r.output.splitlines() if line.strip().startswith("20+")).count("1/20 (5%)") == 1


def test_odds_json(run) -> None:
    r = run("odds", "ia2/R9", "--drm", "2", "--format", "json")
    assert r.exit_code == 0
    doc = json.loads(r.output)
    assert [row["probability"]["exact"] for row in doc["rows"]] == ["3/20", "1/2", "1/5", "3/20"]
    assert doc["rows"][3]["probability"] == {"exact": "3/20", "float": 0.15} and doc["rows"][3]["percent"] == "15%"
    assert doc["expected"] == {"points": {"exact": "27/20", "float": 1.35}}
    assert [m["roll"] for m in doc["modified"]] == list(range(3, 23))
    assert doc["no_row"]["exact"] == "0/1" and doc["in_span"] is True and doc["drm_span"] == {"min": 0, "max": 2}


def test_odds_names_the_rolls_that_select_no_row(run) -> None:
    # IA2 R4 footnote 1: +1 F/B Attack turns a natural 6 into 7, and the printed rows stop at 6
    r = run("odds", "ia2/R4", "--key", "interceptor=jet", "--drm", "1", "--as-printed")
    assert r.exit_code == 0
    assert "1/6 (16.7%)  (modified roll 7 selects no row)" in r.output
    # IA2 R7 (10.6), partial: 79-00 of the 1944 late column are not transcribed
    r = run("odds", "ia2/R7", "--key", "period=1944 late")
    assert "11/50 (22%)" in r.output and "rolls 79 to 100 select no row; declared partial" in r.output


def test_odds_flags_a_drm_outside_the_declared_span(run) -> None:
    r = run("odds", "ia2/R9", "--drm", "5")
    assert r.exit_code == 0 and "this DRM is outside that span" in r.output
    assert json.loads(run("odds", "ia2/R9", "--drm", "5", "--format", "json").output)["in_span"] is False


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["ia2/R6"], 2, "chart `R6` is read by a value (fatigue level), not by dice"),
        (["ia2/range_effects"], 2, "read by its keys only"),
        (["ia2/B9"], 2, "lists DRMs only"),
        (["ia2/R4"], 2, "add `--key interceptor=VALUE`"),
        (["ia2/R4", "--key", "interceptor=pistn"], 2, "did you mean `piston`?"),
        (["ia2/R44"], 2, "did you mean `R4`?"),
    ],
)
def test_odds_errors_are_clear(run, args, code, message) -> None:
    r = run("odds", *args)
    assert r.exit_code == code and message in r.output and "Traceback" not in r.output


def test_a_stray_chart_file_beside_game_folders_is_a_usage_error(tmp_path: Path) -> None:
    # a new user's scratch file in charts/ made the whole tree one game: ia2 and the others went unchecked
    charts = tmp_path / "charts"
    shutil.copytree(ROOT / "charts" / "aa_rules", charts / "aa_rules")
    (charts / "scratch.chart").write_text('game charts { title "Oops" }\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(charts)])
    assert result.exit_code == 2
    assert "scratch.chart" in result.output and "aa_rules" in result.output


def test_a_lookup_in_a_game_with_a_syntax_error_reports_the_error_not_a_missing_chart(tmp_path: Path) -> None:
    # the syntax error in R2's file dropped the file, and with it R1: "no chart `R1`" sent users astray
    game = tmp_path / "charts" / "sx"
    game.mkdir(parents=True)
    (game / "game.chart").write_text('game sx { title "Sx" }\n', encoding="utf-8")
    (game / "r.chart").write_text(
        'chart [R1] r "R" { roll 1d6 column x: int "x" rows { 1-6: 1 } }\n'
        'chart [R2] r2 "R2" { roll 1d6 column x: int "x" rows { 1-6: 1 ; } }\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["lookup", "sx/R1", "3", "--charts", str(tmp_path / "charts")])
    assert result.exit_code == 1
    assert "C101" in result.output and "has 1 error(s)" in result.output and "no chart" not in result.output


def test_build_strict_says_warnings_failed_it(tmp_path: Path) -> None:
    # `build --strict` on a chart with only a warning said "build failed: 1 error(s)"
    from click.testing import CliRunner

    from compiler.cli import cli
    from tests.conftest import compile_text

    compile_text(tmp_path, (CASES / "c305_modified_below_zero.chart").read_text(encoding="utf-8"))
    out = str(tmp_path / "out")
    r = CliRunner().invoke(cli, ["build", str(tmp_path / "charts"), "--out", out, "--strict"])
    assert r.exit_code == 1
    assert "build failed: 1 warning(s) (--strict fails on warnings); nothing was written" in r.output
    assert not (tmp_path / "out").exists()
    # without --strict the same warning is printed with its count, and the build is written
    r = CliRunner().invoke(cli, ["build", str(tmp_path / "charts"), "--out", out])
    assert r.exit_code == 0 and (tmp_path / "out").is_dir()
    assert "warning[C305]" in r.stderr and "1 warning, 0 notes" in r.stderr.splitlines()


_EXIT_PROBE = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"  # runs after chartc's
    "sys.argv = ['chartc', '--help']\n"
    "from compiler.cli import cli, main\n"
    "main() if sys.argv[-1] == '--help' and {main!r} else cli(['--help'], prog_name='chartc')\n"
)


@pytest.mark.parametrize("through_main", [True, False])
def test_the_console_script_leaves_the_last_collection_nothing_to_walk(through_main: bool) -> None:
    # compiler.cli._skip_last_collection: `main` freezes what is alive at exit; `cli`, called by a
    # program that embeds chartc, leaves its collector alone
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _EXIT_PROBE.format(main=through_main)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"frozen at exit: {through_main}"


def test_lookup_of_a_drm_list_alone_adds_up_what_needs_no_context(run) -> None:
    # Stuka Leader, Bandits: "the rear gunner uses the FF to hit numbers, -1": one DRM, no condition
    out = run("lookup", "stuka_leader/rear_gunner").output
    assert out.splitlines()[1] == "  DRM: Rear Gunner: the FF to hit numbers, -1 -1 = -1"
    # IA2 B7 (7.4.4): every landing DRM has a condition: none applies, and the values to set are named
    out = run("lookup", "ia2/B7").output.splitlines()
    assert out[1] == "  DRM: no DRM applies = 0"
    assert out[2].startswith("  not given, so the DRMs testing them do not apply: weather_modifier")


def test_a_month_in_no_game_turn_cites_why_the_book_leaves_it_out(run) -> None:
    # USAAF 23.1 prints Game Turn 3 as March/April and 22.8 Game Turn 4 as June: May 1944 is in no game
    # turn, kept as printed (`kept C411 at 1944-05`); the usage error says so
    result = run("lookup", "usaaf/cycles_per_game_turn", "--key", "period=1944-05")
    assert result.exit_code == 2
    assert "falls in no period of key `period`" in result.output
    said = "; the book leaves it out: 23.1 prints Game Turn 3 as March/April and 22.8 Game Turn 4 as June"
    assert said in result.output
    # June is Game Turn 4
    assert "  period: Game Turn 4\n" in run("lookup", "usaaf/cycles_per_game_turn", "--key", "period=1944-06").output
