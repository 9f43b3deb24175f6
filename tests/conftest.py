"""Shared fixtures: compile chart text in a temporary game folder, and the real corpus."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from compiler.build.project import Compilation, load
from compiler.errata.printing import AS_PRINTED

ROOT = Path(__file__).resolve().parent.parent
CHARTS = ROOT / "charts"
CASES = Path(__file__).resolve().parent / "cases"


def compile_text(tmp_path: Path, text: str | bytes, game: str = "t", name: str = "case.chart") -> Compilation:
    """Write `text` (str as UTF-8, or raw bytes) as charts/<game>/<name> under tmp_path and compile
    it (paths relative to tmp_path)."""
    return compile_files(tmp_path, {name: text.encode("utf-8") if isinstance(text, str) else text}, game)


def compile_files(tmp_path: Path, files: dict[str, bytes], game: str = "t") -> Compilation:
    """Write each `files` entry into charts/<game>/ under tmp_path and compile from tmp_path."""
    folder = tmp_path / "charts" / game
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    with contextlib.chdir(tmp_path):
        return load([Path("charts")])


def tiny_game(charts: Path, game: str, result: str) -> None:
    """Write charts/<game>/<game>.chart under `charts`: a game with one 1d6 chart whose 1-3 row reads
    `result` (change it to change every output of the game)."""
    (charts / game).mkdir(parents=True, exist_ok=True)
    (charts / game / f"{game}.chart").write_text(
        f'game {game} {{ title "{game}" }}\n'
        f'chart [R1] "Escape" {{ rule "7.1" roll 1d6 column r: text "Result"\n'
        f'  rows {{ 1-3: "{result}" 4-6: "Combat" }} }}\n',
        encoding="utf-8",
    )


def codes(comp: Compilation) -> list[str]:
    return [d.code for d in comp.diagnostics]


def import_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MYPY_CACHE: list[Path] = []


def mypy_strict(*paths: Path | str) -> tuple[int, str]:
    """`mypy --strict PATHS` in-process: the exit status and the report. The runs of one pytest
    process share an incremental cache (a temporary folder, removed at exit), so the standard
    library's stubs are analysed once rather than by every run."""
    api = pytest.importorskip("mypy.api")
    if not _MYPY_CACHE:
        import atexit
        import shutil
        import tempfile

        _MYPY_CACHE.append(Path(tempfile.mkdtemp(prefix="chartc-mypy-")))
        atexit.register(shutil.rmtree, _MYPY_CACHE[0], ignore_errors=True)
    stdout, stderr, status = api.run(["--strict", f"--cache-dir={_MYPY_CACHE[0]}", *map(str, paths)])
    return status, stdout + stderr


@pytest.fixture(scope="session")
def corpus() -> Compilation:
    """The real charts/ tree, compiled once, with paths as `chartc check charts` shows them."""
    with contextlib.chdir(ROOT):
        return load([Path("charts")])


@pytest.fixture(scope="session")
def corpus_as_printed() -> Compilation:
    """The real charts/ tree without any errata: the rulebooks exactly as printed."""
    with contextlib.chdir(ROOT):
        return load([Path("charts")], printing=AS_PRINTED)


@pytest.fixture(scope="session")
def corpus_outputs(corpus: Compilation):
    """`render_outputs(corpus.project, paper, large, landscape)`, rendered once per session for each
    layout (rendering the corpus costs about half a second of CPU; the print tests read it twenty
    times). Each call returns a fresh dict of the same texts."""
    from compiler.build.render import render_outputs

    rendered: dict[tuple[str, bool, bool], dict[str, str]] = {}

    def outputs(paper: str = "a4", large: bool = False, landscape: bool = False) -> dict[str, str]:
        key = (paper, large, landscape)
        if key not in rendered:
            rendered[key] = render_outputs(corpus.project, paper, large, landscape)
        return dict(rendered[key])

    return outputs


@pytest.fixture(scope="session")
def ia2(corpus: Compilation):
    return corpus.project.games["ia2"]


