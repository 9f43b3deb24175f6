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

This module plans, checks, stages and orchestrates (steps 2, 3 and the order of 4 and 5) and
compares for `build --check`. The journal itself, applying it and `recover` live in
`compiler.build.journal`: `recover` rolls a build forward when its journal exists (the staged files are
durable, so the renames can be finished), and back when it does not (nothing was renamed yet: the
stray temp files are deleted). `build` and `build --check` both recover first, so after any chartc
command that touches the folder it holds exactly the old outputs or exactly the new ones.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from collections.abc import Collection, Mapping
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path

from compiler.build.journal import (
    JOURNAL_NAME,
    UNCHANGED,
    WHOLE_FILE,
    Entry,
    Recovery,
    apply_journal,
    entry_at,
    fsync_folder,
    locked,
    recover,
    recover_locked,
    relative_output,
    write_journal,
    write_temp,
)
from compiler.build.journal import WriteError as WriteError
from compiler.build.journal import safe_target as safe_target
from compiler.build.reader import ReadError, read_bytes, read_start, resolve_inside

OUTPUT_SUFFIXES = (".json", ".py", ".html", ".pdf")
OPTIONAL_SUFFIXES = (".pdf",)
"""Outputs managed only by a build that produces them (`--pdf`)."""
_ORPHAN_MARK = '"generator": "chartc"'


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


# ---- sources ---------------------------------------------------------------------------------------


def replace_source(path: Path, inside: Path, data: bytes) -> None:
    """Replace a source file (a chart `chartc check --fix` or `chartc fmt` rewrites) in one step: a
    temp file beside it, fsynced, with the file's own mode, renamed over it; then the folder fsynced.
    A crash leaves the old file or the new one, never a mix. The file must lie inside `inside` once
    symlinks are resolved, as `compiler.build.reader` requires of what it reads (a link is followed
    to the file inside, which is replaced).

    Raises:
        ReadError: the file is missing or lies outside `inside`.
        OSError: the temp file could not be written or renamed (the file is unchanged).
    """
    real = resolve_inside(path, inside)
    tmp = real.parent / write_temp(real.parent, data)
    try:
        os.chmod(tmp, real.stat().st_mode & 0o7777)
        os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(real.parent)


# ---- build ----------------------------------------------------------------------------------------


def write_outputs(out_dir: Path, outputs: Mapping[str, str | bytes], game_ids: list[str]) -> WriteResult:
    """Write every output and delete the orphans of the built games, through the journal.

    Returns:
        The paths changed (written or deleted) and what recovering an earlier build did.

    Raises:
        WriteError: a check refused the build (nothing changed), or writing failed; the message
            says whether anything changed and what the next chartc command does about it.
    """
    with Staging(out_dir) as staging:
        staging.add(outputs)
        return staging.commit(game_ids)


