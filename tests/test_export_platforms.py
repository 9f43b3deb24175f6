"""`chartc export GAME --to foundry|tts|vassal` on the command line: where it writes, what it says,
and the usage errors; `chartc export GAME/CHART --csv` keeps working beside it."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT

CHARTS = str(ROOT / "charts")


def _chartc(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_default_folder_is_exports_game_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _chartc("export", "stuka_leader", "--to", "tts", "--charts", CHARTS)
    assert code == 0, out
    assert out == "exported stuka_leader for tts: 124 charts and 0 odds rules in stuka_leader.lua\n"
    lua = tmp_path / "exports" / "stuka_leader" / "tts" / "stuka_leader.lua"
    assert lua.read_text(encoding="utf-8").endswith("\nreturn M\n")
    code, out = _chartc("export", "ia2", "--to", "vassal", "--charts", CHARTS)
    assert code == 0 and out == "exported ia2 for vassal: ia2.vmdx (a VASSAL module extension)\n"
    with zipfile.ZipFile(tmp_path / "exports" / "ia2" / "vassal" / "ia2.vmdx") as archive:
        assert "buildFile.xml" in archive.namelist()


def test_foundry_without_a_cli_writes_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARTC_FOUNDRY_CLI", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no node, no npm
    code, out = _chartc("export", "aa_rules", "--to", "foundry", "--out", "module", "--charts", CHARTS)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("exported aa_rules for foundry: ") and "(module chartc-aa-rules)" in lines[0]
    assert lines[1].startswith("sources only: Node.js not found; to pack: npm install @foundryvtt/foundryvtt-cli@3")
    assert (tmp_path / "module" / "module.json").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "ia2"], "`ia2` names no chart: give GAME/CHART for a CSV, or --to PLATFORM for a whole game"),
        (["export", "ia2/R4", "--to", "tts"], "--to exports a whole game: give GAME, not `ia2/R4`"),
        (["export", "no_game", "--to", "tts"], "no game `no_game` in"),
        (["export", "ia2", "--to", "vassal", "--foundry-cli", "."], "--foundry-cli goes with --to foundry"),
        (["export", "ia2", "--to", "foundry", "--foundry-cli", "."], "no @foundryvtt/foundryvtt-cli package there"),
        (["export", "ia2", "--to", "roll20"], "'roll20' is not one of 'foundry', 'tts', 'vassal'"),
        (["export", "ia2/R4", "--out", "."], "--out . is a folder: a CSV goes to a file"),
    ],
)
def test_usage_errors(args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = _chartc(*args, "--charts", CHARTS)
    assert code == 2 and message in out
    assert not (tmp_path / "exports").exists()


def test_a_game_with_errors_is_not_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = tmp_path / "charts" / "bad"
    game.mkdir(parents=True)
    (game / "game.chart").write_text(
        'game bad { title "Bad" }\nchart [T] t "T" {\n  roll 1d6\n  column r: text "R"\n'
        '  rows {\n    1-4: "a"\n    3-6: "b"\n  }\n}\n',
        encoding="utf-8",
    )
    code, out = _chartc("export", "bad", "--to", "tts", "--charts", str(tmp_path / "charts"))
    assert code == 1 and "error: game `bad` has 1 error(s); fix them first" in out
    assert not (tmp_path / "exports").exists()


def test_csv_export_is_unchanged() -> None:
    # IA2 R4 (7.1.10, errata): the table `chartc import` reads back
    code, out = _chartc("export", "ia2/R4", "--csv", "--charts", CHARTS)
    assert code == 0 and out.splitlines() == [
        "interceptor,1d6,Result", "piston,2-,Safe escape", "piston,3+,Combat", "jet,4-,Safe escape", "jet,5+,Combat"
    ]
