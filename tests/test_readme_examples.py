"""The README's command examples print what the README says: each `$ chartc ...` line named below
is run in a shell from the repository root (with `chartc` this checkout's CLI) and its output,
standard error included, must be the lines under it in the README, up to the next `$` line.

The `--help` listing is checked in the default run; the examples that compile the corpus are
`slow` (a new command missing from the listing, a changed change count or a stale `list` table was
found by a new user, not by a test).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

FAST = ["chartc --help | sed -n '/^Commands:/,$p'"]
SLOW = [
    "chartc list ia2 | head -4",
    "chartc list ia2 | grep -E 'ia2/(R4|B9|B3|R7) '",
    "chartc diff charts charts --as-printed --exit-code > /dev/null; echo $?",
]


def readme_examples() -> dict[str, list[str]]:
    """Every `$ command` line of the README's code blocks, with the output lines under it."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    inside = False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside, current = not inside, None
        elif inside and line.startswith("$ "):
            current = found.setdefault(line[2:], [])
        elif inside and current is not None:
            current.append(line)
    return found


def _run(command: str, tmp_path: Path) -> list[str]:
    shim = tmp_path / "chartc"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m compiler.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT)}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return done.stdout.splitlines()


def test_the_examples_checked_here_are_in_the_readme() -> None:
    assert set(FAST + SLOW) <= set(readme_examples())


@pytest.mark.parametrize("command", FAST)
def test_readme_example(command: str, tmp_path: Path) -> None:
    assert _run(command, tmp_path) == readme_examples()[command]


@pytest.mark.slow
@pytest.mark.parametrize("command", SLOW)
def test_readme_example_on_the_corpus(command: str, tmp_path: Path) -> None:
    assert _run(command, tmp_path) == readme_examples()[command]
