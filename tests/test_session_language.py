"""The language of a legislative session (issue 29): instructions, targets, law names, effective dates
and act structure read from real bills in place (../shared/bills/nylg-sample/, ../shared/outside/),
each with a became_law chosen for the test (none of these bills is known here to have become law)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from navlaw.cli import main
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend import acts as A
from navlaw.frontend import effective as E
from navlaw.frontend.instructions import read_instruction
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.manifest import Entry

from .conftest import CORPUS, ROOT, load_module

SAMPLE = ROOT.parent / "shared" / "bills" / "nylg-sample"
OUTSIDE = ROOT.parent / "shared" / "outside"
pytestmark = pytest.mark.skipif(not SAMPLE.is_dir() or not OUTSIDE.is_dir(), reason="../shared/ is not beside the repository")


def read(text: str, became_law: dt.date, name: str = "bill.md", effective: dt.date | None = None) -> tuple[A.Act, Diagnostics]:
    diags = Diagnostics()
    entry = Entry(name, "act", (), effective, became_law, "in-force", "test", "verified", "", "", "", "", "Nav. Law",
                  (), (), 0)  # an act of the Navigation Law's corpus: its own law is the one it may amend
    src = SourceDocument(name, text, hashlib.sha256(text.encode()).hexdigest(), len(text))
    return A.parse_act(src, entry, diags), diags


def bill(name: str, became_law: str = "2024-06-01", **kw) -> tuple[A.Act, Diagnostics]:  # type: ignore[no-untyped-def]
    folder = OUTSIDE if name.startswith(("ol.", "nylg.", "derived.")) else SAMPLE
    return read((folder / name).read_text(encoding="utf-8", errors="replace"), dt.date.fromisoformat(became_law), name, **kw)


def errors(diags: Diagnostics) -> list[str]:
    return [d.message for d in diags.errors]


def instruction(part: str, number: int = 1) -> A.Instruction:
    return A.Instruction(number, "amend", "1", "", 1, "", part=part)


# ---- act structure and per-Part dates -----------------------------------------------------------------------

def test_a_budget_bill_dates_each_part_by_its_own_last_section():
    act, diags = bill("ol.BudgetBill-A3007A-2017.txt", "2017-04-10")
    assert act.effective_of(instruction("A")) == (dt.date(2017, 4, 10), "immediately")
    assert act.effective_of(instruction("F")) == (dt.date(2017, 10, 1), "October 1, 2017")
    assert act.effective_of(instruction("J"))[0] == dt.date(2017, 10, 7)  # the 180th day after 2017-04-10
    assert act.effective_of(instruction("C"))[0] == dt.date(2017, 1, 1)  # "deemed … in full force and effect on and after"
    assert act.effective_of(instruction("D", 14))[0] == dt.date(2017, 7, 1)  # a proviso of Part D's own last section
    assert act.effective_of(instruction("D", 2))[0] == dt.date(2017, 4, 1)
    assert not any("Part" in m and "cannot read" in m for m in errors(diags))


def test_a_two_part_act_has_its_parts_and_its_own_sections_after_them():
    act, diags = bill("S3192.md")
    shape = [(s.part, s.number, s.kind) for s in act.sections]
    assert shape == [("", 1, "nothing"), ("A", 1, "nothing"), ("A", 2, "reported"), ("A", 3, "reported"), ("A", 4, "nothing"),
                     ("A", 5, "effective"), ("B", 1, "nothing"), ("B", 2, "reported"), ("B", 3, "reported"),
                     ("B", 4, "effective"), ("", 2, "nothing"), ("", 3, "effective")]
    assert errors(diags) == [] and set(act.part_dates) == {"A", "B"}


def test_a_part_heading_inside_new_matter_is_text():
    text = (SAMPLE / "S3192.md").read_text(encoding="utf-8")
    # the labor law's new section 591-b (Part A, § 2) with a "PART II" heading of its own inside it
    at = text.index("  § 591-B.")
    inserted = text[:at] + "  PART II\n  GENERAL PROVISIONS\n" + text[at:]
    before, _ = read(text, dt.date(2024, 6, 1))
    act, diags = read(inserted, dt.date(2024, 6, 1))
    assert [(s.part, s.number, s.kind) for s in act.sections] == [(s.part, s.number, s.kind) for s in before.sections]
    assert errors(diags) == []


def test_a_quoted_section_inside_an_amended_text_is_not_the_acts_next_section():
    # § 3 amends "Section 4 of a chapter of the laws of 2023", whose text begins "§ 4. This act shall take
    # effect [immediately] SEPTEMBER 1, 2024"; the act's own § 4 follows it
    act, diags = bill("S8046.md", effective=dt.date(2024, 9, 1))
    assert [(s.number, s.line, s.kind) for s in act.sections] == [(1, 36, "reported"), (2, 50, "reported"),
                                                                   (3, 92, "reported"), (4, 107, "effective")]
    assert act.dates.date == dt.date(2024, 6, 1) and act.dates.of(1) == (dt.date(2024, 9, 1), act.dates.of(1)[1])


# ---- effective dates ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("became_law, want", [("2024-06-01", dt.date(2024, 4, 1)), ("2024-03-01", dt.date(2024, 3, 1))])
def test_a_retroactive_clause_dates_the_act_from_the_day_it_names(became_law, want):
    # "This act shall take effect immediately, provided that if this act shall take effect after April 1,
    # 2024, it shall be deemed to have been in effect on and after April 1, 2024."
    act, diags = bill("S3563.md", became_law)
    assert act.effective == want and errors(diags) == []


def test_deemed_in_full_force_and_effect_on_and_after():
    act, diags = bill("S7811.md", "2024-06-01")
    assert act.effective == dt.date(2022, 4, 9) and act.dates.retroactive == dt.date(2022, 4, 9)
    assert any("deemed in full force and effect on and after 2022-04-09" in d.message for d in diags)


def test_the_first_of_the_calendar_month_next_succeeding_the_ninetieth_day():
    act, diags = bill("A3468.md", "2024-06-01")  # + 90 days = 2024-08-30 -> 2024-09-01
    assert act.effective == dt.date(2024, 9, 1) and errors(diags) == []


def test_a_date_tied_to_another_chapter_is_the_manifests_or_an_error_never_a_guess():
    # "one year after it shall have become a law; provided however, that the amendments … made by sections one,
    # two and four of this act shall take effect on the same date and in the same manner as chapter 128 of the
    # laws of 2023, takes effect"
    act, diags = bill("A8881.md")
    assert act.effective == dt.date(2025, 6, 1) and act.dates.of(3)[0] == dt.date(2025, 6, 1)
    assert [act.dates.of(n)[0] for n in (1, 2, 4)] == [None, None, None]
    assert any("chapter 128 of the laws of 2023" in m and "the manifest must give `effective`" in m for m in errors(diags))
    act, diags = bill("A8881.md", effective=dt.date(2023, 11, 1))
    assert [act.dates.of(n)[0] for n in (1, 2, 3, 4)] == [dt.date(2023, 11, 1)] * 2 + [dt.date(2025, 6, 1), dt.date(2023, 11, 1)]
    assert errors(diags) == []


def test_a_kept_sunset_dates_nothing_and_a_sections_expiry_is_said():
    act, diags = bill("A10423.md")  # "… shall not affect the repeal of such section and shall be deemed repealed therewith"
    assert errors(diags) == [] and act.effective == dt.date(2024, 6, 1)
    assert any("shall not affect the repeal" in d.message for d in diags if d.severity is Severity.INFO)
    act, diags = bill("A2825.md")  # "… as added by section two of this act, shall expire and be deemed repealed June 30, 2026"
    assert errors(diags) == [] and act.dates.section_expires[2][0] == dt.date(2026, 6, 30)


def test_expiry_counted_from_the_effective_date():
    d = E.read("This act shall take effect on the one hundred twentieth day after it shall have become a law and shall "
               "expire and be deemed repealed three years after it shall take effect.", dt.date(2024, 6, 1), pytest.fail)
    assert (d.date, d.expires) == (dt.date(2024, 9, 29), dt.date(2027, 9, 29))


def test_an_exception_dates_its_sections_and_words_after_a_date_are_not_dropped():
    d = E.read("This act shall take effect on the thirtieth day after it shall have become a law, except that section two "
               "of this act shall take effect January 1, 2025.", dt.date(2024, 6, 1), pytest.fail)
    assert (d.date, d.of(1)[0], d.of(2)[0]) == (dt.date(2024, 7, 1), dt.date(2024, 7, 1), dt.date(2025, 1, 1))
    fails: list[str] = []
    E.read("This act shall take effect January 1, 2025 for contracts entered into thereafter.", dt.date(2024, 6, 1), fails.append)
    assert fails == ["cannot read the effective date 'January 1, 2025 for contracts entered into thereafter'"]


def test_an_unreadable_clause_is_an_error_naming_it():
    fails: list[str] = []
    d = E.read("This act shall take effect when the moon is full.", dt.date(2024, 6, 1), fails.append)
    assert d.date is None and fails == ["cannot read the effective date 'when the moon is full'"]


# ---- instructions: targets and the law named ------------------------------------------------------------------

def test_a_chapter_amendment_is_the_chapters():
    act, diags = bill("A7492.md")
    r = act.reported[0]
    assert (r.law, r.targets) == ("chapter 238 of the laws of 2021", ("2/b/iv",)) and errors(diags) == []


@pytest.mark.parametrize("sentence, law, targets, new", [
    ("Section 1 of the navigation law, as amended by section 16 of part MM of chapter 57 of the laws of 2008, is amended "
     "to read as follows:", "navigation law", ["1"], []),
    ("Section 4 of part H of chapter 58 of the laws of 2007 amending the navigation law relating to establishing the "
     "empire state stem cell board, as amended by section 2 of part M of chapter 57 of the laws of 2011, is amended to "
     "read as follows:", "chapter 58 of the laws of 2007", ["H/4"], []),
    ("Subparagraph 3 of paragraph (c) of section 1402 of the not-for-profit corporation law, as separately amended by "
     "chapters 308, 312 and 327 of the laws of 2022, is amended to read as follows:", "not-for-profit corporation law",
     ["1402/c/3"], []),
    ("Paragraph a, the opening paragraph of subparagraph 1 of paragraph b and paragraph d of subdivision 3 of section 663 "
     "of the education law, paragraph a as amended by section 4, are amended to read as follows:", "education law",
     ["663/3/a", "663/3/b/1 (opening paragraph)", "663/3/d"], []),
    ("Subdivisions 4, 5 and 6 of section 720.10 of the criminal procedure law, as renumbered by chapter 481 of the laws "
     "of 1978, are renumbered subdivisions 5, 6 and 7 respectively and two new subdivisions 4 and 8 are added to read as "
     "follows:", "criminal procedure law", ["720.10/4", "720.10/5", "720.10/6"],
     ["720.10/5", "720.10/6", "720.10/7", "720.10/4", "720.10/8"]),
    ("Paragraph (c) of subdivision 2 of section 111 of the racing, pari-mutuel wagering and breeding law, as amended by "
     "chapter 564 of the laws of 2021, is amended and four new subdivisions 4, 5, 6 and 7 are added to read as follows:",
     "racing, pari-mutuel wagering and breeding law", ["111/2/c"], ["111/4", "111/5", "111/6", "111/7"]),
    ("Section 8-b of the court of claims act is amended by adding a new subdivision 1-a to read as follows:",
     "court of claims act", ["8-b"], ["8-b/1-a"]),
    ("The administrative code of the city of New York is amended by adding a new section 21-124.2 to read as follows:",
     "administrative code of the city of new york", [], ["21-124.2"]),
    ("Subdivision (i) of section 13 of the workers' compensation law is amended by adding a new paragraph 6 to read as "
     "follows:", "workers' compensation law", ["13/i"], ["13/i/6"]),
    ("Schedule G of subdivision 7 of section 401 of the vehicle and traffic law, as amended by section 25 of part G of "
     "chapter 59 of the laws of 2009, is amended to read as follows:", "vehicle and traffic law", ["401/7/G"], []),
    ("Paragraph c of subdivision 3 of section 667 of the education law, as relettered by section 2 of part J of chapter "
     "58 of the laws of 2011, is relettered paragraph d and new paragraph c is added to read as follows:", "education law",
     ["667/3/c"], ["667/3/d", "667/3/c"]),
    ("Subdivisions 2, 3, 4 and 5 of section 381 of the executive law, subdivision 2 as amended by chapter 560 of the laws "
     "of 2010 and subdivisions 3, 4 and 5 as added by chapter 707 of the laws of 1981, are amended, subdivision 6 is "
     "renumbered subdivision 8 and two new subdivisions 6 and 7 are added to read as follows:", "executive law",
     ["381/2", "381/3", "381/4", "381/5"], ["381/6", "381/8", "381/6", "381/7"]),
    ("Title 6 of article 2 of the public health law, as added by chapter 342 of the laws of 2014, is amended by adding a "
     "new section 267-a to read as follows:", "public health law", ["title 6"], ["267-a"]),
    ("An undesignated paragraph of subdivision 1 of section 1680 of the public authorities law, as added by chapter 433 of "
     "the laws of 1988, is amended to read as follows:", "public authorities law", ["1680/1 (undesignated paragraph)"], []),
])
def test_instruction_sentences_of_the_session(sentence, law, targets, new):
    got_law, _, got_targets, got_new = read_instruction(sentence)
    assert (got_law, [t.said() for t in got_targets], [t.id for t in got_new]) == (law, targets, new)


def test_a_notwithstanding_section_amends_nothing_even_naming_the_navigation_law():
    text = (SAMPLE / "S6159A.md").read_text(encoding="utf-8")
    for t in (text, re.sub(r"retirement\s+and\s+social\s+security\s+law", "navigation law", text)):
        act, diags = read(t, dt.date(2024, 6, 1))
        s = next(s for s in act.sections if s.sentence.startswith("Notwithstanding"))
        assert s.kind == "nothing" and not [d for d in diags.errors if d.line == s.line]


def test_a_navigation_law_instruction_is_read_whatever_its_history_and_whatever_laws_come_before():
    # A8180 § 1, with its law named the Navigation Law: "The opening paragraph of subdivision 2 of section
    # 11-0715 of the navigation law, as amended by section 4 of part R of chapter 58 of the laws of 2013, …"
    text = re.sub(r"environmental\s+conservation\s+law", "navigation law", (SAMPLE / "A8180.md").read_text(encoding="utf-8"))
    act, diags = read(text, dt.date(2024, 6, 1))
    first = act.instructions[0]
    assert (first.number, first.target, first.portion) == (1, "11-0715/2", "opening paragraph")
    assert not act.reported or all(r.law in ("", "navigation law") for r in act.reported)


def test_each_sections_law_is_its_own_whatever_the_order_of_the_laws_the_act_names():
    # A29 names the navigation law, the vehicle and traffic law, the penal law and the criminal procedure law;
    # each section read alone names the same law as read in the act, and the act read with its sections
    # in reverse order reads each the same
    text = (OUTSIDE / "nylg.2023-A29.md").read_text(encoding="utf-8")
    act, _ = read(text, dt.date(2024, 6, 1))
    laws = {s.number: read_instruction(A.SENTENCE.match(s.sentence).group(1))[0]  # type: ignore[union-attr]
            for s in act.sections if s.kind in ("instruction", "reported")}
    assert laws[1] == "navigation law" and {"vehicle and traffic law", "penal law"} <= set(laws.values())
    assert {r.number: r.law for r in act.reported if r.law} == {n: law for n, law in laws.items() if law != "navigation law"}
    head, _, body = text.partition("DO ENACT AS FOLLOWS:")
    chunks = re.split(r"(?m)^(?=[ \t]*(?:Section|§)\s+\d+\.)", body)
    numbered = [c for c in chunks[1:] if not E.is_effective_clause(re.sub(r"^\s*(?:Section|§)\s+\d+\.\s*", "", c))]
    dated = [c for c in chunks[1:] if c not in numbered]
    renumbered = [re.sub(r"^(\s*)(?:Section|§)\s+\d+\.", lambda m, k=k: f"{m.group(1)}§ {k}.", c, count=1)
                  for k, c in enumerate(list(reversed(numbered)) + dated, start=1)]
    reversed_act, _ = read(head + "DO ENACT AS FOLLOWS:" + chunks[0] + "".join(renumbered), dt.date(2024, 6, 1))
    assert [(r.law, r.targets) for r in reversed_act.reported if r.law] == \
        list(reversed([(r.law, r.targets) for r in act.reported if r.law]))
    assert sorted(i.target for i in reversed_act.instructions) == sorted(i.target for i in act.instructions)


# ---- an act signed after a date in its own rate table ---------------------------------------------------------

def test_an_act_signed_after_a_date_in_its_own_rate_table(tmp_path, capsys):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    act = (ROOT / "tests" / "acts" / "lis-rates-2028.txt").read_text(encoding="utf-8")
    (root / "lis.txt").write_text(act.replace("take effect on January 1, 2028", "take effect immediately"), encoding="utf-8")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write('\n[[document]]\nfile = "lis.txt"\nkind = "act"\nbecame_law = 2028-01-02\nstatus = "in-force"\n'
                'source = "test"\nconfidence = "verified"\n')
    assert main(["build", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "lis_fees"),
                 "--no-site", "--no-cache"]) == 0
    assert "from 2028-01-02 the rate is $11.56 per pilotage unit (was $11.22 per pilotage unit)" in capsys.readouterr().out
    try:
        fees = load_module(tmp_path / "lis_fees", "lis_fees")
        # its "from January first, 2028: $11.56" was not law before it was signed: $11.22 holds until then
        assert fees.quote("long-island-sound", units=350, on=dt.date(2028, 1, 1)).total == D("3927.00")
        assert fees.quote("long-island-sound", units=350, on=dt.date(2028, 1, 2)).total == D("4046.00")
    finally:
        sys.modules.pop("lis_fees", None)


# ---- the whole sample -------------------------------------------------------------------------------------------

def test_the_session_sample_is_read():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import acts as bench  # benchmarks/acts.py
    finally:
        sys.path.pop(0)
    files = sorted(p for p in SAMPLE.glob("*.md") if p.name != "README.md")
    c = bench.measure(files, dt.date(2024, 6, 1), "")["counts"]
    assert c["bills"] == 600 and c["tracebacks"] == 0
    assert c["refused (language)"] <= 0.02 * c["bills"]
    assert c["targets read"] >= 0.98 * c["instructions"] and c["targets read (replaced)"] >= 0.98 * c["instructions (replaced)"]
    assert c["nothing reported as amendment"] == 0 and c["neither read nor diagnosed"] == 0
    assert c["navigation law reported as another's"] == 0
