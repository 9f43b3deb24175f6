"""The aid's calculator in the system Chromium (issue 34): the "other DRM" field (a DRM the chart
does not list, added on top as `chartc lookup --drm` adds it) and the selected cell of a grid
(IA2 R7, rows by period) marked in the printed table, on screen only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from compiler.engine.drms import evaluate
from compiler.engine.lookup import lookup
from tests.test_aid_live import (
    IA2_HTML,
    _field,
    _open,
    _panel,
    _watched_page,
)  # the Chromium fixture `browser` is tests/conftest.py's, started once per session


@pytest.fixture(scope="module")
def ia2(browser: Any) -> Iterator[Any]:
    for opened in _watched_page(browser):
        _open(opened, IA2_HTML)
        yield opened


def test_other_drm_is_added_on_top_of_the_charts_drms(ia2: Any, corpus) -> None:
    # IA2 R4 (7.1.10), piston-engined: natural 2 is a safe escape (2-); a +1 from a card makes it
    # a modified 3, combat (3+), as `chartc lookup ia2/R4 2 --drm 1` reads it
    r4 = _panel(ia2, "R4")
    _field(r4, "roll").fill("2")
    assert r4.locator(".live-result").text_content() == "Natural 2: 2- \u2192 Safe escape"
    _field(r4, "other").fill("+1")
    result = lookup(corpus.project.games["ia2"].chart("R4"), "2", {"interceptor": "piston"}, drm=1)
    assert result.row.values[0] == "Combat" and result.modified == 3
    assert r4.locator(".live-result").text_content() == "Natural 2 +1 = modified 3: 3+ \u2192 Combat"
    assert r4.locator(".live-breakdown").text_content() == "Other DRM +1."
    # with a DRM of the chart (F/B Attack +1, note 1): both, and their total
    _field(r4, "ctx.fb_attack").check()
    assert r4.locator(".live-breakdown").text_content() == "DRMs: F/B Attack +1 = +1; other DRM +1: total +2."
    assert r4.locator(".live-result").text_content() == "Natural 2 +2 = modified 4: 3+ \u2192 Combat"
    # a typed minus sign (U+2212) reads as "-"; text that is no number gives no answer
    _field(r4, "ctx.fb_attack").uncheck()
    _field(r4, "other").fill("\u22121")
    assert r4.locator(".live-result").text_content() == "Natural 2 \u22121 = modified 1: 2- \u2192 Safe escape"
    _field(r4, "other").fill("one")
    assert r4.locator(".live-result").text_content() == "No answer: other DRM: \u201cone\u201d is not a whole number."
    _field(r4, "other").fill("0")


def test_the_selected_cell_of_a_grid_is_marked_in_the_printed_table(ia2: Any) -> None:
    # IA2 R7 (10.6) prints one column per period: late 1944, natural 37 reads 04-56, Trained
    r7 = _panel(ia2, "R7")
    _field(r7, "key.period").select_option("late_1944")
    _field(r7, "roll").fill("37")
    row = r7.locator("tr.hit").get_attribute("data-row")
    cell = ia2.locator("#chart-r7 .chart-body td.hit")
    assert cell.count() == 1 and cell.get_attribute("data-row") == row
    assert cell.text_content().startswith("04-56")
    header = cell.locator("xpath=ancestor::tr/th").first.text_content()
    assert header == "Trained"
    _field(r7, "roll").fill("00")  # 100: no row (the transcription stops at 78)
    assert ia2.locator("#chart-r7 .chart-body td.hit").count() == 0


def test_a_drm_list_adds_up_the_drms_that_apply(ia2: Any, corpus) -> None:
    # IA2 B7, the Landing Chart's DRMs (a `drms` list: its table is on the cards): a forced
    # landing +1 (7.4.5), landing weather 2 points +2 (7.5, +1 per point), a Green pilot +1 (10.12)
    b7 = _panel(ia2, "B7")
    assert b7.locator(".live-result").text_content() == "Total DRM \u00b10."
    assert b7.locator("table.live-rows").count() == 0 and _field(b7, "roll").count() == 0
    _field(b7, "ctx.forced_landing").check()
    _field(b7, "ctx.weather_modifier").fill("2")
    _field(b7, "ctx.green_pilot").check()
    # the same total as the Python engine's
    chart = corpus.project.games["ia2"].chart("B7")
    context = {"forced_landing": True, "weather_modifier": 2, "green_pilot": True}
    assert evaluate(chart, context).total == 4
    assert b7.locator(".live-result").text_content() == "Total DRM +4."
    assert b7.locator(".live-breakdown").text_content() == (
        "DRMs: Forced (deadstick, emergency) landing +1, Landing weather other than good ([B9]) +2"
        " (2 \u00d7 +1), Green pilot (10.12) +1 = +4"
    )
    _field(b7, "other").fill("-1")  # a card's -1
    assert b7.locator(".live-result").text_content() == "Total DRM +3."
