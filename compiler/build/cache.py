"""Keep each game's compiled model on disk, so `lookup` and `odds` answer without parsing.

A query reads one chart, yet compiling its game (parse, resolve, check) costs far more than the
answer. The compiled game (its model, findings and silenced findings) is saved in the user's
cache folder beside the saved parser (`dsl.parser_cache`), under a key that hashes everything the
result depends on: the text and displayed name of every file of the game folder, the options
(`--as-printed`), the bytes of every file of chartc's own packages (code, grammar, templates,
schemas), the version files of Lark, Jinja2 and MarkupSafe, and Python's version. An edit to a
chart or to chartc is a new key, so a saved game is never stale; the saved games of one folder and
option replace each other, and at most `KEEP` are kept, so the cache does not grow with every edit.

The saved game is a pickle, read only under the parser cache's rules (a file and folder owned by
the current user that no one else may write, whose bytes hash to the SHA-256 written with them);
anything that goes wrong (an unwritable home, a flipped bit, a truncated file) falls back to
compiling, and the compiled game is saved again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pickle
import sys
from functools import cache
from pathlib import Path

from compiler import model
from compiler.diagnostics import Diagnostic, Suppressed
from compiler.errata.printing import Printing, printing_key
from dsl.lazy_dataclass import dataclass
from dsl.parser_cache import read_checked, write_private

# Bump to invalidate every saved game when the way it is saved changes.
_FORMAT = "1"
_PACKAGES = ("compiler", "dsl")
# Libraries whose version can change what chartc produces (the parse; the HTML's escaping): the
# file holding each one's `__version__` is hashed, found without importing the library.
_LIBRARIES = ("lark", "jinja2", "markupsafe")
KEEP = 64
"""Most saved games kept (the most recently written): folders that are gone (temporary game
folders) leave saved games nobody will read, so the cache is bounded rather than swept."""


@dataclass(frozen=True)
class CompiledGame:
    """What a query needs of a compilation: the model and the findings, kept and silenced."""

    project: model.Project
    diagnostics: tuple[Diagnostic, ...]
    suppressed: tuple[Suppressed, ...]


def game_key(game_id: str, printing: Printing, sources: dict[str, str]) -> str:
    """The cache key of a game whose files read `sources` (displayed name -> text), compiled in
    `printing` (a game saved for one printing never answers for another)."""
    digest = hashlib.sha256()
    for part in (_FORMAT, code_fingerprint(), game_id, printing_key(printing)):
        digest.update(part.encode("utf-8") + b"\0")
    for name, text in sorted(sources.items()):
        digest.update(f"{len(name)}:{name}{len(text)}:".encode() + text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:40]


@cache
def code_fingerprint() -> str:
    """A hash of every file of chartc's packages, the version files of the libraries that shape
    its outputs, and Python's version."""
    digest = hashlib.sha256(sys.version.encode("utf-8"))
    for package in _PACKAGES:
        for name, path in _package_files(package_root(package)):
            with open(path, "rb") as f:
                digest.update(name.encode("utf-8") + b"\0" + f.read())
    for library in _LIBRARIES:
        spec = importlib.util.find_spec(library)
        if spec is not None and spec.origin is not None:
            digest.update(library.encode("utf-8") + b"\0" + Path(spec.origin).read_bytes())
    return digest.hexdigest()


def package_root(package: str) -> Path:
    """The folder of one of chartc's packages (`compiler`, `dsl`), found without importing it."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _package_files(root: Path) -> list[tuple[str, str]]:
    """(path relative to `root` with `/`, full path) of every file under `root` outside the
    `__pycache__` folders, sorted. `os.walk` rather than `Path.rglob`: this runs on every query,
    and not visiting the compiled files' folders at all is most of its cost."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        inner = Path(folder).relative_to(root).as_posix()
        prefix = "" if inner == "." else f"{inner}/"
        paths = ((prefix + name, os.path.join(folder, name)) for name in names)
        found += [(name, path) for name, path in paths if os.path.isfile(path)]
    return sorted(found)


_UNPICKLED: dict[Path, tuple[bytes, CompiledGame]] = {}
"""The games this process last read, by file, with the SHA-256 of the bytes they were read from:
a process that asks again (the tests, a long-running editor session) reads and checks the file
as always, and only skips unpickling the same bytes. The model is immutable, so it can be shared."""
_UNPICKLED_KEEP = 4


def fetch(cache_dir: Path, slot: str, key: str) -> CompiledGame | None:
    """The saved game under `key`, or None (not saved, not trusted, or unreadable)."""
    path = _path(cache_dir, slot, key)
    checked = read_checked(path)
    if checked is None:
        return None
    digest, data = checked
    known = _UNPICKLED.get(path)
    if known is not None and known[0] == digest:
        return known[1]
    try:
        game = pickle.loads(data)
    except Exception:  # a corrupt or truncated file: compile instead
        return None
    if not isinstance(game, CompiledGame):
        return None
    _UNPICKLED.pop(path, None)
    while len(_UNPICKLED) >= _UNPICKLED_KEEP:
        del _UNPICKLED[next(iter(_UNPICKLED))]  # the oldest
    _UNPICKLED[path] = (digest, game)
    return game


def store(cache_dir: Path, slot: str, key: str, game: CompiledGame) -> None:
    """Save `game` under `key`, replacing the games saved earlier for the same slot."""
    path = _path(cache_dir, slot, key)
    write_private(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL), path)
    for old in cache_dir.glob(f"game-{slot}-*.pickle"):
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()
    _keep_newest(cache_dir, KEEP)


def _keep_newest(cache_dir: Path, keep: int) -> None:
    """Delete all but the `keep` most recently written saved games."""
    saved = []
    for p in cache_dir.glob("game-*.pickle"):
        with contextlib.suppress(OSError):
            saved.append((p.stat().st_mtime_ns, p.name, p))
    for _, _, p in sorted(saved, reverse=True)[keep:]:
        with contextlib.suppress(OSError):
            p.unlink()


def slot_name(folder: Path, printing: Printing) -> str:
    """One name per game folder and printing: its saved games replace each other."""
    where = f"{folder.resolve()}\0{printing_key(printing)}"
    return hashlib.sha256(where.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _path(cache_dir: Path, slot: str, key: str) -> Path:
    return cache_dir / f"game-{slot}-{key}.pickle"
