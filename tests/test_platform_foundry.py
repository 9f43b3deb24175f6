"""`chartc export GAME --to foundry`: RollTables packed and read back by Foundry VTT's own CLI.

The CLI (`@foundryvtt/foundryvtt-cli`, pinned in .ci/node/package.json) runs under the system
Node.js: `compilePack` packs the exported JSON sources into the LevelDB compendium Foundry loads,
and `extractPack` reads it back here, where every table and result must come back as written. CI
sets CHARTC_REQUIRE_NODE=1 and installs the CLI (`npm ci --prefix .ci/node` in .ci/run): then a
missing Node.js or CLI fails the run instead of skipping it.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.emit.platforms.foundry import PACK, SOURCE, emit_foundry, formula, module_id, tables
from compiler.model.dice import Dice, DiceForm
from compiler.tools.platforms import Platform, export_game, find_foundry_cli
from tests.conftest import ROOT, compile_text

REQUIRE = os.environ.get("CHARTC_REQUIRE_NODE") == "1"
CLI_HOME = ROOT / ".ci" / "node"
GAMES = ("aa_rules", "ia2", "stuka_leader", "usaaf")
EXTRACT = (
    "const [entry, src, dest] = process.argv.slice(1);"
    "const { extractPack } = await import(entry);"
    "await extractPack(src, dest, { log: false });"
)


def _cli() -> tuple[str, Path]:
    node = shutil.which("node")
    entry = find_foundry_cli(CLI_HOME)
    if node is None or entry is None:
        missing = "Node.js (apt-get install nodejs)" if node is None else "Foundry's CLI (npm ci --prefix .ci/node)"
        if REQUIRE:
            pytest.fail(f"CHARTC_REQUIRE_NODE=1 but {missing} is missing")
        pytest.skip(f"{missing} is missing; CI (CHARTC_REQUIRE_NODE=1) installs it and insists")
    return node, entry


@pytest.fixture(scope="module")
def cli() -> tuple[str, Path]:
    return _cli()


@functools.cache
def _game(folder: Path) -> model.Game:
    return load([folder]).project.games[folder.name]


def _extract(cli: tuple[str, Path], pack: Path, dest: Path) -> dict[str, dict[str, Any]]:
    """The documents Foundry's CLI reads back from a packed compendium, by id."""
    node, entry = cli
    result = subprocess.run(
        [node, "--input-type=module", "-e", EXTRACT, "--", entry.as_uri(), str(pack), str(dest)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(dest.rglob("*.json"))]
    return {d["_id"]: d for d in docs}


def _sources(out: Path) -> dict[str, dict[str, Any]]:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((out / SOURCE).glob("*.json"))]
    return {d["_id"]: d for d in docs}


RESULT_FIELDS = ("_id", "type", "name", "description", "range", "weight", "documentUuid")
TABLE_FIELDS = ("_id", "name", "formula", "description", "folder", "replacement")


def _read_back_as_written(written: dict[str, dict[str, Any]], read: dict[str, dict[str, Any]]) -> int:
    assert set(read) == set(written)
    count = 0
    for doc_id, doc in written.items():
        back = read[doc_id]
        if "results" not in doc:  # a folder
            assert back["name"] == doc["name"] and back["type"] == "RollTable"
            continue
        assert {f: back.get(f) for f in TABLE_FIELDS} == {f: doc.get(f) for f in TABLE_FIELDS}
        got = [{f: r.get(f) for f in RESULT_FIELDS} for r in back["results"]]
        assert got == [{f: r.get(f) for f in RESULT_FIELDS} for r in doc["results"]], doc["name"]
        count += len(doc["results"])
    return count


@pytest.mark.parametrize(
    "game_id", [pytest.param(g, marks=() if g == "ia2" else pytest.mark.slow) for g in GAMES]
)
def test_each_game_packs_and_reads_back_with_foundrys_cli(cli: tuple[str, Path], tmp_path: Path, game_id: str) -> None:
    game = _game(ROOT / "charts" / game_id)
    done = export_game(game, Platform.FOUNDRY, tmp_path / "module", CLI_HOME)
    assert done.packed == tmp_path / "module" / "packs" / PACK and done.note is None
    written = _sources(tmp_path / "module")
    read = _extract(cli, done.packed, tmp_path / "back")
    results = _read_back_as_written(written, read)
    # one table per roll chart and key value; USAAF's charts are read by keys, values and odds only
    assert len([d for d in read.values() if "results" in d]) == len(tables(game))
    assert results >= {"aa_rules": 20, "ia2": 170, "stuka_leader": 20, "usaaf": 0}[game_id]
    manifest = json.loads((tmp_path / "module" / "module.json").read_text(encoding="utf-8"))
    assert manifest["id"] == module_id(game) and manifest["packs"][0]["path"] == f"packs/{PACK}"


