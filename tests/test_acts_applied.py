"""Amending acts of the Navigation Law as the legislature writes them (issue 28), from real texts: bills of
the 2023-2024 session in tests/acts/nylg/ (its README gives their origin) and in ../shared/ (read in place).
Each is put into a copy of the corpus with a became_law chosen for the test; what it must do was read
by hand from its text."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from navlaw.cli import main
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_corpus, compile_text
from navlaw.frontend.newmatter import CaseBook, label_case, new_text
from navlaw.law import build_timeline, compile_law

from .conftest import CORPUS, ROOT

NYLG = ROOT / "tests" / "acts" / "nylg"
SHARED = ROOT.parent / "shared"


def without_acts(root: Path) -> None:
    """The corpus copy's manifest without the acts it lists: each test says which act it applies to which law."""
    text = (root / "manifest.toml").read_text(encoding="utf-8")
    head, *docs = re.split(r"(?m)^(?=\[\[(?!document\.))", text)  # each table with its sub-tables
    kept = [d for d in docs if not (d.startswith("[[document]]") and re.search(r'(?m)^kind\s*=\s*"act"', d))]
    (root / "manifest.toml").write_text(head + "".join(kept), encoding="utf-8")


def corpus_with(tmp_path: Path, source: Path, became: str = "2024-06-01") -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    without_acts(root)
    shutil.copy(source, root / source.name)
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write(f'\n[[document]]\nfile = "{source.name}"\nkind = "act"\nbecame_law = {became}\nstatus = "in-force"\n'
                f'source = "test: {source.name}"\nconfidence = "verified"\n')
    return root


def applied(tmp_path: Path, source: Path, became: str = "2024-06-01"):
    root = corpus_with(tmp_path, source, became)
    corpus = compile_corpus(root)
    law = compile_law(corpus)
    act = corpus.acts[0]
    errors = [d.message for d in law.diagnostics
              if d.file.split("#")[0].endswith(source.name) and d.severity is Severity.ERROR]
    return root, act, law.timeline, errors, law.outcome(act)


def ids(node) -> list[str]:
    return [n.id for n in node.walk() if n.id]


