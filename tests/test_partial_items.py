"""Items of docs/coverage/*.md that issue 30's pass over the partial items made data: the book's
inconsistencies in words as `conflict` blocks (IA2 10.16, 9.4, 8.2, 7.12; Stuka Leader's Bail Out
cross-references and Promotion number) and the player's choices as `one of` cells (Stuka Leader's
Legendary decision, the HO OR Pilot notation, an Event card's penalty instead of SO). Each is read
as a player or `chartc check` reads it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from compiler.build.project import Compilation
from tests.conftest import CHARTS, compile_text


def _c481(corpus: Compilation, game: str) -> dict[str, str]:
    return {
        d.message.split("`")[1]: d.message
        for d in corpus.diagnostics
        if d.code == "C481" and d.span.file.startswith(f"charts/{game}/")
    }


def test_ia2_conflicts_cite_every_place(corpus: Compilation) -> None:
    found = _c481(corpus, "ia2")
    # 10.16: "(from 0 to 3, maximum)" and "Add a +1 drm to the Flak attack roll": 6 + 1 - 3 is 4
    assert "(3); 10.16 (Dutch A/F Objective Area box, line 1071) says" in found["bodenplatte_flak_maximum"]
    assert found["bodenplatte_flak_maximum"].endswith("(4); kept as printed: bodenplatte_flak adds the drm to "
                                                      "the die before the 3 is subtracted and keeps the 3 maximum: "
                                                      "a 6 with the IFF hit is 3 hits")
    # 9.4 (line 655): "the same family which he started on" / "the same family he was previously flying"
    assert "(the family he started on); 9.4 (line 655) says" in found["injury_family"]
    # 8.2 (line 619) names an "Aircraft Availability Chart"; 4.6.4 rolls R2 then R3
    assert "(Aircraft Availability Chart); 4.6.4 (lines 204-212) says" in found["availability_chart_name"]
    # 7.8.5/7.8.6: the Bronze clasp after 20 flights and the German Cross after 20 points; 7.12: Level 5
    assert "(7); 7.12 (lines 581-583) says" in found["mann_prestige_awards"]
    assert "(5); kept as printed" in found["mann_prestige_awards"]


def test_the_ia2_flak_reading_kept_is_what_lookup_answers(run) -> None:
    # IA2 10.16, the reading the conflict keeps: a 6 with the FuG25 IFF hit is 6 + 1 - 3 = 4, at most 3
    six = json.loads(run("lookup", "ia2/bodenplatte_flak", "6", "--when", "iff_hit", "--json").output)
    assert six["values"]["hits"] == 3
    # without the IFF hit a 3 is 0 hits ("1d6 and subtract 3")
    three = json.loads(run("lookup", "ia2/bodenplatte_flak", "3", "--json").output)
    assert three["values"]["hits"] == 0


def test_stuka_leader_conflicts_cite_every_place(corpus: Compilation) -> None:
    found = _c481(corpus, "stuka_leader")
    # L394 "See the Dogfighting section", L573 "(see page 19)", the Bail Out! section L234-L248
    places = r"\(Dogfighting\); L573 says .*\(page 19\); L234-L248 says .*\(Bail Out!\)"
    assert re.search(places, found["bail_out_section"])
    # Debriefing 26: L627 "the Promotion number for the new Level", the L629 example's 5 to reach Green
    assert "(the new Level's Promotion number); Debriefing 26 example (L629) says" in found["promotion_xp_deducted"]


def test_a_conflict_in_words_without_kept_warns(tmp_path: Path) -> None:
    # the declaration as charts/ia2 writes it, without its `kept`: C480, a warning, until the data decides
    text = (CHARTS / "ia2" / "conflicts.chart").read_text(encoding="utf-8")
    block = re.search(r'^conflict bodenplatte_flak_maximum .*?^}\n', text, re.S | re.M)
    assert block is not None
    unkept = "\n".join(line for line in block.group(0).splitlines() if not line.strip().startswith("kept "))
    comp = compile_text(tmp_path, 'game t { title "T" }\n' + unkept + "\n")
    assert [(d.code, d.severity.value) for d in comp.diagnostics] == [("C480", "warning")]


def test_stuka_leader_choices_are_offered(run) -> None:
    # L196, L624: "immediately decide whether to keep him or \"trade\" him for a Newbie and gain +3 VP"
    veteran = json.loads(run("lookup", "stuka_leader/promotion", "--key", "pilot_rank=veteran", "--json").output)
    assert veteran["values"]["next"] == "legendary"
    options = ["Keep him (Legendary)", "Trade him for a Newbie and gain +3 VP"]
    assert veteran["values"]["decision"] == {"choice": options}
    green = json.loads(run("lookup", "stuka_leader/promotion", "--key", "pilot_rank=green", "--json").output)
    assert (green["values"]["next"], green["values"]["decision"]) == ("average", None)
    # L597: "all Pilots in your Squadron regain any Horrido uses ..., OR you may choose to add a Pilot"
    out = run("lookup", "stuka_leader/key_terms", "--key", "key_term=ho_or_pilot").output
    assert ("When the Target is Destroyed: your choice of All Pilots regain expended Horrido uses or Add a Pilot "
            "of the specified Skill to your Squadron") in out
    # L178: "Some Event cards give you an option to suffer a penalty rather than pay SO points"
    out = run("lookup", "stuka_leader/so_rules", "--key", "so_rule=event_penalty").output
    assert "Your choice: your choice of Pay the SO points or Suffer the penalty" in out
    # HO AND Pilot gives both: no choice
    out = run("lookup", "stuka_leader/key_terms", "--key", "key_term=ho_and_pilot").output
    assert "your choice" not in out
