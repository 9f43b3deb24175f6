"""The book's own inconsistencies as data: a `conflict` cites the places that disagree (rule
sections, what each says, the value each gives), an `ambiguous` print its readings; `chartc check`
lists each citing every place (C480, or the note C481 where the transcription keeps the print and
says why), and a declaration the data no longer matches is C482.

IA2 4.6 "Players will be based at one of 36 bases", but the zone lists of 4.6.2 name 35; 9.1 "Bf 109
(18 aircraft)", 11.1 names 16. USAAF 25.0: Mannheim's SF and SR cells run together as `6/118/9`.
"""

from __future__ import annotations

import json
from pathlib import Path

from compiler.emit.json import emit_game_json
from dsl.parser import parse_text
from tests.conftest import codes, compile_text

HEAD = (
    'game t { title "T" }\n'
    'enum base { fields { listed: text } a "A" { listed: "4.6.2" } b "B" { listed: "4.6.2" } }\n'
)


def test_conflict_and_ambiguous_parse_their_places_and_readings() -> None:
    text = (
        'conflict bases "Bases" {\n  place "4.6" "36 bases" is 36\n'
        '  place "4.6.2" "the lists" is count base where listed == "4.6.2"\n  kept "why"\n}\n'
        'ambiguous m "M" {\n  printed "6/118/9"\n  reading "one" { [T] (city=m) column sf is 6/1 }\n'
        '  reading "two" { [T] (city=m) column sf is 6/11 }\n}\n'
    )
    source = parse_text(text, "i.chart").source
    [conflict], [ambiguous] = source.conflicts, source.ambiguities
    assert [(p.rule.text, p.says.text) for p in conflict.places] == [("4.6", "36 bases"), ("4.6.2", "the lists")]
    assert conflict.kept is not None and conflict.kept.text == "why"
    assert ambiguous.printed is not None and [r.label.text for r in ambiguous.readings] == ["one", "two"]


def test_ia2_bases_and_bf109s_are_listed_citing_both_places(corpus) -> None:
    found = {d.message.split("`")[1]: d for d in corpus.diagnostics if d.code == "C481" and "ia2" in d.span.file}
    bases = found["bases_count"]
    assert bases.severity.value == "note"
    assert bases.message.startswith(
        "conflict `bases_count` (How many bases): 4.6 says \u201cPlayers will be based at one of 36 bases\u201d (36); "
        "4.6.2 says \u201cthe base lists of the eight zones (4+9+5+4+3+2+4+4)\u201d (35); kept as printed: "
    )
    # labels: the second place, and the data it reads (the first base record counted)
    assert [label.message for label in bases.labels] == ["4.6.2", "the data: 35"]
    assert "9.1 says \u201cBf 109 (18 aircraft)\u201d (18); 11.1 says" in found["bf109_count"].message


def test_a_conflict_without_a_decision_is_a_warning_and_a_stale_one_is_reported(tmp_path: Path) -> None:
    open_ = HEAD + 'conflict bases "Bases" { place "4.6" "36" is 36 place "4.6.2" "lists" is count base }\n'
    [finding] = compile_text(tmp_path, open_).diagnostics
    assert (finding.code, finding.severity.value) == ("C480", "warning")
    assert finding.help == (
        'decide what the data keeps and say why: `kept "why"` in the declaration (or correct it in an errata block)'
    )
    stale = HEAD + 'conflict bases "Bases" { place "4.6" "two" is 2 place "4.6.2" "lists" is count base }\n'
    [agree] = compile_text(tmp_path / "stale", stale).diagnostics
    assert (agree.code, agree.message) == ("C482", "conflict `bases` (Bases): every place now gives `2`")


def test_places_of_two_types_or_one_place_are_refused(tmp_path: Path) -> None:
    two_types = HEAD + 'conflict x "X" { place "1" "a" is count base place "2" "b" is base.a.listed }\n'
    [finding] = [d for d in compile_text(tmp_path, two_types).diagnostics if d.code == "C483"]
    assert finding.message == "conflict `x` compares `count base` (`int`) with `base.a.listed` (`text`)"
    assert "C483" in codes(compile_text(tmp_path / "one", HEAD + 'conflict x "X" { place "1" "a" is 2 }\n'))


