"""Keep the built LALR parser on disk, so a chartc command does not rebuild the grammar each start.

Building the parser from `chart.lark` costs about 0.25 s of CPU; loading a saved one about 0.01 s.
The saved parser lives in the user's cache folder (`$XDG_CACHE_HOME/chartc`, else
`~/.cache/chartc`), in a file named by a hash of everything it depends on: the grammar text, the
Lark options, Lark's version and Python's. A changed grammar is a new file, so a saved parser is
never stale. It is written to a temporary file and renamed, so a reader never sees half a file.

A saved parser is a pickle, which can run code when loaded: it is read only from a folder and a
file owned by the current user that no one else may write. Every file chartc keeps in this folder
(the parser, the compiled games, the build records, the schema memo) starts with the SHA-256 of
the rest (`write_private`), and `read_trusted` refuses a file whose bytes do not hash to it: a
flipped bit or a torn write is rebuilt, never trusted. Anything that goes wrong (a read-only or
missing home, a corrupt or foreign file) falls back to building the parser.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

# Bump to invalidate every saved parser when the way it is saved changes.
_FORMAT = "1"
_CHECKED = b"chartc-sha256\0"
"""What every cache file starts with, followed by the SHA-256 of the bytes after it."""
_DIGEST_BYTES = 32


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/chartc`, else `~/.cache/chartc`; a relative `$XDG_CACHE_HOME` is ignored,
    as the XDG Base Directory Specification says (it would put the cache under whatever folder
    chartc is run from)."""
    given = os.environ.get("XDG_CACHE_HOME") or ""
    base = given if os.path.isabs(given) else os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chartc"


def cached_parser(grammar: str, options: dict[str, object], cache_dir: Path) -> Lark:
    """The LALR parser for `grammar` with `options`: loaded from `cache_dir` when a trusted saved
    copy exists, else built (and saved there when the folder can be written)."""
    from lark import Lark  # lazy: `chartc lookup` answered from the compiled-game cache imports no Lark

    path = cache_dir / f"grammar-{_key(grammar, options)}.lark"
    loaded = _load(path)
    if loaded is not None:
        return loaded
    parser = Lark(grammar, **options)
    _save(parser, path)
    return parser


def _key(grammar: str, options: dict[str, object]) -> str:
    # lazy: `chartc lookup` answered from the compiled-game cache imports no Lark
    from lark import __version__ as lark_version

    parts = [_FORMAT, grammar, repr(sorted(options.items())), lark_version, repr(sys.version_info[:2])]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def _load(path: Path) -> Lark | None:
    from lark import Lark  # lazy: `chartc lookup` answered from the compiled-game cache imports no Lark

    data = read_trusted(path)
    if data is None:
        return None
    try:
        return Lark.load(io.BytesIO(data))
    except Exception:  # a corrupt or truncated file: build the parser instead
        return None


def read_trusted(path: Path) -> bytes | None:
    """The bytes a cache file was written with (`write_private`), or None unless it and its folder
    are the current user's own and no one else may write them (a pickle from anyone else could run
    their code when loaded), and its bytes hash to the SHA-256 it starts with (a flipped bit, a
    torn or truncated file is rebuilt by the caller, never trusted)."""
    checked = read_checked(path)
    return None if checked is None else checked[1]


def read_checked(path: Path) -> tuple[bytes, bytes] | None:
    """`read_trusted`, with the SHA-256 the bytes were checked against: (digest, bytes)."""
    if not (_trusted(path.parent) and _trusted(path)):
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_CHECKED) + _DIGEST_BYTES
    if not data.startswith(_CHECKED) or len(data) < head:
        return None
    digest, body = data[len(_CHECKED):head], data[head:]
    return (digest, body) if hashlib.sha256(body).digest() == digest else None


def _trusted(path: Path) -> bool:
    """The path exists, is owned by the current user and no one else may write it."""
    try:
        info = path.lstat()
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _save(parser: Lark, path: Path) -> None:
    """Write the parser atomically; a folder that cannot be created or written is not an error."""
    buffer = io.BytesIO()
    parser.save(buffer)
    write_private(buffer.getvalue(), path)


def write_private(data: bytes, path: Path) -> None:
    """Write a cache file atomically (a temp file renamed into place) in a folder only the current
    user may write, created if missing; a folder that cannot be created or written is not an error.
    The file holds `data` after the SHA-256 of `data`, which `read_trusted` checks."""
    # lazy: only when writing (tempfile imports shutil and the compression modules); `chartc lookup`
    # answered from the compiled-game cache writes nothing
    import tempfile

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(path.parent):
            return
        fd, temp = tempfile.mkstemp(prefix=".partial-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(_CHECKED + hashlib.sha256(data).digest() + data)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        return
