"""What a build last wrote, so `build --check` on unchanged charts compiles and renders nothing.

When `chartc build` has written an output folder, or `build --check` has found it up to date, the
record keeps two things: a key hashing every input of that build (chartc's own files and the
version files of the libraries that shape the outputs, as in `compiler.build.cache`; the options;
every game's id and the name and text of every file it read)
and the SHA-256 of every output. A later `build --check` whose inputs hash to the same key only
reads the outputs: when each is on disk as a regular file with its recorded hash, no interrupted
build left a journal or temp file, and no file the build owns is an orphan, the folder is up to
date, which is what rendering would have found (the outputs are a function of those inputs).
Anything else (an edited, missing or orphaned output, a changed chart, another option, another
chartc) is left to the full check, which reports it with a diff and the command that fixes it.
`build --check --pdf` always runs the full check: a PDF also depends on WeasyPrint, Pango and the
installed fonts, which no key here covers (a PDF whose own inputs are unchanged is read back rather
than laid out again: `compiler.build.pdfs`).

The record lives in the user's cache folder beside the saved parser, one per output folder, not in
`--out`: a record committed with `generated/` would change with every edit of chartc's code and
conflict in every merge. It is JSON (never code), read only under the cache's ownership rules;
a missing, foreign or damaged record only means the full check runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from compiler.build.cache import code_fingerprint
from compiler.build.journal import JOURNAL_NAME, TEMP_PREFIX, WHOLE_FILE, Entry, WriteError, entry_at, safe_target
from compiler.build.reader import ReadError, read_bytes
from compiler.build.writer import managed_files
from dsl.parser_cache import read_trusted, write_private

# Bump when the record's format or the meaning of its key changes.
_FORMAT = "3"


def source_digest(text: str) -> str:
    """The SHA-256 of a source file's text, as the key of a build holds it."""
    return _sha256(text.encode("utf-8", "surrogatepass"))


def inputs_key(game_ids: list[str], sources: Mapping[str, str], options: Mapping[str, object]) -> str:
    """The key of a build of `game_ids` whose files read `sources` (displayed name -> the
    `source_digest` of its text: a build of many games keeps the digests, not the texts)."""
    head = json.dumps([_FORMAT, code_fingerprint(), sorted(game_ids), sorted(options.items()), sorted(sources.items())])
    return _sha256(head.encode("utf-8", "surrogatepass"))


def save(cache_dir: Path, out_dir: Path, key: str, digests: Mapping[str, str], report: Sequence[str] = ()) -> None:
    """Record that `out_dir` holds the outputs of the build whose inputs hash to `key`, with the
    SHA-256 of each (relative path -> digest) and the lines the build reported (its warnings and
    their count), which a `build --check` that compiles nothing prints again."""
    hashes = dict(sorted(digests.items()))
    doc = {"format": _FORMAT, "key": key, "out": str(out_dir.resolve()), "outputs": hashes, "report": list(report)}
    write_private(json.dumps(doc, indent=0, sort_keys=True).encode("utf-8"), _path(cache_dir, out_dir))
    forget_removed_folders(cache_dir, "build-*.json")


def forget_removed_folders(cache_dir: Path, pattern: str) -> None:
    """Delete the records (`pattern`: their file names in `cache_dir`) of output folders that no
    longer exist (temporary builds, moved trees), so the cache does not grow with every folder ever built."""
    for path in cache_dir.glob(pattern):
        data = read_trusted(path)
        try:
            out = json.loads(data)["out"] if data is not None else None
        except (ValueError, KeyError, TypeError):
            out = None
        if isinstance(out, str) and not Path(out).is_dir():
            with contextlib.suppress(OSError):
                path.unlink()


def up_to_date(cache_dir: Path, out_dir: Path, key: str, game_ids: list[str]) -> tuple[int, list[str]] | None:
    """The number of outputs and the lines the build reported when `out_dir` holds exactly what the
    recorded build of `key` wrote, else None (no record for this key, an interrupted build, or any
    output not as recorded)."""
    recorded = _recorded(cache_dir, out_dir, key)
    if recorded is None or _interrupted(out_dir):
        return None
    hashes, report = recorded
    for rel, digest in hashes.items():
        if not _holds(out_dir, rel, digest):
            return None
    owned = managed_files(out_dir, game_ids, hashes)
    if any(rel not in hashes for rel in owned):  # an orphan
        return None
    return len(hashes), report


def _recorded(cache_dir: Path, out_dir: Path, key: str) -> tuple[dict[str, str], list[str]] | None:
    data = read_trusted(_path(cache_dir, out_dir))
    if data is None:
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    if not (isinstance(doc, dict) and doc.get("format") == _FORMAT and doc.get("key") == key):
        return None
    hashes = doc.get("outputs")
    if not (isinstance(hashes, dict) and hashes and all(isinstance(v, str) for v in hashes.values())):
        return None
    report = doc.get("report")
    if not (isinstance(report, list) and all(isinstance(line, str) for line in report)):
        return None
    return {str(rel): str(digest) for rel, digest in hashes.items()}, report


def _interrupted(out_dir: Path) -> bool:
    """A journal or temp file is left in `--out` or a game folder (the full check recovers it)."""
    try:
        folders = [out_dir, *(p for p in out_dir.iterdir() if entry_at(p) == Entry.FOLDER)]
        return any(p.name.startswith(TEMP_PREFIX) or p.name == JOURNAL_NAME
                   for folder in folders for p in folder.iterdir())
    except OSError:
        return True


def _holds(out_dir: Path, rel: str, digest: str) -> bool:
    """The output `rel` is a regular file inside `--out` whose bytes hash to `digest`."""
    try:
        target = safe_target(out_dir, rel)
        if entry_at(target) != Entry.FILE:
            return False
        return _sha256(read_bytes(target, out_dir, "--out", limit=WHOLE_FILE)) == digest
    except (WriteError, ReadError, OSError):
        return False


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _path(cache_dir: Path, out_dir: Path) -> Path:
    where = hashlib.sha256(str(out_dir.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return cache_dir / f"build-{where}.json"
