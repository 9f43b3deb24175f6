"""The command examples of README.md and docs/ print what the pages say.

A `$ command` line in a fenced code block is run in bash (with `chartc` and `python` this
checkout's), and its output, standard error included, must be the lines under it up to the next
`$` line or the end of the block. The pages of PAGES run from the repository root, on the corpus;
docs/guide.md runs from top to bottom in an empty folder, where each block after a
`<!-- guide: file PATH -->` line is first written to PATH. A block after a
`<!-- excerpt of PATH -->` line must be PATH's text, its comment lines left out.

The default run holds FAST; the examples that compile the corpus, and the guide (about 10 s of
CPU: twenty commands, a PDF among them), are `slow` (a new command missing from the `--help`
listing, a changed change count or a stale `list` table was found by a new user, not by a test).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = ("README.md", "docs/cli.md", "docs/api.md", "docs/language.md")
GUIDE = "docs/guide.md"
# docs/cli.md's analyze example is also held in the default run, in-process (tests/test_crt_design.py)
FAST = {"chartc --help | sed -n '/^Commands:/,$p'"}
# Examples that need a file the page does not hold; what they show is tested where named.
EXCUSED = {
    "chartc fmt --diff": "a misformatted charts/ia2/combat.chart (tests/test_fmt.py)",
    "cat crt.csv": "a CSV file saved by a spreadsheet (tests/test_import_export.py)",
    "chartc import crt.csv > crt.chart": "that CSV file (tests/test_import_export.py, tests/cases/c360*)",
    'chartc import crt.csv --title "Combat Results Table"': "that CSV file, retyped (tests/test_import_export.py)",
}
_FILE = re.compile(r"<!-- guide: file (\S+) -->")
_EXCERPT = re.compile(r"<!-- excerpt of (\S+) -->")


@dataclass(frozen=True)
class Command:
    """A `$ command` line (at `line` of its page) and the lines it must print."""

    line: int
    text: str
    output: tuple[str, ...]


@dataclass(frozen=True)
class File:
    """A block to write to `path` (relative to the guide's folder) before the commands after it."""

    line: int
    path: str
    text: str


@dataclass(frozen=True)
class Excerpt:
    """A block that must be the text of the repository's file `path`, its comment lines left out."""

    line: int
    path: str
    text: str


Step = Command | File | Excerpt


def steps(page: str) -> list[Step]:
    """The page's files, excerpts and commands, in page order."""
    found: list[Step] = []
    marker: re.Match[str] | None = None
    block: list[str] | None = None
    start = 0
    for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        if block is None:
            if line.startswith("```"):
                block, start = [], number
            elif line.strip():
                marker = _FILE.fullmatch(line) or _EXCERPT.fullmatch(line)
            continue
        if not line.startswith("```"):
            block.append(line)
            continue
        text = "".join(f"{b}\n" for b in block)
        if marker and marker.re is _FILE:
            found.append(File(start, marker.group(1), text))
        elif marker:
            found.append(Excerpt(start, marker.group(1), text))
        else:
            found += _commands(start, block)
        marker, block = None, None
    assert block is None, f"{page}: a code block opened at line {start} is not closed"
    return found


def _commands(start: int, block: list[str]) -> list[Command]:
    found: list[Command] = []
    for offset, line in enumerate(block, 1):
        if line.startswith("$ "):
            found.append(Command(start + offset, line[2:], ()))
        elif found:
            last = found[-1]
            found[-1] = Command(last.line, last.text, (*last.output, line))
    return found


def _run(command: str, cwd: Path, shims: Path) -> list[str]:
    env = {
        **os.environ,
        "PATH": f"{shims}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",  # no __pycache__ beside the generated modules
    }
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return done.stdout.splitlines()


@pytest.fixture
def shims(tmp_path: Path) -> Path:
    """A folder whose `chartc` and `python` are this checkout's CLI and this interpreter."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, target in (("chartc", f'"{sys.executable}" -m compiler.cli'), ("python", f'"{sys.executable}"')):
        (folder / name).write_text(f'#!/bin/sh\nexec {target} "$@"\n', encoding="utf-8")
        (folder / name).chmod(0o755)
    return folder


def _page_commands() -> list[object]:
    params: list[object] = []
    for page in PAGES:
        for step in steps(page):
            if isinstance(step, Command) and step.text not in EXCUSED:
                marks = () if step.text in FAST else (pytest.mark.slow,)
                params.append(pytest.param(step, id=f"{page}:{step.line}", marks=marks))
    return params


def test_the_pages_hold_the_fast_and_excused_examples() -> None:
    held = {s.text for page in PAGES for s in steps(page) if isinstance(s, Command)}
    assert held >= FAST
    assert EXCUSED.keys() <= held
    assert "chartc lookup ia2/R4 2 --key interceptor=piston --when fb_attack" in held  # the README's example


@pytest.mark.parametrize("command", _page_commands())
def test_page_example(command: Command, shims: Path) -> None:
    assert _run(command.text, ROOT, shims) == list(command.output)


def test_excerpts_are_the_files_they_quote() -> None:
    # README: the IA2 Escape Chart [R4] (7.1.10) as charts/ia2/combat.chart holds it
    excerpts = [s for page in (*PAGES, GUIDE) for s in steps(page) if isinstance(s, Excerpt)]
    assert [e.path for e in excerpts if e.path == "charts/ia2/combat.chart"]
    for excerpt in excerpts:
        source = (ROOT / excerpt.path).read_text(encoding="utf-8").splitlines()
        kept = "".join(f"{line}\n" for line in source if not line.lstrip().startswith("#"))
        assert excerpt.text in kept, f"{excerpt.path} no longer holds the excerpt at line {excerpt.line}"


@pytest.mark.slow
def test_the_guide_runs_in_an_empty_folder(tmp_path: Path, shims: Path) -> None:
    pytest.importorskip("weasyprint")  # the guide prints its aid (`chartc build --pdf`)
    folder = tmp_path / "game"
    folder.mkdir()
    done = []
    for step in steps(GUIDE):
        match step:
            case File(path=path, text=text):
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_text(text, encoding="utf-8")
            case Command(text=command, output=output, line=line):
                assert _run(command, folder, shims) == list(output), f"{GUIDE}:{line}: {command}"
                done.append(command)
            case Excerpt():
                raise AssertionError(f"{GUIDE}:{step.line}: the guide quotes no repository file")
    # from an empty folder (`chartc new` makes the game and its CI gate) to a printed aid
    assert done[0] == 'chartc new charts/skirmish --title "Skirmish at the Bridge"'
    assert "chartc build --pdf" in done and (folder / "generated" / "skirmish" / "skirmish.pdf").is_file()
    assert "chartc build --check" in done
