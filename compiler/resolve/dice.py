"""Whether a declared roll can be rolled: dice counts, faces and results within the exact model's
limits, and each form's own shape (a keep form keeps fewer dice than it rolls)."""

from __future__ import annotations

from typing import assert_never

from dsl import ast


def dice_problem(decl: ast.DiceDecl, max_count: int, max_sides: int, max_results: int, max_depth: int) -> str | None:
    """What makes `decl` unrollable, worded to follow "cannot roll", or None when it can be rolled.

    Args:
        decl: a `roll` statement's dice other than d66 and percentile (fixed dice).
        max_count: the most dice one side may roll.
        max_sides: the most faces a die may have.
        max_results: the most natural results a roll may have (each is tabulated with its chance).
        max_depth: the most times an exploding die may roll again.
    """
    sides = [(decl.count, decl.sides)]
    if decl.form == ast.DiceForm.VERSUS:
        sides.append((decl.versus_count, decl.versus_sides))
    for count, faces in sides:
        if count < 1 or count > max_count:
            return f"{count} dice (1 to {max_count} are supported)"
        if faces < 2 or faces > max_sides:
            return f"dice with {faces} face{'s' if faces != 1 else ''} (2 to {max_sides} are supported)"
    match decl.form:
        case ast.DiceForm.LOWER | ast.DiceForm.HIGHER:
            word = "lower" if decl.form == ast.DiceForm.LOWER else "higher"
            if decl.count < 2:
                return f"the {word} of {decl.count}d{decl.sides} (2 or more dice)"
        case ast.DiceForm.HIGHEST | ast.DiceForm.LOWEST:
            if not 1 <= decl.keep < decl.count:
                return f"`{decl.text}`: keep 1 to {decl.count - 1} of {decl.count}d{decl.sides}"
        case ast.DiceForm.EXPLODE:
            if not 1 <= decl.depth <= max_depth:
                return f"`{decl.text}`: a die may roll again 1 to {max_depth} times"
        case ast.DiceForm.SUM | ast.DiceForm.D66 | ast.DiceForm.PERCENTILE | ast.DiceForm.VERSUS:
            pass
        case ast.DiceForm.LOWER_TENS:
            pass
        case _:
            assert_never(decl.form)
    results = _results(decl)
    if results > max_results:
        return f"`{decl.text}`: {results} different results, more than the {max_results} chartc tabulates"
    return None


def _results(decl: ast.DiceDecl) -> int:
    """How many natural results the dice can roll, at most (each die's faces 1..S or 0..S-1)."""
    spread = decl.sides - 1  # from a die's lowest face to its highest
    match decl.form:
        case ast.DiceForm.LOWER | ast.DiceForm.HIGHER:
            return spread + 1
        case ast.DiceForm.HIGHEST | ast.DiceForm.LOWEST:
            return decl.keep * spread + 1
        case ast.DiceForm.VERSUS:
            return decl.count * spread + decl.versus_count * (decl.versus_sides - 1) + 1
        case ast.DiceForm.EXPLODE:  # each re-roll adds the top face and another face
            return decl.count * (spread + decl.depth * decl.sides) + 1
        case ast.DiceForm.SUM | ast.DiceForm.D66 | ast.DiceForm.PERCENTILE:
            return decl.count * spread + 1
        case ast.DiceForm.LOWER_TENS:
            return 55
        case _:
            assert_never(decl.form)
