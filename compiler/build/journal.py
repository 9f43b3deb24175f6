"""The journal of a build in `--out`, and recovering a build that was interrupted.

What it guarantees, given that every call runs under `locked` on the output folder:

- **Decided means durable.** `write_journal` returns only once the journal `.chartc-journal` (each
  staged temp -> destination pair with the new bytes' SHA-256, each orphan to delete) is fsynced
  and renamed into place and its folder fsynced. Before that instant no output has changed; from
  it, the build is decided and `apply_journal` or the next `recover` completes it.
- **Applying is repeatable.** `apply_journal` renames each staged temp that is still there, deletes
  the orphans, fsyncs the folders and only then deletes the journal, so a crash at any instant
  leaves a journal that a later `recover` finishes.
- **Recovery leaves the old tree or the new one.** `recover` rolls forward when a journal exists
  and every entry holds up (the journal's own SHA-256 matches its text; each temp lies beside its
  output inside `--out`, holding the journal's bytes), and back when none does (the stray
  `.chartc-*` temps are deleted). A damaged journal is set aside and reported, never followed
  outside `--out` or onto bytes it does not name. A sound journal whose roll-forward fails (a
  transient I/O error) is kept with its temps, and the command fails saying so: the next one
  finishes it.

It also owns the small pieces the writer shares with it: the temp and journal names, `WriteError`,
the check that a path stays inside `--out`, durable temp files and folder fsyncs.
"""

from __future__ import annotations

import enum
import errno
import hashlib
import json
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from compiler.build.reader import ReadError, ReadFailure, read_bytes, read_start

TEMP_PREFIX = ".chartc-"
"""Every file chartc creates in `--out` other than an output starts with this (see `.gitignore`)."""
JOURNAL_NAME = ".chartc-journal"
JOURNAL_LIMIT = 4 * 1024 * 1024
UNCHANGED = "; no output file was changed"
WHOLE_FILE = 1 << 40
"""Read size for files chartc wrote itself (outputs and temps): the whole file."""


class Entry(enum.StrEnum):
    """What stands at a path in the output folder (the value is how messages say it)."""

    FILE = "a file"
    FOLDER = "a folder"
    SYMLINK = "a symlink"
    SPECIAL = "a special file"


class WriteError(Exception):
    """An output cannot be written as asked. The message says whether any file was changed."""


@dataclass(frozen=True)
class Recovery:
    """What recovering an interrupted build did to the output folder."""

    completed: tuple[str, ...] = ()
    """Outputs the interrupted build's journal had decided, now in place (rolled forward)."""
    removed_temps: tuple[str, ...] = ()
    """Temp files left by a build interrupted before its journal was written (rolled back)."""
    problems: tuple[str, ...] = ()
    """What could not be completed (a damaged journal); the build that follows rewrites every output."""

    @property
    def found(self) -> bool:
        return bool(self.completed or self.removed_temps or self.problems)

    def lines(self, out_dir: Path) -> list[str]:
        """One line per fact, for the terminal."""
        found = [f"completed an interrupted build: {out_dir / rel}" for rel in self.completed]
        found += [f"removed a temp file of an interrupted build: {out_dir / rel}" for rel in self.removed_temps]
        return found + [f"could not complete an interrupted build: {p}" for p in self.problems]


# ---- paths inside --out ---------------------------------------------------------------------------


def relative_output(rel: str) -> PurePosixPath:
    """An output path as given by the emitters, refused unless it is relative and stays below `--out`.

    Raises:
        WriteError: an absolute path, a `..` part, an empty path or a name chartc reserves.
    """
    pure = PurePosixPath(rel)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise WriteError(f"refusing to write outside the output folder: {rel}")
    if any(part.startswith(TEMP_PREFIX) for part in pure.parts):
        raise WriteError(f"refusing to write `{rel}`: names starting with `{TEMP_PREFIX}` are chartc's temp files")
    return pure


