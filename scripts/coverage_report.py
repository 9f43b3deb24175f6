"""The coverage of each rulebook, counted from outside: per game, every printed item an outside
reader listed (docs/coverage/<game>.md), and how many of them charts/ holds as data.

The lists are written by readers who had not seen charts/, one row per rule item (a table, a DRM, a
limit, an effect, a worked example, a fact printed twice, an inconsistency), then marked
`complete`, `partial`, `missing` or `narrative` (pure narrative, counted apart) against charts/,
each short of complete naming the language it lacks (`gap`). `where` cites the data that holds an
item (`chart:R4`, `example:flak_7_1_5`, ...); `resolve_citations` finds each in the compiled game,
so a citation of data that is gone fails the tests.

    python scripts/coverage_report.py            # print the tables (Markdown)
    python scripts/coverage_report.py --check    # exit 1 when docs/records/coverage.md is stale
    python scripts/coverage_report.py --write    # write it
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COVERAGE = ROOT / "docs" / "coverage"
RECORD = ROOT / "docs" / "records" / "coverage.md"
STATUSES = ("complete", "partial", "missing", "narrative")
COLUMNS = ("id", "lines", "rule", "kind", "item", "states", "status", "where", "gap")
CITATION = re.compile(r"(chart|example|formula|invariant|enum|member|context|errata|period|limit|conflict):(\S+)")


@dataclass(frozen=True)
class Item:
    """One printed item of a rulebook and how charts/ holds it."""

    game: str
    id: str
    lines: str
    rule: str
    kind: str
    item: str
    status: str
    where: tuple[str, ...]
    gap: str


def read_list(path: Path) -> list[Item]:
    """The items of one docs/coverage/<game>.md (its one table with `COLUMNS`).

    Raises:
        ValueError: a row with a status outside `STATUSES`, or the wrong number of cells.
    """
    items: list[Item] = []
    header: list[str] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            if header is not None and items:
                break  # the list's table has ended; later tables (counts) are not items
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            if tuple(cells) == COLUMNS:
                header = cells
            continue
        if set(line.replace("|", "").strip()) <= {"-", " ", ":"}:
            continue
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{path.name}:{number}: {len(cells)} cells, expected {len(COLUMNS)}")
        row = dict(zip(COLUMNS, cells, strict=True))
        if row["status"] not in STATUSES:
            raise ValueError(f"{path.name}:{number}: status `{row['status']}` is not one of {', '.join(STATUSES)}")
        where = tuple(w.strip() for w in row["where"].split(",") if w.strip() not in ("", "-"))
        fields = (row["id"], row["lines"], row["rule"], row["kind"], row["item"], row["status"])
        items.append(Item(path.stem, *fields, where, row["gap"]))
    if header is None:
        raise ValueError(f"{path.name}: no table with the columns {' | '.join(COLUMNS)}")
    return items


def read_lists(folder: Path = COVERAGE) -> dict[str, list[Item]]:
    """Every game's list, by game id (the file's stem)."""
    return {path.stem: read_list(path) for path in sorted(folder.glob("*.md"))}


def problems(items: list[Item]) -> list[str]:
    """What is wrong with a list as a list: duplicate ids, a short status without its gap, a
    complete item that cites nothing, a citation not of the form `KIND:NAME`."""
    found = []
    for item_id, n in Counter(i.id for i in items).items():
        if n > 1:
            found.append(f"{item_id}: listed {n} times")
    for i in items:
        if i.status in ("partial", "missing", "narrative") and i.gap in ("", "-"):
            found.append(f"{i.id}: {i.status} without a gap (the language it lacks, or why it is narrative)")
        if i.status == "complete" and not i.where:
            found.append(f"{i.id}: complete, but cites no data (`where`)")
        found.extend(f"{i.id}: `{w}` is not a citation KIND:NAME" for w in i.where if not CITATION.fullmatch(w))
    return found


def resolve_citations(items: list[Item], game: object) -> list[str]:
    """Each citation of `items` that names nothing in the compiled `game` (a `model.Game`)."""
    from compiler import model

    assert isinstance(game, model.Game)
    examples = {e.id for e in game.examples}
    invariants = {i.id for i in game.invariants}
    errata = {e.id for e in game.errata}
    periods = {p.id for p in game.periods}
    missing = []
    for item in items:
        for citation in item.where:
            match = CITATION.fullmatch(citation)
            if match is None:
                continue
            kind, name = match.groups()
            found = {
                "chart": lambda n: game.chart(n) is not None,
                "example": lambda n: n in examples,
                "formula": lambda n: game.formula(n) is not None,
                "invariant": lambda n: n in invariants,
                "enum": lambda n: n in game.enums,
                "member": lambda n: _member(game, n),
                "context": lambda n: n in game.context,
                "errata": lambda n: n in errata,
                "period": lambda n: n in periods,
                "limit": lambda n: game.limit(n) is not None,
                # a conflict between places, or print that reads more than one way (`ambiguous`)
                "conflict": lambda n: _named(game, "conflicts", n) or _named(game, "ambiguities", n),
            }[kind](name)
            if not found:
                missing.append(f"{item.id}: `{citation}` names nothing in charts/{item.game}")
    return missing


def _member(game: object, name: str) -> bool:
    enum_id, _, member = name.partition(".")
    enum = game.enums.get(enum_id)  # type: ignore[attr-defined]
    return enum is not None and enum.member(member) is not None


def _named(game: object, attribute: str, name: str) -> bool:
    """Whether the game's `attribute` collection (when the model has it) holds an id `name`."""
    return any(getattr(x, "id", None) == name for x in getattr(game, attribute, ()))


