"""What the errata did to one chart (`Provenance`), which `compiler.errata.apply.annotate` turns
into the model's errata marks."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Protocol, TypeVar

from compiler.diagnostics import Label, Sink, codes
from compiler.errata.printing import in_order
from dsl import ast

_K = TypeVar("_K", bound=Hashable)
_D = TypeVar("_D")


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
    drm_errata: dict[str, list[str]] = field(default_factory=dict)  # DRM id -> errata ids that added or changed it
    drm_reasons: dict[str, list[str]] = field(default_factory=dict)  # DRM id -> why, in order
    removed_drms: dict[str, str] = field(default_factory=dict)  # printed DRM id -> the errata that removed it
    printed_notes: list[tuple[str, str, str]] = field(default_factory=list)  # (errata id, `footnote 1`, printed text)


class ErrataApplier(Protocol):
    """What a cell's amendment needs of `compiler.errata.apply.ErrataApplier`."""

    sink: Sink

    def claim(self, errata_id: str, decl: ast.ChartDecl, span: ast.Span, what: str, op_span: ast.Span) -> None: ...

    def record(self, prov: Provenance, errata_id: str, span: ast.Span, because: ast.Text | None) -> None: ...


def claim_once(
    owner: dict[_K, tuple[str, ast.Span]], key: _K, errata_id: str, overrides: set[str], span: ast.Span,
    what: str, sink: Sink,
) -> None:
    """Record that errata `errata_id` changes `key` (at `span`); C602 when another errata changed
    it first and this one does not say it overrides that one."""
    earlier = owner.get(key)
    if earlier is not None and earlier[0] != errata_id and earlier[0] not in overrides:
        sink.emit(
            codes.ERRATA_CONFLICT,
            f"errata `{errata_id}` and `{earlier[0]}` both change {what}",
            span,
            f"say which wins: add `overrides {earlier[0]}` to errata `{errata_id}`",
            (Label(earlier[1], f"changed by `{earlier[0]}` here"),),
        )
    owner[key] = (errata_id, span)


def amendments(errata: list[ast.ErrataDecl]) -> Iterator[tuple[ast.ErrataDecl, set[str], ast.AmendDecl]]:
    """Every `amend` of `errata` in the order they apply (`order`, then name), with its errata and
    the ids that errata overrides."""
    for e in in_order(errata):
        overrides = {o.text for o in e.overrides}
        for a in e.amends:
            yield e, overrides, a


def amend_declarations(
    errata: list[ast.ErrataDecl],
    by_name: Mapping[str, _D],
    change: Callable[[str, set[str], _D, ast.AmendOp], _D],
    elsewhere: Collection[str] = (),
) -> dict[str, _D]:
    """The declarations of `by_name` (enums, formulas) as the errata amend them, by name: each `amend`
    naming one, in the order the errata apply, has each operation given to `change(errata id,
    overrides, declaration, op)`, which returns the declaration amended (or as it was, having
    reported why). An `amend` naming none of them, or a name in `elsewhere` (case-folded: a chart's),
    is amended, or reported, by another pass."""
    amended: dict[str, _D] = {}
    for e, overrides, a in amendments(errata):
        name = a.chart.text
        decl = amended.get(name, by_name.get(name))
        if decl is None or name.casefold() in elsewhere:
            continue
        for op in a.ops:
            decl = change(e.name.text, overrides, decl, op)
        amended[name] = decl
    return amended


def same_tree(a: object, b: object) -> bool:
    """Whether two syntax trees are written alike, their spans aside (C603: a change to what is printed)."""
    return _shape(a) == _shape(b)


def _shape(node: object) -> object:
    if is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, tuple(_shape(getattr(node, f.name)) for f in fields(node) if f.name != "span"))
    if isinstance(node, tuple):
        return tuple(_shape(n) for n in node)
    return node
