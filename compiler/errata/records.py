"""Errata on reference data: a field of a record (`amend aircraft { change record bf109g6 field
ammo to 6 because "..." }`), applied to the enum declarations before their records are typed, so
every chart, check and output reads the corrected value; `annotate_members` then marks each
amended record with the errata, the printed values and the reasons.

Diagnostics: C601 (no such member or field, or an operation other than `change record` on an
enum), C602 (two errata change the same field and neither says which wins), C603 (no change).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from compiler import model
from compiler.diagnostics import Sink, Slot, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.errata.provenance import amend_declarations, claim_once
from dsl import ast


@dataclass
class RecordMarks:
    """What the errata did to one record: errata ids, the printed text of each changed field, why."""

    errata: list[str] = field(default_factory=list)
    printed: dict[str, str] = field(default_factory=dict)
    because: list[str] = field(default_factory=list)


def amend_records(
    enums: list[ast.EnumDecl], errata: list[ast.ErrataDecl], sink: Sink
) -> tuple[dict[str, ast.EnumDecl], dict[tuple[str, str], RecordMarks]]:
    """The enum declarations the errata amend (by enum name), and the marks of each amended record
    (by enum and member id). Errata apply in order (`order`, then name), as on charts."""
    marks: dict[tuple[str, str], RecordMarks] = {}
    owner: dict[tuple[str, str, str], tuple[str, ast.Span]] = {}

    def change(errata_id: str, overrides: set[str], decl: ast.EnumDecl, op: ast.AmendOp) -> ast.EnumDecl:
        if not isinstance(op, ast.ChangeField):
            message = f"errata `{errata_id}` amends enum `{decl.name.text}`, whose records take only " \
                      "`change record MEMBER field FIELD to VALUE`"
            sink.emit(codes.ERRATA_TARGET_MISSING, message, op.span)
            return decl
        return _change(errata_id, overrides, decl, op, marks, owner, sink)

    # an `amend` naming a chart is left to `compiler.errata.apply`, which amends it or says it does not exist
    amended = amend_declarations(errata, {e.name.text: e for e in enums}, change)
    return amended, marks


def _change(
    errata_id: str,
    overrides: set[str],
    decl: ast.EnumDecl,
    op: ast.ChangeField,
    marks: dict[tuple[str, str], RecordMarks],
    owner: dict[tuple[str, str, str], tuple[str, ast.Span]],
    sink: Sink,
) -> ast.EnumDecl:
    where = f"enum `{decl.name.text}`"
    members = [m.name.text for m in decl.members]
    if op.member.text not in members:
        hint, close = suggestion(op.member.text, members)
        fix = fixes.rename(op.member.span, op.member.text, close, Slot.NAME, members)
        message = f"errata `{errata_id}` changes record `{op.member.text}`, which {where} does not have"
        sink.emit(codes.ERRATA_TARGET_MISSING, message, op.member.span, hint, fix=fix)
        return decl
    index = members.index(op.member.text)
    member = decl.members[index]
    names = [f.name.text for f in member.fields]
    if op.field.text not in names:
        hint, close = suggestion(op.field.text, names)
        fix = fixes.rename(op.field.span, op.field.text, close, Slot.NAME, names)
        message = f"errata `{errata_id}` changes field `{op.field.text}`, which record `{op.member.text}` does not give"
        sink.emit(codes.ERRATA_TARGET_MISSING, message, op.field.span, hint, fix=fix)
        return decl
    at = names.index(op.field.text)
    old = member.fields[at]
    if (old.value.kind, old.value.text) == (op.value.kind, op.value.text):
        message = f"errata `{errata_id}` changes field `{op.field.text}` of record `{op.member.text}` to the value " \
                  f"it already has (`{old.value.text}`)"
        sink.emit(codes.ERRATA_NO_EFFECT, message, op.span)
        return decl
    key = (decl.name.text, op.member.text, op.field.text)
    claim_once(owner, key, errata_id, overrides, op.span, "the same record field", sink)
    mark = marks.setdefault((decl.name.text, op.member.text), RecordMarks())
    if errata_id not in mark.errata:
        mark.errata.append(errata_id)
    mark.printed.setdefault(op.field.text, old.value.text)
    if op.because is not None and op.because.text not in mark.because:
        mark.because.append(op.because.text)
    fields_now = (*member.fields[:at], replace(old, value=op.value), *member.fields[at + 1 :])
    members_now = (*decl.members[:index], replace(member, fields=fields_now), *decl.members[index + 1 :])
    return replace(decl, members=members_now)


def annotate_members(
    enums: Mapping[str, model.EnumType], marks: Mapping[tuple[str, str], RecordMarks]
) -> dict[str, model.EnumType]:
    """The enums whose records the errata changed, each amended record marked."""
    out: dict[str, model.EnumType] = {}
    for enum_id in sorted({e for e, _ in marks}):
        enum = enums.get(enum_id)
        if enum is None:
            continue
        members = tuple(
            replace(m, errata=tuple(mk.errata), printed=dict(mk.printed), because=tuple(mk.because))
            if (mk := marks.get((enum_id, m.id))) is not None else m
            for m in enum.members
        )
        out[enum_id] = replace(enum, members=members)
    return out
