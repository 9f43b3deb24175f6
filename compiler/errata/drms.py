"""Errata on a chart's DRMs: a value (`change drm weather to +2`), a condition (`change drm
weather when month in [1944-11..1945-01]`), a DRM removed (`remove drm weather`) or added (`add
drm night "Night" -1 when night`). A DRM is named by its id; those of a `drm_group` are not
amended here (C601 says so).
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
    names = [d.name.text for d in decl.drms]
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
    index = names.index(op.name.text)
    drm = decl.drms[index]
    if isinstance(op, ast.RemoveDrm):
        applier.claim(errata_id, decl, drm.span, "drm", op.span)
        prov.removed_drms[drm.name.text] = errata_id
        _why(prov, errata_id, drm.name.text, op.because)
        return replace(decl, drms=(*decl.drms[:index], *decl.drms[index + 1 :]))
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
    return replace(decl, drms=(*decl.drms[:index], changed, *decl.drms[index + 1 :]))


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
