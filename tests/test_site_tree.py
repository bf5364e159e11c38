"""Issue 30, item 1: every node of every tree of the corpus is on a page of the site — articles, Part
headings, sections, provisions (each at its anchor), text before the first section, tables, formulas —
found by walking every document's tree, not only its sections."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from navlaw.build import compile_law, site_pages
from navlaw.model.nodes import Article, Formula, Node, Part, Provision, Section, Table, Text

from .conftest import CORPUS


def _plain(markup: str) -> str:
    """A page's words: tags dropped, character references read, whitespace as single spaces."""
    inline = re.sub(r"</?(?:span|a|dfn|del|ins|em|strong|code|abbr)\b[^>]*>", "", markup)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", inline)))


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def built():
    law = compile_law(str(CORPUS))
    pages = {name: text for name, text in site_pages(law).items() if name.endswith(".md")}
    return pages, law


def test_every_node_of_every_tree_is_on_a_page(built):
    pages, law = built
    words = {name: _plain(text) for name, text in pages.items()}
    everything = " ".join(words.values())
    anchors = set()
    for text in pages.values():
        anchors.update(re.findall(r'id="([^"]+)"', text))
    missing: list[str] = []
    walked = 0

    def where(doc: str, n: Node) -> str:
        return f"{doc}:{n.line}: {type(n).__name__} {n.id or ''} {(n.heading or n.text)[:60]!r}"

    for c in law.corpus.documents:
        doc = Path(c.source.path).name

        def visit(n: Node) -> None:
            nonlocal walked
            walked += 1
            if isinstance(n, (Article, Part)):
                if n.heading and _words(n.heading) not in everything:
                    missing.append(where(doc, n))
            elif isinstance(n, (Section, Provision)):
                if n.id and not any(a.endswith("p-" + re.sub(r"[^A-Za-z0-9-]+", "-", n.id.replace("*", "x")))
                                    for a in anchors):
                    missing.append(where(doc, n))
            elif isinstance(n, Text):
                # deleted matter in bracket notation is shown struck through, without its brackets
                w = _words(n.text)[:80]
                if w and w not in everything and re.sub(r"[\[\]]", "", w) not in everything:
                    missing.append(where(doc, n))
            elif isinstance(n, Table):
                cells = [_words(x.text) for r in n.rows for x in r.cells if _words(x.text)]
                if cells and not all(x in everything for x in cells[:5]):
                    missing.append(where(doc, n))
            elif isinstance(n, Formula):
                pass  # drawn as a block of its own text (checked by tests/test_site.py)
            for ch in n.children:
                visit(ch)

        visit(c.document)
    assert walked > 500
    # the chapter's opening section, whose heading the source lost, is shown as such
    assert "the chapter's opening section" in words["law/outside.md"]
    assert not missing, f"{len(missing)} node(s) on no page:\n" + "\n".join(missing[:40])


def test_older_text_under_current_parts_is_labelled_with_its_source_and_dates(built):
    """Item 2: on § 88's page the 2002 FACTOR/ADJUSTMENT table and its 7.5% sentence under (b) stand among
    2022 parts: a label right above them names their source and dates."""
    pages, _ = built
    page = pages["law/88.md"]
    table = page.index("<th>FACTOR</th>")
    label = page.rfind('<p class="known', 0, table)
    assert label > page.index('id="p-88-4-b"'), "the label is under (b), above its table"
    said = _plain(page[label:table])
    assert "Older text: § 88(4)(b)" in said and "nav-law.consolidated.txt" in said and "2002-07-01" in said
    # the sources list names provisions by citation, never by id
    assert "88/4/b/1/ii/1/A:" not in page and "§ 88(4)(b)(1)(ii)(1)(A): 088.fragments.2022.txt" in _plain(page)


def test_notes_about_missing_text_are_right(built):
    """Item 4: a lead-in colon whose list follows gets no "text stops at the colon" note (§ 89-a(4)(a),
    its list (b) after it); a jump in a numbering sequence gets one (§ 89-a(4) → (7), § 181 skips 3,
    § 174 skips 4)."""
    pages, _ = built
    a = pages["law/89-a.md"]
    start = a.index('id="p-89-a-4-a"')
    assert "its text stops at the colon" not in a[start:a.index('id="p-89-a-4-b"')]
    for page, jump in (("law/89-a.md", "from 4 to 7: the corpus has no 5 or 6 here"),
                       ("law/181.md", "from 2 to 4: the corpus has no 3 here"),
                       ("law/174.md", "from 3 to 5: the corpus has no 4 here")):
        assert jump in pages[page], page


def test_a_rule_has_a_history_page_and_its_old_labels_are_traceable(built):
    """Item 2: 21 NYCRR § 55.2 (bracket notation) has a history page holding its markup (what the
    amendment deleted, struck through), and a relettered provision says its old label."""
    pages, _ = built
    hist = pages["history/21-nycrr-55.2.md"]
    assert "<del" in hist and "$75 for a stop of six hours" in _plain(hist)
    law = pages["law/21-nycrr-55.2.md"]
    assert "History of 21 NYCRR § 55.2" in law
    m = re.search(r'id="p-21nycrr-55-2-c".*?</p>', law, re.S)
    assert m is not None and "formerly (b)" in _plain(m[0])
