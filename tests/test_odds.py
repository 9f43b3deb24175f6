"""The exact outcome model of `compiler.engine.chances`: row chances, expected values, and the checks built on it."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from compiler.engine.chances import (
    chances,
    drm_totals,
    drm_values,
    expected_value,
    percent_text,
    reachable_rolls,
    row_chances,
    unreachable_rows,
)
from tests.conftest import codes, compile_text

HEADER = 'game t { title "T" }\n'

# Charts for which a modified roll in the declared DRM span selects no row although the chart is not
# declared partial: each one is a print defect the checker reports as C305.
# (IA2 10.16 Bodenplatte flak is not one: its +1 IFF drm is added to the die before "subtract 3",
# and the result stays "from 0 to 3, maximum", so a 6 + 1 - 3 = 4 reads 3 hits.)
KNOWN_OFF_TABLE: dict[tuple[str, str, tuple[str, ...], int], F] = {}
# As printed, two more charts lose rolls off their ends; charts/ia2/errata.chart corrects both.
KNOWN_OFF_TABLE_AS_PRINTED = {
    **KNOWN_OFF_TABLE,
    # IA2 R4 footnote 1: the +1 F/B Attack DRM turns a natural 6 into 7; the printed rows stop at 6
    ("ia2", "R4", ("piston",), 1): F(1, 6),
    ("ia2", "R4", ("jet",), 1): F(1, 6),
    # IA2 7.9.1: the Gruppe Leader's -1 DRM turns a natural 1 into 0, below the printed 1-2 and 1-4
    ("ia2", "R4", ("piston",), -1): F(1, 6),
    ("ia2", "R4", ("jet",), -1): F(1, 6),
    # IA2 7.9.3 promotion: printed 1-4 promoted, other rolls fail; with the -1/-2 award DRMs and -1 per
    # 10 kills (0-99 kills: down to -9) a modified roll reaches 0 and below: a DRM of -d loses the
    # natural rolls 1..d (all six from -6 on)
    **{("ia2", "promotion", (), -d): F(min(d, 6), 6) for d in range(1, 15)},
    # IA2 7.8.7 Knight's Cross: printed "1" succeeds; -1 per succeeding point (0-39) likewise
    **{("ia2", "knights_cross", (), -d): F(min(d, 6), 6) for d in range(1, 40)},
}


def _chart(tmp_path: Path, text: str, address: str = "R1"):
    comp = compile_text(tmp_path, HEADER + text)
    return comp, comp.project.games["t"].chart(address)


@pytest.mark.parametrize("view", ["corpus", "corpus_as_printed"])
def test_every_corpus_chart_sums_to_one_or_is_declared_partial(view, request) -> None:
    corpus = request.getfixturevalue(view)
    off_table = {}
    checked: dict[str, int] = {}
    for game in corpus.project.games.values():
        for chart in game.charts:
            if chart.kind != "roll":
                continue
            for combo, drm, probabilities, no_row in row_chances(chart):
                checked[f"{game.id}/{chart.address}"] = checked.get(f"{game.id}/{chart.address}", 0) + 1
                assert sum(probabilities) + no_row == 1  # exact: Fractions, no rounding
                if sum(probabilities) != 1 and not chart.partial:
                    off_table[(game.id, chart.address, combo, drm)] = no_row
    # IA2: R4 2 keys x DRM -1..1 (7.9.1 Gruppe Leader -1, footnote 1 F/B Attack +1), R5 3 keys, R7 and
    # R8 5 periods, R9 DRM 0..2, extended burst
    assert [checked[a] for a in ("ia2/R4", "ia2/R5", "ia2/R7", "ia2/R8", "ia2/R9", "ia2/extended_burst")] == [
        6,
        3,
        5,
        5,
        3,
        1,
    ]
    assert off_table == (KNOWN_OFF_TABLE if view == "corpus" else KNOWN_OFF_TABLE_AS_PRINTED)


def test_partial_chart_misses_exactly_its_untranscribed_rows(ia2) -> None:
    # IA2 R7 (10.6), "1944 late" column: rows stop at Veteran 1 Skill 73-78, so 79-00 (22 results) select no row
    r7 = ia2.chart("R7")
    result = chances(r7, ("late_1944",), 0)
    assert result.no_row == F(22, 100)
    assert [(ro.row.range.printed, ro.probability) for ro in result.rows] == [
        ("01-03", F(3, 100)), ("04-56", F(53, 100)), ("57-72", F(16, 100)), ("73-78", F(6, 100)),
    ]


def test_r9_chances_natural_and_with_strafe(ia2) -> None:
    # IA2 R9 (10.16): 1-5 Miss 0, 6-15 Hit 1, 16-19 Direct 2, 20+ Vital 3; +2 drm for a strafe attack
    r9 = ia2.chart("R9")
    assert drm_values(r9) == [0, 1, 2] and drm_totals(r9) == [0, 2]
    natural = chances(r9, (), 0)
    assert [ro.probability for ro in natural.rows] == [F(5, 20), F(10, 20), F(4, 20), F(1, 20)]
    strafe = chances(r9, (), 2)
    # natural 18-20 +2 -> 20+ Vital; natural 1-3 -> 3-5 Miss
    assert [ro.probability for ro in strafe.rows] == [F(3, 20), F(10, 20), F(4, 20), F(3, 20)]
    assert strafe.no_row == 0 and list(strafe.modified) == list(range(3, 23))
    points = r9.columns[1]
    assert expected_value(r9, natural, points) == F(21, 20)  # 0*5/20 + 1*10/20 + 2*4/20 + 3*1/20
    assert expected_value(r9, strafe, points) == F(27, 20)  # 0*3/20 + 1*10/20 + 2*4/20 + 3*3/20
    assert expected_value(r9, strafe, r9.columns[0]) is None  # a text column has no mean


def test_2d6_chart_chances_by_row(ia2) -> None:
    # IA2 7.1.13 Extended Burst, 2d6: 2 Target DE at 1/36, 7 +1 hit at 6/36, 12 all weapons jam at 1/36
    result = chances(ia2.chart("extended_burst"), (), 0)
    assert [ro.probability for ro in result.rows] == [F(6 - abs(k - 7), 36) for k in range(2, 13)]


def test_d10_chart_reads_zero_as_ten(ia2) -> None:
    # IA2 10.6.1 Allied Fighter Skills, 1d10: 9-0 Sixth Sense holds 9 and 10 -> 2/10
    result = chances(ia2.chart("allied_fighter_skills"), (), 0)
    assert [ro.probability for ro in result.rows] == [F(1, 5)] * 5


def test_d66_band_covers_12_results_not_16(tmp_path: Path) -> None:
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "Bands" { roll d66 column r: text rows { 11-26: "low" 31-46: "middle" 51-66: "high" } }\n',
    )
    assert codes(comp) == []  # no gap: 27-30 and 47-50 are not d66 results
    assert [ro.probability for ro in chances(chart, (), 0).rows] == [F(12, 36)] * 3


def test_d66_overlap_and_reach_use_real_outcomes(tmp_path: Path) -> None:
    # `11-29` and `27-46` meet on 27-29, which no d66 roll produces: no overlap; `17-19` holds no result
    comp, chart = _chart(
        tmp_path,
        'chart [R1] "Bands" { roll d66 column r: text rows { 11-29: "a" 27-46: "b" 17-19: "never" 51-66: "c" } }\n',
    )
    assert codes(comp) == ["C306"]
    assert [r.range.printed for r in unreachable_rows(chart)] == ["17-19"]
    assert chances(chart, (), 0).rows[2].probability == 0
    overlap, _ = _chart(
        tmp_path / "o",
        'chart [R1] "Bands" { roll d66 column r: text rows { 11-31: "a" 31-46: "b" 51-66: "c" } }\n',
    )
    assert codes(overlap) == ["C301"]  # 31 is a real d66 result selected by both rows
    assert "both select 31)" in overlap.diagnostics[0].message


def test_unreachable_row_is_judged_under_every_declared_drm(tmp_path: Path) -> None:
    # 1d6 with a row 8: a +2 DRM reaches it (natural 6), a +1 DRM never does
    text = 'chart [R1] "X" {{ roll 1d6 column r: text drm d {drm} rows {{ 1-3: "a" 4-7: "b" 8+: "c" }} }}\n'
    reached, chart = _chart(tmp_path / "a", text.format(drm="+2"))
    assert "C306" not in codes(reached) and unreachable_rows(chart) == []
    assert reachable_rolls(chart) == list(range(1, 9))
    never, chart = _chart(tmp_path / "b", text.format(drm="+1"))
    assert codes(never) == ["C306"]
    assert [r.range.printed for r in unreachable_rows(chart)] == ["8+"]


def test_clamp_limits_the_drm_totals(tmp_path: Path) -> None:
    _, chart = _chart(
        tmp_path,
        'chart [R1] "X" { roll 2d6 column r: text drm a +2 drm b +3 drm c -1 combine sum clamp -1 to +4 '
        'rows { 2-: "a" 3-11: "b" 12+: "c" } }\n',
    )
    # subsets: 0, 2, 3, -1, 5, 1, 2, 4 -> clamped to -1..+4
    assert drm_totals(chart) == [-1, 0, 1, 2, 3, 4]
    assert drm_values(chart) == [-1, 0, 1, 2, 3, 4]


def test_percent_text_is_exact_when_it_can_be() -> None:
    assert percent_text(F(3, 20)) == "15%"  # float(3/20) * 100 is 15.000000000000002
    assert percent_text(F(1, 36)) == "2.8%"
    assert percent_text(F(0)) == "0%" and percent_text(F(1)) == "100%"


def test_flak_hits_expected_value(tmp_path: Path) -> None:
    # IA2 7.1.5 flak: "roll 1d6 and subtract 3", minimum 0 -> 0 hits on 1-3, then 1, 2, 3 hits
    _, chart = _chart(
        tmp_path, 'chart [R1] "Flak" { roll 1d6 minus 3 min 0 column hits: int rows { 0: 0 1: 1 2: 2 3: 3 } }\n'
    )
    result = chances(chart, (), 0)
    assert [ro.probability for ro in result.rows] == [F(1, 2), F(1, 6), F(1, 6), F(1, 6)]
    assert expected_value(chart, result, chart.columns[0]) == F(1)  # (0*3 + 1 + 2 + 3) / 6
