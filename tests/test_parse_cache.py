"""The parse cache (compiler/build/parse_cache.py): a chart file that did not change is read back as
the syntax tree its parse built, with the same findings; anything else is parsed again."""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

import dsl.parser
from compiler.build import parse_cache
from compiler.build.project import load
from tests.conftest import CHARTS


def _trees(cache: Path) -> list[Path]:
    return sorted((cache / "chartc").glob("tree-*.pickle"))


def _marks(cache: Path) -> list[Path]:
    return sorted((cache / "chartc").glob("tree-*.seen"))


@pytest.fixture
def ia2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """IA2 copied into a charts folder, with a cache folder of its own and no tree held in memory."""
    shutil.copytree(CHARTS / "ia2", tmp_path / "charts" / "ia2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(parse_cache, "_HELD", type(parse_cache._HELD)())
    return tmp_path


def _no_parse(text: str, path: str) -> dsl.parser.ParseResult:
    raise AssertionError(f"{path} was parsed again")


def test_an_unchanged_file_is_read_back_with_the_same_findings(ia2: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((ia2 / "charts" / "ia2").glob("*.chart"))
    large = [f for f in files if len(f.read_text(encoding="utf-8")) >= parse_cache.MIN_CHARS]
    with contextlib.chdir(ia2):
        parsed = load([Path("charts/ia2")])
        assert _trees(ia2 / "cache") == [] and len(_marks(ia2 / "cache")) == len(large) > 10  # parsed once: marks
        load([Path("charts/ia2")])
        assert len(_trees(ia2 / "cache")) == len(large)  # IA2's files of 2,048 characters or more, parsed twice
        monkeypatch.setattr(parse_cache, "_HELD", type(parse_cache._HELD)())  # as a new process: read from disk
        small = {f.read_text(encoding="utf-8") for f in files if f not in large}
        real = dsl.parser.parse_text
        monkeypatch.setattr(dsl.parser, "parse_text", lambda t, p: real(t, p) if t in small else _no_parse(t, p))
        read_back = load([Path("charts/ia2")])
    # the model and every finding, IA2's C308 notes on R7/R8 among them, are those of the parse
    assert read_back.project == parsed.project
    assert read_back.diagnostics == parsed.diagnostics and any(d.code == "C308" for d in read_back.diagnostics)


def test_an_edited_file_is_parsed_again_and_the_others_are_not(ia2: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    combat = ia2 / "charts" / "ia2" / "combat.chart"
    with contextlib.chdir(ia2):
        load([Path("charts/ia2")])
        load([Path("charts/ia2")])
        before = _trees(ia2 / "cache")
        combat.write_text(combat.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
        seen: list[str] = []
        real = dsl.parser.parse_text
        monkeypatch.setattr(dsl.parser, "parse_text", lambda t, p: seen.append(p) or real(t, p))
        load([Path("charts/ia2")])
    large = [p for p in seen if "combat" in p or len(Path(ia2, p).read_text(encoding="utf-8")) >= parse_cache.MIN_CHARS]
    assert large == ["charts/ia2/combat.chart"]  # the small files are parsed every time, by design
    assert _trees(ia2 / "cache") == before  # the edited text was parsed once: a mark, not a tree
    assert len(_marks(ia2 / "cache")) == len(before) + 1


def test_a_damaged_or_foreign_tree_is_parsed_instead(ia2: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with contextlib.chdir(ia2):
        load([Path("charts/ia2")])
        parsed = load([Path("charts/ia2")])
        trees = _trees(ia2 / "cache")
        data = bytearray(trees[0].read_bytes())
        data[-1] ^= 1  # a flipped bit: the SHA-256 written with it no longer matches
        trees[0].write_bytes(bytes(data))
        os.chmod(trees[1], 0o666)  # a file others may write is never loaded
        monkeypatch.setattr(parse_cache, "_HELD", type(parse_cache._HELD)())
        seen: list[str] = []
        real = dsl.parser.parse_text
        monkeypatch.setattr(dsl.parser, "parse_text", lambda t, p: seen.append(p) or real(t, p))
        again = load([Path("charts/ia2")])
    assert again.project == parsed.project and again.diagnostics == parsed.diagnostics
    assert len([p for p in seen if len(Path(ia2, p).read_text(encoding="utf-8")) >= parse_cache.MIN_CHARS]) == 2


def test_a_file_with_a_syntax_error_or_unsaved_text_is_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "charts" / "t"
    folder.mkdir(parents=True)
    padding = "".join(f"# note {i}: long enough to be worth saving\n" for i in range(60))
    chart = folder / "t.chart"
    chart.write_text('game t { title "T" }\n' + padding + "chart broken {\n", encoding="utf-8")
    with contextlib.chdir(tmp_path):
        assert load([Path("charts/t")]).has_errors
        assert _trees(tmp_path / "cache") == []  # C101: parsed and reported every time
        fixed = 'game t { title "T" }\n' + padding
        load([Path("charts/t")], unsaved={chart.resolve(): fixed})
        assert _trees(tmp_path / "cache") == []  # an editor's buffer, new at each keystroke
        chart.write_text(fixed, encoding="utf-8")
        assert not load([Path("charts/t")]).has_errors
        assert _trees(tmp_path / "cache") == [] and len(_marks(tmp_path / "cache")) == 1
        assert not load([Path("charts/t")]).has_errors
    assert len(_trees(tmp_path / "cache")) == 1


def test_the_key_is_the_text_the_name_and_chartc(monkeypatch: pytest.MonkeyPatch) -> None:
    key = parse_cache.tree_key("game t {}\n", "charts/t/t.chart")
    assert key == parse_cache.tree_key("game t {}\n", "charts/t/t.chart")
    assert key != parse_cache.tree_key("game t {}\n\n", "charts/t/t.chart")  # the spans' text
    assert key != parse_cache.tree_key("game t {}\n", "t/t.chart")  # the name every span carries
    monkeypatch.setattr(parse_cache, "code_fingerprint", lambda: "another chartc")
    assert key != parse_cache.tree_key("game t {}\n", "charts/t/t.chart")


def test_the_oldest_trees_go_past_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = dsl.parser.parse_text('game t { title "T" }\n', "t.chart").source
    assert tree is not None
    for i in range(5):
        parse_cache.store(tmp_path, f"{i:040d}", tree)  # a mark
        parse_cache.store(tmp_path, f"{i:040d}", tree)  # the tree
        for saved in tmp_path.glob(f"tree-{i:040d}.*"):
            os.utime(saved, ns=(i * 10**9, i * 10**9))
    assert len(list(tmp_path.glob("tree-*"))) == 10
    monkeypatch.setattr(parse_cache, "KEEP", 8)
    parse_cache._keep_newest(tmp_path)
    # past 8 files (5 marks and 5 trees), the newest three quarters of 8 are kept
    assert sorted(p.name for p in tmp_path.glob("tree-*")) == sorted(
        f"tree-{i:040d}.{kind}" for i in range(2, 5) for kind in ("pickle", "seen"))
