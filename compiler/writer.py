"""Write a build's outputs into `--out` so that a crash or `kill -9` at any instant leaves the old
tree or the new one, never a mix; and compare them with what is there (`build --check`).

The protocol, all under an exclusive lock on the output folder:

1. **Recover** an earlier build that was interrupted (see `recover`).
2. **Plan**: every check runs before anything changes: each destination lies inside `--out` once
   symlinks are resolved, no folder or link stands where a file goes, every orphan to delete is a
   regular file inside `--out`, every folder touched is writable. A refusal changes nothing.
3. **Stage**: each changed file goes to a temp file `.chartc-*` beside its destination, fsynced;
   their folders are fsynced too.
4. **Commit**: the journal `.chartc-journal` (every temp -> destination pair with the new bytes'
   SHA-256, every orphan to delete) is written to a temp file, fsynced and renamed into place. From
   this instant the build is decided: the next chartc command completes it.
5. **Apply**: `os.replace` each temp onto its destination, delete the orphans, fsync the folders,
   then delete the journal.

`recover` rolls a build forward when its journal exists (the staged files are durable, so the
renames can be finished), and back when it does not (nothing was renamed yet: the stray temp files
are deleted). `build` and `build --check` both recover first, so after any chartc command that
touches the folder it holds exactly the old outputs or exactly the new ones.
"""

from __future__ import annotations

import difflib
import enum
import errno
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from compiler.reader import ReadError, read_bytes, read_start

TEMP_PREFIX = ".chartc-"
"""Every file chartc creates in `--out` other than an output starts with this (see `.gitignore`)."""
JOURNAL_NAME = ".chartc-journal"
JOURNAL_LIMIT = 4 * 1024 * 1024
OUTPUT_SUFFIXES = (".json", ".py", ".html", ".pdf")
OPTIONAL_SUFFIXES = (".pdf",)
"""Outputs managed only by a build that produces them (`--pdf`)."""
_ORPHAN_MARK = '"generator": "chartc"'
_UNCHANGED = "; no output file was changed"
_WHOLE_FILE = 1 << 40
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
class Replacement:
    """A changed output: its path relative to `--out` and its new bytes."""

    rel: str
    data: bytes


@dataclass(frozen=True)
class WritePlan:
    """What a build changes, every destination and orphan already checked."""

    out_dir: Path
    writes: tuple[Replacement, ...]
    removals: tuple[str, ...]

    @property
    def changed(self) -> list[str]:
        return [w.rel for w in self.writes] + list(self.removals)


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


@dataclass(frozen=True)
class WriteResult:
    changed: tuple[str, ...]
    recovery: Recovery


@dataclass(frozen=True)
class Staleness:
    """`build --check`: how the output folder differs from what the charts produce."""

    missing: list[str]
    changed: list[str]
    orphaned: list[str]
    diffs: dict[str, str]
    recovery: Recovery = field(default_factory=Recovery)

    @property
    def clean(self) -> bool:
        return not (self.missing or self.changed or self.orphaned or self.recovery.found)


# ---- checks that need no disk ---------------------------------------------------------------------


def check_out_dir(out_dir: Path, game_dirs: Mapping[str, Path]) -> None:
    """Refuse an output folder that is not a folder, or whose game folders would overlap chart
    sources (orphan removal would then delete the sources).

    Raises:
        WriteError: with what is wrong.
    """
    if (out_dir.exists() or out_dir.is_symlink()) and not out_dir.is_dir():
        raise WriteError(f"--out {out_dir} is a file, not a folder")
    for game_id, folder in game_dirs.items():
        target, source = (out_dir / game_id).resolve(), folder.resolve()
        if target == source or source in target.parents or target in source.parents:
            raise WriteError(f"--out {out_dir} would write game `{game_id}` into its chart sources ({folder})")


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


# ---- build ----------------------------------------------------------------------------------------


