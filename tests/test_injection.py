"""Chart text is data: markup, quotes, template syntax, NULs and bidi marks stay inert in every output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build.render import render_outputs
from compiler.build.validate import validate_json
from tests.conftest import compile_text

NASTY = (
    "</table><script>alert(1)</script> \" \"\"\" ''' \\ \\\" {{ 7*7 }} {% raw %} ${x} "
    "\x00 \u202e\u2066 \u200f x\n\"\"\" + str(__import__('os').getpid()) + \"\"\"\nPWNED = 1 # \r end"
)


def chart_literal(text: str) -> str:
    """`text` as the body of a chart-language string: backslashes, quotes and controls escaped."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out)


def nasty_game_text() -> str:
    s = chart_literal(NASTY)
    return (
        f'game t {{ title "G {s}" source "S {s}" }}\n'
        f'enum side "E {s}" {{ a "A {s}" b "B" }}\ncontext fb: flag "C {s}"\n'
        f'chart [R1] "T {s}" {{ rule "R {s}" roll 1d6 key side column res: text "L {s}" '
        f'drm d "D {s}" +1 when fb [1] footnote 1 "F {s}" note "N {s}" '
        f'rows {{ a 1+: "V {s}" b 1+: "V2" }} }}\n'
    )


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    comp = compile_text(tmp_path_factory.mktemp("inj"), nasty_game_text())
    assert not comp.has_errors, comp.diagnostics
    return render_outputs(comp.project)


def test_the_nasty_text_means_what_the_test_thinks() -> None:
    assert "</table><script>" in NASTY and '"""' in NASTY and "'''" in NASTY and "\x00" in NASTY
    assert "\u202e" in NASTY and "\nPWNED = 1 # \r" in NASTY and "{{ 7*7 }}" in NASTY


def test_html_shows_the_text_and_runs_nothing(outputs) -> None:
    html = outputs["t/t.html"]
    # the page's own three script elements (the interactive table's data and engine, and the one
    # that makes a scrolling table box focusable), no other
    assert html.count("<script") == 3 and "</table><script>" not in html
    data = html[html.index('<script type="application/json" id="chartc-live">') :]
    data = data[: data.index("</script>")]
    assert "<" not in data.removeprefix("<script") and "\\u003c/table\\u003e" in data
    assert "&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{ 7*7 }}" in html and "{% raw %}" in html  # template syntax in data is not evaluated
    assert "\x00" not in html and "[U+0000]" in html  # a NUL is not allowed in HTML
    assert "\u202e" not in html and "[U+202E]" in html and "[U+2066]" in html  # no reordering
    assert "\r" not in html and "[U+000D]" in html
    assert html.count("<table") == html.count("</table>")


def test_python_keeps_the_text_as_data_and_still_imports(outputs, tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(outputs["t/t.py"], encoding="utf-8")
    script = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('t', {str(path)!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "print(json.dumps({'pwned': hasattr(m, 'PWNED'), 'title': m.GAME_TITLE,\n"
        "                  'value': m.lookup_r1(3, side='a')['res'], 'doc': m.lookup_r1.__doc__}))\n"
    )
    r = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["pwned"] is False
    assert got["title"] == "G " + NASTY and got["value"] == "V " + NASTY


def test_python_source_holds_no_raw_controls(outputs) -> None:
    py = outputs["t/t.py"]
    assert "\x00" not in py and "\u202e" not in py and "\r" not in py
    compile(py, "t.py", "exec")


def test_json_round_trips_the_exact_text(outputs) -> None:
    text = outputs["t/t.json"]
    validate_json(text)
    doc = json.loads(text)
    assert doc["game"]["title"] == "G " + NASTY and doc["game"]["source"] == "S " + NASTY
    chart = doc["charts"][0]
    assert chart["title"] == "T " + NASTY
    assert chart["rows"][0]["values"]["res"] == "V " + NASTY
    assert "\x00" not in text and "\\u0000" in text  # JSON escapes controls itself
