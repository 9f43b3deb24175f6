"""Incremental PDFs: `build --pdf` lays out a game's player aid again only when its inputs changed.

A PDF is a function of its inputs: the player aid's HTML (which holds the charts, the templates,
the CSS and the options `--paper`, `--large-print` and `--landscape` shaped: a self-contained
file, linking nothing), the code that hands it to WeasyPrint (`compiler.build.render` and this
module; an edit elsewhere in chartc that leaves the HTML as it was leaves the PDF as it was),
WeasyPrint and the Python libraries it lays out and writes with (their versions), the C libraries
it draws text with (Pango, HarfBuzz and its subsetter, fontconfig, FreeType: the file each soname
resolves to, which names its version), the installed fonts and fontconfig's configuration (each
file's path, size and modification time), and the `SOURCE_DATE_EPOCH` stamped into embedded fonts.
`inputs_key` hashes them all.

After a build (or a `build --check --pdf` that passed) the record keeps, for every PDF, the key of
its inputs and the SHA-256 of its bytes (`save`). A later build whose aid hashes to the same key
reads the PDF back from `--out` instead of laying it out (`reuse`), and only when the file is a
regular file inside `--out` whose bytes hash to the recorded digest, so what it hands the writer
is byte for byte what WeasyPrint wrote for those inputs. Anything else (no record, a record of
another format or folder, a damaged or foreign record, another key, a PDF edited, missing or
replaced by a link) lays the PDF out again: a bad record costs a render, never a wrong PDF and
never a failed build.

The record is JSON in the user's cache folder beside the build record (`compiler.build.record`),
one per output folder, read only under the cache's ownership rules (`dsl.parser_cache.read_trusted`).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
from collections.abc import Mapping
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from compiler.build import render
from compiler.build.journal import WHOLE_FILE, Entry, WriteError, entry_at, safe_target
from compiler.build.reader import ReadError, read_bytes
from compiler.build.record import forget_removed_folders
from dsl.parser_cache import read_trusted, write_private

# Bump when the record's format or the meaning of its key changes.
_FORMAT = "1"
_LIBRARIES = ("weasyprint", "pydyf", "tinycss2", "cssselect2", "tinyhtml5", "pyphen", "fonttools", "pillow",
              "brotli", "zopfli", "cffi")
"""WeasyPrint and the Python libraries it parses, lays out, subsets fonts and writes PDF with."""
_SONAMES = ("libpango-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz.so.0", "libharfbuzz-subset.so.0",
            "libfontconfig.so.1", "libfreetype.so.6")
"""The C libraries WeasyPrint draws text with; each resolves to a file whose name holds its version."""
_LIBRARY_DIRS = ("/usr/lib", "/usr/lib/*-linux-gnu", "/usr/lib64", "/usr/local/lib", "/opt/homebrew/lib",
                 "/usr/local/opt/*/lib")
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts",
              "/etc/fonts", "/Library/Fonts", "~/Library/Fonts", "/System/Library/Fonts")
"""The installed fonts and fontconfig's configuration, which decide the glyphs a PDF embeds."""


def inputs_key(html: str) -> str:
    """The key of the PDF of the player aid `html` (see the module's docstring)."""
    digest = hashlib.sha256(f"{_FORMAT}\0{environment_key()}\0".encode())
    digest.update(html.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@cache
def environment_key() -> str:
    """Everything but the HTML a PDF depends on: the code that lays it out, the libraries, the fonts."""
    code = hashlib.sha256(Path(render.__file__).read_bytes() + b"\0" + Path(__file__).read_bytes()).hexdigest()
    parts = [code, os.environ.get("SOURCE_DATE_EPOCH", "")]
    for library in _LIBRARIES:
        try:
            parts.append(f"{library} {version(library)}")
        except PackageNotFoundError:
            parts.append(f"{library} -")
    parts.extend(_resolved(soname) for soname in _SONAMES)
    parts.extend(_files(os.path.expanduser(folder)) for folder in _FONT_DIRS)
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _resolved(soname: str) -> str:
    """Each file `soname` resolves to in the usual library folders, with its size."""
    found = []
    for folder in _LIBRARY_DIRS:
        for link in sorted(glob.glob(os.path.join(folder, soname))):
            real = os.path.realpath(link)
            try:
                found.append(f"{real} {os.stat(real).st_size}")
            except OSError:
                found.append(f"{real} -")
    return f"{soname}: {', '.join(found)}"


def _files(folder: str) -> str:
    """Every file under `folder` with its size and modification time, in a stable order."""
    found = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            found.append(f"{path} {info.st_size} {info.st_mtime_ns}")
    return f"{folder}: " + "\n".join(found)


def recorded(cache_dir: Path, out_dir: Path) -> dict[str, tuple[str, str]]:
    """The record of `out_dir`'s PDFs: relative path -> (inputs key, SHA-256 of the bytes); empty
    when the record is missing, foreign, damaged, of another format or of another folder."""
    data = read_trusted(_path(cache_dir, out_dir))
    try:
        doc = json.loads(data) if data is not None else None
    except ValueError:
        return {}
    if not (isinstance(doc, dict) and doc.get("format") == _FORMAT and doc.get("out") == str(out_dir.resolve())):
        return {}
    pdfs = doc.get("pdfs")
    if not isinstance(pdfs, dict):
        return {}
    return {rel: (entry[0], entry[1]) for rel, entry in pdfs.items()
            if isinstance(rel, str) and rel.endswith(".pdf") and isinstance(entry, list) and len(entry) == 2
            and all(isinstance(part, str) for part in entry)}


def reuse(out_dir: Path, rel: str, key: str, record: Mapping[str, tuple[str, str]]) -> bytes | None:
    """The bytes of the PDF `rel` in `out_dir` when the record says the PDF of inputs `key` is there
    and it is: a regular file inside `out_dir` whose bytes hash to the recorded digest; else None."""
    entry = record.get(rel)
    if entry is None or entry[0] != key:
        return None
    try:
        target = safe_target(out_dir, rel)
        if entry_at(target) != Entry.FILE:
            return None
        data = read_bytes(target, out_dir, "--out", limit=WHOLE_FILE)
    except (WriteError, ReadError, OSError):
        return None
    return data if hashlib.sha256(data).hexdigest() == entry[1] else None


def save(cache_dir: Path, out_dir: Path, keys: Mapping[str, str], digests: Mapping[str, str]) -> None:
    """Record, for each PDF of this build (relative path -> inputs key), its key and the SHA-256 of
    the bytes now in `out_dir` (`digests`, the writer's); PDFs of games not in this build keep
    their entries."""
    pdfs = {rel: list(entry) for rel, entry in recorded(cache_dir, out_dir).items()}
    pdfs.update({rel: [key, digests[rel]] for rel, key in keys.items() if rel in digests})
    doc = {"format": _FORMAT, "out": str(out_dir.resolve()), "pdfs": dict(sorted(pdfs.items()))}
    write_private(json.dumps(doc, indent=0, sort_keys=True).encode("utf-8"), _path(cache_dir, out_dir))
    forget_removed_folders(cache_dir, "pdf-*.json")


def _path(cache_dir: Path, out_dir: Path) -> Path:
    where = hashlib.sha256(str(out_dir.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return cache_dir / f"pdf-{where}.json"
