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
`compiler.journal`: `recover` rolls a build forward when its journal exists (the staged files are
durable, so the renames can be finished), and back when it does not (nothing was renamed yet: the
stray temp files are deleted). `build` and `build --check` both recover first, so after any chartc
command that touches the folder it holds exactly the old outputs or exactly the new ones.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from compiler.journal import (
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
from compiler.journal import WriteError as WriteError
from compiler.journal import safe_target as safe_target
from compiler.reader import ReadError, read_bytes, read_start

OUTPUT_SUFFIXES = (".json", ".py", ".html", ".pdf")
OPTIONAL_SUFFIXES = (".pdf",)
"""Outputs managed only by a build that produces them (`--pdf`)."""
_ORPHAN_MARK = '"generator": "chartc"'


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
        raise WriteError(f"cannot create {out_dir}: {exc.strerror or exc}{UNCHANGED}") from None
    try:
        with locked(out_dir):
            recovery = recover_locked(out_dir)
            try:
                plan = plan_writes(out_dir, outputs, game_ids)
            except WriteError as exc:
                raise WriteError(f"{exc}{UNCHANGED}") from None
            except OSError as exc:
                raise WriteError(f"cannot read {out_dir}: {exc.strerror or exc}{UNCHANGED}") from None
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


def _commit(plan: WritePlan) -> None:
    """Stage, journal and apply a checked plan."""
    if not plan.changed:
        return
    root = plan.out_dir.resolve()
    staged = _stage(plan)
    try:
        journal = write_journal(root, staged, {w.rel: w.data for w in plan.writes}, plan.removals)
    except BaseException:
        _discard(root, staged)
        raise
    try:
        apply_journal(root, journal)
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
            if entry_at(folder) != Entry.FOLDER:
                folder = root
            staged[w.rel] = (folder / write_temp(folder, w.data)).relative_to(root).as_posix()
        for folder in sorted({(root / temp).parent for temp in staged.values()}):
            fsync_folder(folder)
    except OSError as exc:
        _discard(root, staged)
        raise WriteError(f"{exc.strerror or exc}{UNCHANGED}") from None
    except BaseException:
        _discard(root, staged)
        raise
    return staged


def _discard(root: Path, staged: Mapping[str, str]) -> None:
    """Undo a staging that did not reach its journal: delete the temp files."""
    for temp in staged.values():
        with suppress(OSError):
            os.unlink(root / temp)


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
    recovery = recover(out_dir)
    missing, changed, diffs = [], [], {}
    for rel, content in outputs.items():
        target = safe_target(out_dir, rel)
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        if entry_at(target) != Entry.FILE:
            missing.append(rel)
            continue
        if not _holds(out_dir, target, data):
            changed.append(rel)
            diffs[rel] = _diff(rel, _current(out_dir, target), content)
    orphaned = [rel for rel in managed_files(out_dir, game_ids, outputs) if rel not in outputs]
    return Staleness(missing, changed, orphaned, diffs, recovery)


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
