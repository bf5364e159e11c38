"""Dates known only between bounds (issue 34): A.8982-A of 2024 in the corpus, which became law after its A-print
(2024-02-08) and by the end of 2024 (inferred). After the upper bound a quote is settled on the amended rates and
says on what their date rests; inside the bounds it gives both amounts and names the range; the same for a
manifest anchor of a relative date. Figures worked by hand from the texts."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

import navlaw_fees as nf
from navlaw.cli import main
from navlaw.fees.plans import build_plans
from navlaw.fees.reference import reference_quote
from navlaw.frontend.corpus import compile_corpus
from navlaw.tariffs import tariffs_and_lint
from navlaw.tariffs.routes import RouteTable

from .conftest import CORPUS, load_module

ACT = "A8982A-2024.md"
RANGE = "between 2024-02-08 and 2024-12-31"


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_act_is_in_the_corpus_as_the_mirror_printed_it():
    raw = (CORPUS / ACT).read_bytes()
    # the NYLG Markdown export byte for byte: its header, then the A-print with the bracketed old multipliers
    assert raw.startswith(b"# Adjusts the base pilotage tariffs at Sandy Hook") and b"**Status:** Signed by Governor" in raw
    for old, new in (("3.97", "4.70"), ("4.09", "4.85"), ("4.21", "5.00"), ("4.34", "5.15")):
        assert f"x [{old}] {new})".encode() in raw
    assert len(raw) == 2965 and "\u00a7".encode() in raw  # its "§ 2." is written with a no-break space, kept
    manifest = (CORPUS / "manifest.toml").read_text(encoding="utf-8")
    assert "df793e5d9bc5874aef9d5854b92b7c1b0c29c47c" in manifest and "became_law = { after = 2024-02-08" in manifest


def test_after_the_upper_bound_the_quote_is_settled_on_the_amended_table():
    # (v) 2026 as amended: (3000 - 1650) x 5.00 + 8726 = 15,476.00; 7.5% = 1,160.70; total 16,636.70
    q = nf.quote("sandy-hook", units=3000, on=dt.date(2026, 6, 1))
    assert q.total == D("16636.70") and q.settled and q.alternatives == ()
    assert q.lines[0].citation == "Nav. Law § 88(4)(b)(1)(ii)(1)(A)(v), as amended by A.8982-A of 2024"
    assert q.lines[0].amount == D("15476.00") and q.lines[1].amount == D("1160.70")
    rests = [n for n in q.notes if "A.8982-A of 2024" in n]
    assert rests and RANGE in rests[0] and "inferred" in rests[0]  # on what the date rests
    # 2025: table (iv) as amended, x 4.85: 1350 x 4.85 + 8472 = 15,019.50 + 1,126.46
    assert nf.quote("sandy-hook", units=3000, on=dt.date(2025, 6, 1)).total == D("16145.96")


def test_inside_the_bounds_the_quote_gives_both_amounts_and_names_the_range():
    q = nf.quote("sandy-hook", units=3000, on=dt.date(2024, 6, 1))
    assert not q.settled
    # the total is the law before the change: (iii) x 3.97: 1350 x 3.97 + 8225 = 13,584.50 + 1,018.84
    assert q.total == D("14603.34") and q.lines[0].citation == "Nav. Law § 88(4)(b)(1)(ii)(1)(A)(iii)"
    (alt,) = q.alternatives
    # the act already in force: (iii) x 4.70: 1350 x 4.70 + 8225 = 14,570.00 + 1,092.75
    assert alt.quote.total == D("15662.75") and alt.quote.settled
    assert alt.quote.lines[0].citation.endswith("(iii), as amended by A.8982-A of 2024") and RANGE in alt.condition
    first = q.notes[0]
    assert first.startswith("Not settled") and "$14,603.34" in first and "$15,662.75" in first and RANGE in first
    assert "NOT SETTLED: 14,603.34 or 15,662.75" in q.explain()
    j = q.to_json()
    assert j["settled"] is False and j["alternatives"][0]["total"] == "15662.75" and j["total"] == "14603.34"
    # below 1650 PU the act changes nothing: the amount is settled, and the quote says the law was in doubt that day
    small = nf.quote("sandy-hook", units=1000, on=dt.date(2024, 6, 1))
    # (1000 - 500) x 1.67 + 6217 = 7,052.00; 7.5% = 528.90
    assert small.total == D("7580.90") and small.settled
    assert "may already be in force on 2024-06-01" in small.notes[0] and "the amount is the same" in small.notes[0]


def test_the_bounds_are_exclusive_after_and_inclusive_by():
    before = nf.quote("sandy-hook", units=3000, on=dt.date(2024, 2, 8))  # the A-print's day: not yet law
    assert before.settled and before.total == D("14603.34")
    assert not nf.quote("sandy-hook", units=3000, on=dt.date(2024, 2, 9)).settled
    assert not nf.quote("sandy-hook", units=3000, on=dt.date(2024, 12, 30)).settled
    by = nf.quote("sandy-hook", units=3000, on=dt.date(2024, 12, 31))  # law by then
    assert by.settled and by.total == D("15662.75")


@pytest.mark.parametrize("day", ["2024-01-15", "2024-02-09", "2024-06-01", "2024-12-31", "2025-06-01", "2026-06-01"])
def test_the_generated_module_and_the_reference_evaluator_agree(day):
    corpus = compile_corpus(CORPUS)
    plans = build_plans(tariffs_and_lint(corpus)[0], RouteTable.of(corpus.manifest))
    on = dt.date.fromisoformat(day)
    for units in (3000, 1000, 20):
        assert reference_quote(plans, "sandy-hook", units=units, on=on) == nf.quote("sandy-hook", units=units, on=on)


def test_show_88_on_2025_06_01_has_4_85_in_table_iv(capsys):
    code, out, _ = run(capsys, "show", "88", "--on", "2025-06-01")
    assert code == 0
    iv = out.split("(iv) Effective January first, two thousand twenty-five")[1].split("(v) Effective")[0]
    assert "| 1650 and up    | $((P.U. - 1650) x 4.85) + 8472 |" in iv and "4.09" not in iv


def test_the_change_report_and_the_act_review_name_the_range(capsys):
    code, out, _ = run(capsys, "changes", "--from", "2024-01-01", "--to", "2024-12-31")
    assert code == 0
    assert "## Amending act A8982A-2024.md" in out and f"takes effect {RANGE}" in out
    assert (f"§ 88(4)(b)(1)(ii)(1)(A)(iii): from a day {RANGE} (a date known only between these bounds) the rate "
            "table changes — 1650 and up: $((P.U. - 1650) x 4.70) + 8225 (was $((P.U. - 1650) x 3.97) + 8225).") in out
    assert f"applied: § 1 amends § 88(4)(b)(1)(ii)(1)(A)(v), from a day {RANGE}" in out


# ---- an anchor of a relative date known between bounds -----------------------------------------------------

ANCHOR = ('"effective date of this clause" = { after = 2006-03-31, by = 2006-06-30, confidence = "inferred", '
          'source = "test: a chapter signed in the second quarter of 2006" }')


def _corpus_with_anchor(tmp_path: Path, anchor: str) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    m = root / "manifest.toml"
    text = m.read_text(encoding="utf-8")
    assert "known_from = 2022-01-01\n" in text
    m.write_text(text.replace("known_from = 2022-01-01\n", f"known_from = 2022-01-01\n\n[document.anchors]\n{anchor}\n", 1),
                 encoding="utf-8")
    return root


def test_an_anchor_known_between_bounds_gives_both_amounts_inside_them(tmp_path, capsys):
    """§ 89-a(4)(b)(1)(ii) and (iii) take effect twelve and twenty-four months "after the effective date of this
    clause": with that date between 2006-03-31 and 2006-06-30, (iii) starts on a day between 2008-03-31 and
    2008-06-30."""
    root = _corpus_with_anchor(tmp_path, ANCHOR)
    code, _, _ = run(capsys, "build", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module",
                     str(tmp_path / "anchor_fees"), "--no-site", "--no-cache")
    assert code == 0
    try:
        fees = load_module(tmp_path / "anchor_fees", "anchor_fees")
        q = fees.quote("hudson-lower", units=300, on=dt.date(2008, 5, 1))
        assert not q.settled and q.total == D("3723.00")  # (ii): 300 x 12.41
        assert q.alternatives[0].quote.total == D("3798.00")  # (iii): 300 x 12.66
        assert "between 2008-03-31 and 2008-06-30" in q.notes[0]
        late = fees.quote("hudson-lower", units=300, on=dt.date(2008, 7, 1))
        assert late.settled and late.total == D("3798.00")
        assert any("between 2006-03-31 and 2006-06-30" in n for n in late.notes)  # on what its date rests
        early = fees.quote("hudson-lower", units=300, on=dt.date(2008, 3, 31))  # before (iii) can have started
        assert early.settled and early.total == D("3723.00")
    finally:
        sys.modules.pop("anchor_fees", None)
    code, out, _ = run(capsys, "tariffs", "--corpus", str(root), "--route", "hudson-lower")
    assert "in force from a day between 2008-03-31 and 2008-06-30, certainly from 2008-06-30" in out


@pytest.mark.parametrize("value, says", [
    ("{ after = 2024-12-31, by = 2024-02-08 }", "by = 2024-02-08 must be later than after = 2024-12-31"),
    ("{ after = 2024-02-08 }", "needs both after = YYYY-MM-DD"),
    ("{ date = 2024-06-01, after = 2024-02-08, by = 2024-12-31 }", "give either date = … or after = … and by = …"),
    ("{ after = \"2024-02-08\", by = 2024-12-31 }", "must be a date written YYYY-MM-DD"),
    ("{ after = 2024-02-08, by = 2024-12-31, maybe = true }", "unknown key 'maybe'"),
])
def test_bad_bounds_are_manifest_errors_with_the_line(tmp_path, capsys, value, says):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    m = root / "manifest.toml"
    text = m.read_text(encoding="utf-8")
    line = next(l for l in text.split("\n") if l.startswith("became_law = { after = 2024-02-08"))
    m.write_text(text.replace(line, f"became_law = {value}"), encoding="utf-8")
    code, out, err = run(capsys, "lint", "--corpus", str(root))
    assert code == 1 and says in out + err
    number = text.split("\n").index(line) + 1
    assert f"manifest.toml:{number}:" in out + err


CALC = """
globalThis.window = globalThis;
require(process.argv[2]);
const calc = require(process.argv[3]);
const out = [["3000", "2024-06-01"], ["3000", "2026-06-01"], ["1000", "2024-06-01"]].map(([u, on]) => {
  const q = calc.quote("sandy-hook", u, on, {});
  return { total: q.total, alternatives: (q.alternatives || []).map((a) => a.quote.total), first: q.notes[0] };
});
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_site_calculator_gives_both_amounts_inside_the_bounds(tmp_path, capsys):
    import json
    import subprocess

    code, _, _ = run(capsys, "build", "--out", str(tmp_path / "build"), "--module", str(tmp_path / "fees"),
                     "--on", "2024-06-01")
    assert code == 0
    assets = tmp_path / "build" / "site" / "assets"
    (tmp_path / "run.js").write_text(CALC)
    r = subprocess.run(["node", str(tmp_path / "run.js"), str(assets / "plans.js"), str(assets / "calculator.js")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    inside, after, small = json.loads(r.stdout)
    assert inside["total"] == "14603.34" and inside["alternatives"] == ["15662.75"]
    assert "$14,603.34" in inside["first"] and "$15,662.75" in inside["first"] and RANGE in inside["first"]
    assert after == {"total": "16636.70", "alternatives": [], "first": after["first"]}
    assert small["alternatives"] == [] and "the amount is the same" in small["first"]
    # the tariffs page says which schedule may be in force on the site's date, and the change report the range
    page = (tmp_path / "build" / "site-docs" / "tariffs.md").read_text(encoding="utf-8")
    assert "may be in force on 2024-06-01: from a day between 2024-02-08 and 2024-12-31" in page
    assert "in force on 2024-06-01 unless the change whose date is known only between bounds came first" in page
    law = (tmp_path / "build" / "site-docs" / "law" / "88.md").read_text(encoding="utf-8")
    assert "88/4/b/1/ii/1/A/v: A8982A-2024.md may already be in force on 2024-06-01" in law
    year = (tmp_path / "build" / "site-docs" / "changes" / "2024.md").read_text(encoding="utf-8")
    assert f"takes effect {RANGE}" in year and "x 4.70" in year


def test_show_inside_the_bounds_says_which_texts_may_already_be_in_force(capsys):
    code, out, _ = run(capsys, "show", "88", "--on", "2024-06-01")
    assert code == 0
    assert "| 1650 and up    | $((P.U. - 1650) x 3.97) + 8225 |" in out  # the text before the change, shown
    assert ("  may already be in force: 88/4/b/1/ii/1/A/iii: A8982A-2024.md may already be in force on 2024-06-01 (from "
            "a day between 2024-02-08 and 2024-12-31, certainly from 2024-12-31)") in out
    code, out, _ = run(capsys, "show", "88", "--on", "2025-06-01")
    assert "may already be in force" not in out and "88/4/b/1/ii/1/A/iv: A8982A-2024.md — effective between 2024-02-08 " \
        "and 2024-12-31" in out


def test_the_history_page_dates_the_change_between_the_bounds(tmp_path, capsys):
    code, _, _ = run(capsys, "build", "--out", str(tmp_path / "build"), "--module", str(tmp_path / "fees"),
                     "--on", "2026-06-01")
    assert code == 0
    history = (tmp_path / "build" / "site-docs" / "history" / "88.md").read_text(encoding="utf-8")
    assert f"## As of 2024-12-31 (the change came on a day {RANGE})" in history


def test_a_day_counted_from_a_bounded_became_law_is_bounded_alike(tmp_path, capsys):
    """hudson-and-repeal.txt takes effect "on the ninetieth day after it shall have become a law": with became_law
    between 2027-02-28 and 2027-03-31 it takes effect between 2027-05-29 and 2027-06-29 (90 days after each)."""
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    shutil.copy(Path(__file__).parent / "acts" / "hudson-and-repeal.txt", root / "hr.txt")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write('\n[[document]]\nfile = "hr.txt"\nkind = "act"\nstatus = "in-force"\nsource = "test act"\n'
                'became_law = { after = 2027-02-28, by = 2027-03-31, source = "test: signed in March 2027" }\n')
    code, out, _ = run(capsys, "changes", "--from", "2027-01-01", "--to", "2027-12-31", "--corpus", str(root))
    assert code == 0
    assert "takes effect between 2027-05-29 and 2027-06-29 (on the ninetieth day after it shall have become a law" in out
    assert "applied: § 1 adds § 89-a(9), from a day between 2027-05-29 and 2027-06-29" in out
    assert "applied: § 2 repeals 88-a, from a day between 2027-05-29 and 2027-06-29" in out
    code, out, _ = run(capsys, "show", "88-a", "--on", "2027-06-15", "--corpus", str(root))
    assert code == 0 and "Unlicensed piloting" in out  # the repeal is not certain before 2027-06-29 ...
    assert "88-a: hr.txt may already be in force on 2027-06-15 (from a day between 2027-05-29 and 2027-06-29" in out
    code, _, err = run(capsys, "show", "88-a", "--on", "2027-06-29", "--corpus", str(root))
    assert code == 1 and "§ 88-a was repealed on a day between 2027-05-29 and 2027-06-29" in err  # ... certain from then
