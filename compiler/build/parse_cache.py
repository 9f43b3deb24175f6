"""Keep each chart file's syntax tree on disk, so a file that did not change is not parsed again.

Parsing is most of what `chartc check` spends on a large file (Lark's lexer and LALR loop are pure
Python: 0.8 s of CPU for the 10,000 rows of `scripts/bench.py`'s synthetic game), and all of what a
query spends re-reading the files of a game it did not edit (`chartc lookup` after one chart file
changed parses that file only). Unpickling a saved syntax tree costs about a sixth of parsing it.

A tree is saved in the user's cache folder (`dsl.parser_cache.default_cache_dir`) under a key that
hashes everything it depends on: the file's text and the name its spans carry, and chartc's own
code, grammar and Lark's version (`compiler.build.cache.code_fingerprint`, the compiled games'
key). Only trees without syntax errors are saved (a file with errors is parsed, and reported, every
time), and only those of files of `MIN_CHARS` or more (a smaller file parses in about a millisecond).
It is read under the parser cache's rules (`read_checked`: a file and folder the user owns that no
one else may write, whose bytes hash to the SHA-256 written with them); anything that goes wrong
parses the file, as without the cache. At most `KEEP` trees are kept, the most recently written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections import OrderedDict
from pathlib import Path
from threading import Lock

from compiler.build.cache import code_fingerprint
from dsl import ast
from dsl.parser_cache import read_checked, write_private

# Bump to invalidate every saved tree when the way it is saved changes.
_FORMAT = "1"
MIN_CHARS = 2048
"""Smaller files are parsed every time: parsing one costs about what reading a saved tree does."""
KEEP = 1024
"""Most saved trees (and marks of texts parsed once) kept; past it, the oldest are deleted down to
three quarters of it."""
_PREFIX = "tree-"


def tree_key(text: str, shown: str) -> str:
    """The cache key of the syntax tree of `text` read as the file `shown` (the name in its spans)."""
    digest = hashlib.sha256()
    for part in (_FORMAT, code_fingerprint(), shown):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:40]


def fetch(cache_dir: Path, key: str) -> ast.SourceFile | None:
    """The saved syntax tree under `key`, or None (not saved, not trusted, or unreadable)."""
    with _HELD_LOCK:
        held = _HELD.get(key)
        if held is not None:
            _HELD.move_to_end(key)
            return held[0]
    checked = read_checked(cache_dir / f"{_PREFIX}{key}.pickle")
    if checked is None:
        return None
    try:
        tree = pickle.loads(checked[1])
    except Exception:  # a corrupt or truncated file: parse instead
        return None
    if not isinstance(tree, ast.SourceFile):
        return None
    _hold(key, tree, len(checked[1]))
    return tree


def store(cache_dir: Path, key: str, tree: ast.SourceFile) -> None:
    """Save `tree` under `key` when a text of that key was parsed before (the first parse leaves
    only a mark, `tree-KEY.seen`: a check run once, as in CI from a fresh clone, or an edit parsed
    once, does not pay for a tree nobody reads); past `KEEP` saved trees and marks, delete the oldest."""
    mark = cache_dir / f"{_PREFIX}{key}.seen"
    if not mark.exists():
        write_private(b"", mark)
        _keep_newest(cache_dir)
        return
    data = pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL)
    write_private(data, cache_dir / f"{_PREFIX}{key}.pickle")
    _hold(key, tree, len(data))
    _keep_newest(cache_dir)


# The trees this process read or saved last, by key, up to `_HELD_BYTES` of their pickles: a
# process that compiles the same files again (the tests, the language server, `chartc diff`) hands
# out the same immutable tree, as `dsl.parser`'s memo of parsed texts does, without reading it again.
# A tree whose pickle is over `_HELD_MAX` is not held (as that memo does not keep large texts): the
# interpreter's last garbage collection at exit walks every object still held, and for the 10,000
# synthetic rows (a 5 MB pickle) that walk cost 0.65 s of CPU, more than reading the tree.
_HELD: OrderedDict[str, tuple[ast.SourceFile, int]] = OrderedDict()
_HELD_BYTES = 16 * 1024 * 1024
_HELD_MAX = 2 * 1024 * 1024
_held_bytes = 0
_HELD_LOCK = Lock()


def _hold(key: str, tree: ast.SourceFile, size: int) -> None:
    global _held_bytes
    with _HELD_LOCK:
        if key in _HELD or size > _HELD_MAX:
            return
        _HELD[key] = (tree, size)
        _held_bytes += size
        while _held_bytes > _HELD_BYTES:
            _, (_, dropped) = _HELD.popitem(last=False)
            _held_bytes -= dropped


def _keep_newest(cache_dir: Path) -> None:
    """Past `KEEP` saved trees, delete all but the `KEEP * 3 // 4` most recently written (so the
    folder is listed on each save, and each file's time read only when it is over the bound)."""
    try:
        with os.scandir(cache_dir) as entries:
            saved = [e for e in entries if e.name.startswith(_PREFIX)]
        if len(saved) <= KEEP:
            return
        dated = []
        for e in saved:
            with contextlib.suppress(OSError):
                dated.append((e.stat(follow_symlinks=False).st_mtime_ns, e.name))
    except OSError:
        return
    for _, name in sorted(dated, reverse=True)[KEEP * 3 // 4:]:
        with contextlib.suppress(OSError):
            (cache_dir / name).unlink()
