"""A row's key on a game's turn track (`key turn`): one turn `1944-06-07 PM`, a span
`1944-06-07 AM..1944-06-08 PM`, or that turn on `1944-06-09 AM+`, bound to the track (C419, C427).
The track itself is the header's (`compiler.resolve.header.turns`)."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Applicability, Sink, Slot, codes, fixes
from compiler.model.turns import parse_day
from compiler.resolve.symbols import SymbolTable
from dsl import ast


def turn_span(
    symbols: SymbolTable, key: model.Key, kv: ast.KeyValueText, where: str, sink: Sink
) -> tuple[bool, model.KeyMatch]:
    """The turns a row's key value covers: a member id for one turn, a TurnSpan for several, or
    (False, None) after reporting a value that is not a turn of the track."""
    track = symbols.turns
    if kv.kind is not ast.KeyValueKind.TURNS or kv.first is None or track is None:
        sink.emit(
            codes.UNKNOWN_NAME,
            f"`{kv.text}` is not a turn for key `{key.id}` in {where}",
            kv.span,
            "write a turn `1944-06-07 PM`, a span `1944-06-07 AM..1944-06-08 PM`, or `1944-06-09 AM+` for that "
            "turn on",
        )
        return False, None
    first = check_turn(symbols, kv.first, kv.span, sink)
    last = check_turn(symbols, kv.last, kv.span, sink) if kv.last is not None and first is not None else None
    if first is None or (kv.last is not None and last is None):
        return False, None
    if last is not None and (track.ordinal(first) or 0) > (track.ordinal(last) or 0):
        swapped = f"{kv.last}..{kv.first}"
        fix = fixes.replace_with(kv.span, swapped, Slot.RAW, Applicability.SAFE, old=kv.text)
        sink.emit(codes.INVALID_TURN, f"turn span `{kv.text}` runs backwards", kv.span, f"write `{swapped}`", fix=fix)
        return False, None
    if last == first:
        return True, model.MemberId(first)
    return True, model.TurnSpan(first, last, kv.text, track.halves)


def check_turn(symbols: SymbolTable, text: str, span: ast.Span, sink: Sink) -> str | None:
    """The turn `text` names; None after reporting a day that does not exist or a half the track
    does not have (C419), or a turn outside the track (C427)."""
    track = symbols.turns
    assert track is not None, "a turn is read only on a game with a turn track"
    day, _, half = text.partition(" ")
    if parse_day(day) is None:
        sink.emit(codes.INVALID_TURN, f"`{day}` is not a day of the calendar", span, "write a real day `YYYY-MM-DD`")
        return None
    if half not in track.halves:
        sink.emit(
            codes.INVALID_TURN,
            f"the turn track of game `{symbols.id}` has no half `{half}`",
            span,
            "its halves: " + ", ".join(f"`{h}`" for h in track.halves),
        )
        return None
    if not track.contains(text):
        sink.emit(
            codes.TURN_OUTSIDE_TRACK,
            f"{text} lies outside the turn track of game `{symbols.id}` ({track.first} to {track.last})",
            span,
            "check the turn, or widen the game's `turns` track",
        )
        return None
    return text
