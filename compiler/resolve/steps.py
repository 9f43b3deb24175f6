"""A roll's arithmetic: the `then` steps of a chart's `roll` and its `modified clamp` as the model's
pipeline, and the steps that make no sense (C343).

The pipeline is the steps in the order written, with the DRMs where a `then drms` step puts them
and else right after the dice (IA2 10.16: "Add a +1 drm to the Flak attack roll", made before
"subtract 3"); `modified clamp LOW to HIGH` ends it with `minimum LOW` and `maximum HIGH`. What the
steps do is the engine's (`compiler.engine.runtime.roll`).
"""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Label, Sink, codes
from compiler.model.dice import DIGIT_FORMS, Dice
from dsl import ast


def roll_pipeline(
    decl: ast.ChartDecl, dice: Dice | None, sink: Sink, where: str
) -> tuple[tuple[model.RollStep, ...], bool]:
    """The chart's pipeline: its `roll`'s steps and its `modified clamp`, with the DRM step in
    place (empty when the chart has neither: the natural roll plus the DRM total), and whether
    every step made sense.

    Reports C343 for steps on a `roll ... when` alternative (every dice of the chart go through
    the chart's one pipeline), the DRMs added twice, each step `_step_problem` refuses, and a
    minimum above a maximum; such a step is left out of the pipeline.
    """
    before = len(sink.items)
    for alt in decl.roll_alternatives:
        if alt.dice.steps:
            sink.emit(
                codes.INVALID_ROLL_STEP,
                f"the `roll ... when` alternative of {where} has steps of its own",
                alt.dice.steps[0].span,
                "write the steps once, on the chart's own `roll`: every dice the chart rolls go through them",
            )
    steps = list(decl.roll.steps) if decl.roll is not None else []
    clamp = decl.modified_clamp
    if clamp is not None and clamp.low <= clamp.high:  # a reversed clamp is C304 (`ChartResolver`)
        steps += [
            model.RollStep(model.StepKind.MINIMUM, clamp.span, clamp.low),
            model.RollStep(model.StepKind.MAXIMUM, clamp.span, clamp.high),
        ]
    if not steps:
        return (), len(sink.items) == before
    drms = [s for s in steps if s.kind is model.StepKind.DRMS]
    for extra in drms[1:]:
        sink.emit(
            codes.INVALID_ROLL_STEP,
            f"{where} adds its DRMs twice",
            extra.span,
            "keep one `then drms`, where the rule adds the DRMs",
            (Label(drms[0].span, "the DRMs are added here first"),),
        )
        steps.remove(extra)
    if not drms:
        steps.insert(0, model.RollStep(model.StepKind.DRMS, steps[0].span))
    kept = []
    for step in steps:
        problem = _step_problem(step, dice)
        if problem is None:
            kept.append(step)
        else:  # left out, so that the checks of the rows do not echo it
            sink.emit(codes.INVALID_ROLL_STEP, f"`{step.text}` in {where}: {problem[0]}", step.span, problem[1])
    kept = _within_bounds(kept, sink, where)
    return tuple(kept), len(sink.items) == before


def _step_problem(step: model.RollStep, dice: Dice | None) -> tuple[str, str] | None:
    """Why one step makes no sense, with the help line, or None."""
    if step.kind is model.StepKind.DRMS:
        return None
    if dice is not None and dice.form in DIGIT_FORMS:
        return (
            f"a {dice.form} roll is read digit by digit, so arithmetic on it has no meaning",
            "read the printed table by the two digits as rolled, or roll dice that are summed",
        )
    match step.kind:
        case model.StepKind.ADD if step.amount == 0:
            return "adding or subtracting 0 changes no roll", "delete the step"
        case model.StepKind.TIMES if step.amount == 0:
            return "every roll would read 0", "write the factor the rule states (`doubled` is `times 2`)"
        case model.StepKind.TIMES if step.amount == 1:
            return "multiplying by 1 changes no roll", "delete the step"
        case model.StepKind.HALVE if step.rounding is model.Rounding.NEAREST:
            return (
                "half of an odd roll lies midway, so `nearest` does not say which way it goes",
                "write `round down` or `round up`, as the rule prints it",
            )
    return None


def _within_bounds(steps: list[model.RollStep], sink: Sink, where: str) -> list[model.RollStep]:
    """The steps without a bound that contradicts an earlier one (C343 for a minimum above a
    maximum: every roll would then read the same number, the later bound, whatever the dice show)."""
    kept: list[model.RollStep] = []
    for step in steps:
        rival = _contradicted(step, kept)
        if rival is None:
            kept.append(step)
            continue
        low, high = (step, rival) if step.kind is model.StepKind.MINIMUM else (rival, step)
        sink.emit(
            codes.INVALID_ROLL_STEP,
            f"`minimum {low.amount}` lies above `maximum {high.amount}` in {where}: no roll lies between them",
            step.span,
            "write the minimum at or below the maximum, as the rule states them",
            (Label(rival.span, f"`{rival.text}` here"),),
        )
    return kept


def _contradicted(step: model.RollStep, before: list[model.RollStep]) -> model.RollStep | None:
    """The earlier bound `step` contradicts (a maximum below an earlier minimum, or the reverse)."""
    bounds = {model.StepKind.MINIMUM, model.StepKind.MAXIMUM}
    for earlier in before:
        if {step.kind, earlier.kind} != bounds:
            continue
        low, high = (step, earlier) if step.kind is model.StepKind.MINIMUM else (earlier, step)
        if low.amount > high.amount:
            return earlier
    return None
