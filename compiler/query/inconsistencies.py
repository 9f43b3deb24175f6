"""Where the book disagrees with itself about what a player reads (a chart, a limit, a formula, a
record set): the
`conflict` and `ambiguous` blocks and the worked examples that `contradicts` the charts, as `lookup`
and `compute` print them under the answer (text and JSON), so a player sees the other reading
without running `chartc check`.

A block concerns a subject when one of its places or readings holds a fact of it (a chart's cell or
DRM, a limit's bound, a formula's value, a record's field or a count of records), or when it cites
the subject's rule (the same section number); an example, when it reads that chart or computes that
formula.
"""

from __future__ import annotations

from typing import Any, assert_never

from compiler import model
from compiler.model.facts import CellFact, CountFact, DrmFact, Fact, FieldFact, FormulaFact, LimitFact
from compiler.model.inconsistencies import Stated
from dsl.lazy_dataclass import dataclass

Inconsistency = model.Conflict | model.Ambiguity | model.Example
Subject = model.Chart | model.Limit | model.Formula | model.EnumType


def inconsistencies_of(game: model.Game, subject: Subject) -> list[Inconsistency]:
    """The game's conflicts, ambiguities and contradicting examples that concern `subject`, in that order."""
    found: list[Inconsistency] = [c for c in game.conflicts if _conflict_concerns(game, c, subject)]
    found += [a for a in game.ambiguities if _ambiguity_concerns(game, a, subject)]
    found += [e for e in game.examples if e.contradicts is not None and _reads(game, e, subject)]
    return found


@dataclass(frozen=True)
class Answered:
    """What a lookup answered: the row selected and the ids of the DRMs that applied, or the record
    read. An inconsistency that holds a cell of another row or a field of another record, or that
    only cites the subject's rule, is then named in one line."""

    row: model.Row | None
    drms: frozenset[str] = frozenset()
    record: str | None = None


def inconsistency_lines(game: model.Game, subject: Subject, answered: Answered | None = None) -> list[str]:
    """`  The book disagrees with itself: TITLE`, then each place or reading, then what the data keeps;
    with `answered`, only those about the answer in full, the others' titles in one closing line."""
    lines: list[str] = []
    others: list[str] = []
    for item in inconsistencies_of(game, subject):
        if answered is not None and not _about(game, item, subject, answered):
            others.append(item.title)
            continue
        match item:
            case model.Conflict():
                lines.append(f"  The book disagrees with itself: {item.title}")
                lines += [f"    {place.rule}: {place.says}" for place in item.places]
                lines += [f"    kept: {item.kept}"] if item.kept else []
            case model.Ambiguity():
                lines.append(f"  The print reads more than one way: {item.title}")
                lines += [f"    printed: {item.printed}"] if item.printed else []
                lines += [f"    reading: {reading.label}" for reading in item.readings]
                lines += [f"    kept: {item.kept}"] if item.kept else []
            case model.Example():
                rule = f" ({item.rule})" if item.rule else ""
                lines.append(f"  The book's example{rule} gives otherwise: {item.title}")
                lines.append(f"    {item.contradicts}")
            case _:
                assert_never(item)
    if others:
        titles = "; ".join(others)
        lines.append(f"  Also unclear in the book about this {_noun(subject)}: {titles} (--format json lists each)")
    return lines


def _noun(subject: Subject) -> str:
    match subject:
        case model.Chart():
            return "chart"
        case model.Limit():
            return "limit"
        case model.Formula():
            return "formula"
        case model.EnumType():
            return "record set"
        case _:
            assert_never(subject)


def _about(game: model.Game, item: Inconsistency, subject: Subject, answered: Answered) -> bool:
    """Whether `item` holds the selected row's cell or a DRM that applied (an example: reads the chart)."""
    match item:
        case model.Conflict():
            facts = [place.value for place in item.places]
        case model.Ambiguity():
            facts = [cell.fact for reading in item.readings for cell in reading.cells]
        case model.Example():
            return True
        case _:
            assert_never(item)
    return any(_answers(game, fact, subject, answered) for fact in facts)


