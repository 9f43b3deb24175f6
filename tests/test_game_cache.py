"""The compiled-game cache of `lookup` and `odds` (compiler/build/cache.py): the same answers as a
fresh compile, never stale after an edit, and never loaded from a file someone else could write."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build import cache as game_cache
from compiler.build.project import load, load_game
from compiler.cli import cli
from compiler.errata.printing import AS_CORRECTED, AS_PRINTED
from tests.conftest import CHARTS, ROOT

ESCAPE = """game t { title "T" }
enum interceptor "Interceptor type" { piston "Piston-engined" jet "Jet or Rocket" }
chart [R4] escape "Escape Chart" {
  rule "7.1.10"
  roll 1d6
  key interceptor
  column result: text "Result"
  rows {
    piston 1-2: "Safe escape"
    piston 3-6: "Combat"
    jet    1-4: "Safe escape"
    jet    5-6: "Combat"
  }
}
"""


def _game(tmp_path: Path, text: str = ESCAPE) -> Path:
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "t.chart").write_text(text, encoding="utf-8")
    return folder


def _saved(cache: Path) -> list[Path]:
    return sorted(cache.glob("game-*.pickle"))


def test_a_saved_game_is_the_compiled_game(tmp_path: Path) -> None:
    # IA2, the largest game: the model and every finding (R7/R8's C308 notes) come back as compiled
    folder = tmp_path / "charts" / "ia2"
    shutil.copytree(CHARTS / "ia2", folder)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        compiled = load([Path("charts/ia2")])
        first = load_game(Path("charts/ia2"), cache_dir=cache)
        assert len(_saved(cache)) == 1
        again = load_game(Path("charts/ia2"), cache_dir=cache)
    assert again.project == compiled.project == first.project
    assert again.diagnostics == compiled.diagnostics and any(d.code == "C308" for d in again.diagnostics)
    assert again.suppressed == compiled.suppressed and again.sources == compiled.sources


def test_an_edited_chart_is_never_answered_from_the_old_game(tmp_path: Path) -> None:
    folder = _game(tmp_path)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        before = load_game(Path("charts/t"), cache_dir=cache)
        (folder / "t.chart").write_text(ESCAPE.replace("piston 3-6", "piston 3+"), encoding="utf-8")
        after = load_game(Path("charts/t"), cache_dir=cache)
    printed_before = [r.range.printed for r in before.project.games["t"].charts[0].rows if r.range]
    printed_after = [r.range.printed for r in after.project.games["t"].charts[0].rows if r.range]
    assert printed_before == ["1-2", "3-6", "1-4", "5-6"]
    assert printed_after == ["1-2", "3+", "1-4", "5-6"]
    assert len(_saved(cache)) == 1, "the old saved game of the folder is replaced, not kept"


def test_an_added_file_or_another_option_is_another_key(tmp_path: Path) -> None:
    folder = _game(tmp_path)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        load_game(Path("charts/t"), cache_dir=cache)
        load_game(Path("charts/t"), printing=AS_PRINTED, cache_dir=cache)
        assert len(_saved(cache)) == 2  # one per option
        (folder / "more.chart").write_text('chart extra "Extra" { }\n', encoding="utf-8")
        comp = load_game(Path("charts/t"), cache_dir=cache)
    assert sorted(c.address for c in comp.project.games["t"].charts) == ["R4", "extra"]


def test_the_key_covers_chartc_own_code(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = {"charts/t/t.chart": ESCAPE}
    key = game_cache.game_key("t", AS_CORRECTED, sources)
    monkeypatch.setattr(game_cache, "code_fingerprint", lambda: "another chartc")
    assert game_cache.game_key("t", AS_CORRECTED, sources) != key


def test_a_saved_game_others_could_have_written_is_not_loaded(tmp_path: Path) -> None:
    # a saved game is a pickle: loading one someone else wrote would run their code
    _game(tmp_path)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        load_game(Path("charts/t"), cache_dir=cache)
        [saved] = _saved(cache)
        slot, key = saved.stem.split("-")[1:]
        assert game_cache.fetch(cache, slot, key) is not None
        saved.chmod(0o666)
        assert game_cache.fetch(cache, slot, key) is None
        saved.chmod(0o600)
        saved.write_bytes(saved.read_bytes()[:100])  # truncated: compiled again, not a crash
        assert game_cache.fetch(cache, slot, key) is None
        assert load_game(Path("charts/t"), cache_dir=cache).project.games["t"].charts[0].address == "R4"


def test_lookup_answers_the_same_from_a_saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # IA2 R4 as amended by chartc's errata: piston 3 -> row 3+ (rule 7.1.10, footnote 1)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    args = ["lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--charts", str(CHARTS)]
    first = CliRunner().invoke(cli, args)
    assert len(_saved(tmp_path / "xdg" / "chartc")) == 1
    second = CliRunner().invoke(cli, args)
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output and "roll 3 -> row 3+" in second.output


def test_the_cache_keeps_only_the_newest_saved_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # temporary game folders leave saved games behind: the cache is bounded, newest kept
    monkeypatch.setattr(game_cache, "KEEP", 2)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        for n in range(3):
            _game(tmp_path / f"tree{n}")
            load_game(Path(f"tree{n}/charts/t"), cache_dir=cache)
    assert len(_saved(cache)) == 2
    with contextlib.chdir(tmp_path):
        last = load_game(Path("tree2/charts/t"), cache_dir=cache)
    assert last.project.games["t"].charts[0].address == "R4"


def test_a_process_unpickles_the_same_saved_bytes_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 16: repeated queries in one process (the tests, an editor session) skip the unpickling,
    # never the file's checks: a file others could write is still refused, other bytes are read anew
    _game(tmp_path)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        load_game(Path("charts/t"), cache_dir=cache)
        [saved] = _saved(cache)
        slot, key = saved.stem.split("-")[1:]
        first = game_cache.fetch(cache, slot, key)
        assert first is not None and first.project.games["t"].chart("R4") is not None
        unpickled = []
        monkeypatch.setattr(game_cache.pickle, "loads", lambda data: unpickled.append(data) or first)
        assert game_cache.fetch(cache, slot, key) is first and unpickled == []
        saved.chmod(0o666)
        assert game_cache.fetch(cache, slot, key) is None
        saved.chmod(0o600)
        game_cache.store(cache, slot, key, game_cache.CompiledGame(first.project, (), ()))  # other bytes
        assert game_cache.fetch(cache, slot, key) is first and len(unpickled) == 1


def test_a_saved_game_with_a_flipped_bit_is_compiled_again_and_saved_anew(tmp_path: Path) -> None:
    # issue 33 finding 2: a bit flipped in a saved game made 66 of 300 lookups answer wrong; every
    # cache file carries the SHA-256 of its bytes, so a flip anywhere (header, digest or pickle) is
    # refused, the game compiled again and the file rewritten
    _game(tmp_path)
    cache = tmp_path / "cache"
    with contextlib.chdir(tmp_path):
        compiled = load([Path("charts/t")])
        load_game(Path("charts/t"), cache_dir=cache)
        [saved] = _saved(cache)
        slot, key = saved.stem.split("-")[1:]
        good = saved.read_bytes()
        game_cache._UNPICKLED.clear()
        for at in range(0, len(good), max(1, len(good) // 300)):
            for bit in (0x01, 0x80):
                flipped = bytearray(good)
                flipped[at] ^= bit
                saved.write_bytes(bytes(flipped))
                assert game_cache.fetch(cache, slot, key) is None, (at, bit)
        again = load_game(Path("charts/t"), cache_dir=cache)
        assert again.project == compiled.project and again.diagnostics == compiled.diagnostics
        assert saved.read_bytes() == good  # saved anew: the next lookup reads it again
        assert game_cache.fetch(cache, slot, key) is not None


def test_a_lookup_from_a_saved_game_loads_no_syntax_tree_parser_or_renderer(tmp_path: Path) -> None:
    """What keeps `chartc lookup` quick (docs/records/speed.md): answered from a saved game (R4 piston 3 ->
    Combat), it imports neither the syntax tree, Lark, the diagnostics' renderers, difflib, json nor the
    parts of the generated modules' runtime it does not call (it reads the row with the runtime's row
    step: `base`, `rows`, `roll`), and generates the methods of none of the game's model classes
    (`dsl.lazy_dataclass`): unpickling needs none of them."""
    folder = _game(tmp_path)
    load_game(folder, cache_dir=tmp_path / "xdg" / "chartc")  # compiled here, read back below
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "PYTHONPATH": str(ROOT)}
    script = (
        "import sys\n"
        "from compiler.cli import main\n"
        f"charts = {str(folder.parent)!r}\n"
        "sys.argv = ['chartc', 'lookup', 't/R4', '3', '--key', 'interceptor=piston', '--charts', charts]\n"
        "try:\n"
        "    main()\n"
        "finally:\n"
        "    from compiler import model\n"
        "    from dsl import lazy_dataclass\n"
        "    from dsl.shared import Span\n"
        "    parts = ['checks', 'conditions', 'dice', 'drms', 'results', 'shifts', 'odds', 'formulas', 'chains']\n"
        "    heavy = ['dsl.ast', 'lark', 'compiler.diagnostics.render', 'difflib', 'json']\n"
        "    heavy += [f'compiler.engine.runtime.{part}' for part in parts]\n"
        "    print('loaded:', [m for m in heavy if m in sys.modules])\n"
        "    classes = (model.Game, model.Chart, model.Row, model.DieRange, model.EnumType, Span)\n"
        "    print('complete:', [c.__name__ for c in classes if c not in lazy_dataclass._pending])\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "roll 3 -> row 3-6" in run.stdout and "Result: Combat" in run.stdout
    assert "loaded: []" in run.stdout and "complete: []" in run.stdout


def test_the_code_fingerprint_hashes_chartcs_own_files(tmp_path: Path, monkeypatch) -> None:
    """A saved game or syntax tree never answers for another chartc: the fingerprint covers every
    file of `compiler` and `dsl` (it hashed none of them after `cache.py` moved into
    `compiler/build/`, so a tree saved by an older chartc was read by a newer one)."""
    files = {p: dict(game_cache._package_files(game_cache.package_root(p))) for p in ("compiler", "dsl")}
    assert "build/cache.py" in files["compiler"] and "ast/charts.py" in files["dsl"]
    before = game_cache.code_fingerprint()
    copy = tmp_path / "dsl"
    shutil.copytree(game_cache.package_root("dsl"), copy, ignore=shutil.ignore_patterns("__pycache__"))
    roots = {"compiler": game_cache.package_root("compiler"), "dsl": copy}
    monkeypatch.setattr(game_cache, "package_root", roots.__getitem__)
    game_cache.code_fingerprint.cache_clear()
    try:
        assert game_cache.code_fingerprint() == before  # the same files, wherever they are
        (copy / "ast" / "charts.py").write_text((copy / "ast" / "charts.py").read_text() + "\n# changed\n")
        game_cache.code_fingerprint.cache_clear()
        assert game_cache.code_fingerprint() != before
    finally:
        game_cache.code_fingerprint.cache_clear()