def shown(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return " ".join(capsys.readouterr().out.split())


def test_a_whole_section_restated_applies_and_its_number_is_its_label(tmp_path, capsys):
    """A3096 § 1: "Section 50 of the navigation law … is amended to read as follows: § 50. Owners to notify
    …": the act's "50" is the section's label, not a word of its text (it was refused at word 1)."""
    root, act, timeline, errors, done = applied(tmp_path, NYLG / "2023-A3096.md")
    assert errors == []
    assert [w for k, w in done.results] == ["§ 1 amends 50, from 2024-08-30", "§ 2 adds 51, from 2024-08-30",
                                           "§ 2 adds 52, from 2024-08-30"]  # the 90th day after 2024-06-01
    after = shown(capsys, "show", "50", "--on", "2024-08-30", "--corpus", str(root))
    assert ("a temporary permit as provided in this section. No certificate of inspection or temporary permit shall "
            "be issued unless the owner of a public vessel produces proof of insurance to the inspector in accordance "
            "with section fifty-one of this part.") in after
    assert "as herein provided" not in after
    before = shown(capsys, "show", "50", "--on", "2024-08-29", "--corpus", str(root))
    assert "a temporary permit as herein provided." in before and "fifty-one" not in before


def test_two_new_sections_each_from_its_own_heading(tmp_path):
    """A3096 § 2: "adding two new sections 51 and 52" (printed "§  51.", justified): each new section's
    text runs from its "§" to the next, in law case, across the print's page break."""
    _, act, timeline, errors, done = applied(tmp_path, NYLG / "2023-A3096.md")
    s51 = timeline.section_on("51", dt.date(2024, 9, 1)).section
    s52 = timeline.section_on("52", dt.date(2024, 9, 1)).section
    assert errors == [] and s51 is not None and s52 is not None
    assert s51.heading.rstrip(".") == "Liability insurance on public vessels" and s52.heading.rstrip(".") == "Self-insurers"
    assert ids(s51) == ["51"] + [f"51/{k}" for k in range(1, 6)]
    text = " ".join(s51.full_text().split())
    assert "except vessels which navigate on waters which the United States exercises active control" in text
    assert "pursuant to the insurance law. Public vessels certified by the office of parks" in text  # page 2 joined
    assert "EXPLANATION" not in text and "LBD" not in text and "3096" not in text
    assert "section seventy-three-b of this article" in text
    assert s52.full_text().split("\n")[0].startswith("Self-insurers") or "The commissioner may, in his or her" in s52.full_text()


def test_a_new_section_in_capitals_nests_by_its_label_sequence(tmp_path):
    """S6730 § 1 adds § 33-f in CAPITALS: "2. (A) NO EXHAUST …" after "1. … (A) … (B)": (A) under 2. is
    paragraph (a) like its cousins under 1. (it was 33-f/2/A), and the ECL instruction is reported."""
    _, act, timeline, errors, done = applied(tmp_path, NYLG / "2023-S6730.md")
    sec = timeline.section_on("33-f", dt.date(2024, 9, 1)).section
    assert errors == [] and sec is not None
    assert [k for k, _ in done.results] == ["reported", "applied"]
    got = ids(sec)
    assert got[:8] == ["33-f", "33-f/1", "33-f/1/a", "33-f/1/b", "33-f/2", "33-f/2/a", "33-f/2/b", "33-f/3"]
    assert [i for i in got if i.startswith("33-f/9/")] == [f"33-f/9/{c}" for c in "abcde"]
    assert not any(re.search(r"/[A-Z]+$", i) for i in got)
    assert sec.heading.rstrip(".") == "Regulating exhaust gas cleaning systems"
    assert sec.find("33-f/1/a").text.startswith('"Exhaust gas cleaning systems" means a mechanism')


def test_a_caps_paragraph_continues_its_lower_case_siblings():
    """A4902 (the sample's ECL § 8-0111(5)): "(c) … [.]; OR" then "(D) ACTIONS TO APPROVE …": (D) is
    paragraph (d) beside (b) and (c), not a subclause under (c)."""
    raw = (SHARED / "bills" / "nylg-sample" / "A4902.md").read_text(encoding="utf-8")
    body = raw[raw.index("  (b) Actions subject"):raw.index("  § 2. This act")]
    paras = re.split(r"\n(?=  \()", body)
    text = "\n".join(" ".join(p.split()) for p in paras)
    restored, changed = new_text(text, CaseBook(), outer=("5.",))
    assert changed and restored.split("\n")[2].startswith("(d) Actions to approve the siting or construction of housing")
    doc = compile_text("§ 8-0111. Heading.\n5. The following actions:\n" + restored + "\n")
    assert [i for i in ids(doc) if i.startswith("8-0111/")] == ["8-0111/5", "8-0111/5/b", "8-0111/5/c", "8-0111/5/d"]


@pytest.mark.parametrize("text, outer, want", [
    ("(e) the old paragraph;\n(F) THE NEW ONE", ("1.",), "(f) The new one"),  # a sibling, not 1/e/iv/F
    ("(e) the old paragraph:\n(iv) its last clause;\n(F) THE NEW ONE", ("1.",), "(f) The new one"),  # past (iv)
    ("(ii) old clause;\n(III) A NEW CLAUSE", ("9.", "(2)"), "(iii) A new clause"),  # not 9/2/ii/III
    ("(A) old subclause;\n(B) NEW SUBCLAUSE", ("(a)", "(1)", "(i)"), "(B) New subclause"),  # stays a subclause
])
def test_labels_of_new_matter_take_their_case_from_the_sequence(text, outer, want):
    assert label_case(text, outer)[0].split("\n")[-1].split(" ", 1)[0] == want.split(" ", 1)[0]
    assert new_text(text, CaseBook(), outer)[0].split("\n")[-1] == want


def test_case_is_restored_from_the_corpus_and_the_grammar_of_labels_and_citations():
    book = CaseBook()
    book.learn("the laws of the United States apply; the United States coast guard. Such vessel states that the "
               "inspector may refuse.")
    text, _ = new_text("THE INSPECTOR MAY SUSPEND IT UNDER SECTION FORTY-SEVEN-B OR 79-D OF THE UNITED STATES "
                       "CODE UNTIL MAY FIRST", book)
    assert text == ("The inspector may suspend it under section forty-seven-b or 79-d of the United States code until "
                    "May first")


def test_a_restatement_that_numbers_the_old_text_applies_with_a_note(tmp_path, capsys):
    """A4872 restates § 175, whose law text has no number, as "1. Any person …" and adds "2. UPON …": a
    number cannot be printed in capitals, so its "1." is new matter (said in a note), not a mismatch."""
    root, act, timeline, errors, done = applied(tmp_path, NYLG / "2023-A4872.md")
    assert errors == [] and [w for k, w in done.results] == ["§ 1 amends 175, from 2024-06-01"]
    sec = timeline.section_on("175", dt.date(2024, 6, 1)).section
    assert ids(sec) == ["175", "175/1", "175/2"]
    assert "section one hundred ninety-two of this article" in " ".join(sec.full_text().split())


def test_a_real_mismatch_names_the_provision_and_the_word(tmp_path):
    """A3096 against a corpus whose § 50 reads otherwise: refused, naming § 50 and the first differing word."""
    root = corpus_with(tmp_path, NYLG / "2023-A3096.md")
    law = root / "nav-law.consolidated.txt"
    law.write_bytes(law.read_bytes().replace(b"at least one month before it is desired",
                                             b"at least two months before it is desired"))
    corpus = compile_corpus(root)
    diags = Diagnostics()
    build_timeline(corpus, diags)
    errs = [d.message for d in diags if d.severity is Severity.ERROR]
    assert any("does not apply to 50 as in force on 2024-08-29: in 50, from word" in e and "(\"one\" where the law has "
               "\"two\")" in e for e in errs), errs
    # refused as a whole: §§ 51 and 52 of the same act are not shown either
    assert build_timeline(corpus, Diagnostics()).section_on("51", dt.date(2024, 9, 1)).section is None


def test_a_page_break_inside_a_rate_table_leaves_the_table_whole(tmp_path, capsys):
    """A8982A: table (v)'s rows 0 … 99.99 are on page 1, its rows from 100 on page 2, after the
    EXPLANATION footer, the LBD code and the page header "A. 8982--A  2"."""
    root = tmp_path / "c"
    code = main(["act", "check", str(NYLG / "2024-A8982A.md"), "--became-law", "2024-06-01", "--corpus", str(CORPUS)])
    out = capsys.readouterr().out
    assert code == 0 and "4 instruction(s) read: 4 apply, 0 reported, 0 refused" in out
    assert ("§ 88(4)(b)(1)(ii)(1)(A)(v): from 2026-01-01 the rate table changes — 1650 and up: $((P.U. - 1650) x 5.00) "
            "+ 8726 (was $((P.U. - 1650) x 4.21) + 8726).") in out
    assert "LBD14151" not in out and "8982--A" not in out.replace(str(NYLG / "2024-A8982A.md"), "")


def test_the_review_of_a_rate_act_names_every_fee_that_changes_with_its_date(tmp_path, capsys):
    """S8469A (the same multipliers as A8982A): each of the four tables changes its 1650-and-up row, each
    from its own date; the build's summary and `act check` say each, and no 'was X, now X'."""
    root = corpus_with(tmp_path, SHARED / "outside" / "derived.S8469A-2024-fulltext.txt")
    assert main(["build", "--corpus", str(root), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "m"),
                 "--no-site", "--no-cache"]) == 0
    said = capsys.readouterr().out
    for table, when, new, old in (("iii", "2024-06-01", "4.70", "3.97"), ("iv", "2025-01-01", "4.85", "4.09"),
                                  ("v", "2026-01-01", "5.00", "4.21"), ("vi", "2027-01-01", "5.15", "4.34")):
        assert f"§ 88(4)(b)(1)(ii)(1)(A)({table}): from {when} the rate table changes — 1650 and up: " \
               f"$((P.U. - 1650) x {new})" in said, table
        assert f"x {old}) + " in said
        assert f"§ 1 in § 88(4)(b)(1)(ii)(1)(A)({table}): 1650 and up: '{old}' becomes '{new}'" in said
    assert not re.search(r"the rate is (\S+ per pilotage unit) \(was \1\)", said)


