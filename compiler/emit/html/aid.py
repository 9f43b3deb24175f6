"""HTML player-aid emitter: one self-contained page per game (Jinja2, autoescape on).

Pure: model in, text out. Charts come in play order (see `play_order`), grouped under headings;
each chart is a `<section>` kept whole on a printed page, with its chart ID badge, rule cite, DRM
box beside the table, footnotes, a legend for the symbols it uses and the chance of each row on
the natural roll. The template reads typed views (`compiler.emit.html.views`). All chart text goes
through Jinja2's autoescape; nothing is marked safe except the SVG bars built from numbers and CSS
strings escaped by `css_string`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from markupsafe import Markup

from compiler import model
from compiler.emit.html.aid_view import chart_view
from compiler.emit.html.formulas import formula_views
from compiler.emit.html.interactive import calculator_chart, live_data
from compiler.emit.html.notes import errata_documents, header_errata
from compiler.emit.html.page_fit import pair_charts
from compiler.emit.html.records import record_set_views
from compiler.emit.html.views import LANDSCAPE, PORTRAIT, GroupView, Layout, SheetCell
from compiler.emit.html.wording import describe_condition
from compiler.emit.templating import environment
from dsl.aid_order import DEFAULT_REFERENCE_TITLE, OrderEntry

PAPER_SIZES = {"a4": "A4", "letter": "letter"}


@dataclass(frozen=True)
class LimitView:
    """A limit as the aid prints it: title, rule, what it counts, and each case in words
    (`at most 4 — when Game month ≥ Jan 45 (4.3.3)`), in order."""

    id: str
    title: str
    rule: str | None
    counts: str | None
    cases: tuple[str, ...]


def limit_view(game: model.Game, limit: model.Limit) -> LimitView:
    cases = []
    for i, case in enumerate(limit.cases):
        when = describe_condition(case.when, game) if case.when is not None else ("otherwise" if i else "always")
        cases.append(f"{bound_text(case.bound)} — {when}" + (f" ({case.cite})" if case.cite else ""))
    return LimitView(limit.id, limit.title, limit.rule, limit.counts, tuple(cases))


def bound_text(bound: model.Bound) -> str:
    """A limit case's bound as the aid prints it: `Forbidden` capitalised, as the books print a
    prohibition in a cell (IA2 7.4.1), the others as they read in a sentence (`at most 4`)."""
    return bound.text.capitalize() if bound.kind is model.BoundKind.FORBIDDEN else bound.text


class AidPart(enum.StrEnum):
    """The two parts of a player aid: the aid proper (the tables a player rolls on and reads at the
    table, the sequence of play first) and the rules reference after it (the rules as charts)."""

    AID = "aid"
    REFERENCE = "reference"


@dataclass(frozen=True)
class AidGroup:
    """Charts printed together under one heading (`None`: no heading), in one part of the aid."""

    heading: str | None
    charts: tuple[model.Chart, ...]
    part: AidPart = AidPart.AID


def rule_key(rule: str | None) -> tuple[float, ...]:
    """Sort key for a rule cite by its first section number: `7.1.10` after `7.1.7`, `10.5` after
    `7.4.2`; a chart with no number sorts last."""
    match = re.search(r"\d+(?:\.\d+)*", rule or "")
    if match is None:
        return (float("inf"),)
    return tuple(float(part) for part in match.group(0).split("."))


def _sequence_of_play(chart: model.Chart) -> bool:
    return chart.title.casefold().startswith("sequence of play")


def in_default_aid(chart: model.Chart) -> bool:
    """Whether a game without an `aid.order` prints `chart` in the player aid proper: the sequence
    of play, a chart the book prints with a chart ID, and a chart read by dice (a roll, a DRM list,
    an odds rule); the rest (the rules written as charts) goes to the rules reference."""
    match chart.kind:
        case model.ChartKind.ROLL | model.ChartKind.DRMS | model.ChartKind.ODDS:
            return True
        case model.ChartKind.VALUE | model.ChartKind.REFERENCE | model.ChartKind.EXTERNAL:
            return chart.chart_id is not None or _sequence_of_play(chart)
        case _:
            assert_never(chart.kind)


def _default_groups(charts: Sequence[model.Chart], part: AidPart) -> list[AidGroup]:
    """Charts by rule section number (stable: source order breaks ties), grouped by the number's
    first part (`Rules 7`); the sequence of play (a chart so titled) opens them, as a player
    reads it first (Stuka Leader prints it on its own page before the rules)."""
    first = [c for c in charts if _sequence_of_play(c)]
    pairs: list[tuple[str | None, model.Chart]] = [("Sequence of Play", c) for c in first]
    for chart in sorted((c for c in charts if c not in first), key=lambda c: rule_key(c.rule)):
        key = rule_key(chart.rule)[0]
        pairs.append((f"Rules {int(key)}" if key != float("inf") else "Other charts", chart))
    groups: list[AidGroup] = []
    for heading, chart in pairs:
        if groups and groups[-1].heading == heading:
            groups[-1] = AidGroup(heading, (*groups[-1].charts, chart), part)
        else:
            groups.append(AidGroup(heading, (chart,), part))
    return groups


def play_order(game: model.Game, order: Sequence[OrderEntry] | None = None) -> list[AidGroup]:
    """The charts of `game` in the order the player aid prints them, the player aid proper's
    groups first, then the rules reference's (in time linear in the number of charts and lines).

    Without an order file the aid holds the charts `in_default_aid` picks and the reference the
    rest, each part in rule section order, grouped by the first part of the number. An order file
    (`aid.order` in the game folder) sets the sequence of play: one chart address per line,
    `== Heading` starts a group, `#` starts a comment, and `--- Rules reference` ends the aid
    proper: the charts listed after it, then the charts it does not list (in rule order, so a
    newly added chart is never left out), are the rules reference.

    `order` holds the lines project loading kept after checking the file (C416 reports a line that
    names no chart or a chart already listed, and a build with that error writes nothing); such a
    line is skipped here too, so the aid never depends on a second validator.
    """
    if order is None:
        aid = [c for c in game.charts if in_default_aid(c)]
        return _default_groups(aid, AidPart.AID) + _default_groups(
            [c for c in game.charts if not in_default_aid(c)], AidPart.REFERENCE)
    groups: list[tuple[str | None, list[model.Chart], AidPart]] = []
    listed: set[int] = set()
    part = AidPart.AID
    for entry in order:
        if entry.divider is not None:
            part = AidPart.REFERENCE
            groups.append((None, [], part))
            continue
        if entry.address is None:
            groups.append((entry.heading or None, [], part))
            continue
        chart = game.chart(entry.address)
        if chart is None or id(chart) in listed:
            continue
        listed.add(id(chart))
        if not groups:
            groups.append((None, [], part))
        groups[-1][1].append(chart)
    rest = [c for c in game.charts if id(c) not in listed]
    return [AidGroup(heading, tuple(charts), p) for heading, charts, p in groups if charts] + _default_groups(
        rest, AidPart.REFERENCE)


def reference_title(order: Sequence[OrderEntry] | None) -> str:
    """The rules reference's title: the divider's text in `aid.order`, else `Rules reference`."""
    return next((e.divider for e in order or () if e.divider is not None), DEFAULT_REFERENCE_TITLE)


def emit_game_html(
    game: model.Game,
    paper: str = "a4",
    large_print: bool = False,
    order: Sequence[OrderEntry] | None = None,
    landscape: bool = False,
) -> str:
    """The game's printable player aid as an HTML document.

    Args:
        game: the resolved game.
        paper: `a4` or `letter`, the `@page` size the aid is laid out for.
        large_print: 12 pt table cells and 10 pt notes, one chart (two in landscape) across the
            page, instead of the dense print (7.5 pt cells and 7 pt notes, the charts flowing
            through two columns, three in landscape).
        order: the game's checked `aid.order` lines, if it has the file (see `play_order`).
        landscape: pages on their side: three columns (in large print, two narrow charts side by
            side), and wide tables whole where they fit across.
    """
    sheet = LANDSCAPE if landscape else PORTRAIT
    by_part: dict[AidPart, list[GroupView]] = {AidPart.AID: [], AidPart.REFERENCE: []}
    for g in play_order(game, order):
        views = tuple(chart_view(game, c, sheet) for c in g.charts if c.kind is not model.ChartKind.EXTERNAL)
        if views:
            rows = pair_charts(views, sheet, large_print) if large_print else ()
            by_part[g.part].append(GroupView(g.heading, views, rows))
    parts = tuple(
        _part(part, groups, reference_title(order), large_print, landscape)
        for part, groups in by_part.items() if groups or part is AidPart.AID
    )
    every_group = [g for part in parts for g in part.groups]
    return (
        environment()
        .get_template("player_aid.html.j2")
        .render(
            game=game,
            parts=parts,
            has_crt=any(v.layout is Layout.CRT for g in every_group for v in g.charts),
            page_size=PAPER_SIZES[paper] + (" landscape" if landscape else ""),
            screen_width=round(sheet.width_mm + 12),
            columns=sheet.columns,
            errata_documents=errata_documents(game),
            header_errata=header_errata(game),
            large_print=large_print,
            live_json=Markup(live_data(game)) if game.formulas or any(calculator_chart(c) for c in game.charts) else "",
            css_title=css_string(game.title),
            css_reference=css_string(reference_title(order)),
            limits=tuple(limit_view(game, lim) for lim in game.limits),
            formulas=formula_views(game),
            records=record_set_views(game, sheet.width_mm, large_print),
        )
    )


@dataclass(frozen=True)
class PartView:
    """One part of the aid as the template prints it: the player aid proper (`title` None) or the
    rules reference (its title, after a page break, under its own running header), with its own
    groups, contents list and index of chart IDs."""

    part: AidPart
    title: str | None
    groups: tuple[GroupView, ...]
    runs: tuple[Run, ...]
    sheet_rows: tuple[tuple[SheetCell, ...], ...]
    contents: tuple[tuple[GroupView, ...], ...]
    id_index: tuple[tuple[str, str], ...]

    @property
    def chart_count(self) -> int:
        return sum(len(g.charts) for g in self.groups)


def _part(part: AidPart, groups: Sequence[GroupView], title: str, large_print: bool, landscape: bool) -> PartView:
    return PartView(
        part,
        None if part is AidPart.AID else title,
        tuple(groups),
        () if large_print else runs(groups),
        _across_groups(groups, large_print) if landscape and large_print else (),
        contents_columns(groups, 4 if landscape else 3) if groups else (),
        id_index(groups),
    )


@dataclass(frozen=True)
class Run:
    """Charts the dense print lays out together: a run of charts that fit a column, flowing
    through the page's columns, or one chart printed across the page (`span`)."""

    span: bool
    cells: tuple[SheetCell, ...]


