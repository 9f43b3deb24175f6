"""The `Diagnostic` record, its labels, and the `Sink` every pass appends to (nothing raises)."""

from __future__ import annotations

from dataclasses import field, replace

from compiler.diagnostics.code_type import Code, Severity
from compiler.diagnostics.fixes import Fix
from compiler.diagnostics.registry import CODES
from dsl.lazy_dataclass import dataclass
from dsl.shared import Span


@dataclass(frozen=True)
class Label:
    """A second span shown with a diagnostic, e.g. the other row of an overlap."""

    span: Span
    message: str


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    help: str | None = None
    labels: tuple[Label, ...] = ()
    fix: Fix | None = None  # the edits that resolve it, where they are obvious (`compiler.diagnostics.fixes`)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)

    @property
    def name(self) -> str:
        """The code's kebab-case name (`overlapping-ranges`)."""
        return CODES[self.code].name


@dataclass(frozen=True)
class Suppressed:
    """A finding silenced by an `allow` statement, with its reason and where the `allow` is."""

    diagnostic: Diagnostic
    reason: str
    allow_span: Span


@dataclass
class Sink:
    """Collects diagnostics from every pass; `sorted()` gives them de-duplicated in file order."""

    items: list[Diagnostic] = field(default_factory=list)

    def emit(
        self,
        code: Code,
        message: str,
        span: Span,
        help: str | None = None,
        labels: tuple[Label, ...] = (),
        fix: Fix | None = None,
    ) -> None:
        self.items.append(Diagnostic(code.code, code.severity, message, span, help, labels, fix))

    def sorted(self) -> list[Diagnostic]:
        unique = {(d.sort_key(), d.help, d.labels): d for d in self.items}
        return [unique[k] for k in sorted(unique, key=lambda k: k[0])]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def count_by_severity(diagnostics: list[Diagnostic]) -> dict[str, int]:
    counts = {s.value: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity.value] += 1
    return counts


def as_strict(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`--strict`: warnings count as errors."""
    return [replace(d, severity=Severity.ERROR) if d.severity is Severity.WARNING else d for d in diagnostics]
