"""Where the book disagrees with itself about the chart a player reads: the `conflict` and `ambiguous`
blocks and the worked examples that `contradicts` the charts, as `lookup` prints them under the
answer (text and JSON), so a player sees the other reading without running `chartc check`.

A block concerns a chart when one of its places or readings holds a cell or a DRM of that chart, or
when it cites the chart's rule (the same section number); an example, when it reads that chart.
"""

from __future__ import annotations

from typing import Any, assert_never

from compiler import model
from compiler.model.facts import CellFact, CountFact, DrmFact, Fact, FieldFact, FormulaFact, LimitFact
from compiler.model.inconsistencies import Stated

Inconsistency = model.Conflict | model.Ambiguity | model.Example


def chart_inconsistencies(game: model.Game, chart: model.Chart) -> list[Inconsistency]:
    """The game's conflicts, ambiguities and contradicting examples that concern `chart`, in that order."""
    found: list[Inconsistency] = [c for c in game.conflicts if _conflict_concerns(game, c, chart)]
    found += [a for a in game.ambiguities if _ambiguity_concerns(game, a, chart)]
    found += [e for e in game.examples if e.contradicts is not None and game.chart(e.chart) is chart]
    return found


def inconsistency_lines(game: model.Game, chart: model.Chart) -> list[str]:
    """`  The book disagrees with itself: TITLE`, then each place or reading, then what the data keeps."""
    lines: list[str] = []
    for item in chart_inconsistencies(game, chart):
        match item:
            case model.Conflict():
                lines.append(f"  The book disagrees with itself: {item.title}")
                lines += [f"    {place.rule}: {place.says}" for place in item.places]
                lines += [f"    kept as printed: {item.kept}"] if item.kept else []
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
    return lines


def inconsistencies_json(game: model.Game, chart: model.Chart) -> list[dict[str, Any]]:
    """The same as JSON: kind (`conflict`, `ambiguous`, `example`), id, title, rule and what each says."""
    docs: list[dict[str, Any]] = []
    for item in chart_inconsistencies(game, chart):
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


def _conflict_concerns(game: model.Game, conflict: model.Conflict, chart: model.Chart) -> bool:
    rules = [conflict.rule, *(place.rule for place in conflict.places)]
    facts = [place.value for place in conflict.places]
    return _cites_rule(rules, chart) or any(_holds(game, fact, chart) for fact in facts)


def _ambiguity_concerns(game: model.Game, ambiguity: model.Ambiguity, chart: model.Chart) -> bool:
    facts = [cell.fact for reading in ambiguity.readings for cell in reading.cells]
    return _cites_rule([ambiguity.rule], chart) or any(_holds(game, fact, chart) for fact in facts)


def _cites_rule(rules: list[str | None], chart: model.Chart) -> bool:
    """Whether one of `rules` (each may list several: `7.9.1, 10.14`) names one of the chart's sections."""
    if not chart.rule:
        return False
    own = _sections(chart.rule)
    return any(own & _sections(rule) for rule in rules if rule)


def _sections(rule: str) -> set[str]:
    return {part.strip() for part in rule.split(",") if part.strip()}


def _holds(game: model.Game, fact: Fact | Stated | None, chart: model.Chart) -> bool:
    """Whether `fact` is a cell or a DRM of `chart`."""
    match fact:
        case CellFact() | DrmFact():
            return game.chart(fact.chart) is chart
        case FieldFact() | CountFact() | LimitFact() | FormulaFact() | Stated() | None:
            return False
        case _:
            assert_never(fact)
