"""The interactive aid by keyboard alone and through the accessibility tree (issue 34), in the system
Chromium (Playwright) from file://, with the tree read through the DevTools protocol
(`Accessibility.getPartialAXTree`, the names and live regions a screen reader is given).

Each check returns the defects it finds, and each is shown to fail: the same check runs on a copy of
the page with one defect planted in the copy's script (a control taken out of the Tab order with
`tabindex -1`, a label no longer tied to its control, the live region dropped, the selected cell no
longer marked current), and must name it.

- Tab order: Tab from the control before a panel reaches every control of the panel (pickers,
  checkboxes, fields, the Roll button) in document order, then leaves it.
- Keys: arrow keys change a picker, Space ticks a flag, Enter and Space press Roll, typing enters
  the roll; each changes the answer.
- Announced: the panel holds a live region (the tree's `live` property), and its text changes to
  the new answer after each key.
- Names: every control of every panel of the IA2 aid has an accessible name, unique in its panel.
- The selected cell of a printed grid (IA2 R7) and row of a printed row list (R4) carry
  `aria-current` (Chromium's tree does not report it: the DOM attribute is read).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compiler.engine.lookup import lookup
from tests.test_aid_live import (
    IA2_HTML,
    _field,
    _open,
    _panel,
    _watched_page,
)

CONTROLS = "input, select, button, textarea"

# the panel's controls a keyboard user must reach, in document order (disabled ones are skipped by
# the browser and read as such), and how each is known in the tests: its data-name, or "Roll"
_PANEL_CONTROLS = """(css) => {
  const panel = document.querySelector(css);
  return [...panel.querySelectorAll("CONTROLS")].filter((c) => !c.disabled)
    .map((c) => c.dataset.name || c.textContent);
}""".replace("CONTROLS", CONTROLS)

# focus the last control before the panel in document order (the start of a keyboard user's walk)
_FOCUS_BEFORE = """(css) => {
  const panel = document.querySelector(css);
  const before = [...document.querySelectorAll("a[href], CONTROLS, [tabindex]")].filter((e) =>
    !panel.contains(e) && !e.disabled && e.tabIndex >= 0 && e.getClientRects().length &&
    (e.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING));
  before[before.length - 1].focus();
  return document.activeElement === before[before.length - 1];
}""".replace("CONTROLS", CONTROLS)

_FOCUSED = """(css) => {
  const panel = document.querySelector(css);
  const e = document.activeElement;
  return e && panel.contains(e) ? (e.dataset.name || e.textContent) : null;
}"""


def panel_css(address: str) -> str:
    """The CSS selector of the calculator of a chart (by its address) or of a formula (by the
    anchor of its printed entry, `formula-...`)."""
    attribute = "data-formula" if address.startswith("formula-") else "data-chart"
    return f'.live[{attribute}="{address}"]'


@pytest.fixture(scope="module")
def ia2(browser: Any) -> Iterator[Any]:
    for opened in _watched_page(browser):
        _open(opened, IA2_HTML)
        yield opened


def _planted(browser: Any, tmp_path: Path, old: str, new: str) -> Iterator[Any]:
    """The IA2 aid with `old` in its script replaced by `new` (a defect), opened."""
    html = IA2_HTML.read_text(encoding="utf-8")
    assert html.count(old) == 1, old
    path = tmp_path / "planted.html"
    path.write_text(html.replace(old, new), encoding="utf-8")
    for opened in _watched_page(browser):
        _open(opened, path)
        yield opened


def tab_order_defects(page: Any, address: str) -> list[str]:
    """What a keyboard user cannot reach in the panel of `address` by Tab, or reaches out of order."""
    wanted = page.evaluate(_PANEL_CONTROLS, panel_css(address))
    assert wanted and page.evaluate(_FOCUS_BEFORE, panel_css(address))
    reached = []
    for _ in range(len(wanted) + 1):  # one more: the focus must leave the panel after its last control
        page.keyboard.press("Tab")
        reached.append(page.evaluate(_FOCUSED, panel_css(address)))
    defects = [f"not reached by Tab: {name}" for name in wanted if name not in reached]
    if reached[-1] is not None:
        defects.append(f"Tab stays in the panel after its last control: {reached[-1]}")
    seen = [name for name in reached if name is not None]
    if not defects and seen != wanted:
        defects.append(f"Tab order {seen}, document order {wanted}")
    return defects


def _ax_node(cdp: Any, selector: str) -> dict[str, Any]:
    """The accessibility tree's node of the element `selector` finds (its first)."""
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    nodes = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"]
    return nodes[-1]  # type: ignore[no-any-return]


_PROBE_CONTROLS = """(panel) => [...document.querySelectorAll(`${panel} :is(CONTROLS)`)]
  .map((c, i) => { c.dataset.axProbe = String(i); return c.dataset.name || c.tagName.toLowerCase(); })
""".replace("CONTROLS", CONTROLS)


