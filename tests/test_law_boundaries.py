"""Never silently wrong, by construction (issue 27): where law text begins and ends, which sections a
layout writes, whose law a text is, invisible characters, and the tree's invariants.

The law in these pages is the Navigation Law as the corpus holds it (nav-law.consolidated.txt: § 1 at
line 3, § 98 at line 645, § 202 at line 1163), laid out as the pages of the issue's "Why" show it, with
their chrome lines as the issue quotes them ("Top of Page", "Last modified: February 3, 2019", "‹ Prev
All New York sectio"); the disclaimer is in our words. The expected trees are written by hand.
"""

from __future__ import annotations

import io
import textwrap
import tokenize

import pytest

from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.assess import summarize
from navlaw.frontend.corpus import compile_file, compile_text
from navlaw.frontend.invariants import check_tree
from navlaw.model.nodes import Document, Provision, Section, Text

from .conftest import CONSOLIDATED, CORPUS, ROOT

LAW = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8").split("\n")
S1 = LAW[2]  # "This chapter shall be known as the navigation law, and shall apply …"
S98 = LAW[646]  # "The provisions of this article shall not apply to vessels navigating under a coastwise …"
S202 = LAW[1164]  # "Any work or proceeding initiated under any existing law which is repealed …"
OUTSIDE = ROOT.parent / "shared" / "outside"


def read(text: str, name: str = "page.txt") -> tuple[Document, Diagnostics]:
    diags = Diagnostics()
    doc = compile_text(text, name, diags)
    assert doc.source_text() == doc.normal.text  # lossless: chrome and contents are in the tree too
    return doc, diags


def law_text(doc: Document) -> str:
    """Everything the tree holds as law: sections' and provisions' text, and plain text inside sections."""
    out = []
    for s in doc.sections():
        for n in s.walk():
            if (n.kind in ("section", "provision") or n.kind == "text" and not n.flags) and n.text:
                out.append(n.text)
    return "\n".join(out)


def flagged(doc: Document, flag: str) -> list[str]:
    return [n.text for n in doc.walk() if flag in n.flags]


def messages(diags: Diagnostics, code: str) -> list[tuple[Severity, int, int, str]]:
    return [(d.severity, d.line, d.column, d.message) for d in diags if d.code == code]


# ---- 1. boundaries of the law: page chrome and contents ------------------------------------------------

def test_top_of_page_and_a_disclaimer_do_not_end_section_1():
    page = ("Navigation Law - Article 1- Section 1\n\n\nSection Description\n1 Short title.\n"
            f"    S 1. Short  title.  {S1}\n\nTop of Page\n\n"
            "The laws of this state change often. This site tries to keep them current, but official reporters "
            "should be consulted; no warranties are made as to the accuracy of this website, and no liability is "
            "assumed.\n")
    doc, diags = read(page)
    [s1] = doc.sections()
    assert (s1.id, s1.heading, s1.citation) == ("1", "Short title", "Nav. Law § 1")
    assert law_text(doc) == S1
    assert flagged(doc, "chrome") == ["Top of Page", page.split("\n")[-2]]
    assert all(isinstance(n, Text) and n in doc.children for n in doc.walk() if "chrome" in n.flags)  # the page's, not § 1's
    assert flagged(doc, "toc") == ["Section Description", "1 Short title."]
    s = summarize(doc)
    assert (s.sections, s.provisions, s.contents, s.chrome) == (1, 0, 2, 2)
    [note] = [d for d in diags if "web-page chrome" in d.message]
    assert (note.severity, note.line) == (Severity.INFO, 8)  # the line of "Top of Page"
    assert not [d for d in diags if d.severity is not Severity.INFO]


def test_last_modified_is_not_glued_into_section_98_written_without_a_section_sign():
    page = f"New York Navigation Law Section 98 - Application of article.\n\n98. Application of article. {S98}\n\n" \
           "Last modified: February 3, 2019\n"
    doc, diags = read(page)
    [s98] = doc.sections()
    assert (s98.id, s98.label, s98.heading, s98.citation) == ("98", "98", "Application of article", "Nav. Law § 98")
    assert law_text(doc) == S98 and not [n for n in doc.walk() if isinstance(n, Provision)]
    assert flagged(doc, "chrome") == ["Last modified: February 3, 2019"]
    assert messages(diags, "section-form") == [(Severity.INFO, 3, 1, '"98. Application of article." read as § 98: a '
                                                "number and a heading at the start of the page, which writes no § before its sections")]
    assert not [d for d in diags if d.severity is Severity.WARNING]


