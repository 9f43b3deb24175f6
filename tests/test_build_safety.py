"""`chartc build` never half-writes, never writes or reads outside the project, and is repeatable."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import compiler.build.journal
import compiler.build.render
import compiler.build.writer
import compiler.cli as cli_module
from compiler.build.journal import JOURNAL_NAME, journal_check, recover
from compiler.build.reader import MAX_SOURCE_BYTES
from compiler.build.writer import WriteError, safe_target, write_outputs
from compiler.cli import cli
from tests.conftest import ROOT, tiny_game

# The tests of a build's failures and recoveries run on `small_project` (four one-chart games, about
# 0.1 s a build): what they prove is about the writer, journal and paths, not the charts, and a copy
# of the real corpus cost about 2 s of CPU a build. The real corpus is kept where its content is
# what is tested (named at each such test).


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _change_a_chart(project: Path) -> None:
    """A valid edit, so a successful build would rewrite game alpha's outputs."""
    chart = project / "charts" / "alpha" / "alpha.chart"
    chart.write_text(chart.read_text().replace('"Safe escape"', '"Safe escape!"'))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_crash_in_the_middle_of_rendering_leaves_outputs_untouched(
        small_project: Path, monkeypatch, capsys, jobs: str) -> None:
    project = small_project
    before = _snapshot(project / "generated")
    _change_a_chart(project)
    calls = []

    def broken_html(game, *args, **kwargs):
        calls.append(game.id)  # in a worker process (jobs 2), this list is the worker's copy
        if game.id == "delta":  # the smallest game: the others were rendered and staged (one process)
            raise RuntimeError("template bug")
        return real_html(game, *args, **kwargs)

    real_html = compiler.build.render.emit_game_html
    monkeypatch.setattr(compiler.build.render, "emit_game_html", broken_html)
    monkeypatch.setattr("sys.argv", ["chartc", "build", "--jobs", jobs])
    with pytest.raises(SystemExit) as exc:
        cli_module.main()
    assert exc.value.code == 3 and "template bug" in capsys.readouterr().err
    assert _snapshot(project / "generated") == before  # also: the staged games' temp files are gone
    # one process renders the games largest first (their order follows the sizes of charts/), delta last
    rendered = (["alpha", "bravo", "charlie", "delta"], ["delta"]) if jobs == "1" else ([], [])
    assert (sorted(calls), calls[-1:]) == rendered


def test_a_failure_while_writing_changes_no_file_and_leaves_no_temp(small_project: Path, monkeypatch) -> None:
    project = small_project
    before = _snapshot(project / "generated")
    _change_a_chart(project)
    real_fdopen = os.fdopen
    opened = []

    def full_disk(fd, mode="r"):
        opened.append(fd)
        if len(opened) == 2:  # the first temp file is written, the second fails
            os.close(fd)
            raise OSError(28, "No space left on device")
        return real_fdopen(fd, mode)

    monkeypatch.setattr(compiler.build.journal.os, "fdopen", full_disk)
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "No space left on device" in r.output and "no output file was changed" in r.output
    assert _snapshot(project / "generated") == before  # also: no `.chartc-*` temp file left behind


def test_a_failing_build_leaves_every_byte_and_orphan_in_place(small_project: Path) -> None:
    project = small_project
    orphan = project / "generated" / "alpha" / "old.json"
    orphan.write_text("{}")
    before = _snapshot(project / "generated")
    chart = project / "charts" / "alpha" / "alpha.chart"
    chart.write_text(chart.read_text() + "\nchart [R99] oops {\n")
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "nothing was written" in r.output
    assert _snapshot(project / "generated") == before


def test_two_builds_write_identical_bytes_in_one_process_or_several(project: Path, tmp_path: Path) -> None:
    # issue 16, item 8: the games of a build compiled and rendered in two worker processes.
    # The real corpus, kept: byte-identity across processes (hash-seeded set and dict orders in the
    # emitters) is only as good as the content it runs on, and the committed generated/ is compared
    assert CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "a"), "--jobs", "1"]).exit_code == 0
    assert CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "b"), "--jobs", "2"]).exit_code == 0
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b") == _snapshot(project / "generated")
    assert len(_snapshot(tmp_path / "b")) == 12  # four games, three outputs each


