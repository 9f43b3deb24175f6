"""`kept CODE at SUBJECT because "why"`: a warning the book's own print causes, kept as printed.
Here the statement is bound: a code a `kept` statement may keep, an `at` of that code's kind (months
or a record), a record that exists (C201), each finding kept once. Whether the finding is there is
for the checks (`compiler.checks.kept`: the note C484, or C485)."""

from __future__ import annotations

import re

from compiler import model
from compiler.diagnostics import Sink, codes
from compiler.diagnostics.messages import declared_twice
from compiler.resolve.symbols import SymbolTable, unknown
from dsl import ast

_RECORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*")  # else months, as the grammar reads them
_WRITTEN = {
    model.KeptSubject.MONTHS: "months (`at 1944-05`)",
    model.KeptSubject.RECORD: "a record (`at mission.schweinfurt`)",
}


def kept_findings(
    symbols: SymbolTable, decls: list[tuple[str, ast.KeptFindingDecl]], sink: Sink
) -> list[model.KeptFinding]:
    """Every `kept` statement that binds, in source order."""
    seen: dict[tuple[str, str], ast.Span] = {}
    found: list[model.KeptFinding] = []
    for path, decl in decls:
        code, subject = decl.code.text, decl.subject.text
        kind = model.KEPT_SUBJECTS.get(code)
        if kind is None:
            keepable = ", ".join(f"`{c}`" for c in model.KEPT_SUBJECTS)
            sink.emit(
                codes.KEPT_UNMATCHED,
                f"`kept {code}` keeps nothing: a `kept` statement keeps {keepable}",
                decl.code.span,
                "a conflict or ambiguous print is a `conflict`/`ambiguous` block with `kept \"why\"`; "
                "two facts a `same` invariant holds equal take `kept \"why\"` there",
            )
            continue
        given = model.KeptSubject.RECORD if _RECORD.fullmatch(subject) else model.KeptSubject.MONTHS
        if given is not kind:
            sink.emit(
                codes.KEPT_UNMATCHED,
                f"`kept {code} at {subject}` keeps nothing: {code} is found at {_WRITTEN[kind]}, "
                f"not at {_WRITTEN[given]}",
                decl.subject.span,
                f"write where the {code} finding is: `at` {_WRITTEN[kind]}",
            )
            continue
        if kind is model.KeptSubject.RECORD and not _record_known(symbols, decl.subject, sink):
            continue
        if (code, subject) in seen:
            declared_twice(sink, f"`kept {code} at {subject}`", decl.span, seen[(code, subject)])
            continue
        seen[(code, subject)] = decl.span
        found.append(model.KeptFinding(code, subject, decl.reason.text, path, decl.span))
    return found


def _record_known(symbols: SymbolTable, subject: ast.Name, sink: Sink) -> bool:
    """Whether `enum.member` names a record of the game (else C201 with did-you-mean)."""
    enum_id, member_id = subject.text.split(".", 1)
    line, col = subject.span.line, subject.span.col
    enum = symbols.enums.get(enum_id)
    if enum is None:
        name = ast.Name(enum_id, ast.Span(subject.span.file, line, col, line, col + len(enum_id)))
        unknown(sink, f"unknown enum `{enum_id}` in `kept`", name, sorted(symbols.enums))
        return False
    if enum.member(member_id) is None:
        start = col + len(enum_id) + 1
        name = ast.Name(member_id, ast.Span(subject.span.file, line, start, line, start + len(member_id)))
        unknown(sink, f"`{enum_id}` has no record `{member_id}`", name, [m.id for m in enum.members])
        return False
    return True
