"""The interactive player aid in real headless Chromium (Playwright, the system Chromium), from file://.

Clicks through the charts a player uses (IA2 R4 with F/B Attack, R7 by period with a percentile
roll, R9 with the strafe DRM, a CRT read from combat factors with a column shift) and holds the
page to `chartc vectors`: the rows the page shows, the chance of each, and the row every natural
roll selects. The default run checks R4's vectors and the CRT test game's odds; `pytest -m slow`
sweeps every roll chart of the corpus. CI sets CHARTC_REQUIRE_BROWSER=1: then a missing Playwright
or Chromium fails instead of skipping.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compiler import model
from compiler.build.project import load
from compiler.build.render import render_outputs
from compiler.tools.vectors import game_vectors
from tests.conftest import ROOT

IA2_HTML = ROOT / "generated" / "ia2" / "ia2.html"
SCREENSHOT = ROOT / "docs" / "player-aid" / "interactive-r4.png"


def _watched_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    opened = context.new_page()
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    yield opened
    # offline: the page asks for nothing but its own file, and runs without a script error
    assert all(u.startswith("file://") for u in requests), requests
    assert not errors, errors
    context.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    yield from _watched_page(browser)


@pytest.fixture(scope="module")
def ia2_page(browser: Any) -> Iterator[Any]:
    """The IA2 aid opened once for the tests that each use their own chart's panel (a page load
    costs about half a second of CPU)."""
    for opened in _watched_page(browser):
        _open(opened, IA2_HTML)
        yield opened


def _open(page: Any, path: Path, fragment: str = "") -> None:
    page.goto(path.resolve().as_uri() + fragment)


def _panel(page: Any, address: str) -> Any:
    return page.locator(f'.live[data-chart="{address}"]')


def _field(panel: Any, name: str) -> Any:
    return panel.locator(f'[data-name="{name}"]')


def _shown_rows(panel: Any) -> list[tuple[str, str]]:
    """(row index, exact chance) of each row the panel lists, as the page writes them."""
    return [
        (tr.get_attribute("data-row"), tr.locator("td.pct").get_attribute("data-exact"))
        for tr in panel.locator("table.live-rows tbody tr").all()
    ]


@pytest.fixture(scope="module")
def crtlab_html(tmp_path_factory: pytest.TempPathFactory) -> tuple[model.Game, Path]:
    comp = load([ROOT / "tests" / "data" / "charts" / "crtlab"])
    path = tmp_path_factory.mktemp("crtlab") / "crtlab.html"
    path.write_text(render_outputs(comp.project)["crtlab/crtlab.html"], encoding="utf-8")
    return comp.project.games["crtlab"], path


@pytest.mark.parametrize(
    ("address", "printed", "bounds"),
    [
        ("R4", "3-6", (3, 6)),  # IA2 R4 as printed, before the chartc errata (3+)
        ("R7", "01-08", (1, 8)),  # percentile, zero-padded
        ("crash_enroute", "9-0", (9, 10)),  # a d10's 0 face is 10
        ("R4", "2 or less", (None, 2)),
        ("R9", "20+", (20, None)),
        ("R4", "see note", (None, None)),
    ],
)
def test_printed_ranges_are_read_with_the_charts_dice(
    ia2: model.Game, address: str, printed: str, bounds: tuple[int | None, int | None]
) -> None:
    from compiler.emit.html.interactive import printed_bounds

    chart = ia2.chart(address)
    assert chart is not None and printed_bounds(chart, printed) == bounds


def test_r4_with_fb_attack(page: Any) -> None:
    # IA2 R4 (7.1.10 and the chartc errata): piston-engined, F/B Attack +1 (note 1): natural 2 is a
    # modified 3, combat; the chance of a safe escape falls from 1/3 to 1/6
    _open(page, IA2_HTML)
    r4 = _panel(page, "R4")
    assert _shown_rows(r4) == [("0", "1/3"), ("1", "2/3")]
    _field(r4, "ctx.fb_attack").check()
    _field(r4, "roll").fill("2")
    assert r4.locator(".live-result").text_content() == "Natural 2 +1 = modified 3: 3+ \u2192 Combat"
    assert r4.locator(".live-result").get_attribute("aria-live") == "polite"
    assert "F/B Attack +1 (note 1)" in r4.text_content()
    assert _shown_rows(r4) == [("0", "1/6"), ("1", "5/6")]
    assert r4.locator("tr.hit").get_attribute("data-row") == "1"
    # the printed R4 table marks the same row, on screen only
    printed = page.locator("#chart-r4 .chart-body tr.hit")
    assert printed.count() == 1 and printed.get_attribute("data-row") == "1"
    background = "c => getComputedStyle(c).backgroundColor"
    assert printed.locator("td").first.evaluate(background) == "rgb(204, 204, 204)"
    page.emulate_media(media="print")
    assert printed.locator("td").first.evaluate(background) != "rgb(204, 204, 204)"
    page.emulate_media(media="screen")
    # the position is in the URL: opened again from it, the page shows the same answer
    assert page.url.endswith("#R4.ctx.fb_attack=1&R4.roll=2")
    page.goto(page.url)
    again = _panel(page, "R4")
    assert _field(again, "ctx.fb_attack").is_checked()
    assert again.locator(".live-result").text_content() == "Natural 2 +1 = modified 3: 3+ \u2192 Combat"
    if os.environ.get("CHARTC_WRITE_SCREENSHOTS") == "1":  # docs/player-aid.md's screenshot
        again.locator("xpath=..").screenshot(path=str(SCREENSHOT))
    # the errata toggle: as printed, piston combat is 3-6, and a modified 7 falls off the table
    _field(again, "roll").fill("6")
    assert again.locator(".live-result").text_content().endswith("3+ \u2192 Combat")
    _field(again, "printed").check()
    assert again.locator(".live-result").text_content() == "Natural 6 +1 = modified 7: no row of the chart holds it."
    assert _shown_rows(again) == [("0", "1/6"), ("1", "2/3"), ("none", "1/6")]
    assert page.locator("#chart-r4 .chart-body tr.hit").count() == 0  # the printed table is the corrected one


def test_r7_by_period_with_a_percentile_roll(ia2_page: Any) -> None:
    # IA2 R7 (10.6), 1944 late: 04-56 Trained; the transcription is partial (it stops at 78), so
    # a 00 (read as 100) selects no row, and 22/100 of the rolls fall there
    page = ia2_page
    r7 = _panel(page, "R7")
    _field(r7, "key.period").select_option("late_1944")
    _field(r7, "roll").fill("37")
    assert r7.locator(".live-faces").text_content() == " tens 3, ones 7"
    assert r7.locator(".live-result").text_content() == "Natural 37: 04-56 \u2192 Trained"
    case = next(c for c in _vectors("R7") if c["keys"] == {"period": "late_1944"})
    assert r7.locator("tr.hit").get_attribute("data-row") == str(case["rolls"][36][2]) == "8"
    assert _shown_rows(r7) == [*((str(i), p) for i, p in case["chances"].items()), ("none", "11/50")]
    _field(r7, "roll").fill("00")
    assert r7.locator(".live-faces").text_content() == " tens 0, ones 0 (00 = 100)"
    assert r7.locator(".live-result").text_content() == "Natural 100: no row of the chart holds it."
    assert r7.locator("tr.hit").count() == 0 and case["rolls"][-1] == [100, 100, None]


def test_r9_with_the_strafe_drm_by_keyboard_alone(ia2_page: Any) -> None:
    # IA2 R9: strafe attack +2; natural 4 +2 = 6: 6-15, hit (1 point)
    page = ia2_page
    r9 = _panel(page, "R9")
    _field(r9, "ctx.strafe").focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # to the natural roll
    page.keyboard.type("4")
    assert r9.locator(".live-result").text_content().startswith("Natural 4 +2 = modified 6: 6-15 \u2192 Hit:")
    strafe = "Strafe attack (1 ammo point of ALL forward weapons)"
    assert r9.locator(".live-breakdown").text_content() == f"DRMs: {strafe} +2 = +2"
    case = next(c for c in _vectors("R9") if c["context"] == {"strafe": True})
    assert _shown_rows(r9) == [(str(i), p) for i, p in case["chances"].items()]
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the Roll button: a natural roll from 1 to 20 is entered
    rolled = int(_field(r9, "roll").input_value())
    assert 1 <= rolled <= 20
    assert r9.locator(".live-result").text_content().startswith(f"Natural {rolled} +2 = modified {rolled + 2}: ")


def test_flak_takes_the_die_and_shows_the_steps(ia2_page: Any) -> None:
    # IA2 10.16: "Roll 1d6 and subtract 3 ... (from 0 to 3, maximum)", +1 drm to the roll after an
    # FuG25 IFF hit: the die typed, the +1 added to it before the 3 is subtracted, held to 0..3
    page = ia2_page
    flak = _panel(page, "bodenplatte_flak")
    assert _shown_rows(flak) == [("0", "1/2"), ("1", "1/6"), ("2", "1/6"), ("3", "1/6")]
    _field(flak, "ctx.iff_hit").check()
    _field(flak, "roll").fill("6")
    steps = "+1 DRM \u2192 7, \u22123 \u2192 4, minimum 0 \u2192 4, maximum 3 \u2192 3"
    assert flak.locator(".live-result").text_content() == f"Natural 6, {steps}: 3 \u2192 3 \u00b7 [B6]"
    assert _shown_rows(flak) == [("0", "1/3"), ("1", "1/6"), ("2", "1/6"), ("3", "1/3")]
    _field(flak, "roll").fill("0")  # the die has no 0 face
    assert flak.locator(".live-result").text_content() == "0 cannot be rolled on 1d6."
    # IA2 7.1.5: a die of 2 is 0 hits
    bombers = _panel(page, "flak")
    _field(bombers, "roll").fill("2")
    steps = "\u22123 \u2192 -1, minimum 0 \u2192 0, maximum 3 \u2192 0"  # no DRM applies to this roll
    assert bombers.locator(".live-result").text_content() == f"Natural 2, {steps}: 0 \u2192 0 \u00b7 \u2013"
    for address in ("flak", "bodenplatte_flak"):
        assert agree_with_vectors(page, address, _vectors(address)) > 0


@pytest.fixture(scope="module")
def crtlab_page(browser: Any, crtlab_html: tuple[model.Game, Path]) -> Iterator[Any]:
    for opened in _watched_page(browser):
        _open(opened, crtlab_html[1])
        yield opened


def test_crt_with_odds_and_a_column_shift(crtlab_page: Any) -> None:
    # crtlab TCRT: 7 against 2 is 3.5:1, rounded down to 3:1 (field_odds); woods -1 column -> 2:1
    page = crtlab_page
    tcrt = _panel(page, "TCRT")
    _field(tcrt, "odds.odds").check()
    _field(tcrt, "attack.odds").fill("7")
    _field(tcrt, "defense.odds").fill("2")
    assert _field(tcrt, "key.odds").input_value() == "3:1"
    _field(tcrt, "ctx.terrain").select_option("woods")
    assert _field(tcrt, "key.odds").input_value() == "2:1"
    breakdown = tcrt.locator(".live-breakdown").text_content()
    assert breakdown.startswith("Odds 3:1, column shifts Terrain \u22121 = \u22121: column 2:1.")
    _field(tcrt, "shift.odds").fill("3")  # 3:1, woods -1 and 3 more columns: +2, the 5:1 column
    assert _field(tcrt, "key.odds").input_value() == "5:1"
    # a shift left typed with U+2212, as the page prints it: woods -1 and -1 more, the 1:1 column (a
    # number field dropped the sign and read +1)
    _field(tcrt, "shift.odds").fill("\u22121")
    assert _field(tcrt, "key.odds").input_value() == "1:1"
    _field(tcrt, "shift.odds").fill("3")
    _field(tcrt, "roll").fill("6")
    assert tcrt.locator(".live-result").text_content().startswith("Natural 6: ")


def test_odds_rules_agree_with_the_vectors(crtlab_page: Any, crtlab_html: tuple[model.Game, Path]) -> None:
    game, _ = crtlab_html
    page = crtlab_page
    for entry in game_vectors(game)["odds"]:  # type: ignore[union-attr]
        got = page.evaluate(
            """([address, readings]) => readings.map((r) => {
                 const rule = window.chartcLive.data.odds[address];
                 const read = window.chartcLive.oddsRead(rule, r.attack, r.defense, r.shift);
                 return read.error ? null : read.column; })""",
            [entry["chart"], entry["readings"]],
        )
        assert got == [r["column"] for r in entry["readings"]], entry["chart"]


def test_print_shows_no_interactive_panel(ia2_page: Any) -> None:
    assert _panel(ia2_page, "R4").is_visible()
    ia2_page.emulate_media(media="print")
    assert not _panel(ia2_page, "R4").is_visible() and ia2_page.locator(".live:visible").count() == 0
    ia2_page.emulate_media(media="screen")


def test_a_broken_or_hostile_fragment_is_ignored(page: Any) -> None:
    _open(page, IA2_HTML, "#%E0%A4%A&R4.__proto__=1&R4.key.interceptor=%3Cimg%20src%3Dx%3E&R4.roll=3&constructor.x=1")
    r4 = _panel(page, "R4")
    # an unknown interceptor type selects no row; the roll is still read; nothing else applies
    assert r4.locator(".live-result").text_content() == "Natural 3: no row of the chart holds it."
    assert page.locator("img").count() == 0


def test_chart_text_never_runs(page: Any, tmp_path: Path) -> None:
    from tests.conftest import compile_text
    from tests.test_injection import nasty_game_text

    comp = compile_text(tmp_path, nasty_game_text())
    html = tmp_path / "t.html"
    html.write_text(render_outputs(comp.project)["t/t.html"], encoding="utf-8")
    _open(page, html)
    assert page.evaluate("typeof window.PWNED") == "undefined"
    assert page.locator(".live").count() >= 1 and page.locator(".live script").count() == 0
    assert "</table><script>alert(1)</script>" in page.locator(".live").first.text_content()


def test_an_int_outside_its_declared_range_is_refused(page: Any, tmp_path: Path) -> None:
    # `chartc lookup --set hits=13` exits 2 ("outside its declared range") and the generated module
    # raises ValueError: the page computes nothing either; a typed U+2212 minus reads as "-" (a
    # number field dropped it: "\u22121" was read as 1)
    from tests.conftest import compile_text

    text = (
        'game t { title "T" }\ncontext hits: int "Hits" -2-12\n'
        'chart [M] "M" { roll 2d6 column r: text drm hits "Hits" +1 per 1 hits rows { 2-6: "hold"  7+: "rout" } }\n'
    )
    comp = compile_text(tmp_path, text)
    html = tmp_path / "t.html"
    html.write_text(render_outputs(comp.project)["t/t.html"], encoding="utf-8")
    _open(page, html)
    m = _panel(page, "M")
    _field(m, "roll").fill("7")
    for typed, shown in [("13", "13"), ("-3", "-3"), ("\u22123", "-3")]:
        _field(m, "ctx.hits").fill(typed)
        refusal = f"No answer: Hits: {shown} is outside its declared range -2-12."
        assert m.locator(".live-result").text_content() == refusal
        assert m.locator("table.live-rows tbody tr").count() == 0
    _field(m, "ctx.hits").fill("1.5")
    assert m.locator(".live-result").text_content() == "No answer: Hits: \u201c1.5\u201d is not a whole number."
    _field(m, "ctx.hits").fill("\u22122")
    assert m.locator(".live-breakdown").text_content() == "DRMs: Hits \u22122 (-2 \u00d7 +1) = \u22122"
    assert m.locator(".live-result").text_content() == "Natural 7 \u22122 = modified 5: 2-6 \u2192 hold"



def test_the_errata_toggle_switches_drms(page: Any, tmp_path: Path) -> None:
    # IA2 R4 (7.1.10) with errata on its DRMs only (issue 31): F/B Attack changed +1 -> +2, Night
    # removed, Gruppe Leader -1 added; and IA2 B9 (6.1), a DRM list, its December DRM changed +2 -> +3.
    # The toggle used to switch only rows and cells: here it must switch every DRM.
    from tests.conftest import compile_text

    text = (
        'game t { title "T" calendar 1944-07 to 1945-05 }\ncontext month: month "Month"\n'
        'context fb_attack: flag "F/B Attack"\ncontext night: flag "Night"\ncontext leader: flag "Gruppe Leader"\n'
        'chart [R4] "Escape" { rule "7.1" roll 1d6 column result: text drm fb_attack "F/B Attack" +1 when fb_attack\n'
        '  drm night "Night" +1 when night rows { 2-: "Safe escape" 3+: "Combat" } }\n'
        'drms [B9] "Weather" { drm december "December 1944" +2 when month == 1944-12 }\n'
        'errata e1 "Official errata" {\n'
        '  amend R4 { change drm fb_attack to +2 because "7.1.10" remove drm night because "no night missions"\n'
        '    add drm leader "Gruppe Leader" -1 when leader because "the leader keeps formation" }\n'
        '  amend B9 { change drm december to +3 because "6.1" } }\n'
    )
    comp = compile_text(tmp_path, text)
    assert comp.diagnostics == []
    html = tmp_path / "t.html"
    html.write_text(render_outputs(comp.project)["t/t.html"], encoding="utf-8")
    _open(page, html)
    r4 = _panel(page, "R4")
    for flag in ("fb_attack", "night", "leader"):  # Night is asked for: the print's DRM reads it
        _field(r4, f"ctx.{flag}").check()
    assert "Night +1 (rule 7.1) (as printed)" in r4.text_content()
    _field(r4, "roll").fill("1")
    assert r4.locator(".live-breakdown").text_content() == "DRMs: F/B Attack +2, Gruppe Leader \u22121 = +1"
    assert r4.locator(".live-result").text_content() == "Natural 1 +1 = modified 2: 2- \u2192 Safe escape"
    _field(r4, "printed").check()
    assert r4.locator(".live-breakdown").text_content() == "DRMs: F/B Attack +1, Night +1 = +2"
    assert r4.locator(".live-result").text_content() == "Natural 1 +2 = modified 3: 3+ \u2192 Combat"
    assert _shown_rows(r4) == [("0", "0"), ("1", "1")]  # +2 on a d6: never 2 or less
    _field(r4, "printed").uncheck()
    assert _shown_rows(r4) == [("0", "1/6"), ("1", "5/6")]  # +1: only a 1 escapes
    b9 = _panel(page, "B9")
    _field(b9, "ctx.month").select_option("1944-12")
    assert b9.locator(".live-result").text_content() == "Total DRM +3."
    _field(b9, "printed").check()
    assert b9.locator(".live-result").text_content() == "Total DRM +2."


# ---- the page against `chartc vectors` ----------------------------------------------------------

_SET_AND_READ = """([address, cases]) => cases.map((c) => {
  const panel = document.querySelector(`.live[data-chart="${address}"]`);
  const set = (name, value) => {
    const input = panel.querySelector(`[data-name="${name}"]`);
    if (input.type === "checkbox") { input.checked = Boolean(value); } else { input.value = String(value); }
  };
  for (const [k, v] of Object.entries(c.keys)) { set("key." + k, v); }
  for (const [k, v] of Object.entries(c.context)) { set("ctx." + k, v); }
  const printed = panel.querySelector('[data-name="printed"]');
  if (printed) { printed.checked = false; }
  set("roll", "");
  panel.querySelector(".live-fields").dispatchEvent(new Event("change"));
  const rows = [...panel.querySelectorAll("table.live-rows tbody tr")].map(
    (tr) => [tr.dataset.row, tr.querySelector("td.pct").dataset.exact]);
  const chart = window.chartcLive.data.charts.find((x) => x.address === address);
  const state = { keys: c.keys, context: c.context, asPrinted: false, natural: null };
  const drm = window.chartcLive.answer(chart, state).drm;
  const picks = c.rolls.map(([natural]) => {
    const a = window.chartcLive.answer(chart, Object.assign({}, state, { natural: natural }));
    return [natural, a.modified, a.row === null ? null : a.row.index];
  });
  return { rows: rows, drm: drm, rolls: picks };
})"""


def _vectors(address: str, game: str = "ia2") -> list[dict[str, Any]]:
    from tests.test_vectors import corpus_vectors

    entry = next(e for e in corpus_vectors(game)["charts"] if e["chart"] == address)
    return entry["cases"]  # type: ignore[no-any-return]


def agree_with_vectors(page: Any, address: str, cases: list[dict[str, Any]]) -> int:
    """Every case through the page: the rows it lists with their chances, the DRM, and the row each
    natural roll selects. Returns how many answers were compared."""
    got = page.evaluate(_SET_AND_READ, [address, cases])
    compared = 0
    for case, answer in zip(cases, got, strict=True):
        if case["drm"] is None:  # a DRM on a digit-read roll: the page lists no chance
            assert all(p == "0" for _, p in answer["rows"]), (address, case)
            continue
        shown = {i: p for i, p in answer["rows"] if p != "0"}
        want = dict(case["chances"]) | ({"none": case["no_row"]} if case["no_row"] != "0" else {})
        assert shown == want, (address, case["keys"], case["context"])
        assert answer["drm"] == case["drm"], (address, case)
        assert answer["rolls"] == case["rolls"], (address, case["keys"], case["context"])
        compared += len(case["rolls"]) + 1
    return compared


def test_r4_agrees_with_the_vectors(ia2_page: Any) -> None:
    assert agree_with_vectors(ia2_page, "R4", _vectors("R4")) == 8 * 7


@pytest.mark.slow
@pytest.mark.parametrize("game", ["ia2", "stuka_leader", "aa_rules"])
def test_every_roll_chart_agrees_with_the_vectors(page: Any, game: str) -> None:
    _open(page, ROOT / "generated" / game / f"{game}.html")
    from tests.test_vectors import corpus_vectors

    entries = corpus_vectors(game)["charts"]
    assert entries
    for entry in entries:
        assert agree_with_vectors(page, entry["chart"], entry["cases"]) > 0


@pytest.mark.slow
def test_the_crt_game_agrees_with_the_vectors(page: Any, crtlab_html: tuple[model.Game, Path]) -> None:
    game, path = crtlab_html
    _open(page, path)
    for entry in game_vectors(game)["charts"]:  # type: ignore[union-attr]
        assert agree_with_vectors(page, entry["chart"], entry["cases"]) > 0