def name_defects(page: Any, address: str) -> list[str]:
    """The panel's controls with no accessible name in the tree, or a name another control of the
    panel has too."""
    cdp = page.context.new_cdp_session(page)
    names: list[str] = []
    defects = []
    try:
        for i, known_as in enumerate(page.evaluate(_PROBE_CONTROLS, panel_css(address))):
            node = _ax_node(cdp, f'[data-ax-probe="{i}"]')
            name = (node.get("name") or {}).get("value", "").strip()
            if not name:
                defects.append(f"no accessible name: {known_as}")
            elif name in names:
                defects.append(f"accessible name twice in the panel: {name}")
            names.append(name)
    finally:
        page.evaluate("() => document.querySelectorAll('[data-ax-probe]').forEach((c) => delete c.dataset.axProbe)")
        cdp.detach()
    return defects


def live_region(page: Any, address: str) -> str | None:
    """The text of the panel's live region as the tree reports it (an element whose node has a
    `live` property of polite or assertive), or None when the panel has none."""
    cdp = page.context.new_cdp_session(page)
    try:
        for selector in ("p", "div", "span"):
            count = page.locator(f"{panel_css(address)} {selector}").count()
            for i in range(count):
                element = page.locator(f"{panel_css(address)} {selector}").nth(i)
                element.evaluate("e => { e.dataset.axProbe = 'live'; }")
                node = _ax_node(cdp, '[data-ax-probe="live"]')
                element.evaluate("e => { delete e.dataset.axProbe; }")
                live = {p["name"]: p["value"].get("value") for p in node.get("properties", ())}.get("live")
                if live in ("polite", "assertive"):
                    return element.text_content()  # type: ignore[no-any-return]
    finally:
        cdp.detach()
    return None


def _tab_to(page: Any, address: str, name: str, key: str = "Tab") -> bool:
    """Press Tab (or Shift+Tab) until the panel's control `name` has the focus, at most ten times."""
    for _ in range(10):
        page.keyboard.press(key)
        if page.evaluate(_FOCUSED, panel_css(address)) == name:
            return True
    return False


def operate_r4_by_keyboard(page: Any) -> list[str]:
    """IA2 R4 (7.1.10) operated with keys alone from the control before its panel, the live region
    read after each key. Returns the defects found on the way."""
    defects = []
    r4 = _panel(page, "R4")
    said = live_region(page, "R4")
    if said is None:
        return ["no live region in the panel"]
    page.evaluate(_FOCUS_BEFORE, panel_css("R4"))

    def heard(after: str, expected: str, before: str | None) -> str | None:
        now = live_region(page, "R4")
        if now == before or not (now or "").startswith(expected):
            defects.append(f"{after} announced {now!r}")
        return now

    if not _tab_to(page, "R4", "roll"):
        return ["Tab from before the panel does not reach the natural roll"]
    page.keyboard.type("2")
    # piston-engined (the first type), natural 2: 2- safe escape, as `chartc lookup ia2/R4 2` reads it
    said = heard("typing the roll", "Natural 2: 2- \u2192 Safe escape", said)
    if not _tab_to(page, "R4", "ctx.fb_attack", "Shift+Tab"):
        return [*defects, "Shift+Tab does not reach F/B Attack"]
    page.keyboard.press("Space")  # F/B Attack +1 (note 1): a modified 3, combat
    if not _field(r4, "ctx.fb_attack").is_checked():
        defects.append("Space did not tick F/B Attack")
    said = heard("Space on F/B Attack", "Natural 2 +1 = modified 3: 3+ \u2192 Combat", said)
    page.keyboard.press("Shift+Tab")  # the interceptor type: jet-engined, the next member
    page.keyboard.press("ArrowDown")
    if _field(r4, "key.interceptor").input_value() != "jet":
        defects.append("ArrowDown did not change the interceptor type")
    said = heard("ArrowDown on the interceptor type", "Natural 2 +1 = modified 3: ", said)
    if not _tab_to(page, "R4", "Roll"):
        return [*defects, "Tab does not reach the Roll button"]
    for key in ("Enter", "Space"):
        _field(r4, "roll").evaluate("c => { c.value = ''; c.dispatchEvent(new Event('input', {bubbles: true})); }")
        page.keyboard.press(key)
        typed = _field(r4, "roll").input_value()
        now = live_region(page, "R4")
        if not typed.isdigit() or not (now or "").startswith(f"Natural {typed} +1 = modified {int(typed) + 1}: "):
            defects.append(f"{key} on Roll entered {typed!r} and announced {now!r}")
    return defects


def selected_cell_defects(page: Any) -> list[str]:
    """IA2 R7 (10.6), late 1944, natural 37 (04-56, Trained) chosen with keys: the printed grid's
    cell marked current; and R4's printed row list's row."""
    defects = []
    r7 = _panel(page, "R7")
    _field(r7, "key.period").focus()
    _field(r7, "key.period").select_option("early_1943")
    while _field(r7, "key.period").input_value() != "late_1944":
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.keyboard.type("37")
    cell = page.locator("#chart-r7 .chart-body td.hit")
    current = page.locator("#chart-r7 .chart-body [aria-current]")
    if cell.count() != 1 or not (cell.text_content() or "").startswith("04-56"):
        defects.append("R7: no printed cell shown selected")
    elif cell.get_attribute("aria-current") != "true" or current.count() != 1:
        defects.append(f"R7: the selected cell is not marked current ({current.count()} marked)")
    page.keyboard.press("Control+a")
    page.keyboard.type("00")  # 100: no row (the transcription stops at 78): nothing is current
    if current.count():
        defects.append("R7: a cell is marked current with no row selected")
    r4 = _panel(page, "R4")
    _field(r4, "roll").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("5")
    row = page.locator("#chart-r4 .chart-body tr.hit")
    if row.count() != 1 or row.get_attribute("aria-current") != "true":
        defects.append("R4: the selected printed row is not marked current")
    return defects


