"""The printed player aid: play order, legend, print sizes, PDF output, and real-browser layout.

The browser tests print each game's aid in headless Chromium (Debian's `chromium`) and read the
PDF back with poppler-utils; they skip when those are missing (`.ci/run` installs them). The
WeasyPrint tests cover the PDFs `chartc build --pdf` writes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.build.render import html_to_pdf, layout_pdf, render_outputs
from compiler.cli import cli
from compiler.emit.html.aid import AidPart, play_order, reference_title, rule_key
from compiler.emit.html.wording import month_text
from compiler.model import ChartKind
from dsl.aid_order import read_order
from tests import browser
from tests.conftest import ROOT, compile_text

# Pages of each game's aid in Chromium 156. A change that moves a page break shows up here: look
# at the PDFs, then update the number. Issue 17 (print layout): narrow charts side by side, wide
# tables in stacked blocks. Before it Chromium shrank the pages the R2/R3 month grids overflowed,
# so it printed IA2 in fewer pages (17 on A4, 18 in large print) than now that nothing overflows.
# USAAF's Target Systems Planning Table printed whole at normal size (8 to 7 pages), and in large
# print as two blocks that continue across a page (11 to 10, 13 to 11); IA2's tables without a
# chance column no longer keep room for one: in large print its Injury Effects table prints as one
# block instead of two (28 to 27 on A4, 30 to 29 on Letter). Issue 30 wrote IA2's rules as 70 more charts
# (docs/coverage/ia2.md): 45 pages on A4 (46 on Letter, 76 and 80 in large print).
CHROMIUM_PATCH_SLACK = 1
# Issue 34, the dense print (the default: two columns, 7.5 pt cells, notes run on under their
# chart, no colophon) took IA2 from 18 A4 pages to 8 (19 to 9 on Letter), USAAF 13 to 8, Stuka
# Leader 10 to 5, AA 5 to 3; large print keeps its layout, and its condensed notes and shorter
# months (`3/44`) took IA2 from 27 to 26 pages (29 to 27 on Letter) and AA on Letter 9 to 8; the
# Sequence of Play first (a page of its own in large print) took Stuka Leader from 17 to 16.
# `python scripts/aid_pages.py --chromium` counts them all (docs/records/printing.md).
# Merged with issue 30 (every rule of IA2, about 140 printed charts, and of Stuka Leader, about 120,
# transcribed as charts, and the limits printed after them), the dense print holds IA2 in 26
# Chromium A4 pages (45 in integb's layout; 8 before the rule charts: the rule charts, not the
# layout, are the 18 pages over the 8-page bound), Stuka Leader in 22 (42; 5 before).
# Issue 34, the two parts: the player aid proper (the charts the books print and the rolls of the
# rules, the sequence of play first) and the rules reference after it (issue 30's rules as charts).
# Each pin is (the aid's pages, the whole PDF's pages): IA2's aid is 6 A4 pages (the issue's bound
# is 8), Stuka Leader's 3 or 4, USAAF's 2, the AA excerpt's 1.
# Issue 30's record sets (enums with fields) as tables at the end of the rules reference, the aid
# proper unchanged (scripts/aid_pages.py --chromium, 2026-12-05): IA2 27, 27, 79, 81 to 32, 32, 92, 95;
# USAAF 8, 9, 26, 27 to 9, 9, 27, 28; Stuka Leader 23, 24, 70, 74 to 23, 25, 71, 74.
# After this session's merges (the computed values, the record sets and the partial items' choice
# columns together), every pin below is `scripts/aid_pages.py --chromium` (and `--landscape`), 2026-12-05.
EXPECTED_PAGES = {
    "ia2": {
        ("a4", False): (6, 32), ("letter", False): (6, 32),
        ("a4", True): (20, 92), ("letter", True): (21, 95),
    },
    "usaaf": {
        ("a4", False): (2, 9), ("letter", False): (2, 9),
        ("a4", True): (6, 28), ("letter", True): (6, 29),
    },
    # the Legendary decision, HO OR Pilot and the Event penalty as choices (three columns of rule charts):
    # A4 large print 13 + 57 to 13 + 58
    "stuka_leader": {
        ("a4", False): (4, 23), ("letter", False): (4, 25),
        ("a4", True): (14, 73), ("letter", True): (14, 75),
    },
    "aa_rules": {
        ("a4", False): (1, 3), ("letter", False): (1, 3),
        ("a4", True): (4, 10), ("letter", True): (4, 10),
    },
}
# Issue 30's readings (the unclear print as charts and findings): USAAF 7, 7, 23, 24 to 8, 8, 24, 26 and
# the AA excerpt 3, 3, 8, 8 to 3, 3, 10, 10, in both engines (scripts/aid_pages.py --chromium aa_rules usaaf).
# Issue 30 took USAAF from 7 pages to 13 (A4) and the AA excerpt from 4 to 5: the rules beyond the
# tables as charts (what a hex allows, what the players may do, air combat, fog of war, the mapsheet's
# CRT cell, ...), in both engines.
# Issue 30 took Stuka Leader from 10 to 42 pages on A4 (11 to 44 on Letter, 17 to 68 and 71 in large
# print): every rule the rulebook prints is a chart of the aid now (docs/coverage/stuka_leader.md).
# WeasyPrint 70 (what `chartc build --pdf` writes) lays text out a little larger than Chromium, so
# the two engines have their own page counts; both are pinned so a layout change is noticed.
# Issue 17 took IA2 from 19 to 18 pages on A4 (21 to 19 on Letter; 28 in A4 large print with
# issue 15's firepower column, merged after it);
# USAAF grew from 8 to 9 (11 to 13 in large print) because its Target Systems Planning Table and
# Escort Missions table, cut at the right edge before, printed as stacked blocks; with the Target
# Systems Planning Table whole at 8 pt it takes 7 (9 to 7 on Letter; in large print, its two blocks
# continuing across a page and the Escort Missions table in one block, 13 to 10 and 14 to 11); IA2
# in large print 28 to 27 (29 to 28 on Letter), as in Chromium.
# Issue 34 (the dense print): IA2 8 A4 pages (the bound), 9 Letter; large print 26 and 27.
# Issue 30's rule charts in the dense print (WeasyPrint, measured by scripts/aid_pages.py on
# 2026-12-04): IA2 27 A4 pages (45 in integb's layout), 28 Letter; large print 86 and 89 (87, 92);
# Stuka Leader 22 and 23 (44, 46), large print 73 and 76 (72, 76); USAAF 7, 7, 23, 24 (13, 15, 24, 24).
EXPECTED_PAGES_WEASYPRINT = {
    # issue 34's two parts: IA2 25 A4 pages to 6 + 19 (27 to 6 + 19, 85 to 22 + 61, 89 to 23 + 64);
    # merged with IA2's limits, choices and conflicts (the reference): 6 + 22, 6 + 22, 22 + 67, 23 + 69;
    # chart bodies as blocks in the dense print (issue 35: no flexbox around a lone table): the
    # reference's columns fill better, 6 + 20, 6 + 21 (the same words in the PDF, two pages fewer)
    # issue 30's record sets at the end of the reference (the aid unchanged): 6 + 25, 6 + 26, 22 + 80, 23 + 83
    "ia2": {
        ("a4", False): (6, 31), ("letter", False): (6, 32),
        ("a4", True): (22, 102), ("letter", True): (23, 106),
    },
    # USAAF 7 to 2 + 6 (7 to 2 + 6, 23 to 5 + 19, 24 to 5 + 20)
    # the computed values printed after the aid's charts (issue 34, formulas): large print 5 + 20 to 6 + 20
    "usaaf": {
        ("a4", False): (2, 9), ("letter", False): (2, 9),
        ("a4", True): (6, 27), ("letter", True): (6, 28),
    },
    # Stuka Leader 22 to 3 + 18 (23 to 4 + 19, 73 to 14 + 58, 76 to 14 + 60)
    # Stuka Leader with the board's adjacency (area_adjacent, in the reference): 3 + 19, 4 + 20, 14 + 58, 14 + 62
    # with its fourteen computed values after the aid's charts (issue 34): 4 + 19, 4 + 20, 15 + 58, 15 + 62
    "stuka_leader": {
        ("a4", False): (4, 23), ("letter", False): (4, 24),
        ("a4", True): (15, 76), ("letter", True): (15, 78),
    },
    # with its three computed values: large print 3 + 5 to 4 + 5
    "aa_rules": {
        ("a4", False): (1, 3), ("letter", False): (1, 3),
        ("a4", True): (4, 9), ("letter", True): (4, 9),
    },
}
# Large print may take a second page for a chart taller than a page (research note, layout rule
# L8). Only IA2's R1 units (`starting_unit_bases`) are: eight columns at 12 pt plus the seven
# footnotes the book prints under R1. Its table header repeats on the second page (<thead>); at
# normal size it fits one page.
# Stuka Leader's Sequence of Play (`sequence_of_play`) is too: 27 steps at 12 pt.
# USAAF's Target Systems Planning Table (26 cities by 15 systems, 20.1-20.3) prints as two blocks of
# columns at 12 pt, each most of a page tall: it starts where it is and continues on the next page
# between blocks, with its notes under the second block (`chart loose`). Each such chart with the
# most pages it may take; a page it continues on names it in the running header ("..., continued").
TALLER_THAN_A_PAGE_IN_LARGE_PRINT = {
    "chart-starting_unit_bases": 2,
    "chart-sequence_of_play": 2,
    "chart-target_systems": 2,
    # Stuka Leader's rules printed as text at 12 pt (issue 30): the Counters, the Optional Rules and the
    # Aircraft Reactions run to a third page in WeasyPrint, the others to a second
    "chart-counters": 3,
    "chart-optional_rules": 3,
    "chart-aircraft_reactions": 3,
    "chart-pilot_counters": 2,
    "chart-special_targets": 2,
    "chart-attack_results": 2,
    "chart-engagement": 2,
    # Stuka Leader's Key Terms with HO OR Pilot as a one-of choice (issue 30's partial items): a third page
    "chart-key_terms": 3,
    # IA2's rules written as charts of text (issue 30): the Game Play Outline (6.1), the changes to random
    # hits, fighter combat (7.2), the Initiative Chart's DRMs and notes, aircraft damage (7.4), the awards
    # (7.8), the costs of changing aircraft (4.6, 8.1, 9.0) and the 1943-44 errata at 12 pt
    "chart-game_play_outline": 3,
    "chart-hit_changes": 3,
    "chart-fighter_combat": 3,
    "chart-b12": 3,
    "chart-damage_results": 3,
    "chart-awards": 3,
    "chart-aircraft_changes": 3,
    "chart-ia1_errata": 3,
    # IA2's decisions the rules leave to the player (charts/ia2/choices.chart): 3 A4 pages, 4 Letter
    "chart-decisions": 4,
}
# In the dense print every chart fits one page (the Target Systems Planning Table prints whole
# across the page at 7.5 pt, half a page tall).
TALLER_THAN_A_PAGE_AT_NORMAL_SIZE: dict[str, int] = {
    # the dense print keeps a chart whole in its column; IA2's rule charts below (issue 30: columns of
    # the rules' sentences) are taller than a column and continue on the next page; IA2's first page
    # is left nearly empty by the first one (the fix: let a chart taller than a column break)
    "chart-game_play_outline": 2,
    "chart-awards": 2,
    "chart-aircraft_changes": 2,
    # IA2's decisions the rules leave to the player (issue 30: charts/ia2/choices.chart, 16 rows of the rules' words)
    "chart-decisions": 2,
    # Stuka Leader's Key Terms (the book's glossary as rows) since HO OR Pilot became a one-of choice:
    # taller than a Letter column, it continues on the next page (A4 still holds it)
    "chart-key_terms": 2,
}
# Landscape pages (`--landscape`) in WeasyPrint: up to three narrow charts a row, rows across
# groups, wide tables whole. A landscape page is 182 mm tall (A4) against a portrait page's 269 mm,
# and rows are kept whole, so the aids take more pages than on portrait paper.
EXPECTED_PAGES_WEASYPRINT_LANDSCAPE = {
    # issue 34: the dense print flows three columns (IA2 22 pages to 9); large print keeps two
    # charts a row, its notes condensed (IA2 35 to 32)
    # merged with issue 30's rule charts (2026-12-04): IA2 9 to 32 pages (58 in integb's layout);
    # issue 34's two parts (the aid's pages, all pages): IA2 32 to 7 + 24 (33 to 8 + 27, 96 to 25 + 71, 95 to 25 + 70)
    # chart bodies as blocks in the dense print (issue 35): IA2 7 + 26 to 7 + 25, 8 + 30 to 7 + 28;
    # Stuka Leader on Letter 5 + 21 to 5 + 20
    # the first chart may run on into the next column (IA2's page 1 no longer empty): 7 + 25 to 6 + 25, 7 + 28 to 6 + 28
    # issue 30's record sets at the end of the reference (scripts/aid_pages.py --chromium --landscape,
    # 2026-12-05; every aid proper unchanged): IA2 6 + 31, 6 + 34, 25 + 91, 25 + 89; USAAF 2 + 9, 2 + 9,
    # 6 + 24, 6 + 24; Stuka Leader 5 + 21, 5 + 22, 19 + 69, 19 + 72
    "ia2": {
        ("a4", False): (6, 37), ("letter", False): (6, 40),
        ("a4", True): (26, 117), ("letter", True): (26, 115),
    },
    "usaaf": {
        ("a4", False): (3, 12), ("letter", False): (3, 12),
        ("a4", True): (8, 32), ("letter", True): (8, 32),
    },
    # Stuka Leader with the board's adjacency (area_adjacent): 5 + 20, 5 + 21, 19 + 69, 19 + 72
    # with the three choice columns (promotion, key_terms, so_rules): 5 + 21, 5 + 22, 19 + 71, 19 + 73
    "stuka_leader": {
        ("a4", False): (5, 26), ("letter", False): (5, 27),
        ("a4", True): (20, 91), ("letter", True): (20, 93),
    },
    "aa_rules": {
        ("a4", False): (2, 4), ("letter", False): (2, 4),
        ("a4", True): (5, 11), ("letter", True): (5, 11),
    },
}
# At normal size every chart fits a landscape page; in large print the charts taller than a portrait
# page are taller than a landscape one too, and Stuka Leader's 27 steps take three Letter pages.
TALLER_THAN_A_LANDSCAPE_PAGE = {
    # the dense print's three columns on a landscape page are shorter than a portrait column: the rule
    # charts of issue 30 (columns of the rules' sentences) continue on the next page
    **TALLER_THAN_A_PAGE_AT_NORMAL_SIZE,
    "chart-orientations": 2,  # IA2 7.1.1-7.1.2's orientations, taller than a Letter landscape column
    "chart-special_targets": 2,  # Stuka Leader's special targets' set-up and movement, in sentences
    "chart-bomber_combat": 2,
    "chart-hit_changes": 2,
    "chart-fighter_combat": 2,
    "chart-damage_results": 2,
    "chart-setup_sequence": 2,
    "chart-ia1_errata": 2,
    "chart-counters": 2,
    "chart-engagement": 2,
    "chart-key_terms": 2,
    "chart-attack_results": 2,
    "chart-aircraft_reactions": 2,
    "chart-conduct_movement": 2,
    # the first chart of a dense flow may run on into the next column (IA2's page 1, issue 34): after
    # this session's merges Stuka Leader's Optional Rules (A4) and its area adjacency grid (Letter)
    # open a landscape flow and continue on the next page
    "chart-optional_rules": 2,
    "chart-area_adjacent": 2,
}
TALLER_THAN_A_LANDSCAPE_PAGE_IN_LARGE_PRINT = {
    **TALLER_THAN_A_PAGE_IN_LARGE_PRINT,
    "chart-sequence_of_play": 3,
    # Stuka Leader (issue 30): the Gun Attack beside its DRM box, and its rules printed as text
    "chart-gun_attack": 3,
    "chart-special_targets": 3,
    "chart-attack_results": 3,
    "chart-engagement": 3,
}
LAYOUTS = [("a4", False), ("letter", False), ("a4", True), ("letter", True)]
MIN_MARGIN_MM = 10  # layout rule L3


def _expected_pages(game, paper: str, large: bool) -> int | None:
    return EXPECTED_PAGES.get(game.id, {}).get((paper, large))


def _section_ids(html: str) -> list[str]:
    return re.findall(r'<section class="chart[^"]*" id="([^"]+)">', html)  # `chart loose` in large print


# --- play order -------------------------------------------------------------------------------

TWO_SECTIONS = (
    'game t { title "T" }\n'
    'chart [V1] "Victory" { rule "5.2" roll 1d6 column r: text "R" rows { 1-6: "win" } }\n'
    'chart [C2] "Combat late" { rule "7.10" roll 1d6 column r: text "R" rows { 1-6: "x" } }\n'
    'chart [C1] "Combat early" { rule "7.9" roll 1d6 column r: text "R" rows { 1-6: "x" } }\n'
    'chart misc "No rule" { roll 1d6 column r: text "R" rows { 1-6: "x" } }\n'
)


def test_rule_key_orders_section_numbers_numerically() -> None:
    cites = ["10.16", "7.1.10", "7.1.7", "6.1, 7.5", None, "5.2.1"]
    assert sorted(cites, key=rule_key) == ["5.2.1", "6.1, 7.5", "7.1.7", "7.1.10", "10.16", None]


def test_default_order_follows_rule_sections(tmp_path: Path) -> None:
    game = compile_text(tmp_path, TWO_SECTIONS).project.games["t"]
    groups = play_order(game)
    assert [(g.heading, [c.address for c in g.charts], g.part) for g in groups] == [
        ("Rules 5", ["V1"], AidPart.AID), ("Rules 7", ["C1", "C2"], AidPart.AID),
        ("Other charts", ["misc"], AidPart.AID),
    ]


RULES_AS_CHARTS = (
    TWO_SECTIONS
    + 'chart moves "Moving" { rule "6.2" key unit column how: text "How" rows { any: "one hex" } }\n'
    + 'chart [T1] "Terrain" { rule "8.1" key unit column cost: text "Cost" rows { any: "1" } }\n'
    + 'chart turn "Sequence of Play" { rule "3.0" key unit column step: text "Step" rows { any: "move" } }\n'
).replace('game t { title "T" }\n', 'game t { title "T" }\nenum unit "Unit" { any "Any unit" }\n')


def test_without_an_order_file_the_rules_as_charts_form_the_rules_reference(tmp_path: Path) -> None:
    # issue 34: the sequence of play, the charts the book prints with a chart ID and the charts read
    # by dice make the player aid; a rule written as a chart (no ID, read by its keys) the reference
    game = compile_text(tmp_path, RULES_AS_CHARTS).project.games["t"]
    groups = play_order(game)
    assert [(g.heading, [c.address for c in g.charts], g.part) for g in groups] == [
        ("Sequence of Play", ["turn"], AidPart.AID),
        ("Rules 5", ["V1"], AidPart.AID), ("Rules 7", ["C1", "C2"], AidPart.AID), ("Rules 8", ["T1"], AidPart.AID),
        ("Other charts", ["misc"], AidPart.AID),
        ("Rules 6", ["moves"], AidPart.REFERENCE),
    ]
    html = render_outputs(compile_text(tmp_path, RULES_AS_CHARTS).project)["t/t.html"]
    reference = html[html.index('<div class="part reference" id="reference"'):]
    assert _section_ids(html[: len(html) - len(reference)]) == [
        "chart-turn", "chart-v1", "chart-c1", "chart-c2", "chart-t1", "chart-misc"]
    assert _section_ids(reference) == ["chart-moves"] and "<h1>Rules reference</h1>" in reference
    # its own running header, after a page break
    assert '@page reference { @top-right { content: "Rules\\000020reference"; } }' in html
    assert "div.part.reference { break-before: page; page: reference; }" in html
    assert 'header.aid.reference { string-set: continued ""; }' in html


def test_the_sequence_of_play_opens_an_aid_without_an_order_file(corpus) -> None:
    # issue 34: Stuka Leader printed its Sequence of Play 34th of 37; the book prints it first
    groups = play_order(corpus.project.games["stuka_leader"])
    # issue 30 transcribed the steps' section headings (L266-L631) as a chart titled "Sequence of Play:
    # section headings": it follows the summary
    assert (groups[0].heading, [c.address for c in groups[0].charts]) == (
        "Sequence of Play",
        ["sequence_of_play", "step_headings"],
    )
    # its 9 rolls (Safe Landing, Bail Out!, Gun Attack, ...) and 6 DRM lists follow in the aid (the book
    # prints no chart IDs), the rules as charts in the reference
    aid = [c for g in groups if g.part is AidPart.AID for c in g.charts]
    assert [sum(c.kind is kind for c in aid[2:]) for kind in (ChartKind.ROLL, ChartKind.DRMS)] == [9, 6]
    assert len(aid) == 17
    assert groups[1].heading == "Rules 21" and [c.ident for c in groups[1].charts] == ["safe_landing"]


def test_order_file_sets_groups_and_keeps_unlisted_charts(tmp_path: Path) -> None:
    game = compile_text(tmp_path, TWO_SECTIONS).project.games["t"]
    groups = play_order(game, read_order("# sequence of play\n== Combat\nC2\nc1  # by ID, any case\n== End\nV1\n", "t"))
    assert [(g.heading, [c.address for c in g.charts], g.part) for g in groups] == [
        ("Combat", ["C2", "C1"], AidPart.AID), ("End", ["V1"], AidPart.AID),
        ("Other charts", ["misc"], AidPart.REFERENCE),
    ]


def test_order_file_divides_the_aid_from_the_rules_reference(tmp_path: Path) -> None:
    game = compile_text(tmp_path, TWO_SECTIONS).project.games["t"]
    order = read_order("== Combat\nC1\n--- The rules\n== End\nV1\nC2\n", "t")
    assert reference_title(order) == "The rules" and reference_title(read_order("--- \n", "t")) == "Rules reference"
    groups = play_order(game, order)
    assert [(g.heading, [c.address for c in g.charts], g.part) for g in groups] == [
        ("Combat", ["C1"], AidPart.AID), ("End", ["V1", "C2"], AidPart.REFERENCE),
        ("Other charts", ["misc"], AidPart.REFERENCE),
    ]


@pytest.mark.parametrize("text", ["Z9\nV1\n", "V1\nV1\n"])
def test_the_aid_skips_order_lines_the_check_reported(tmp_path: Path, text: str) -> None:
    # C416 reports an unknown or repeated chart (test_bad_order_file_fails_the_build); the emitter
    # does not validate the file a second time
    game = compile_text(tmp_path, TWO_SECTIONS).project.games["t"]
    groups = play_order(game, read_order(text, "t"))
    assert (groups[0].heading, [c.address for c in groups[0].charts]) == (None, ["V1"])


def test_bad_order_file_fails_the_build(tmp_path: Path, monkeypatch) -> None:
    compile_text(tmp_path, TWO_SECTIONS)
    (tmp_path / "charts" / "t" / "aid.order").write_text("R99\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["build", "charts"])
    assert r.exit_code == 1 and "charts/t/aid.order:1:1: error[C416]" in r.output and "nothing was written" in r.output
    assert not (tmp_path / "generated").exists()


def test_ia2_aid_follows_the_sequence_of_play(corpus, corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    reference = html[html.index('<div class="part reference" id="reference"'):]
    aid = _section_ids(html[: len(html) - len(reference)])
    # issue 34: the Game Play Outline (6.1) opens the aid, then the weather roll (B9)
    assert aid[:2] == ["chart-game_play_outline", "chart-b9"]
    # setup, used once, near the end; the player aid holds the book's charts and the rolls of the rules
    assert aid[-4:] == ["chart-victory_points", "chart-r1", "chart-r2", "chart-r3"]
    assert {"chart-r4", "chart-r5", "chart-r6", "chart-r7", "chart-r8", "chart-r9", "chart-extended_burst",
            "chart-range_effects", "chart-allied_fighter_skills"} < set(aid)
    # the rules as charts in the reference, under the same headings, the 1943-44 errata at the end of the book
    ids = _section_ids(reference)
    errata = ids.index("chart-ia1_errata")
    assert ids[errata + 1] == "chart-ia1_allied_ammo" and ids[errata + 2:] == [
        "chart-a3_july_1944", "chart-b3_in_examples", "chart-b6_in_examples", "chart-r2_september_1944",
        "chart-r3_august_1944", "chart-r3_september_1944"]  # and the results the book's examples read
    assert "chart-starting_unit_bases" in ids and "chart-fighter_combat" in ids
    # the limits and allowances (4.3.3's sorties a month, ...) print after the charts, at the end of the reference
    assert html.index('<div class="rule-limits" id="limits">') > html.index('id="chart-ia1_allied_ammo"')
    printed = [c for c in corpus.project.games["ia2"].charts if c.kind != "external"]  # B3, B6, P1 are not in the book
    assert sorted(aid + ids) == sorted("chart-" + c.ident for c in printed)
    assert html.count('<h2 class="group">Combat (7.1-7.3)</h2>') == 2  # once in each part


# --- markup and print sizes ---------------------------------------------------------------------


def _css_var(html: str, name: str) -> float:
    return float(re.search(rf"--{name}: ([\d.]+)pt", html).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize("large", [False, True])
def test_type_sizes_meet_the_print_floor(corpus_outputs, large: bool) -> None:
    html = corpus_outputs("a4", large)["ia2/ia2.html"]
    cell, note = _css_var(html, "cell"), _css_var(html, "note")
    # issue 34: the dense print sets cells at 7.5 pt and notes at 7 pt (the floor)
    assert cell >= (12 if large else 7.5) and note >= (10 if large else 7)
    # every font size in the stylesheet is one of the variables or at least the note floor
    for size in re.findall(r"font(?:-size)?: ([\d.]+)pt", html):
        assert float(size) >= 7


def test_every_header_cell_has_a_scope(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    assert re.findall(r"<th(?=[\s>])(?![^>]*scope=\"(?:col|row)\")[^>]*>", html) == []
    # header rows are in <thead> so they repeat on a second page (L5)
    for table in re.findall(r"<table>(.*?)</table>", html, re.S):
        assert table.startswith("\n<thead>") and 'scope="col"' not in table.split("</thead>", 1)[1]


def test_legend_names_the_symbols_each_chart_uses(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    sections = dict(re.findall(r'<section class="chart" id="([^"]+)">(.*?)</section>', html, re.S))
    assert "<dt>20+</dt><dd>20 or more</dd>" in sections["chart-r6"]
    assert "<dt>0</dt><dd>the 0 face of a d10 counts as 10</dd>" in sections["chart-allied_fighter_skills"]
    assert "<dt>\u2013</dt>" in sections["chart-victory_points"]
    assert "<dt>3+</dt><dd>3 or more</dd>" in sections["chart-r4"]  # the errata's open end
    assert 'class="legend"' not in sections["chart-r5"]  # nothing to explain


def test_colour_never_carries_meaning_alone(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    colours = set(re.findall(r"#[0-9a-fA-F]{3,6}\b", html))
    greys = {c for c in colours if len(set(c[1:].lower())) == 1}
    # only greys, plus the Okabe-Ito blue for links on screen (printed in black)
    assert colours - greys == {"#0072b2"}
    assert re.search(r"@media print \{\s*a \{ color: inherit;", html)


# --- PDF through WeasyPrint (chartc build --pdf) ----------------------------------------------


@pytest.fixture(scope="module")
def weasyprint():
    if os.environ.get("CHARTC_REQUIRE_BROWSER") == "1":
        import weasyprint

        return weasyprint
    return pytest.importorskip("weasyprint", reason="WeasyPrint is not installed: pip install -e '.[pdf]'")


# Printing IA2 costs about thirty seconds of CPU per layout in WeasyPrint, ten in Chromium. The
# default run prints each extreme of page count once, for the two smaller games: A4 at normal size
# in WeasyPrint (what `chartc build --pdf` writes by default) and Letter in large print in Chromium
# (the most pages). USAAF is one of them because its two widest tables print as stacked blocks.
# `pytest -m slow` prints every game in all four layouts in both engines. USAAF in WeasyPrint (25 s
# of CPU for 7 pages since the dense print's CSS columns, a quarter of the default run's budget) is
# printed in the slow run; its stacked blocks are held by the wide month grid's WeasyPrint test below.
WEASYPRINT_DEFAULT_LAYOUTS = [("a4", False)]
CHROMIUM_DEFAULT_LAYOUTS = [("letter", True)]
DEFAULT_PRINT_GAMES = frozenset({"aa_rules", "usaaf"})
WEASYPRINT_DEFAULT_GAMES = frozenset({"aa_rules"})
OTHER_PRINT_GAMES = frozenset(EXPECTED_PAGES) - DEFAULT_PRINT_GAMES
# Landscape (`--landscape`): the slow run prints every game in the four layouts (the default run's
# CPU budget keeps one landscape check, `test_landscape_puts_three_charts_a_row_and_prints_wide_tables_whole`).
LANDSCAPE_DEFAULT_GAMES = frozenset({"aa_rules"})
WEASYPRINT_LAYOUTS = [
    pytest.param(paper, large, False, WEASYPRINT_DEFAULT_GAMES, id=f"{paper}-{large}-aa_rules")
    for paper, large in WEASYPRINT_DEFAULT_LAYOUTS
] + [
    pytest.param("a4", False, True, LANDSCAPE_DEFAULT_GAMES, marks=pytest.mark.slow, id="a4-landscape-False-aa_rules")
] + [
    pytest.param(
        paper, large, landscape, games, marks=pytest.mark.slow,
        id=f"{paper}{'-landscape' if landscape else ''}-{large}-{'+'.join(sorted(games))}",
    )
    for landscape, defaults, default_games in (
        (False, WEASYPRINT_DEFAULT_LAYOUTS, WEASYPRINT_DEFAULT_GAMES), (True, [("a4", False)], LANDSCAPE_DEFAULT_GAMES)
    )
    for paper, large in LAYOUTS
    for games in [frozenset(EXPECTED_PAGES) - (default_games if (paper, large) in defaults else frozenset())]
]


@pytest.mark.parametrize("paper, large, landscape, games", WEASYPRINT_LAYOUTS)
def test_weasyprint_pdf_keeps_each_chart_whole_and_inside_the_margins(
    corpus, corpus_outputs, weasyprint, tmp_path: Path, paper: str, large: bool, landscape: bool, games: frozenset[str]
) -> None:
    """The PDF `chartc build --pdf` writes (`layout_pdf` is its one writer): no chart split across
    pages, every word inside the 10 mm margins (IA2 R2/R3's 14 month columns were cut at the right
    edge before they were reflowed into blocks), the pinned page counts, and on every page a chart
    continues on (only there) the running header naming it. The default run prints AA Rules on A4;
    USAAF's A4 print (about 25 s of CPU) moved to the slow run with the other games and layouts."""
    for rel, html in corpus_outputs(paper, large, landscape).items():
        if not rel.endswith(".html") or rel.split("/")[0] not in games:
            continue
        game = corpus.project.games[rel.split("/")[0]]
        document, pdf = layout_pdf(html)
        seen: dict[str, set[int]] = {}
        for number, page in enumerate(document.pages, 1):
            for box in _boxes(page._page_box):
                element = getattr(box, "element", None)
                if getattr(box, "element_tag", None) == "section" and element is not None:
                    seen.setdefault(element.get("id"), set()).add(number)
        split = {k: v for k, v in seen.items() if len(v) != 1}
        allowed = _taller_than_a_page(large, landscape)
        assert set(split) <= set(allowed), f"charts split across pages: {split}"
        # on consecutive pages, no more than the chart's allowance
        assert all(len(v) <= allowed[k] and max(v) - min(v) == len(v) - 1 for k, v in split.items()), split
        assert sorted(seen) == sorted(_section_ids(html))
        pins = EXPECTED_PAGES_WEASYPRINT_LANDSCAPE if landscape else EXPECTED_PAGES_WEASYPRINT
        expected = pins.get(game.id, {}).get((paper, large))
        pages = len(document.pages)
        # the player aid proper, then the rules reference from the page its heading opens (issue 34)
        aid = next((n for n, page in enumerate(document.pages) if "reference" in page.anchors), pages)
        assert (aid, pages) == expected if expected else pages <= len(game.charts) + 1, f"{game.id}: {aid}, {pages}"
        if shutil.which("pdftotext"):
            path = tmp_path / f"{game.id}.pdf"
            path.write_bytes(pdf)
            assert internal_names(browser.pdf_text(path), corpus.project.games) == [], game.id
            near = browser.words_near_the_edge(path, MIN_MARGIN_MM)
            assert near == [], f"{game.id} {paper} large={large}: text near the edge: {near[:5]}"
            titles = {"chart-" + c.ident: c.title for c in game.charts}
            heads = browser.header_texts(path)
            continued = {n: h for n, h in enumerate(heads, 1) if "continued" in h}
            expected_heads = {n: titles[k] for k, v in split.items() for n in sorted(v)[1:]}
            assert sorted(continued) == sorted(expected_heads), (continued, split)
            assert all(f"{expected_heads[n]}, continued" in h for n, h in continued.items()), continued
            # the aid's pages say "Player aid" in their running header, the reference's "Rules reference"
            assert [("Player aid" in h, "Rules reference" in h) for h in heads] == [
                (n <= aid, n > aid) for n in range(1, pages + 1)], heads


