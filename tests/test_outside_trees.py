"""What each real New York law text in ../shared/outside/ must read into (issue 15, item 4).

Every expectation here was written by hand from the text itself (the line numbers are the file's own):
the sections and their headings, a few provisions with the words they begin with, the contents that
must not become sections. The files are read in place, never copied into the repository.
"""

from __future__ import annotations

import pytest

from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_file
from navlaw.model.nodes import Document, Node

from .conftest import ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
pytestmark = pytest.mark.skipif(not OUTSIDE.is_dir(), reason="../shared/outside/ is not beside the repository")


def read(name: str) -> tuple[Document, Diagnostics]:
    diags = Diagnostics()
    doc = compile_file(OUTSIDE / name, diags)
    assert doc.source_text() == doc.normal.text  # nothing lost: every character is in the tree
    return doc, diags


def of(doc: Document, kind: str) -> list[Node]:
    return [n for n in doc.walk() if n.kind == kind]


def section_ids(doc: Document) -> list[str]:
    return [n.id for n in of(doc, "section")]


def node(doc: Document, node_id: str) -> Node:
    n = doc.find(node_id)
    assert n is not None, f"{node_id} is not in the tree"
    return n


def body(n: Node) -> str:
    """The node's own text, or (a section) the text of its first paragraph."""
    if n.text:
        return n.text
    first = next((c for c in n.children if c.kind in ("text", "provision")), None)
    return first.text if first is not None else ""


def contents(doc: Document) -> list[str]:
    return [n.text for n in of(doc, "text") if "toc" in n.flags]


def findings(diags: Diagnostics, severity: Severity) -> list[str]:
    return [d.message for d in diags if d.severity is severity]


# ---- LBDC law dumps ------------------------------------------------------------------------------

def test_abc_head_records_are_the_chapter_two_articles_and_five_sections():
    doc, diags = read("ol.DATABASE.LAW.ABC.head.txt")
    assert section_ids(doc) == ["1", "4", "5", "6", "7"]  # the records ABC1, ABC4 … ABC7; no section from the contents
    assert [(a.id, a.heading) for a in of(doc, "article")] == [
        ("article-1", "SHORT TITLE; POLICY OF STATE AND PURPOSE OF CHAPTER: DEFINITIONS"),
        ("article-2", "LIQUOR AUTHORITY")]
    s4 = node(doc, "4")
    assert s4.heading == "Short title" and body(s4).startswith('This chapter shall be known and may be cited and referred to as the "alcoholic beverage control law."')
    assert node(doc, "7").heading == "Appointment of authority"
    assert body(node(doc, "7")).startswith("The members of the authority shall be appointed by the governor")
    s1 = node(doc, "1")  # record ABC1 holds no heading: "Purposely left blank for testing."
    assert "implied" in s1.flags and body(s1) == "Purposely left blank for testing."
    assert contents(doc) == [
        "Article 1. Short title; policy of state and purpose of chapter; definitions. (§§ 1-3.)",
        "2. Liquor authority. (§§ 10-19.)",
        "Section 1. Short title.", "2. Policy of state and purpose of chapter.", "3. Definitions.",
        "Section 10. State liquor authority.", "11. Appointment of authority."]
    assert not findings(diags, Severity.WARNING) and not findings(diags, Severity.ERROR)