# ---- the aid as built ---------------------------------------------------------------------------

# charts whose panels hold every kind of control: R4 a picker, flags, the errata toggle, the roll,
# Roll, the other DRM; R7 a percentile grid's period; B7 a DRM list's int fields and no roll;
# bodenplatte_flak a roll read in steps; a formula's calculator (IA2 7.7: a flag and an int)
PANELS = ("R4", "R7", "B7", "bodenplatte_flak", "formula-experience-points")


@pytest.mark.parametrize("address", PANELS)
def test_tab_reaches_every_control_of_a_panel_in_order(ia2: Any, address: str) -> None:
    assert tab_order_defects(ia2, address) == []


def test_every_control_of_every_panel_has_a_name(ia2: Any) -> None:
    addresses = ia2.evaluate("[...document.querySelectorAll('.live')].map((p) => p.dataset.chart || p.dataset.formula)")
    assert len(addresses) >= 50  # every roll chart, DRM list and formula of IA2
    found = {a: d for a in addresses if (d := name_defects(ia2, a))}
    assert found == {}


def test_r4_by_keyboard_alone_is_announced(ia2: Any, corpus) -> None:
    # the answers the live region must give are the Python engine's (`chartc lookup ia2/R4 2 --drm 1`)
    r4 = corpus.project.games["ia2"].chart("R4")
    assert lookup(r4, "2", {"interceptor": "piston"}, drm=0).row.values[0] == "Safe escape"
    assert lookup(r4, "2", {"interceptor": "piston"}, drm=1).row.values[0] == "Combat"
    assert operate_r4_by_keyboard(ia2) == []


def test_the_selected_cell_is_marked_current(ia2: Any) -> None:
    assert selected_cell_defects(ia2) == []


# ---- each check fails on its planted defect ------------------------------------------------------


def test_tab_check_fails_on_a_control_out_of_the_tab_order(browser: Any, tmp_path: Path) -> None:
    old = 'control.id = p.id + "-" + name;'
    for page in _planted(browser, tmp_path, old, old + ' if (name === "other") { control.tabIndex = -1; }'):
        assert tab_order_defects(page, "R4") == ["not reached by Tab: other"]


def test_name_check_fails_on_a_label_not_tied_to_its_control(browser: Any, tmp_path: Path) -> None:
    old = 'const lab = el("label", { for: control.id }, label);'
    new = 'const lab = el("label", name === "roll" ? {} : { for: control.id }, label);'
    for page in _planted(browser, tmp_path, old, new):
        assert name_defects(page, "R4") == ["no accessible name: roll"]


def test_name_check_fails_on_two_controls_of_one_name(browser: Any, tmp_path: Path) -> None:
    old = 'const lab = el("label", { for: control.id }, label);'
    new = 'const lab = el("label", { for: control.id }, name === "other" ? "natural roll (1d6)" : label);'
    for page in _planted(browser, tmp_path, old, new):
        assert name_defects(page, "R4") == ["accessible name twice in the panel: natural roll (1d6)"]


def test_announcement_check_fails_without_the_live_region(browser: Any, tmp_path: Path) -> None:
    old = 'const result = el("p", { class: "live-result", role: "status", "aria-live": "polite" });'
    for page in _planted(browser, tmp_path, old, 'const result = el("p", { class: "live-result" });'):
        assert operate_r4_by_keyboard(page) == ["no live region in the panel"]


def test_keyboard_check_fails_when_a_key_changes_nothing(browser: Any, tmp_path: Path) -> None:
    # the Roll button answers clicks only when pressed with a pointer (detail 0 is a key's click)
    old = "if (rollInput) rollButton.addEventListener(\"click\", () => {"
    new = "if (rollInput) rollButton.addEventListener(\"click\", (ev) => { if (ev.detail === 0) { return; }"
    for page in _planted(browser, tmp_path, old, new):
        defects = operate_r4_by_keyboard(page)
        assert [d.split(" entered")[0] for d in defects] == ["Enter on Roll", "Space on Roll"]


def test_current_check_fails_when_the_cell_is_not_marked(browser: Any, tmp_path: Path) -> None:
    old = 'if (on) { tr.setAttribute("aria-current", "true"); }'
    for page in _planted(browser, tmp_path, old, "if (on) { void tr; }"):
        assert selected_cell_defects(page) == [
            "R7: the selected cell is not marked current (0 marked)",
            "R4: the selected printed row is not marked current",
        ]
