"""The worker processes of `build --jobs N` and `build --pdf` (`compiler.build.render.in_processes`)
end when a worker fails, and never hang.

With `multiprocessing.Pool`, a worker's exception made the parent leave `with Pool()`, whose
`terminate()` stops the pool while the other workers may still be writing a game's outputs
(megabytes) into the results pipe under its write lock: once the pool's result thread stops
reading, that worker blocks holding the lock, and `terminate()` waits for the lock for ever. A
full `pytest` on a loaded machine hung there (the parent on a futex, a killed worker a zombie).
`concurrent.futures.ProcessPoolExecutor` cancels the work not started, lets the started work
finish and be read, and only then stops the workers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

import compiler.build.games
from compiler.cli import cli
from tests.conftest import ROOT, tiny_game

# Each round: six items in two workers, the first failing at once, the others returning 4 MiB (a
# game's HTML, JSON and Python are of that size), so a result is being written when the parent
# stops the workers. With `multiprocessing.Pool` about one round in eleven hung (5 of 8 runs of 10
# rounds, 3 of 8 runs of 12): the default run's 10 rounds catch it about half the time, the slow
# run's 60 nearly always. A round costs about 0.1 s of CPU.
CHILD = """
import sys
from compiler.build.render import in_processes

def work(i: int) -> bytes:
    if i == 0:
        raise RuntimeError("template bug")
    return b"x" * (4 << 20)

for n in range(int(sys.argv[1])):
    try:
        list(in_processes(work, list(range(6)), 2))
    except RuntimeError as exc:
        assert str(exc) == "template bug", exc
    else:
        raise SystemExit(f"round {n}: the worker's error was lost")
print("rounds done")
"""


DYING = """
import os
from compiler.build.render import in_processes

def work(i: int) -> int:
    if i == 1:
        os._exit(9)  # killed by the system (out of memory) or by a signal: no exception to send back
    return i

try:
    list(in_processes(work, [0, 1, 2, 3], 2))
except Exception as exc:
    print(type(exc).__name__)
"""


def _run(code: str, *args: str, timeout: float) -> str:
    """What `python -c code args` prints, or an AssertionError when it has not ended in `timeout`
    seconds (then it and its workers are killed)."""
    child = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its workers too are stopped if it hangs
    )
    try:
        out, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise AssertionError(f"hung: no end within {timeout} s") from None
    assert child.returncode == 0, out
    return out.strip()


@pytest.mark.parametrize("rounds", [10, pytest.param(60, marks=pytest.mark.slow)])
def test_a_failing_worker_ends_the_pool_while_others_send_large_results(rounds: int) -> None:
    assert _run(CHILD, str(rounds), timeout=30 + rounds * 3) == "rounds done"  # a round takes well under a second


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    # `multiprocessing.Pool` replaced the dead worker and waited for its result for ever, every time
    assert _run(DYING, timeout=60) == "BrokenProcessPool"


_BUILD_GAME = compiler.build.games.build_game


def _killed_on_b(task):  # type: ignore[no-untyped-def]
    """`build_game`, except that the worker building game `b` is killed (a module-level function:
    the pool pickles it by name)."""
    if task.game_id == "b":
        os.kill(os.getpid(), signal.SIGKILL)
    return _BUILD_GAME(task)


def test_a_killed_worker_fails_the_build_cleanly_and_frees_the_lock(tmp_path, monkeypatch) -> None:
    # issue 33 finding 4: a worker killed during `build --jobs 2` was a traceback (BrokenProcessPool)
    # from chartc; now it is a clear failure, no output changed, and the folder's lock is free again
    monkeypatch.chdir(tmp_path)
    for game in ("a", "b", "c"):
        tiny_game(tmp_path / "charts", game, "Safe")
    assert CliRunner().invoke(cli, ["build", "charts"]).exit_code == 0
    before = {p: p.read_bytes() for p in sorted((tmp_path / "generated").rglob("*")) if p.is_file()}
    tiny_game(tmp_path / "charts", "b", "Safe escape")
    real = compiler.build.games.build_game
    monkeypatch.setattr(compiler.build.games, "build_game", _killed_on_b)
    r = CliRunner().invoke(cli, ["build", "charts", "--jobs", "2"])
    assert r.exit_code == 1, r.output
    assert "a worker process ended without sending its game (killed, or out of memory); nothing was written" in r.output
    assert {p: p.read_bytes() for p in sorted((tmp_path / "generated").rglob("*")) if p.is_file()} == before
    monkeypatch.setattr(compiler.build.games, "build_game", real)
    r = CliRunner().invoke(cli, ["build", "charts", "--jobs", "2"])  # the lock is free: this build takes it
    assert r.exit_code == 0 and "3 files changed" in r.output


HUNG = """
import os, time
os.environ["CHARTC_WORKER_TIMEOUT"] = "1"
from compiler.build.render import WorkerTimeout, in_processes