def test_a_game_failing_after_others_were_staged_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    # games are built largest first and staged one by one: a later game's error discards the temps
    monkeypatch.chdir(tmp_path)
    charts = tmp_path / "charts"
    for game in ("big", "small"):
        tiny_game(charts, game, "Safe")
    (charts / "big" / "more.chart").write_text(
        'chart [R2] "Second" { rule "7.2" roll 1d6 column r: text "Result" rows { 1-6: "Combat" } }\n',
        encoding="utf-8")
    assert CliRunner().invoke(cli, ["build", "charts"]).exit_code == 0
    before = _tree(tmp_path / "generated")
    tiny_game(charts, "big", "Safe escape")  # would rewrite big's outputs
    small = charts / "small" / "small.chart"
    small.write_text(small.read_text(encoding="utf-8").replace("4-6", "3-6"), encoding="utf-8")  # overlap: C2xx
    staged = []
    real_add = compiler.build.writer.Staging.add
    monkeypatch.setattr(compiler.build.writer.Staging, "add", lambda self, outputs: (staged.extend(outputs),
                                                                                real_add(self, outputs))[1])
    r = CliRunner().invoke(cli, ["build", "charts", "--jobs", "1"])
    assert r.exit_code == 1 and "nothing was written" in r.output and "charts/small/small.chart:3:" in r.output
    assert staged == ["big/big.html", "big/big.json", "big/big.py"]  # staged, then discarded
    assert _tree(tmp_path / "generated") == before  # no temp file, no changed output


# ---- paths ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", ["../escape.json", "/etc/passwd", "ia2/../../escape.json", "", "."])
def test_output_paths_cannot_leave_the_output_folder(tmp_path: Path, rel: str) -> None:
    with pytest.raises(WriteError, match="outside the output folder"):
        safe_target(tmp_path / "out", rel)


def test_writer_refuses_a_bad_path_before_writing_anything(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(WriteError):
        write_outputs(out, {"t/t.json": "{}\n", "../escape.json": "{}\n"}, ["t"])
    assert not (tmp_path / "escape.json").exists() and not out.exists()


def test_a_symlinked_output_folder_pointing_outside_is_refused(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "t").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(WriteError, match="outside the output folder"):
        write_outputs(out, {"t/t.json": "{}\n"}, ["t"])
    assert list(elsewhere.iterdir()) == []


def test_a_game_folder_symlinked_outside_the_charts_folder_is_refused(small_project: Path, tmp_path: Path) -> None:
    project = small_project
    outside = tmp_path / "outside" / "evil"
    shutil.copytree(project / "charts" / "alpha", outside)
    (project / "charts" / "evil").symlink_to(outside, target_is_directory=True)
    r = CliRunner().invoke(cli, ["check", "charts"])
    assert r.exit_code == 2 and "outside charts" in r.output


def test_a_chart_file_symlinked_outside_its_game_is_not_read(small_project: Path, tmp_path: Path) -> None:
    project = small_project
    secret = tmp_path / "secret.chart"
    secret.write_text('chart [S1] "Secret" { }\n')
    (project / "charts" / "alpha" / "zz_link.chart").symlink_to(secret)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert r.exit_code == 1
    assert "charts/alpha/zz_link.chart:1:1: error[C102]: `charts/alpha/zz_link.chart` links to" in r.output
    assert "outside its game folder" in r.output and "S1" not in r.output


@pytest.mark.parametrize("out", ["charts", "charts/../charts", "charts/alpha"])
def test_out_overlapping_the_chart_sources_is_refused_and_deletes_nothing(small_project: Path, out: str) -> None:
    project = small_project
    before = _snapshot(project / "charts")
    r = CliRunner().invoke(cli, ["build", "--out", out])
    assert r.exit_code == 2 and "into its chart sources" in r.output
    assert _snapshot(project / "charts") == before


def test_out_pointing_at_a_file_is_a_usage_error(small_project: Path) -> None:
    project = small_project
    (project / "afile").write_text("x")
    r = CliRunner().invoke(cli, ["build", "--out", "afile"])
    assert r.exit_code == 2 and "is a file, not a folder" in r.output
    assert (project / "afile").read_text() == "x"


def test_out_in_a_new_nested_folder_is_created(small_project: Path) -> None:
    project = small_project
    r = CliRunner().invoke(cli, ["build", "--out", "deep/new/out"])
    assert r.exit_code == 0 and (project / "deep" / "new" / "out" / "alpha" / "alpha.json").is_file()


# ---- the journaled writer (issue 11, items 1 and 2) ----------------------------------------------


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `folder`: a leftover temp file, journal or
    empty folder shows up."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*")) if "__pycache__" not in p.parts}