def test_abc_2020_reads_section_3s_definitions_with_their_inserted_numbers():
    doc, diags = read("ol.DATABASE.LAW.ABC.2020.txt")
    assert section_ids(doc) == ["1", "2", "3", "10", "11"]
    assert node(doc, "3").heading == "Definitions"
    assert body(node(doc, "3")) == "Whenever used in this chapter, unless the context requires otherwise:"
    subs = [n.label for n in node(doc, "3").children if n.kind == "provision"]
    assert subs[:9] == ["1.", "2.", "3.", "3-a.", "3-b.", "4.", "5.", "6.", "7."]
    # lines 190-211: 12-a, 12-aa, 12-aaa, 12-b, 12-c, 13: both of New York's ways of inserting, in one list
    assert subs[subs.index("12-a."):subs.index("12-a.") + 6] == ["12-a.", "12-aa.", "12-aaa.", "12-b.", "12-c.", "13."]
    assert node(doc, "3/3-a").text.startswith('"Biomass feedstock" shall mean any substance')
    # line 95: "7-b. (a) "Cider" means ... by volume: (i) to which nothing has been added ..."
    assert node(doc, "3/7-b/a").text.startswith('"Cider" means the partially or fully fermented juice')
    assert node(doc, "3/7-b/a/i").text.startswith("to which nothing has been added to increase the alcoholic")
    # the text itself goes from 15 to 17 (line 229): said, not hidden
    assert findings(diags, Severity.WARNING) == ["label 17. skips ahead: the subdivision before it in this list is 15."]


def test_the_cp850_bytes_read_as_the_o_tilde_text_does():
    a, da = read("derived.DATABASE.LAW.ABC.2020.cp850.txt")
    b, _ = read("ol.DATABASE.LAW.ABC.2020.txt")
    assert [(n.id, n.heading, n.text) for n in a.walk()] == [(n.id, n.heading, n.text) for n in b.walk()]
    assert any("decoded as CP850" in m for m in findings(da, Severity.INFO))


def test_cco_chapter_record_is_contents_and_its_two_sections_are_read():
    doc, diags = read("ol.DATABASE.LAW.CCO.txt")
    assert section_ids(doc) == ["1", "2"]
    assert node(doc, "article-1").heading == "SHORT TITLE; POLICY; DEFINITIONS"
    assert body(node(doc, "1")) == 'This chapter shall be known as the "cooperative corporations law."'
    assert body(node(doc, "2")).startswith("It is the declared policy of this state, as one means of improving")
    # the chapter record quotes chapter 712's enacting clause: that does not make the dump a bill
    assert not findings(diags, Severity.WARNING)


def test_ehc_contents_stay_contents_and_section_1_begins_after_them():
    doc, diags = read("ol.DATABASE.LAW.EHC.txt")
    assert section_ids(doc) == ["1", "2", "3", "4"]
    assert contents(doc) == ["Section 1. Legislative findings.", "2. Short title.", "3. Definitions.",
                             "4. Regional pilot projects for the uninsured."]
    assert node(doc, "1").heading == "Legislative findings"
    assert body(node(doc, "1")).startswith("The legislature finds that there are more than two and one-half million")
    # line 77: "§ 4. Regional pilot projects for the uninsured. 1. The commissioner, ..."
    assert node(doc, "4").heading == "Regional pilot projects for the uninsured"
    assert node(doc, "4/1").text.startswith("The commissioner, in consultation with the subcommittee")
    assert node(doc, "4/2/a").text.startswith("An individual subsidy program shall assist individuals")
    assert node(doc, "3/4/vi").text == "a local social services district."
    assert not findings(diags, Severity.WARNING)


def test_etp_expiry_marks_enacting_record_and_lettered_paragraphs():
    doc, diags = read("ol.DATABASE.LAW.ETP.txt")
    assert section_ids(doc) == ["1", "2", "3", "4", "5", "5-a"]  # record ETP1974 is not a § 1974
    assert all("expires" in s.flags for s in of(doc, "section"))  # "* § 2. ..." and "* NB Expires June 16, 2015"
    assert sum(1 for n in of(doc, "text") if "editorial-note" in n.flags) >= 6
    assert len(contents(doc)) == 17  # "Section 1. Short title." … "14. Application of act.", with 5-a, 10-a, 12-a
    assert contents(doc)[5] == "5-a. High income rent deregulation."
    assert node(doc, "5").heading == "Housing accommodations subject to regulation"
    assert node(doc, "5/a").text.startswith("A declaration of emergency may be made pursuant to section three")
    assert node(doc, "3/a").text.startswith("The existence of public emergency requiring the regulation")
    assert node(doc, "5-a/a/1").text.startswith("For purposes of this section, annual income shall mean")
    assert any("holds § 4, not § 1974" in m for m in findings(diags, Severity.INFO))
    assert not findings(diags, Severity.WARNING)