def test_the_review_names_a_later_rate_the_act_adds(tmp_path, capsys):
    """An act in force from 2027-06-15 that keeps $11.22 for 2027 and adds $11.56 from 2028-01-01 (the
    test act's text, taking effect immediately): the $11.56 is named with its date; the kept $11.22 is not
    a change."""
    text = (ROOT / "tests" / "acts" / "lis-rates-2028.txt").read_text(encoding="utf-8")
    act = tmp_path / "lis-now.txt"
    act.write_text(text.replace("take effect on January 1, 2028", "take effect immediately"), encoding="utf-8")
    code = main(["act", "check", str(act), "--became-law", "2027-06-15", "--corpus", str(CORPUS)])
    out = capsys.readouterr().out
    assert code == 0
    assert "§ 89-b(4)(b)(1): from 2028-01-01 the rate is $11.56 per pilotage unit (was $11.22 per pilotage unit)." in out
    assert "changes: 'on and after' becomes 'from'" in out
    assert "changes: adds 'until January first, two thousand twenty-eight'" in out
    assert "$11.22 per pilotage unit (was $11.22" not in out and "becomes 'FROM'" not in out


def test_act_check_reports_other_laws_and_refuses_with_the_reason(tmp_path, capsys):
    code = main(["act", "check", str(SHARED / "outside" / "nylg.2023-S4753.md"), str(NYLG / "2023-S6730.md"),
                 "--became-law", "2024-06-01", "--corpus", str(CORPUS)])
    out = capsys.readouterr().out
    assert code == 1
    assert "REFUSED: § 1 of the act amends 174/4/a, which is not in force on 2024-05-31" in out
    assert "reported: § 2 instructs the environmental conservation law" in out
    rows = [r for r in out.splitlines() if r.startswith("| ")]
    assert [c.strip() for c in rows[0].split("|")[1:7]] == ["act", "instructions read", "apply", "reported", "refused",
                                                            "verdict"]
    assert [c.strip() for c in rows[1].split("|")[1:7]] == ["nylg.2023-S4753.md", "2", "0", "0", "2", "refused as a whole"]
    assert [c.strip() for c in rows[2].split("|")[1:7]] == ["2023-S6730.md", "2", "1", "1", "0", "applies"]


