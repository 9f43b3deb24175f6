"""`chartc compute`: the value of a formula (a computed value such as USAAF 22.2's production
increase) for the context variables given."""

from __future__ import annotations

import json
from pathlib import Path

import click

from compiler import model
from compiler.cli.common import (
    JSON_FORMATS,
    charts_option,
    echo_lines,
    fail,
    format_option,
    load_clean_game,
    set_option,
    split_address,
    usage_error,
    when_option,
)
from compiler.cli.printing import printing_options
from compiler.diagnostics import did_you_mean
from compiler.diagnostics.textsafe import json_text, printable
from compiler.engine.compute import compute
from compiler.engine.formulas import formula_refs
from compiler.engine.lookup import LookupProblem, LookupUsage
from compiler.errata.printing import Printing
from compiler.model.formulas import expr_text
from compiler.query.inconsistencies import inconsistencies_json, inconsistency_lines


@click.command("compute")
@click.argument("address")
@when_option
@set_option
@format_option(JSON_FORMATS, "human: the formula, its inputs and the result; json: the value and its inputs.")
@printing_options
@charts_option
def compute_command(
    address: str, when: tuple[str, ...], sets: tuple[str, ...], fmt: str, printing: Printing, charts_dir: Path
) -> None:
    """Print the value of formula ADDRESS (GAME/FORMULA, e.g. usaaf/production_increase).

    Each context variable the formula reads is given with --set NAME=N (a flag with --when FLAG;
    a flag left out is false). `chartc compute usaaf/production_increase --set production=10`
    prints 13 (USAAF 22.2: one third more, remainders rounded down).
    """
    game_id, name = split_address(address)
    game = load_clean_game(game_id, charts_dir, printing)
    formula = game.formula(name)
    if formula is None:
        close = did_you_mean(name, [f.id for f in game.formulas])
        known = ", ".join(f.id for f in game.formulas) or "none"
        hint = f"; {close}" if close and close.startswith("did you mean") else ""
        raise usage_error(f"no formula `{name}` in game `{game_id}` (its formulas: {known}){hint}")
    try:
        got = compute(game, formula, when, sets)
    except LookupUsage as exc:
        raise usage_error(str(exc)) from exc
    except LookupProblem as exc:
        fail(str(exc))
    given = {k: v if isinstance(v, bool | int) else str(v) for k, v in sorted(got.context.items())}
    if fmt == "json":
        doc = {"game": game_id, "formula": formula.id, "rule": formula.rule, "text": got.text}
        corrected = {"errata": [_errata_json(f) for f in fixed]} if (fixed := _corrected(game, formula)) else {}
        found = {"inconsistencies": books} if (books := inconsistencies_json(game, formula)) else {}
        click.echo(json_text(json.dumps({**doc, "inputs": given, "value": got.value, **corrected, **found},
                                        ensure_ascii=False, indent=2)))
        return
    lines = [f"{game_id}/{formula.id} {formula.title} (rule {formula.rule})", f"  {got.text}"]
    lines += [f"  {k} = {'yes' if v is True else 'no' if v is False else v}" for k, v in given.items()]
    lines.append(f"  Result: {got.value}")
    lines += [_errata_line(game, f, f is not formula) for f in _corrected(game, formula)]
    lines += inconsistency_lines(game, formula)
    echo_lines(printable(line) for line in lines)


def _corrected(game: model.Game, formula: model.Formula) -> list[model.Formula]:
    """The formula and each formula it uses, at any depth, that an errata corrected: each changes
    the value computed."""
    found: list[model.Formula] = []
    todo, seen = [formula], {formula.id}
    while todo:
        f = todo.pop(0)
        if f.errata:
            found.append(f)
        for ref in formula_refs(f):
            used = game.formula(ref)
            if used is not None and ref not in seen:
                seen.add(ref)
                todo.append(used)
    return found


def _errata_line(game: model.Game, formula: model.Formula, used: bool) -> str:
    """`  Errata: Official errata (printed floor(sorties_flown / 3)): ...`: who corrected the
    formula's result (or that of a formula it uses, named), what the print had and why."""
    titles = {e.id: e.title for e in game.errata}
    cited = ", ".join(titles.get(e, e) for e in formula.errata)
    was = "; ".join(formula.as_printed())
    whose = f"{formula.id} " if used else ""
    return f"  Errata: {cited} ({whose}{was})" + "".join(f": {why}" for why in formula.because)


def _errata_json(formula: model.Formula) -> dict[str, object]:
    printed = expr_text(formula.printed) if formula.printed is not None else None
    return {"formula": formula.id, "ids": list(formula.errata), "printed": printed, "because": list(formula.because),
            "as_printed": list(formula.as_printed())}
