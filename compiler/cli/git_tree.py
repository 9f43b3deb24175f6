"""The `charts/` folder of a git revision, exported for `chartc diff` with `git archive`.

A revision comes from the command line, so it must never reach git as an option
(`--output=FILE` would make `git archive` overwrite FILE): it is refused when it starts with `-`,
resolved to a tree id with `git rev-parse --verify --end-of-options`, and only that id is passed on.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path


class GitTreeError(Exception):
    """The argument is not a revision of this repository with a `charts/` folder."""


def _git(args: list[str], cwd: str | None = None) -> bytes:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True).stdout


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
    except (OSError, subprocess.CalledProcessError, UnicodeDecodeError) as exc:
        raise GitTreeError(f"`{revision}` is neither a path nor a git revision of this repository") from exc
    return top, tree.decode("ascii").strip()


def export_charts(revision: str, into: Path) -> Path:
    """Extract the `charts/` folder of REVISION into the folder INTO; its path there.

    Raises:
        GitTreeError: not a revision (see `tree_id`), or the revision has no `charts/` folder.
    """
    top, tree = tree_id(revision)
    try:
        data = _git(["archive", "--format=tar", tree, "--", "charts"], cwd=top)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(into, filter="data")
    except (OSError, subprocess.CalledProcessError, tarfile.TarError) as exc:
        raise GitTreeError(f"git revision `{revision}` has no charts/ folder") from exc
    return into / "charts"