@pytest.fixture(scope="session")
def ia2_printed(corpus_as_printed: Compilation):
    return corpus_as_printed.project.games["ia2"]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch) -> Path:
    """A copy of charts/ and generated/ in tmp_path, which becomes the working folder."""
    import shutil

    shutil.copytree(ROOT / "charts", tmp_path / "charts")
    # tests that import the generated modules leave bytecode beside them: not part of the outputs
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def small_corpus(charts: Path) -> None:
    """Write four one-chart games under `charts`, standing in for the real corpus where its size
    proves nothing: `alpha` (two chart files; alpha.chart's 1-3 row reads "Safe escape"), `bravo`,
    `charlie` and `delta`, smaller in that order (a build renders the largest game first)."""
    tiny_game(charts, "alpha", "Safe escape")
    (charts / "alpha" / "more.chart").write_text(
        'chart [R2] "Second" { rule "7.2" roll 1d6 column r: text "Result" rows { 1-6: "Combat" } }\n',
        encoding="utf-8")
    tiny_game(charts, "bravo", "Safe retreat by road")
    tiny_game(charts, "charlie", "Safe retreat")
    tiny_game(charts, "delta", "Safe")


@pytest.fixture(scope="session")
def small_corpus_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`small_corpus` in charts/ and built into generated/, once per session (about 0.1 s a build
    against about 2 s for the real corpus)."""
    from click.testing import CliRunner

    from compiler.cli import cli

    base = tmp_path_factory.mktemp("small_corpus")
    small_corpus(base / "charts")
    with contextlib.chdir(base):
        r = CliRunner().invoke(cli, ["build", "charts"])
    assert r.exit_code == 0, r.output
    return base


@pytest.fixture()
def small_project(small_corpus_built: Path, tmp_path: Path, monkeypatch) -> Path:
    """`project` for the small corpus: a copy of its charts/ and generated/ in tmp_path, which
    becomes the working folder."""
    shutil.copytree(small_corpus_built / "charts", tmp_path / "charts")
    shutil.copytree(small_corpus_built / "generated", tmp_path / "generated")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def run(monkeypatch):
    """`chartc ARGS` in-process from the repository root (exceptions propagate)."""
    from click.testing import CliRunner

    from compiler.cli import cli

    monkeypatch.chdir(ROOT)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


REQUIRE_BROWSER = os.environ.get("CHARTC_REQUIRE_BROWSER") == "1"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]



class _Chromium:
    """The session's one Chromium (and its Playwright driver), closed right after the last test that
    uses it: Playwright's sync API leaves its event loop set on the thread, which the language
    server's asyncio tests (tests/test_lsp.py) cannot run beside."""

    last_user: pytest.Item | None = None
    playwright: Any = None
    launched: Any = None

    def close(self) -> None:
        if self.launched is not None:
            self.launched.close()
            self.playwright.stop()
            self.launched = self.playwright = None


_CHROMIUM = _Chromium()


def pytest_collection_finish(session: pytest.Session) -> None:
    users = [item for item in session.items if "browser" in getattr(item, "fixturenames", ())]
    _CHROMIUM.last_user = users[-1] if users else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    yield  # the module's pages and contexts are closed first
    if item is _CHROMIUM.last_user:
        _CHROMIUM.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (Playwright, the system Chromium), started once per session for the aid's
    live, calculator and phone tests (each start and stop cost about 1.5 s of CPU) and closed after
    the last of them. CI sets CHARTC_REQUIRE_BROWSER=1: then a missing Playwright or Chromium fails
    instead of skipping."""
    if REQUIRE_BROWSER:
        from playwright.sync_api import sync_playwright
    else:
        sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs Playwright")
        sync_playwright = sync_api.sync_playwright
        if not Path(CHROMIUM).is_file():
            pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    _CHROMIUM.playwright = sync_playwright().start()
    _CHROMIUM.launched = _CHROMIUM.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    yield _CHROMIUM.launched
    _CHROMIUM.close()
