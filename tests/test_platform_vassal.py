"""`chartc export GAME --to vassal`: a VASSAL module extension held to published modules' structure.

No VASSAL engine runs here, so the extension's `buildFile.xml` is held to the element and
attribute names of published modules (tests/data/vassal/published_names.json, which cites them):
every element a component class VASSAL saves in such files, every attribute one it writes there,
every element inside a parent it is seen inside. Each dice button's report, a Java expression,
is evaluated (in Node.js, whose syntax agrees on the strings, ternaries and calls it uses) for
every face the button's dice can show, and must name the row `chartc lookup` selects.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.emit.html.wording import cell_text, key_text
from compiler.emit.platforms.vassal import CLASSES, button_label, emit_vassal, java_string
from compiler.engine.lookup import LookupProblem, lookup
from compiler.model.dice import DiceForm
from compiler.model.text import row_range_text
from compiler.tools.platforms import Platform, export_game, vassal_zip
from tests.conftest import ROOT, compile_text

PUBLISHED = json.loads((ROOT / "tests" / "data" / "vassal" / "published_names.json").read_text(encoding="utf-8"))
GAMES = ("aa_rules", "ia2", "stuka_leader", "usaaf")
REQUIRE_NODE = os.environ.get("CHARTC_REQUIRE_NODE") == "1"


@functools.cache
def _game(folder: Path) -> model.Game:
    return load([folder]).project.games[folder.name]


def _zip(game: model.Game) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(vassal_zip(emit_vassal(game))))


def _structure_agrees(root: ET.Element) -> int:
    """Hold an element tree to the published names; returns how many elements were checked."""
    allowed = {tag: set(names) for tag, names in PUBLISHED["attributes"].items()}
    children = {tuple(pair) for pair in PUBLISHED["children"]}
    assert root.tag == PUBLISHED["root"]
    count = 0
    for element in root.iter():
        assert element.tag in allowed, element.tag
        assert set(element.attrib) <= allowed[element.tag], (element.tag, set(element.attrib) - allowed[element.tag])
        for child in element:
            assert (element.tag, child.tag) in children, (element.tag, child.tag)
        count += 1
    return count


@pytest.mark.parametrize("game_id", [*GAMES, "crtlab"])
def test_the_extension_has_the_structure_of_published_modules(game_id: str) -> None:
    folder = ROOT / "tests" / "data" / "charts" / "crtlab" if game_id == "crtlab" else ROOT / "charts" / game_id
    game = _game(folder)
    archive = _zip(game)
    names = archive.namelist()
    assert names == sorted(names) and "buildFile.xml" in names and "extensiondata" in names
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in archive.infolist())
    root = ET.fromstring(archive.read("buildFile.xml"))
    assert _structure_agrees(root) > 3
    data = ET.fromstring(archive.read("extensiondata"))
    assert data.tag == PUBLISHED["extensiondata"]["root"]
    assert {c.tag for c in data} <= set(PUBLISHED["extensiondata"]["children"])
    # every page the windows show is in the zip, and every chart of the game is on a page
    pages = [e.get("fileName") for e in root.iter(CLASSES["html"])]
    assert pages and all(p in names for p in pages)
    text = "".join(archive.read(p).decode("utf-8") for p in pages)
    assert all(f'<a name="{c.address}">' in text for c in game.charts)
    # a dice button per roll chart; the two menus list exactly the buttons and windows by their text
    buttons = [e.get("text") for e in root.iter(CLASSES["dice"])]
    assert len(buttons) == len([c for c in game.charts if c.kind is model.ChartKind.ROLL and c.dice])
    windows = [e.get("text") for e in root.iter(CLASSES["window"])]
    menus = {e.get("text"): e.get("menuItems", "").split(",") for e in root.iter(CLASSES["menu"])}
    assert menus.get(f"{game.id} charts") == windows
    assert menus.get(f"{game.id} dice", []) == buttons


# ---- the dice buttons' reports ---------------------------------------------------------------

EVALUATE = r"""
const Integer = { parseInt: (s) => parseInt(s, 10) };
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map(([expr, result]) => Function("result", "Integer", "return (" + expr + ");")(result, Integer));
process.stdout.write(JSON.stringify(out));
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if REQUIRE_NODE:
            pytest.fail("CHARTC_REQUIRE_NODE=1 but Node.js is missing")
        pytest.skip("Node.js is missing (it evaluates the reports); CI (CHARTC_REQUIRE_NODE=1) insists")
    return node


def _evaluate(node: str, cases: list[tuple[str, Any]]) -> list[str]:
    result = subprocess.run([node, "-e", EVALUATE], input=json.dumps(cases), capture_output=True, text=True,
                            timeout=120, check=True)
    return list(json.loads(result.stdout))


def _faces(button: ET.Element) -> list[tuple[Any, tuple[int, ...]]]:
    """Every `result` the button can report, as VASSAL's Dice Button forms it (each die 1..nSides
    plus `plus`; the total plus `addToTotal`, or the faces joined by commas), with the faces."""
    n, sides, plus, add = (int(button.get(k, "0")) for k in ("nDice", "nSides", "plus", "addToTotal"))
    out: list[tuple[Any, tuple[int, ...]]] = []
    for faces in itertools.product(range(1 + plus, sides + 1 + plus), repeat=n):
        total = button.get("reportTotal") == "true"
        out.append((sum(faces) + add if total else ",".join(map(str, faces)), faces))
    return out