# ---- prints of every kind -----------------------------------------------------------------------------------

_FURNITURE = re.compile(r"^\s*(EXPLANATION--|\[ \] is old law|LBD\d{5}|[AS]\. \d+(--[A-Z])?\s+\d+\s*$)")


def numbered(text: str, width: int) -> str:
    """A8982A as LBDC prints it: each line of a page numbered from 1 (``width`` 0: at column 1), the page's
    footer and the next page's header not numbered."""
    out, n = [], 0
    for line in text.split("\n"):
        if _FURNITURE.match(line):
            n = 0 if re.match(r"^\s*[AS]\. \d", line) else n
            out.append(line)
        elif line.strip():
            n += 1
            out.append(f"{n:>{width}}{'' if width == 0 else '  '}{line}" if width else f"{n}{line}")
        else:
            out.append(line)
    return "\n".join(out)


def read_act(text: str, name: str = "print.txt"):
    from navlaw.frontend.acts import parse_act
    from navlaw.frontend.load import SourceDocument
    from navlaw.frontend.manifest import Entry

    entry = Entry(file=name, kind="act", covers=(), effective=None, became_law=dt.date(2024, 6, 1), status="in-force",
                  source="", confidence="verified", note="", list_numbering="", section="", code_prefix="", code_cite="Nav. Law",  # the corpus's law
                  anchors=(), fragments=(), line=1)
    diags = Diagnostics()
    return parse_act(SourceDocument(name, text, "", len(text.encode())), entry, diags), diags