def test_mannheim_reads_two_ways_and_the_charts_hold_one(corpus) -> None:
    [finding] = [d for d in corpus.diagnostics if d.code == "C481" and "`mannheim_sf_sr`" in d.message]
    assert "printed `6/118/9` reads two ways, `SF 6/1, SR 18/9` (the charts hold this) or `SF 6/11, SR 8/9`" in (
        finding.message
    )
    doc = json.loads(emit_game_json(corpus.project.games["usaaf"]))
    [mannheim] = [a for a in doc["ambiguities"] if a["id"] == "mannheim_sf_sr"]
    assert mannheim["printed"] == "6/118/9"
    assert [c["value"] for c in mannheim["readings"][1]["cells"]] == [[6, 11], [8, 9]]
    us_stack = next(c for c in doc["conflicts"] if c["id"] == "us_stack")
    assert us_stack["places"][1]["value"] == {"stated": 9, "written": "9"}
    assert us_stack["places"][0]["value"]["fact"]["kind"] == "limit"


def test_a_reading_the_charts_do_not_hold_is_reported(tmp_path: Path) -> None:
    text = (
        'game t { title "T" }\nenum city { m "Mannheim" }\n'
        'chart t "T" { key city column sf: pair "SF" rows { m: 6/7 } }\n'
        'ambiguous m "M" {\n  reading "one" { t (city=m) column sf is 6/1 }\n'
        '  reading "two" { t (city=m) column sf is 6/11 }\n}\n'
    )
    [finding] = compile_text(tmp_path, text).diagnostics
    assert finding.code == "C482"
    assert finding.message == "ambiguous print `m` (M): the charts hold none of its readings, `one` or `two`"


def test_the_summary_counts_what_is_kept_as_printed(run) -> None:
    # 18 before issue 30's second pass; + 31 facts printed two ways now kept (C418) and 6 conflicts (C481);
    # + 42 of USAAF's (31) and the AA excerpt's (11) unclear print and conflicts in words (C481)
    # + IA2's 8 conflicts of charts/ia2/conflicts.chart
    # + IA2's 10.16, 9.4, 8.2 and 7.12 and Stuka Leader's Bail Out and Promotion conflicts (6, C481)
    # + 5 warnings kept as printed (C484): USAAF's May 1944 in no game turn, IA2's four early postings
    last = run("check", "charts", "--format", "short").output.strip().splitlines()[-1]
    assert last.endswith("0 warnings, 148 notes (116 kept as printed), 3 suppressed")


def test_lookup_shows_the_book_example_that_contradicts_the_chart(run) -> None:
    # IA2 7.12: the example lands with +3 at Fatigue Level 16 and a damaged engine; R6 (10.5) gives +1 at
    # 15-19, so the charts give +2 and the player is told the book's example reads otherwise
    lines = run("lookup", "ia2/B7", "--set", "fatigue_points=16", "--when", "engine_damaged").output.splitlines()
    assert lines[1] == "  DRM: Fatigue 10-19 (R6) +1, Damaged engine (the 7.12 example) +1 = +2"
    at = lines.index(
        "  The book's example (7.12) gives otherwise: "
        "7.12: the landing roll takes +3: the damaged engine and Fatigue Level 16"
    )
    assert lines[at + 1].startswith("    R6 (10.5) adds +1 to landing at 15-19 Fatigue Points, +2 from 20")