def _answers(game: model.Game, fact: Fact | Stated | None, subject: Subject, answered: Answered) -> bool:
    match fact:
        case CellFact():
            chart = game.chart(fact.chart)
            return chart is subject and answered.row is not None and _in_row(chart, fact, answered.row)
        case DrmFact():
            return game.chart(fact.chart) is subject and fact.drm in answered.drms
        case FieldFact():
            return isinstance(subject, model.EnumType) and fact.enum == subject.id and fact.member == answered.record
        case CountFact():
            return isinstance(subject, model.EnumType) and fact.enum == subject.id
        case LimitFact() | FormulaFact() | Stated() | None:
            return False
        case _:
            assert_never(fact)


def _in_row(chart: model.Chart, fact: CellFact, row: model.Row) -> bool:
    """Whether the cell `fact` names lies in `row` (its keys match, its roll is in the row's range)."""
    positions = {k.id: i for i, k in enumerate(chart.keys)}
    keys = all(key in positions and model.key_matches(row.keys[positions[key]], member) for key, member in fact.keys)
    return keys and (fact.roll is None or (row.range is not None and row.range.contains(fact.roll)))


def inconsistencies_json(game: model.Game, subject: Subject) -> list[dict[str, Any]]:
    """The same as JSON: kind (`conflict`, `ambiguous`, `example`), id, title, rule and what each says."""
    docs: list[dict[str, Any]] = []
    for item in inconsistencies_of(game, subject):
        match item:
            case model.Conflict():
                places = [{"rule": p.rule, "says": p.says} for p in item.places]
                docs.append({"kind": "conflict", "id": item.id, "title": item.title, "rule": item.rule,
                             "places": places, "kept": item.kept})
            case model.Ambiguity():
                docs.append({"kind": "ambiguous", "id": item.id, "title": item.title, "rule": item.rule,
                             "printed": item.printed, "readings": [r.label for r in item.readings],
                             "kept": item.kept})
            case model.Example():
                docs.append({"kind": "example", "id": item.id, "title": item.title, "rule": item.rule,
                             "contradicts": item.contradicts})
            case _:
                assert_never(item)
    return docs


def _conflict_concerns(game: model.Game, conflict: model.Conflict, subject: Subject) -> bool:
    rules = [conflict.rule, *(place.rule for place in conflict.places)]
    facts = [place.value for place in conflict.places]
    return _cites_rule(rules, subject) or any(_holds(game, fact, subject) for fact in facts)


def _ambiguity_concerns(game: model.Game, ambiguity: model.Ambiguity, subject: Subject) -> bool:
    facts = [cell.fact for reading in ambiguity.readings for cell in reading.cells]
    return _cites_rule([ambiguity.rule], subject) or any(_holds(game, fact, subject) for fact in facts)


def _reads(game: model.Game, example: model.Example, subject: Subject) -> bool:
    """Whether the example reads the chart or computes the formula `subject`."""
    match subject:
        case model.Chart():
            return game.chart(example.chart) is subject
        case model.Formula():
            return example.formula == subject.id
        case model.Limit() | model.EnumType():
            return False
        case _:
            assert_never(subject)


def _cites_rule(rules: list[str | None], subject: Subject) -> bool:
    """Whether one of `rules` (each may list several: `7.9.1, 10.14`) names one of the subject's sections."""
    if not subject.rule:
        return False
    own = _sections(subject.rule)
    return any(own & _sections(rule) for rule in rules if rule)


def _sections(rule: str) -> set[str]:
    return {part.strip() for part in rule.split(",") if part.strip()}


def _holds(game: model.Game, fact: Fact | Stated | None, subject: Subject) -> bool:
    """Whether `fact` is a cell or a DRM of the chart, the bound of the limit, the value of the formula or a
    field or count of the record set `subject`."""
    match fact:
        case CellFact() | DrmFact():
            return isinstance(subject, model.Chart) and game.chart(fact.chart) is subject
        case LimitFact():
            return isinstance(subject, model.Limit) and fact.limit == subject.id
        case FormulaFact():
            return isinstance(subject, model.Formula) and fact.formula == subject.id
        case FieldFact() | CountFact():
            return isinstance(subject, model.EnumType) and fact.enum == subject.id
        case Stated() | None:
            return False
        case _:
            assert_never(fact)