def work(i: int) -> int:
    if i == 1:
        time.sleep(3600)  # a layout that never ends: no exception, no death, no result
    return i

try:
    list(in_processes(work, [0, 1, 2, 3], 2))
except WorkerTimeout as exc:
    print(exc)
"""


def test_a_hung_worker_is_stopped_after_the_timeout() -> None:
    # issue 33: a worker that neither ends nor dies held `build --jobs/--pdf` (and the lock) for ever
    assert _run(HUNG, timeout=60) == "a worker process sent nothing for 1 s (CHARTC_WORKER_TIMEOUT sets the limit)"


def _hung_on_b(task):  # type: ignore[no-untyped-def]
    if task.game_id == "b":
        import time

        time.sleep(3600)
    return _BUILD_GAME(task)


def test_a_hung_worker_fails_the_build_and_frees_the_lock(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for game in ("a", "b", "c"):
        tiny_game(tmp_path / "charts", game, "Safe")
    monkeypatch.setattr(compiler.build.games, "build_game", _hung_on_b)
    r = CliRunner().invoke(cli, ["build", "charts", "--jobs", "2"], env={"CHARTC_WORKER_TIMEOUT": "1"})
    assert r.exit_code == 1, r.output
    assert "build failed: a worker process sent nothing for 1 s (CHARTC_WORKER_TIMEOUT sets the limit); the workers " \
        "were stopped and nothing was written" in r.output
    assert not (tmp_path / "generated" / "a").exists()
    monkeypatch.setattr(compiler.build.games, "build_game", _BUILD_GAME)
    assert CliRunner().invoke(cli, ["build", "charts", "--jobs", "2"]).exit_code == 0  # the lock is free


def test_a_build_waits_for_the_lock_then_gives_up_with_a_message(tmp_path, monkeypatch) -> None:
    # issue 33: a second chartc waited for the output folder's lock without a deadline or a word
    import fcntl

    monkeypatch.chdir(tmp_path)
    tiny_game(tmp_path / "charts", "a", "Safe")
    (tmp_path / "generated").mkdir()
    holder = os.open(tmp_path / "generated", os.O_RDONLY)  # another open file: flock blocks this process too
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        r = CliRunner().invoke(cli, ["build", "charts"], env={"CHARTC_LOCK_TIMEOUT": "0.3"})
        assert r.exit_code != 0
        assert r.output.count("waiting for another chartc command to finish writing generated") == 1
        assert "another chartc command is writing generated and did not finish within 0.3 s (CHARTC_LOCK_TIMEOUT " \
            "sets the wait); no output file was changed" in r.output
        assert not (tmp_path / "generated" / "a").exists()
    finally:
        os.close(holder)
    assert CliRunner().invoke(cli, ["build", "charts"], env={"CHARTC_LOCK_TIMEOUT": "0.3"}).exit_code == 0