def test_assembly_rules_number_sections_within_each_rule():
    doc, diags = read("ol.DATABASE.LAW.CMA.txt")
    rule1 = node(doc, "rule-i")
    assert rule1.heading == "SPEAKER"
    assert node(doc, "rule-i/1").heading == "Powers and Duties"
    # line 42: "Section 1. Powers and Duties. The Speaker shall: a. take the chair ..."
    assert body(node(doc, "rule-i/1")) == "The Speaker shall:"
    assert node(doc, "rule-i/1/a").text.startswith("take the chair each day at the hour to which the House adjourned")
    assert node(doc, "rule-i/3/g").text.startswith("The Speaker may, at pleasure, recognize a member")
    assert node(doc, "rule-ii/1").heading == "Stenographer"
    assert node(doc, "joint-rule-i/1").heading == "Requirement of Fiscal Impact Notes"
    assert node(doc, "joint-rule-ii/1").heading == "Committee on Conference"
    assert not [s for s in section_ids(doc) if "*" in s]  # no section number repeats within a rule


@pytest.mark.parametrize("name", ["ol.DATABASE.LAW.CMS.txt", "ol.SenateRulesSample.txt"])
def test_senate_rules_sections_without_headings_are_text(name):
    doc, _ = read(name)
    assert node(doc, "rule-i").heading == "THE PRESIDENT"
    s = node(doc, "rule-i/1")  # "Section 1. The Lieutenant Governor of the State shall be President of ..."
    assert s.heading == "" and body(s).startswith("The Lieutenant Governor of the State shall be President of the Senate")
    assert node(doc, "rule-ii").heading == "SENATE COMPOSITION"
    assert node(doc, "joint-rule-i/2/A").text.startswith("Scope of fiscal estimates.".replace(" ", "  ")) or \
        " ".join(node(doc, "joint-rule-i/2/A").text.split()).startswith("Scope of fiscal estimates.")
    assert node(doc, "joint-rule-i/2/A/i").text == "Individual political subdivisions; or"


def test_constitution_contents_have_roman_articles_and_no_sections():
    doc, diags = read("ol.ConstitutionRootSample.txt")
    assert [(a.id, a.heading) for a in of(doc, "article")] == [("article-i", "Bill of Rights"), ("article-ii", "Suffrage")]
    assert section_ids(doc) == []
    assert contents(doc)[:3] == ["Sec.", "1. Rights, privileges and franchise secured; uncontested primary elections.",
                                 "2. Trial by jury; how waived."]
    assert any("holds contents only" in m for m in findings(diags, Severity.INFO))


def test_no_header_sentence_is_not_a_tree_of_sections():
    _, diags = read("ol.DATABASE.LAW.NO_HEADER.txt")
    assert any(m.startswith("no section heading") for m in findings(diags, Severity.WARNING))


# ---- the same law from a JSON dump, as text -----------------------------------------------------------

def test_abandoned_property_law_from_the_json_dump():
    doc, diags = read("derived.ABP-law-text-from-json.txt")
    sections = section_ids(doc)
    assert len(sections) == 118 and len(of(doc, "article")) == 14  # 118 section nodes, 14 articles in the dump
    assert len(set(sections)) == 118  # the articles' contents made no duplicate sections
    assert sections[:3] == ["101", "102", "103"] and sections[-1] == "1502"
    assert node(doc, "article-i").heading == "SHORT TITLE; DECLARATION OF POLICY; DEFINITIONS"
    assert node(doc, "103/a").text.startswith('"Abandoned property fund" means the abandoned property fund')
    # "§ 300. Unclaimed property held or owing by banking organizations. 1.\nThe following ..."
    assert node(doc, "300").heading == "Unclaimed property held or owing by banking organizations"
    assert node(doc, "300/1").text.startswith("The following unclaimed property held or owing by banking")
    assert contents(doc)[0] == "Article I. Short title; declaration of policy; definitions. (§§ 101-103)"
    assert len(findings(diags, Severity.WARNING)) <= 1
