"""The CLI habits users expect: `chartc list`, a default for `--charts`, `diff --exit-code`,
whole summaries in `--help`, one list of known values in a bad-value error, shell completion."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import COMMANDS, SUMMARIES, cli
from compiler.cli.common import default_charts_dir
from tests.conftest import CHARTS, ROOT


@pytest.fixture()
def run(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)

    def invoke(*args: str, env: dict[str, str] | None = None):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env, prog_name="chartc")

    return invoke


# ---- chartc list ---------------------------------------------------------------------------------


def test_list_shows_how_each_chart_is_read_and_its_status(run) -> None:
    r = run("list", "ia2")
    assert r.exit_code == 0
    lines = {line.split()[0]: line for line in r.output.splitlines()}
    assert "Escape Chart" in lines["ia2/R4"] and "7.1.10" in lines["ia2/R4"]
    assert lines["ia2/R4"].rstrip().endswith("1d6 by interceptor")  # IA2 R4 is read by 1d6 and the interceptor
    assert lines["ia2/B9"].rstrip().endswith("DRMs only")  # the Weather Chart prints only its DRMs (6.1, 7.5)
    assert lines["ia2/B3"].rstrip().endswith("external")  # printed on the player aid cards
    assert re.search(r"by period +partial$", lines["ia2/R7"].rstrip())  # R7: percentile by period, partial
    # IA2 4.3.3, 11.6, 11.7: sorties a month, a limit read by the month, the aircraft and the unit
    assert re.search(r"context month, family_flown, unit_assigned +limit$", lines["ia2/sorties_per_month"].rstrip())
    assert lines["ia2/repair"].rstrip().endswith("value systems_damaged")  # 7.4.2 is read by a count


def test_list_json_and_every_game(run) -> None:
    entries = json.loads(run("list", "--json", "usaaf").output)
    crt_odds = next(e for e in entries if e["address"] == "crt_odds")
    # USAAF 15.1-15.3: the odds rule is read by both sides' factors
    assert crt_odds == {
        "game": "usaaf",
        "address": "crt_odds",
        "chart_id": None,
        "title": "Combat odds",
        "rule": "15.1-15.3",
        "read_by": "attack and defense factors",
        "status": "odds rule",
    }
    every = run("list").output
    assert {line.split("/")[0] for line in every.splitlines()[1:]} == {p.name for p in CHARTS.iterdir() if p.is_dir()}


def test_list_cuts_long_cells_to_fit_a_terminal_and_json_keeps_them_whole(run) -> None:
    # Stuka Leader's CAS chart cites "Bombing c, e; Strafing Attack b-d; Cannons and Rockets a-e; Tank
    # Buster Aircraft a-d" (84 characters): the human table ran to 300 columns before the caps
    human = run("list").output.splitlines()
    widest_address = max(len(line.split()[0]) for line in human)  # never cut: a user copies it
    assert max(len(line) for line in human) <= widest_address + 56 + 32 + 44 + 24 + 4 * 2
    cut = [line for line in human if "Bombing c, e; Strafing Attack" in line]
    assert cut and all("…" in line and "Tank Buster" not in line for line in cut)
    whole = json.loads(run("list", "--json").output)
    rule = "Bombing c, e; Strafing Attack b-d; Cannons and Rockets a-e; Tank Buster Aircraft a-d"
    assert any(e["rule"] == rule for e in whole)


def test_list_unknown_game_names_the_known_ones_once(run) -> None:
    r = run("list", "ia3")
    assert r.exit_code == 2
    assert "no game `ia3` in charts; did you mean `ia2`? known games: aa_rules, ia2, stuka_leader, usaaf" in r.output
    assert r.output.count("ia2") == 2


# ---- the charts folder's default ----------------------------------------------------------------


def _game_elsewhere(tmp_path: Path) -> Path:
    charts = tmp_path / "rules" / "charts"
    shutil.copytree(CHARTS / "ia2", charts / "ia2")
    return charts


def test_charts_default_from_the_environment(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    charts = _game_elsewhere(tmp_path)
    monkeypatch.chdir(tmp_path)
    r = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston", env={"CHARTC_CHARTS": str(charts)})
    assert r.exit_code == 0 and "Result: Combat" in r.output  # IA2 R4: piston 3 -> combat


def test_charts_default_from_pyproject(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _game_elsewhere(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.chartc]\ncharts = "rules/charts"\n', encoding="utf-8")
    below = tmp_path / "rules" / "notes"
    below.mkdir()
    monkeypatch.chdir(below)
    assert default_charts_dir() == tmp_path / "rules" / "charts"
    monkeypatch.chdir(tmp_path)
    assert default_charts_dir() == Path("rules/charts")
    r = run("list", "ia2")
    assert r.exit_code == 0 and "ia2/R4" in r.output


def test_nearest_pyproject_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)
    (tmp_path / "pyproject.toml").write_text('[tool.chartc]\ncharts = "far"\n', encoding="utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert default_charts_dir(inner) == Path("charts")


def test_bad_pyproject_charts_is_a_usage_error(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.chartc]\ncharts = 3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = run("list")
    assert r.exit_code == 2 and "[tool.chartc] charts must be a string" in r.output


# ---- diff --exit-code -----------------------------------------------------------------------------


def test_diff_exit_code(run) -> None:
    assert run("diff", "charts", "charts", "--exit-code").exit_code == 0
    # chartc's errata change the print (R4 3-6 -> 3+ among them): changes exit 1 with --exit-code
    changed = run("diff", "charts", "charts", "--as-printed", "--exit-code")
    assert changed.exit_code == 1 and "3-6 → 3+" in changed.output
    assert run("diff", "charts", "charts", "--as-printed").exit_code == 0


# ---- --help, bad values, completion ---------------------------------------------------------------


def test_help_shows_every_summary_whole(run) -> None:
    assert set(SUMMARIES) == set(COMMANDS)
    out = run("--help").output
    for name, summary in SUMMARIES.items():
        assert f"  {name}" in out and summary in " ".join(out.split()), name
    commands = out.split("Commands:")[1]
    assert "(e.g.\n" not in commands and "..." not in commands


def test_bad_key_value_lists_the_known_values_once(run) -> None:
    r = run("lookup", "ia2/R4", "3", "--key", "interceptor=pistn")
    assert r.exit_code == 2
    assert (
        "`pistn` is not a value of key `interceptor`; did you mean `piston`? "
        'known values: piston ("Piston-engined"), jet ("Jet or Rocket")'
    ) in r.output
    far = run("lookup", "ia2/R4", "3", "--key", "interceptor=zzz").output
    assert far.count("Piston-engined") == 1 and "known:" not in far


def test_bad_key_name_lists_the_known_keys(run) -> None:
    r = run("odds", "ia2/R4", "--key", "range=close")
    assert r.exit_code == 2 and "chart `R4` has no key `range`; known keys: interceptor" in r.output


def test_shell_completion_script(run) -> None:
    # docs/cli.md's `_CHARTC_COMPLETE=bash_source chartc` prints click's completion script
    r = run(env={"_CHARTC_COMPLETE": "bash_source"})
    assert r.exit_code == 0 and "_chartc_completion" in r.output and "complete " in r.output