def _natural(chart: model.Chart, faces: tuple[int, ...]) -> int:
    """The natural roll the chart reads from these faces (IA2 3.5 d66, 10.6 percentile)."""
    dice = chart.dice
    assert dice is not None
    match dice.form:
        case DiceForm.D66:
            return faces[0] * 10 + faces[1]
        case DiceForm.PERCENTILE:
            return faces[0] * 10 + faces[1] or 100
        case _:
            return sum(faces)


def _expected(game: model.Game, chart: model.Chart, natural: int) -> str:
    """The report: the row `chartc lookup` selects for the natural roll, for each key value."""
    assert chart.dice is not None
    parts = [f"{button_label(chart)} ({chart.dice.text}): roll {natural}"]
    for combo in chart.key_combinations():
        given = dict(zip((k.id for k in chart.keys), combo, strict=True))
        keys = ", ".join(key_text(k, m) for k, m in zip(chart.keys, combo, strict=True))
        try:
            row = lookup(chart, str(natural) if chart.dice.form is not DiceForm.PERCENTILE else f"{natural % 100:02d}",
                         given, 0).row
            cells = [cell_text(game, c, v) for c, v in zip(chart.columns, row.values, strict=True)]
            shown = cells[0] if len(cells) == 1 else "; ".join(
                f"{c.label}: {t}" for c, t in zip(chart.columns, cells, strict=True))
            words = f"{row_range_text(row)} {shown}"
        except LookupProblem:
            words = "no row"
        parts.append(f" / {keys}: {words}" if keys else f": {words}")
    if chart.drms:
        parts.append(" (the natural roll: add the DRMs on the chart)")
    return "".join(parts)


@pytest.mark.parametrize("game_id", ["aa_rules", "ia2", "stuka_leader"])
def test_each_dice_button_names_the_row_of_every_roll(game_id: str) -> None:
    node = _node()
    game = _game(ROOT / "charts" / game_id)
    root = ET.fromstring(emit_vassal(game)["buildFile.xml"])
    charts = {button_label(c): c for c in game.charts}
    cases, wanted = [], []
    for button in root.iter(CLASSES["dice"]):
        chart = charts[button.get("name", "")]
        report = button.get("reportFormat", "")
        assert report.startswith("{") and report.endswith("}")
        if "read it on the chart" in report:  # more key values than a report lists, or dice it cannot read
            continue
        for result, faces in _faces(button):
            cases.append((report[1:-1], result))
            wanted.append(_expected(game, chart, _natural(chart, faces)))
    assert len(cases) > {"aa_rules": 200, "ia2": 300, "stuka_leader": 40}[game_id]
    assert _evaluate(node, cases) == wanted


def test_java_strings_keep_vassal_out_of_chart_text() -> None:
    # `$name$` would be a VASSAL property and `{` an expression: both written as \\u escapes
    assert java_string('a "$x$" {y} \\ é') == '"a \\"\\u0024x\\u0024\\" \\u007by\\u007d \\\\ \\u00e9"'
    assert java_string("line\nnext") == '"line<U+000A>next"'


HOSTILE = r'''
game t { title "T\", \"$PlayerName$\" </VASSAL.build.module.ModuleExtension>" }
enum side "Side" {
  ours "Ours, \"$result$\" {1+1}"
}
chart [T1] table "Table, <script>x</script> $name$" {
  roll 1d6
  key side
  column result: text "Result"
  rows {
    ours 1-3: "\"; System.exit(0); \""
    ours 4-6: "<b>{result}</b> $nDice$"
  }
}
'''


def test_chart_text_stays_text_in_the_extension(tmp_path: Path) -> None:
    node = _node()
    game = compile_text(tmp_path, HOSTILE).project.games["t"]
    files = emit_vassal(game)
    root = ET.fromstring(files["buildFile.xml"])  # still well-formed XML
    assert _structure_agrees(root) > 3
    (button,) = root.iter(CLASSES["dice"])
    assert "," not in button.get("name", "") and "$" not in button.get("reportFormat", "")
    got = _evaluate(node, [(button.get("reportFormat", "")[1:-1], 2), (button.get("reportFormat", "")[1:-1], 5)])
    assert got[0].endswith(': 1-3 "; System.exit(0); "')
    assert got[1].endswith(": 4-6 <b>{result}</b> $nDice$")
    page = next(t for p, t in files.items() if p.endswith(".html"))
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;{result}&lt;/b&gt;" in page


def test_export_writes_the_same_bytes_every_time(tmp_path: Path) -> None:
    game = _game(ROOT / "charts" / "ia2")
    first = export_game(game, Platform.VASSAL, tmp_path / "a")
    export_game(load([ROOT / "charts" / "ia2"]).project.games["ia2"], Platform.VASSAL, tmp_path / "b")
    assert first.files == ("ia2.vmdx",)
    assert (tmp_path / "a" / "ia2.vmdx").read_bytes() == (tmp_path / "b" / "ia2.vmdx").read_bytes()
