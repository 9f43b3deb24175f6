"""The warnings the book's own print causes, kept as printed (`kept CODE at SUBJECT because "why"`):
a check that can find one reports it through `Keeper.emit` with where it is; a kept one is the note
C484 with the reason, and a `kept` statement no finding matched is C485."""

from __future__ import annotations

from compiler import model
from compiler.diagnostics import Code, Label, Sink, codes
from compiler.model.calendar import Month
from dsl.shared import Span


def months_subject(first: Month, last: Month) -> str:
    """Months as a `kept` statement writes them: `1944-05`, `1944-05..1944-06`."""
    return str(first) if first == last else f"{first}..{last}"


class Keeper:
    """A game's `kept` statements, and which of them kept a finding."""

    def __init__(self, game: model.Game) -> None:
        self._kept = {(k.code, k.subject): k for k in game.kept}
        self._used: set[tuple[str, str]] = set()

    def emit(
        self,
        sink: Sink,
        code: Code,
        subject: str,
        message: str,
        span: Span,
        help: str | None = None,
        labels: tuple[Label, ...] = (),
    ) -> None:
        """The finding `code` at `subject`: as it is, or the note C484 where a `kept` statement keeps it."""
        kept = self._kept.get((code.code, subject))
        if kept is None:
            sink.emit(code, message, span, help, labels)
            return
        self._used.add((code.code, subject))
        sink.emit(
            codes.FINDING_KEPT,
            f"{message} ({code.code}); kept as printed: {kept.reason}",
            span,
            None,
            (*labels, Label(kept.span, "kept as printed here")),
        )

    def report_unmatched(self, sink: Sink) -> None:
        """C485 for each `kept` statement no finding matched."""
        for key, kept in self._kept.items():
            if key not in self._used:
                sink.emit(
                    codes.KEPT_UNMATCHED,
                    f"`kept {kept.code} at {kept.subject}` keeps nothing: no {kept.code} finding is at {kept.subject}",
                    kept.span,
                    "delete the statement if the print no longer causes the finding, or correct `at`",
                )