@dataclass(frozen=True)
class Counts:
    """A game's items by status, and its coverage."""

    items: int
    complete: int
    partial: int
    missing: int
    narrative: int

    @property
    def ruled(self) -> int:
        return self.items - self.narrative

    @property
    def percent(self) -> float:
        return 100.0 * self.complete / self.ruled if self.ruled else 100.0


def counts(items: list[Item]) -> Counts:
    by = Counter(i.status for i in items)
    return Counts(len(items), by["complete"], by["partial"], by["missing"], by["narrative"])


def table(lists: dict[str, list[Item]]) -> str:
    """The coverage table, the gaps table and the worked-examples table, in Markdown."""
    out = [
        "| game | items listed | narrative (apart) | complete | partial | missing | complete % |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, items in lists.items():
        c = counts(items)
        out.append(
            f"| {game} | {c.items} | {c.narrative} | {c.complete} | {c.partial} | {c.missing} | {c.percent:.1f} % |"
        )
    out += ["", "What the items short of complete lack (`gap`), per game:", ""]
    gaps = sorted({i.gap for items in lists.values() for i in items if i.status in ("partial", "missing")})
    out.append("| gap | " + " | ".join(lists) + " |")
    out.append("|---|" + "---|" * len(lists))
    for gap in gaps:
        row = [sum(1 for i in items if i.status in ("partial", "missing") and i.gap == gap) for items in lists.values()]
        out.append(f"| {gap} | " + " | ".join(str(n) for n in row) + " |")
    out += ["", "Worked examples: printed (listed `example` items) and checked whole by an `example` block:", ""]
    out += ["| game | printed | checked | partly | not checked |", "|---|---|---|---|---|"]
    for game, items in lists.items():
        ex = [i for i in items if i.kind == "example"]
        by = Counter(i.status for i in ex)
        out.append(f"| {game} | {len(ex)} | {by['complete']} | {by['partial']} | {by['missing']} |")
    return "\n".join(out)


def record_text(lists: dict[str, list[Item]]) -> str:
    return (
        "# Coverage of the rulebooks, counted from outside\n\n"
        "Printed by `python scripts/coverage_report.py --write` from the lists in `docs/coverage/`: each "
        "lists every printed item of a book, one rule item a row, as a reader who had not seen `charts/` "
        "found it, marked against `charts/`. Complete means every value, DRM, condition and limit is "
        "data that `check`, `lookup` and the outputs use; a note or a comment does not count.\n\n"
        + table(lists)
        + "\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/records/coverage.md is stale")
    parser.add_argument("--write", action="store_true", help="write docs/records/coverage.md")
    args = parser.parse_args()
    text = record_text(read_lists())
    if args.check:
        if not RECORD.is_file() or RECORD.read_text(encoding="utf-8") != text:
            print("docs/records/coverage.md is stale: run python scripts/coverage_report.py --write")
            return 1
        return 0
    if args.write:
        RECORD.parent.mkdir(parents=True, exist_ok=True)
        RECORD.write_text(text, encoding="utf-8")
        return 0
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
