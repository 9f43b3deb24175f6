"""What the repository's files hold and how they are named: no file outside tests/ holds a path of
the machine it was written on (a chart comment once cited `/tmp/...`), and chart and test files are
named for the book's chapters and subjects, not for when they were added (`more_fire.chart` became
`fire.chart`; `examples_more.chart` was merged into `examples.chart`)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

SCANNED_FOLDERS = ("charts", "docs", "generated", "schemas", "scripts", "compiler", "dsl", "editors", ".ci")
SCANNED_FILES = ("README.md", "pyproject.toml", "action.yml", ".pre-commit-hooks.yaml")
SKIPPED_PARTS = frozenset({"__pycache__", "node_modules"})
# tests/ is not scanned: its inputs hold absolute paths on purpose (SARIF URIs of `/tmp/my charts`,
# writes refused outside `--out` such as `/etc/passwd`)

MACHINE_PATH = re.compile(r"(?<![\w.~/:-])/(?:tmp|work|root|home|Users|mnt|private/var)/[\w.-]")
"""A path under a folder that belongs to one machine or one user (`/dev/null`, `/proc/self/environ`
and `/usr/bin/env` name the same thing everywhere and are not matched)."""
HISTORY_NAME = re.compile(r"(^|_)(more|new|old|extra|round\d*|issue\d*)(_|$)")
"""A file-name word that says when a file was written, not what it holds."""


def machine_paths(text: str) -> list[str]:
    return [m.group(0) for m in MACHINE_PATH.finditer(text)]


def scanned() -> list[Path]:
    files = [ROOT / name for name in SCANNED_FILES if (ROOT / name).is_file()]
    for folder in SCANNED_FOLDERS:
        files += [p for p in sorted((ROOT / folder).rglob("*"))
                  if p.is_file() and not SKIPPED_PARTS & set(p.relative_to(ROOT).parts)]
    return files


def test_no_file_holds_a_path_of_this_machine() -> None:
    found = []
    for path in scanned():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # images, PDFs
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if machine_paths(line) or str(ROOT) in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


def test_machine_paths_are_told_from_paths_every_machine_has() -> None:
    # charts/ia2/examples.chart's header cited "(see /tmp/examples/REPORT.md)" until it was fixed
    assert machine_paths("# chart disagrees (see /tmp/examples/REPORT.md).") == ["/tmp/e"]
    found = machine_paths("gitdir: /work/main/.git and /home/ann/charts, /Users/ann")
    assert found == ["/work/m", "/home/a", "/Users/a"]
    assert machine_paths("`chartc check /dev/null`, `/proc/self/environ`, #!/usr/bin/env python3") == []
    assert machine_paths("../shared/seeds/000.txt, charts/ia2/tmp/x, https://example.org/home/x") == []


def test_chart_and_test_files_are_named_for_what_they_hold() -> None:
    names = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "charts").glob("*/*.chart"))]
    names += [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "tests").glob("test_*.py"))]
    assert len(names) > 40
    assert [name for name in names if HISTORY_NAME.search(Path(name).stem)] == []
    assert [s for s in ("more_fire", "examples_more", "ia2_more", "round4") if HISTORY_NAME.search(s)] == [
        "more_fire", "examples_more", "ia2_more", "round4"]