# what players never read on paper (issue 34): the tools that made the aid
TOOL_NAMES = ("chartc", "weasyprint", "chromium", "pdftotext", "jinja")


def internal_names(text: str, game_ids) -> list[str]:
    """The names in a printed aid's text that players do not read: an identifier with an
    underscore (`ability_fatigue`), a chart address `game/chart` (`usaaf/crt_odds`), a backticked
    name, a tool's name."""
    games = "|".join(map(re.escape, sorted(game_ids)))
    tools = "|".join(TOOL_NAMES)
    return re.findall(rf"\S*\w_\w\S*|\b(?:{games})/\S+|`[^`\n]*`?|\b(?:{tools})\b", text, re.I)


PLANTED_NAMES = (
    'game t { title "T" }\n'
    'chart [V1] victory_roll "Victory" { rule "5.2" roll 1d6 column r: text "R" rows { 1-6: "win" }\n'
    '  note "See [victory_roll] and `victory_roll`; NOTE" }\n'
)


@pytest.mark.parametrize(
    "note, found",
    [
        ("See [victory_roll] and `victory_roll`.", []),  # a chart's slug prints as its ID or title
        ("See fire_first_step.", ["fire_first_step."]),
        ("As t/nochart says.", ["t/nochart"]),  # a chart the game does not declare
        ("Made by chartc.", ["chartc"]),
        ("A `-` cell.", []),  # a backticked symbol prints in quotes
    ],
)
def test_the_pdf_text_names_nothing_players_do_not_read(tmp_path: Path, weasyprint, note: str, found) -> None:
    """The check reads the PDF back (`pdftotext`) and fails on a planted identifier; what the aid
    words for players (`wording.for_players`) passes it."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) reads the PDF back")
    comp = compile_text(tmp_path, PLANTED_NAMES.replace("See [victory_roll] and `victory_roll`; NOTE", note))
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(html_to_pdf(render_outputs(comp.project)["t/t.html"]))
    assert internal_names(browser.pdf_text(pdf), comp.project.games) == found


def _taller_than_a_page(large: bool, landscape: bool) -> dict[str, int]:
    """The charts that may run onto another page in a layout, with the most pages each may take."""
    if landscape:
        return TALLER_THAN_A_LANDSCAPE_PAGE_IN_LARGE_PRINT if large else TALLER_THAN_A_LANDSCAPE_PAGE
    return TALLER_THAN_A_PAGE_IN_LARGE_PRINT if large else TALLER_THAN_A_PAGE_AT_NORMAL_SIZE


def _boxes(box):
    yield box
    for child in getattr(box, "children", None) or []:
        yield from _boxes(child)


@pytest.mark.slow  # two in-process PDF builds of every game: about 25 s of CPU
def test_build_pdf_is_byte_identical_and_check_leaves_pdfs_alone(tmp_path: Path, weasyprint, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    pdfs = []
    for run in ("one", "two"):
        r = runner.invoke(cli, ["build", "--pdf", "--out", str(tmp_path / run)], catch_exceptions=False)
        assert r.exit_code == 0, r.output
        pdfs.append(tmp_path / run / "ia2" / "ia2.pdf")
    assert pdfs[0].read_bytes().startswith(b"%PDF-") and pdfs[0].read_bytes() == pdfs[1].read_bytes()
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(pdfs[0])], capture_output=True, text=True, check=True).stdout
        assert "CreationDate" not in info and "ModDate" not in info
        assert "Subject:         Player aid generated by chartc. Print at 100 % (actual size)" in info
    out, pdf = tmp_path / "one", pdfs[0]
    # without --pdf the PDF is neither an orphan nor deleted
    r = runner.invoke(cli, ["build", "--check", "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["build", "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0 and pdf.is_file()
    # with --pdf the PDF is checked too, and is current (deterministic)
    r = runner.invoke(cli, ["build", "--check", "--pdf", "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    pdf.write_bytes(b"%PDF-1.7 stale")
    r = runner.invoke(cli, ["build", "--check", "--pdf", "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 1 and "stale:" in r.output and "binary content differs" in r.output


def test_large_print_and_letter_reach_the_html(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "gen"
    r = CliRunner().invoke(
        cli, ["build", "--large-print", "--paper", "letter", "--landscape", "--out", str(out)], catch_exceptions=False
    )
    assert r.exit_code == 0, r.output
    html = (out / "ia2" / "ia2.html").read_text(encoding="utf-8")
    assert "size: letter landscape;" in html and "--cell: 12pt" in html


def test_check_names_the_print_options_in_the_command_that_fixes_it() -> None:
    from compiler.cli.build import rebuild_command
    from compiler.errata.printing import AS_CORRECTED, AS_PRINTED, UpTo

    command = rebuild_command((Path("charts"),), Path("out"), "letter", True, True, AS_CORRECTED, landscape=True)
    assert command == "chartc build charts --paper letter --landscape --large-print --pdf --out out"
    assert rebuild_command((), Path("generated"), "a4", False, False, AS_CORRECTED) == "chartc build --out generated"
    printed = rebuild_command((), Path("build/as-printed"), "a4", False, False, AS_PRINTED)
    assert printed == "chartc build --as-printed --out build/as-printed"
    round1 = rebuild_command((Path("charts/ia2"),), Path("build/up-to-ia2_1943_44"), "a4", False, False,
                             UpTo("ia2_1943_44"))
    assert round1 == "chartc build charts/ia2 --printing ia2_1943_44 --out build/up-to-ia2_1943_44"


# --- in a real browser: headless Chromium -----------------------------------------------------

# CI sets CHARTC_REQUIRE_BROWSER=1 so that a missing browser fails the run instead of skipping.
REQUIRE_BROWSER = os.environ.get("CHARTC_REQUIRE_BROWSER") == "1"
needs_browser = pytest.mark.skipif(
    bool(browser.missing_tools()) and not REQUIRE_BROWSER,
    reason=f"needs {', '.join(browser.missing_tools())}: {browser.INSTALL_HINT}",
)


def test_browser_tools_are_present_where_required() -> None:
    if not REQUIRE_BROWSER:
        pytest.skip("only CI (CHARTC_REQUIRE_BROWSER=1) insists on the browser")
    assert browser.missing_tools() == [], browser.INSTALL_HINT


@pytest.fixture(
    scope="module",
    params=[
        pytest.param((CHROMIUM_DEFAULT_LAYOUTS, DEFAULT_PRINT_GAMES), id="letter-large-aa_rules+usaaf"),
        pytest.param((CHROMIUM_DEFAULT_LAYOUTS, OTHER_PRINT_GAMES), id="letter-large-others", marks=pytest.mark.slow),
        pytest.param(
            ([layout for layout in LAYOUTS if layout not in CHROMIUM_DEFAULT_LAYOUTS], frozenset(EXPECTED_PAGES)),
            id="a4+letter-normal+a4-large",
            marks=pytest.mark.slow,
        ),
    ],
)
def chromium_prints(request, corpus_outputs, tmp_path_factory) -> dict[tuple[str, str, bool], tuple[Path, list[str]]]:
    """The aids of the games and in the layouts of `request.param`, with section probes, printed by
    Chromium: (game, paper, large print) -> (PDF path, section ids in order)."""
    folder = tmp_path_factory.mktemp("chromium")
    prints = {}
    layouts, games = request.param
    for paper, large in layouts:
        for rel, html in corpus_outputs(paper, large).items():
            game = rel.split("/")[0]
            if rel.endswith(".html") and game in games:
                probed, ids = browser.with_probes(html)
                html_path = folder / f"{game}-{paper}-{'large' if large else 'normal'}.html"
                html_path.write_text(probed, encoding="utf-8")
                browser.print_to_pdf(html_path, html_path.with_suffix(".pdf"))
                prints[(game, paper, large)] = (html_path.with_suffix(".pdf"), ids)
    return prints


@needs_browser
def test_chromium_keeps_every_chart_on_one_page(chromium_prints) -> None:
    for key, (pdf, ids) in chromium_prints.items():
        pages = browser.probe_pages(browser.page_texts(pdf), len(ids))
        split = {anchor: p for anchor, p in zip(ids, pages, strict=True) if len(p[0]) != 1 or p[0] != p[1]}
        allowed = set(TALLER_THAN_A_PAGE_IN_LARGE_PRINT) if key[2] else set(TALLER_THAN_A_PAGE_AT_NORMAL_SIZE)
        assert set(split) <= allowed, f"{key}: charts split across pages (top page, bottom page): {split}"


@needs_browser
def test_chromium_page_counts(corpus, chromium_prints) -> None:
    for (game_id, paper, large), (pdf, _) in chromium_prints.items():
        game = corpus.project.games[game_id]
        expected = _expected_pages(game, paper, large)
        texts = browser.page_texts(pdf)
        pages = len(texts)
        # the player aid proper: the pages before the first whose running header lacks "Player aid"
        aid = next((n for n, text in enumerate(texts) if "Player aid" not in text), pages)
        if expected:
            # Debian updates Chromium within a major version (156.0.8078.73 to .114 moved one page
            # break of Stuka Leader on Letter, 11 to 12); WeasyPrint's counts below stay exact.
            slack = CHROMIUM_PATCH_SLACK
            assert abs(aid - expected[0]) <= slack and abs(pages - expected[1]) <= slack, (
                f"{game_id} {paper} large={large}: {aid} + {pages - aid} pages")
        else:
            assert pages <= len(game.charts) + 1


@needs_browser
def test_chromium_pdf_holds_every_chart_title(corpus, chromium_prints) -> None:
    for (game_id, paper, _large), (pdf, _) in chromium_prints.items():
        texts = browser.page_texts(pdf)
        text = " ".join(" ".join(texts).split())
        for chart in corpus.project.games[game_id].charts:
            if chart.kind == "external":  # printed elsewhere; only referred to
                continue
            assert " ".join(chart.title.split()) in text, f"{game_id} {paper}: {chart.title!r} missing"
        # running title and page numbers on every page
        for number, page in enumerate(texts, 1):
            assert f"p. {number} / {len(texts)}" in page
            assert corpus.project.games[game_id].title in page


@needs_browser
def test_chromium_nothing_overflows_the_page_width(chromium_prints) -> None:
    for key, (pdf, _) in chromium_prints.items():
        words = browser.words(pdf)
        assert words
        outside = [
            w for w in words
            if w.x_min < MIN_MARGIN_MM * browser.MM or w.x_max > w.page_width - MIN_MARGIN_MM * browser.MM
        ]
        assert outside == [], f"{key}: text within {MIN_MARGIN_MM} mm of the page edge: {outside[:5]}"


@needs_browser
def test_the_split_probe_sees_a_split(corpus_outputs, tmp_path: Path) -> None:
    """The probes must catch a chart that does break across pages: force one to be taller than
    a page and check that its top and bottom probes land on different pages."""
    html = corpus_outputs()["ia2/ia2.html"]
    probed, ids = browser.with_probes(html)
    probed = probed.replace("</style>", f"#{ids[0]} {{ padding-bottom: 320mm; }}</style>", 1)
    html_path = tmp_path / "split.html"
    html_path.write_text(probed, encoding="utf-8")
    browser.print_to_pdf(html_path, tmp_path / "split.pdf")
    top, bottom = browser.probe_pages(browser.page_texts(tmp_path / "split.pdf"), len(ids))[0]
    assert len(top) == 1 and len(bottom) == 1 and top != bottom


# --- the classic CRT (rolls down, columns across) -------------------------------------------------

TWELVE_COLUMNS = ["1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1"]


def _twelve_column_crt() -> str:
    """A 1d6 CRT with 12 odds columns and a DRM box: the width the classic grid must fit at 8 pt."""
    odds = ", ".join(f'"{c}"' for c in TWELVE_COLUMNS)
    rows = "\n".join(
        f'"{c}" {lo}-: AE  "{c}" {lo + 1}-{lo + 2}: EX  "{c}" {lo + 3}+: DE'
        for c, lo in zip(TWELVE_COLUMNS, [2] * 6 + [1] * 6, strict=True)
    )
    return (
        'game t { title "Twelve columns" }\n'
        'enum r "Combat result" { codes AE "Attacker eliminated" EX "Exchange" DE "Defender eliminated" '
        "order AE < EX < DE }\n"
        "context leader: flag \"Leader\"\n"
        f'odds o "Combat odds" {{ columns [{odds}] attacker_high round down defender_high round up beyond clamp }}\n'
        'chart [CRT] crt "Combat Results Table" { rule "7" roll 1d6 key odds: o column result: r "Result"\n'
        '  drm leader "Leader with the attackers" +1 when leader\n'
        f"  rows {{ {rows} }} }}\n"
    )


@pytest.mark.parametrize("paper, large", [("a4", False), ("letter", False), ("a4", True)])
def test_weasyprint_prints_a_twelve_column_crt_on_one_portrait_page(
    tmp_path: Path, weasyprint, paper: str, large: bool
) -> None:
    comp = compile_text(tmp_path, _twelve_column_crt())
    assert comp.diagnostics == []  # 12 columns fit: no C433
    html = render_outputs(comp.project, paper, large)["t/t.html"]
    assert "<th scope=\"col\">9:1</th>" in html and '<dt>EX</dt><dd>Exchange</dd>' in html
    pdf = tmp_path / "crt.pdf"
    weasyprint.HTML(string=html).write_pdf(pdf)
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) reads the PDF back")
    assert browser.page_count(pdf) == 1
    words = browser.words(pdf)
    assert any(w.text == "9:1" for w in words)
    outside = [
        w for w in words if w.x_min < MIN_MARGIN_MM * browser.MM or w.x_max > w.page_width - MIN_MARGIN_MM * browser.MM
    ]
    assert outside == [], f"text within {MIN_MARGIN_MM} mm of the page edge: {outside[:5]}"


# --- wide month grids are reflowed, never cut (issue 17: IA2 R2/R3 lost 1945-01..04 at the edge) --

MONTHS_24 = [f"{1944 + i // 12}-{i % 12 + 1:02d}" for i in range(24)]


def _availability_game(months: list[str]) -> str:
    """A game with one availability grid over `months` (items down, months across, as IA2 R2)."""
    cells = " | ".join(["\u2713"] * (len(months) // 2) + ["1-3"] * (len(months) - len(months) // 2))
    return (
        'game t { title "Wide grid" calendar 1944-01 to 1945-12 }\n'
        'enum aircraft "Aircraft type" { bf109 "Bf 109G-6" me262 "Me 262A-1a" }\n'
        'chart [R2] types "Available Aircraft" { rule "4.6.4" roll 1d6\n'
        f"  availability aircraft by month [{', '.join(months)}] {{\n"
        f"    bf109: {cells}\n    me262: {' | '.join(['-'] * len(months))}\n  }} }}\n"
    )


def test_a_wide_month_grid_prints_as_stacked_blocks_with_book_months(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, _availability_game(MONTHS_24))
    assert comp.diagnostics == []
    html = render_outputs(comp.project)["t/t.html"]
    # the printed section only: the interactive table's data (JSON) keeps ISO months
    start = html.index('id="chart-r2"')
    section = html[start : html.index("</section>", start)]
    tables = re.findall(r'<table class="availability">(.*?)</table>', section, re.S)
    # 24 months at the dense print's 7.5 pt: more than two blocks in a column, so the grid prints
    # across the page in two blocks of 12 columns, each repeating the item column
    assert '<section class="chart span" id="chart-r2">' in html
    assert [t.count('<th scope="col">') - 1 for t in tables] == [12, 12]
    assert all('<th scope="col">Aircraft type</th>' in t for t in tables)
    assert '<th scope="col">1/44</th>' in tables[0] and '<th scope="col">12/45</th>' in tables[1]
    assert "1944-01" not in section  # months as the book prints them, not ISO
    # large print: 12 pt cells; 8 columns still fit (the PDF test below reads the words' places)
    large = render_outputs(comp.project, "letter", True)["t/t.html"]
    assert large.count('<table class="availability">') == 3
    # the legend names what the grid prints (✓, -), not the rows chartc reads from it (no `4+`)
    assert "<dt>\u2713</dt>" in section and "<dt>-</dt><dd>not available</dd>" in section
    assert "or more" not in section


@pytest.mark.parametrize("paper, large", [("a4", False), pytest.param("letter", True, marks=pytest.mark.slow)])
def test_weasyprint_prints_a_wide_month_grid_inside_the_margins(
    tmp_path: Path, weasyprint, paper: str, large: bool
) -> None:
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) reads the PDF back")
    comp = compile_text(tmp_path, _availability_game(MONTHS_24))
    pdf = tmp_path / "grid.pdf"
    pdf.write_bytes(html_to_pdf(render_outputs(comp.project, paper, large)["t/t.html"]))
    texts = {w.text for w in browser.words(pdf)}
    assert {"1/44", "12/44", "12/45"} <= texts
    assert browser.words_near_the_edge(pdf, MIN_MARGIN_MM) == []


def test_the_width_check_fails_on_a_planted_over_wide_table(tmp_path: Path, weasyprint) -> None:
    """The check must see text cut at the page edge: plant the 24-month grid as one table (as the
    aid printed R2 before it was reflowed) and read the WeasyPrint PDF back."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils (pdftotext) reads the PDF back")
    comp = compile_text(tmp_path, _availability_game(MONTHS_24))
    html = render_outputs(comp.project)["t/t.html"]
    heads = "".join(f'<th scope="col">{m}</th>' for m in MONTHS_24)
    planted = f'<table class="availability"><thead><tr><th scope="col">Aircraft</th>{heads}</tr></thead></table>'
    html = html.replace('<div class="blocks scroll">', '<div class="blocks scroll">' + planted, 1)
    pdf = tmp_path / "planted.pdf"
    pdf.write_bytes(html_to_pdf(html))
    near = browser.words_near_the_edge(pdf, MIN_MARGIN_MM)
    # the months from 1945-01 on run off the page (7.5 pt cells); pdftotext reads the cut one as `1945`
    assert near and near[0].text == "1945-01" and all(w.text.startswith("194") for w in near)


