"""Every output channel escapes hostile text (issue 33, class e; finding 9): the terminal, JSON,
CSV, SARIF, GitHub annotations and step summary, and HTML, each fed the one list of hostile strings
(tests/hostile_strings.py) through a game's chart text and a chart file's name.

The game `t` has a 1d20 chart whose row n reads the n-th hostile string, a title and column label
holding others, and a formula whose rule holds one; the game `f` has a chart file named with
hostile text, a gap (C302, an error) and an aid.order line of hostile text (C416); the game `e` has
an errata whose title, note and reasons (`because`) are hostile, one change that changes nothing
(C603, a warning quoting a hostile value) and a DRM it amends."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.cli import cli
from compiler.diagnostics.textsafe import printable, spreadsheet_cell, unguard_cell
from dsl.source_text import quote
from scripts.github_action import summary_markdown
from tests.hostile_strings import HOSTILE, RAW_HIDDEN

FILE_NAME = "a\u202e<img src=x onerror=alert(1)>`|[x](javascript:y)\x1b[2J.chart"


def _game_text() -> str:
    rows = "\n".join(f"    {i + 1}: {quote(h)}" for i, h in enumerate(HOSTILE))
    return (
        f"game t {{ title {quote(HOSTILE[6])} }}\n"
        f"chart [R1] {quote('Escape ' + HOSTILE[7])} {{\n  rule {quote(HOSTILE[0])}\n  roll 1d20\n"
        f"  column result: text {quote(HOSTILE[11])}\n"
        f"  rows {{\n{rows}\n    {len(HOSTILE) + 1}-20: \"Evade\"\n  }}\n}}\n"
        f"formula f {quote('Formula ' + HOSTILE[10])} {{\n  rule {quote(HOSTILE[7])}\n  result 1 + 2\n}}\n"
    )


def _errata_game_text() -> str:
    return (
        f'game e {{ title "E" }}\ncontext fb: flag "F/B attack"\n'
        f'chart [R1] "Errata" {{ roll 1d6 column result: text\n  drm fb "F/B" +1 when fb\n'
        f'  rows {{ 1-3: {quote(HOSTILE[13])} 4-6: "Evade" }} }}\n'
        f'errata e1 {quote("Errata " + HOSTILE[10])} {{\n  note {quote(HOSTILE[8])}\n  amend R1 {{\n'
        f'    change 4-6 column result to {quote(HOSTILE[6])} because {quote(HOSTILE[11])}\n'
        f'    change drm fb to +2 because {quote(HOSTILE[7])}\n'
        f'    change 1-3 column result to {quote(HOSTILE[13])} because {quote(HOSTILE[12])}\n  }}\n}}\n'
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "charts" / "t").mkdir(parents=True)
    (root / "charts" / "t" / "t.chart").write_text(_game_text(), encoding="utf-8")
    (root / "charts" / "e").mkdir()
    (root / "charts" / "e" / "e.chart").write_text(_errata_game_text(), encoding="utf-8")
    (root / "charts" / "f").mkdir()
    (root / "charts" / "f" / FILE_NAME).write_text(
        'game f { title "F" }\nchart [R1] "Gap" { roll 1d6 column r: text rows { 1-2: "a" 4-6: "b" } }\n',
        encoding="utf-8")
    (root / "charts" / "f" / "aid.order").write_text("R1\n" + "".join(f"R9{h}\n" for h in HOSTILE[6:13]),
                                                     encoding="utf-8")
    return root


def _run(root: Path, *args: str) -> str:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.delenv("CHARTC_CHARTS", raising=False)
        r = CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="chartc")
    assert r.exit_code in (0, 1), r.output
    return r.output


def _no_raw_hidden(text: str, allowed: str = "\n") -> None:
    raw = sorted({f"U+{ord(c):04X}" for c in text if c in RAW_HIDDEN + "\r\t" and c not in allowed})
    assert raw == [], f"hidden characters reached the output raw: {raw}"


# ---- the terminal --------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["lookup", "t/R1", "{n}"], ["odds", "t/R1"], ["list", "t"],
                                  ["check", "charts/f"], ["check", "charts/f", "--format", "short"]])
def test_terminal_output_shows_hidden_characters_as_marks(tree: Path, args: list[str]) -> None:
    outputs = [_run(tree, *(a.format(n=n + 1) for a in args)) for n in range(len(HOSTILE) if "{n}" in args else 1)]
    for out in outputs:
        _no_raw_hidden(out)
        assert not any(line.startswith("::") for line in out.splitlines())  # no forged CI command
    if args[0] == "lookup":
        label = printable(HOSTILE[11])  # the column's label: one line each, and no forged `Result:` line
        assert [sum(line.lstrip().startswith(label) for line in out.splitlines()) for out in outputs] == \
            [1] * len(HOSTILE)
        assert not any(line.lstrip().startswith("Result:") for out in outputs for line in out.splitlines())
        assert printable(HOSTILE[6]) in outputs[6]


# ---- JSON ----------------------------------------------------------------------------------------


def test_json_outputs_escape_hidden_characters_and_keep_the_data(tree: Path) -> None:
    for n, text in enumerate(HOSTILE):
        out = _run(tree, "lookup", "t/R1", str(n + 1), "--json")
        _no_raw_hidden(out)
        assert next(iter(json.loads(out)["values"].values())) == text
    odds = _run(tree, "odds", "t/R1", "--format", "json")
    _no_raw_hidden(odds)
    assert [next(iter(r["values"].values())) for r in json.loads(odds)["rows"]][: len(HOSTILE)] == list(HOSTILE)
    compute = _run(tree, "compute", "t/f", "--format", "json")  # issue 33 finding 9: RLO and C1 printed raw
    _no_raw_hidden(compute)
    assert json.loads(compute)["rule"] == HOSTILE[7] and json.loads(compute)["value"] == 3
    for args in (["list", "t", "--json"], ["check", "charts/f", "--format", "json"], ["vectors", "t"]):
        _no_raw_hidden(_run(tree, *args))


def test_the_game_json_escapes_hidden_characters_and_keeps_the_data(tree: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tree)
        comp = load([Path("charts/t")])
    text = render_outputs(comp.project)["t/t.json"]
    _no_raw_hidden(text)
    rows = json.loads(text)["charts"][0]["rows"]
    assert [r["values"]["result"] for r in rows][: len(HOSTILE)] == list(HOSTILE)


def test_errata_reasons_in_json_escape_hidden_characters_and_keep_the_data(tree: Path) -> None:
    # the errata's title, note and reasons (`because`) reach the game JSON and lookup --json as data
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tree)
        comp = load([Path("charts/e")])
    text = render_outputs(comp.project)["e/e.json"]
    _no_raw_hidden(text)
    doc = json.loads(text)
    assert doc["errata"][0]["title"] == "Errata " + HOSTILE[10] and doc["errata"][0]["notes"] == [HOSTILE[8]]
    chart = doc["charts"][0]
    assert [r.get("because") for r in chart["rows"]] == [None, [HOSTILE[11]]]
    assert chart["drms"][0]["because"] == [HOSTILE[7]] and chart["drms"][0]["value"] == 2
    assert [r["text"] for r in chart["errata"]["reasons"]] == [HOSTILE[11], HOSTILE[7]]
    out = _run(tree, "lookup", "e/R1", "5", "--json")
    _no_raw_hidden(out)
    found = json.loads(out)
    assert found["values"]["result"] == HOSTILE[6] and found["errata"]["printed"]["values"] == {"result": "Evade"}
    terminal = _run(tree, "lookup", "e/R1", "5")  # the `Errata:` line: title and reason as marks, one line
    _no_raw_hidden(terminal)
    [errata_line] = [line for line in terminal.splitlines() if line.lstrip().startswith("Errata:")]
    assert printable(HOSTILE[11]) in errata_line and printable("Errata " + HOSTILE[10]) in errata_line


def test_builds_warning_lines_show_hidden_characters_as_marks(tree: Path, tmp_path: Path) -> None:
    # `chartc build` prints each warning as `check --format short` does (C603 quotes the hostile value)
    out = _run(tree, "build", "charts/e", "--out", str(tmp_path / "out"))
    _no_raw_hidden(out)
    assert not any(line.startswith("::") for line in out.splitlines())  # no forged CI command
    [c603] = [line for line in out.splitlines() if "warning[C603]" in line]
    assert c603.startswith("charts/e/e.chart:11:5: ") and printable(HOSTILE[13]) in c603
    assert "2 warnings, 0 notes" in out


# ---- CSV -----------------------------------------------------------------------------------------


def test_csv_export_writes_no_formula_and_no_row_breaking_character(tree: Path) -> None:
    # issue 33 finding 9: cells starting `=`, `+`, `-`, `@` were written raw (formula injection), and
    # U+2028, VT and NEL split rows in readers that split lines first
    out = _run(tree, "export", "t/R1")
    _no_raw_hidden(out)
    assert len(out.splitlines()) == len(HOSTILE) + 2  # the header, one line per row, str.splitlines agreeing
    rows = list(csv.reader(io.StringIO(out)))
    cells = [row[1] for row in rows[1:]]
    assert all(c[:1] not in "=+-@\t\r" or c == "-" or c.lstrip("+-").isdigit() for c in cells), cells
    assert [unguard_cell(c) for c in cells[: len(HOSTILE)]] == [printable(h) for h in HOSTILE]
    assert cells[:5] == ["'" + HOSTILE[0], "'" + HOSTILE[1], "'" + HOSTILE[2], "'" + HOSTILE[3], "'" + HOSTILE[4]]


@pytest.mark.parametrize("cell", ["-", "-1", "+2", "3-6", "1946+", "'quoted'", "=", "-x", "''='", "@", "+"])
def test_a_guarded_cell_reads_back_as_written(cell: str) -> None:
    assert unguard_cell(spreadsheet_cell(cell)) == cell
    assert spreadsheet_cell(cell)[:1] not in "=+-@" or cell in ("-", "-1", "+2")


# ---- SARIF and GitHub ----------------------------------------------------------------------------


def test_sarif_and_github_annotations_carry_no_raw_hidden_character(tree: Path) -> None:
    sarif = _run(tree, "check", "charts/f", "--format", "sarif")
    _no_raw_hidden(sarif)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(sarif)["runs"][0]["results"]]
    assert any("%E2%80%AE" in u or "\u202e" in u for u in uris)  # the file name, kept as data
    github = _run(tree, "check", "charts/f", "--format", "github")
    _no_raw_hidden(github)
    annotations = [line for line in github.splitlines() if line.startswith("::")]
    assert len(annotations) == 8 and all(line.startswith("::error file=charts/f/") for line in annotations)
    assert sum("R9" in line for line in annotations) == 7  # each hostile aid.order line in one annotation


def test_the_step_summary_renders_file_names_and_messages_as_text(tree: Path) -> None:
    # issue 33 finding 9: the GitHub Action's job summary rendered HTML from file names
    report = json.loads(_run(tree, "check", "charts/f", "--format", "json"))
    summary = summary_markdown(report, ["charts/f", "<b>x</b>"], 1)
    _no_raw_hidden(summary)
    body = summary.split("|---|---|---|---|\n", 1)[1]
    for markup in ("<img", "<script", "](javascript", "\x1b"):
        assert markup not in body, markup
    assert summary.splitlines()[2] == "**8 errors** in `charts/f <b>x</b>` (exit 1)"  # a code span: literal text
    assert all(line.count("|") == 5 for line in body.splitlines() if line.startswith("|"))  # no cell split
    assert "&#60;img src=x onerror=alert(1)&#62;" in body


# ---- HTML ----------------------------------------------------------------------------------------


def test_the_player_aid_shows_hidden_characters_as_marks(tree: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tree)
        comp = load([Path("charts/t")])
    html = render_outputs(comp.project)["t/t.html"]
    _no_raw_hidden(html, allowed="\n\t")  # a tab is white space in HTML, as a line feed is
    assert "<img src=x" not in html and "<script>alert(2)" not in html
    assert "Safe[U+202E]Evade" in html


def test_every_string_of_the_list_is_hostile_somewhere() -> None:
    # the list stays meaningful: each string is either hidden to a reader or markup to some channel
    for text in HOSTILE:
        assert printable(text) != text or spreadsheet_cell(text) != text or any(c in text for c in "<`[|")


HIDDEN_IN_SOURCE = set(RAW_HIDDEN) | {"\r"}


def test_platform_exports_keep_hostile_text_as_data_and_show_it_visibly(tree: Path) -> None:
    # issue 33 (class e): the Foundry, Tabletop Simulator and VASSAL exports through the hostile list
    import xml.etree.ElementTree as ET
    import zipfile

    from lupa import lua52

    for platform in ("foundry", "tts", "vassal"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("PATH", str(tree / "no-node"))  # Foundry: the sources, not packed
            mp.delenv("CHARTC_FOUNDRY_CLI", raising=False)
            _run(tree, "export", "t", "--to", platform)
    out = tree / "exports" / "t"
    texts = {p: p.read_text(encoding="utf-8") for p in (out / "foundry").rglob("*.json")}
    texts[out / "tts" / "t.lua"] = (out / "tts" / "t.lua").read_text(encoding="utf-8")
    with zipfile.ZipFile(out / "vassal" / "t.vmdx") as archive:
        texts.update({out / name: archive.read(name).decode("utf-8") for name in archive.namelist()})
        ET.fromstring(archive.read("buildFile.xml"))  # XML 1.0: a raw control would not parse
    for path, text in texts.items():
        assert not HIDDEN_IN_SOURCE & set(text), (path, sorted(HIDDEN_IN_SOURCE & set(text)))
    # Foundry shows names and descriptions as they are: the RLO arrives as a visible mark
    [table] = [json.loads(t) for p, t in texts.items() if p.parent.name == "charts"]
    assert [r["name"] for r in table["results"]][7 - 1] == "Safe<U+202E>Evade"
    # Lua holds the data exactly (escaped in the source), as the Python module does
    lua = lua52.LuaRuntime(unpack_returned_tuples=True)
    module = lua.execute(texts[out / "tts" / "t.lua"])
    for roll, hostile in enumerate(HOSTILE, 1):
        values = module.lookup("R1", roll, lua.table(), 0)[0]
        assert values["result"] == hostile, roll
