"""Hold a rulebook's worked examples against its charts.

Each `example` is evaluated exactly as the equivalent `chartc lookup` (with `--follow` when the
example follows a chain), through `compiler.query`, so an example and the command line cannot
disagree. Every DRM of the chart is read: the flags the example names hold, every other flag is
false, the values it sets are set, and its `drm` is added on top (as `--drm`).

Findings: C460 where the charts give something else than the example states (at the `expect`
line, with the row the chart selects), C461 (a note) where the example declares that it
`contradicts` the charts and does, C462 where it declares so but the charts agree, C463 where its
inputs are ones `chartc lookup` refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import assert_never

from compiler import model
from compiler.diagnostics import Applicability, Label, Sink, codes, fixes
from compiler.engine.compute import compute
from compiler.engine.follow import follow
from compiler.engine.lookup import DrmListAnswer, Forces, LookupProblem, LookupResult, NoRow, OddsColumnAnswer, answer
from compiler.model.text import cell_text, row_range_text, value_text


@dataclass(frozen=True)
class Reading:
    """What the charts give for an example's inputs: the answer of its last lookup, the row's values
    once the rolls inside its cells were made, and the chart that answered; `no_row` when the roll
    selects no row (then `problem` says why)."""

    chart: model.Chart
    result: LookupResult | OddsColumnAnswer | DrmListAnswer | None
    values: tuple[model.Value, ...] = ()
    no_row: str | None = None


@dataclass(frozen=True)
class Mismatch:
    """An expectation the charts do not meet: what the example states and what the charts give."""

    expect: model.Expect
    stated: str
    given: str


def check_examples(game: model.Game, sink: Sink) -> None:
    """C460-C463 for every worked example of the game."""
    for example in game.examples:
        if example.formula is not None:
            _check_formula_example(game, example, sink)
            continue
        chart = game.chart(example.chart)
        if chart is None:  # pragma: no cover - the resolver keeps only examples whose chart exists
            continue
        try:
            reading = read_example(game, chart, example)
        except LookupProblem as exc:
            sink.emit(
                codes.EXAMPLE_UNREADABLE,
                f"example `{example.id}` cannot be read on `{chart.address}`: {_lower_first(str(exc))}",
                example.span,
                "write the inputs as `chartc lookup` takes them",
            )
            continue
        _report(game, example, reading, list(mismatches(game, example, reading)), sink)


def _check_formula_example(game: model.Game, example: model.Example, sink: Sink) -> None:
    formula = game.formula(example.formula or "")
    if formula is None:  # pragma: no cover - the resolver keeps only examples whose formula exists
        return
    sets = tuple(f"{name}={value}" for name, value in example.sets)
    try:
        got = compute(game, formula, example.when, sets)
    except LookupProblem as exc:
        sink.emit(
            codes.EXAMPLE_UNREADABLE,
            f"example `{example.id}` cannot compute `{formula.id}`: {_lower_first(str(exc))}",
            example.span,
            "give every input the formula reads with `set NAME = N` (flags with `when`)",
        )
        return
    wrong = [e for e in example.expects if int(e.text) != got.value]
    if not wrong and example.contradicts is not None:
        sink.emit(
            codes.EXAMPLE_AGREES,
            f"example `{example.id}` says it contradicts the charts, but `{formula.id}` gives what it states",
            example.contradicts_span or example.span,
            "delete the `contradicts` line",
            fix=_delete_contradicts(example),
        )
    for expect in wrong:
        message = (
            f"example `{example.id}` ({_rule(example)}): the book gives {expect.text}, "
            f"`{formula.id}` gives {got.value} ({got.text})"
        )
        if example.contradicts is None:
            sink.emit(
                codes.EXAMPLE_CONTRADICTED,
                message,
                expect.span,
                "check the example and the formula against the book",
                (Label(formula.span, f"formula `{formula.id}`"),),
            )
        else:
            sink.emit(
                codes.EXAMPLE_KEPT,
                f"{message}; the formula is kept as printed: {example.contradicts}",
                expect.span,
                None,
                (Label(formula.span, f"formula `{formula.id}`"),),
            )


def read_example(game: model.Game, chart: model.Chart, example: model.Example) -> Reading:
    """The charts' answer to the example's inputs.

    Raises:
        LookupProblem: inputs the lookup refuses (an impossible roll, an unknown key or flag),
            except a roll that selects no row, which is a `Reading` with `no_row` set.
    """
    keys = dict(example.keys)
    sets = tuple(f"{name}={value}" for name, value in example.sets)
    try:
        if example.follow:
            walk = follow(
                game, chart, list(example.rolls), keys, example.drm, when=example.when, sets=sets, read_drms=True
            )
            last = walk.steps[-1]
            return Reading(last.result.chart, last.result, last.branch.values)
        forces = None
        if example.attack is not None:
            forces = Forces(example.attack, example.defense, example.shift or 0)
        roll = example.rolls[0] if example.rolls else None
        if len(example.rolls) > 1:
            raise LookupProblem(f"{len(example.rolls)} rolls given without `follow` (one lookup takes one roll)")
        got = answer(game, chart, roll, keys, example.drm, forces, context={}, when=example.when, sets=sets)
    except NoRow as exc:
        return Reading(chart, None, no_row=str(exc))
    values = got.row.values if isinstance(got, LookupResult) else ()
    return Reading(chart, got, values)


def mismatches(game: model.Game, example: model.Example, reading: Reading) -> Iterator[Mismatch]:
    """Each expectation of the example that the reading does not meet."""
    for expect in example.expects:
        if expect.kind is model.ExpectKind.CELL and reading.no_row is None:
            found, cell = _cell(reading, expect)
            if found and cell == expect.value:
                continue
        stated, given = _stated(expect), _given(game, expect, reading)
        if given != stated or expect.kind is model.ExpectKind.CELL:
            yield Mismatch(expect, stated, given)


def _cell(reading: Reading, expect: model.Expect) -> tuple[bool, model.Value]:
    """Whether the row the charts selected has the expectation's column, and its value there."""
    column = next((i for i, c in enumerate(reading.chart.columns) if c.id == expect.column), None)
    if column is None or not reading.values:
        return False, None
    return True, reading.values[column]


