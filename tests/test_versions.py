"""Statute tracking: the timeline, point-in-time sections, redlines, change reports, amending acts.

Dates used: file 000 is known in force 2002-07-01 to 2006-01-01 (manifest, inferred); file 001 (§ 89-b)
from 2022-07-21; file 002 (§ 89-a(4), (7), (8)) known from 2022-01-01; the corpus has no text of the
provisions these replace between 2006 and then. The acts in tests/acts/ were written for these tests.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

import navlaw_fees as nf
from navlaw.frontend import acts as A
from navlaw.cli import main

from .conftest import CORPUS, load_module

ACTS = Path(__file__).resolve().parent / "acts"
D = Decimal


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


# ---- point in time, the real corpus ---------------------------------------------------------------------

def test_show_89b_inside_file_000_window_gives_the_old_text(capsys):
    code, out, _ = run(capsys, "show", "89-b", "--on", "2004-06-01", "--corpus", str(CORPUS))
    assert code == 0
    out = " ".join(out.split())
    assert "five dollars and thirty cents per pilotage unit" in out  # file 000 § 89-b(4)(b)(1)
    assert "89-b: nav-law.consolidated.txt" in out


def test_show_89b_in_2026_gives_file_001(capsys):
    code, out, _ = run(capsys, "show", "89-b", "--on", "2026-06-01", "--corpus", str(CORPUS))
    out = " ".join(out.split())
    assert code == 0 and "ten dollars and eighty-nine cents" in out and "089-b.2022.txt" in out
    assert "five dollars and thirty cents" not in out


def test_show_89b_in_the_gap_says_no_text_is_known(capsys):
    code, out, err = run(capsys, "show", "89-b", "--on", "2010-06-01", "--corpus", str(CORPUS))
    assert code == 1 and out == ""
    assert "no text of 89-b in this corpus is known to be in force on 2010-06-01" in err
    assert "known until 2006-01-01" in err and "2022-07-21" in err


def test_show_89a_mixes_subdivision_1_from_000_and_4_from_002(capsys):
    code, out, _ = run(capsys, "show", "89-a", "--on", "2026-06-01", "--corpus", str(CORPUS), "--format", "json")
    data = json.loads(out)
    sources = {s["id"]: s["file"] for s in data["sources"]}
    assert sources["89-a"] == "nav-law.consolidated.txt" and sources["89-a/4"] == "089-a.4-7-8.txt"
    sub = {c["id"]: c for c in data["section"]["children"]}
    assert sub["89-a/1"]["text"].startswith("Every foreign vessel")
    assert "(vii)" in json.dumps(sub["89-a/4"])  # the 2022 schedules come with 002's subdivision 4


def test_show_89a_in_the_gap_marks_subdivision_4_unknown(capsys):
    code, out, _ = run(capsys, "show", "89-a", "--on", "2010-06-01", "--corpus", str(CORPUS))
    out = " ".join(out.split())
    assert code == 0
    assert "[no text of 89-a/4 in this corpus is known to be in force on 2010-06-01" in out
    assert "1. Every foreign vessel" in out  # subdivision 1: no later text replaces it


def test_show_rule_by_its_number(capsys):
    code, out, _ = run(capsys, "show", "55.2", "--on", "2026-06-01", "--corpus", str(CORPUS))
    assert code == 0 and "Zone 2 Base Rate" in out


def test_fee_module_follows_the_timeline():
    # inside file 000's window: its rates (§ 89-b: 300 × $5.30; § 89-a Section 2: 300 × $13.33;
    # § 88 table (iv), "Effective July first, two thousand two": 300 × 7.01 = 2,103.00 + 7.5% 157.725 → 157.73)
    assert nf.quote("long-island-sound", units=300, on=dt.date(2004, 6, 1)).total == D("1590.00")
    assert nf.quote("hudson-upper", units=300, on=dt.date(2004, 6, 1)).total == D("3999.00")
    assert nf.quote("sandy-hook", units=300, on=dt.date(2004, 6, 1)).total == D("2260.73")
    # § 89-b(4)(b)(2) of file 000: minimum 100, maximum 450 units: 80 → 100 × 5.30; 500 → 450 × 5.30
    assert nf.quote("long-island-sound", units=80, on=dt.date(2004, 6, 1)).total == D("530.00")
    assert nf.quote("long-island-sound", units=500, on=dt.date(2004, 6, 1)).total == D("2385.00")
    # in the gap: a FeeError that names it
    with pytest.raises(nf.FeeError) as e:
        nf.quote("long-island-sound", units=300, on=dt.date(2010, 6, 1))
    assert "known in force until 2006-01-01; the corpus has no text of it from then until 2022-07-21" in str(e.value)
    # after: the new rates
    assert nf.quote("long-island-sound", units=300, on=dt.date(2026, 6, 1)).total == D("3267.00")


# ---- redlines and change reports ---------------------------------------------------------------------------

def test_diff_is_word_level_and_provision_aware(capsys):
    code, out, _ = run(capsys, "diff", "89-b", "--from", "2004-06-01", "--to", "2026-06-01", "--corpus", str(CORPUS))
    assert code == 0
    assert "89-b/4/b/1 (changed): (1) Upon the effective date of this paragraph and thereafter: All vessels shall pay " \
           "[-five-] {+eight+} dollars and [-thirty-] {+eighty-six" in out
    assert "89-b/4/b/2 (changed):" in out and "[-one-] {+two+} hundred pilotage units" in out
    assert "unchanged provision" in out


def test_diff_html_is_escaped_and_json_lists_changes(capsys):
    code, out, _ = run(capsys, "diff", "89-b", "--from", "2004-06-01", "--to", "2026-06-01", "--format", "html",
                       "--corpus", str(CORPUS))
    assert "<del>five</del>" in out and "<ins>eight</ins>" in out
    code, out, _ = run(capsys, "diff", "89-b", "--from", "2004-06-01", "--to", "2026-06-01", "--format", "json",
                       "--corpus", str(CORPUS))
    changes = json.loads(out)["changes"]
    assert {c["id"] for c in changes} >= {"89-b/4/b/1", "89-b/4/b/2", "89-b/4/c", "89-b/4/d"}


def test_change_report_in_words(capsys):
    code, out, _ = run(capsys, "changes", "--from", "2025-06-01", "--to", "2026-06-01", "--corpus", str(CORPUS))
    assert code == 0
    assert "§ 89-b(4)(b)(1): from 2026-01-01 the rate is $10.89 per pilotage unit (was $10.58 per pilotage unit)." in out
    assert "§ 88(4)(b)(1)(ii)(1)(A)(v): from 2026-01-01 the rate table changes — 0 to 24.99: $900 (was $874)" in out
    code, out, _ = run(capsys, "changes", "--from", "2016-09-01", "--to", "2016-11-01", "--corpus", str(CORPUS))
    assert ("21 NYCRR § 55.2(a): from 2016-10-01, the $75/$150/$200/$300 fees are replaced by 5% per hour of the "
            "Zone 2 Base Rate, up to 35%.") in out


# ---- amending acts ------------------------------------------------------------------------------------------

ACT_ENTRIES = {
    "lis-rates-2028.txt": "2027-06-15",
    "hudson-and-repeal.txt": "2027-03-01",
    "bad-act.txt": "2027-04-01",
}


def corpus_with(tmp_path: Path, *acts: str) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        for name in acts:
            shutil.copy(ACTS / name, root / name)
            m.write(f'\n[[document]]\nfile = "{name}"\nkind = "act"\nbecame_law = {ACT_ENTRIES[name]}\n'
                    f'status = "in-force"\nsource = "test act"\nconfidence = "verified"\n')
    return root


@pytest.fixture(scope="module")
def amended(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("acts")
    root = corpus_with(tmp, "lis-rates-2028.txt", "hudson-and-repeal.txt")
    assert main(["build", "--corpus", str(root), "--out", str(tmp / "build"),
                 "--module", str(tmp / "fees_amended")]) == 0
    return root, tmp, load_module(tmp / "fees_amended", "fees_amended")


def test_act_rate_change_applies_only_from_its_effective_date(amended):
    _, _, fees = amended
    # before 2028-01-01: $11.22 (file 001); from it: $11.56 (the act, "take effect on January 1, 2028");
    # the § 89-b(4)(b)(2) minimum of 200 units still applies: 150 → 200 × 11.56 = 2,312.00
    assert fees.quote("long-island-sound", units=350, on=dt.date(2027, 12, 31)).total == D("3927.00")
    assert fees.quote("long-island-sound", units=350, on=dt.date(2028, 1, 1)).total == D("4046.00")
    assert fees.quote("long-island-sound", units=150, on=dt.date(2028, 6, 1)).total == D("2312.00")
    assert fees.quote("long-island-sound", units=300, on=dt.date(2028, 6, 1), miles=10).total == D("2312.00")


def test_act_change_report_and_show(amended, capsys):
    root, _, _ = amended
    code, out, _ = run(capsys, "changes", "--from", "2027-12-31", "--to", "2028-01-01", "--corpus", str(root))
    assert "§ 89-b(4)(b)(1): from 2028-01-01 the rate is $11.56 per pilotage unit (was $11.22 per pilotage unit)." in out
    assert "{+until January first, two thousand twenty-eight+}" in out
    code, out, _ = run(capsys, "show", "89-a", "--on", "2027-06-01", "--corpus", str(root))
    out = " ".join(out.split())
    assert "9. The board of commissioners of pilots shall publish the rates" in out
    assert "89-a/9: hudson-and-repeal.txt — effective 2027-05-30" in out  # 90 days after 2027-03-01
    code, out, _ = run(capsys, "show", "89-a", "--on", "2027-05-29", "--corpus", str(root))
    assert "9. The board" not in out
    code, _, err = run(capsys, "show", "88-a", "--on", "2027-06-01", "--corpus", str(root))
    assert code == 1 and "§ 88-a was repealed on 2027-05-30" in err
    code, out, _ = run(capsys, "show", "88-a", "--on", "2027-05-01", "--corpus", str(root))
    assert code == 0 and "Unlicensed piloting" in out


def test_act_that_does_not_apply_fails_the_build(tmp_path, capsys):
    root = corpus_with(tmp_path, "bad-act.txt")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "keep.txt").write_text("previous output")
    (tmp_path / "build" / ".navlaw-wrote.json").write_text('{"written by": "navlaw build", "names": ["keep.txt"]}')
    code, _, err = run(capsys, "build", "--corpus", str(root), "--out", str(tmp_path / "build"),
                       "--module", str(tmp_path / "fees"))
    assert code == 1
    assert "does not apply to 89-b/4/b/2 as in force on 2027-03-31" in err
    assert "one hundred fifty" in err and "two hundred" in err
    assert (tmp_path / "build" / "keep.txt").read_text() == "previous output"
    assert not (tmp_path / "fees").exists()


def test_two_texts_for_one_provision_on_one_day_is_an_error(tmp_path, capsys):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    shutil.copy(root / "089-b.2022.txt", root / "089-b.copy.txt")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write('\n[[document]]\nfile = "089-b.copy.txt"\nkind = "section-text"\ncovers = ["89-b"]\n'
                'effective = 2022-07-21\nstatus = "in-force"\nsource = "a second copy"\nconfidence = "inferred"\n')
    code, out, _ = run(capsys, "lint", "--corpus", str(root))
    assert code == 1
    assert "two texts of 89-b take effect on 2022-07-21: 089-b.2022.txt and 089-b.copy.txt" in out


@pytest.mark.parametrize("words, want", [
    ("Paragraph (b) of subdivision 4 of section 89-b", "89-b/4/b"),
    ("Subparagraph 1 of paragraph (b) of subdivision 4 of section 89-b", "89-b/4/b/1"),
    ("Section 88-a", "88-a"),
    ("Clause (vii) of subparagraph 1 of paragraph (b) of subdivision 4 of section 89-a", "89-a/4/b/1/vii"),
])
def test_citations_in_acts(words, want):
    assert A.citation_id(words) == want


def test_citation_out_of_order_is_refused():
    with pytest.raises(ValueError):
        A.citation_id("Subdivision 4 of paragraph (b) of section 89-b")


def test_unwrap_joins_hyphenated_words_and_keeps_compounds():
    from navlaw.frontend.formats.bill import PrintLine
    lines = [PrintLine(1, 0, "  (2) A minimum charge calculated on two hundred pilot-"), PrintLine(2, 0, "age units and twenty-"),
             PrintLine(3, 0, "seven cents"), PrintLine(4, 0, "  (3) Next")]
    assert A.unwrap(lines, 0) == [(1, "(2) A minimum charge calculated on two hundred pilotage units and twenty-seven "
                                      "cents"), (4, "(3) Next")]


def test_new_and_old_text_of_an_amendment():
    from navlaw.frontend.newmatter import new_text, old_words
    body = "(1) all vessels shall pay [eleven dollars] TWELVE DOLLARS per unit; ON AND AFTER JANUARY FIRST."
    assert old_words(body) == ["1", "all", "vessels", "shall", "pay", "eleven", "dollars", "per", "unit"]
    assert new_text(body) == ("(1) All vessels shall pay twelve dollars per unit; on and after January first.", True)


def test_show_88_in_2026_is_the_2022_text_not_the_2002_tables(capsys):
    """Issue 16: file 000's 2002 subitems and file 004's 2022 tables are one provision each
    (88/4/b/1/ii/1/A/ii …), so on 2026-06-01 the 2022 text is law and the 2002 tables are history."""
    from navlaw.cli import main
    assert main(["show", "88", "--on", "2026-06-01"]) == 0
    out = capsys.readouterr().out
    assert "$(13.19 x P.U.)" in out  # table (v), from 2026-01-01
    assert "Effective July first, two thousand two" not in out and "$( P.U.X6.39)" not in out  # the 2002 tables
    assert "Effective July first, two thousand," not in out
