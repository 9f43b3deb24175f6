"""What the errata did to one chart (`Provenance`), which `compiler.errata.apply.annotate` turns
into the model's errata marks."""

from __future__ import annotations

from dataclasses import dataclass, field

from dsl import ast


@dataclass
class Provenance:
    """What the errata did to one chart, keyed by the spans of the rows they touched."""

    errata: list[str] = field(default_factory=list)  # ids, in order of application
    row_errata: dict[ast.Span, list[str]] = field(default_factory=dict)
    removed: dict[ast.Span, str] = field(default_factory=dict)  # printed row span -> errata id
    reasons: list[tuple[str, str]] = field(default_factory=list)  # (errata id, why), in order
    printed_title: str | None = None
    completed: str | None = None  # the `partial` reason an errata made obsolete
    notes: list[tuple[str, str]] = field(default_factory=list)  # (errata id, text)
    printed_span: dict[ast.Span, ast.Span] = field(default_factory=dict)  # amended grid cell -> printed cell
    row_reasons: dict[ast.Span, list[str]] = field(default_factory=dict)  # row or cell span -> why, in order
