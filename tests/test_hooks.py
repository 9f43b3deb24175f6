"""Hooks for other people's repositories: the pre-commit hooks and the GitHub Action's script."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT

ACTION_SCRIPT = ROOT / "scripts" / "github_action.py"

# IA2 R4 (7.1.10) alone in a game of its own: a clean game
CLEAN_GAME = """\
game demo {
  title "Demo"
}

chart [R4] escape "Escape Chart" {
  rule "7.1.10"
  roll 1d6
  column result: text "Result"
  rows {
    1-2: "Safe escape"
    3-6: "Combat"
  }
}
"""

# ... with the printed rows overlapping at 3 (C301) and laid out by hand
BROKEN_GAME = CLEAN_GAME.replace('    3-6: "Combat"', '    3-6:   "Combat"\n    3:  "Combat"')


def _game(root: Path, text: str) -> Path:
    folder = root / "charts" / "demo"
    folder.mkdir(parents=True)
    (folder / "game.chart").write_text(text, encoding="utf-8")
    return folder


# ---- .pre-commit-hooks.yaml ------------------------------------------------------------------------


def test_pre_commit_hooks_run_chartc_commands_on_chart_files() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"chartc-check", "chartc-build-check", "chartc-fmt-check", "chartc-fmt"}
    for hook in hooks.values():
        assert hook["files"] == r"\.chart$" and hook["language"] == "python"
        program, *args = shlex.split(hook["entry"])
        assert program == "chartc"
        assert CliRunner().invoke(cli, [*args, "--help"]).exit_code == 0, hook["entry"]
    assert hooks["chartc-build-check"]["pass_filenames"] is False  # it compares the whole tree
    assert hooks["chartc-check"]["require_serial"] is True  # each file brings its game along


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("pre_commit") is None or shutil.which("git") is None, reason="needs pre-commit and git"
)
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    # pre-commit installs this repository (at its last commit) into its own environment and runs
    # the hooks on a repository of charts: the untidy file fails fmt --check until fmt rewrites it
    repo = tmp_path / "user"
    folder = _game(repo, CLEAN_GAME.replace("  roll 1d6", "roll   1d6"))
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_GLOBAL": os.devnull}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True, env=env)

    def try_hook(hook: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files"]
        return subprocess.run(command, cwd=repo, capture_output=True, text=True, env=env, timeout=900)

    assert try_hook("chartc-check").returncode == 0
    failed = try_hook("chartc-fmt-check")
    assert failed.returncode == 1 and "would reformat charts/demo/game.chart" in failed.stdout
    assert try_hook("chartc-fmt").returncode == 1  # pre-commit fails a hook that rewrote files
    assert (folder / "game.chart").read_text(encoding="utf-8") == CLEAN_GAME
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True, env=env)
    assert try_hook("chartc-fmt-check").returncode == 0


# ---- action.yml and its script -------------------------------------------------------------------


def test_action_is_composite_and_runs_the_script() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"paths", "strict", "sarif", "python-version"}
    steps = action["runs"]["steps"]
    assert any("scripts/github_action.py" in step.get("run", "") for step in steps)
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert "inputs.sarif == 'true'" in upload["if"]


def _run_action(tmp_path: Path, sarif: bool) -> tuple[subprocess.CompletedProcess[str], str, Path]:
    summary = tmp_path / "summary.md"
    env = {
        **os.environ,
        "CHARTC_PATHS": "charts",
        "CHARTC_STRICT": "false",
        "CHARTC_SARIF_FILE": "chartc.sarif" if sarif else "",
        "GITHUB_STEP_SUMMARY": str(summary),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    done = subprocess.run(
        [sys.executable, str(ACTION_SCRIPT)], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300
    )
    return done, summary.read_text(encoding="utf-8"), tmp_path / "chartc.sarif"


def test_action_script_on_a_clean_game(tmp_path: Path) -> None:
    _game(tmp_path, CLEAN_GAME)
    done, summary, sarif = _run_action(tmp_path, sarif=False)
    assert done.returncode == 0 and "::error" not in done.stdout
    assert summary == "### chartc check\n\n**no findings** in `charts` (exit 0)\n"
    assert not sarif.exists()


def test_action_script_annotates_summarises_and_writes_sarif(tmp_path: Path) -> None:
    _game(tmp_path, BROKEN_GAME)
    done, summary, sarif = _run_action(tmp_path, sarif=True)
    assert done.returncode == 1
    assert "::error file=charts/demo/game.chart,line=12," in done.stdout and "title=C301" in done.stdout
    assert "**1 error** in `charts` (exit 1)" in summary
    assert "| error | C301 " in summary and "`charts/demo/game.chart:12`" in summary
    report = json.loads(sarif.read_text(encoding="utf-8"))
    assert report["version"] == "2.1.0"
    assert [r["ruleId"] for r in report["runs"][0]["results"]] == ["C301"]
