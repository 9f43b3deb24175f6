"""Errata on a chart's DRMs: a value (`change drm weather to +2`), a condition (`change drm
weather when month in [1944-11..1945-01]`), a DRM removed (`remove drm weather`) or added (`add
drm night "Night" -1 when night`). A DRM is named by its id, in the chart's own list or in one of
its `drm_group`s (an added DRM joins the chart's own list).
"""

from __future__ import annotations

from dataclasses import replace

from compiler.diagnostics import Slot, codes, fixes
from compiler.diagnostics.suggest import suggestion
from compiler.errata.provenance import ErrataApplier, Provenance
from dsl import ast


def amend_drm(
    applier: ErrataApplier,
    errata_id: str,
    decl: ast.ChartDecl,
    op: ast.AddDrm | ast.RemoveDrm | ast.ChangeDrm,
    prov: Provenance,
    where: str,
) -> ast.ChartDecl:
    """`decl` with one of its DRMs added, removed or changed, the change recorded in `prov`."""
    names = [d.name.text for d in decl.drms] + [d.name.text for g in decl.drm_groups for d in g.drms]
    if isinstance(op, ast.AddDrm):
        name = op.drm.name.text
        if name in names:
            message = f"errata `{errata_id}` adds DRM `{name}`, which {where} already has"
            applier.sink.emit(codes.ERRATA_NO_EFFECT, message, op.drm.name.span, "change it with `change drm`")
            return decl
        _record(prov, errata_id, name, op.because)
        return replace(decl, drms=(*decl.drms, op.drm))
    if op.name.text not in names:
        hint, close = suggestion(op.name.text, names)
        message = f"errata `{errata_id}` names DRM `{op.name.text}`, which {where} does not have"
        fix = fixes.rename(op.name.span, op.name.text, close, Slot.NAME, names)
        applier.sink.emit(codes.ERRATA_TARGET_MISSING, message, op.name.span, hint, fix=fix)
        return decl
    drm = next(d for d in _all_drms(decl) if d.name.text == op.name.text)
    if isinstance(op, ast.RemoveDrm):
        applier.claim(errata_id, decl, drm.span, "drm", op.span)
        prov.removed_drms[drm.name.text] = errata_id
        _why(prov, errata_id, drm.name.text, op.because)
        return _put(decl, drm, None)
    if op.value is not None:
        if op.value == drm.value:
            message = f"errata `{errata_id}` changes DRM `{drm.name.text}` of {where} to the value it already has"
            applier.sink.emit(codes.ERRATA_NO_EFFECT, f"{message} ({op.value:+d})", op.span)
            return decl
        changed = replace(drm, value=op.value)
    else:
        changed = replace(drm, when=op.when)
    applier.claim(errata_id, decl, drm.span, "value" if op.value is not None else "when", op.span)
    _record(prov, errata_id, drm.name.text, op.because)
    return _put(decl, drm, changed)


def _all_drms(decl: ast.ChartDecl) -> list[ast.DrmDecl]:
    return [*decl.drms, *(d for g in decl.drm_groups for d in g.drms)]


def _put(decl: ast.ChartDecl, old: ast.DrmDecl, new: ast.DrmDecl | None) -> ast.ChartDecl:
    """`decl` with DRM `old` replaced by `new` (None: removed), where it stands: in the chart's own
    list or in its `drm_group`."""
    def swapped(drms: tuple[ast.DrmDecl, ...]) -> tuple[ast.DrmDecl, ...]:
        kept = (d for d in drms if d is not old or new is not None)
        return tuple(new if d is old and new is not None else d for d in kept)

    if any(d is old for d in decl.drms):
        return replace(decl, drms=swapped(decl.drms))
    groups = tuple(replace(g, drms=swapped(g.drms)) if any(d is old for d in g.drms) else g for g in decl.drm_groups)
    return replace(decl, drm_groups=groups)


def _record(prov: Provenance, errata_id: str, name: str, because: ast.Text | None) -> None:
    ids = prov.drm_errata.setdefault(name, [])
    if errata_id not in ids:
        ids.append(errata_id)
    _why(prov, errata_id, name, because)


def _why(prov: Provenance, errata_id: str, name: str, because: ast.Text | None) -> None:
    if because is None:
        return
    if (errata_id, because.text) not in prov.reasons:
        prov.reasons.append((errata_id, because.text))
    said = prov.drm_reasons.setdefault(name, [])
    if because.text not in said:
        said.append(because.text)
