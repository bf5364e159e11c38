"""The section tree: structure, ids, citations, tables, and losslessness, checked against the text."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_text
from navlaw.model.nodes import Article, Formula, Part, Provision, Section, Table

from .conftest import CONSOLIDATED, CORPUS, HUDSON, LIS_2022, RULE, SANDY_HOOK


def parents(doc):
    out = {}

    def visit(n, parent):
        out[n.id or id(n)] = parent
        for c in n.children:
            visit(c, n)

    visit(doc, None)
    return out


def test_all_207_sections_under_their_article_and_part(docs):
    doc = docs[CONSOLIDATED]
    raw = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8")
    # which article (and part) heading precedes each "ｧ N." line in the raw text
    expected = []
    article = "1"  # § 2 precedes the first heading, "Article 2"
    part = None
    for line in raw.split("\n"):
        if m := re.match(r"Article (\S+) - ", line):
            article, part = m.group(1), None
        elif m := re.match(r"Part (\S+) - ", line):
            part = m.group(1)
        elif m := re.match(r"ｧ (\S+?)\.? ", line):
            expected.append((m.group(1), article, part))
        # line 777: "… shall be void. ｧ 137. Appointment of appraisers. If …": § 137 starts inside § 136's
        # line, after its last sentence (issue 27: it was read as § 136's text, and § 137 was lost)
        expected.extend((m.group(1), article, part) for m in re.finditer(r"(?<=\.) ｧ (\d\S*?)\. [A-Z]", line))
    assert len(expected) == 207 and ("137", "10", None) in expected
    got = []
    for a in doc.children:
        if not isinstance(a, Article):
            continue
        for c in a.children:
            for s in ([c] if isinstance(c, Section) else c.children if isinstance(c, Part) else []):
                if isinstance(s, Section):
                    got.append((s.label, a.label, c.label if isinstance(c, Part) else None))
    assert got == expected


def test_duplicate_sections_get_distinct_ids_and_a_warning(corpus, docs):
    ids = [s.id for s in docs[CONSOLIDATED].sections()]
    for num in ("45-aaaa", "45-aaaaaa", "74"):
        assert ids.count(num) == 1 and ids.count(f"{num}*2") == 1
    warned = {d.line for d in corpus.diagnostics if d.code == "duplicate-section"}
    assert {171, 177, 324} <= warned  # the second heading of each pair, lines in the raw file


def test_heading_only_sections_are_kept_and_marked(docs):
    s87 = docs[CONSOLIDATED].find("87")
    assert s87.heading == "Board of commissioners of pilots; powers and duties"
    assert "heading-only" in s87.flags and not s87.children
    assert "heading-only" not in docs[CONSOLIDATED].find("88").flags


def test_spot_checks_a_lawyer_would_make(docs):
    n = docs[LIS_2022].find("89-b/4/b/2")
    assert n.text.startswith("A minimum charge calculated on two hundred pilotage units")
    assert n.citation == "Nav. Law § 89-b(4)(b)(2)"
    n = docs[HUDSON].find("89-a/4/b/2")
    assert n.text.startswith('"Pilotage units" shall be determined')
    n = docs[HUDSON].find("89-a/4/b/1/vii")
    assert n.text.startswith("Effective January first, two thousand twenty-two, the following base pilotage rates")
    assert "$19.17" in n.text


def test_factor_adjustment_table_is_a_table_of_six_rows(docs):
    b = docs[CONSOLIDATED].find("88/4/b")
    tables = [c for c in b.children if isinstance(c, Table)]
    t = tables[0]
    assert [c.text for c in t.header.cells] == ["PILOTAGE UNITS", "FACTOR", "ADJUSTMENT"]
    assert len(t.rows) == 6
    assert [c.text for c in t.rows[3].cells] == ["100 to 299.99", "7.65", "-55"]
    assert [c.text for c in t.rows[5].cells] == ["475 and over", "0.91", "+3014"]


def test_siblings_after_nested_inserts_hudson(docs):
    """(1), (1-a), (1-b), (1-c) then (2) are siblings even though (2) comes after (1-c)(v)(E)."""
    b = docs[HUDSON].find("89-a/4/b")
    assert [c.label for c in b.children] == ["(1)", "(1-a)", "(1-b)", "(1-c)", "(2)", "(3)"]
    assert [c.label for c in docs[HUDSON].find("89-a/4/b/1-c").children] == ["(i)", "(ii)", "(iii)", "(iv)", "(v)"]
    assert [c.label for c in docs[HUDSON].find("89-a/4/b/1-c/v").children] == ["(A)", "(B)", "(C)", "(D)", "(E)"]
    assert [c.label for c in docs[HUDSON].find("89-a/4").children] == ["(a)", "(b)", "(c)", "(d)"]
    assert [c.id for c in docs[HUDSON].find("89-a").children] == ["89-a/4", "89-a/7", "89-a/8"]


def test_i_after_h_is_a_letter_elsewhere_a_clause():
    diags = Diagnostics()
    doc = compile_text("§ 9. Test.\n1. Intro.\n(g) g.\n(h) h.\n(i) the ninth letter.\n(j) j.\n"
                       "(k) k.\n(1) one.\n(i) a clause.\n(ii) two.\n", diagnostics=diags)
    assert doc.find("9/1/i").text == "the ninth letter."
    assert doc.find("9/1/i").level == "paragraph"
    assert doc.find("9/1/k/1/i").level == "clause"
    assert doc.find("9/1/k/1/ii").text == "two."
    notes = [d for d in diags if d.code == "label-ambiguous"]
    assert notes and "label (i) read as a paragraph" in notes[0].message


def test_bracketed_relettering_in_the_rule(docs):
    s = docs[RULE].find("21nycrr/55.2")
    assert [c.label for c in s.children] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)", "(g)", "(h)"]
    c = docs[RULE].find("21nycrr/55.2/c")
    assert c.old_label == "(b)" and c.citation == "21 NYCRR § 55.2(c)"
    g = docs[RULE].find("21nycrr/55.2/g")
    assert [k.label for k in g.children if isinstance(k, Provision)] == ["(1)", "(2)", "(3)", "(4)", "(5)"]
    deleted = [k for k in g.find("21nycrr/55.2/g/3").children if "deleted" in k.flags]
    assert deleted and deleted[0].text.startswith("[(4) A pilot detained on board a vessel on account of quarantinable")


def test_sandy_hook_fragments_become_the_provisions_the_manifest_names(docs):
    doc = docs[SANDY_HOOK]
    for k, sub in enumerate(["i", "ii", "iii", "iv", "v", "vi"]):
        frag = doc.find(f"88/4/b/1/ii/1/A/{sub}")
        assert frag.citation == f"Nav. Law § 88(4)(b)(1)(ii)(1)(A)({sub})"
        (table,) = frag.children
        assert isinstance(table, Table) and len(table.rows) == 6
        assert table.rows[0].cells[0].text == "0 to 24.99"
        assert table.rows[0].line == 3 + 6 * k
    assert doc.find("88/4/b/1/ii/1/A/v").children[0].rows[3].cells[1].text == "$(13.19 x P.U.)"
    assert doc.find("88/4/e").children[0].text.startswith("Such surcharge may fund similar future expenditures")


def test_formula_blocks(docs):
    f = [n for n in docs[CONSOLIDATED].find("88/4/b/2").children if isinstance(n, Formula)]
    assert f and f[0].text == ("Overall Length x Extreme Breadth x Depth to Uppermost Continuous Deck "
                               "_____________________________ 10,000 equals Pilotage Units")
    f = [n for n in docs[LIS_2022].find("89-b/4/b/3").children if isinstance(n, Formula)]
    assert f and f[0].text.endswith("10,000 equals pilotage units")


def test_no_error_diagnostics_in_the_newer_texts(corpus):
    for d in corpus.diagnostics:
        if not d.file.endswith(CONSOLIDATED):
            assert d.severity < Severity.ERROR, d.format()
    assert not corpus.diagnostics.has_errors()


def test_lossless_every_document(corpus):
    for c in corpus.documents:
        doc = c.document
        assert doc.source_text() == doc.normal.text, c.source.path
        assert doc.normal.denormalize() == c.source.text
        raw_lines = c.source.text.split("\n")
        for n in doc.walk():
            if isinstance(n, Provision) and "fragment" not in n.flags and "implied" not in n.flags:
                # a provision's line:column points at its label in the raw file
                raw_at = raw_lines[n.line - 1][n.column - 1 :]
                assert raw_at.startswith(n.label), (n.id, raw_at[:20])
            elif isinstance(n, Section) and "implied" not in n.flags:
                assert raw_lines[n.line - 1][n.column - 1 :].startswith(("ｧ", "§", "Section"))


# ---- property: statute-like text in, a lossless tree out, never an exception ----------------------

labels = st.sampled_from(["1. ", "2. ", "(a) ", "(b) ", "(1) ", "(1-a) ", "(2) ", "(i) ", "(ii) ", "(A) ",
                          "(h) ", "4. (a) ", "1.(A) ", "[(b)] (c) ", "(aa) "])
words = st.sampled_from(["vessel", "shall", "pay", "$12.17", "per", "pilotage", "unit", "(34)", "§ 89-a",
                         "....", "10,000", "Article", "Part", "\\n", "ｧ"])
line = st.one_of(
    st.builds(lambda l, w: l + " ".join(w), labels, st.lists(words, max_size=6)),
    st.builds(lambda n, h: f"ｧ {n}. {h}", st.sampled_from(["88", "89-a", "45-aaaa", "2"]), st.sampled_from(["Rates.", "Pilots"])),
    st.builds(lambda n: f"Article {n} - TITLE", st.sampled_from(["2", "4-A", "6"])),
    st.builds(lambda n: f"Part {n} - TITLE", st.sampled_from(["1", "2-A"])),
    st.builds(lambda a, b: f"{a} to {b}\t$4{a}\t+1", st.integers(0, 500), st.integers(0, 999)),
    st.builds(lambda a: f"{a} to 49.99 | $80{a} |", st.integers(0, 50)),
    st.just("_______________"), st.just(""), st.just("   "),
    st.lists(words, min_size=1, max_size=8).map(" ".join),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(line, max_size=25).map("\n".join), st.booleans())
def test_any_statute_like_text_gives_a_lossless_tree(text, crlf):
    if crlf:
        text = text.replace("\n", "\r\n")
    diags = Diagnostics()
    doc = compile_text(text, diagnostics=diags)
    assert doc.source_text() == doc.normal.text
    assert doc.normal.denormalize() == text
    raw_lines = text.replace("\r\n", "\n").split("\n")
    for n in doc.walk():
        if n.line:
            assert 1 <= n.line <= len(raw_lines) + 1
    for d in diags:
        assert d.line >= 1 and d.message


# The levels below a section, as the legislature cites them (subdivision 1, paragraph (a), subparagraph
# (1), clause (i), subclause 1 or (A), item (A), subitem (i)); a label's form at each depth.
_LADDER = [r"\d+(-[a-z]+)?", r"[a-z]{1,2}(-\d+)?", r"\d+(-[a-z]+)?", r"[ivxlc]+(-\d+)?", r"\d+|[A-Z]", r"[A-Z]{1,2}",
           r"[ivxlc]+"]


def test_one_provision_one_id_in_every_text_that_holds_it(corpus):
    """S8469A of 2024 cites "item (A) of subclause 1 of clause (ii) of subparagraph 1 of paragraph b of
    subdivision 4 of section 88": 88/4/b/1/ii/1/A. Every text of a priced section gives each of its
    provisions the id of the legislature's levels, so the texts that share a provision share its id
    (file 000 lost the "(1)"; the manifest's lost_labels restores it)."""
    shared: dict[str, set[str]] = {}
    for c in corpus.documents:
        for n in c.document.walk():
            if not isinstance(n, Provision) or n.id.split("/")[0] not in ("88", "89-a", "89-b"):
                continue
            parts = n.id.split("/")[1:]
            assert all(d < len(_LADDER) and re.fullmatch(_LADDER[d], p) for d, p in enumerate(parts)), \
                f"{c.source.path}: {n.id} does not follow the levels the legislature cites"
            shared.setdefault(n.id, set()).add(c.source.path.rsplit("/", 1)[-1])
    for sub in ("iii", "iv"):  # the 2002 subitems and the 2022 tables are one provision each
        assert shared[f"88/4/b/1/ii/1/A/{sub}"] == {"nav-law.consolidated.txt", "088.fragments.2022.txt"}
    assert shared["88/4/b/1/ii/1/A"] == {"nav-law.consolidated.txt", "088.fragments.2022.txt"}
    assert "88/4/b/ii" not in shared and "88/4/b/1/ii/A" not in shared


def test_lost_labels_are_restored_as_implied_provisions(corpus):
    doc = next(c.document for c in corpus.documents if c.source.path.endswith(CONSOLIDATED))
    sub = doc.find("88/4/b/1")
    assert isinstance(sub, Provision) and "implied" in sub.flags and sub.label == "(1)"
    assert [k.id for k in sub.children] == ["88/4/b/1/ii"]
    assert doc.find("88/4/b/1/ii").citation == "Nav. Law § 88(4)(b)(1)(ii)"
    assert doc.find("88/4/b/1/ii/1/A/iv").text.startswith("Effective July first, two thousand two")
    assert doc.find("88/4/b/2").text.startswith('"Pilotage Units" as used in this subdivision')
