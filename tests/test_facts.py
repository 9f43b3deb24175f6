"""Facts that must agree: `invariant NAME "TEXT" { same FACT as FACT }` (C417).

A fact is a chart's cell (`[TEC] (terrain=town) column combat`, `[S1] (4) column strength`), a
record's field (`family.me262.aircraft`) or a count of records (`count aircraft where family ==
me262`). The test game `tests/data/charts/factlab` plants one disagreement (its TEC says a town is
impassable, its rule 8.2 says no effect); the IA2 corpus states its facts twice and they agree.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from compiler import model
from compiler.build.project import Compilation, load
from compiler.emit.json import emit_game_json
from dsl import ast
from dsl.parser import parse_text
from tests.conftest import ROOT, codes, compile_text

LAB = Path("tests/data/charts/factlab")


@pytest.fixture(scope="module")
def lab() -> Compilation:
    with contextlib.chdir(ROOT):
        return load([LAB])


def test_the_three_fact_forms_parse_with_spans() -> None:
    text = (
        'invariant a "A" { same [TEC] (terrain=town, 3) column shift as family.me262.aircraft }\n'
        'invariant b "B" { same count aircraft where family == me262 as crt_notes column shift }\n'
    )
    a, b = parse_text(text, "f.chart").source.invariants
    assert isinstance(a, ast.SameInvariant) and isinstance(b, ast.SameInvariant)
    cell, field = a.left, a.right
    assert isinstance(cell, ast.CellFact) and isinstance(field, ast.FieldFact)
    assert (cell.chart.text, cell.column.text) == ("TEC", "shift")
    key, roll = cell.select
    assert isinstance(key, ast.FactKey) and (key.key.text, key.value.text) == ("terrain", "town")
    assert isinstance(roll, ast.FactRoll) and roll.value == 3
    first_line = text.splitlines()[0]
    assert first_line[cell.span.col - 1 : cell.span.end_col - 1] == "[TEC] (terrain=town, 3) column shift"
    assert first_line[field.span.col - 1 : field.span.end_col - 1] == "family.me262.aircraft"
    assert (field.enum.text, field.member.text, field.field.text) == ("family", "me262", "aircraft")
    count, bare = b.left, b.right
    assert isinstance(count, ast.CountFact) and [t.value.text for t in count.where] == ["me262"]
    assert isinstance(bare, ast.CellFact) and bare.select == ()


def test_the_planted_mismatch_is_reported_with_both_facts(lab: Compilation) -> None:
    # factlab: TEC (8.1) prints a town "Impassable", rule 8.2 "No effect"
    (finding,) = [d for d in lab.diagnostics if d.code == "C417"]
    assert finding.severity == "warning"
    assert finding.message == (
        "invariant `town_combat` (the TEC (8.1) and rule 8.2 give a town the same combat effect): "
        "`[TEC] (terrain=town) column combat` is `Impassable`, but `[R82] (terrain=town) column combat` "
        "is `No effect`"
    )
    lines = (ROOT / LAB / "game.chart").read_text(encoding="utf-8").splitlines()
    # the primary span is the TEC's town row, the first label rule 8.2's town row
    assert finding.span.file == str(LAB / "game.chart")
    assert lines[finding.span.line - 1].strip() == 'town:  "Impassable", 1'
    other, declared = finding.labels
    assert lines[other.span.line - 1].strip() == 'town:  "No effect"'
    assert other.message == "`[R82] (terrain=town) column combat` is `No effect` here"
    assert lines[declared.span.line - 1].startswith("invariant town_combat ")
    assert finding.help is not None and 'keep them as printed and say why: `same A as B kept "why"`' in finding.help
    # the other three facts of the lab agree: woods, the Tiger's strength (roll 4 of S1), the tanks
    assert [d.code for d in lab.diagnostics] == ["C417"]


def test_the_lab_facts_read_the_values_printed(lab: Compilation) -> None:
    game = lab.project.games["factlab"]
    by_id = {i.id: i for i in game.invariants}
    tiger = by_id["tiger_strength"]
    assert isinstance(tiger, model.SameInvariant) and tiger.type == model.BuiltinType.INT
    assert tiger.left == model.CellFact("S1", (), 4, "strength", "[S1] (4) column strength", tiger.left.span)
    assert isinstance(tiger.right, model.FieldFact) and tiger.right.written == "unit.tiger.strength"
    tanks = by_id["tanks_size"]
    assert isinstance(tanks, model.SameInvariant) and isinstance(tanks.left, model.CountFact)
    assert tanks.left.enum == "unit"
    assert tanks.left.where == (model.FieldTest("family", model.CompareOp.EQ, "tanks"),)


def test_an_allow_in_the_first_facts_chart_silences_it(tmp_path: Path) -> None:
    text = (ROOT / LAB / "game.chart").read_text(encoding="utf-8").replace(
        '  rule "8.1"\n', '  rule "8.1"\n  allow C417 "the rulebook prints both so"\n'
    )
    comp = compile_text(tmp_path, text, game="factlab")
    assert codes(comp) == []
    assert [s.diagnostic.code for s in comp.suppressed] == ["C417"]


def test_a_fact_that_reads_no_row_or_several_is_reported(tmp_path: Path) -> None:
    text = (ROOT / LAB / "game.chart").read_text(encoding="utf-8") + (
        'invariant none "n" { same [S1] (7) column strength as unit.pak.strength }\n'
        'invariant many "m" { same [TEC] column cost as unit.pak.strength }\n'
    )
    comp = compile_text(tmp_path, text, game="factlab")
    messages = [d.message for d in comp.diagnostics if d.code == "C417" and "selects" in d.message]
    assert messages == [
        "invariant `none`: `[S1] (7) column strength` selects no row of `S1`, not one",
        "invariant `many`: `[TEC] column cost` selects 3 rows of `TEC`, not one",
    ]


@pytest.mark.parametrize(
    ("fact", "message", "help"),
    [
        ("[TEK] (terrain=town) column combat", "unknown chart `TEK` in invariant `x`", "did you mean `TEC`?"),
        ("[TEC] (terrain=town) column combt", "chart `TEC` has no column `combt`", "did you mean `combat`?"),
        ("[TEC] (terain=town) column combat", "chart `TEC` has no key `terain`", "did you mean `terrain`?"),
        (
            "[TEC] (terrain=twn) column combat",
            "`twn` is not a value of key `terrain` (invariant `x`)",
            "did you mean `town`?",
        ),
        ("unit.tigr.strength", "`tigr` is not a value of `unit` (invariant `x`)", "did you mean `tiger`?"),
        ("unit.tiger.strenght", "enum `unit` has no field `strenght`", "did you mean `strength`?"),
        ("count unt", "unknown enum `unt` in invariant `x`", "did you mean `unit`?"),
    ],
)
def test_unknown_names_in_a_fact_are_c201_with_did_you_mean(
    tmp_path: Path, fact: str, message: str, help: str
) -> None:
    text = (ROOT / LAB / "game.chart").read_text(encoding="utf-8") + (
        f'invariant x "x" {{ same {fact} as [R82] (terrain=town) column combat }}\n'
    )
    comp = compile_text(tmp_path, text, game="factlab")
    found = [d for d in comp.diagnostics if d.code == "C201"]
    assert [(d.message, d.help) for d in found] == [(message, help)]


def test_facts_of_two_types_are_a_type_mismatch(tmp_path: Path) -> None:
    text = (ROOT / LAB / "game.chart").read_text(encoding="utf-8") + (
        'invariant x "x" { same [TEC] (terrain=town) column combat as [TEC] (terrain=town) column cost }\n'
    )
    comp = compile_text(tmp_path, text, game="factlab")
    (mismatch,) = [d for d in comp.diagnostics if d.code == "C402"]
    assert mismatch.message == (
        "invariant `x` compares `[TEC] (terrain=town) column combat`, which holds `text` values, "
        "with `[TEC] (terrain=town) column cost`, which holds `int` values"
    )
    assert len(mismatch.labels) == 1


def test_the_json_lists_the_facts(lab: Compilation) -> None:
    doc = json.loads(emit_game_json(lab.project.games["factlab"]))
    town = next(i for i in doc["invariants"] if i["id"] == "town_combat")
    assert town["kind"] == "same" and town["type"] == "text"
    assert town["facts"][0] == {
        "kind": "cell", "chart": "TEC", "keys": {"terrain": "town"}, "roll": None, "column": "combat",
        "written": "[TEC] (terrain=town) column combat",
    }
    tanks = next(i for i in doc["invariants"] if i["id"] == "tanks_size")
    assert tanks["facts"][0]["where"] == [{"field": "family", "op": "==", "value": "tanks"}]


# ---- the corpus: IA2 prints these facts twice, and both printings agree


def _reading(game: model.Game, inv_id: str) -> tuple[model.Value, model.Value]:
    from compiler.checks.facts import read_fact
    from compiler.diagnostics import Sink, codes

    inv = next(i for i in game.invariants if i.id == inv_id)
    assert isinstance(inv, model.SameInvariant)
    sink = Sink()
    left = read_fact(game, inv.left, inv.type, inv_id, codes.FACTS_DISAGREE, sink)
    right = read_fact(game, inv.right, inv.type, inv_id, codes.FACTS_DISAGREE, sink)
    assert left is not None and right is not None and not sink.items
    return left.value, right.value


def test_ia2_r1_and_the_scenarios_agree_on_bases(ia2) -> None:
    # R1 (4.1): II/JG 1 "Rheine (Münster) 3/44"; 10.15.3 First Raid on Berlin (March 6, 1944): II/JG 1, Rheine
    assert _reading(ia2, "ii_jg1_rheine") == ("rheine", "rheine")
    # R1: III/JG 1 transfers to "Rheine 8/44"; 10.15.2 The Escorts (10/44): III/JG 1, Rheine
    assert _reading(ia2, "iii_jg1_rheine") == ("rheine", "rheine")
    # 10.15.2 Knight's Cross Holders (1/45) and 10.15.3 Defend Oranienburg A/F (4/45): JV 44 at Brandenburg-Briest
    assert _reading(ia2, "jv44_base") == ("brandenburg_briest", "brandenburg_briest")


def test_ia2_family_sizes_agree_with_the_aircraft_listed(ia2) -> None:
    # 9.1: "Bf 110 (2 aircraft)", "Me 262 (2 aircraft)", the others 1; section 11 lists them
    assert _reading(ia2, "bf110_size") == (2, 2)
    assert _reading(ia2, "me262_size") == (2, 2)
    for family in ("me410", "ju88", "do335", "he162", "go229", "me163"):
        assert _reading(ia2, f"{family}_size") == (1, 1), family


def test_the_corpus_facts_printed_two_ways_are_the_books_own_kept(corpus: Compilation) -> None:
    # Every C418 of the corpus is a fact its rulebook prints two ways, kept as printed and named in its
    # game's test (tests/test_ia2_charts.py, test_usaaf_charts.py, test_aa_rules_charts.py,
    # test_stuka_leader_charts.py) and marked in docs/coverage/<game>.md; none is silenced with `allow`
    # (an invariant that keeps the print says why with `kept`, a C418 note)
    assert [d.message for d in corpus.diagnostics if d.code == "C417"] == []
    by_game = Counter(d.span.file.split("/")[1] for d in corpus.diagnostics if d.code == "C418")
    # Stuka Leader's 11 include step 11's middle section (L260, L158), kept before the others were
    assert by_game == {"ia2": 14, "stuka_leader": 11, "usaaf": 6, "aa_rules": 1}
    assert [s for s in corpus.suppressed if s.diagnostic.code == "C417"] == []
    games = corpus.project.games
    same = Counter(g for g, game in games.items() for i in game.invariants if isinstance(i, model.SameInvariant))
    # issue 15's: USAAF 24.2's reclaimed FLAK division, aa_rules' two miss radii, Stuka Leader's Event
    # card facts and the Legendary Bandit's 2 victories; issue 30's outside counts: the rest (USAAF's
    # 22nd: 4.2's three target systems and 20.4's "back up to three"; IA2's limits.chart: 7 limits held
    # equal to the charts that print the same counts)
    assert same == {"ia2": 48, "usaaf": 22, "stuka_leader": 19, "aa_rules": 11}


def test_a_planted_change_in_the_corpus_is_reported(tmp_path: Path) -> None:
    # move II/JG 1 to Volkel in R1: R1 and 10.15.3 then part, reported at R1's row with 10.15.3's record
    import shutil

    shutil.copytree(ROOT / "charts" / "ia2", tmp_path / "charts" / "ia2")
    setup = tmp_path / "charts" / "ia2" / "setup.chart"
    text = setup.read_text(encoding="utf-8")
    row = re.search(r'"FW 190A-8", +rheine,', text)
    assert row is not None
    setup.write_text(
        text.replace(row.group(0), '"FW 190A-8", volkel,'),
        encoding="utf-8",
    )
    with contextlib.chdir(tmp_path):
        comp = load([Path("charts")])
    (finding,) = [d for d in comp.diagnostics if d.code == "C417" and "Volkel" in d.message]
    assert "is `Volkel`, but `mission.first_raid_on_berlin.base` is `Rheine`" in finding.message
    assert finding.span.file.endswith("setup.chart")
    assert finding.labels[0].span.file.endswith("modes.chart")


def test_a_drm_and_a_formula_are_facts_too(tmp_path: Path) -> None:
    # IA2 B12 (7.2.2.9): Agile +2 on the initiative roll; 7.12's example adds the same +2 for its Bf 109
    text = (
        'game t { title "T" }\ncontext agile: flag "Agile"\ncontext positions: int "Positions" 0-4\n'
        'chart [B12] initiative "Initiative" { rule "7.2.2" roll 1d6 column r: text '
        'drm agile "Agile" +2 when agile rows { 1-3: "Lose" 4+: "Win" } }\n'
        'formula agile_bonus "7.12 example" { rule "7.12" result 2 * positions }\n'
        'invariant agile_two "B12 and 7.12" { same drm [B12] agile as formula agile_bonus (positions=1) }\n'
        'invariant agile_four "B12 and 7.12" { same drm [B12] agile as formula agile_bonus (positions=2) }\n'
    )
    comp = compile_text(tmp_path, text)
    [finding] = [d for d in comp.diagnostics if d.code == "C417"]
    assert finding.message == (
        "invariant `agile_four` (B12 and 7.12): `drm [B12] agile` is `+2`, but "
        "`formula agile_bonus (positions=2)` is `4`"
    )
    doc = json.loads(emit_game_json(comp.project.games["t"]))
    facts = next(i for i in doc["invariants"] if i["id"] == "agile_two")["facts"]
    assert facts == [
        {"kind": "drm", "chart": "B12", "drm": "agile", "written": "drm [B12] agile"},
        {"kind": "formula", "formula": "agile_bonus", "context": {"positions": 1},
         "written": "formula agile_bonus (positions=1)"},
    ]