def test_prev_link_does_not_end_section_202_and_the_navigation_code_is_the_navigation_law():
    body = "\\n".join(textwrap.wrap(S202[:360], 72))  # the page's literal "\n" line breaks
    page = (f"New York Navigation Code § 202\n\nApplication and saving clause\nOpen in Lexace · Ask the AI about this "
            f"section\n§ 202. Application and saving clause. {body}\\n\n\n‹ Prev All New York sectio\n")
    doc, diags = read(page)
    [s202] = doc.sections()
    assert (s202.id, s202.citation) == ("202", "Nav. Law § 202")
    assert " ".join(law_text(doc).split()) == " ".join(textwrap.wrap(S202[:360], 72))
    assert flagged(doc, "chrome") == ["Open in Lexace · Ask the AI about this section", "‹ Prev All New York sectio"]


def test_a_senate_contents_page_is_contents_not_provisions():
    """nysenate.gov's article page lists the sections of Article 3 (§§ 33 … 39, as the consolidation
    numbers them): it once read as provisions 33 … 39-a of no section."""
    heads = [l.split(". ", 1) for l in LAW if l.startswith(("ｧ 33", "ｧ 34", "ｧ 35", "ｧ 36", "ｧ 37", "ｧ 38", "ｧ 39"))]
    page = "ARTICLE 3\nNavigable Waters of the State\nNavigation (NAV) CHAPTER 37, ARTICLE 3\n" + "".join(
        f"{num[2:]}. {head}\n" for num, head in heads)
    doc, diags = read(page)
    assert not doc.sections() and not [n for n in doc.walk() if isinstance(n, Provision)]
    entries = flagged(doc, "toc")
    assert len(entries) == len(heads) == 16 and entries[0] == "33. Deposit of refuse in navigable waters of the state."
    assert entries[-1] == "39. Motor boat regulation on Lake George."
    assert any("holds contents only (16 line(s))" in d.message for d in diags)


# ---- 2. section forms -----------------------------------------------------------------------------------

def test_a_section_after_a_sentence_on_the_same_line_is_a_section():
    """VTL as ypdcrime flattens it: "S 2251." after the sentence that ends § 2250 (the text here is in that
    layout; the numbers, not the words, are what is tested)."""
    page = ("Vehicle and Traffic Law\nS 2250. Definitions. As used in this title: 1. \"Vessel\" means every "
            "description of watercraft. 2. \"Operate\" means to navigate a vessel. S 2251. Penalties. 1. A violation "
            "of this title shall be a traffic infraction. 2. A second violation shall be a misdemeanor. 3. The court "
            "may suspend the privilege to operate.\n")
    doc, diags = read(page)
    assert [s.id for s in doc.sections()] == ["2250", "2251"]
    assert [n.id for n in doc.walk() if isinstance(n, Provision)] == ["2250/1", "2250/2", "2251/1", "2251/2", "2251/3"]
    assert doc.find("2250/2").text == "\"Operate\" means to navigate a vessel."
    assert doc.find("2251/1").citation == "Veh. & Traf. Law § 2251(1)"
    assert "Nav. Law" not in {n.citation for n in doc.walk()}
    assert messages(diags, "section-form")[0][:3] == (Severity.INFO, 2, 137)


def test_the_consolidations_section_137_inside_section_136s_line(docs):
    doc = docs[CONSOLIDATED]
    s136, s137 = doc.find("136"), doc.find("137")
    assert s136.full_text().endswith("shall be void.") and s137.heading == "Appointment of appraisers"
    assert (s137.line, s137.citation) == (777, "Nav. Law § 137")


