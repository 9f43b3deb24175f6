"""`chartc new GAME`: a scaffold that passes `check` and `build` at once, with its CI gate wired.

`chartc new demo && chartc check demo && chartc build demo` runs as a new user types it, in an
empty folder; the scaffold's worked example is held to its chart; the workflow and the pre-commit
hooks run chartc's commands on the new charts (in the slow suite, through pre-commit itself).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from compiler.cli import cli
from compiler.tools.scaffold import game_files

CHARTC = [sys.executable, "-m", "compiler.cli"]


def _chartc(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([*CHARTC, *args], cwd=folder, capture_output=True, text=True, env=env, timeout=300)


def _in_process(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_new_demo_checks_and_builds_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `chartc new demo && chartc check demo && chartc build demo`, in an empty folder
    code, out = _in_process(tmp_path, monkeypatch, "new", "demo")
    assert code == 0, out
    assert out.splitlines() == [
        "wrote demo/game.chart",
        "wrote demo/combat.chart",
        "wrote demo/errata.chart",
        "wrote .github/workflows/charts.yml",
        "wrote .pre-commit-config.yaml",
        "wrote .gitignore",
    ]
    code, out = _in_process(tmp_path, monkeypatch, "check", "demo")
    assert code == 0 and out.strip() == "checked 1 chart in 1 game: 0 errors, 0 warnings, 0 notes, 0 suppressed"
    code, out = _in_process(tmp_path, monkeypatch, "build", "demo")
    assert code == 0 and out.strip() == "built 1 game into generated: 3 files changed"
    assert sorted(p.name for p in (tmp_path / "generated" / "demo").iterdir()) == ["demo.html", "demo.json", "demo.py"]
    assert _in_process(tmp_path, monkeypatch, "fmt", "--check", "demo")[0] == 0  # in the canonical layout
    assert _in_process(tmp_path, monkeypatch, "build", "--check", "demo")[0] == 0


@pytest.mark.slow
def test_new_check_build_as_typed_in_a_shell(tmp_path: Path) -> None:
    made = _chartc(tmp_path, "new", "demo")
    assert made.returncode == 0 and made.stdout.startswith("wrote demo/game.chart\n"), made.stderr
    assert _chartc(tmp_path, "check", "demo").returncode == 0
    assert _chartc(tmp_path, "build", "demo").stdout.strip() == "built 1 game into generated: 3 files changed"


def test_the_worked_example_is_held_to_the_chart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the example: armour fired on with a leader, natural 11 + 1 = 12, Eliminated (the chart's rule)
    assert _in_process(tmp_path, monkeypatch, "new", "demo")[0] == 0
    combat = tmp_path / "demo" / "combat.chart"
    combat.write_text(combat.read_text(encoding="utf-8").replace("expect modified 12", "expect modified 11"))
    code, out = _in_process(tmp_path, monkeypatch, "check", "demo", "--format", "short")
    assert code == 1 and "C46" in out  # the example disagrees with the chart


def test_the_workflow_and_hooks_run_chartc_on_the_new_charts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["new", "charts/skirmish", "--title", 'Skirmish "at" the Bridge'])
    assert result.exit_code == 0, result.output
    workflow = yaml.safe_load((tmp_path / ".github" / "workflows" / "charts.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["chartc"]["steps"]
    assert workflow["jobs"]["chartc"]["env"]["CHARTS"] == "charts"
    assert [s["run"] for s in steps if "run" in s][1:] == [
        'chartc check "$CHARTS" --format github', 'chartc fmt --check "$CHARTS"', 'chartc build --check "$CHARTS"'
    ]
    hooks = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"][0]["hooks"]
    assert [h["entry"] for h in hooks] == [
        "chartc check charts --format short", "chartc fmt --check charts", "chartc build --check charts"
    ]
    assert all(h["language"] == "system" and h["pass_filenames"] is False for h in hooks)
    # the title is a chart string whatever it holds
    assert 'title "Skirmish \\"at\\" the Bridge"' in (tmp_path / "charts" / "skirmish" / "game.chart").read_text()
    assert CliRunner().invoke(cli, ["check"]).exit_code == 0


def test_new_keeps_what_exists_and_refuses_a_bad_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".gitignore").write_text("mine\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["new", "first"])
    assert result.exit_code == 0 and "kept  .gitignore" in result.output
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == "mine\n"
    again = CliRunner().invoke(cli, ["new", "first"])
    assert again.exit_code == 2 and "already exists" in again.output
    bad = CliRunner().invoke(cli, ["new", "2nd-game"])
    assert bad.exit_code == 2 and "not a game name" in bad.output
    assert not (tmp_path / "2nd-game").exists()


def test_the_game_files_name_the_game() -> None:
    files = game_files("demo", "Demo")
    assert files["game.chart"].count("game demo {") == 1
    assert sorted(files) == ["combat.chart", "errata.chart", "game.chart"]


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None, reason="needs pre-commit and git"
)
def test_pre_commit_runs_the_new_hooks(tmp_path: Path) -> None:
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_GLOBAL": os.devnull}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]  # this chartc
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    assert _chartc(tmp_path, "new", "charts/demo").returncode == 0
    assert _chartc(tmp_path, "build").returncode == 0
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True, env=env)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True, env=env)
    run = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    passed = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert passed.returncode == 0, passed.stdout
    chart = tmp_path / "charts" / "demo" / "combat.chart"
    chart.write_text(chart.read_text(encoding="utf-8").replace('"Pinned"', '"Pinned, no move"'), encoding="utf-8")
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True, env=env)
    stale = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert stale.returncode == 1 and "chartc build --check" in stale.stdout  # generated/ is out of date