@pytest.mark.parametrize(
    "printed, book",
    [
        ("1944-12", "12/44"),  # IA2 R2 column heads print `12/44`
        ("1945-02..1945-03", "2/45-3/45"),
        ("1943-03..1944-12", "3/43-12/44"),  # IA2 sorties per month (4.3.3)
        ("1945-01+", "1/45+"),  # IA2 R1 prints `4/45+`
        ("1944-11 to 1945-01", "11/44-1/45"),
        ("Bf 109G-6", "Bf 109G-6"),  # not a month: as it is
        ("1944-13", "1944-13"),
    ],
)
def test_months_print_as_the_book_prints_them(printed: str, book: str) -> None:
    assert month_text(printed) == book


def test_ia2_aid_prints_human_months_and_player_legends(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    sections = dict(re.findall(r'<section class="chart" id="([^"]+)">(.*?)</section>', html, re.S))
    # 7.9.2 Night Owl: once per month to December 1944, then bi-monthly
    night_owl = sections["chart-night_owl_frequency"]
    assert '<th scope="row" class="text">3/43-12/44</th><td class="text">Once per month</td>' in night_owl
    # 4.3.3, 11.7: the sorties a month are a limit, printed with its cases in the aid's limits section
    limits = html[html.index('<div class="rule-limits" id="limits">') :].split("</div>")[0]
    assert "<strong>Sorties per month</strong>" in limits
    assert "at most 4 \u2014 Aircraft family flown is Me 262 and Game month \u2264 9/44 (11.7, R1 note 4" in limits
    assert "when Game month is 12/44" in sections["chart-b9"]  # 6.1 weather: +2 in December 1944
    assert "one of the" not in html and "codes:" not in html  # no `Month = one of the Month codes`
    assert "or more" not in sections["chart-r2"]  # R2 prints no open end (it printed `6+` before)
    assert '@top-right { content: "Player aid";' in html  # the running header names no paper size


def test_errata_notes_cite_name_and_reason_without_paths(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    notes = re.findall(r'<p class="notes errata-notes" aria-label="Errata">(.*?)</p>', html, re.S)
    assert notes and all("errata.chart" not in n and "; because" not in n and "(because" not in n for n in notes)
    r4 = html[html.index('id="chart-r4"') : html.index('id="chart-r5"')]
    # IA2 R4 (7.1.10) as corrected by the project's errata E2, with its reasons as sentences; the
    # key under the contents names each errata document once (issue 34: condensed notes)
    assert '<span class="lead">Errata</span> E2: Reasons: Footnote 1' in r4
    key = html[html.index('<div class="key">') : html.index("</div>", html.index('<div class="key">'))]
    assert "<b>E2</b> Corrections of print defects, from the rules text" in key
    assert "errata.chart" not in key
    assert "double" not in html.split("</style>")[0]  # amended cells carry the mark, no doubled border


def test_the_dense_print_flows_the_charts_through_columns(corpus_outputs) -> None:
    """Issue 34: the default print flows the charts through two columns (three on landscape pages)
    in play order, small charts one under another in a column; a chart prints across the page
    only when a column cannot hold it in fewer than three stacked blocks."""
    html = corpus_outputs()["ia2/ia2.html"]
    assert "div.flow .cols { columns: 2;" in html and '<div class="pair">' not in html
    flow = html[html.index('<div class="flow">') :]
    assert flow.index('id="chart-b9"') < flow.index('id="chart-a3"')  # 6.1: the weather roll, then A3
    # every IA2 table fits a column but one: issue 30's Rockets (7.1.14, 7.1.15), eight columns of
    # the rules' sentences, would stack three blocks there and prints across the page
    assert re.findall(r'<section class="chart span" id="([^"]+)"', html) == ["chart-rockets"]
    # USAAF 20.1-20.3: 15 target systems need three blocks in a column; across the page, one
    usaaf = corpus_outputs()["usaaf/usaaf.html"]
    head = '<div class="keep span"><h2 class="group">25.0 Charts &amp; Tables</h2>\n'  # its book section (issue 34)
    assert head + '<section class="chart span" id="chart-target_systems">' in usaaf
    landscape = corpus_outputs("a4", False, True)["ia2/ia2.html"]
    assert "div.flow .cols { columns: 3;" in landscape


def _section(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start : html.index("</section>", start)]


def test_a_table_too_wide_for_a_column_prints_whole_across_and_runs_on_in_large_print(corpus_outputs) -> None:
    # USAAF 20.1-20.3: 15 target systems across, 26 cities down (Berlin from the errata)
    normal = _section(corpus_outputs()["usaaf/usaaf.html"], "chart-target_systems")
    assert normal.count("<table") == 1 and '<th scope="col">Abr</th>' in normal and '<th scope="col">TN</th>' in normal
    # 20.2: the Points Needed line under the table (Abrasives 24 ... Transport Net 40), and a key
    # to the systems' abbreviations (issue 34: the table printed without either)
    foot = normal[normal.index("<tfoot>") : normal.index("</tfoot>")]
    assert '<th scope="row" class="text">Points Needed</th><td>24</td><td>50</td>' in foot
    assert foot.endswith("<td>40</td><td>40</td></tr>\n")
    assert "<dt>Abr</dt><dd>Abrasives</dd>" in normal and "<dt>TN</dt><dd>Transport Net</dd>" in normal
    large = corpus_outputs("a4", True)["usaaf/usaaf.html"]
    section = _section(large, "chart-target_systems")
    # 12 pt cells: two blocks of 8 and 7 systems, taller together than a page, so the chart may
    # continue between them; its head names it on the page it continues on
    assert section.count("<table>") == 2 and "dense" not in section
    assert '<section class="chart loose" id="chart-target_systems">' in large
    assert 'data-continued="Target Systems Planning Table, continued"' in section
    # R2/R3's stacked month blocks fit a page: kept whole
    ia2 = corpus_outputs("a4", True)["ia2/ia2.html"]
    assert '<section class="chart" id="chart-r2">' in ia2
    assert '<div class="chart-body stacked"' in _section(ia2, "chart-r2")


def test_landscape_in_large_print_puts_two_charts_a_row_and_prints_wide_tables_whole(corpus_outputs) -> None:
    # large print (the dense print flows three columns: test_the_dense_print_flows_the_charts_through_columns)
    portrait = corpus_outputs("a4", True)["ia2/ia2.html"]
    html = corpus_outputs("a4", True, True)["ia2/ia2.html"]
    assert "size: A4 landscape;" in html and "size: A4;" in portrait
    # rows run across groups: a chart opening a group carries its heading inside its cell; two
    # narrow charts a row in large print
    rows = html.split('<div class="pair">\n')[1:]
    cells = [row.split("</section>\n</div>\n</div>\n")[0].count('<div class="cell">') for row in rows]
    assert cells and max(cells) == 2
    assert '<div class="cell"><h2 class="group">' in html
    # the 14 months of R2 (4.6.4) fit across a landscape page at 12 pt: one table, not two blocks
    assert _section(html, "chart-r2").count('<table class="availability">') == 1
    assert _section(portrait, "chart-r2").count('<table class="availability">') == 2
    # every chart is printed once, in the same order as on portrait pages
    assert _section_ids(html) == _section_ids(portrait)


def test_the_contents_list_is_set_in_balanced_columns_in_play_order(corpus_outputs) -> None:
    """Issue 16 item 7: chartc balances the contents columns (CSS `columns` was slow in WeasyPrint)."""
    html = corpus_outputs()["ia2/ia2.html"]
    nav = html[html.index('<nav class="contents') : html.index("</nav>", html.index('<nav class="contents'))]
    # no CSS multi-column layout but the dense print's flow of charts (`column-fill: auto`)
    assert re.findall(r"([^{}\n]+)\{[^}]*(?<![-\w])columns:", html.split("</style>")[0]) == ["  div.flow .cols "]
    columns = nav.split('<div class="columns">\n', 1)[1].split("\n</ol>\n<ol>\n")
    assert len(columns) == 3
    # every group once, whole, in the order the charts print
    aid = html[: html.index('<div class="part reference" id="reference"')]
    headings = re.findall(r'<span class="g">([^<]+)</span>', nav)
    assert headings == re.findall(r'<h2 class="group">([^<]+)</h2>', aid)
    # and, last, the rules reference
    assert re.findall(r'<a href="#([^"]+)">', nav) == [*_section_ids(aid), "reference"]
    # balanced by lines: the 47 charts of IA2's player aid in 12 groups, each group whole in a column
    entries = [c.count("<li><a ") for c in columns]
    assert entries == [16, 18, 13] and sum(entries) == len(_section_ids(aid)) == 47
    landscape = corpus_outputs("a4", False, True)["ia2/ia2.html"]
    assert landscape.split('<div class="columns">', 1)[1].split("</nav>")[0].count("\n<ol>\n") == 4


@pytest.mark.slow  # two fresh processes that import WeasyPrint: about 3 s of CPU
def test_pdf_bytes_do_not_depend_on_the_process(tmp_path: Path, weasyprint) -> None:
    """Two `build --pdf` runs in fresh processes with different hash seeds give the same bytes
    (set and dict order must not reach the PDF) on a small game; the corpus is compared in
    `test_build_pdf_is_byte_identical_and_check_leaves_pdfs_alone`."""
    compile_text(tmp_path, _availability_game(MONTHS_24[:6]))
    digests = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = tmp_path / f"out{seed}"
        subprocess.run(
            [sys.executable, "-m", "compiler.cli", "build", "--pdf", "--out", str(out), "charts"],
            cwd=tmp_path, env=env, check=True, capture_output=True,
        )
        digests.append((out / "t" / "t.pdf").read_bytes())
    assert digests[0].startswith(b"%PDF-") and digests[0] == digests[1]


# --- `aid chance on|off`: the chance column per game or chart -----------------------------------

CHANCE_GAME = (
    'game t { title "T" aid chance off }\n'
    'enum switch "Switch" { on "On" off "Off" }\n'  # `on` and `off` stay usable as names
    'chart [R5] escape "Escape" { rule "7.3" roll 1d6 column r: text "R" rows { 1-4: "Away" 5-6: "Caught" } }\n'
    'chart [R6] fatigue "Fatigue" { rule "7.4" roll 1d6 aid chance on key switch column r: text "R"\n'
    '  rows { on 1-3: "Fresh" on 4-6: "Tired" off 1-6: "Rested" } }\n'
)


def test_aid_chance_off_in_the_header_and_on_in_a_chart(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, CHANCE_GAME)
    assert comp.diagnostics == []
    game = comp.project.games["t"]
    assert game.aid_chance is False and [c.aid_chance for c in game.charts] == [None, True]
    html = render_outputs(comp.project)["t/t.html"]
    r5 = html[html.index('id="chart-r5"') : html.index('id="chart-r6"')]
    r6 = html[html.index('id="chart-r6"') :]
    assert "Chance" not in r5 and 'class="pct"' not in r5
    # R6's own `aid chance on`: 1-3 on a d6 is 50 %, 1-6 is certain
    assert '<th scope="col">Chance</th>' in r6 and '<td class="pct">50%' in r6 and '<td class="pct">100%' in r6
    # the JSON keeps the chances: the option is about print only
    assert '"chances"' in render_outputs(comp.project)["t/t.json"]


def test_aid_chance_given_twice_is_reported(tmp_path: Path) -> None:
    comp = compile_text(tmp_path, CHANCE_GAME.replace("aid chance on", "aid chance on aid chance off"))
    # C103, the statement allowed once, at the second one (line 4, columns 66-80)
    assert [(d.code, d.message, d.span.line, d.span.col, d.span.end_col) for d in comp.diagnostics] == [
        ("C103", "this statement may appear only once in chart `R6`", 4, 66, 80)
    ]
