"""`chartc build` never half-writes, never writes or reads outside the project, and is repeatable."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import compiler.build
import compiler.cli as cli_module
from compiler.build import OutputError, _safe_target, write_outputs
from compiler.cli import cli


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _change_a_chart(project: Path) -> None:
    """A valid edit, so a successful build would rewrite every output."""
    chart = project / "charts" / "ia2" / "combat.chart"
    chart.write_text(chart.read_text().replace('"Safe escape"', '"Safe escape!"'))


def test_a_crash_in_the_middle_of_rendering_leaves_outputs_untouched(project: Path, monkeypatch, capsys) -> None:
    before = _snapshot(project / "generated")
    _change_a_chart(project)

    def broken_html(*args, **kwargs):
        raise RuntimeError("template bug")

    monkeypatch.setattr(compiler.build, "emit_game_html", broken_html)  # JSON and Python already rendered
    monkeypatch.setattr("sys.argv", ["chartc", "build"])
    with pytest.raises(SystemExit) as exc:
        cli_module.main()
    assert exc.value.code == 3 and "template bug" in capsys.readouterr().err
    assert _snapshot(project / "generated") == before


def test_a_failure_while_writing_changes_no_file_and_leaves_no_temp(project: Path, monkeypatch) -> None:
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

    monkeypatch.setattr(compiler.build.os, "fdopen", full_disk)
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "No space left on device" in r.output and "no output file was changed" in r.output
    assert _snapshot(project / "generated") == before  # also: no `.chartc-*` temp file left behind


def test_a_failing_build_leaves_every_byte_and_orphan_in_place(project: Path) -> None:
    orphan = project / "generated" / "ia2" / "old.json"
    orphan.write_text("{}")
    before = _snapshot(project / "generated")
    chart = project / "charts" / "ia2" / "combat.chart"
    chart.write_text(chart.read_text() + "\nchart [R99] oops {\n")
    r = CliRunner().invoke(cli, ["build"])
    assert r.exit_code == 1 and "nothing was written" in r.output
    assert _snapshot(project / "generated") == before


def test_two_builds_write_identical_bytes(project: Path, tmp_path: Path) -> None:
    assert CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "a")]).exit_code == 0
    assert CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "b")]).exit_code == 0
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b") == _snapshot(project / "generated")


# ---- paths ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", ["../escape.json", "/etc/passwd", "ia2/../../escape.json", "", "."])
def test_output_paths_cannot_leave_the_output_folder(tmp_path: Path, rel: str) -> None:
    with pytest.raises(OutputError, match="outside the output folder"):
        _safe_target(tmp_path / "out", rel)


def test_writer_refuses_a_bad_path_before_writing_anything(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(OutputError):
        write_outputs(out, {"t/t.json": "{}\n", "../escape.json": "{}\n"}, ["t"])
    assert not (tmp_path / "escape.json").exists() and not out.exists()


def test_a_symlinked_output_folder_pointing_outside_is_refused(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "t").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputError, match="outside the output folder"):
        write_outputs(out, {"t/t.json": "{}\n"}, ["t"])
    assert list(elsewhere.iterdir()) == []


def test_a_game_folder_symlinked_outside_the_charts_folder_is_refused(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "evil"
    shutil.copytree(project / "charts" / "ia2", outside)
    (project / "charts" / "evil").symlink_to(outside, target_is_directory=True)
    r = CliRunner().invoke(cli, ["check", "charts"])
    assert r.exit_code == 2 and "outside charts" in r.output


def test_a_chart_file_symlinked_outside_its_game_is_not_read(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.chart"
    secret.write_text('chart [S1] "Secret" { }\n')
    (project / "charts" / "ia2" / "zz_link.chart").symlink_to(secret)
    r = CliRunner().invoke(cli, ["check", "charts", "--format", "short"])
    assert r.exit_code == 1 and "error[C102]: `charts/" not in r.output
    assert "links to" in r.output and "outside its game folder" in r.output and "S1" not in r.output


@pytest.mark.parametrize("out", ["charts", "charts/../charts", "charts/ia2"])
def test_out_overlapping_the_chart_sources_is_refused_and_deletes_nothing(project: Path, out: str) -> None:
    before = _snapshot(project / "charts")
    r = CliRunner().invoke(cli, ["build", "--out", out])
    assert r.exit_code == 2 and "into its chart sources" in r.output
    assert _snapshot(project / "charts") == before


def test_out_pointing_at_a_file_is_a_usage_error(project: Path) -> None:
    (project / "afile").write_text("x")
    r = CliRunner().invoke(cli, ["build", "--out", "afile"])
    assert r.exit_code == 2 and "is a file, not a folder" in r.output
    assert (project / "afile").read_text() == "x"


def test_out_in_a_new_nested_folder_is_created(project: Path) -> None:
    r = CliRunner().invoke(cli, ["build", "--out", "deep/new/out"])
    assert r.exit_code == 0 and (project / "deep" / "new" / "out" / "ia2" / "ia2.json").is_file()
