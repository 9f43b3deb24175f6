"""What a DRM means on a roll read digit by digit (C413): d66 and percentile rolls need a `drm_meaning`
statement, since adding to a two-digit reading has no obvious meaning. And why the dice cannot
roll a row's numbers (a d66 digit 7-9, a face the die does not have), for C306."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Applicability, Sink, codes, fixes
from compiler.model.dice import Dice, DiceForm
from dsl.shared import Span
from dsl.source_text import quote


def check_drm_meaning(chart: model.Chart, sink: Sink) -> None:
    """C413: DRMs on a d66 or percentile roll without a `drm_meaning` statement saying what they do."""
    dice = chart.unstated_digit_drm
    if not chart.drms or dice is None:
        return
    first = chart.drms[0].span
    if not _inside(first, chart.span):  # a derived chart's DRMs are its base's, reported there
        return
    sink.emit(
        codes.DRM_ON_DIGIT_ROLL,
        f"a DRM on a {dice.form} roll has no obvious meaning in chart `{chart.address}`",
        first,
        f"say what it does, e.g. `drm_meaning {_ADDED}`",
        # a statement after the first DRM; it states a reading the rules may not give (unsafe)
        fix=fixes.insert_after(first, f"drm_meaning {_ADDED}", Applicability.UNSAFE),
    )


_ADDED = quote("the DRM is added to the two-digit result")


def _inside(span: Span, outer: Span) -> bool:
    return span.file == outer.file and (outer.line, outer.col) <= (span.line, span.col) <= (
        outer.end_line,
        outer.end_col,
    )


def unreachable_reason(dice: Dice, rng: model.DieRange) -> str | None:
    """Why the dice alone never roll any number of a closed range, in the field's words, or None when
    some number is a natural roll or the range is open (then only the DRM span explains it).

    `39 is not a d66 roll: the ones digit is 1-6`; `0 is not a face of a d6 (1 to 6)`;
    `11-17 lies outside 1d10, which rolls 1 to 10`; `90-98` holds no roll of `percentile lower as
    tens`: the lower d10 is the tens, so the tens digit is never above the ones.
    """
    if rng.low is None or rng.high is None or any(v in dice.outcomes for v in range(rng.low, rng.high + 1)):
        return None
    what = str(rng.low) if rng.low == rng.high else f"`{rng.printed}`"
    digit = _bad_d66_digit(range(rng.low, rng.high + 1)) if dice.form is DiceForm.D66 else None
    if digit is not None:
        verb = "is not a d66 roll" if rng.low == rng.high else "holds no d66 roll"
        return f"{what} {verb}: the {digit} digit is 1-6"
    if dice.form is DiceForm.LOWER_TENS and rng.low > 0 and rng.high < 100:
        verb = "is never rolled" if rng.low == rng.high else "holds no roll"
        return f"{what} {verb}: the lower d10 is the tens, so the tens digit is never above the ones"
    if dice.form is DiceForm.SUM and dice.count == 1 and rng.low == rng.high:
        return f"{what} is not a face of a d{dice.sides} ({dice.min} to {dice.max})"
    return f"{what} lies outside {dice.text}, which rolls {dice.min} to {dice.max}"


def _bad_d66_digit(values: range) -> str | None:
    """`ones` or `tens` when every number of `values` has that digit outside 1-6 (a d66 reads two d6
    as tens and ones), else None."""
    if all(0 <= v <= 99 and not 1 <= v % 10 <= 6 for v in values):
        return "ones"
    if all(0 <= v <= 99 and not 1 <= v // 10 <= 6 for v in values):
        return "tens"
    return None
