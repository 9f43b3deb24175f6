"""A chart's keys as a player gives them (`--key NAME=VALUE`): by id or printed label, and a key
`period` by a year or a month it holds (`resolve_keys`)."""

from __future__ import annotations

import re

from compiler import model
from compiler.diagnostics.suggest import known_values_hint
from compiler.engine.problems import LookupUsage, NoPeriod
from compiler.model.calendar import Month

KeyValues = tuple[tuple[model.Key, model.Member], ...]
"""The key values a chart is read for: each of its keys with the member given (`resolve_keys`)."""


def resolve_keys(chart: model.Chart, given: dict[str, str]) -> KeyValues:
    """Bind `--key NAME=VALUE` pairs to the chart's keys; VALUE may be an id or a printed label.

    Raises:
        LookupProblem: an unknown key, an unknown value, or a key left out.
    """
    known = {k.id: k for k in chart.keys}
    for name in given:
        if name not in known:
            hint = known_values_hint(name, [(k, None) for k in known], "keys") if known else "this chart has no keys"
            raise LookupUsage(f"chart `{chart.address}` has no key `{name}`; {hint}")
    out = []
    for key in chart.keys:
        if key.id not in given:
            choices = ", ".join(m.id for m in key.enum.members)
            raise LookupUsage(
                f"chart `{chart.address}` is read by key `{key.id}`: add `--key {key.id}=VALUE` ({choices})"
            )
        member = key.enum.member(given[key.id]) or _period_by_date(key, given[key.id])
        if member is None:
            hint = known_values_hint(given[key.id], [(m.id, m.label) for m in key.enum.members])
            raise LookupUsage(f"`{given[key.id]}` is not a value of key `{key.id}`; {hint}")
        out.append((key, member))
    return tuple(out)


def _period_by_date(key: model.Key, text: str) -> model.Member | None:
    """The period a year (`1944`) or a month (`1944-08`) falls in, for a key `period` given in the
    book's words rather than a period's id or label; None when `text` is neither.

    Raises:
        LookupUsage: the year runs over more than one period (each is named) or none.
    """
    if key.enum.id != "period" or not re.fullmatch(r"[0-9]{4}(-[0-9]{2})?", text.strip()):
        return None
    written = text.strip()
    first = Month.parse(written if "-" in written else f"{written}-01")
    last = Month.parse(written if "-" in written else f"{written}-12")
    if first is None or last is None:
        return None
    found = []
    for m in key.enum.members:
        start, end = m.get("first"), m.get("last")
        if isinstance(start, Month) and isinstance(end, Month) and start <= last and first <= end:
            found.append(m)
    if len(found) == 1:
        return found[0]
    named = ", ".join(f'{m.id} ("{m.label}")' for m in (found or key.enum.members))
    if found:
        raise LookupUsage(f"`{written}` falls in {len(found)} periods of key `{key.id}`: {named}; give one of them")
    raise NoPeriod(f"`{written}` falls in no period of key `{key.id}`; the periods are {named}", written)


def kept_months_hold(subject: str, month: str) -> bool:
    """Whether a kept finding's months (`1944-05` or `1944-05..1944-06`) hold `month` (a year or a month)."""
    first, _, last = subject.partition("..")
    return (first <= month <= (last or first)) or first.startswith(month) or (last or first).startswith(month)
