"""One configuration, read by every command (issue 33, class f): with no PATH or `--charts`, each
command that reads charts reads the folder `compiler.cli.common.default_charts_dir` names
(`$CHARTC_CHARTS`, else `charts` under `[tool.chartc]` in the nearest pyproject.toml, else
`charts`), never `./charts` on its own. The tree here has a decoy game in `./charts` and the real
games in the configured `rules/charts`: a command that read `./charts` would not find them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import CHARTS, ROOT, tiny_game

CONFIGURED = Path("rules/charts")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("configured")
    for game in ("ia2", "usaaf"):
        shutil.copytree(CHARTS / game, root / CONFIGURED / game)
    shutil.copytree(ROOT / "tests" / "data" / "charts" / "crtlab", root / CONFIGURED / "crtlab")
    tiny_game(root / "charts", "decoy", "Safe")
    (root / "pyproject.toml").write_text(f'[tool.chartc]\ncharts = "{CONFIGURED}"\n', encoding="utf-8")
    return root


def _run(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.delenv("CHARTC_CHARTS", raising=False)
        r = runner.invoke(cli, list(args), env=env, prog_name="chartc")
    return r.exit_code, r.output


# Each command run with no PATH and no --charts, and what it prints only from the configured games.
COMMANDS = {
    "check": (["check", "--format", "short"], "rules/charts/ia2/"),  # IA2's C308 notes on R7/R8
    "list": (["list"], "ia2/R4"),
    "lookup": (["lookup", "ia2/R4", "3", "--key", "interceptor=piston"], "Result: Combat"),  # IA2 7.1.10
    "odds": (["odds", "ia2/R4", "--key", "interceptor=piston"], "Combat"),
    "analyze": (["analyze", "crtlab/CRT"], "1:2"),
    "compute": (["compute", "usaaf/production_increase", "--set", "production=10"], "13"),  # USAAF 22.2
    "export": (["export", "ia2/R4"], "Safe escape"),
    "vectors": (["vectors", "ia2", "--out", "vectors.jsonl"], ""),
    "fmt": (["fmt", "--check"], ""),
    "build": (["build", "--out", "out-build"], "built 3 games"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_reads_the_configured_charts(project: Path, command: str) -> None:
    args, shown = COMMANDS[command]
    code, output = _run(project, *args)
    assert code == 0 or (command == "check" and code == 1), output
    assert shown in output and "decoy" not in output
    if command == "vectors":
        assert '"game": "ia2"' in (project / "vectors.jsonl").read_text(encoding="utf-8")[:2000]
    if command == "fmt":
        assert "unchanged" in output and "3 files" not in output


@pytest.mark.parametrize("configure", ["pyproject", "environment"])
def test_build_check_fast_path_reads_the_configured_charts(tmp_path: Path, configure: str) -> None:
    # issue 33 finding 5: `build --check` recorded up to date for `./charts` kept saying "up to date"
    # once the configuration named another charts folder whose outputs differ
    tiny_game(tmp_path / "charts", "t", "Safe")
    tiny_game(tmp_path / "rules" / "charts", "t", "Safe escape")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert _run(tmp_path, "build", env=env)[0] == 0
    assert _run(tmp_path, "build", "--check", env=env) == (0, "3 generated files in generated are up to date\n")
    if configure == "pyproject":
        (tmp_path / "pyproject.toml").write_text('[tool.chartc]\ncharts = "rules/charts"\n', encoding="utf-8")
    else:
        env["CHARTC_CHARTS"] = "rules/charts"
    code, output = _run(tmp_path, "build", "--check", env=env)
    assert code == 1 and "stale:    generated/t/t.json" in output
    assert _run(tmp_path, "build", env=env)[0] == 0
    assert _run(tmp_path, "build", "--check", env=env) == (0, "3 generated files in generated are up to date\n")


@pytest.mark.parametrize("configure", ["pyproject", "environment"])
def test_diff_against_a_git_revision_exports_the_configured_charts(tmp_path: Path, configure: str) -> None:
    # issue 33 finding 5: `chartc diff HEAD <path>` exported `charts/` whatever the configuration said
    tiny_game(tmp_path / "rules" / "charts", "t", "Safe")
    env: dict[str, str] = {}
    if configure == "pyproject":
        (tmp_path / "pyproject.toml").write_text('[tool.chartc]\ncharts = "rules/charts"\n', encoding="utf-8")
    else:
        env["CHARTC_CHARTS"] = "rules/charts"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "charts"], cwd=tmp_path, check=True)
    tiny_game(tmp_path / "rules" / "charts", "t", "Safe escape")
    code, output = _run(tmp_path, "diff", "HEAD", "rules/charts", env=env)
    assert code == 0, output
    assert "Safe → Safe escape" in output and "1 change" in output
