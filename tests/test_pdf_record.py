"""Incremental PDFs (issue 35, item 1; compiler/build/pdfs.py): `build --pdf` lays a game's player
aid out again only when its inputs changed, and a record that is missing, damaged, foreign or
wrong costs a layout, never a wrong PDF or a failed build."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import compiler.build.render
from compiler.build import pdfs
from compiler.cli import cli
from tests.test_build_record import BOMBING, FATIGUE

pytest.importorskip("weasyprint")


def _build(*args: str) -> Result:
    return CliRunner().invoke(cli, ["build", "--pdf", "--jobs", "1", *args], catch_exceptions=False)


def _write_games(folder: Path) -> None:
    for game, text in (("t", BOMBING), ("u", FATIGUE)):
        (folder / "charts" / game).mkdir(parents=True)
        (folder / "charts" / game / f"{game}.chart").write_text(text, encoding="utf-8")


@pytest.fixture
def laid_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The `<title>` of every player aid laid out from now on (it names the game). The layout is
    a stand-in whose bytes are a function of the HTML, as WeasyPrint's are (what this file tests is
    which aids are laid out, not the layout: `test_an_unchanged_build_reads_weasyprints_pdfs_back`
    runs WeasyPrint itself)."""
    seen: list[str] = []

    def stand_in(html: str) -> bytes:
        seen.append(html.split("<title>", 1)[1].split("</title>", 1)[0])
        return b"%PDF-1.7 stand-in " + hashlib.sha256(html.encode("utf-8")).hexdigest().encode() + b"\n%%EOF\n"

    monkeypatch.setattr(compiler.build.render, "html_to_pdf", stand_in)
    return seen


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, laid_out: list[str]) -> Path:
    """Two games (IA2's R9 and a fatigue chart) built with their PDFs into `generated/`, the
    records kept in a cache folder of the test."""
    _write_games(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    built = _build()
    assert built.exit_code == 0, built.output
    assert "8 files changed" in built.output and len(laid_out) == 2  # 2 games x 4 outputs
    laid_out.clear()
    return tmp_path


def _pdfs(tree: Path) -> dict[str, bytes]:
    return {game: (tree / "generated" / game / f"{game}.pdf").read_bytes() for game in ("t", "u")}


def _record_file(tree: Path) -> Path:
    [found] = (tree / "xdg" / "chartc").glob("pdf-*.json")
    return found


def test_an_unchanged_build_reads_weasyprints_pdfs_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_games(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _build().exit_code == 0
    written = _pdfs(tmp_path)
    assert all(pdf.startswith(b"%PDF-") for pdf in written.values())

    def refuse(html: str) -> bytes:
        raise AssertionError("laid out an aid whose inputs did not change")

    monkeypatch.setattr(compiler.build.render, "html_to_pdf", refuse)
    again = _build()
    assert again.exit_code == 0, again.output
    assert "0 files changed; 2 PDFs unchanged" in again.output and _pdfs(tmp_path) == written


def test_an_unchanged_build_lays_out_no_pdf(tree: Path, laid_out: list[str]) -> None:
    before = _pdfs(tree)
    again = _build()
    assert again.exit_code == 0, again.output
    assert laid_out == []
    assert "0 files changed; 2 PDFs unchanged" in again.output
    assert _pdfs(tree) == before
    # `build --check --pdf` compiles and compares, and reads the PDFs back the same way
    checked = _build("--check")
    assert checked.exit_code == 0, checked.output
    assert laid_out == []


def test_an_edited_chart_lays_out_that_games_pdf_only(tree: Path, laid_out: list[str]) -> None:
    chart = tree / "charts" / "t" / "t.chart"
    chart.write_text(chart.read_text(encoding="utf-8").replace('"Hit"', '"Hit on the target"'), encoding="utf-8")
    built = _build()
    assert built.exit_code == 0, built.output
    assert laid_out == ["T – player aid"]  # game t's aid only (its <title>)
    assert "1 PDF unchanged" in built.output


def test_another_option_lays_out_every_pdf(tree: Path, laid_out: list[str]) -> None:
    # --paper letter is another HTML, so other inputs for both PDFs
    built = _build("--paper", "letter")
    assert built.exit_code == 0, built.output
    assert len(laid_out) == 2 and "unchanged" not in built.output


def test_another_weasyprint_or_font_lays_out_again(tree: Path, laid_out: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # the key covers WeasyPrint's version and the installed fonts, not only the HTML
    html = "<html><title>x</title></html>"
    key = pdfs.inputs_key(html)
    real_version = pdfs.version
    with monkeypatch.context() as m:
        m.setattr(pdfs, "version", lambda name: "999.0" if name == "weasyprint" else real_version(name))
        other_version = pdfs.environment_key.__wrapped__()
    fonts = tree / "fonts"
    fonts.mkdir()
    with monkeypatch.context() as m:
        m.setattr(pdfs, "_FONT_DIRS", (str(fonts),))
        no_font = pdfs.environment_key.__wrapped__()
        (fonts / "DejaVuSans.ttf").write_bytes(b"a font")
        one_font = pdfs.environment_key.__wrapped__()
    assert len({pdfs.environment_key(), other_version, no_font, one_font}) == 4
    monkeypatch.setattr(pdfs, "environment_key", lambda: other_version)
    assert pdfs.inputs_key(html) != key
    built = _build()
    assert built.exit_code == 0, built.output
    assert len(laid_out) == 2


def test_a_hand_edited_pdf_is_laid_out_again(tree: Path, laid_out: list[str]) -> None:
    before = _pdfs(tree)
    target = tree / "generated" / "u" / "u.pdf"
    target.write_bytes(before["u"].replace(b"%%EOF", b"%%EOF\n% edited"))
    built = _build()
    assert built.exit_code == 0, built.output
    assert len(laid_out) == 1 and "1 file changed; 1 PDF unchanged" in built.output
    assert _pdfs(tree) == before


def test_a_pdf_replaced_by_a_link_is_not_read_back(tree: Path, laid_out: list[str]) -> None:
    target = tree / "generated" / "u" / "u.pdf"
    elsewhere = tree / "u-copy.pdf"
    elsewhere.write_bytes(target.read_bytes())
    target.unlink()
    target.symlink_to(elsewhere)
    built = CliRunner().invoke(cli, ["build", "--pdf", "--jobs", "1"])
    # the writer refuses a link where an output goes; what matters here is that no PDF was trusted
    assert len(laid_out) == 1, built.output


@pytest.mark.parametrize(
    "damage",
    [
        "not json {",
        json.dumps({"format": "1"}),
        json.dumps({"format": "0", "out": "", "pdfs": {}}),
        json.dumps([1, 2, 3]),
        "WRONG DIGEST",
        "OTHER FOLDER",
    ],
    ids=["not-json", "no-entries", "other-format", "a-list", "wrong-digest", "other-folder"],
)
def test_a_damaged_record_lays_out_again_and_never_fails(tree: Path, laid_out: list[str], damage: str) -> None:
    before = _pdfs(tree)
    record = _record_file(tree)
    doc = json.loads(record.read_text(encoding="utf-8"))
    if damage == "WRONG DIGEST":
        for entry in doc["pdfs"].values():
            entry[1] = "0" * 64
        damage = json.dumps(doc)
    elif damage == "OTHER FOLDER":
        doc["out"] = str(tree / "elsewhere")
        damage = json.dumps(doc)
    record.write_text(damage, encoding="utf-8")
    built = _build()
    assert built.exit_code == 0, built.output
    assert len(laid_out) == 2
    assert _pdfs(tree) == before  # the bytes WeasyPrint writes for the same inputs
    # and the record is whole again: the next build lays out nothing
    assert _build().exit_code == 0 and len(laid_out) == 2


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file ownership")
def test_a_record_others_may_write_is_not_trusted(tree: Path, laid_out: list[str]) -> None:
    os.chmod(_record_file(tree), 0o666)
    built = _build()
    assert built.exit_code == 0, built.output
    assert len(laid_out) == 2


def test_the_record_of_a_removed_folder_is_forgotten(tree: Path) -> None:
    other = tree / "other-out"
    assert _build("--out", str(other)).exit_code == 0
    assert len(list((tree / "xdg" / "chartc").glob("pdf-*.json"))) == 2
    for game in ("t", "u"):
        for suffix in ("json", "py", "html", "pdf"):
            (other / game / f"{game}.{suffix}").unlink()
        (other / game).rmdir()
    other.rmdir()
    assert _build().exit_code == 0
    assert len(list((tree / "xdg" / "chartc").glob("pdf-*.json"))) == 1


@pytest.mark.parametrize("recorded", [True, False], ids=["every-pdf-recorded", "no-record"])
def test_without_weasyprint_a_pdf_build_fails_before_writing(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                            recorded: bool) -> None:
    # with every PDF recorded WeasyPrint is only found, not imported (0.6 s of CPU): still refused
    if not recorded:
        _record_file(tree).unlink()
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    chart = tree / "charts" / "t" / "t.chart"
    chart.write_text(chart.read_text(encoding="utf-8").replace('"Hit"', '"Hit on the target"'), encoding="utf-8")
    before = (tree / "generated" / "t" / "t.json").read_bytes()
    built = _build()
    assert built.exit_code == 1
    assert "`--pdf` needs WeasyPrint" in built.output and "nothing was written" in built.output
    assert (tree / "generated" / "t" / "t.json").read_bytes() == before