@pytest.mark.parametrize("kind", ["numbers at column 1", "numbers at column 6", "flattened", "flattened and numbered"])
def test_every_kind_of_print_reads_as_the_plain_print(kind):
    raw = (NYLG / "2024-A8982A.md").read_text(encoding="utf-8")
    plain = raw[raw.index("## Full Text") + len("## Full Text"):]
    text = {"numbers at column 1": numbered(plain, 0), "numbers at column 6": numbered(plain, 6),
            "flattened": " ".join(plain.split()), "flattened and numbered": " ".join(numbered(plain, 6).split())}[kind]
    want, _ = read_act(plain)
    got, diags = read_act(text)
    assert [d.message for d in diags if d.severity is Severity.ERROR] == []
    assert [(i.action, i.target) for i in got.instructions] == [(i.action, i.target) for i in want.instructions]
    assert [" ".join(i.body.split()) for i in got.instructions] == [" ".join(i.body.split()) for i in want.instructions]
    assert got.effective == dt.date(2024, 6, 1)
    if not kind.startswith("flattened"):  # the offset map: the instruction's line is the print's
        assert [i.line for i in got.instructions] == [i.line for i in want.instructions]
    else:
        assert set(i.line for i in got.instructions) == {1}
    assert not any(re.search(r"LBD\d|8982--A|EXPLANATION", i.body) for i in got.instructions)


# ---- LBDC update records ------------------------------------------------------------------------------------

LBDC = ROOT / "tests" / "acts" / "lbdc"