def test_lookup_lists_a_conflict_citing_the_chart_rule_and_an_ambiguous_cell(run) -> None:
    # IA2 4.6 / 4.6.2: 36 bases, 35 named; R1 (rule 4.6) is where the player reads the bases
    doc = json.loads(run("lookup", "ia2/R1", "16", "--format", "json").output)
    bases = next(i for i in doc["inconsistencies"] if i["id"] == "bases_count")
    assert bases["kind"] == "conflict"
    assert [p["rule"] for p in bases["places"]] == ["4.6", "4.6.2"]
    # USAAF 19.3: three FLAK die rolls for one, read two ways; the cell read holds one reading, in full
    text = run("lookup", "usaaf/unclear_print", "--key", "point=three_flak_rolls").output
    assert "  The print reads more than one way: Three FLAK die rolls for one (19.3)\n" in text
    assert "    reading: the three results added\n    reading: the best of three\n" in text
    # ... the other points' readings are other rows of the chart: their titles only, in one line
    assert "  Also unclear in the book about this chart: FLAK reinforcements that may not arrive (3.1); " in text
    # FLAK die rolls only cites 19.3: the ambiguity is named, its readings are not repeated there
    text = run("lookup", "usaaf/flak_die_rolls", "--key", "flak_rule=double_fused").output
    assert text.splitlines()[-1] == (
        "  Also unclear in the book about this chart: Three FLAK die rolls for one (19.3) (--format json lists each)"
    )


def test_lookup_of_a_chart_no_inconsistency_concerns_lists_none(run) -> None:
    # IA2 7.1.10: R4, the Escape Chart, is not cited by any conflict, ambiguity or contradicting example
    result = run("lookup", "ia2/R4", "3", "--key", "interceptor=piston")
    assert "disagrees" not in result.output and "more than one way" not in result.output
    doc = json.loads(run("lookup", "ia2/R4", "3", "--key", "interceptor=piston", "--format", "json").output)
    assert "inconsistencies" not in doc


def test_limit_lookup_and_compute_list_the_inconsistencies_about_them(run) -> None:
    # USAAF 7.1: six aircraft units a hex, yet six bombers and three tight escorts; 9.4: no limit at a base
    text = run("lookup", "usaaf/aircraft_per_hex").output
    assert "  The book disagrees with itself: How many US aircraft units a hex holds\n" in text
    assert "    9.4: there is no limit on the number of German units that may sit at any one German base\n" in text
    # AA excerpt, Cannons and Rockets e: 50 % of 5 targets, "every other one", reads 3 or 2
    doc = json.loads(run("compute", "aa_rules/cannon_targets", "--set", "targets_in_area=5", "--format", "json").output)
    assert doc["value"] == 3
    [every_other] = doc["inconsistencies"]
    assert (every_other["kind"], every_other["id"]) == ("ambiguous", "every_other_one")
    assert every_other["readings"] == ["every other one from the first: half rounded up", "half rounded down"]


def test_a_roll_without_a_row_names_the_book_example_that_reads_it(tmp_path: Path) -> None:
    # IA2 10.6.1: the example reads 79 on R7's 1944 late column as Veteran 1 Skill; the printed column
    # stops at 73-78, so chartc selects no row and says where the book reads otherwise
    from click.testing import CliRunner

    from compiler.cli import cli
    from tests.conftest import ROOT

    args = ["lookup", "ia2/R7", "79", "--key", "period=1944-07", "--charts", str(ROOT / "charts")]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: roll 79 selects no row of ia2/R7, period `1944 late`")
    assert lines[1] == (
        "  The book's example (10.6.1) gives otherwise: 10.6.1: 79 on R7, 1944 late: Veteran with 1 skill"
    )


def test_a_record_lookup_lists_the_inconsistencies_about_its_records(run) -> None:
    # IA2 9.1 prints "Bf 109 (18 aircraft)"; 11.1 names 16 sub-types: in full for the Bf 109's record
    text = run("lookup", "ia2/family", "--key", "family=bf109").output
    assert "  The book disagrees with itself: How many Bf 109s\n    9.1: Bf 109 (18 aircraft)\n" in text
    # ... the FW 190's record is not one of its places: named in one line
    text = run("lookup", "ia2/family", "--key", "family=fw190").output
    assert text.splitlines()[-1] == (
        "  Also unclear in the book about this record set: How many Bf 109s (--format json lists each)"
    )
    doc = json.loads(run("lookup", "ia2/family", "--format", "json").output)
    assert [i["id"] for i in doc["inconsistencies"]] == ["bf109_count"]