def safe_target(out_dir: Path, rel: str) -> Path:
    """The absolute destination of output `rel`, provided it lies inside `out_dir` once symlinks
    are resolved.

    Raises:
        WriteError: the path or a symlink on the way leads outside `out_dir`.
    """
    pure = relative_output(rel)
    target = (out_dir / pure).resolve()
    if out_dir.resolve() not in target.parents:
        raise WriteError(f"refusing to write outside the output folder: {rel}")
    return out_dir.resolve() / pure


def entry_at(path: Path) -> Entry | None:
    """What stands at `path`, without following a symlink; None when nothing does."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return Entry.SYMLINK
    if stat.S_ISDIR(mode):
        return Entry.FOLDER
    return Entry.FILE if stat.S_ISREG(mode) else Entry.SPECIAL


# ---- the journal ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rename:
    """A staged temp file and the output it becomes, relative to `--out`, with the new bytes' SHA-256."""

    temp: str
    destination: str
    sha256: str


@dataclass(frozen=True)
class _Journal:
    """The decided build: temps to rename onto outputs and orphans to delete."""

    renames: tuple[_Rename, ...]
    removals: tuple[str, ...]

    def as_json(self) -> str:
        body = {
            "chartc-journal": 1,
            "renames": [{"temp": r.temp, "destination": r.destination, "sha256": r.sha256} for r in self.renames],
            "removals": list(self.removals),
        }
        return json.dumps({**body, "check": journal_check(body)}, indent=1, sort_keys=True) + "\n"


