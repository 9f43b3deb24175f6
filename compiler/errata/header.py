"""Errata on the game header: its calendar (`amend ia2 { change calendar 1943-03 to 1945-06 }`) and
its periods (`change period late_1944 "1944 late" 1944-08 to 1944-12`, `add period y1946 "1946"
1946-01 to 1946-05`, `remove period early`), applied to the header's syntax tree before the game is
declared, so every month key, period key, availability grid and check reads the correction;
`HeaderErrata` marks keep what was printed and why, for the outputs. The `amend` names the game.

Diagnostics: C601 (a period the header does not declare, or an operation other than these on a
game), C602 (two errata change the calendar or one period and neither says which wins), C603 (the
calendar or a period as it is already printed, or a period added that the header declares).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import assert_never

from compiler import model
from compiler.diagnostics import Sink, Slot, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.errata.provenance import amend_declarations, claim_once
from dsl import ast


@dataclass
class _Mark:
    printed: str | None
    errata: list[str] = field(default_factory=list)
    because: list[str] = field(default_factory=list)


_Key = tuple[model.HeaderPart, str | None]


def amend_header(
    decl: ast.GameDecl | None, errata: list[ast.ErrataDecl], charts: Collection[str], sink: Sink
) -> tuple[ast.GameDecl | None, tuple[model.HeaderErrata, ...]]:
    """The game header as the errata amend it, and a mark per corrected calendar or period, in the
    order first corrected. An `amend` naming the game applies here, unless a chart has that name
    (`charts`: case-folded chart handles)."""
    if decl is None:
        return None, ()
    marks: dict[_Key, _Mark] = {}
    owner: dict[_Key, tuple[str, ast.Span]] = {}

    def change(errata_id: str, overrides: set[str], game: ast.GameDecl, op: ast.AmendOp) -> ast.GameDecl:
        match op:
            case ast.ChangeCalendar() | ast.ChangePeriod() | ast.RemovePeriod():
                return _change(errata_id, overrides, game, op, marks, owner, sink)
            case _:
                message = f"errata `{errata_id}` amends game `{game.name.text}`, whose header takes only " \
                          "`change calendar`, `change period`, `add period` and `remove period`"
                sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span)
                return game

    amended = amend_declarations(errata, {decl.name.text: decl}, change, charts).get(decl.name.text, decl)
    out = []
    for (part, period_id), mark in marks.items():
        now = _calendar_text(amended) if part is model.HeaderPart.CALENDAR else _period_text(amended, period_id)
        if now != mark.printed:  # an errata that put back what was printed leaves nothing to mark
            out.append(model.HeaderErrata(part, period_id, mark.printed, now, tuple(mark.errata), tuple(mark.because)))
    return amended, tuple(out)


def _change(
    errata_id: str,
    overrides: set[str],
    game: ast.GameDecl,
    op: ast.ChangeCalendar | ast.ChangePeriod | ast.RemovePeriod,
    marks: dict[_Key, _Mark],
    owner: dict[_Key, tuple[str, ast.Span]],
    sink: Sink,
) -> ast.GameDecl:
    name = game.name.text
    match op:
        case ast.ChangeCalendar(first=first, last=last):
            if game.calendar is not None and (game.calendar[0].text, game.calendar[1].text) == (first.text, last.text):
                sink.emit(codes.ERRATA_NO_EFFECT, f"errata `{errata_id}` changes the calendar of game `{name}` to "
                          f"the months it has ({first.text} to {last.text})", op.span)
                return game
            key: _Key = (model.HeaderPart.CALENDAR, None)
            before, amended = _calendar_text(game), replace(game, calendar=(first, last))
            what = f"the calendar of game `{name}`"
        case ast.ChangePeriod(period=period, added=True):
            if _find(game, period.name.text) is not None:
                message = f"errata `{errata_id}` adds period `{period.name.text}`, which game `{name}` declares"
                sink.emit(codes.ERRATA_NO_EFFECT, message, period.name.span, "correct it with `change period`")
                return game
            key = (model.HeaderPart.PERIOD, period.name.text)
            before, amended = _period_text(game, period.name.text), replace(game, periods=(*game.periods, period))
            what = f"period `{period.name.text}`"
        case ast.ChangePeriod(period=period):
            old = _named(errata_id, game, period.name, sink)
            if old is None:
                return game
            key, what = (model.HeaderPart.PERIOD, period.name.text), f"period `{period.name.text}`"
            before = _period_text(game, period.name.text)
            amended = replace(game, periods=tuple(period if p is old else p for p in game.periods))
            if _period_text(amended, period.name.text) == before:
                sink.emit(codes.ERRATA_NO_EFFECT, f"errata `{errata_id}` changes period `{period.name.text}` to "
                          "the label and months it has", op.span)
                return game
        case ast.RemovePeriod(name=period_name):
            old = _named(errata_id, game, period_name, sink)
            if old is None:
                return game
            key, what = (model.HeaderPart.PERIOD, period_name.text), f"period `{period_name.text}`"
            before = _period_text(game, period_name.text)
            amended = replace(game, periods=tuple(p for p in game.periods if p is not old))
        case _:
            assert_never(op)
    claim_once(owner, key, errata_id, overrides, op.span, what, sink)
    mark = marks.setdefault(key, _Mark(before))
    if errata_id not in mark.errata:
        mark.errata.append(errata_id)
    if op.because is not None and op.because.text not in mark.because:
        mark.because.append(op.because.text)
    return amended


def _named(errata_id: str, game: ast.GameDecl, name: ast.Name, sink: Sink) -> ast.PeriodDecl | None:
    """The period an errata names; C601 with did-you-mean when the header declares none by that id."""
    found = _find(game, name.text)
    if found is None:
        names = [p.name.text for p in game.periods]
        hint, close = suggestion(name.text, names)
        message = f"errata `{errata_id}` names period `{name.text}`, which game `{game.name.text}` does not declare"
        sink.emit(codes.ERRATA_TARGET_MISSING, message, name.span, hint,
                  fix=fixes.rename(name.span, name.text, close, Slot.NAME, names))
    return found


def _find(game: ast.GameDecl, period_id: str | None) -> ast.PeriodDecl | None:
    return next((p for p in game.periods if p.name.text == period_id), None)


def _calendar_text(game: ast.GameDecl) -> str | None:
    return f"{game.calendar[0].text} to {game.calendar[1].text}" if game.calendar is not None else None


def _period_text(game: ast.GameDecl, period_id: str | None) -> str | None:
    """A period as a player reads it: `"1944 late" 1944-07 to 1944-12`, `"1946 - ????" 1946-01+`."""
    p = _find(game, period_id)
    if p is None:
        return None
    months = f"{p.first.text} to {p.last.text}" if p.last is not None else f"{p.first.text}+"
    return f'"{p.label.text}" {months}'
