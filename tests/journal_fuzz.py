"""The journaled writer under random faults (issue 33): a build, then up to two more chartc
commands, each of which may be killed or see one I/O error at any of its file-system calls; at the
end (and after a clean `recover`) the output folder holds the old outputs or the new ones, never a
mix, and no temp file or journal.

A case is one seed: `--out` holds games `a` and `b` and a file of the user's; the build rewrites
two of `a`'s outputs, keeps the third, deletes `b`'s (its charts are gone) and writes a new game
`c` (a new folder). Every call through which chartc changes the disk (`KILL_POINTS`, as
tests/test_build_safety.py's kill test) is counted; the seed picks, for each command, one call
and what happens there:

- **kill**: the process ends there: that call and every later one fail without touching the disk
  (no handler of chartc's can change anything after the kill, as with `kill -9`);
- **fail**: that one call raises `EIO`, and the command goes on (or fails) as chartc decides.

The properties: a build that returns wrote the new tree; a build that says "no output file was
changed" changed none; whatever the commands did, a final `recover` leaves the old tree or the new
one. `fsync` is counted but does nothing (the faults are the process's, not the disk's).

`scripts/fuzz_surfaces.py` runs it for the ledger; tests/test_build_safety.py runs a few hundred.
"""

from __future__ import annotations

import enum
import errno
import os
import random
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from compiler.build.journal import recover
from compiler.build.writer import WriteError, write_outputs

KILL_POINTS = ("open", "mkdir", "fsync", "replace", "rename", "unlink", "rmdir")
_MARK = '{\n  "generator": "chartc",\n  "game": "%s"\n}\n'
OLD: dict[str, bytes | None] = {
    "a": None, "a/a.json": (_MARK % "a").encode(), "a/a.py": b"# a, old\n", "a/a.html": b"<p>a</p>\n",
    "b": None, "b/b.json": (_MARK % "b").encode(), "b/b.py": b"# b\n", "b/b.html": b"<p>b</p>\n",
    "notes.txt": b"the user's own file\n",
}
OUTPUTS: dict[str, str | bytes] = {
    "a/a.json": _MARK % "a" + " ", "a/a.py": "# a, new\n", "a/a.html": "<p>a</p>\n",
    "c/c.json": _MARK % "c", "c/c.py": "# c\n", "c/c.html": "<p>c</p>\n",
}
NEW: dict[str, bytes | None] = {
    "a": None, "a/a.json": (_MARK % "a" + " ").encode(), "a/a.py": b"# a, new\n", "a/a.html": b"<p>a</p>\n",
    "c": None, "c/c.json": (_MARK % "c").encode(), "c/c.py": b"# c\n", "c/c.html": b"<p>c</p>\n",
    "notes.txt": b"the user's own file\n",
}
GAMES = ["a", "b", "c"]


class Fault(enum.StrEnum):
    KILL = "kill"
    FAIL = "fail"


class _Killed(BaseException):
    """The process ended here (not an Exception: chartc catches none of it)."""


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `folder`."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def _restore(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for rel, data in OLD.items():
        if data is None:
            (folder / rel).mkdir()
        else:
            (folder / rel).write_bytes(data)


@contextmanager
def faults(at: int | None, fault: Fault) -> Iterator[list[int]]:
    """Count every `KILL_POINTS` call (fsync does nothing) and apply `fault` at call `at`."""
    calls = [0]
    dead = [False]
    real = {name: getattr(os, name) for name in KILL_POINTS}

    def guarded(name: str) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            if dead[0]:
                raise _Killed
            calls[0] += 1
            if calls[0] == at:
                if fault is Fault.KILL:
                    dead[0] = True
                    raise _Killed
                raise OSError(errno.EIO, "Input/output error (injected)")
            return None if name == "fsync" else real[name](*args, **kwargs)
        return call

    for name in KILL_POINTS:
        setattr(os, name, guarded(name))
    try:
        yield calls
    finally:
        for name, function in real.items():
            setattr(os, name, function)


def _command(step: int, out: Path) -> str:
    """The first command builds; the ones after recover (`build --check` and `build` start so)."""
    if step == 0:
        try:
            write_outputs(out, OUTPUTS, GAMES)
        except WriteError as exc:
            return "unchanged" if "no output file was changed" in str(exc) else "failed"
        return "written"
    try:
        recover(out)
    except WriteError:
        return "failed"
    return "recovered"


def run_case(folder: Path, seed: int) -> int:
    """One case; returns the number of commands run. An AssertionError names what broke."""
    rng = random.Random(seed)
    out = folder / "out"
    _restore(out)
    commands = 1 + rng.randrange(3)
    for step in range(commands):
        at = rng.randrange(1, 70) if rng.random() < 0.9 else None
        fault = Fault.KILL if rng.random() < 0.5 else Fault.FAIL
        outcome = "killed"
        with faults(at, fault):
            try:
                outcome = _command(step, out)
            except _Killed:
                pass
            except OSError as exc:  # an error no chartc handler turns into a message: a traceback
                raise AssertionError(f"seed {seed}, command {step}: {exc!r} escaped ({fault} at {at})") from None
        now = tree(out)
        if outcome == "written":
            assert now == NEW, f"seed {seed}: the build returned but the tree is not the new one ({fault} at {at})"
        if outcome == "unchanged":
            assert now == OLD, f"seed {seed}: the build said no file changed, but one did ({fault} at {at})"
    recover(out)
    final = tree(out)
    assert final in (OLD, NEW), f"seed {seed}: a mixed tree after recovery: {sorted(set(final) ^ set(NEW))}"
    return commands