def journal_check(body: Mapping[str, object]) -> str:
    """The SHA-256 a journal holds of the rest of itself (its keys sorted, compact), so a flipped
    bit in a name or a digest is a damaged journal, never a rename or deletion it did not decide."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def write_journal(
    root: Path, staged: Mapping[str, str], digests: Mapping[str, str], removals: tuple[str, ...]
) -> _Journal:
    """Make the build durable and decided: the journal, fsynced, renamed into place, folder fsynced.

    `root` is the resolved `--out`; `staged` maps each destination to its temp (both relative to
    it), `digests` each destination to the SHA-256 of the bytes staged for it; `removals` are the
    orphans.

    Raises:
        WriteError: the journal could not be written (no output file was changed).
    """
    journal = _Journal(tuple(_Rename(staged[rel], rel, digests[rel]) for rel in sorted(staged)), removals)
    try:
        tmp = root / write_temp(root, journal.as_json().encode("utf-8"))
    except OSError as exc:
        raise WriteError(f"{exc.strerror or exc} while writing the journal{UNCHANGED}") from None
    try:
        os.replace(tmp, root / JOURNAL_NAME)
        fsync_folder(root)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(tmp)
        with suppress(OSError):
            os.unlink(root / JOURNAL_NAME)
        raise WriteError(f"{exc.strerror or exc} while writing the journal{UNCHANGED}") from None
    return journal


def apply_journal(root: Path, journal: _Journal) -> list[str]:
    """Finish a decided build: rename every staged temp that is still there, delete the orphans,
    fsync the folders, delete the journal. Safe to repeat after an interruption.

    Returns:
        Destinations whose temp was renamed by this call.
    """
    renamed = []
    for r in journal.renames:
        if entry_at(root / r.temp) == Entry.FILE:
            _make_folders(root, (root / r.destination).parent)
            os.replace(root / r.temp, root / r.destination)
            renamed.append(r.destination)
    for rel in journal.removals:
        if entry_at(root / rel) == Entry.FILE:
            os.unlink(root / rel)
    for folder in sorted({(root / rel).parent for rel in journal.removals}, reverse=True):
        if folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()  # a removed game's folder, now empty
    for folder in sorted({(root / r.destination).parent for r in journal.renames} | {root}):
        if folder.is_dir():
            fsync_folder(folder)
    os.unlink(root / JOURNAL_NAME)
    fsync_folder(root)
    return renamed


# ---- recovery -------------------------------------------------------------------------------------


def recover(out_dir: Path) -> Recovery:
    """Complete or roll back a build interrupted in `out_dir` (nothing to do when none was).

    With a journal, the build had decided: its staged files are renamed into place and its orphans
    deleted (roll forward). Without one, nothing had been renamed: its temp files are deleted (roll
    back). A journal that does not hold up (a temp whose bytes are not the journal's, an entry that
    leaves the folder) is set aside, listed in `problems`, and its temp files are deleted.

    Raises:
        WriteError: a sound journal could not be applied (an I/O error); it is kept with its temps.
    """
    if not out_dir.is_dir():
        return Recovery()
    with locked(out_dir):
        return recover_locked(out_dir)


def recover_locked(out_dir: Path) -> Recovery:
    """`recover`, for a caller that already holds `locked(out_dir)` and knows the folder exists."""
    root = out_dir.resolve()
    completed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    try:
        if entry_at(root / JOURNAL_NAME) is not None:
            try:
                journal = _read_journal(root)
            except WriteError as exc:  # damaged: set aside, its temps deleted below
                problems = (str(exc),)
                with suppress(OSError):
                    os.unlink(root / JOURNAL_NAME)
            else:
                completed = tuple(apply_journal(root, journal))
        removed = tuple(_remove_stray_temps(root))
    except OSError as exc:  # an I/O error, maybe transient: a journal is kept with its temps
        raise WriteError(f"{exc.strerror or exc} while completing or rolling back an interrupted build in "
                         f"{out_dir}; its journal, if any, is kept and the next `chartc build` or "
                         "`chartc build --check` finishes it") from None
    return Recovery(completed, removed, problems)


def _make_folders(root: Path, folder: Path) -> None:
    """Create `folder` and its missing parents below `root` (a new game's folder), durably."""
    for p in reversed([folder, *folder.parents]):
        if root in p.parents and not p.exists():
            p.mkdir()
            fsync_folder(p.parent)


def _read_journal(root: Path) -> _Journal:
    """The journal, each entry checked: a temp beside its destination inside `--out`, holding the
    bytes the journal names.

    Raises:
        WriteError: the journal is unreadable or an entry does not hold up.
    """
    try:
        doc = json.loads(_read_or_raise(root, root / JOURNAL_NAME, JOURNAL_LIMIT, whole=True))
        check = doc.pop("check")
        if check != journal_check(doc):
            raise ValueError("its SHA-256 does not match its text")
        renames = tuple(_Rename(str(r["temp"]), str(r["destination"]), str(r["sha256"])) for r in doc["renames"])
        removals = tuple(str(rel) for rel in doc["removals"])
    except (ReadError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WriteError(f"{root / JOURNAL_NAME} is damaged ({exc}); set aside") from None
    for r in renames:
        _check_rename(root, r)
    for rel in removals:
        safe_target(root, rel)
    return _Journal(renames, removals)


def _check_rename(root: Path, r: _Rename) -> None:
    """A journal entry holds up: its temp lies beside its output (or in `--out` itself, for a new
    game's folder), inside `--out`, and holds the journal's bytes, or is gone because the output
    already does.

    Raises:
        WriteError: it does not.
    """
    temp = PurePosixPath(r.temp)
    beside = temp.parent in (PurePosixPath(r.destination).parent, PurePosixPath("."))
    if not beside or not temp.name.startswith(TEMP_PREFIX) or len(temp.parts) > 2:
        raise WriteError(f"{root / JOURNAL_NAME} pairs `{r.temp}` with `{r.destination}`; set aside")
    safe_target(root, r.destination)
    if entry_at(root / r.temp) == Entry.FILE:
        if _digest(root, root / r.temp) != r.sha256:
            raise WriteError(f"{root / r.temp} does not hold the bytes the journal names; set aside")
    elif _digest(root, root / r.destination) != r.sha256:
        raise WriteError(f"{root / r.temp} is gone and {root / r.destination} does not hold the new bytes; set aside")


def _digest(root: Path, path: Path) -> str:
    """The SHA-256 of a file in `--out`, or "" when there is none to read.

    Raises:
        OSError: the file is there but could not be read (maybe for a moment: not damage).
    """
    try:
        return hashlib.sha256(_read_or_raise(root, path, WHOLE_FILE, whole=False)).hexdigest()
    except ReadError:
        return ""


def _read_or_raise(root: Path, path: Path, limit: int, whole: bool) -> bytes:
    """A file's bytes in `--out` (`read_bytes` when `whole`, else `read_start`).

    Raises:
        ReadError: it is missing, a link leading outside, not a regular file, or too large.
        OSError: it is there but reading it failed (an I/O error is not a damaged journal).
    """
    try:
        return read_bytes(path, root, "--out", limit) if whole else read_start(path, root, "--out", limit)
    except ReadError as exc:
        if exc.failure is ReadFailure.UNREADABLE and entry_at(path) == Entry.FILE:
            raise OSError(errno.EIO, exc.detail) from None
        raise


def _remove_stray_temps(root: Path) -> list[str]:
    """Delete every chartc temp file in `--out` and its game folders."""
    removed = []
    for folder in [root, *sorted(p for p in root.iterdir() if entry_at(p) == Entry.FOLDER)]:
        for temp in sorted(p for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX) and p.name != JOURNAL_NAME):
            if entry_at(temp) == Entry.FILE:
                os.unlink(temp)
                removed.append(temp.relative_to(root).as_posix())
    if removed:
        fsync_folder(root)
    return removed


# ---- the operating system -------------------------------------------------------------------------


@contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder, so two chartc processes never interleave their
    writes or recover each other's build in flight (no lock where `fcntl` is missing)."""
    try:
        import fcntl  # lazy: fcntl exists only on POSIX systems (elsewhere: no lock)
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        fd = os.open(out_dir, os.O_RDONLY)
    except OSError as exc:
        raise WriteError(f"cannot open {out_dir}: {exc.strerror or exc}{UNCHANGED}") from None
    try:
        _wait_for_lock(fd, out_dir, fcntl)
        yield
    finally:
        os.close(fd)


LOCK_TIMEOUT_VARIABLE = "CHARTC_LOCK_TIMEOUT"
DEFAULT_LOCK_TIMEOUT = 600.0
"""Seconds a chartc command waits for another one to finish writing the same output folder."""


def lock_timeout() -> float:
    """`CHARTC_LOCK_TIMEOUT` seconds (0 waits not at all), or the default."""
    try:
        seconds = float(os.environ.get(LOCK_TIMEOUT_VARIABLE, ""))
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT
    return seconds if seconds >= 0 else DEFAULT_LOCK_TIMEOUT


def _wait_for_lock(fd: int, out_dir: Path, fcntl: Any) -> None:
    """Take the lock, saying once on stderr that another chartc holds it, and give up (WriteError)
    after `lock_timeout()` seconds instead of waiting for ever behind a hung process."""
    deadline = time.monotonic() + lock_timeout()
    said = False
    pause = 0.05
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if time.monotonic() >= deadline:
            raise WriteError(
                f"another chartc command is writing {out_dir} and did not finish within {lock_timeout():g} s "
                f"({LOCK_TIMEOUT_VARIABLE} sets the wait){UNCHANGED}"
            )
        if not said:
            sys.stderr.write(f"waiting for another chartc command to finish writing {out_dir}\n")
            sys.stderr.flush()
            said = True
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
        pause = min(pause * 2, 0.5)


def write_temp(folder: Path, data: bytes) -> str:
    """A new fsynced temp file in `folder` holding `data`, with the mode a plain `open` would give."""
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp).name


def fsync_folder(folder: Path) -> None:
    """Make the folder's entries (new names, renames, deletions) durable."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform that cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
