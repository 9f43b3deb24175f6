"""Rows written as printed weights (`3 in 6: "Clear"`): their ranges, derived in order from the
die's lowest face, and the check that the weights fill the die (C344).

A table printed as chances ("1 in 6, 2 in 6, 3 in 6") is read on one die whose faces are equally
likely: each weighted row takes the next `weight` faces. The rows of each key combination (rows
whose key values are written alike) count from the lowest face again.
"""

from __future__ import annotations

import dataclasses

from compiler.diagnostics import Sink, codes
from compiler.model.dice import Dice, DiceForm
from dsl import ast


def derive_weighted_rows(rows: tuple[ast.RowDecl, ...], dice: Dice | None, sink: Sink, where: str) -> tuple[
    tuple[ast.RowDecl, ...], bool
]:
    """The rows with each weighted row's range derived (`3 in 6` -> `1-3`), and whether every
    weight was read (False: the chart is broken and a C344 says why)."""
    weighted = [r for r in rows if r.out_of is not None]
    if not weighted:
        return rows, True
    first = weighted[0]
    assert first.range is not None and first.out_of is not None
    if dice is None or dice.form is not DiceForm.SUM or dice.count != 1:
        what = dice.text if dice is not None else "no dice"
        sink.emit(
            codes.WEIGHTS_FILL,
            f"{where} prints weights (`{first.range.text} in {first.out_of.text}`) but is rolled with {what}",
            first.span,
            "weights are read on one die whose faces are equally likely: write `roll 1d6` (or `1d10`, `1d20`), "
            "or write the rows' ranges",
        )
        return rows, False
    faces = sorted(dice.outcomes)
    groups: dict[tuple[str, ...], list[ast.RowDecl]] = {}
    for r in weighted:
        groups.setdefault(tuple(k.text for k in r.keys), []).append(r)
    derived: dict[int, ast.RowDecl] = {}
    ok = True
    for group in groups.values():
        ok = _derive_group(group, faces, dice, derived, sink, where) and ok
    return tuple(derived.get(id(r), r) for r in rows), ok


def _derive_group(
    group: list[ast.RowDecl], faces: list[int], dice: Dice, derived: dict[int, ast.RowDecl], sink: Sink, where: str
) -> bool:
    weights = []
    for r in group:
        assert r.range is not None and r.out_of is not None
        weight, out_of = int(r.range.text) if r.range.text.isdigit() else 0, int(r.out_of.text)
        if weight < 1 or out_of != len(faces):
            sink.emit(
                codes.WEIGHTS_FILL,
                f"weight `{r.range.text} in {r.out_of.text}` of {where} is not a count of the {len(faces)} faces of "
                f"{dice.text}",
                r.span,
                f"write each weight as a whole number of chances in {len(faces)} (`2 in {len(faces)}`)",
            )
            return False
        weights.append(weight)
    total = sum(weights)
    if total != len(faces):
        keys = " ".join(k.text for k in group[0].keys)
        sink.emit(
            codes.WEIGHTS_FILL,
            f"the weights of {where}{f' for `{keys}`' if keys else ''} add up to {total}, but {dice.text} has "
            f"{len(faces)} faces: {'some faces select no row' if total < len(faces) else 'the rows need more faces'}",
            group[0].span,
            f"correct the weights against the print so that they add up to {len(faces)} "
            f"({' + '.join(map(str, weights))} = {total})",
        )
        return False
    at = 0
    for r, weight in zip(group, weights, strict=True):
        assert r.range is not None
        low, high = faces[at], faces[at + weight - 1]
        text = str(low) if low == high else f"{low}-{high}"
        derived[id(r)] = dataclasses.replace(r, range=ast.RangeText(text, r.range.span))
        at += weight
    return True