def write_outputs(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> WriteResult:
    """Write every output and delete the orphans of the built games, through the journal.

    Returns:
        The paths changed (written or deleted) and what recovering an earlier build did.

    Raises:
        WriteError: a check refused the build (nothing changed), or writing failed; the message
            says whether anything changed and what the next chartc command does about it.
    """
    for rel in outputs:
        relative_output(rel)
    created = not (out_dir.exists() or out_dir.is_symlink())
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot create {out_dir}: {exc.strerror or exc}{_UNCHANGED}") from None
    try:
        with _locked(out_dir):
            recovery = _recover(out_dir)
            try:
                plan = plan_writes(out_dir, outputs, game_ids)
            except WriteError as exc:
                raise WriteError(f"{exc}{_UNCHANGED}") from None
            except OSError as exc:
                raise WriteError(f"cannot read {out_dir}: {exc.strerror or exc}{_UNCHANGED}") from None
            _commit(plan)
    except BaseException:
        if created:
            with suppress(OSError):
                out_dir.rmdir()  # only if still empty: a refused first build leaves no folder behind
        raise
    return WriteResult(tuple(plan.changed), recovery)


def plan_writes(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> WritePlan:
    """Check every destination and orphan, and keep only the outputs whose bytes change.

    Raises:
        WriteError: a destination or orphan cannot be written or deleted safely (nothing changed).
    """
    writes = []
    for rel, content in sorted(outputs.items()):
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        target = safe_target(out_dir, rel)
        _check_destination(out_dir, target, rel)
        if not _holds(out_dir, target, data):
            writes.append(Replacement(rel, data))
    removals = tuple(rel for rel in managed_files(out_dir, game_ids, outputs) if rel not in outputs)
    for rel in removals:
        _check_removable(out_dir, rel)
    return WritePlan(out_dir, tuple(writes), removals)


def _check_destination(out_dir: Path, target: Path, rel: str) -> None:
    """Refuse a destination where something other than a regular file stands, or whose folder
    cannot be created because a file stands in its way."""
    for folder in reversed(target.parents):
        if folder == out_dir.resolve() or out_dir.resolve() not in folder.parents:
            continue
        kind = _entry(folder)
        if kind not in (None, Entry.FOLDER):
            raise WriteError(f"cannot write `{rel}`: {kind} stands where the folder "
                             f"`{folder.relative_to(out_dir.resolve()).as_posix()}` should be")
    kind = _entry(target)
    if kind not in (None, Entry.FILE):
        raise WriteError(f"cannot write `{rel}`: {kind} stands where the file should be; move it away")


def _check_removable(out_dir: Path, rel: str) -> None:
    target = safe_target(out_dir, rel)
    if _entry(target) != Entry.FILE:
        raise WriteError(f"cannot delete the orphaned output `{rel}`: it is not a regular file")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise WriteError(f"cannot delete the orphaned output `{rel}`: its folder is not writable")


def _entry(path: Path) -> Entry | None:
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


def _holds(out_dir: Path, target: Path, data: bytes) -> bool:
    """Whether the file at `target` already holds exactly `data` (read no further than its size)."""
    if _entry(target) != Entry.FILE or target.stat().st_size != len(data):
        return False
    try:
        return read_bytes(target, out_dir, "--out", limit=len(data)) == data
    except ReadError:
        return False


def _commit(plan: WritePlan) -> None:
    """Stage, journal and apply a checked plan."""
    if not plan.changed:
        return
    root = plan.out_dir.resolve()
    staged = _stage(plan)
    try:
        journal = _write_journal(plan, staged)
    except BaseException:
        _discard(root, staged)
        raise
    try:
        _apply(root, journal)
    except OSError as exc:
        raise WriteError(f"{exc.strerror or exc} while moving the new outputs into place; some outputs may already "
                         "be new: the next `chartc build` or `chartc build --check` completes this build from its "
                         f"journal {plan.out_dir / JOURNAL_NAME}") from None


def _stage(plan: WritePlan) -> dict[str, str]:
    """Write each changed file to a fsynced temp file beside its destination, or in `--out` itself
    when the destination's folder does not exist yet (folders are created only once the build is
    decided, so an interrupted build never leaves one behind).

    Returns:
        Destination -> temp, both relative to `--out`.

    Raises:
        WriteError: a temp file could not be written; every temp file is removed.
    """
    root = plan.out_dir.resolve()
    staged: dict[str, str] = {}
    try:
        for w in plan.writes:
            folder = (root / w.rel).parent
            if _entry(folder) != Entry.FOLDER:
                folder = root
            staged[w.rel] = (folder / _write_temp(folder, w.data)).relative_to(root).as_posix()
        for folder in sorted({(root / temp).parent for temp in staged.values()}):
            _fsync_folder(folder)
    except OSError as exc:
        _discard(root, staged)
        raise WriteError(f"{exc.strerror or exc}{_UNCHANGED}") from None
    except BaseException:
        _discard(root, staged)
        raise
    return staged


def _write_temp(folder: Path, data: bytes) -> str:
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


def _discard(root: Path, staged: Mapping[str, str]) -> None:
    """Undo a staging that did not reach its journal: delete the temp files."""
    for temp in staged.values():
        with suppress(OSError):
            os.unlink(root / temp)


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
        return json.dumps({
            "chartc-journal": 1,
            "renames": [{"temp": r.temp, "destination": r.destination, "sha256": r.sha256} for r in self.renames],
            "removals": list(self.removals),
        }, indent=1, sort_keys=True) + "\n"


def _write_journal(plan: WritePlan, staged: Mapping[str, str]) -> _Journal:
    """Make the build durable and decided: the journal, fsynced, renamed into place, folder fsynced."""
    root = plan.out_dir.resolve()
    digests = {w.rel: hashlib.sha256(w.data).hexdigest() for w in plan.writes}
    journal = _Journal(tuple(_Rename(staged[rel], rel, digests[rel]) for rel in sorted(staged)), plan.removals)
    try:
        tmp = root / _write_temp(root, journal.as_json().encode("utf-8"))
    except OSError as exc:
        raise WriteError(f"{exc.strerror or exc} while writing the journal{_UNCHANGED}") from None
    try:
        os.replace(tmp, root / JOURNAL_NAME)
        _fsync_folder(root)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(tmp)
        with suppress(OSError):
            os.unlink(root / JOURNAL_NAME)
        raise WriteError(f"{exc.strerror or exc} while writing the journal{_UNCHANGED}") from None
    return journal


def _apply(root: Path, journal: _Journal) -> list[str]:
    """Finish a decided build: rename every staged temp that is still there, delete the orphans,
    fsync the folders, delete the journal. Safe to repeat after an interruption.

    Returns:
        Destinations whose temp was renamed by this call.
    """
    renamed = []
    for r in journal.renames:
        if _entry(root / r.temp) == Entry.FILE:
            _make_folders(root, (root / r.destination).parent)
            os.replace(root / r.temp, root / r.destination)
            renamed.append(r.destination)
    for rel in journal.removals:
        if _entry(root / rel) == Entry.FILE:
            os.unlink(root / rel)
    for folder in sorted({(root / rel).parent for rel in journal.removals}, reverse=True):
        if folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()  # a removed game's folder, now empty
    for folder in sorted({(root / r.destination).parent for r in journal.renames} | {root}):
        if folder.is_dir():
            _fsync_folder(folder)
    os.unlink(root / JOURNAL_NAME)
    _fsync_folder(root)
    return renamed


# ---- recovery -------------------------------------------------------------------------------------


def recover(out_dir: Path) -> Recovery:
    """Complete or roll back a build interrupted in `out_dir` (nothing to do when none was).

    With a journal, the build had decided: its staged files are renamed into place and its orphans
    deleted (roll forward). Without one, nothing had been renamed: its temp files are deleted (roll
    back). A journal that does not hold up (a temp whose bytes are not the journal's, an entry that
    leaves the folder) is set aside, listed in `problems`, and its temp files are deleted.
    """
    if not out_dir.is_dir():
        return Recovery()
    with _locked(out_dir):
        return _recover(out_dir)


def _recover(out_dir: Path) -> Recovery:
    root = out_dir.resolve()
    completed: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    if _entry(root / JOURNAL_NAME) is not None:
        try:
            journal = _read_journal(root)
            completed = tuple(_apply(root, journal))
        except (WriteError, OSError) as exc:
            problems = (str(exc),)
            with suppress(OSError):
                os.unlink(root / JOURNAL_NAME)
    removed = tuple(_remove_stray_temps(root))
    return Recovery(completed, removed, problems)


def _make_folders(root: Path, folder: Path) -> None:
    """Create `folder` and its missing parents below `root` (a new game's folder), durably."""
    for p in reversed([folder, *folder.parents]):
        if root in p.parents and not p.exists():
            p.mkdir()
            _fsync_folder(p.parent)


def _read_journal(root: Path) -> _Journal:
    """The journal, each entry checked: a temp beside its destination inside `--out`, holding the
    bytes the journal names.

    Raises:
        WriteError: the journal is unreadable or an entry does not hold up.
    """
    try:
        doc = json.loads(read_bytes(root / JOURNAL_NAME, root, "--out", JOURNAL_LIMIT))
        renames = tuple(_Rename(str(r["temp"]), str(r["destination"]), str(r["sha256"])) for r in doc["renames"])
        removals = tuple(str(rel) for rel in doc["removals"])
    except (ReadError, ValueError, KeyError, TypeError) as exc:
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
    if _entry(root / r.temp) == Entry.FILE:
        if _digest(root, root / r.temp) != r.sha256:
            raise WriteError(f"{root / r.temp} does not hold the bytes the journal names; set aside")
    elif _digest(root, root / r.destination) != r.sha256:
        raise WriteError(f"{root / r.temp} is gone and {root / r.destination} does not hold the new bytes; set aside")


def _digest(root: Path, path: Path) -> str:
    try:
        return hashlib.sha256(read_start(path, root, "--out", _WHOLE_FILE)).hexdigest()
    except ReadError:
        return ""


def _remove_stray_temps(root: Path) -> list[str]:
    """Delete every chartc temp file in `--out` and its game folders."""
    removed = []
    for folder in [root, *sorted(p for p in root.iterdir() if _entry(p) == Entry.FOLDER)]:
        for temp in sorted(p for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX) and p.name != JOURNAL_NAME):
            if _entry(temp) == Entry.FILE:
                os.unlink(temp)
                removed.append(temp.relative_to(root).as_posix())
    if removed:
        _fsync_folder(root)
    return removed


# ---- what is on disk ------------------------------------------------------------------------------


def managed_files(out_dir: Path, game_ids: list[str], outputs: Mapping[str, str | bytes]) -> list[str]:
    """The files a build owns: `<game>/<game>.{json,py,html,pdf}` of the built games (PDFs only when
    this build produces PDFs). Anything else a user keeps in the folder is left alone."""
    produced = {suffix for suffix in OPTIONAL_SUFFIXES if any(rel.endswith(suffix) for rel in outputs)}
    found = []
    for game_id in game_ids:
        for suffix in OUTPUT_SUFFIXES:
            if suffix in OPTIONAL_SUFFIXES and suffix not in produced:
                continue
            f = out_dir / game_id / f"{game_id}{suffix}"
            if f.is_file() or f.is_symlink():
                found.append(f"{game_id}/{game_id}{suffix}")
    return found


def orphan_games(out_dir: Path, game_ids: list[str]) -> list[str]:
    """Games whose outputs are in `out_dir` but whose charts are gone: a real folder `<x>/` (not a
    symlink) holding a `<x>.json` that chartc wrote, for an `x` not among `game_ids`."""
    if not out_dir.is_dir():
        return []
    found = []
    for folder in sorted(p for p in out_dir.iterdir() if _entry(p) == Entry.FOLDER and p.name not in game_ids):
        try:
            head = read_start(folder / f"{folder.name}.json", out_dir, "--out", 300)
        except ReadError:
            continue
        if _ORPHAN_MARK in head.decode("utf-8", errors="replace"):
            found.append(folder.name)
    return found


def stale_outputs(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> Staleness:
    """Compare the would-be outputs with what is on disk (`build --check`), after completing or
    rolling back an interrupted build (reported in `recovery`)."""
    recovery = recover(out_dir)
    missing, changed, diffs = [], [], {}
    for rel, content in outputs.items():
        target = safe_target(out_dir, rel)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        if _entry(target) != Entry.FILE:
            missing.append(rel)
            continue
        if not _holds(out_dir, target, data):
            changed.append(rel)
            diffs[rel] = _diff(rel, _current(out_dir, target), content)
    orphaned = [rel for rel in managed_files(out_dir, game_ids, outputs) if rel not in outputs]
    return Staleness(missing, changed, orphaned, diffs, recovery)


def _current(out_dir: Path, target: Path) -> bytes:
    try:
        return read_start(target, out_dir, "--out", _WHOLE_FILE)
    except ReadError:
        return b""


def _diff(rel: str, current: bytes, content: str | bytes) -> str:
    """A short unified diff for text outputs; a size note for binary ones (PDF)."""
    if isinstance(content, bytes):
        return f"  {rel}: binary content differs ({len(current)} bytes on disk, {len(content)} from charts)\n"
    old = current.decode("utf-8", errors="replace")
    diff = difflib.unified_diff(old.splitlines(True), content.splitlines(True),
                                f"{rel} (on disk)", f"{rel} (from charts)", n=1)
    return "".join(list(diff)[:60])


# ---- the operating system -------------------------------------------------------------------------


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder, so two chartc processes never interleave their
    writes or recover each other's build in flight (no lock where `fcntl` is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        fd = os.open(out_dir, os.O_RDONLY)
    except OSError as exc:
        raise WriteError(f"cannot open {out_dir}: {exc.strerror or exc}{_UNCHANGED}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
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
