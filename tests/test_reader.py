"""Every file chartc reads goes through `compiler.build.reader`: regular files inside the folders given,
a size limit, UTF-8 (C102 otherwise), and no content of a refused file in any message.

Regressions of the hostile test pass (issue 11, items 3, 8 and 11)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.reader import MAX_SOURCE_BYTES, ReadError, ReadFailure, read_bytes, read_text
from compiler.build.render import render_outputs
from compiler.cli import cli
from tests.conftest import ROOT

ONE_CHART = ('game t { title "T" }\n'
             'chart [R1] "Escape" { rule "7.1" roll 1d6 column r: text "Result" rows { 1-6: "Safe" } }\n')
TWO_CHARTS = ONE_CHART + 'chart [R2] "Combat" { rule "7.2" roll 1d6 column r: text "Result" rows { 1-6: "Hit" } }\n'


def _game(root: Path, text: str = TWO_CHARTS) -> Path:
    folder = root / "charts" / "t"
    folder.mkdir(parents=True)
    (folder / "t.chart").write_text(text, encoding="utf-8")
    return folder


def test_aid_order_linked_to_the_process_environment_is_not_read_or_echoed(tmp_path: Path, monkeypatch) -> None:
    # issue 11, item 3: `ln -s /proc/self/environ charts/t/aid.order` printed the environment in C416
    folder = _game(tmp_path)
    (folder / "aid.order").symlink_to("/proc/self/environ")
    monkeypatch.setenv("CI_SECRET", "s3cr3t")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert "s3cr3t" not in r.output and "C416" not in r.output
    assert r.exit_code == 1
    assert "charts/t/aid.order:1:1: error[C102]: `charts/t/aid.order` links to /proc/" in r.output
    assert "outside its game folder; it was not read" in r.output


def test_aid_order_linked_to_a_file_outside_the_game_is_not_read(tmp_path: Path, monkeypatch) -> None:
    folder = _game(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("API_TOKEN=hunter2\n", encoding="utf-8")
    (folder / "aid.order").symlink_to(secret)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert r.exit_code == 1 and "hunter2" not in r.output and "error[C102]" in r.output


def test_aid_order_linked_inside_its_game_folder_is_read(tmp_path: Path, monkeypatch) -> None:
    folder = _game(tmp_path)
    (folder / "order.txt").write_text("R2\nR1\n", encoding="utf-8")
    (folder / "aid.order").symlink_to(folder / "order.txt")
    monkeypatch.chdir(tmp_path)
    game = load([Path("charts")]).project.games["t"]
    assert [e.address for e in game.aid_order or ()] == ["R2", "R1"]


def test_aid_order_is_read_once_and_the_aid_uses_what_was_checked(tmp_path: Path, monkeypatch) -> None:
    # the build used to read aid.order a second time, from the first chart's source path
    folder = _game(tmp_path)
    (folder / "aid.order").write_text("== Combat first\nR2\nR1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    comp = load([Path("charts")])
    (folder / "aid.order").unlink()
    html = render_outputs(comp.project)["t/t.html"]
    assert "Combat first" in html and html.index("Combat") < html.index("Escape")


def test_aid_order_entries_that_fail_c416_are_not_handed_to_the_aid(tmp_path: Path, monkeypatch) -> None:
    folder = _game(tmp_path)
    (folder / "aid.order").write_text("R2\nR9\nR2\nR1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    comp = load([Path("charts")])
    assert [d.code for d in comp.diagnostics] == ["C416", "C416"]
    assert [(e.line, e.address) for e in comp.project.games["t"].aid_order or ()] == [(1, "R2"), (4, "R1")]


def test_a_chart_file_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path, monkeypatch) -> None:
    folder = _game(tmp_path)
    os.mkfifo(folder / "zz.chart")  # opening it for reading would wait for a writer forever
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert r.exit_code == 1
    assert ("charts/t/zz.chart:1:1: error[C102]: `charts/t/zz.chart` is a FIFO, not a regular file; it was not read"
            in r.output)


def test_a_chart_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path, monkeypatch) -> None:
    folder = _game(tmp_path)
    with open(folder / "huge.chart", "wb") as fh:
        fh.truncate(MAX_SOURCE_BYTES + 1)  # sparse: costs no disk
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert r.exit_code == 1
    limit = MAX_SOURCE_BYTES
    assert f"`charts/t/huge.chart` is {limit + 1:,} bytes, over the limit of {limit:,}" in r.output


def test_the_reader_refuses_a_folder_and_reports_undecodable_bytes_by_position(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    with pytest.raises(ReadError) as folder:
        read_bytes(tmp_path / "sub", tmp_path)
    assert folder.value.failure is ReadFailure.NOT_REGULAR
    assert folder.value.describe("sub") == "`sub` is a folder, not a regular file; it was not read"
    (tmp_path / "latin1.chart").write_bytes(b"# ok\n# caf\xe9\n")
    with pytest.raises(ReadError) as latin1:
        read_text(tmp_path / "latin1.chart", tmp_path)
    assert (latin1.value.failure, latin1.value.line, latin1.value.col) == (ReadFailure.NOT_UTF8, 2, 6)
    assert latin1.value.describe("latin1.chart") == "`latin1.chart` is not UTF-8: byte 0xE9 cannot be decoded"


def test_the_reader_reads_crlf_and_cr_line_ends_as_lf(tmp_path: Path) -> None:
    (tmp_path / "a.chart").write_bytes(b"one\r\ntwo\rthree\n")
    assert read_text(tmp_path / "a.chart", tmp_path) == "one\ntwo\nthree\n"


@pytest.mark.parametrize("special", ["/dev/null", "fifo"])
def test_check_of_a_device_or_fifo_is_a_usage_error(tmp_path: Path, monkeypatch, special: str) -> None:
    # issue 11, item 11: it said "cannot write output" and exited 1
    if special == "fifo":
        os.mkfifo(tmp_path / "fifo")
        special = str(tmp_path / "fifo")
    r = CliRunner().invoke(cli, ["check", special])
    assert r.exit_code == 2 and f"{special}: not a `.chart` file or a folder" in r.output


def _source_files(json_text: str) -> set[str]:
    return {c["source_file"] for c in json.loads(json_text)["charts"]}


def test_source_file_does_not_depend_on_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    # issue 11, item 8: absolute when the charts were outside the working directory
    project = tmp_path / "project"
    shutil.copytree(ROOT / "charts" / "usaaf", project / "charts" / "usaaf")
    monkeypatch.chdir(project)
    assert CliRunner().invoke(cli, ["build", "charts"]).exit_code == 0
    written = (project / "generated" / "usaaf" / "usaaf.json").read_text(encoding="utf-8")
    # each chart's file, relative to charts/: one of usaaf's files (those declaring charts)
    files = {f"usaaf/{path.name}" for path in (project / "charts" / "usaaf").glob("*.chart")}
    assert {"usaaf/odds.chart", "usaaf/targets.chart"} <= _source_files(written) <= files
    assert str(tmp_path) not in written
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    usaaf = project / "charts" / "usaaf"
    for paths in (["../project/charts"], [str(usaaf)], [str(usaaf / "odds.chart")]):
        r = CliRunner().invoke(cli, ["build", "--check", *paths, "--out", str(project / "generated")])
        assert r.exit_code == 0, (paths, r.output)
