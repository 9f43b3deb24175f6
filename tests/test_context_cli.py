"""`chartc lookup` and `chartc odds` with a DRM context (`--when FLAG`, `--set NAME=VALUE`): the
breakdown, the usage errors, repeated `--drm`, and the refusals a new user ran into (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT, import_module

# A small game with every context type: a flag, an int, a month and an enum, and a d66 chart
# that does not say what a DRM means on it.
SMALL_GAME = """\
game sg { title "Small game" calendar 1944-01 to 1945-06 }
enum weather "Weather" {
  clear "Clear"
  storm "Storm"
}
context night: flag "Night"
context kills: int "Kills"
context month: month "Game month"
context weather: weather "Weather"
chart [T1] attack "Attack" {
  rule "1.1"
  roll 1d6
  column result: text "Result"
  drm dark "Night" -1 when night
  drm ace "Ace (5+ kills)" +1 when kills >= 5
  drm winter "Winter 1944" +2 when month in [1944-12, 1945-01]
  drm rough "Storm" -2 when weather == storm
  rows {
    3-: "Miss"
    4-6: "Hit"
    7+: "Kill"
  }
}
chart [T2] table66 "D66 table" {
  roll d66
  column result: text "Result"
  rows {
    11-36: "Low"
    41-66: "High"
  }
}
"""


def _invoker(tmp_path: Path, game_id: str, text: str):
    """`chartc ARGS --charts <a charts folder holding one game, `text` as its game.chart>`."""
    (tmp_path / "charts" / game_id).mkdir(parents=True)
    (tmp_path / "charts" / game_id / "game.chart").write_text(text)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args, "--charts", str(tmp_path / "charts")], catch_exceptions=False)

    return invoke


@pytest.fixture()
def small(tmp_path: Path):
    """`chartc ARGS --charts <the small game>`."""
    return _invoker(tmp_path, "sg", SMALL_GAME)


def test_r4_with_fb_attack_prints_the_breakdown_and_combat(run) -> None:
    # IA2 R4 footnote 1: F/B Attack is +1; piston 2 + 1 = 3 -> Combat (3+ after chartc's errata)
    r = run("lookup", "ia2/R4", "2", "--key", "interceptor=piston", "--when", "fb_attack")
    assert r.exit_code == 0, r.output
    assert "  natural 2, F/B Attack +1 [fn 1] = 3\n" in r.output
    assert "roll 2 + DRM 1 = 3 -> row 3+" in r.output and "Result: Combat" in r.output
    # the generated module's DRM function agrees
    ia2 = import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_context_r4")
    assert ia2.drm_r4(fb_attack=True) == 1
    assert ia2.lookup_r4(2, interceptor="piston", drm=ia2.drm_r4(fb_attack=True)) == {"result": "Combat"}
    # 7.9.1: the Gruppe Leader's -1 cancels it, and 2 stays a safe escape (1-2, read 2- by the errata)
    r = run("lookup", "ia2/R4", "2", "--key", "interceptor=piston", "--when", "fb_attack", "--when", "gruppe_leader")
    assert "  natural 2, F/B Attack +1 [fn 1], Gruppe Leader -1 = 2\n" in r.output and "Safe escape" in r.output
    assert ia2.drm_r4(fb_attack=True, gruppe_leader=True) == 0


def test_r4_without_fb_attack_is_a_safe_escape(run) -> None:
    # IA2 R4: piston 1-2 -> safe escape; a context without the flag reads the chart's DRMs as 0
    r = run("lookup", "ia2/R4", "2", "--key", "interceptor=piston", "--drm", "0", "--set", "fb_attack=x")
    assert r.exit_code == 2 and "write --when fb_attack" in r.output
    r = run("lookup", "ia2/R4", "2", "--key", "interceptor=piston")
    assert r.exit_code == 0 and "natural" not in r.output and "Safe escape" in r.output


def test_breakdown_json_is_structured(run) -> None:
    # IA2 7.9.3: Knight's Cross -2 and Iron Cross 1st Class -1 on the promotion roll, and --drm +1
    r = run(
        "lookup",
        "ia2/promotion",
        "6",
        "--when",
        "knights_cross_holder",
        "--when",
        "ek1_in_period",
        "--drm",
        "1",
        "--json",
    )
    doc = json.loads(r.output)
    assert doc["drm"] == -2 and doc["modified"] == 4 and doc["values"]["result"] == "Promoted to the next higher rank"
    mods = doc["modifiers"]
    assert [(a["id"], a["value"]) for a in mods["applied"]] == [("knights_cross", -2), ("ek1", -1)]
    assert mods["context"] == {"ek1_in_period": True, "knights_cross_holder": True}
    assert (mods["sum"], mods["chart_total"], mods["given"], mods["total"]) == (-3, -3, 1, -2)


def test_odds_prints_the_breakdown_and_uses_the_total(run) -> None:
    # IA2 R9 (10.16): strafe +2, so a natural 18 or better reaches 20+ Vital: 3/20
    r = run("odds", "ia2/R9", "--when", "strafe")
    assert r.exit_code == 0
    assert "  DRM: Strafe attack (1 ammo point of ALL forward weapons) +2 = +2" in r.output
    assert "20+    3/20 (15%)  Vital" in r.output
    doc = json.loads(run("odds", "ia2/R9", "--when", "strafe", "--format", "json").output)
    assert doc["drm"] == 2 and doc["modifiers"]["applied"][0]["value"] == 2


def test_a_drm_list_chart_adds_up_in_a_context(run) -> None:
    # IA2 6.1 (B9): +2 in December 1944, +1 in November 1944 and January 1945, nothing in June 1944
    r = run("lookup", "ia2/B9", "--set", "month=1944-12")
    assert r.exit_code == 0 and "DRM: December 1944 +2 = +2" in r.output
    r = run("lookup", "ia2/B9", "--set", "month=1944-06")
    assert r.exit_code == 0 and "DRM: no DRM applies = 0" in r.output
    # Stuka Leader gun attack position: Tailing +3, by printed label in any case
    doc = json.loads(
        run("lookup", "stuka_leader/gun_attack_position", "--set", "attacker_position=TAILING", "--json").output
    )
    assert doc["drm"] == 3


def test_every_context_type_is_read(small) -> None:
    # natural 3, night -1, 6 kills +1, December 1944 +2, storm -2 -> 3
    r = small(
        "lookup",
        "sg/T1",
        "3",
        "--when",
        "night",
        "--set",
        "kills=6",
        "--set",
        "month=1944-12",
        "--set",
        "weather=Storm",
    )
    assert r.exit_code == 0, r.output
    assert "natural 3, Night -1, Ace (5+ kills) +1, Winter 1944 +2, Storm -2 = 3" in r.output
    assert "Result: Miss" in r.output


def test_a_variable_left_out_is_named(small) -> None:
    # kills, month and weather not given: their DRMs do not apply, and the output says so
    r = small("lookup", "sg/T1", "4", "--when", "night")
    assert r.exit_code == 0 and "natural 4, Night -1 = 3" in r.output
    assert "not given, so the DRMs testing them do not apply: kills (--set kills=VALUE)" in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--when", "nigth"], "chart `T1` does not read `nigth`; it reads night (flag)"),
        (["--when", "nigth"], "did you mean `night`?"),
        (["--when", "kills"], "`kills` is not a flag (Kills): give it a value, --set kills=VALUE"),
        (["--set", "night=1"], "`night` is a flag (Night): write --when night"),
        (["--set", "kills=many"], "`many` is not a value of `kills` (Kills): give a whole number"),
        (["--set", "kills=" + "9" * 31], "a number of 31 digits is not a value of `kills`"),
        (["--set", "month=1944-13"], "give a month YYYY-MM"),
        (["--set", "month=1946-01"], "month 1946-01 is outside the game's calendar (1944-01 to 1945-06)"),
        (["--set", "weather=strom"], 'did you mean `storm`? values are clear ("Clear"), storm ("Storm")'),
        (["--set", "weather"], "--set `weather`: write NAME=VALUE"),
        (["--set", "kills=1", "--set", "kills=2"], "`kills` is given twice"),
        (["--drm", "1" * 31], "a number of 31 digits is not a whole number"),
        (["--drm", "٣"], "is not a whole number: give a whole number in ASCII digits"),
    ],
)
def test_a_bad_context_is_a_usage_error(small, args: list[str], message: str) -> None:
    r = small("lookup", "sg/T1", "3", *args)
    assert r.exit_code == 2 and message in r.output, r.output
    assert "Traceback" not in r.output


def test_repeated_drm_options_add_up(run) -> None:
    # IA2 R9: 17 + 1 + 2 = 20 -> 20+ Vital (each --drm is one modifier; they add)
    r = run("lookup", "ia2/R9", "17", "--drm", "1", "--drm", "2")
    assert r.exit_code == 0 and "17 + DRM 3 = 20 -> row 20+" in r.output
    r = run("odds", "ia2/R9", "--drm", "1", "--drm", "1", "--format", "json")
    assert json.loads(r.output)["drm"] == 2


def test_context_on_a_chart_without_drms_is_a_usage_error(run) -> None:
    # IA2 R5 declares no DRMs
    r = run("lookup", "ia2/R5", "3", "--key", "fighter=enemy", "--when", "fb_attack")
    assert r.exit_code == 2
    assert "chart `R5` has no DRMs, column shifts or dice conditions: --when does not apply" in r.output


@pytest.mark.parametrize("command", ["lookup", "odds"])
def test_a_drm_on_a_d66_chart_without_drm_meaning_is_refused(small, command: str) -> None:
    # as C413 refuses a declared DRM there: adding to a two-digit reading has no obvious meaning
    args = ["sg/T2", "36"] if command == "lookup" else ["sg/T2"]
    r = small(command, *args, "--drm", "1")
    assert r.exit_code == 2 and "does not say what a DRM means there (no `drm_meaning`)" in r.output
    assert small(command, *args, "--drm", "0").exit_code == 0


def test_a_drm_on_a_percentile_chart_without_drm_meaning_is_refused_by_the_module_too(run) -> None:
    # IA2 R7 (10.6) is a percentile chart without drm_meaning
    r = run("lookup", "ia2/R7", "30", "--key", "period=late_1944", "--drm", "1")
    assert r.exit_code == 2 and "no `drm_meaning`" in r.output
    ia2 = import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_context_r7")
    with pytest.raises(ValueError, match="no stated meaning"):
        ia2.lookup_r7(30, period="late_1944", drm=1)
    assert ia2.lookup_r7(30, period="late_1944") == {"pilot": "Trained"}


@pytest.fixture()
def forms(tmp_path: Path):
    """`chartc ARGS --charts <tests/data/modifier_forms.chart as game t>`."""
    (tmp_path / "charts" / "t").mkdir(parents=True)
    text = (ROOT / "tests" / "data" / "modifier_forms.chart").read_text(encoding="utf-8")
    (tmp_path / "charts" / "t" / "forms.chart").write_text(text, encoding="utf-8")
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*args, "--charts", str(tmp_path / "charts")], catch_exceptions=False)

    return invoke


def test_a_key_feeds_the_drms_that_test_it_and_a_group_keeps_its_best(forms) -> None:
    # F1: -1 per 10 kills; the terrain group keeps its best member: Town -2 beats Night -3
    r = forms("lookup", "t/F1", "7", "--key", "terrain=town", "--when", "night", "--set", "kills=25")
    assert r.exit_code == 0, r.output
    # F1's `modified clamp 1 to 10` is the roll's last steps: the lookup shows each step
    assert "roll 1d10 7, Kills -2 (2 x -1), Town -2 -> 3, minimum 1 -> 3, maximum 10 -> 3" in r.output
    assert "Result: Miss" in r.output


def test_the_breakdown_shows_the_cap_on_the_modified_roll(forms) -> None:
    # F1: `modified clamp 1 to 10`; 9 + 3 skills + 1 = 13 reads as 10
    r = forms("lookup", "t/F1", "9", "--key", "terrain=clear", "--set", "skill=3", "--drm", "1")
    assert "roll 1d10 9, Skill +3 (3 x +1), --drm +1 -> 13, minimum 1 -> 13, maximum 10 -> 10" in r.output
    assert "  modified roll 10 -> row 6-10\n" in r.output


def test_a_natural_row_wins_over_any_drm(forms) -> None:
    # F1: a natural 10 is an automatic hit, whatever the DRMs (here -6)
    r = forms("lookup", "t/F1", "10", "--key", "terrain=town", "--set", "kills=40", "--json")
    doc = json.loads(r.output)
    assert doc["drm"] == -6 and doc["values"] == {"result": "Automatic hit"}


def test_an_int_outside_its_declared_range_is_a_usage_error(forms) -> None:
    r = forms("lookup", "t/F1", "9", "--key", "terrain=clear", "--set", "skill=4")
    assert r.exit_code == 2 and "skill 4 is outside its declared range 0-3 (Skill)" in r.output


def test_when_and_set_feed_a_crts_column_shifts(tmp_path: Path) -> None:
    from tests.test_crt import SHIFTS

    (tmp_path / "charts" / "t").mkdir(parents=True)
    (tmp_path / "charts" / "t" / "case.chart").write_text(SHIFTS, encoding="utf-8")
    args = ["lookup", "t/CRT", "4", "--attack", "30", "--defense", "10", "--charts", str(tmp_path / "charts")]
    # 30 vs 10 is 3:1; woods -1 (from the TEC), leader +1, night -1: one column left, 2:1, where a 4 is AE
    r = CliRunner().invoke(cli, [*args, "--set", "terrain=Woods", "--when", "leader", "--when", "night"])
    assert r.exit_code == 0, r.output
    assert "column shifts: Terrain ([TEC] Woods) -1, Leader +1, Night -1 = -1" in r.output
    assert "Result: AE" in r.output
    # the terrain is the CRT's shift variable, not a key: a typo is named
    r = CliRunner().invoke(cli, [*args, "--set", "terain=woods"])
    assert r.exit_code == 2 and "does not read `terain`" in r.output and "did you mean `terrain`?" in r.output


def test_a_roll_or_factor_of_more_than_30_digits_says_so(run) -> None:
    r = run("lookup", "ia2/R9", "1" * 31)
    assert r.exit_code == 2 and "a number of 31 digits is not a roll" in r.output
    r = run("lookup", "usaaf/crt_odds", "--attack", "9" * 40, "--defense", "7")
    assert r.exit_code == 2 and "a number of 40 digits is not a whole number" in r.output


def test_a_hostile_context_name_or_value_is_shown_escaped(run) -> None:
    # an escape sequence or a bidi override typed into --when/--set cannot reach the terminal
    r = run("lookup", "ia2/R4", "2", "--key", "interceptor=piston", "--when", "fb\x1b[31m\u202e")
    assert r.exit_code == 2 and "fb<U+001B>[31m<U+202E>" in r.output and "\x1b" not in r.output
    r = run("lookup", "ia2/B9", "--set", "month=\x1b]0;x\x07")
    assert r.exit_code == 2 and "<U+001B>]0;x<U+0007>" in r.output and "\x07" not in r.output


# A DRM that applies when a flag is false: only a context with every flag false reads it.
DAY_GAME = """\
game dg { title "Day game" }
context night: flag "Night"
chart [D1] spot "Spotting" {
  rule "2.1"
  roll 1d6
  column result: text "Result"
  drm day "Daylight" +1 when not night
  rows {
    1-4: "Not spotted"
    5+: "Spotted"
  }
}
"""


@pytest.fixture()
def day(tmp_path: Path):
    """`chartc ARGS --charts <the day game>`."""
    return _invoker(tmp_path, "dg", DAY_GAME)


def test_read_drms_asks_with_every_flag_false(day) -> None:
    # no context: no DRM is read, natural 4 -> Not spotted
    plain = day("lookup", "dg/D1", "4")
    assert plain.exit_code == 0, plain.output
    assert "Result: Not spotted" in plain.output
    assert "Daylight" not in plain.output
    # --read-drms: night is false, so Daylight +1 applies: 4 + 1 = 5 -> Spotted
    read = day("lookup", "dg/D1", "4", "--read-drms")
    assert read.exit_code == 0, read.output
    assert "natural 4, Daylight +1 = 5" in read.output
    assert "Result: Spotted" in read.output
    # --when night: Daylight does not apply
    night = day("lookup", "dg/D1", "4", "--when", "night")
    assert "Result: Not spotted" in night.output


def test_odds_read_drms_shifts_every_chance_by_the_false_flags_drm(day) -> None:
    plain = json.loads(day("odds", "dg/D1", "--format", "json").output)
    read = json.loads(day("odds", "dg/D1", "--format", "json", "--read-drms").output)
    assert [r["probability"]["exact"] for r in plain["rows"]] == ["2/3", "1/3"]  # 1-4 and 5-6 of 1d6
    assert [r["probability"]["exact"] for r in read["rows"]] == ["1/2", "1/2"]  # +1: 1-3 and 4-6
    assert plain["modifiers"] is None and read["drm"] == 1
    chain = json.loads(day("odds", "dg/D1", "--follow", "--format", "json", "--read-drms").output)
    assert [f["probability"]["exact"] for f in chain["finals"]] == ["1/2", "1/2"]


def test_ia2_r4_read_drms_prints_the_breakdown_with_fb_attack_false() -> None:
    # IA2 R4 (7.1.10): piston 3-6 -> Combat; F/B Attack +1 and Gruppe Leader -1 both false
    result = CliRunner().invoke(
        cli, ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--read-drms", "--charts", str(ROOT / "charts")]
    )
    assert result.exit_code == 0, result.output
    assert "natural 3, no DRM applies = 3" in result.output
    assert "Result: Combat" in result.output
