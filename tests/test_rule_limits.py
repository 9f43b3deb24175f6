"""Limits and allowances as data (`limit NAME "title" { ... }`): what a rule caps or allows, its cases,
the rule each cites. `chartc lookup GAME/LIMIT` reads one; `same` facts, conflicts and ranges checked
`within` a limit use it; the JSON, the generated module and the player aid carry it.

IA2 4.3.3 and 6.0: 8 sorties a month, only 4 from January 1945; 11.7 and R1 note 4: the Me 262 from
July to September 1944 flies only four missions a month; 11.6 and R1 note 6: so does the Do 335A with
EGR 335. USAAF 7.1: six aircraft units a hex, six US bombers and three tight escorts; 8.1: stacking
does not count during US entry onto the map. Stuka Leader 17: an Aircraft moves one Area, a Jet two.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler import model
from compiler.emit.json import emit_game_json
from compiler.engine.limits import read_limit
from dsl.parser import parse_text
from tests.conftest import ROOT, codes, compile_text, import_module


def test_a_limit_parses_its_cases_in_order() -> None:
    text = (
        'limit sorties "Sorties" { rule "4.3.3" counts "sorties a month"\n'
        '  exactly 4 when month >= 1945-01 cite "4.3.3"\n  at most 4 when me262\n  2 to 6\n'
        "  at least 1\n  unlimited\n}\n"
    )
    [limit] = parse_text(text, "l.chart").source.limits
    assert (limit.name.text, limit.rule.text, limit.counts.text) == ("sorties", "4.3.3", "sorties a month")
    bounds = [(c.bound.kind.value, c.bound.low, c.bound.high) for c in limit.cases]
    assert bounds == [
        ("exactly", 4, 4), ("at_most", None, 4), ("between", 2, 6), ("at_least", 1, None), ("unlimited", None, None)
    ]
    assert limit.cases[0].cite is not None and limit.cases[0].cite.text == "4.3.3"


def test_the_ia2_sorties_a_month(ia2) -> None:
    limit = ia2.limit("sorties_per_month")
    assert limit is not None

    def bound(**context: str) -> str | None:
        given = {k: model.MemberId(v) if k != "month" else model.Month(v) for k, v in context.items()}
        found = read_limit(limit, given).bound
        return found.text if found else None

    # 4.3.3: from January 1945 only 4, whatever the aircraft
    assert bound(month="1945-02") == "exactly 4"
    # 11.7: the Me 262 to September 1944, four; October, eight
    assert bound(month="1944-07", family_flown="me262") == "at most 4"
    assert bound(month="1944-10", family_flown="me262", unit_assigned="kdo_nowotny") == "exactly 8"
    # 11.6: the Do 335 with EGR 335, four; a FW 190 pilot of I/JG 1 in 1944, eight
    assert bound(month="1944-11", family_flown="do335", unit_assigned="egr335") == "at most 4"
    assert bound(month="1944-11", family_flown="fw190", unit_assigned="i_jg1") == "exactly 8"
    # without the aircraft, August 1944 depends on it
    undecided = read_limit(limit, {"month": model.Month("1944-08")})
    assert undecided.bound is None and undecided.undecided == ("family_flown", "unit_assigned")
    assert [c.bound.text for c in undecided.possible] == ["at most 4", "at most 4", "exactly 8"]


def test_lookup_reads_a_limit_by_key_set_and_when(run) -> None:
    out = run("lookup", "ia2/sorties_per_month", "--key", "month=1944-08", "--key", "family_flown=me262").output
    assert out.splitlines()[3] == (
        "  at most 4 (rule 11.7, R1 note 4: the Me 262 from July to September 1944; "
        "when family_flown == me262 and month <= 1944-09)"
    )
    open_ = run("lookup", "ia2/sorties_per_month", "--set", "month=1944-08").output.splitlines()
    assert open_[3] == (
        "  depends on family_flown (--set family_flown=VALUE), unit_assigned (--set unit_assigned=VALUE):"
    )
    assert open_[6] == "    exactly 8 otherwise (4.3.3: normally 8 sorties a month)"
    # 7.8.5 and 10.15 print 96 flights, 4.3.3 and 6.0 sorties a month that add up otherwise
    assert open_[7] == "  The book disagrees with itself: How many sorties a game of Interceptor Ace 1944-45 holds"
    doc = json.loads(run("lookup", "ia2/sorties_per_month", "--set", "month=1945-01", "--json").output)
    assert doc["bound"] == {"kind": "exactly", "min": 4, "max": 4, "text": "exactly 4"}
    # USAAF 8.1: stacking doesn't count during entry; 7.1 otherwise
    assert run("lookup", "usaaf/us_entry_per_hex", "--when", "us_entering").output.splitlines()[3].startswith(
        "  unlimited (rule 8.1: stacking doesn't count"
    )
    # Stuka Leader 17: a Jet moves two adjacent Areas
    assert "at most 2" in run("lookup", "stuka_leader/aircraft_move", "--when", "jet").output


def test_a_limit_refuses_what_it_does_not_read(run) -> None:
    wrong = run("lookup", "ia2/sorties_per_month", "--set", "fatigue_points=3")
    assert wrong.exit_code == 2 and "limit `sorties_per_month` does not read `fatigue_points`" in wrong.output
    rolled = run("lookup", "usaaf/us_bombers_per_hex", "4")
    assert rolled.exit_code == 2 and "`us_bombers_per_hex` is a limit: it takes no roll" in rolled.output
    odds = run("odds", "usaaf/us_bombers_per_hex")
    assert odds.exit_code == 2
    assert "is a limit of game `usaaf`, not a chart: chartc lookup usaaf/us_bombers_per_hex" in odds.output


def test_the_module_and_the_json_carry_limits(corpus) -> None:
    gen = import_module(ROOT / "generated" / "ia2" / "ia2.py", "ia2_limits")
    assert gen.limit_sorties_per_month(month="1944-09", family_flown="do335", unit_assigned="egr335")["max"] == 4
    with pytest.raises(ValueError, match="must be a month"):
        gen.limit_sorties_per_month(month="September")
    assert gen.LIMITS["sorties_per_month"] is gen.limit_sorties_per_month
    doc = json.loads(emit_game_json(corpus.project.games["usaaf"]))
    tight = next(lim for lim in doc["limits"] if lim["id"] == "tight_escorts_per_hex")
    assert tight["rule"] == "7.1" and tight["cases"] == [
        {"bound": {"kind": "at_most", "min": None, "max": 3, "text": "at most 3"}, "when": None, "cite": None}
    ]


def test_a_same_fact_may_name_a_limit(corpus, tmp_path: Path) -> None:
    # USAAF 3.1 (set-up, per city hex) and 7.2 (any hex, any time): four FLAK strength points
    usaaf = corpus.project.games["usaaf"]
    four = next(i for i in usaaf.invariants if i.id == "four_flak_points")
    assert isinstance(four, model.SameInvariant) and isinstance(four.left, model.LimitFact)
    assert [d.message for d in corpus.diagnostics if d.code == "C417" and "four_flak_points" in d.message] == []
    text = (
        'game t { title "T" }\n'
        'limit flak_per_hex "FLAK" { rule "7.2" at most 4 }\n'
        'limit flak_set_up "Set-up" { rule "3.1" at most 5 }\n'
        'invariant four "3.1 and 7.2" { same limit flak_set_up as limit flak_per_hex }\n'
    )
    [finding] = [d for d in compile_text(tmp_path, text).diagnostics if d.code == "C417"]
    assert finding.message == (
        "invariant `four` (3.1 and 7.2): `limit flak_set_up` is `at most 5`, but `limit flak_per_hex` is `at most 4`"
    )


def test_a_range_is_checked_within_a_limit(tmp_path: Path) -> None:
    # USAAF 7.1: six bombers a hex; a chart read by the bombers of a hex must read 0 or 1 to 6, not 8
    base = 'game t { title "T" }\nlimit bombers "Bombers" { rule "7.1" at most 6 }\n'
    chart = 'chart b "B" {{ rule "19" value n "Bombers" {0} within bombers column r: int rows {{ {0}: 1 }} }}\n'
    comp = compile_text(tmp_path, base + chart.format("1-8"))
    [finding] = [d for d in comp.diagnostics if d.code == "C491"]
    assert finding.message == (
        "the value `n` of chart `b` takes 1-8, checked within limit `bombers` (at most 6): it runs past 6"
    )
    assert "C491" not in codes(compile_text(tmp_path / "ok", base + chart.format("1-6")))
    unknown = compile_text(tmp_path / "unknown", base + chart.format("1-6").replace("within bombers", "within bomber"))
    assert [d.help for d in unknown.diagnostics if d.code == "C201"] == ["did you mean `bombers`?"]