class Staging:
    """A build of `--out` in progress: each game's outputs are checked and staged to temp files as
    they are rendered (`add`), so a build of many games never holds all of them; `commit` journals
    and applies them. Used as a context manager: entering takes the folder's lock and recovers an
    interrupted build; leaving without a commit (a refusal, a later game's error, a crash while
    rendering) deletes every temp file staged, and the folder if this build created it, so no
    output has changed.
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.recovery = Recovery()
        self._staged: dict[str, str] = {}
        self.digests: dict[str, str] = {}
        """The SHA-256 of every output added, staged or already on disk as it should be."""
        self._created = False
        self._committed = False
        self._held = ExitStack()

    def __enter__(self) -> Staging:
        out_dir = self.out_dir
        self._created = not (out_dir.exists() or out_dir.is_symlink())
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(f"cannot create {out_dir}: {exc.strerror or exc}{UNCHANGED}") from None
        with ExitStack() as held:  # undone in reverse: temps deleted under the lock, then the folder
            held.callback(self._remove_created_folder)
            held.enter_context(locked(out_dir))
            held.callback(self._discard_staged)
            self.recovery = recover_locked(out_dir)
            self._held = held.pop_all()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._held.close()

    def _discard_staged(self) -> None:
        """Unless the build was committed, delete every temp file it staged."""
        if not self._committed:
            _discard(self.out_dir.resolve(), self._staged)
            self._staged.clear()

    def _remove_created_folder(self) -> None:
        """Unless the build was committed, remove `--out` if this build created it and it is still
        empty: a refused first build leaves no folder behind."""
        if not self._committed and self._created:
            with suppress(OSError):
                self.out_dir.rmdir()

    def add(self, outputs: Mapping[str, str | bytes]) -> None:
        """Check the destination of each output and stage those whose bytes change (fsynced temp
        files beside their destinations, or in `--out` itself for a folder that does not exist
        yet: folders are created only once the build is decided).

        Raises:
            WriteError: a destination cannot be written safely, or a temp file could not be
                written; no output has changed.
        """
        for rel in outputs:
            relative_output(rel)
        root = self.out_dir.resolve()
        try:
            for rel, content in sorted(outputs.items()):
                data = content if isinstance(content, bytes) else content.encode("utf-8")
                target = safe_target(self.out_dir, rel)
                _check_destination(self.out_dir, target, rel)
                self.digests[rel] = hashlib.sha256(data).hexdigest()
                if _holds(self.out_dir, target, data):
                    continue
                folder = target.parent
                if entry_at(folder) != Entry.FOLDER:
                    folder = root
                self._staged[rel] = (folder / write_temp(folder, data)).relative_to(root).as_posix()
        except WriteError as exc:
            raise WriteError(f"{exc}{UNCHANGED}") from None
        except OSError as exc:
            raise WriteError(f"{exc.strerror or exc}{UNCHANGED}") from None

    def commit(self, game_ids: list[str]) -> WriteResult:
        """Check the orphans of the built games, then journal and apply every staged output.

        Returns:
            The paths changed (written or deleted) and what recovering an earlier build did.

        Raises:
            WriteError: an orphan cannot be deleted safely or the journal could not be written
                (nothing changed), or writing failed after the journal (the message says the next
                chartc command completes the build).
        """
        root = self.out_dir.resolve()
        try:
            owned = managed_files(self.out_dir, game_ids, self.digests)
            removals = tuple(rel for rel in owned if rel not in self.digests)
            for rel in removals:
                _check_removable(self.out_dir, rel)
            for folder in sorted({(root / temp).parent for temp in self._staged.values()}):
                fsync_folder(folder)
        except WriteError as exc:
            raise WriteError(f"{exc}{UNCHANGED}") from None
        except OSError as exc:
            raise WriteError(f"{exc.strerror or exc}{UNCHANGED}") from None
        changed = tuple(sorted(self._staged)) + removals
        if changed:
            journal = write_journal(root, self._staged, self.digests, removals)
            self._committed = True
            try:
                apply_journal(root, journal)
            except OSError as exc:
                raise WriteError(f"{exc.strerror or exc} while moving the new outputs into place; some outputs may "
                                 "already be new: the next `chartc build` or `chartc build --check` completes this "
                                 f"build from its journal {self.out_dir / JOURNAL_NAME}") from None
        self._committed = True
        return WriteResult(changed, self.recovery)


def _check_destination(out_dir: Path, target: Path, rel: str) -> None:
    """Refuse a destination where something other than a regular file stands, or whose folder
    cannot be created because a file stands in its way."""
    for folder in reversed(target.parents):
        if folder == out_dir.resolve() or out_dir.resolve() not in folder.parents:
            continue
        kind = entry_at(folder)
        if kind not in (None, Entry.FOLDER):
            raise WriteError(f"cannot write `{rel}`: {kind} stands where the folder "
                             f"`{folder.relative_to(out_dir.resolve()).as_posix()}` should be")
    kind = entry_at(target)
    if kind not in (None, Entry.FILE):
        raise WriteError(f"cannot write `{rel}`: {kind} stands where the file should be; move it away")


def _check_removable(out_dir: Path, rel: str) -> None:
    target = safe_target(out_dir, rel)
    if entry_at(target) != Entry.FILE:
        raise WriteError(f"cannot delete the orphaned output `{rel}`: it is not a regular file")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise WriteError(f"cannot delete the orphaned output `{rel}`: its folder is not writable")


def _holds(out_dir: Path, target: Path, data: bytes) -> bool:
    """Whether the file at `target` already holds exactly `data` (read no further than its size)."""
    if entry_at(target) != Entry.FILE or target.stat().st_size != len(data):
        return False
    try:
        return read_bytes(target, out_dir, "--out", limit=len(data)) == data
    except ReadError:
        return False


def _discard(root: Path, staged: Mapping[str, str]) -> None:
    """Undo a staging that did not reach its journal: delete the temp files."""
    for temp in staged.values():
        with suppress(OSError):
            os.unlink(root / temp)


# ---- what is on disk ------------------------------------------------------------------------------


def managed_files(out_dir: Path, game_ids: list[str], outputs: Collection[str]) -> list[str]:
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
    for folder in sorted(p for p in out_dir.iterdir() if entry_at(p) == Entry.FOLDER and p.name not in game_ids):
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
    comparison = Comparison(out_dir)
    comparison.add(outputs)
    return comparison.result(game_ids)


class Comparison:
    """`build --check` in progress: an interrupted build is completed or rolled back first (in
    `recovery`), then each game's would-be outputs are compared with what is on disk as they are
    rendered (`add`), so only the differences are kept; `result` adds the orphans."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.recovery = recover(out_dir)
        self.digests: dict[str, str] = {}
        """The SHA-256 of every output compared."""
        self._missing: list[str] = []
        self._changed: list[str] = []
        self._diffs: dict[str, str] = {}

    def add(self, outputs: Mapping[str, str | bytes]) -> None:
        for rel, content in outputs.items():
            target = safe_target(self.out_dir, rel)
            data = content if isinstance(content, bytes) else content.encode("utf-8")
            self.digests[rel] = hashlib.sha256(data).hexdigest()
            if entry_at(target) != Entry.FILE:
                self._missing.append(rel)
            elif not _holds(self.out_dir, target, data):
                self._changed.append(rel)
                self._diffs[rel] = _diff(rel, _current(self.out_dir, target), content)

    def result(self, game_ids: list[str]) -> Staleness:
        """The differences found, and the outputs of `game_ids` on disk that no game produced."""
        orphaned = [rel for rel in managed_files(self.out_dir, game_ids, self.digests) if rel not in self.digests]
        return Staleness(sorted(self._missing), sorted(self._changed), orphaned, self._diffs, self.recovery)


def _current(out_dir: Path, target: Path) -> bytes:
    try:
        return read_start(target, out_dir, "--out", WHOLE_FILE)
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
