"""`did you mean`: the help line for an unknown name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A help line suggesting the closest known name, or listing the few that exist."""
    pool = sorted(set(candidates))
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        folded = {c.casefold(): c for c in pool}
        close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
        close = [folded[c] for c in close]
    if close:
        return f"did you mean `{close[0]}`?"
    if pool and len(pool) <= 8:
        return "known: " + ", ".join(f"`{c}`" for c in pool)
    return None