def test_crt_game_packs_and_reads_back(cli: tuple[str, Path], tmp_path: Path) -> None:
    game = _game(ROOT / "tests" / "data" / "charts" / "crtlab")
    done = export_game(game, Platform.FOUNDRY, tmp_path / "module", CLI_HOME)
    assert done.packed is not None
    read = _extract(cli, done.packed, tmp_path / "back")
    assert _read_back_as_written(_sources(tmp_path / "module"), read) > 50
    # a CRT keyed by odds column: one table per column, in a folder of the chart
    folders = {d["_id"]: d["name"] for d in read.values() if "results" not in d}
    assert folders and all(d["folder"] in folders for d in read.values() if "results" in d and d["folder"])


def test_r4_tables_as_the_book_prints_them(tmp_path: Path) -> None:
    # IA2 R4 (7.1.10, errata: piston 2- and 3+): one table per interceptor type, 1d6; the F/B Attack
    # +1 and Gruppe Leader -1 DRMs in the description; the open ends reach 0 (a natural 1 with -1)
    # and 7 (a natural 6 with +1)
    game = _game(ROOT / "charts" / "ia2")
    docs = json.loads(json.dumps([json.loads(t) for p, t in emit_foundry(game).items() if p.startswith(SOURCE)]))
    r4 = {d["name"]: d for d in docs if d.get("flags", {}).get("chartc", {}).get("chart") == "R4"}
    assert set(r4) == {"R4 Escape Chart (Piston-engined)", "R4 Escape Chart (Jet or Rocket)"}
    piston = r4["R4 Escape Chart (Piston-engined)"]
    assert piston["formula"] == "1d6"
    assert [(r["range"], r["name"]) for r in piston["results"]] == [([0, 2], "Safe escape"), ([3, 7], "Combat")]
    assert "F/B Attack +1" in piston["description"] and "Gruppe Leader \u22121" in piston["description"]
    assert piston["folder"] is not None  # the chart's two tables share a folder


def test_chained_results_link_to_the_table_they_send_the_reader_to() -> None:
    game = _game(ROOT / "tests" / "data" / "charts" / "chainlab")
    docs = [json.loads(t) for p, t in emit_foundry(game).items() if p.startswith(SOURCE)]
    by_id = {d["_id"]: d for d in docs}
    prefix = f"Compendium.{module_id(game)}.{PACK}.RollTable."
    links = [
        (d["name"], r["name"], r["documentUuid"]) for d in docs for r in d.get("results", ()) if r["type"] == "document"
    ]
    assert links and all(uuid.startswith(prefix) and uuid.removeprefix(prefix) in by_id for _, _, uuid in links)
    # A 2-3: "roll on B (side = ours)" links to B's table for side Ours; 6+: roll again on A
    targets = {(table, result): by_id[uuid.removeprefix(prefix)]["name"] for table, result, uuid in links}
    assert any(t.startswith("B ") and "Ours" in t for (table, _), t in targets.items() if table.startswith("A "))
    assert any(t == table for (table, result), t in targets.items() if "again" in result)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (Dice(DiceForm.SUM, 2, 6), "2d6"),
        (Dice(DiceForm.PERCENTILE, 2, 10), "1d100"),  # IA2 10.6: 00 reads 100
        (Dice(DiceForm.D66, 2, 6), "1d6 * 10 + 1d6"),  # IA2 3.5: tens and ones
        (Dice(DiceForm.LOWER, 2, 10), "2d10kl"),  # Stuka Leader evasion: the lower of two d10s
        (Dice(DiceForm.HIGHEST, 4, 6, keep=3), "4d6kh3"),
        (Dice(DiceForm.VERSUS, 1, 6, versus_count=1, versus_sides=6), "1d6 - (1d6)"),  # IA2 7.2.2.7
        (Dice(DiceForm.SUM, 1, 10, zero=0), "1d10 - 1"),  # `zero reads 0`: faces 0..9
        # exploding dice: `xo` explodes each die once; `x3=6` at most 3 times in all (one die: its depth)
        (Dice(DiceForm.EXPLODE, 2, 6, depth=1), "2d6xo"),
        (Dice(DiceForm.EXPLODE, 1, 6, depth=3), "1d6x3=6"),
        (Dice(DiceForm.EXPLODE, 2, 6, depth=3), "2d6x"),  # the depth of each die goes in the description
    ],
)
def test_formulas_in_foundrys_dice_syntax(dice: Dice, expected: str) -> None:
    assert formula(dice) == expected


