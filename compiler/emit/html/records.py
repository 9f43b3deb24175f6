"""The record sets the rules reference prints: each enum with fields (IA2's bases and their zones, the
aircraft families, the Jet Aces' starting records) as a table headed by the set's label and its rule,
a column per field under the field's label, a row per record in the order of the source.

Values read as `chartc lookup GAME/ENUM` prints them (`model.text.field_text`: months as the book
prints them, yes/no, enum references by their labels, `-` for a field left out); no identifier of the
sources is printed. A set too wide for the page is printed as several tables, each a group of its
fields after the record names, so no column is squeezed below its longest word.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler import model
from compiler.engine.records import record_sets
from compiler.model.text import field_text

# How wide a character of a record table is, in mm, at the dense print's and large print's cell
# size (DejaVu Sans averages about 0.55 em), with a column's padding and rules counted as 2 more.
_MM_PER_CHAR = {False: 1.45, True: 2.35}
_COLUMN_EXTRA_CHARS = 2
# A column asks for its longest value up to this many characters; a longer value wraps in it.
_WRAP_AT = 24


@dataclass(frozen=True)
class RecordBlock:
    """One table of a record set: the record names' column, then a group of its fields."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RecordSetView:
    """A record set as the rules reference prints it: heading, rule, one table per group of fields."""

    label: str
    rule: str | None
    anchor: str
    blocks: tuple[RecordBlock, ...]


def _demand(texts: list[str]) -> int:
    """The characters a column asks for: its longest text up to `_WRAP_AT`, never less than its
    longest word (a word does not wrap)."""
    longest_word = max((len(w) for t in texts for w in t.split()), default=1)
    return max(min(max(len(t) for t in texts), _WRAP_AT), longest_word) + _COLUMN_EXTRA_CHARS


def field_groups(columns: list[list[str]], names: list[str], budget: int) -> list[list[int]]:
    """The fields (by index into `columns`, each the header and its values) in groups that fit
    `budget` characters beside the record names' column, in order; a field wider than the budget
    alone is a group of its own."""
    base = _demand(names)
    groups: list[list[int]] = []
    used = base
    for i, texts in enumerate(columns):
        need = _demand(texts)
        if groups and used + need <= budget:
            groups[-1].append(i)
            used += need
        else:
            groups.append([i])
            used = base + need
    return groups


def record_set_view(game: model.Game, enum: model.EnumType, width_mm: float, large_print: bool) -> RecordSetView:
    """The record set's tables for a page `width_mm` wide."""
    budget = int(width_mm / _MM_PER_CHAR[large_print])
    names = [enum.label, *(m.label for m in enum.members)]
    columns = [[f.label, *(field_text(game, f, m.get(f.id)) for m in enum.members)] for f in enum.fields]
    blocks = []
    for group in field_groups(columns, names, budget):
        head = (enum.label, *(columns[i][0] for i in group))
        rows = tuple((m.label, *(columns[i][r + 1] for i in group)) for r, m in enumerate(enum.members))
        blocks.append(RecordBlock(head, rows))
    return RecordSetView(enum.label, enum.rule, f"records-{enum.id}", tuple(blocks))


def record_set_views(game: model.Game, width_mm: float, large_print: bool) -> tuple[RecordSetView, ...]:
    """Every record set of the game (enums with fields), in the order of the source."""
    return tuple(record_set_view(game, e, width_mm, large_print) for e in record_sets(game))
