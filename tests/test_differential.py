"""Random valid games answered three ways: `chartc lookup`/`chartc odds` (CLI), the generated
Python module and the JSON rows must agree, and nothing may raise (issue 11: "the fuzzer gains
what found these").

The bounded pass below runs a handful of seeds of tests/gamegen.py in the default suite; the long
pass is `python scripts/fuzz_long.py --games 100000`. The tests marked xfail reproduce
disagreements the generator found whose fixes belong to other parts of chartc; they are strict,
so each one fails the run (XPASS) once its bug is fixed: then delete the mark (and the seed's entry
in KNOWN_BUGS_BY_SEED).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests import gamegen
from tests.differential import GAME, GameRun, confirm_unreachable, import_module, run_game

BOUNDED_SEEDS = range(24)
# The default run answers the first 12 games (about 3 s of CPU); `pytest -m slow` the other 12.
DEFAULT_SEEDS = 12

# Seeds of the bounded pass whose games hit a bug reproduced by an xfail test below (none today;
# seeds 0, 3 and 5 were here until the identifier policy and the JSON of chart references landed).
KNOWN_BUGS_BY_SEED: dict[int, str] = {}


def _seed_param(seed: int) -> Any:
    reason = KNOWN_BUGS_BY_SEED.get(seed)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(seed, marks=[*marks, *([pytest.mark.slow] if seed >= DEFAULT_SEEDS else [])])


@pytest.mark.parametrize("seed", [_seed_param(s) for s in BOUNDED_SEEDS])
def test_a_generated_game_checks_clean_and_its_three_outputs_agree(seed: int, tmp_path: Path) -> None:
    run = run_game(seed, tmp_path)
    assert run.comparisons > 0
    assert run.disagreements == [], "\n".join(str(d) for d in run.disagreements)


# ---- the generator and the comparison are real ----------------------------------------------------


def test_the_generator_uses_every_construct_of_the_language() -> None:
    text = "\n".join(t for seed in range(60) for t in gamegen.generate(seed).values())
    constructs = [
        *(f"roll {d.text}\n" for d in gamegen.DICE),
        "value ",
        "key period",
        "key month",
        "grid period [",
        "grid odds [",
        "availability ",
        "by month [",
        "drm ",
        "combine sum clamp",
        " when not ",
        " and ",
        " or ",
        " in [",
        'drm_meaning "',
        "derive from ",
        "errata ",
        "amend ",
        "retitle ",
        "change ",
        "drms ",
        "odds ",
        "external [",
        ": chartref",
        ": pair",
        ": triple",
        "fields {",
        "period ",
        "calendar ",
        "✓",
        '\\"quoted\\"',
        "[R-",
    ]
    missing = [c for c in constructs if c not in text]
    assert missing == []
    names = {n for n in gamegen.COLLIDING_NAMES if f" {n} " in text or f" {n}:" in text}
    assert {"total", "_select", "range", "type", "class", "None"} <= names


def test_generated_games_are_reproducible_from_the_seed() -> None:
    assert gamegen.generate(7) == gamegen.generate(7) != gamegen.generate(8)


def test_the_comparison_catches_a_module_that_answers_wrong(tmp_path: Path) -> None:
    """Plant an off-by-one in the generated Python (every modified roll one higher): the run must
    report the lookups whose answer changes."""
    run = run_game(1, tmp_path, tamper=lambda module: module.replace(" = roll + drm\n", " = roll + drm + 1\n"))
    assert any("Python" in d.answers and "JSON rows" in d.answers for d in run.disagreements)


def test_the_comparison_catches_json_chances_that_are_wrong(tmp_path: Path) -> None:
    run = run_game(1, tmp_path, tamper_json=_shift_first_outcome)
    assert any("from the outcomes" in d.answers for d in run.disagreements)


def _shift_first_outcome(doc: dict[str, Any]) -> dict[str, Any]:
    for chart in doc["charts"]:
        for entry in (chart.get("chances") or {}).get("distributions", []):
            entry["no_row"]["exact"] = "1/7"
    return doc


# ---- reproducers of what the generator found (each fixed; an xfail marks one still open) ----------


def build(tmp_path: Path, text: str) -> tuple[dict[str, Any], Any]:
    """Build the one-file game `text` (game `g`) with `chartc build`; its JSON and Python module."""
    folder = tmp_path / "charts" / GAME
    folder.mkdir(parents=True)
    (folder / "a.chart").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["build", str(tmp_path / "charts"), "--out", str(tmp_path / "gen")])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "gen" / GAME / f"{GAME}.json").read_text(encoding="utf-8"))
    return doc, import_module(tmp_path / "gen" / GAME / f"{GAME}.py", f"chartc_repro_{id(tmp_path)}")


def test_a_row_called_unreachable_is_tried_by_brute_force() -> None:
    # seed 18 draws a 2d6 chart whose DRMs add +3 to +5 in every context, so `2-` is unreachable
    # (C306); the differential drops such rows and tries every context on them
    chart = {
        "address": "r",
        "dice": {"form": "sum", "count": 2, "sides": 6, "outcomes": [{"roll": n} for n in range(2, 13)]},
        "drms": [{"value": 3, "when": {"op": "not", "of": {"op": "flag", "var": "night"}}},
                 {"value": 1, "when": {"op": "flag", "var": "night"}}],
        "combine": {"clamp": None},
    }
    doc = {"charts": [chart], "context": [{"id": "night", "type": "flag"}]}
    honest = GameRun(0, {})
    confirm_unreachable(honest, doc, "r", "2")  # the lowest total is +1: 2 is out of reach
    assert honest.disagreements == []
    caught = GameRun(0, {})
    confirm_unreachable(caught, doc, "r", "3-")  # natural 2 at night, +1: a modified 3
    assert [d.answers for d in caught.disagreements] == ["reached by 3 under {'night': True}"]


def test_a_key_named_select_is_looked_up(tmp_path: Path) -> None:
    # the identifier policy: a name of the module's own gets a trailing `_`
    _, m = build(
        tmp_path,
        'game g { title "G" }\nenum _select "S" { a "A" b "B" }\n'
        'chart [R1] "R" { roll 1d6 key _select column r: text "R" rows { a 1-6: "x"\n b 1-6: "y" } }\n',
    )
    assert m.LOOKUPS["R1"](3, _select_="b") == {"r": "y"}


def test_a_context_variable_named_total_counts(tmp_path: Path) -> None:
    # IA2-style DRM box: +1 when the total is 5 or more; the JSON says +1 for total=10
    doc, m = build(
        tmp_path,
        'game g { title "G" }\ncontext total: int "Total"\ndrms [B1] "B" { drm big "Big" +1 when total >= 5 }\n',
    )
    [b1] = [c for c in doc["charts"] if c["address"] == "B1"]
    assert b1["drms"][0]["when"] == {"op": ">=", "var": "total", "value": 5}
    assert m.drm_b1(total=10) == 1


def test_a_context_variable_named_max_with_a_clamp(tmp_path: Path) -> None:
    # the identifier policy: a builtin's name gets a trailing `_`
    _, m = build(
        tmp_path,
        'game g { title "G" }\ncontext max: flag "Max"\n'
        'chart [B1] "B" { roll 1d6 column r: text "R" drm m "M" +2 when max combine sum clamp -1 to +1 '
        'rows { 1-6: "b"\n 7+: "c" } }\n',
    )
    assert m.drm_b1(max_=True) == 1


def test_odds_json_of_a_chart_with_a_chart_reference_column(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(
        tmp_path,
        'game g { title "G" }\nexternal [B6] "Damage" "on the cards"\n'
        'chart [F1] "Flak" { roll 1d6 column hits: int "Hits" column damage: chartref "Damage chart" '
        "rows { 1-3: 0, -\n 4-6: 1, [B6] } }\n",
    )
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["odds", "g/F1", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["rows"][1]["values"] == {"hits": 1, "damage": {"chart": "B6"}}


def test_a_context_variable_has_one_parameter_name_in_the_whole_module(tmp_path: Path) -> None:
    # found by the long pass (seed 200374): `drm_b4(type_=...)` took the month `type`, while the
    # enum variable `type_` is `type_=` elsewhere and `type__=` beside `type`
    _, m = build(
        tmp_path,
        'game g { title "G" calendar 1944-01 to 1944-12 }\nenum e "E" { a "A" b "B" }\n'
        'context type_: e "T"\ncontext type: month "M"\n'
        'drms [B1] "B1" { drm x "X" +1 when type_ == a drm y "Y" +2 when type >= 1944-06 }\n'
        'drms [B2] "B2" { drm x "X" +1 when type_ == a }\n',
    )
    both = inspect.signature(m.drm_b1).parameters
    alone = inspect.signature(m.drm_b2).parameters
    [enum_param] = [name for name, p in both.items() if "E" in str(p.annotation)]
    assert list(alone) == [enum_param]


# found by the generator: a keyword as the slug after a printed ID was a syntax error (the ID's rule
# was shared with chart references, whose followers made `rows` a keyword there)
@pytest.mark.parametrize("slug", ["rows", "note", "drm_meaning", "roll"])
def test_a_keyword_slug_after_a_chart_id(tmp_path: Path, slug: str) -> None:
    doc, _ = build(
        tmp_path,
        f'game g {{ title "G" }}\nchart [T2] {slug} "X" {{ roll 1d6 column r: text "R" rows {{ 1-6: "a" }} }}\n',
    )
    assert [c["slug"] for c in doc["charts"]] == [slug]


# found by the generator: `note` as a row's key value after a quoted value was a syntax error (the
# errata's rows shared the rule, and `note` may follow one there)
@pytest.mark.parametrize("rows", ['other 1-6: "b"\n note 1-6: "a"', 'a note 1-6: "a"\n a other 1-6: "b"'])
def test_a_keyword_as_a_row_key_value(tmp_path: Path, rows: str) -> None:
    keys = "key e" if rows.startswith("other") else "key f key e"
    doc, _ = build(
        tmp_path,
        'game g { title "G" }\nenum e "E" { note "N" other "O" }\nenum f "F" { a "A" }\n'
        f'chart t "X" {{ roll 1d6 {keys} column r: text "R" rows {{ {rows} }} }}\n',
    )
    assert len(doc["charts"][0]["rows"]) == 2