def _stated(expect: model.Expect) -> str:
    match expect.kind:
        case model.ExpectKind.NO_ROW:
            return "no row"
        case model.ExpectKind.DRM | model.ExpectKind.MODIFIED:
            return _signed(int(expect.text)) if expect.kind is model.ExpectKind.DRM else str(int(expect.text))
        case model.ExpectKind.CELL:
            return cell_text(expect.value) or str(expect.value)
        case model.ExpectKind.ROW | model.ExpectKind.ODDS | model.ExpectKind.NUMBER:
            return expect.text
        case _:
            assert_never(expect.kind)


def _given(game: model.Game, expect: model.Expect, reading: Reading) -> str:
    """What the charts give for this expectation, in the form `_stated` writes the example's."""
    result = reading.result
    if reading.no_row is not None:
        return "no row"
    match expect.kind:
        case model.ExpectKind.NO_ROW:
            return _row_text(result)
        case model.ExpectKind.ROW:
            return _row_text(result)
        case model.ExpectKind.CELL:
            found, cell = _cell(reading, expect)
            if not found:
                return f"no column `{expect.column}` on `{reading.chart.address}`"
            return cell_text(cell) or str(cell)
        case model.ExpectKind.MODIFIED:
            modified = result.modified if isinstance(result, LookupResult) else None
            return "no modified roll" if modified is None else str(modified)
        case model.ExpectKind.DRM:
            if isinstance(result, LookupResult | DrmListAnswer):
                total = result.drm if isinstance(result, LookupResult) else result.modifiers.total
                return _signed(total)
            return "no DRM"
        case model.ExpectKind.NUMBER:  # pragma: no cover - a chart example never holds one (C463)
            return "no formula"
        case model.ExpectKind.ODDS:
            if isinstance(result, OddsColumnAnswer):
                return result.column
            if isinstance(result, LookupResult) and result.odds:
                return result.odds[0][1].column
            return "no odds column"
        case _:
            assert_never(expect.kind)


