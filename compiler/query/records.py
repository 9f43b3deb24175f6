"""What `chartc lookup GAME/ENUM` prints: one record's fields (`--key ENUM=MEMBER`) or the whole record
set as a table, each field by its printed label and each value in the book's form (`model.text.field_text`:
months as printed, flags yes/no, enum references by their labels, `-` for a field left out), as text and
JSON."""

from __future__ import annotations

from typing import Any

from compiler import model
from compiler.engine.records import RecordAnswer
from compiler.model.text import field_text, json_value
from compiler.query.common import json_document, safe_lines
from compiler.query.inconsistencies import Answered, inconsistencies_json, inconsistency_lines

# The widest a cell of the whole set's table gets in a terminal; one record (`--key`) and
# `--format json` print every value whole.
CELL_CAP = 40


def record_heading(game: model.Game, enum: model.EnumType) -> str:
    """`ia2/family Aircraft family (rule 9.1)`."""
    return f"{game.id}/{enum.id} {enum.label}" + (f" (rule {enum.rule})" if enum.rule else "")


def record_lines(game: model.Game, answer: RecordAnswer) -> list[str]:
    """One record as `Label: value` lines, or the whole set as aligned columns."""
    enum = answer.enum
    lines = [record_heading(game, enum)]
    if answer.whole:
        lines += ["  " + line for line in table_lines(game, enum)]
        if any(len(field_text(game, f, m.get(f.id))) > CELL_CAP for m in enum.members for f in enum.fields):
            lines.append(
                f"  (cells cut to {CELL_CAP} characters: --key {enum.id}=VALUE or --format json prints them whole)"
            )
        return safe_lines(lines + inconsistency_lines(game, enum))
    (member,) = answer.records
    lines.append(f"  {enum.id}: {member.label}")
    width = max(len(f.label) for f in enum.fields)
    lines += [f"  {(f.label + ':').ljust(width + 1)} {field_text(game, f, member.get(f.id))}" for f in enum.fields]
    if member.errata:
        lines.append(f"  Errata: {', '.join(member.errata)}: " + _errata_text(enum, member))
    return safe_lines(lines + inconsistency_lines(game, enum, Answered(None, record=member.id)))


def _errata_text(enum: model.EnumType, member: model.Member) -> str:
    """`Ammo printed 5; the book's errata says 6` for a record an errata changed."""
    labels = {f.id: f.label for f in enum.fields}
    changed = [f"{labels.get(fid, fid)} printed {text}" for fid, text in member.printed.items()]
    return "; ".join(changed + list(member.because))


def _cut(text: str) -> str:
    return text if len(text) <= CELL_CAP else text[: CELL_CAP - 1].rstrip() + "…"


def table_lines(game: model.Game, enum: model.EnumType) -> list[str]:
    """The record set as aligned columns: the set's label over the record names, a column per field."""
    head = (enum.label, *(f.label for f in enum.fields))
    rows = [(m.label, *(field_text(game, f, m.get(f.id)) for f in enum.fields)) for m in enum.members]
    cells = [tuple(_cut(c) for c in row) for row in [head, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(head))]
    return ["  ".join(c.ljust(widths[i]) for i, c in enumerate(row)).rstrip() for row in cells]


def record_json(game: model.Game, answer: RecordAnswer) -> str:
    """The record set or record as JSON: its fields (id, label, type) and each record's values, as
    the game JSON writes them (`values`) and as a player reads them (`text`)."""
    enum = answer.enum
    doc: dict[str, Any] = {
        "game": game.id,
        "records": enum.id,
        "label": enum.label,
        "rule": enum.rule,
        "fields": [{"id": f.id, "label": f.label, "type": str(f.type)} for f in enum.fields],
        "selected": None if answer.whole else answer.records[0].id,
        "members": [_member_json(game, enum, m) for m in answer.records],
    }
    found = inconsistencies_json(game, enum)
    return json_document({**doc, "inconsistencies": found} if found else doc)


def _member_json(game: model.Game, enum: model.EnumType, member: model.Member) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": member.id,
        "label": member.label,
        "aliases": list(member.aliases),
        "values": {f.id: json_value(member.get(f.id)) for f in enum.fields},
        "text": {f.id: field_text(game, f, member.get(f.id)) for f in enum.fields},
    }
    if member.errata:
        out["errata"] = list(member.errata)
        out["printed"] = dict(member.printed)
        out["because"] = list(member.because)
    return out