def test_labels_after_a_semicolon_and_run_are_split_by_their_sequence():
    page = ("§ 1. Policy.\n1. The program shall provide: (i) a reliable supply of water; and    (ii) an efficient "
            "sound system;   and (iii) a plan of operation. The plan of subdivision (2) of this section applies; and "
            "(2) of section 3 too.\n")
    doc, _ = read(page)
    assert [(n.id, n.text) for n in doc.walk() if isinstance(n, Provision)] == [
        ("1/1", "The program shall provide:"), ("1/1/i", "a reliable supply of water; and"),
        ("1/1/ii", "an efficient sound system;   and"),
        ("1/1/iii", "a plan of operation. The plan of subdivision (2) of this section applies; and (2) of section 3 too.")]


def test_nycrr_in_westlaw_layout_is_a_rule_section_under_its_part():
    page = ("21 CRR-NY 51.1NY-CRR\n\nSTATE COMPILATION OF CODES, RULES AND REGULATIONS OF THE STATE OF NEW YORK\n"
            "TITLE 21. MISCELLANEOUS\nCHAPTER II. BOARD OF COMMISSIONERS OF PILOTS\n"
            "PART 51. PILOT APPRENTICES AND PILOTS IN TRAINING\n21 CRR-NY 51.1\n21 CRR-NY 51.1\n"
            "51.1 Sandy Hook pilot apprentices.\n(a) Scope.\n(b) Availability and number of apprentices.\n"
            "(1) The number of Sandy Hook pilot apprentices shall be set by the board.\n")
    doc, diags = read(page)
    [part] = [n for n in doc.walk() if n.kind == "part"]
    [s] = doc.sections()
    assert (part.label, s.id, s.heading) == ("51", "21nycrr/51.1", "Sandy Hook pilot apprentices") and s in part.children
    assert doc.find("21nycrr/51.1/b/1").citation == "21 NYCRR § 51.1(b)(1)"
    assert len(flagged(doc, "title")) == 6 and not [d for d in diags if d.severity is not Severity.INFO]


# ---- 3. whose law -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, first_citation", [
    ("ol.DATABASE.LAW.ABC.2020.txt", "Alco. Bev. Cont. Law § 1"),  # the LBDC record ids ABC1 …
    ("ol.DATABASE.LAW.CCO.txt", "Coop. Corp. Law § 1"),
    ("ol.DATABASE.LAW.EHC.txt", "§ 1"),  # an unconsolidated act: in no table of codes, so no code is named
    ("nylg.2023-A8128.md", "§ 1"),  # a bill amending the VTL and the Navigation Law: its sections are its own
])
def test_each_outside_dump_is_cited_as_its_own_law(name, first_citation):
    diags = Diagnostics()
    doc = compile_file(OUTSIDE / name, diags)
    assert doc.sections()[0].citation == first_citation
    assert not any(n.citation.startswith(("Nav. Law", "Veh. & Traf. Law")) for n in doc.walk())


def test_the_manifest_law_key_and_the_text_disagreeing_is_a_warning(tmp_path):
    from navlaw.frontend.corpus import compile_corpus
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "vtl.txt").write_text("Vehicle and Traffic Law\n§ 2251. Penalties. 1. A violation is an infraction.\n")
    (root / "manifest.toml").write_text('law = "Navigation Law"\n\n[[document]]\nfile = "vtl.txt"\nkind = "consolidated"\n')
    corpus = compile_corpus(root)
    assert [(d.severity, d.line, d.message) for d in corpus.diagnostics if d.code == "whose-law"] == [
        (Severity.WARNING, 1, "the manifest says this is Nav. Law, but the text names itself Vehicle and Traffic Law: "
                              "its citations say Nav. Law")]
    (root / "manifest.toml").write_text('[[document]]\nfile = "vtl.txt"\nkind = "consolidated"\n'
                                        'law = "Vehicle and Traffic Law"\n')
    assert compile_corpus(root).documents[0].document.find("2251/1").citation == "Veh. & Traf. Law § 2251(1)"
    (root / "manifest.toml").write_text('[[document]]\nfile = "vtl.txt"\nkind = "consolidated"\nlaw = "Traffic Law"\n')
    from navlaw.diagnostics import NavlawError
    with pytest.raises(NavlawError, match="unknown law 'Traffic Law'"):
        compile_corpus(root)


