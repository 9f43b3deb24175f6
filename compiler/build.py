"""Produce every output of a compilation in memory, validate it, and write it atomically.

`render_outputs` is pure apart from reading each game's optional `aid.order` (model in,
`{relative path: text}` out); `render_pdfs` turns the HTML player aids into PDFs with WeasyPrint
(`build --pdf`). `write_outputs` writes only when everything rendered and validated, through a
temp file + `os.replace` per file, so a failing build leaves `generated/` untouched.
`stale_outputs` is `build --check`.

PDFs are optional outputs: they are written, checked and cleaned up only when asked for, so a
build without `--pdf` neither deletes a PDF left by an earlier `--pdf` build nor calls it an orphan.
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

from compiler import model
from compiler.emit.html import ORDER_FILE, AidOrderError, emit_game_html
from compiler.emit.json import emit_game_json
from compiler.emit.python import emit_game_python

GAME_SCHEMA = "chartc-game.schema.json"
OPTIONAL_SUFFIXES = (".pdf",)
"""Outputs managed only by a build that produces them (`--pdf`)."""


class OutputError(Exception):
    """An output failed validation or would be written outside the output folder."""


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with chartc (the files of `schemas/`)."""
    from importlib.resources import files

    return json.loads(files("compiler").joinpath("schemas", name).read_text(encoding="utf-8"))


def validate_json(text: str, schema_name: str = GAME_SCHEMA) -> None:
    """Validate a JSON text against one of our schemas (2020-12).

    Raises:
        OutputError: with the first failing path and message.
    """
    import jsonschema

    schema = load_schema(schema_name)
    validator = jsonschema.Draft202012Validator(schema)
    from jsonschema.exceptions import best_match

    e = best_match(validator.iter_errors(json.loads(text)))
    if e is not None:
        where = "/".join(str(p) for p in e.absolute_path) or "(root)"
        raise OutputError(f"generated JSON does not match {schema_name} at {where}: {e.message}")


def _order_text(game: model.Game) -> str | None:
    """The game folder's `aid.order` file (see `emit_html.play_order`), or None."""
    if not game.charts:
        return None
    path = Path(game.charts[0].source_file).parent / ORDER_FILE
    return path.read_text(encoding="utf-8") if path.is_file() else None


def render_outputs(project: model.Project, paper: str = "a4", large_print: bool = False) -> dict[str, str]:
    """Every generated file for the project's games, keyed by POSIX path relative to the output
    folder: `<game>/<game>.json`, `<game>/<game>.py`, `<game>/<game>.html`.

    Raises:
        OutputError: a JSON document fails its schema, or an `aid.order` file is wrong.
    """
    outputs: dict[str, str] = {}
    for game_id in sorted(project.games):
        game = project.games[game_id]
        text = emit_game_json(game)
        validate_json(text)
        outputs[f"{game_id}/{game_id}.json"] = text
        outputs[f"{game_id}/{game_id}.py"] = emit_game_python(game)
        try:
            outputs[f"{game_id}/{game_id}.html"] = emit_game_html(game, paper, large_print, _order_text(game))
        except AidOrderError as exc:
            raise OutputError(f"game `{game_id}`: {exc}") from exc
    return dict(sorted(outputs.items()))


def html_to_pdf(html: str) -> bytes:
    """One HTML player aid as PDF bytes, through WeasyPrint (the `pdf` extra).

    WeasyPrint writes no creation or modification date unless the HTML asks for one, so the same
    HTML gives the same bytes on every run with the same WeasyPrint, Pango and fonts.

    Raises:
        OutputError: WeasyPrint is not installed.
    """
    try:
        import weasyprint
    except ImportError as exc:
        raise OutputError("`--pdf` needs WeasyPrint: pip install -e '.[pdf]'") from exc
    import logging

    # WeasyPrint logs every CSS property it ignores (e.g. flex gaps it lays out differently); the
    # aid is tested in both engines, so these are not actionable for a chartc user.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    return weasyprint.HTML(string=html).write_pdf(pdf_tags=True)


def render_pdfs(outputs: dict[str, str]) -> dict[str, bytes]:
    """A PDF beside every HTML player aid in `outputs` (`<game>/<game>.pdf`)."""
    return {rel[: -len(".html")] + ".pdf": html_to_pdf(text) for rel, text in outputs.items() if rel.endswith(".html")}


def _safe_target(out_dir: Path, rel: str) -> Path:
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise OutputError(f"refusing to write outside the output folder: {rel}")
    target = (out_dir / pure).resolve()
    if out_dir.resolve() not in target.parents:
        raise OutputError(f"refusing to write outside the output folder: {rel}")
    return target


@dataclass(frozen=True)
class Staleness:
    missing: list[str]
    changed: list[str]
    orphaned: list[str]
    diffs: dict[str, str]

    @property
    def clean(self) -> bool:
        return not (self.missing or self.changed or self.orphaned)