def _restore(folder: Path, tree: dict[str, bytes | None]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for rel, data in tree.items():
        if data is None:
            (folder / rel).mkdir()
        else:
            (folder / rel).write_bytes(data)


@pytest.fixture()
def rebuilt(tmp_path: Path, monkeypatch) -> tuple[Path, dict[str, bytes | None], dict[str, bytes | None]]:
    """Three tiny games built into generated/, then their charts changed so that a build rewrites
    game `a`, deletes game `b`'s outputs (its charts are gone) and writes a new game `c`.

    Returns:
        The generated folder, its tree before the build and the tree the build must leave."""
    monkeypatch.chdir(tmp_path)
    charts = tmp_path / "charts"
    for game in ("a", "b", "unchanged"):
        tiny_game(charts, game, "Safe")
    assert CliRunner().invoke(cli, ["build", "charts"]).exit_code == 0
    old = _tree(tmp_path / "generated")
    tiny_game(charts, "a", "Safe escape")
    shutil.rmtree(charts / "b")
    tiny_game(charts, "c", "Safe")
    assert CliRunner().invoke(cli, ["build", "charts", "--out", "expected"]).exit_code == 0
    new = _tree(tmp_path / "expected")
    shutil.rmtree(tmp_path / "expected")
    assert old != new and "b/b.json" in old and "b" not in new and "c/c.py" in new
    return tmp_path / "generated", old, new


KILL_POINTS = ("open", "mkdir", "fsync", "replace", "rename", "unlink", "rmdir")
"""The calls through which a build changes the disk; the child is killed just before one of them."""


def _build_killed_before_call(n: int) -> bool:
    """Run `chartc build charts` in a forked child that SIGKILLs itself just before its `n`-th
    file-system call of the write phase (from the writer's lock and recovery, through each game's
    staged outputs while the next games are rendered, to the journal's removal). True when it was
    killed, False when the build finished before reaching call `n`."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns
        try:
            calls = [0]
            armed = [False]

            def guarded(real):
                def call(*args, **kwargs):
                    if armed[0]:
                        calls[0] += 1
                        if calls[0] == n:
                            os.kill(os.getpid(), signal.SIGKILL)
                    return real(*args, **kwargs)
                return call

            for name in KILL_POINTS:
                setattr(os, name, guarded(getattr(os, name)))
            enter = compiler.build.writer.Staging.__enter__

            def arm_then_enter(self):
                armed[0] = True  # the write phase: from the first game's outputs to the journal's removal
                return enter(self)

            compiler.build.writer.Staging.__enter__ = arm_then_enter
            cli.main(["build", "charts"], prog_name="chartc", standalone_mode=False)
            os._exit(0)
        finally:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, "the build failed without being killed"
    return False


# Each kill point forks a build of three tiny games (about 0.1 s of CPU each): the default run
# kills a build at every third point and follows it by `build`; the slow run kills at every point,
# followed by `build` and by `build --check`.
@pytest.mark.parametrize(
    ("next_command", "stride"),
    [
        (["build", "charts"], 3),
        pytest.param(["build", "charts"], 1, marks=pytest.mark.slow),
        pytest.param(["build", "--check", "charts"], 1, marks=pytest.mark.slow),
    ],
)
def test_a_build_killed_at_any_point_of_its_write_phase_leaves_the_old_tree_or_the_new_one(
        rebuilt, next_command, stride) -> None:
    # issue 11, item 1: kill -9 in the os.replace loop left temp files and a mix of old and new outputs
    generated, old, new = rebuilt
    outcomes = []
    for n in itertools.count(1, stride):
        _restore(generated, old)
        if not _build_killed_before_call(n):
            assert _tree(generated) == new
            break
        CliRunner().invoke(cli, next_command)
        after = _tree(generated)
        assert after in (old, new), f"killed before call {n}: {sorted(set(after.items()) ^ set(new.items()))}"
        outcomes.append("new" if after == new else "old")
    assert len(outcomes) * stride >= 20, outcomes  # every temp, the journal, each rename and each deletion
    if next_command == ["build", "charts"]:
        assert set(outcomes) == {"new"}  # the next build completes the killed one, or does the work itself
    else:
        assert outcomes[0] == "old" and outcomes[-1] == "new"  # rolled back before the journal, forward after


def test_a_leftover_temp_file_is_reported_and_removed_by_build_check(small_project: Path) -> None:
    project = small_project
    # issue 11, item 1: `build --check` never noticed `.chartc-*` temp files left by a killed build
    temp = project / "generated" / "alpha" / ".chartc-k3x9q0"
    temp.write_text("{half a file", encoding="utf-8")
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1
    assert "removed a temp file of an interrupted build: generated/alpha/.chartc-k3x9q0" in r.output
    assert not temp.exists()
    assert CliRunner().invoke(cli, ["build", "--check"]).exit_code == 0


def test_gitignore_covers_what_an_interrupted_build_leaves() -> None:
    for leftover in ("generated/ia2/.chartc-k3x9q0", "generated/.chartc-journal", "generated/.chartc-0ab1"):
        r = subprocess.run(["git", "check-ignore", "--no-index", "-q", leftover], cwd=ROOT, check=False)
        assert r.returncode == 0, f"{leftover} is not ignored"


def test_a_folder_standing_where_an_output_goes_fails_the_build_before_any_file_changes(small_project: Path) -> None:
    project = small_project
    # issue 11, item 2: the other outputs were already replaced, and the report said none was
    (project / "generated" / "bravo" / "bravo.py").unlink()
    (project / "generated" / "bravo" / "bravo.py").mkdir()
    before = _tree(project / "generated")
    _change_a_chart(project)
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1
    assert "build failed: cannot write `bravo/bravo.py`: a folder stands where the file should be" in r.output
    assert "no output file was changed" in r.output
    assert _tree(project / "generated") == before


def test_an_orphan_output_folder_linked_outside_the_output_folder_is_left_alone(
        small_project: Path, tmp_path: Path) -> None:
    project = small_project
    # issue 11, item 2: its path check ran after the renames, so the build failed half-written
    outside = tmp_path / "outside" / "old"
    outside.mkdir(parents=True)
    (outside / "old.json").write_text('{\n  "generator": "chartc",\n  "game": "old"\n}\n', encoding="utf-8")
    (project / "generated" / "old").symlink_to(outside, target_is_directory=True)
    _change_a_chart(project)
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 0, r.output
    assert "Safe escape!" in (project / "generated" / "alpha" / "alpha.json").read_text(encoding="utf-8")
    assert (project / "generated" / "old").is_symlink() and (outside / "old.json").is_file()
    assert CliRunner().invoke(cli, ["build", "--check"]).exit_code == 0


def test_a_failure_after_the_journal_is_reported_truthfully_and_completed_by_the_next_command(
        small_project: Path, tmp_path: Path, monkeypatch) -> None:
    project = small_project
    _change_a_chart(project)
    assert CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "expected")]).exit_code == 0
    new = _tree(tmp_path / "expected")
    real_replace, calls = os.replace, []

    def io_error_on_the_third_output(src, dst):
        calls.append(dst)
        if len(calls) == 3:  # the journal, then the first output are in place
            raise OSError(5, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(compiler.build.journal.os, "replace", io_error_on_the_third_output)
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "no output file was changed" not in r.output
    assert "Input/output error while moving the new outputs into place; some outputs may already be new" in r.output
    assert (project / "generated" / ".chartc-journal").is_file()
    monkeypatch.setattr(compiler.build.journal.os, "replace", real_replace)
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1 and "completed an interrupted build: generated/alpha/alpha.json" in r.output
    assert _tree(project / "generated") == new
    assert CliRunner().invoke(cli, ["build", "--check"]).exit_code == 0


class _Killed(BaseException):
    """The process ends here (as `kill -9` would: no handler of chartc's runs)."""


def test_a_transient_error_while_rolling_forward_keeps_the_journal_and_the_next_command_finishes(
        rebuilt, monkeypatch) -> None:
    # issue 33 finding 3: an I/O error during the roll-forward set the journal aside and deleted the
    # remaining temps, leaving a mix of old and new outputs for good
    generated, old, new = rebuilt
    real_replace = os.replace
    calls = []

    def build_killed_after_its_journal(src, dst):
        calls.append(dst)
        if len(calls) == 2:  # the journal is in place; the first output's rename dies with the process
            raise _Killed
        return real_replace(src, dst)

    monkeypatch.setattr(compiler.build.journal.os, "replace", build_killed_after_its_journal)
    with pytest.raises(_Killed):
        cli.main(["build", "charts"], prog_name="chartc", standalone_mode=False)
    assert (generated / JOURNAL_NAME).is_file()
    interrupted = _tree(generated)
    failures = []

    def io_error_on_the_second_rename(src, dst):
        failures.append(dst)
        if len(failures) == 2:
            raise OSError(5, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(compiler.build.journal.os, "replace", io_error_on_the_second_rename)
    r = CliRunner().invoke(cli, ["build", "--check", "charts"])
    assert r.exit_code == 1 and "Input/output error while completing or rolling back an interrupted build" in r.output
    assert "its journal, if any, is kept" in r.output
    mixed = _tree(generated)
    assert mixed not in (old, new) and JOURNAL_NAME in mixed and mixed != interrupted  # one rename done
    assert any(Path(rel).name.startswith(".chartc-") and rel != JOURNAL_NAME for rel in mixed)  # temps kept
    monkeypatch.setattr(compiler.build.journal.os, "replace", real_replace)
    r = CliRunner().invoke(cli, ["build", "--check", "charts"])
    assert r.exit_code == 1 and "completed an interrupted build" in r.output
    assert _tree(generated) == new


def test_a_journal_with_a_flipped_bit_is_set_aside_never_followed(rebuilt, monkeypatch) -> None:
    # a flipped bit in a name the journal deletes or renames onto: its own SHA-256 refuses it
    generated, old, _ = rebuilt
    real_replace = os.replace
    calls = []

    def build_killed_after_its_journal(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise _Killed
        return real_replace(src, dst)

    monkeypatch.setattr(compiler.build.journal.os, "replace", build_killed_after_its_journal)
    with pytest.raises(_Killed):
        cli.main(["build", "charts"], prog_name="chartc", standalone_mode=False)
    monkeypatch.setattr(compiler.build.journal.os, "replace", real_replace)
    journal = (generated / JOURNAL_NAME).read_text(encoding="utf-8")
    assert '"unchanged/unchanged.json"' not in journal and '"b/b.json"' in journal  # b's outputs are orphans
    (generated / JOURNAL_NAME).write_text(journal.replace('"b/b.json"', '"unchanged/unchanged.json"'), encoding="utf-8")
    recovery = recover(generated)
    assert recovery.completed == () and len(recovery.problems) == 1
    assert "SHA-256 does not match" in recovery.problems[0]
    assert _tree(generated) == old  # rolled back: every temp deleted, nothing renamed or deleted


def test_a_journal_naming_paths_outside_the_output_folder_is_set_aside(tmp_path: Path) -> None:
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    (out / "t").mkdir(parents=True)
    victim.write_text("keep me", encoding="utf-8")
    (out / "t" / ".chartc-1").write_text("evil", encoding="utf-8")
    journal = {"chartc-journal": 1, "removals": ["../victim.txt"],
               "renames": [{"temp": "t/.chartc-1", "destination": "../victim.txt", "sha256": "0" * 64}]}
    # its own SHA-256 holds: the entries themselves are refused
    (out / JOURNAL_NAME).write_text(json.dumps({**journal, "check": journal_check(journal)}), encoding="utf-8")
    recovery = recover(out)
    assert recovery.completed == () and recovery.removed_temps == ("t/.chartc-1",)
    assert len(recovery.problems) == 1 and "set aside" in recovery.problems[0]
    assert victim.read_text(encoding="utf-8") == "keep me" and sorted(p.name for p in out.rglob("*")) == ["t"]


def test_a_build_with_nothing_to_change_writes_nothing(small_project: Path) -> None:
    project = small_project
    before = {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*")}
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 0 and "0 files changed" in r.output
    assert {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*")} == before


def test_pdf_bytes_do_not_depend_on_the_clock_without_harfbuzz_subset(tmp_path: Path, monkeypatch) -> None:
    # issue 11, item 8: without libharfbuzz-subset0, fontTools stamps each embedded font with the time
    fonts = pytest.importorskip("weasyprint.pdf.fonts")
    monkeypatch.setattr(fonts, "harfbuzz_subset", None)  # the subsetter of a system without the library
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    html = '<!DOCTYPE html><html lang="en"><body><p>R4 Escape Chart: 3-6 Combat</p></body></html>'
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    first = compiler.build.render.html_to_pdf(html)
    monkeypatch.setattr(time, "time", lambda: 1_800_000_000.0)
    assert compiler.build.render.html_to_pdf(html) == first
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_two_builds_of_one_output_folder_at_once_take_turns(rebuilt) -> None:
    generated, _old, new = rebuilt
    children = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            try:
                cli.main(["build", "charts"], prog_name="chartc", standalone_mode=False)
                os._exit(0)
            finally:
                os._exit(4)
        children.append(pid)
    statuses = [os.waitpid(pid, 0)[1] for pid in children]
    assert all(os.WIFEXITED(s) and os.WEXITSTATUS(s) == 0 for s in statuses)
    assert _tree(generated) == new


def test_an_orphan_larger_than_the_source_limit_is_still_recognised_and_removed(small_project: Path) -> None:
    project = small_project
    old = project / "generated" / "old"
    old.mkdir()
    with open(old / "old.json", "wb") as fh:
        fh.write(b'{\n  "generator": "chartc",\n  "game": "old",\n')
        fh.truncate(MAX_SOURCE_BYTES + 1)  # sparse: a huge generated game costs no disk here
    r = CliRunner().invoke(cli, ["build", "--check"])
    assert r.exit_code == 1 and "orphaned: generated/old/old.json" in r.output
    assert CliRunner().invoke(cli, ["build"]).exit_code == 0 and not old.exists()


def test_pdfs_rendered_in_parallel_are_the_bytes_rendered_one_by_one() -> None:
    # issue 16, item 7: `build --pdf` renders several games' aids in forked processes
    pytest.importorskip("weasyprint")
    aids = {
        f"{game}/{game}.html": f'<!DOCTYPE html><html lang="en"><body><h1>{game}</h1><p>{text}</p></body></html>'
        for game, text in (("ia2", "R4 Escape Chart: 3-6 Combat"), ("usaaf", "Target Systems: 6/3"))
    }
    aids["ia2/ia2.json"] = "{}"  # not a player aid: no PDF
    parallel = compiler.build.render.render_pdfs(aids, jobs=2)
    assert list(parallel) == ["ia2/ia2.pdf", "usaaf/usaaf.pdf"]
    assert parallel == compiler.build.render.render_pdfs(aids, jobs=1)
    assert parallel["usaaf/usaaf.pdf"] == compiler.build.render.html_to_pdf(aids["usaaf/usaaf.html"])
    assert parallel["ia2/ia2.pdf"] != parallel["usaaf/usaaf.pdf"]  # each aid its own PDF, in order
    render = compiler.build.render
    assert render.default_jobs(1) == 1 and 1 <= render.default_jobs(100) <= (os.cpu_count() or 1)


def test_a_build_uses_worker_processes_by_default_only_when_large_with_an_idle_cpu(monkeypatch) -> None:
    # issue 16, item 8: measured on 2 CPUs at load 8 to 10, two processes paid nothing for the corpus
    # (253 KiB of charts) and 1.5x at 100x, mostly CPU time taken from the machine's other jobs
    from compiler.build.games import POOL_MIN_SOURCE_BYTES, pool_jobs

    monkeypatch.setattr(compiler.build.render, "default_jobs", lambda games: min(games, 4))  # four CPUs
    large = 100 * 253 * 1024
    monkeypatch.setattr(os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    assert pool_jobs(400, large, pdf=False) == 4
    assert pool_jobs(4, POOL_MIN_SOURCE_BYTES - 1, pdf=False) == 1
    assert pool_jobs(2, large, pdf=False) == 2  # never more processes than games
    monkeypatch.setattr(os, "getloadavg", lambda: (3.2, 3.0, 3.0))  # this build and two other jobs
    assert pool_jobs(400, large, pdf=False) == 2
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 8.0, 7.0))
    assert pool_jobs(400, large, pdf=False) == 1
    assert pool_jobs(400, large, pdf=True) == 4  # PDFs: one process per CPU, as before
