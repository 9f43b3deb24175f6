"""The `charts/` folder of a git revision, exported for `chartc diff` with `git archive`.

A revision comes from the command line, so it must never reach git as an option
(`--output=FILE` would make `git archive` overwrite FILE): it is refused when it starts with `-`,
resolved to a tree id with `git rev-parse --verify --end-of-options`, and only that id is passed on.
The folder exported is the configured charts folder (`$CHARTC_CHARTS`, `[tool.chartc]`, else
`charts`), as every other command reads it. Each git call has `GIT_TIMEOUT` seconds.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

GIT_TIMEOUT = 120
"""Seconds a git call may take (a hung credential prompt or a network file system never hangs chartc)."""


class GitTreeError(Exception):
    """The argument is not a revision of this repository with a `charts/` folder."""


def _git(args: list[str], cwd: str | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True, timeout=GIT_TIMEOUT,
                          stdin=subprocess.DEVNULL).stdout


def tree_id(revision: str) -> tuple[str, str]:
    """(repository top folder, tree id) of REVISION (`HEAD~1`, a tag, a commit id).

    Raises:
        GitTreeError: the revision starts with `-`, git is missing, this is not a repository, or
            the revision names no tree.
    """
    if not revision or revision.startswith("-"):
        raise GitTreeError(f"`{revision}` is not a revision (a revision cannot start with `-`)")
    try:
        top = _git(["rev-parse", "--show-toplevel"]).decode().strip()
        tree = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{tree}}"], cwd=top)
    except subprocess.TimeoutExpired as exc:
        raise GitTreeError(f"git did not answer within {GIT_TIMEOUT} s about `{revision}`") from exc
    except (OSError, subprocess.CalledProcessError, UnicodeDecodeError) as exc:
        raise GitTreeError(f"`{revision}` is neither a path nor a git revision of this repository") from exc
    return top, tree.decode("ascii").strip()


def export_charts(revision: str, into: Path, charts: Path) -> Path:
    """Extract the charts folder `charts` (as the working tree names it) of REVISION into the
    folder INTO; its path there.

    Raises:
        GitTreeError: not a revision (see `tree_id`), `charts` lies outside the repository, or the
            revision has no such folder.
    """
    top, tree = tree_id(revision)
    try:
        inside = charts.resolve().relative_to(Path(top).resolve()).as_posix()
    except ValueError as exc:
        raise GitTreeError(f"the charts folder {charts} is outside the git repository {top}") from exc
    try:
        data = _git(["archive", "--format=tar", tree, "--", inside], cwd=top)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(into, filter="data")
    except subprocess.TimeoutExpired as exc:
        raise GitTreeError(f"git did not answer within {GIT_TIMEOUT} s about `{revision}`") from exc
    except (OSError, subprocess.CalledProcessError, tarfile.TarError) as exc:
        raise GitTreeError(f"git revision `{revision}` has no {inside}/ folder") from exc
    return into / inside
