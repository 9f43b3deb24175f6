"""Typing a chained cell: `-> [B6] (interceptor=jet, +1)`, `-> again (+1)`, `-> 1d6 { 1-4: ...; 5-6: ... }`.

A reference's target and keys are bound once every chart of the game is known
(`compiler.checks.chains`); here a roll in a cell gets its dice, its ranges read with them and its
outcomes typed against the cell's column, and the ranges must tile the dice (C454).
"""

from __future__ import annotations

import re
from typing import Protocol, assert_never

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.fixes import Slot
from compiler.model.dice import Dice, DiceForm
from compiler.resolve.symbols import BAD, Bad
from dsl import ast


class ValueTyper(Protocol):
    """What typing a chained cell needs of `compiler.resolve.values.ValueTyper`: the sink, the
    chart references it collects, and typing the outcomes of a roll in the cell."""

    sink: Sink
    chart_refs: list[tuple[str, ast.Span, str, Slot]]

    def typed(self, v: ast.ValueText, type_: model.ColumnType, what: str) -> model.Value | Bad: ...

_DICE_RE = re.compile(r"^(\d*)d(\d+)$")
_RANGE_RE = re.compile(r"^(\d+)(?:(-)(\d+)?|(\+))?$")
# a roll inside a cell picks among a few printed results: small dice only
_MAX_COUNT = 10
_MAX_SIDES = 100


def chain_value(typer: ValueTyper, v: ast.ValueText, type_: model.ColumnType, what: str) -> model.Value | Bad:
    """The chained result a `->` cell writes, typed against the column `type_` (the outcomes of a
    roll in the cell are values of that column); BAD after reporting what does not fit."""
    chain = v.chain
    if chain is None:  # pragma: no cover - the builder sets `chain` on every CHAIN value
        return BAD
    match chain.kind:
        case ast.ChainKind.CHART:
            assert chain.target is not None  # the grammar gives a chart reference its target
            typer.chart_refs.append((chain.target.text, chain.target.span, what, Slot.CHART))
            keys = tuple(model.ChainKey(k.key.text, k.value, k.span) for k in chain.keys)
            return model.ChartRef(chain.target.text, keys, chain.drm, chain.span, chained=True)
        case ast.ChainKind.AGAIN:
            if chain.keys:
                typer.sink.emit(
                    codes.CHAIN_KEY,
                    f"`-> again` in {what} rolls again with the same keys; it takes no key",
                    chain.keys[0].span,
                    "delete the key, or send the reader to a chart: `-> [ID] (key=value)`",
                )
                return BAD
            return model.RollAgain(chain.drm, chain.span)
        case ast.ChainKind.ROLL:
            return _sub_roll(typer, chain, type_, what)
        case _:
            assert_never(chain.kind)


def _sub_roll(typer: ValueTyper, chain: ast.ChainText, type_: model.ColumnType, what: str) -> model.Value | Bad:
    """A roll inside a cell: its dice, its outcomes typed against the column and tiling the dice."""
    dice = _dice(typer, chain, what)
    if dice is None:
        return BAD
    outcomes: list[model.SubOutcome] = []
    ok = True
    for written in chain.outcomes:
        rng = _range(typer, written.range, dice, what)
        if written.value.kind is ast.ValueKind.CHOICE:
            typer.sink.emit(
                codes.CHOICE_SHAPE,
                f"a roll in {what} gives a choice: the outcomes of a roll are results, not choices",
                written.value.span,
                "give the choice as the cell itself (`one of [...]`), or a result per face",
            )
            ok = False
            continue
        value = typer.typed(written.value, type_, what)
        if rng is None or isinstance(value, Bad):
            ok = False
            continue
        outcomes.append(model.SubOutcome(rng, value))
    if not ok or not _tiles(typer, chain, dice, outcomes, what):
        return BAD
    return model.SubRoll(dice, tuple(outcomes), chain.span)


def _dice(typer: ValueTyper, chain: ast.ChainText, what: str) -> Dice | None:
    """The dice of a roll in a cell (`1d6`, `2d6`, `1d3`), or None after reporting them (C405)."""
    m = _DICE_RE.match(chain.dice or "")
    count = int(m.group(1) or "1") if m else 0
    sides = int(m.group(2)) if m else 0
    if not (1 <= count <= _MAX_COUNT and 2 <= sides <= _MAX_SIDES):
        typer.sink.emit(
            codes.INVALID_DICE,
            f"the roll in {what} cannot roll `{chain.dice}` (1 to {_MAX_COUNT} dice of 2 to {_MAX_SIDES} faces)",
            chain.span,
        )
        return None
    return Dice(DiceForm.SUM, count, sides)


def _range(typer: ValueTyper, text: ast.RangeText, dice: Dice, what: str) -> model.DieRange | None:
    """`1-4`, `5+`, `3-`, `6` or a d10's `9-0` read with the cell's dice; None after reporting it."""
    m = _RANGE_RE.match(text.text)
    low = dice.read_number(m.group(1)) if m else None
    high = dice.read_number(m.group(3)) if m and m.group(3) else None
    backwards = low is not None and high is not None and low > high
    if m is None or low is None or (m.group(3) and high is None) or backwards:
        typer.sink.emit(
            codes.CHAIN_ROLL,
            f"`{text.text}` is not a range of the roll {dice.text} in {what}",
            text.span,
            f"write ranges of {dice.text} results ({dice.min} to {dice.max}), e.g. `1-4`",
        )
        return None
    if m.group(4):
        return model.DieRange(low, None, text.text, text.span)
    if m.group(2) and not m.group(3):
        return model.DieRange(None, low, text.text, text.span)
    return model.DieRange(low, high if m.group(3) else low, text.text, text.span)


def _tiles(
    typer: ValueTyper, chain: ast.ChainText, dice: Dice, outcomes: list[model.SubOutcome], what: str
) -> bool:
    """Whether every result of the dice selects exactly one outcome (C454 for a gap, an overlap or
    an outcome no result selects)."""
    rolls = sorted(dice.outcomes)
    problems: list[str] = []
    for o in outcomes:
        if not any(o.range.contains(r) for r in rolls):
            problems.append(f"`{o.range.printed}` holds no result of {dice.text}")
    missing = [r for r in rolls if not any(o.range.contains(r) for o in outcomes)]
    doubled = [r for r in rolls if sum(o.range.contains(r) for o in outcomes) > 1]
    if missing:
        problems.append(f"{_rolls_text(missing)} select{'s' if len(missing) == 1 else ''} no outcome")
    if doubled:
        problems.append(f"{_rolls_text(doubled)} select{'s' if len(doubled) == 1 else ''} two outcomes")
    if problems:
        typer.sink.emit(
            codes.CHAIN_ROLL,
            f"the roll {dice.text} in {what} does not give one outcome per result: " + "; ".join(problems),
            chain.span,
            f"give each result of {dice.text} ({dice.min} to {dice.max}) exactly one outcome",
        )
        return False
    return True


def _rolls_text(rolls: list[int]) -> str:
    """`rolls 5, 6` or `roll 5`."""
    return ("roll " if len(rolls) == 1 else "rolls ") + ", ".join(str(r) for r in rolls)
