"""What the coverage findings share: a list of rolls as text (`1-3, 7`), the key values a finding
holds for (`for side `Jet``), and a row's range."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from compiler import model


def compress(values: Iterable[int]) -> str:
    """`[1, 2, 3, 7]` -> `1-3, 7`."""
    out: list[str] = []
    run: list[int] = []
    for v in sorted(set(values)):
        if run and v != run[-1] + 1:
            out.append(_run_text(run))
            run = []
        run.append(v)
    if run:
        out.append(_run_text(run))
    return ", ".join(out)


def _run_text(run: list[int]) -> str:
    if len(run) == 1:
        return str(run[0])
    joiner = " to " if run[0] < 0 else "-"  # `-4 to 0`, not `-4-0`
    return f"{run[0]}{joiner}{run[-1]}"


def describe_combo(chart: model.Chart, combo: tuple[str, ...]) -> str:
    parts = []
    for key, member_id in zip(chart.keys, combo, strict=False):
        member = key.enum.member(member_id)
        parts.append(f"{key.id} `{member.label if member else member_id}`")
    return ", ".join(parts)


def group_combos(
    chart: model.Chart, found: dict[tuple[str, ...], list[int]]
) -> dict[tuple[int, ...], list[tuple[str, ...]]]:
    grouped: dict[tuple[int, ...], list[tuple[str, ...]]] = defaultdict(list)
    for combo, values in found.items():
        if values:
            grouped[tuple(values)].append(combo)
    return grouped


def for_combos(chart: model.Chart, combos: list[tuple[str, ...]]) -> str:
    if not chart.keys:
        return ""
    if len(combos) == len(chart.key_combinations()) and len(combos) > 1:
        return " for every key value"
    if len(chart.keys) == 1:
        key = chart.keys[0]
        labels = [_member_label(key, c[0]) for c in combos]
        return f" for {key.id} " + ", ".join(f"`{label}`" for label in labels)
    return " for " + "; ".join(describe_combo(chart, c) for c in combos)


def _member_label(key: model.Key, member_id: str) -> str:
    member = key.enum.member(member_id)
    return member.label if member else member_id


def ranged(row: model.Row) -> model.DieRange:
    """The range of a row the checks selected for having one."""
    assert row.range is not None
    return row.range
