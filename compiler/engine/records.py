"""A game's record sets (reference data: an enum whose members carry fields) read as a player asks:
`chartc lookup GAME/ENUM --key ENUM=MEMBER` gives one record, `chartc lookup GAME/ENUM` the whole set.

A record is named as a chart's key value is: by id, printed label or `aka` name (case-insensitive);
anything else is a usage error with did-you-mean, as a keyed chart's lookup gives.
"""

from __future__ import annotations

from collections.abc import Mapping

from compiler import model
from compiler.diagnostics.suggest import known_values_hint
from compiler.engine.problems import LookupUsage
from dsl.lazy_dataclass import dataclass


@dataclass(frozen=True)
class RecordAnswer:
    """A record set asked: `records` holds the one record named by `--key`, or every record in
    the order of the source when none was named."""

    enum: model.EnumType
    records: tuple[model.Member, ...]
    whole: bool  # no record was named: the answer is the whole set


def record_sets(game: model.Game) -> tuple[model.EnumType, ...]:
    """The game's record sets (enums with fields), in the order of the source files."""
    return tuple(e for e in game.enums.values() if e.fields and not e.synthetic)


def record_set(game: model.Game, name: str) -> model.EnumType | None:
    """The record set named `name` (an enum's id), None when the game has no such enum with fields."""
    found = game.enums.get(name)
    return found if found is not None and found.fields and not found.synthetic else None


def ask_record(enum: model.EnumType, keys: Mapping[str, str]) -> RecordAnswer:
    """The record `--key ENUM=MEMBER` names, or every record without a key.

    Raises:
        LookupUsage: a key other than the enum's own name, or a member the enum does not have.
    """
    for name in keys:
        if name != enum.id:
            raise LookupUsage(
                f"`{enum.id}` is a set of records: name one with `--key {enum.id}=VALUE`, not `{name}`"
            )
    if enum.id not in keys:
        return RecordAnswer(enum, enum.members, whole=True)
    wanted = keys[enum.id]
    member = enum.member(wanted)
    if member is None:
        hint = known_values_hint(wanted, [(m.id, m.label) for m in enum.members])
        raise LookupUsage(f"`{wanted}` is not a value of key `{enum.id}`; {hint}")
    return RecordAnswer(enum, (member,), whole=False)