def runs(groups: Sequence[GroupView]) -> tuple[Run, ...]:
    """The charts of every group in play order as the dense print lays them out: consecutive
    charts that fit a column in one run, each chart too wide for a column alone; a chart that
    opens a group carries the group's heading."""
    found: list[Run] = []
    for g in groups:
        for i, view in enumerate(g.charts):
            cell = SheetCell(g.heading if i == 0 else None, view)
            if view.span:
                found.append(Run(True, (cell,)))
            elif found and not found[-1].span:
                found[-1] = Run(False, (*found[-1].cells, cell))
            else:
                found.append(Run(False, (cell,)))
    return tuple(found)


def id_index(groups: Sequence[GroupView]) -> tuple[tuple[str, str], ...]:
    """The printed charts that carry a chart ID, as (ID, anchor), in the order a player looks an
    ID up: by its letters, then by its number (`A3`, `B7`, `B12`, `R4`)."""

    def key(chart_id: str) -> tuple[str, int, str]:
        match = re.fullmatch(r"([A-Za-z-]*)(\d*)(.*)", chart_id)
        assert match is not None  # every string matches
        letters, number, rest = match.groups()
        return letters.casefold(), int(number) if number else -1, rest
    found = [(v.chart.chart_id, v.anchor) for g in groups for v in g.charts if v.chart.chart_id]
    return tuple(sorted(found, key=lambda pair: key(pair[0])))


