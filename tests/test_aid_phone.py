"""The player aid on a phone (issue 34): the HTML `build` writes, opened in the system Chromium
(Playwright) at 390 x 844 CSS px with touch. The page has a viewport tag, nothing overflows the
page sideways (a wide table scrolls inside its own box, which takes the keyboard focus), table and
note text is at least 13 px, and the contents links are 44 px tap targets. Each check is shown to
fail on a planted defect (no viewport tag; a table box that does not scroll).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
MIN_TEXT_PX = 13.0  # table cells print 15 px and notes 13 px at phone width
TAP_PX = 44.0  # WCAG 2.5.5's target size

# what the page measures: its width against the window's, the smallest text, each table box that is
# wider than the window or does not scroll, and the contents links shorter than a tap target
MEASURE = """() => {
  const found = {width: document.documentElement.scrollWidth, window: window.innerWidth,
                 viewport: !!document.querySelector('meta[name="viewport"]'), small: [], boxes: [], taps: []};
  for (const cell of document.querySelectorAll('main td, main th, main .notes')) {
    const size = parseFloat(getComputedStyle(cell).fontSize);
    if (size < MIN_TEXT && cell.textContent.trim()) found.small.push(cell.textContent.trim().slice(0, 30) + ' ' + size);
  }
  for (const box of document.querySelectorAll('.scroll')) {
    const style = getComputedStyle(box);
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (box.getBoundingClientRect().right > window.innerWidth + 1) found.boxes.push('past the window');
    else if (wide && (style.overflowX !== 'auto' || box.tabIndex !== 0)) found.boxes.push('wide, not scrolling');
  }
  for (const a of document.querySelectorAll('nav.contents a')) {
    if (a.getBoundingClientRect().height < TAP) found.taps.push(a.textContent);
  }
  return found;
}""".replace("MIN_TEXT", str(MIN_TEXT_PX)).replace("TAP", str(TAP_PX))


@pytest.fixture(scope="module")
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def _measure(page: Any, path: Path) -> dict[str, Any]:
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return page.evaluate(MEASURE)  # type: ignore[no-any-return]


def _defects(found: dict[str, Any]) -> list[str]:
    defects = [] if found["viewport"] else ["no viewport tag"]
    if found["window"] > PHONE["viewport"]["width"]:  # type: ignore[index]
        defects.append(f"page laid out {found['window']} px wide")
    if found["width"] > found["window"]:
        defects.append(f"page {found['width']} px wide in a {found['window']} px window")
    defects += [f"text under {MIN_TEXT_PX} px: {s}" for s in found["small"][:3]]
    defects += [f"table box {b}" for b in found["boxes"][:3]]
    defects += [f"tap target under {TAP_PX} px: {t}" for t in found["taps"][:3]]
    return defects


@pytest.mark.parametrize("game", ["ia2", "usaaf"])
def test_the_aid_reads_on_a_phone(phone: Any, game: str) -> None:
    # IA2's R1 units and R2/R3 month grids and USAAF's 15-system Target Systems Planning Table are
    # wider than 390 px: they scroll in their boxes
    found = _measure(phone, ROOT / "generated" / game / f"{game}.html")
    assert _defects(found) == []
    assert found["width"] == 390


VIEWPORT_TAG = '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
SCROLL_RULE = ".scroll { overflow-x: auto; max-width: 100%; }"


@pytest.mark.parametrize(
    "planted, expected",
    [
        # without the tag the phone lays the page out 980 px wide, the phone rules (15 px text) do
        # not apply and the screen shrinks the page's 10 px cells to a third
        ((VIEWPORT_TAG, ""), ["no viewport tag", "page laid out 980 px wide", "text under 13.0 px"]),
        # a table box that does not scroll: the 15-system table pushes the page sideways
        ((SCROLL_RULE, ".scroll { }"), ["page ", "table box wide, not scrolling"]),
    ],
)
def test_the_phone_check_fails_on_a_planted_defect(
    phone: Any, tmp_path: Path, planted: tuple[str, str], expected: list[str]
) -> None:
    html = (ROOT / "generated" / "usaaf" / "usaaf.html").read_text(encoding="utf-8")
    assert planted[0] in html
    path = tmp_path / "planted.html"
    path.write_text(html.replace(planted[0], planted[1]), encoding="utf-8")
    defects = _defects(_measure(phone, path))
    assert all(any(d.startswith(e) for d in defects) for e in expected), defects