def corpus_with_updates(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
            m.write(f'\n[[document]]\nfile = "{name}"\nkind = "consolidated"\nstatus = "in-force"\n'
                    f'source = "LBDC update"\nconfidence = "verified"\n')
    return root


def test_an_lbdc_repeal_record_repeals_the_section_from_its_date(tmp_path, capsys):
    """OL's 20140923.UPDATE (`..SO DOC ABC4  *REPEAL*`), the id written as a section of this corpus's law
    (NAV88-A) in a file named for 2027-06-01: § 88-a is repealed from that day, in every command."""
    record = (LBDC / "20140923.UPDATE").read_text(encoding="utf-8").replace("ABC4", "NAV88-A")
    root = corpus_with_updates(tmp_path, {"20270601.UPDATE": record})
    corpus = compile_corpus(root)
    diags = Diagnostics()
    timeline = build_timeline(corpus, diags)
    assert timeline.section_on("88-a", dt.date(2027, 5, 31)).section is not None
    assert timeline.section_on("88-a", dt.date(2027, 6, 1)).section is None
    said = [d for d in list(corpus.diagnostics) + list(diags) if d.file.endswith("20270601.UPDATE")]
    assert not any("contents only" in d.message for d in said)
    assert any("repeals § 88-a from 2027-06-01 (the date the update file is named by): applied" in d.message for d in said)
    assert main(["show", "88-a", "--on", "2027-06-01", "--corpus", str(root)]) == 1
    assert "§ 88-a was repealed on 2027-06-01" in capsys.readouterr().err


def test_lbdc_records_not_applied_are_named_in_a_warning(tmp_path):
    """The real records: ABC4 *REPEAL* (another law) and CCO1 *DELETE*; and a repeal of a section the
    corpus does not hold on the day before is an error naming it."""
    root = corpus_with_updates(tmp_path, {
        "20140923.UPDATE": (LBDC / "20140923.UPDATE").read_text(encoding="utf-8"),
        "20200601.UPDATE": (LBDC / "20200601.UPDATE").read_text(encoding="utf-8"),
        "20270602.UPDATE": (LBDC / "20200601.UPDATE").read_text(encoding="utf-8").replace("CCO1", "NAV88-A"),
        "20270603.UPDATE": (LBDC / "20140923.UPDATE").read_text(encoding="utf-8").replace("ABC4", "NAV49"),
    })
    corpus = compile_corpus(root)
    diags = Diagnostics()
    build_timeline(corpus, diags)
    said = {(Path(d.file).name, d.severity): d.message for d in diags if d.code == "lbdc-update"}
    assert "`..SO DOC ABC4 *REPEAL* LAWS(CONSOLIDATED)` is for another law (ABC)" in said[("20140923.UPDATE", Severity.WARNING)]
    assert "not applied" in said[("20200601.UPDATE", Severity.WARNING)]
    assert "`..SO DOC NAV88-A *DELETE* LAWS(CONSOLIDATED)` deletes the record from the LBDC database, which is not a " \
           "repeal" in said[("20270602.UPDATE", Severity.WARNING)]
    assert "repeals § 49, which is not in force on 2027-06-02: not applied" in said[("20270603.UPDATE", Severity.ERROR)]


def test_a29_new_article_in_capitals_nests_past_subdivision_headings(tmp_path):
    """A29 adds article 4-B (§§ 79-d … 79-n) in CAPITALS, with headed subdivisions: "1. CRIMINAL PENALTIES.
    (A) OPERATION …" and "(B) … MISDEMEANOR OFFENSES. (I) A VIOLATION …": paragraph (a) and (b) of 1,
    and (b)'s subparagraph (i) — not a subclause "(A)" or an item "(I)"; the roman numerals it cites
    ("SUBPARAGRAPH (I) OR (II)") are in law case too. (The act is refused as a whole — its § 6 amends
    § 49, which the corpus lacks — so its texts are read as it would apply them.)"""
    _, act, _, errors, done = applied(tmp_path, SHARED / "outside" / "nylg.2023-A29.md")
    assert done.rejected and errors[0].startswith("§ 6 of the act amends 49/4")
    text = next(new for (_, target), (_, new) in done.made.items() if target == "79-f")
    assert "1. Criminal penalties. (a) Operation of a vessel while ability impaired." in text
    assert "misdemeanor offenses. (i) A violation of subdivision three, five, six or seven of section seventy-nine-d" in text
    assert "subparagraph (i) or (ii) of this paragraph" in text
    doc = compile_text(text + "\n")
    got = ids(doc)
    assert {"79-f/1", "79-f/1/a", "79-f/1/b", "79-f/1/b/i", "79-f/1/b/ii", "79-f/1/c/i"} <= set(got)
    assert not [i for i in got if re.fullmatch(r"79-f/\d+/[A-Z]+|79-f/\d+/[a-z]/[IVX]+", i)]


def test_the_change_report_says_no_fee_change_where_an_act_restates_a_rate(tmp_path, capsys):
    """The same act in the corpus: the change report names the $11.56 from 2028-01-01 under the act and
    under Fees, and has no "$11.22 (was $11.22)" on the day the act restates the 2027 rate."""
    text = (ROOT / "tests" / "acts" / "lis-rates-2028.txt").read_text(encoding="utf-8")
    act = tmp_path / "lis-now.txt"
    act.write_text(text.replace("take effect on January 1, 2028", "take effect immediately"), encoding="utf-8")
    root = corpus_with(tmp_path, act, "2027-06-15")
    assert main(["changes", "--from", "2027-06-01", "--to", "2028-01-02", "--corpus", str(root)]) == 0
    out = capsys.readouterr().out
    line = "§ 89-b(4)(b)(1): from 2028-01-01 the rate is $11.56 per pilotage unit (was $11.22 per pilotage unit)."
    assert f"- fee change: {line}" in out and f"\n- {line}" in out
    assert "(was $11.22 per pilotage unit)" not in out.replace(line, "")
    assert "- § 1 in § 89-b(4)(b)(1): 'on and after' becomes 'from'" in out


RENUMBER = """AN ACT to amend the navigation law, in relation to pilotage on the Hudson river

  THE PEOPLE OF THE STATE OF NEW YORK, REPRESENTED IN SENATE AND  ASSEM-
BLY, DO ENACT AS FOLLOWS:

  Section 1. Subdivisions 7 and 8 of section 89-a of the navigation law
are renumbered subdivisions 8 and 9.
  § 2. This act shall take effect immediately.
"""


def test_renumbering_a_run_of_subdivisions_keeps_each_text(tmp_path):
    """"Subdivisions 7 and 8 … are renumbered subdivisions 8 and 9": 8 is the old 7 (not repealed by the
    renumbering of the old 8), 9 the old 8, 7 is gone."""
    act = tmp_path / "renumber.txt"
    act.write_text(RENUMBER, encoding="utf-8")
    _, _, timeline, errors, done = applied(tmp_path, act, "2027-03-01")
    before = timeline.section_on("89-a", dt.date(2027, 2, 28)).section
    after = timeline.section_on("89-a", dt.date(2027, 3, 1)).section
    assert errors == [] and before is not None and after is not None
    assert after.find("89-a/7") is None
    assert after.find("89-a/8").full_text().split("\n", 1)[1] == before.find("89-a/7").full_text().split("\n", 1)[1]
    assert after.find("89-a/9").full_text().split("\n", 1)[1] == before.find("89-a/8").full_text().split("\n", 1)[1]


def test_an_html_print_reads_as_the_plain_print(capsys):
    """OL's bill text XML of A5464 (2017): the print in <PRE> with line numbers, new matter in <B><U>,
    "&#167;" for §, a page break in HTML: its instruction (the election law: reported) and its effective
    date are read; nothing is said of a missing effective-date section."""
    act, diags = read_act((SHARED / "outside" / "ol.BILLTEXT-A05464-2017.xml").read_text(encoding="utf-8"))
    assert [d.message for d in diags if d.severity is Severity.ERROR] == []
    assert act.effective == dt.date(2024, 7, 1)  # "on the thirtieth day after" 2024-06-01 (read_act's date)
    assert [(r.number, r.law, r.targets) for r in act.reported] == [(1, "election law", ("8-407/5",))]
    assert act.reported[0].line == 28  # the raw line of "Section  1." in the XML file
    assert any("HTML" in r for r in act.removed) and "line numbers" in act.removed


def test_a_capitalised_heading_that_wraps_is_one_heading(tmp_path):
    """A29's "§  79-M.  SPECIAL  PROCEDURES  AND  DISPOSITION  INVOLVING ALCOHOL AND" / "SUBSTANCE ABUSE
    ASSESSMENT AND TREATMENT. 1. DEFINITIONS. …": one heading, in law case, and subdivision 1 after it."""
    _, act, _, _, done = applied(tmp_path, SHARED / "outside" / "nylg.2023-A29.md")
    text = next(new for (_, target), (_, new) in done.made.items() if target == "79-m")
    sec = compile_text(text + "\n").find("79-m")
    assert sec is not None and sec.heading.rstrip(".") == (
        "Special procedures and disposition involving alcohol and substance abuse assessment and treatment")
    assert sec.find("79-m/1") is not None
