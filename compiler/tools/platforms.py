"""`chartc export GAME --to foundry|tts|vassal`: a game's charts written for the platforms where
wargames are played online, from the pure emitters of `compiler/emit/platforms/`.

- `tts`: `<out>/<game>.lua`, the Lua 5.2 module for Tabletop Simulator.
- `vassal`: `<out>/<game>.vmdx`, a VASSAL module extension: a zip of the emitter's files, entries
  sorted, every timestamp 1980-01-01, so the same charts give the same bytes.
- `foundry`: `<out>/` is a Foundry VTT module folder: `module.json`, the compendium's JSON sources
  in `src/charts/`, and, when Foundry's own CLI (`@foundryvtt/foundryvtt-cli` 3.x, an npm
  package) and Node.js are found, the packed compendium `packs/charts/` (its `compilePack`, run
  offline; LevelDB's own LOG file, which holds the time of packing, is removed). Without them the
  sources are written and the report says how to pack them.

Every export writes each file through a temporary file and `os.replace`, and removes the files
of an earlier export that this one no longer writes (only inside the folders it owns).
"""

from __future__ import annotations

import contextlib
import enum
import io
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from compiler import model
from compiler.emit.platforms.foundry import PACK, SOURCE, emit_foundry, module_id, tables
from compiler.emit.platforms.tts import emit_tts
from compiler.emit.platforms.vassal import emit_vassal

FOUNDRY_CLI = "@foundryvtt/foundryvtt-cli"
FOUNDRY_CLI_ENV = "CHARTC_FOUNDRY_CLI"
INSTALL_HINT = f"npm install {FOUNDRY_CLI}@3 (in this folder, or -g; or set {FOUNDRY_CLI_ENV} to its node_modules)"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_PACK_SCRIPT = (
    "const [entry, src, dest] = process.argv.slice(1);"
    "const { compilePack } = await import(entry);"
    "await compilePack(src, dest, { log: false });"
)


class Platform(enum.StrEnum):
    FOUNDRY = "foundry"
    TTS = "tts"
    VASSAL = "vassal"


class PackError(Exception):
    """Foundry's CLI failed to pack the compendium (its message is kept)."""


@dataclass(frozen=True)
class Exported:
    """What an export wrote: the files (relative to `out`), and for Foundry whether it packed."""

    platform: Platform
    out: Path
    files: tuple[str, ...]
    summary: str
    packed: Path | None = None
    note: str | None = None


def export_game(game: model.Game, platform: Platform, out: Path, foundry_cli: Path | None = None) -> Exported:
    """Write `game` for `platform` into the folder `out` (made when missing).

    Raises:
        PackError: Foundry's CLI was found but failed.
        OSError: a file could not be written.
    """
    match platform:
        case Platform.TTS:
            files = emit_tts(game)
            _write_all(out, files)
            rules = sum(1 for c in game.charts if c.odds is not None)
            charts = sum(1 for c in game.charts if c.odds is None and c.kind is not model.ChartKind.EXTERNAL)
            summary = f"{charts} charts and {rules} odds rule{'' if rules == 1 else 's'} in {game.id}.lua"
            return Exported(platform, out, tuple(files), summary)
        case Platform.VASSAL:
            name = f"{game.id}.vmdx"
            _write(out / name, vassal_zip(emit_vassal(game)))
            return Exported(platform, out, (name,), f"{name} (a VASSAL module extension)")
        case Platform.FOUNDRY:
            return _export_foundry(game, out, foundry_cli)


def vassal_zip(files: dict[str, str]) -> bytes:
    """The extension's zip: entries sorted, fixed timestamps and permissions, deflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name].encode("utf-8"))
    return buffer.getvalue()


def _export_foundry(game: model.Game, out: Path, foundry_cli: Path | None) -> Exported:
    files = emit_foundry(game)
    _write_all(out, files)
    (out / SOURCE).mkdir(parents=True, exist_ok=True)  # a game without roll charts packs an empty compendium
    _remove_stale(out / SOURCE, {Path(p).name for p in files if p.startswith(SOURCE + "/")}, ".json")
    count = len(tables(game))
    summary = f"{count} roll tables in {out} (module {module_id(game)})"
    entry = find_foundry_cli(foundry_cli)
    node = shutil.which("node")
    if entry is None or node is None:
        missing = "Node.js" if node is None else "Foundry's CLI"
        return Exported(Platform.FOUNDRY, out, tuple(files), summary,
                        note=f"sources only: {missing} not found; to pack: {INSTALL_HINT}, then export again")
    pack = out / "packs" / PACK
    pack_compendium(node, entry, out / SOURCE, pack)
    return Exported(Platform.FOUNDRY, out, tuple(files), summary, packed=pack)


def find_foundry_cli(given: Path | None = None) -> Path | None:
    """The Foundry CLI's `index.mjs`: in `given` or `$CHARTC_FOUNDRY_CLI` (its package folder, or a
    folder holding `node_modules`), else in `node_modules` here or in a parent folder, else in npm's
    global folder."""
    places: list[Path] = []
    for root in (given, Path(os.environ[FOUNDRY_CLI_ENV]) if os.environ.get(FOUNDRY_CLI_ENV) else None):
        if root is not None:
            places += [root, root / "node_modules" / FOUNDRY_CLI, root / FOUNDRY_CLI]
    if given is None:
        here = Path.cwd().resolve()
        places += [folder / "node_modules" / FOUNDRY_CLI for folder in (here, *here.parents)]
        npm = shutil.which("npm")
        if npm is not None:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                found = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=60).stdout.strip()
                if found:
                    places.append(Path(found) / FOUNDRY_CLI)
    for place in places:
        entry = place / "index.mjs"
        if entry.is_file() and (place / "package.json").is_file():
            return entry
    return None


def foundry_cli_version(entry: Path) -> str:
    """The version of the Foundry CLI whose `index.mjs` is `entry` (from its package.json)."""
    return str(json.loads((entry.parent / "package.json").read_text(encoding="utf-8")).get("version", "?"))


def pack_compendium(node: str, entry: Path, source: Path, pack: Path) -> None:
    """Pack the JSON sources into a LevelDB compendium with the Foundry CLI's `compilePack`,
    replacing `pack` whole; LevelDB's LOG files (times of packing) are left out.

    Raises:
        PackError: the CLI failed.
    """
    pack.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".chartc-pack-", dir=pack.parent))
    try:
        arguments = [entry.resolve().as_uri(), str(source), str(staging)]
        result = subprocess.run(
            [node, "--input-type=module", "-e", _PACK_SCRIPT, "--", *arguments],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode != 0:
            raise PackError((result.stderr or result.stdout).strip() or f"node exited {result.returncode}")
        for log in ("LOG", "LOG.old"):
            (staging / log).unlink(missing_ok=True)
        if pack.exists():
            shutil.rmtree(pack)
        staging.rename(pack)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_all(out: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        _write(out / relative, text.encode("utf-8"))


def _write(path: Path, data: bytes) -> None:
    """Write `data` to `path` in one step (a temporary file in the same folder, then `os.replace`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".chartc-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _remove_stale(folder: Path, keep: set[str], suffix: str) -> None:
    """Remove the `suffix` files of `folder` an earlier export wrote and this one did not."""
    if folder.is_dir():
        for path in folder.iterdir():
            if path.suffix == suffix and path.is_file() and path.name not in keep:
                path.unlink()
