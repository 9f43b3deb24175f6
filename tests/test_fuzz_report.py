"""The table of long differential passes in docs/records/fuzzing.md (issue 11: 100,000 games on one
version of the code) is scripts/fuzz_report.py's output from tests/fuzz_ledger.jsonl, and the commit it names for
each version really has that version's code hash."""

from __future__ import annotations

import importlib
import io
import subprocess
import tarfile

import pytest

from .conftest import ROOT


def _has_history() -> bool:
    done = subprocess.run(["git", "rev-parse", "--verify", "HEAD"], cwd=ROOT, capture_output=True)
    return done.returncode == 0


def _has_commit(commit: str) -> bool:
    done = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True)
    return done.returncode == 0


needs_git = pytest.mark.skipif(not _has_history(), reason="needs the repository's git history")


@pytest.fixture(scope="module")
def report():
    return importlib.import_module("scripts.fuzz_report")


def test_the_fuzzing_record_holds_the_fuzz_ledger_table(report) -> None:
    page = report.PAGE.read_text(encoding="utf-8")
    assert f"{report.BEGIN}\n{report.table()}\n{report.END}" in page


@needs_git
def test_code_hash_from_git_matches_fuzz_long_on_an_exported_tree(report, tmp_path, monkeypatch) -> None:
    # the table finds a version's commit by hashing git's blobs; fuzz_long hashes a working tree.
    # An exported HEAD must give both the same hash (compiler/schemas is a symlink in git).
    fuzz_long = importlib.import_module("scripts.fuzz_long")
    command = ["git", "archive", "--format=tar", "HEAD", "--", *fuzz_long.CODE_FILES]
    archive = subprocess.run(command, cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tmp_path, filter="tar")
    monkeypatch.setattr(fuzz_long, "ROOT", tmp_path)
    assert report.code_hash_at("HEAD") == fuzz_long.code_hash()


@needs_git
def test_each_pass_names_a_commit_with_its_code(report) -> None:
    # e.g. the second pass ran on commit 0e8e067, code abab46b1455e1279
    held = {v.code for v in report.versions(report.LEDGER)}
    assert held <= report.PASS_COMMITS.keys()
    present = {code: commit for code, commit in report.PASS_COMMITS.items() if _has_commit(commit)}
    if not present:
        pytest.skip("a shallow clone: none of the passes' commits is in its history")
    for code, commit in present.items():
        assert report.code_hash_at(commit) == code, commit


def test_longest_run_is_the_longest_stretch_of_consecutive_seeds(report) -> None:
    version = report.Version("x", frozenset([*range(0, 5), *range(10, 21), 30]), 17, 0, 0, 0.0, 0)
    assert version.longest_run() == (10, 20)
    assert report.Version("x", frozenset([7]), 1, 0, 0, 0.0, 0).longest_run() == (7, 7)
    assert report.Version("x", frozenset(), 0, 0, 0, 0.0, 0).longest_run() == (0, -1)


def test_versions_count_overlapping_blocks_once(report, tmp_path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    block = (
        '{{"cli_calls": 1, "code": "{c}", "comparisons": 10, "cpu_s": 2.0, "disagreements": {d}, '
        '"first": {f}, "games": 200}}\n'
    )
    ledger.write_text(
        block.format(c="a", d=0, f=0) + block.format(c="a", d=0, f=0) + block.format(c="b", d=1, f=200)
        + block.format(c="a", d=0, f=200),
        encoding="utf-8",
    )
    a, b = report.versions(ledger)
    assert (a.code, len(a.seeds), a.games, a.longest_run()) == ("a", 400, 600, (0, 399))
    assert (b.code, b.disagreements, b.longest_run()) == ("b", 1, (200, 399))