def test_exploding_dice_the_formula_cannot_stop_are_described(tmp_path: Path) -> None:
    game = compile_text(
        tmp_path,
        'game t { title "T" }\n'
        'chart [F] "Fire" { roll exploding 2d6 depth 3 column r: text rows { 2-12: "a" 13+: "b" } }\n'
        'chart [G] "Gun" { roll exploding 1d6 depth 3 column r: text rows { 1-12: "a" 13+: "b" } }\n',
    ).project.games["t"]
    docs = [json.loads(t) for p, t in emit_foundry(game).items() if p.startswith(SOURCE)]
    by_name = {d["name"].split()[0]: d for d in docs}
    assert "at most 3 times: stop it there" in by_name["F"]["description"]
    assert "stop it there" not in by_name["G"]["description"] and by_name["G"]["formula"] == "1d6x3=6"


HOSTILE = r'''
game t { title "T <script>alert(1)</script>" }
enum side "Side" {
  ours "<b>Ours</b> & \"co\""
}
chart [T1] table "Table <img src=x onerror=alert(1)>" {
  roll 1d6
  key side
  column result: text "Result"
  drm evil "<script>x</script>" +1 when evil
  rows {
    ours 1-6: "<script>alert('row')</script>"
  }
}
context evil: flag "Evil & <i>"
'''


def test_chart_text_is_escaped_in_descriptions(tmp_path: Path) -> None:
    game = compile_text(tmp_path, HOSTILE).project.games["t"]
    docs = [json.loads(t) for p, t in emit_foundry(game).items() if p.startswith(SOURCE)]
    (table,) = docs
    assert "<script>" not in table["description"] and "&lt;script&gt;x&lt;/script&gt;" in table["description"]
    assert "&lt;img src=x onerror=alert(1)&gt;" in table["description"]
    assert table["results"][0]["description"] == "&lt;script&gt;alert(&#x27;row&#x27;)&lt;/script&gt;"


def test_export_is_byte_identical_on_every_run(cli: tuple[str, Path], tmp_path: Path) -> None:
    game = _game(ROOT / "charts" / "stuka_leader")
    files = []
    for run in ("a", "b"):
        export_game(game, Platform.FOUNDRY, tmp_path / run, CLI_HOME)
        files.append({p.relative_to(tmp_path / run).as_posix(): p.read_bytes()
                      for p in sorted((tmp_path / run).rglob("*")) if p.is_file()})
    assert files[0] == files[1]
    assert any(name.startswith(f"packs/{PACK}/") and name.endswith(".ldb") for name in files[0])


def test_without_the_cli_the_sources_are_written_and_the_way_to_pack_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARTC_FOUNDRY_CLI", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # neither node nor npm
    game = _game(ROOT / "charts" / "aa_rules")
    done = export_game(game, Platform.FOUNDRY, tmp_path / "module")
    assert done.packed is None and done.note is not None and "npm install @foundryvtt/foundryvtt-cli@3" in done.note
    assert len(list((tmp_path / "module" / SOURCE).glob("*.json"))) == len(tables(game))


def test_a_second_export_removes_the_tables_it_no_longer_writes(tmp_path: Path) -> None:
    game = _game(ROOT / "charts" / "aa_rules")
    stale = tmp_path / "module" / SOURCE / "gone_AAAAAAAAAAAAAAAA.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    keep = tmp_path / "module" / SOURCE / "notes.txt"
    keep.write_text("mine", encoding="utf-8")
    export_game(game, Platform.FOUNDRY, tmp_path / "module", tmp_path / "no-cli")
    assert not stale.exists() and keep.exists()


def test_a_table_of_a_chart_with_dice_arithmetic_rolls_its_steps() -> None:
    # IA2 7.1.5 and 10.16: "Roll 1d6 and subtract 3 ... (from zero to 3, maximum)": the table's
    # formula is the die through the steps; 10.16's +1 IFF drm goes on the die, before the 3
    game = _game(ROOT / "charts" / "ia2")
    flak = next(t for t in tables(game) if t.chart.address == "bodenplatte_flak")
    doc = json.loads(emit_foundry(game)[next(p for p in emit_foundry(game) if flak.id in p)])
    assert doc["formula"] == "min(max(1d6 - 3, 0), 3)"
    assert "min(max(1d6 + 1 - 3, 0), 3)" in doc["description"]
    assert [r["range"] for r in doc["results"]] == [[0, 0], [1, 1], [2, 2], [3, 3]]
