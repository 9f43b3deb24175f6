"""Records a player can read: `chartc lookup GAME/ENUM [--key ENUM=VALUE]` and `chartc list`'s record
sets, over the book's reference data (enums with fields)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from compiler.cli import cli
from tests.conftest import ROOT


@pytest.fixture()
def run(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("CHARTC_CHARTS", raising=False)

    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="chartc")

    return invoke


def _fields(output: str) -> dict[str, str]:
    """`  Label: value` lines as {label: value}."""
    out = {}
    for line in output.splitlines()[1:]:
        label, sep, value = line.strip().partition(": ")
        if sep:
            out[label.rstrip(":").strip()] = value.strip()
    return out


def test_a_jet_ace_record_by_its_id(run) -> None:
    r = run("lookup", "ia2/jet_ace", "--key", "jet_ace=baer")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "ia2/jet_ace Historical Jet Ace (rule 10.4)"
    fields = _fields(r.output)
    # IA2 10.4: Bär starts a Major with 191 kills, Parachute, A.C.M. and Aim, 3 Prestige Points, Level 7
    assert fields["jet_ace"] == 'Major Heinrich "Pritzl" Bär'
    assert fields["Starting Rank"] == "Major"  # an enum reference printed by its label, not `major`
    assert fields["Starting Kills"] == "191"
    assert fields["Starting Skills"] == "Parachute, A.C.M., Aim"
    assert fields["Prestige Points"] == "3"
    assert fields["Prestige Level"] == "7"


def test_a_record_by_its_printed_name_or_aka(run) -> None:
    # IA2 11.7: the Me 262A-1a is a jet of the Me 262 family, available from July 1944; 7.2.2.9: not agile
    r = run("lookup", "ia2/aircraft", "--key", "aircraft=Me 262A-1a")
    assert r.exit_code == 0, r.output
    fields = _fields(r.output)
    assert fields["Family"] == "Me 262"
    assert fields["Available from"] == "7/44"  # the month as R1-R3 print it
    assert fields["Engine"] == "Jet or Rocket"
    assert fields["Agile (7.2.2.9)"] == "no"  # a flag reads yes/no
    assert fields["Prestige Level needed"] == "-"  # left out: printed on the mats, not in the rules
    # 9.5 prints the /U3/R6 as "Bf109G-6/U3/R6", an `aka` of the record
    aka = run("lookup", "ia2/aircraft", "--key", "aircraft=Bf109G-6/U3/R6")
    assert aka.exit_code == 0 and _fields(aka.output)["aircraft"] == "Bf 109G-6/U3/R6"


def test_the_whole_record_set_is_a_table_in_the_order_of_the_source(run) -> None:
    r = run("lookup", "ia2/family")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "ia2/family Aircraft family (rule 9.1)"
    assert lines[1].split() == ["Aircraft", "family", "Aircraft", "(9.1)"]
    # IA2 9.1: "Bf 109 (18 aircraft)", "FW 190 (12 aircraft)", ... "Go 229 (1 aircraft)"
    rows = [line.rsplit(None, 1) for line in lines[2:12]]
    assert rows[0] == ["  Bf 109", "18"] and rows[1] == ["  FW 190", "12"] and rows[-1] == ["  Go 229", "1"]
    # 4.6.4: "There are ten main families of aircraft"; then 9.1's 18 Bf 109s against 11.1's sub-types
    assert lines[12] == "  The book disagrees with itself: How many Bf 109s"


def test_a_wide_set_cuts_its_cells_and_says_how_to_see_them_whole(run) -> None:
    r = run("lookup", "usaaf/german_aircraft")
    assert r.exit_code == 0, r.output
    # USAAF 22.8: no Me262 production before Game Turn 4 (a period, by its label)
    me262 = next(line for line in r.output.splitlines() if line.strip().startswith("Me262"))
    assert "Game Turn 4" in me262 and "…" in me262
    assert "--key german_aircraft=VALUE or --format json prints them whole" in r.output


def test_a_wrong_record_is_a_usage_error_with_did_you_mean(run) -> None:
    r = run("lookup", "ia2/family", "--key", "family=bf19")
    assert r.exit_code == 2
    assert "`bf19` is not a value of key `family`; did you mean `bf109`?" in r.output
    wrong_key = run("lookup", "ia2/family", "--key", "aircraft=bf109")
    assert wrong_key.exit_code == 2 and "name one with `--key family=VALUE`, not `aircraft`" in wrong_key.output
    rolled = run("lookup", "ia2/family", "3")
    assert rolled.exit_code == 2 and "`family` is a set of records: it takes no roll" in rolled.output
    near = run("lookup", "ia2/famly")
    assert near.exit_code == 2 and "did you mean `family`?" in near.output


def test_odds_on_a_record_set_points_to_lookup(run) -> None:
    r = run("odds", "ia2/family")
    assert r.exit_code == 2
    said = "`family` is a set of records of game `ia2`, not a chart: chartc lookup ia2/family --key family=VALUE"
    assert said in r.output


def test_lookup_json_holds_values_and_their_printed_text(run) -> None:
    r = run("lookup", "usaaf/target_system", "--key", "target_system=Ball Bearing", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["records"] == "target_system" and doc["rule"] == "25.0" and doc["selected"] == "bb"
    (bb,) = doc["members"]
    # USAAF 25.0's footer: BB needs 30 points; 22.4: its destruction halves German aircraft production
    assert bb["values"] == {"points_needed": 30, "halves_production": True}
    assert bb["text"] == {"points_needed": "30", "halves_production": "yes"}
    whole = json.loads(run("lookup", "ia2/base", "--format", "json").output)
    assert whole["selected"] is None and len(whole["members"]) == 36  # 4.6.2's 35 bases and 10.15.2's Vitry
    assert whole["members"][0]["values"] == {"zone": "dutch", "listed": "4.6.2"}
    assert whole["members"][0]["text"]["zone"] == "Dutch Bases"


def test_list_names_each_record_set_with_its_records_and_fields(run) -> None:
    r = run("list", "ia2")
    lines = {line.split()[0]: line for line in r.output.splitlines()}
    assert "Aircraft family" in lines["ia2/family"] and "9.1" in lines["ia2/family"]
    assert re.search(r"10 records: aircraft +records$", lines["ia2/family"].rstrip())
    entries = json.loads(run("list", "--json", "ia2").output)
    aces = next(e for e in entries if e["address"] == "jet_ace")
    # IA2 10.4: eight Jet Aces
    assert aces["status"] == "records" and aces["records"] == 8 and aces["rule"] == "10.4"
    assert aces["fields"][:3] == ["born", "died", "units"] and "starting_kills" in aces["fields"]
    assert not any(e["address"] == "interceptor" for e in entries)  # an enum without fields is no record set


# ---- the player aid's rules reference ------------------------------------------------------------


def _reference(html: str) -> str:
    return html[html.index('id="reference"'):]


def test_the_rules_reference_prints_each_record_set_after_the_charts(corpus_outputs) -> None:
    html = corpus_outputs()["ia2/ia2.html"]
    aid, reference = html[: html.index('id="reference"')], _reference(html)
    assert "records-" not in aid  # the aid proper (before the divider) holds no record table
    # IA2 4.6.2, 9.1, 10.4 and section 11: bases, families, Jet Aces and aircraft, in the source's order
    opening = r'<div class="records" id="records-(\w+)" role="region" aria-label="[^"]*">\n<h2 class="group">([^<]+)'
    headings = re.findall(opening, reference)
    assert [label.strip() for _, label in headings] == [
        "Historical Jet Ace", "Jet Ace&#39;s unit", "Tour of Duty", "Historical Mission", "Base",
        "Aircraft family", "Aircraft type", "Aircraft", "Rank", "Raid target",
    ]
    family = reference[reference.index('id="records-family"'):]
    family = family[: family.index("</table></div>\n</div>")]
    assert "(rule 9.1)" in family
    assert "<th scope=\"col\">Aircraft family</th><th scope=\"col\">Aircraft (9.1)</th>" in family
    # 9.1: "Bf 109 (18 aircraft)"; "Me 262 (2 aircraft)"
    assert '<tr><th scope="row">Bf 109</th><td>18</td></tr>' in family
    assert '<tr><th scope="row">Me 262</th><td>2</td></tr>' in family


def test_a_record_table_prints_labels_and_the_books_forms_never_ids(corpus_outputs) -> None:
    reference = _reference(corpus_outputs()["ia2/ia2.html"])
    aircraft = reference[reference.index('id="records-aircraft"'):]
    aircraft = aircraft[: aircraft.index("</table></div>\n</div>")]
    # 11.7: the Me 262A-1a, a jet of the Me 262 family (type Me 262A-1), available from July 1944
    row = re.search(r'<tr><th scope="row">Me 262A-1a</th>(.*?)</tr>', aircraft)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    assert cells[:5] == ["Me 262", "Me 262A-1", "7/44", "Jet or Rocket", "-"]
    assert "me262a1a" not in aircraft and ">me262<" not in aircraft and ">jet<" not in aircraft


def test_a_wide_record_set_is_split_into_tables_by_groups_of_fields(corpus_outputs) -> None:
    reference = _reference(corpus_outputs()["ia2/ia2.html"])
    aces = reference[reference.index('id="records-jet_ace"'):]
    aces = aces[: aces.index("</table></div>\n</div>")]
    tables = aces.split('<div class="scroll"><table class="records">')[1:]
    assert len(tables) > 1  # the fourteen fields of 10.4 do not fit one A4 table
    heads = [re.findall(r'<th scope="col">([^<]+)</th>', t) for t in tables]
    assert all(h[0] == "Historical Jet Ace" for h in heads)  # each table repeats the pilots' names
    fields = [label for h in heads for label in h[1:]]
    assert fields[0] == "Born" and "Starting Kills" in fields and len(fields) == 14
    # 10.4: Bär starts with 191 kills
    kills = next(t for t in tables if "Starting Kills" in t)
    column = re.findall(r'<th scope="col">([^<]+)</th>', kills).index("Starting Kills")
    baer = re.search(r'<tr><th scope="row">Major Heinrich &#34;Pritzl&#34; Bär</th>(.*?)</tr>', kills)
    assert baer is not None and re.findall(r"<td>(.*?)</td>", baer.group(1))[column - 1] == "191"


# ---- the generated Python module -------------------------------------------------------------------


def test_the_generated_module_exposes_each_record_set(tmp_path) -> None:
    script = tmp_path / "read_records.py"
    script.write_text(
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'generated' / 'ia2')!r})\n"
        f"sys.path.insert(0, {str(ROOT / 'generated' / 'usaaf')!r})\n"
        "import ia2, usaaf\n"
        "print(json.dumps({\n"
        "    'family': ia2.RECORDS['aircraft']['me262a1a']['family'],\n"
        "    'available': ia2.AIRCRAFT_RECORDS['me262a1a']['available'],\n"
        "    'kills': ia2.JET_ACE_RECORDS['baer']['starting_kills'],\n"
        "    'rank': ia2.JET_ACE_RECORDS['baer']['rank'],\n"
        "    'prestige': ia2.RECORDS['aircraft']['fw190a8r8']['prestige'],\n"
        "    'left_out': ia2.RECORDS['aircraft']['me262a1a']['prestige'],\n"
        "    'label': ia2.RECORD_FIELDS['jet_ace']['starting_kills'],\n"
        "    'bb': usaaf.TARGET_SYSTEM_RECORDS['bb'],\n"
        "    'sets': sorted(ia2.RECORDS),\n"
        "}))\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    got = json.loads(done.stdout)
    assert got["family"] == "me262" and got["available"] == "1944-07"  # IA2 11.7
    assert got["kills"] == 191 and got["rank"] == "major"  # IA2 10.4: Bär, a Major with 191 kills
    assert got["prestige"] == 3  # IA2 8.2: the FW 190A-8/R8 needs Prestige Level 3
    assert got["left_out"] is None and got["label"] == "Starting Kills"
    assert got["bb"] == {"points_needed": 30, "halves_production": True}  # USAAF 25.0, 22.4
    assert got["sets"] == sorted([
        "jet_ace", "ace_posting", "tour", "mission", "base", "family", "aircraft_type", "aircraft", "rank",
        "raid_target",
    ])
