"""Records a player can read: `chartc lookup GAME/ENUM [--key ENUM=VALUE]` and `chartc list`'s record
sets, over the book's reference data (enums with fields)."""

from __future__ import annotations

import json
import re

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
    rows = [line.rsplit(None, 1) for line in lines[2:]]
    assert rows[0] == ["  Bf 109", "18"] and rows[1] == ["  FW 190", "12"] and rows[-1] == ["  Go 229", "1"]
    assert len(rows) == 10  # 4.6.4: "There are ten main families of aircraft"


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