OUTPUT_SUFFIXES = (".json", ".py", ".html", ".pdf")


def _managed_files(out_dir: Path, game_ids: list[str], outputs: Mapping[str, str | bytes]) -> list[str]:
    """The files a build owns: `<game>/<game>.{json,py,html,pdf}` of the built games (PDFs only when
    this build produces PDFs). Anything else a user keeps in the folder is left alone."""
    produced = {suffix for suffix in OPTIONAL_SUFFIXES if any(rel.endswith(suffix) for rel in outputs)}
    found = []
    for game_id in game_ids:
        for suffix in OUTPUT_SUFFIXES:
            f = out_dir / game_id / f"{game_id}{suffix}"
            if not f.is_file() or (suffix in OPTIONAL_SUFFIXES and suffix not in produced):
                continue
            found.append(f.relative_to(out_dir).as_posix())
    return found


def orphan_games(out_dir: Path, game_ids: list[str]) -> list[str]:
    """Games whose outputs are in `out_dir` but whose charts are gone: a folder `<x>/` holding a
    `<x>.json` that chartc wrote, for an `x` not among `game_ids`."""
    found = []
    if out_dir.is_dir():
        for folder in sorted(p for p in out_dir.iterdir() if p.is_dir() and p.name not in game_ids):
            doc = folder / f"{folder.name}.json"
            try:
                if doc.is_file() and '"generator": "chartc"' in doc.read_text(encoding="utf-8", errors="replace")[:300]:
                    found.append(folder.name)
            except OSError:
                continue
    return found


def _as_bytes(content: str | bytes) -> bytes:
    return content if isinstance(content, bytes) else content.encode("utf-8")


def _diff(rel: str, current: bytes, content: str | bytes) -> str:
    """A short unified diff for text outputs; a size note for binary ones (PDF)."""
    if isinstance(content, bytes):
        return f"  {rel}: binary content differs ({len(current)} bytes on disk, {len(content)} from charts)\n"
    old = current.decode("utf-8", errors="replace")
    diff = difflib.unified_diff(old.splitlines(True), content.splitlines(True), f"{rel} (on disk)", f"{rel} (from charts)", n=1)
    return "".join(list(diff)[:60])


def stale_outputs(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> Staleness:
    """Compare the would-be outputs with what is on disk, without writing anything."""
    missing, changed, diffs = [], [], {}
    for rel, content in outputs.items():
        target = _safe_target(out_dir, rel)
        if not target.is_file():
            missing.append(rel)
            continue
        current = target.read_bytes()
        if current != _as_bytes(content):
            changed.append(rel)
            diffs[rel] = _diff(rel, current, content)
    orphaned = [rel for rel in _managed_files(out_dir, game_ids, outputs) if rel not in outputs]
    return Staleness(missing, changed, orphaned, diffs)


def _write_temps(files: dict[Path, bytes]) -> dict[Path, str]:
    """Write each file's bytes to a temp file beside it; on any failure remove them all and raise."""
    temps: dict[Path, str] = {}
    try:
        for target, data in files.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".chartc-", dir=target.parent)
            temps[target] = tmp
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        for tmp in temps.values():
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise
    return temps


def check_out_dir(out_dir: Path, game_dirs: dict[str, Path]) -> None:
    """Refuse an output folder that is a file, or whose game folders would overlap chart sources
    (orphan removal would then delete the sources).

    Raises:
        OutputError: with what is wrong.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {out_dir} is a file, not a folder")
    for game_id, folder in game_dirs.items():
        target, source = (out_dir / game_id).resolve(), folder.resolve()
        if target == source or source in target.parents or target in source.parents:
            raise OutputError(f"--out {out_dir} would write game `{game_id}` into its chart sources ({folder})")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_outputs(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> list[str]:
    """Write every output atomically and delete orphans of the built games; returns changed paths.

    All targets are checked first; then every changed file is written to a temp file in its own
    folder, and only when all temp files are written are they moved into place with `os.replace`.
    A failure while writing (a full disk, a permission) removes the temp files and changes nothing.

    Raises:
        OutputError: a target lies outside `out_dir`.
        OSError: a temp file could not be written (nothing was changed).
    """
    targets = {rel: _safe_target(out_dir, rel) for rel in outputs}
    pending = {rel: _as_bytes(content) for rel, content in outputs.items()}
    pending = {rel: data for rel, data in pending.items() if not (targets[rel].is_file() and targets[rel].read_bytes() == data)}
    temps = _write_temps({targets[rel]: data for rel, data in pending.items()})
    for target, tmp in temps.items():
        os.replace(tmp, target)
    changed = list(pending)
    for rel in _managed_files(out_dir, game_ids, outputs):
        if rel not in outputs:
            target = _safe_target(out_dir, rel)
            target.unlink()
            changed.append(rel)
            if not any(target.parent.iterdir()):  # a removed game's folder, now empty
                target.parent.rmdir()
    return changed
