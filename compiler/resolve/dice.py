"""Whether a declared roll can be rolled: dice counts and faces within the exact model's limits,
and each form's own shape (a keep form keeps fewer dice than it rolls)."""

from __future__ import annotations

from typing import assert_never

from dsl import ast


def dice_problem(decl: ast.DiceDecl, max_count: int, max_sides: int, max_outcomes: int) -> str | None:
    """What makes `decl` unrollable, worded to follow "cannot roll", or None when it can be rolled.

    Args:
        decl: a `roll` statement's dice other than d66 and percentile (fixed dice).
        max_count: the most dice one side may roll.
        max_sides: the most faces a die may have.
        max_outcomes: the most face combinations a form read die by die may enumerate.
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
            if decl.sides**decl.count > max_outcomes:
                return f"the {word} of {decl.count}d{decl.sides}: {_too_many(decl, max_outcomes)}"
        case ast.DiceForm.HIGHEST | ast.DiceForm.LOWEST:
            if not 1 <= decl.keep < decl.count:
                return f"`{decl.text}`: keep 1 to {decl.count - 1} of {decl.count}d{decl.sides}"
            if decl.sides**decl.count > max_outcomes:
                return f"`{decl.text}`: {_too_many(decl, max_outcomes)}"
        case ast.DiceForm.SUM | ast.DiceForm.D66 | ast.DiceForm.PERCENTILE | ast.DiceForm.VERSUS:
            pass
        case _:
            assert_never(decl.form)
    return None


def _too_many(decl: ast.DiceDecl, max_outcomes: int) -> str:
    """Why dice read die by die are refused for their size: `10^10 face combinations ...`."""
    return f"{decl.sides}^{decl.count} face combinations, more than the {max_outcomes} chartc reads die by die"