_CONTENTS_CHARS_PER_LINE = 34  # characters of a 7.5 pt contents line in a column, before its page number


def contents_columns(groups: Sequence[GroupView], count: int) -> tuple[tuple[GroupView, ...], ...]:
    """The contents list's groups in `count` columns, in order, each group whole, the tallest
    column as short as it can be (estimated in lines from the length of each entry).

    The columns are chartc's, not CSS `columns`: WeasyPrint balances a multi-column list by laying
    it out again and again, which cost about half of its time on the IA2 aid (issue 16)."""

    def lines(text: str) -> int:
        return 1 + len(text) // _CONTENTS_CHARS_PER_LINE

    heights = [
        (lines(g.heading) if g.heading else 0)
        + sum(lines(f"[{v.chart.chart_id}] {v.chart.title}" if v.chart.chart_id else v.chart.title) for v in g.charts)
        for g in groups
    ]
    count = max(1, min(count, len(groups)))
    # best[k][i]: the least tallest column holding groups[:i] in k columns, and where its last column starts
    inf = float("inf")
    best = [[(inf, 0)] * (len(groups) + 1) for _ in range(count + 1)]
    best[0][0] = (0, 0)
    for k in range(1, count + 1):
        for i in range(k, len(groups) + 1):
            best[k][i] = min(
                ((max(best[k - 1][j][0], sum(heights[j:i])), j) for j in range(k - 1, i)), key=lambda t: t[0]
            )
    columns: list[tuple[GroupView, ...]] = []
    end = len(groups)
    for k in range(count, 0, -1):
        start = best[k][end][1]
        columns.insert(0, tuple(groups[start:end]))
        end = start
    return tuple(columns)


def _across_groups(groups: Sequence[GroupView], large_print: bool) -> tuple[tuple[SheetCell, ...], ...]:
    """The charts of every group as rows of a landscape page (`pair_charts` over the whole aid),
    each chart that opens a group with the group's heading."""
    heading = {id(g.charts[0]): g.heading for g in groups}
    views = tuple(v for g in groups for v in g.charts)
    return tuple(
        tuple(SheetCell(heading.get(id(v)), v) for v in row) for row in pair_charts(views, LANDSCAPE, large_print)
    )


def css_string(text: str) -> str:
    """A CSS string literal for `text` with every non-alphanumeric character escaped, so nothing
    in it can end the string, the rule or the `<style>` element."""
    return '"' + "".join(ch if ch.isascii() and ch.isalnum() else f"\\{ord(ch):06x}" for ch in text) + '"'
