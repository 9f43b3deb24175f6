"""Stuka Leader's Tactical Display as data: its 13 areas, their adjacency (L79-L81) and the Range
between them (L78: the shortest path), held together by the `symmetric` and `distances` invariants."""

from __future__ import annotations

import json
from pathlib import Path

from compiler.build.project import Compilation
from tests.conftest import codes, compile_text

_AREAS = 'game t { title "T" }\nenum area { a "A" b "B" c "C" }\nenum yes_no { yes "Yes" no "No" }\n'


def _square(name: str, type_: str, rows: str) -> str:
    columns = " ".join(f'column {m}: {type_} "{m.upper()}"' for m in "abc")
    return f'chart {name} "{name}" {{ key area {columns} rows {{ {rows} }} }}\n'


_LINE = _square("adjacent", "yes_no", "a: no, yes, no  b: yes, no, yes  c: no, yes, no")  # a - b - c


def test_the_adjacency_is_the_rules(corpus: Compilation) -> None:
    game = corpus.project.games["stuka_leader"]
    chart = game.chart("area_adjacent")
    assert chart is not None
    adjacent = {
        row.keys[0]: {c.id for c, v in zip(chart.columns, row.values, strict=True) if v == "yes"} for row in chart.rows
    }
    # L79: the Center Area is adjacent to the four Approach Areas
    assert adjacent["center"] == {"north", "east", "south", "west"}
    # L80 and L400's example: the North Approach Area to the Center, East and West Approach Areas and the
    # three Northern Pre-Approach Areas
    assert adjacent["north"] == {"center", "east", "west", "northwest_pre", "north_pre", "northeast_pre"}
    # L81: a Pre-Approach Area to its two Pre-Approach neighbours and the Approach Area(s) that touch it
    assert adjacent["north_pre"] == {"northwest_pre", "northeast_pre", "north"}
    assert adjacent["northeast_pre"] == {"north_pre", "east_pre", "north", "east"}
    kinds = {m.id: m.get("kind") for m in game.enums["area"].members}
    assert sorted(len(adjacent[a]) for a in adjacent if kinds[a] == "approach") == [6, 6, 6, 6]  # L80: 1 + 2 + 3
    # 28 borders, each seen from both sides: Center 4, the Approach ring 4, Approach to Pre-Approach 12
    # (L80: three each), the Pre-Approach ring 8
    assert sum(len(v) for v in adjacent.values()) == 2 * 28
    invariants = {i.id: type(i).__name__ for i in game.invariants}
    assert invariants["adjacency_both_ways"] == "SymmetricInvariant"
    assert invariants["range_is_shortest_path"] == "DistancesInvariant"


def test_a_player_asks_which_areas_are_adjacent(run) -> None:
    # L400: "It can move to any of the following Areas: the Center Area, the East or West Approach Areas,
    # or any of the three Northern Pre-Approach Areas"
    result = run("lookup", "stuka_leader/area_adjacent", "--key", "area=North Approach Area", "--json")
    values = json.loads(result.output)["values"]
    assert sorted(k for k, v in values.items() if v == "yes") == [
        "center", "east", "north_pre", "northeast_pre", "northwest_pre", "west"
    ]


def test_the_json_lists_the_board_invariants(corpus_outputs) -> None:
    doc = json.loads(corpus_outputs()["stuka_leader/stuka_leader.json"])
    found = {i["id"]: i for i in doc["invariants"]}
    assert found["range_is_shortest_path"] == {
        "id": "range_is_shortest_path",
        "label": "L78: the Range is the shortest path over the adjacent areas",
        "kind": "distances",
        "chart": "area_range",
        "over": "area_adjacent",
        "step": "yes",
        "enum": "area",
    }
    assert found["adjacency_both_ways"]["kind"] == "symmetric"


def test_no_path_is_a_dash(tmp_path: Path) -> None:
    # `c` reaches no one: its distances are `-`, anything else is C414
    alone = _square("adjacent", "yes_no", "a: no, yes, no  b: yes, no, no  c: no, no, no")
    far = _square("range", "int", "a: 0, 1, -  b: 1, 0, -  c: -, -, 0")
    inv = 'invariant d "shortest" { distances range over adjacent is yes }\n'
    assert codes(compile_text(tmp_path / "ok", _AREAS + alone + far + inv)) == []
    near = far.replace("c: -, -, 0", "c: 2, -, 0")
    comp = compile_text(tmp_path / "bad", _AREAS + alone + near + inv)
    assert [d.message.split(": ", 1)[1] for d in comp.diagnostics] == [
        "from `c`, `range` gives `a` 2 (shortest none) over `adjacent` (steps where it is `yes`)"
    ]


def test_a_path_of_two_steps(tmp_path: Path) -> None:
    inv = 'invariant d "shortest" { distances range over adjacent is yes }\n'
    good = _square("range", "int", "a: 0, 1, 2  b: 1, 0, 1  c: 2, 1, 0")
    assert codes(compile_text(tmp_path / "ok", _AREAS + _LINE + good + inv)) == []
    bad = good.replace("a: 0, 1, 2", "a: 0, 1, 3")
    assert codes(compile_text(tmp_path / "bad", _AREAS + _LINE + bad + inv)) == ["C414"]


def test_a_relation_that_is_not_square_is_a_type_mismatch(tmp_path: Path) -> None:
    two_keys = 'chart r "R" { key area key other: area column a: int "A" rows { a a: 1 } }\n'
    comp = compile_text(tmp_path / "keys", _AREAS + two_keys + 'invariant s "s" { symmetric r }\n')
    assert [(d.code, d.message) for d in comp.diagnostics if d.code == "C402"] == [
        ("C402", "invariant `s` reads `r` as a relation of one enum's members, but it is keyed by 2 keys")
    ]
    short = (
        'chart r "R" { key area column a: int "A" column b: int "B" column d: int "D"\n'
        "  rows { a: 0, 1, 1 b: 1, 0, 1 c: 1, 1, 0 } }\n"
    )
    comp = compile_text(tmp_path / "columns", _AREAS + short + 'invariant s "s" { symmetric r }\n')
    assert [(d.code, d.message) for d in comp.diagnostics if d.code == "C402"] == [
        (
            "C402",
            "invariant `s`: the columns of `r` are not the members of `area`: no column for `c`; columns `d` name "
            "no member",
        )
    ]
    text_range = _square("range", "text", 'a: "0", "1", "2"  b: "1", "0", "1"  c: "2", "1", "0"')
    inv = 'invariant d "d" { distances range over adjacent is yes }\n'
    comp = compile_text(tmp_path / "types", _AREAS + _LINE + text_range + inv)
    assert [(d.code, d.message) for d in comp.diagnostics] == [
        ("C402", "invariant `d`: column `a` of `range` holds `text` values, not `int`")
    ]


def test_the_step_is_typed_by_the_relation(tmp_path: Path) -> None:
    good = _square("range", "int", "a: 0, 1, 2  b: 1, 0, 1  c: 2, 1, 0")
    inv = 'invariant d "d" { distances range over adjacent is maybe }\n'
    comp = compile_text(tmp_path, _AREAS + _LINE + good + inv)
    assert codes(comp) == ["C201"]  # `maybe` is no member of yes_no
