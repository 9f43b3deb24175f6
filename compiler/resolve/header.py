"""Phase 1: the game header, its calendar and periods (C203, C103, C406), its turn track (C419).

A calendar longer than `MAX_CALENDAR_MONTHS` is refused here, since each of its months becomes a
key value; whether periods tile the calendar is a check (`compiler.checks.periods`).
"""

from __future__ import annotations

import datetime
import keyword
import sys

from compiler import model
from compiler.diagnostics import Applicability, Label, Sink, Slot, codes, fixes
from compiler.diagnostics.messages import declared_twice
from compiler.model.calendar import MAX_CALENDAR_MONTHS, Month, months_between
from compiler.model.turns import MAX_TURNS, parse_day
from compiler.resolve.values import parse_month
from dsl import ast


def game_header(
    game_id: str, files: list[ast.SourceFile], sink: Sink, folder_span: ast.Span, complete: bool
) -> ast.GameDecl | None:
    headers = [g for f in files for g in f.game]
    if not headers and not complete:
        return None
    if not headers:
        sink.emit(
            codes.GAME_HEADER,
            f"game folder `{game_id}` has no `game` header",
            folder_span,
            f'add `game {game_id} {{ title "..." }}` to one file of the folder',
        )
        return None
    for extra in headers[1:]:
        sink.emit(
            codes.GAME_HEADER,
            f"game `{game_id}` has more than one `game` header",
            extra.span,
            "keep one header per game folder",
            (Label(headers[0].span, "first header here"),),
        )
    header = headers[0]
    for span in header.repeated:
        sink.emit(
            codes.REPEATED_STATEMENT,
            f"this statement may appear only once in the header of game `{game_id}`",
            span,
            "delete the repeated line",
            fix=fixes.delete(span, "the repeated statement", Applicability.UNSAFE),
        )
    if header.name.text != game_id:
        sink.emit(
            codes.GAME_HEADER,
            f"game header says `{header.name.text}` but the folder is `{game_id}`",
            header.name.span,
            f"rename the folder or write `game {game_id}`",
            fix=fixes.replace_with(header.name.span, game_id, Slot.NAME, Applicability.UNSAFE, old=header.name.text),
        )
    _report_module_name(game_id, header, sink)
    return header


def _report_module_name(game_id: str, header: ast.GameDecl, sink: Sink) -> None:
    """The game id names the generated module (`<id>.py`): it must be importable and hide nothing.

    The standard library's module names are this Python's (`sys.stdlib_module_names`)."""
    if keyword.iskeyword(game_id):
        problem = f"game id `{game_id}` is a Python keyword: its generated module `{game_id}.py` cannot be imported"
    elif game_id in sys.stdlib_module_names:
        problem = (
            f"game id `{game_id}` is the name of a Python standard library module: its generated module "
            f"`{game_id}.py` would hide that module from the program that imports it"
        )
    else:
        return
    sink.emit(codes.GAME_HEADER, problem, header.name.span, "rename the game folder and its header")


def _checked_month(month: ast.MonthText, sink: Sink) -> Month | None:
    return parse_month(month.text, month.span, sink)


def calendar(header: ast.GameDecl | None, sink: Sink) -> tuple[Month, Month] | None:
    if header is None or header.calendar is None:
        return None
    first, last = (_checked_month(m, sink) for m in header.calendar)
    if first is None or last is None:
        return None
    if first > last:
        sink.emit(codes.INVALID_MONTH, f"the calendar runs backwards: {first} to {last}", header.calendar[0].span)
        return None
    span = months_between(first, last)
    if span > MAX_CALENDAR_MONTHS:
        sink.emit(
            codes.INVALID_MONTH,
            f"the calendar {first} to {last} spans {span} months (at most {MAX_CALENDAR_MONTHS})",
            header.calendar[0].span,
            "check the years: a game's calendar covers the months its turns are played in",
        )
        return None
    return first, last


def periods(header: ast.GameDecl | None, sink: Sink) -> tuple[model.Period, ...]:
    if header is None:
        return ()
    calendar_end = (Month.parse(header.calendar[1].text) if header.calendar else None) or Month("9999-12")
    out: list[model.Period] = []
    seen: dict[str, ast.Span] = {}
    for p in header.periods:
        if p.name.text in seen:
            declared_twice(sink, f"period `{p.name.text}`", p.name.span, seen[p.name.text])
            continue
        seen[p.name.text] = p.name.span
        first = _checked_month(p.first, sink)
        last = _checked_month(p.last, sink) if p.last is not None else calendar_end
        if first is None or last is None:
            continue
        if first > last:
            sink.emit(codes.INVALID_MONTH, f"period `{p.name.text}` runs backwards: {first} to {last}", p.first.span)
            continue
        out.append(model.Period(p.name.text, p.label.text, first, last, p.span, open_end=p.last is None))
    return tuple(out)


def turns(header: ast.GameDecl | None, sink: Sink) -> model.TurnTrack | None:
    """The game's turn track (`turns 1944-06-06 AM to 1944-06-12 PM halves [AM, PM]`), or None when
    it has none or it is wrong (C419: a day that does not exist, fewer than two halves, a half
    named twice or an end's half not among them, a track running backwards or too long)."""
    decl = header.turns if header is not None else None
    if decl is None:
        return None
    names = [h.text for h in decl.halves]
    ok = True
    for i, h in enumerate(decl.halves):
        if h.text in names[:i]:
            sink.emit(codes.INVALID_TURN, f"half `{h.text}` is named twice in the turn track", h.span,
                      "name each half of a day once")
            ok = False
    days: list[datetime.date | None] = []
    for day, half in ((decl.first_day, decl.first_half), (decl.last_day, decl.last_half)):
        parsed = parse_day(day.text)
        if parsed is None:
            sink.emit(codes.INVALID_TURN, f"`{day.text}` is not a day of the calendar", day.span,
                      "write a real day `YYYY-MM-DD`")
            ok = False
        if half.text not in names:
            _unknown_half(half.text, half.span, names, sink)
            ok = False
        days.append(parsed)
    first_day, last_day = days
    if not ok or first_day is None or last_day is None:
        return None
    track = model.TurnTrack(first_day, last_day, tuple(names), decl.first_half.text, decl.last_half.text)
    first, last = track.first, track.last
    if track.count() == 0:
        sink.emit(codes.INVALID_TURN, f"the turn track runs backwards: {first} to {last}", decl.span)
        return None
    if track.count() > MAX_TURNS:
        sink.emit(codes.INVALID_TURN, f"the turn track {first} to {last} has {track.count()} turns (at most "
                  f"{MAX_TURNS})", decl.span, "check the years: a track covers the days its turns are played in")
        return None
    return track


def _unknown_half(half: str, span: ast.Span, names: list[str], sink: Sink) -> None:
    sink.emit(codes.INVALID_TURN, f"the turn track has no half `{half}`", span,
              "its halves: " + ", ".join(f"`{n}`" for n in names))