def test_no_nav_law_literal_outside_the_table_of_codes():
    """Comments and docstrings may cite the law; code names a code only through compiler/model/codes.py."""
    found = []
    for path in sorted((ROOT / "compiler").rglob("*.py")):
        if path.name == "codes.py":
            continue
        prev = None
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
            docstring = tok.type == tokenize.STRING and (prev is None or prev.type in (
                tokenize.INDENT, tokenize.NEWLINE, tokenize.DEDENT, tokenize.NL))
            if tok.type == tokenize.STRING and not docstring and "Nav. Law" in tok.string:
                found.append(f"{path.name}:{tok.start[0]}")
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok
    assert found == []


# ---- 4. invisible characters -------------------------------------------------------------------------

def test_format_characters_in_labels_are_read_without_them_and_said():
    doc, diags = read("§ 8\u200d8. Pilotage.\n1. Every vessel.\n(\u200ba) first.\n(\u2009b) second.\n")
    assert [n.id for n in doc.walk() if n.id] == ["88", "88/1", "88/1/a", "88/1/b"]  # not 8 and 88/2/1
    got = sorted(messages(diags, "unicode"), key=lambda x: (x[1], x[2]))
    assert [(s, l, c) for s, l, c, _ in got] == [(Severity.WARNING, 1, 4), (Severity.WARNING, 3, 2),
                                                  (Severity.WARNING, 4, 2)]
    assert got[0][3].startswith("U+200D ZERO WIDTH JOINER inside a label or section number: read without it")


def test_a_bidi_override_is_an_error():
    _, diags = read("§ 1. Fees.\n1. Vessels \u202eshall pay.\n")
    assert messages(diags, "unicode") == [(Severity.ERROR, 2, 12, "U+202E RIGHT-TO-LEFT OVERRIDE: a bidirectional "
                                           "control character can show a reader other text than the file holds; removed")]


# ---- 6. diagnostics that point, and the tree's invariants ------------------------------------------------

def test_generic_warnings_point_at_the_line_they_are_about():
    diags = Diagnostics()
    compile_file(OUTSIDE / "ol.DATABASE.LAW.CMS.txt", diags)
    [w] = [d for d in diags if d.message.startswith("most of the text is left as plain text")]
    assert (w.line, w.column) != (1, 1) and "at lines " in w.message


def test_the_invariant_check_finds_what_the_builder_did_not_split():
    doc, diags = read("§ 1. Fees.\n1. Vessels shall pay. Top of Page\n")  # a page's link glued into a line
    assert [(d.line, d.message) for d in diags if d.code == "invariant"] == [
        (2, "§ 1(1) holds page chrome or print furniture ('Top of Page'): it is not law text")]
    s = doc.sections()[0]
    bad = Provision(id="1/1", label="1.", text="(a) Every vessel. Top of Page", start=11, end=len(doc.normal.text),
                    line=2, column=1, citation="§ 1(1)")
    twin = Provision(id="1/1", label="3.", text="more", line=3, column=1, citation="§ 1(1)")
    broken = Document(id="", children=(Section(id="1", label="1", line=1, column=1, citation="§ 1", children=(bad, twin)),),
                      file="x.txt", normal=doc.normal)
    diags = Diagnostics()
    assert check_tree(broken, diags) == 4
    assert {(d.line, d.message) for d in diags} == {
        (2, "§ 1(1) holds page chrome or print furniture ('Top of Page'): it is not law text"),
        (2, "the text of § 1(1) begins with a label ('(a)'): a provision the tree did not split off"),
        (3, "label 3. after 1. in § 1 does not continue its list, and nothing said why"),
        (3, "the id '1/1' is given twice (first at line 2)")}
    assert all(d.severity is Severity.WARNING for d in diags)
    assert s.id == "1"


@pytest.mark.skipif(not OUTSIDE.is_dir(), reason="../shared/outside/ is not beside the repository")
@pytest.mark.parametrize("name", sorted(p.name for p in OUTSIDE.glob("*") if p.suffix != ".json" and p.name != "README.md"
                                        and not p.name.endswith(".xml")) if OUTSIDE.is_dir() else [])
def test_every_outside_text_holds_the_trees_invariants(name):
    diags = Diagnostics()
    compile_file(OUTSIDE / name, diags)
    assert [f"{d.line}:{d.column}: {d.message}" for d in diags if d.code == "invariant"] == []
    assert not [d for d in diags if d.severity is not Severity.INFO and (d.line, d.column) == (0, 0)]