def _row_text(result: LookupResult | OddsColumnAnswer | DrmListAnswer | None) -> str:
    if isinstance(result, LookupResult):
        return row_range_text(result.row)
    return "no row"


def _report(game: model.Game, example: model.Example, reading: Reading, found: list[Mismatch], sink: Sink) -> None:
    if not found:
        if example.contradicts is not None:
            sink.emit(
                codes.EXAMPLE_AGREES,
                f"example `{example.id}` says it contradicts the charts, but `{reading.chart.address}` gives "
                "what it states",
                example.contradicts_span or example.span,
                "delete the `contradicts` line",
                fix=_delete_contradicts(example),
            )
        return
    for miss in found:
        stated, given = _shown(game, reading, miss)
        what = _what(miss.expect)
        where = _situation(reading)
        if example.contradicts is None:
            sink.emit(
                codes.EXAMPLE_CONTRADICTED,
                f"example `{example.id}` ({_rule(example)}): the book gives {what} {stated}, "
                f"`{reading.chart.address}` gives {given}{where}",
                miss.expect.span,
                "check the example and the chart against the book; where the book disagrees with itself, say so "
                'with `contradicts "why"`',
                _row_label(reading),
            )
        else:
            sink.emit(
                codes.EXAMPLE_KEPT,
                f"example `{example.id}` ({_rule(example)}): the book gives {what} {stated}, "
                f"`{reading.chart.address}` gives {given}{where}; "
                f"the charts are kept as printed: {example.contradicts}",
                miss.expect.span,
                None,
                _row_label(reading),
            )


def _shown(game: model.Game, reading: Reading, miss: Mismatch) -> tuple[str, str]:
    """The stated and given results in the player's words (a member by its printed label)."""
    expect = miss.expect
    if expect.kind is model.ExpectKind.CELL and reading.no_row is None and reading.values:
        column = next(c for c in reading.chart.columns if c.id == expect.column)
        index = reading.chart.columns.index(column)
        return f"`{value_text(game, column, expect.value)}`", f"`{value_text(game, column, reading.values[index])}`"
    return f"`{miss.stated}`", f"`{miss.given}`"


def _what(expect: model.Expect) -> str:
    match expect.kind:
        case model.ExpectKind.CELL:
            return expect.column or ""
        case model.ExpectKind.ROW:
            return "row"
        case model.ExpectKind.MODIFIED:
            return "modified roll"
        case model.ExpectKind.DRM:
            return "DRM"
        case model.ExpectKind.ODDS:
            return "odds column"
        case model.ExpectKind.NO_ROW:
            return "for the roll"
        case model.ExpectKind.NUMBER:
            return "the value"
        case _:
            assert_never(expect.kind)


def _situation(reading: Reading) -> str:
    """`(roll 2, DRM +1, modified 3, row 3-6)`: how the chart came to its answer."""
    result = reading.result
    if reading.no_row is not None:
        return f" ({_lower_first(reading.no_row)})"
    if not isinstance(result, LookupResult) or result.natural is None:
        return ""
    parts = [f"roll {result.natural}"]
    if result.drm:
        parts += [f"DRM {_signed(result.drm)}", f"modified {result.modified}"]
    parts.append(f"row {row_range_text(result.row)}")
    return f" ({', '.join(parts)})"


def _row_label(reading: Reading) -> tuple[Label, ...]:
    result = reading.result
    if isinstance(result, LookupResult):
        return (Label(result.row.span, f"the row `{reading.chart.address}` selects"),)
    return ()


def _rule(example: model.Example) -> str:
    return f"rule {example.rule}" if example.rule else "no rule cited"


def _signed(n: int) -> str:
    return f"{n:+d}"


def _lower_first(text: str) -> str:
    """`The roll ...` as `the roll ...` inside a message; `DRM ...` stays as it is."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _delete_contradicts(example: model.Example) -> fixes.Fix | None:
    """C462's fix: delete the example's `contradicts "..."` line. Unsafe: the charts may agree only
    after an errata the example was written against."""
    if example.contradicts_statement is None:
        return None
    return fixes.delete(example.contradicts_statement, "the `contradicts` line", Applicability.UNSAFE)
