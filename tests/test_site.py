"""The reference site: built strict by MkDocs Material, every internal link and anchor resolves, every
provision has its anchor and citation, law text is escaped, tariffs have tables and charts."""

from __future__ import annotations

import html.parser
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from navlaw.cli import main

from .conftest import CORPUS, LIS_2022, ROOT


def build_site(tmp: Path, corpus: Path = CORPUS) -> Path:
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp / "build"), "--module", str(tmp / "fees")]) == 0
    return tmp / "build" / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_site(tmp_path_factory.mktemp("site"))


class Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])


def parse(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_pages_exist(site):
    for page in ("index.html", "law/article-06/index.html", "law/89-b/index.html", "law/21-nycrr-55.2/index.html",
                 "tariffs/index.html",
                 "history/index.html", "diagnostics/index.html"):
        assert (site / page).is_file(), page


def test_no_broken_internal_link_or_anchor(site):
    pages = {p: parse(p) for p in site.rglob("*.html")}
    checked = 0
    for page, links in pages.items():
        if page.name == "404.html":
            continue  # served at the site root, its links are root-relative by design
        for href in links.hrefs:
            u = urlparse(href)
            if u.scheme or href.startswith(("mailto:", "//")):
                continue
            target = (page.parent / unquote(u.path)).resolve() if u.path else page
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(site)}: broken link {href}"
            if u.fragment:
                assert u.fragment in pages[target].ids, f"{page.relative_to(site)}: no anchor #{u.fragment} in {href}"
            checked += 1
    assert checked > 500


def test_every_provision_has_an_anchor_and_its_citation(site):
    assert 'id="p-88-4-b-1-ii-1-A-v" title="Nav. Law § 88(4)(b)(1)(ii)(1)(A)(v)"' in (site / "law" / "88" / "index.html").read_text(encoding="utf-8")
    assert 'id="p-89-a-4-b-1-vii"' in (site / "law" / "89-a" / "index.html").read_text(encoding="utf-8") and 'id="p-89-b-4-b-2"' in (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")


def test_cross_references_are_links(site):
    page = (site / "law" / "89-a" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="xref" href="\.\./95/#p-95">section ninety-five of this article</a>', page)


def test_tariff_page_has_tables_dates_and_charts(site):
    page = (site / "tariffs" / "index.html").read_text(encoding="utf-8")
    assert "$(13.19 x P.U.)" in page and "2026-01-01 – 2027-01-01" in page  # § 88 table (v)
    assert page.count('role="img"') >= 4 and "<desc" in page  # a chart per route, with a text alternative
    assert "Date not established" in page  # § 88 table (i), § 89-a (i)–(vi)


def test_law_text_is_escaped(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    p = corpus / LIS_2022
    raw = p.read_text(encoding="utf-8")
    assert "The decision by the\\nboard shall be final." in raw
    p.write_text(raw.replace("The decision by the\\nboard shall be final.",
                             "The decision by the\\nboard shall be final. <script>alert(1)</script>"), encoding="utf-8")
    site = build_site(tmp_path, corpus)
    page = (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_history_page_shows_versions_and_redlines(site):
    page = (site / "history" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert "As of 2002-07-01" in page and "As of 2022-07-21" in page
    assert "<del>five</del>" in page and "<ins>eight</ins>" in page  # § 89-b(4)(b)(1): $5.30 -> $8.86
    assert "no text of 89-b in this corpus is known to be in force on 2006-01-01" in page
    law = (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../history/89-b/"' in law


def test_cited_by_and_external_citations(site):
    law = (site / "law" / "95" / "index.html").read_text(encoding="utf-8")
    # § 89-a(4)(b)(1-c)(iv) (file 002) cites "section ninety-five of this article"
    assert re.search(r'id="p-95".*?Cited by: <a href="\.\./89-a/#p-89-a">§ 89-a</a>', law, re.S)
    a3 = "".join(p.read_text(encoding="utf-8") for p in sorted((site / "law").glob("*/index.html")))
    assert '<span class="ext" title="citation of another law">section 15-0505 of the environmental ' \
           'conservation law</span>' in a3


def test_serve_rebuilds_the_site_when_the_corpus_changes(tmp_path, capsys):
    from .test_serve import _get, _until, amend, serving

    with serving(tmp_path) as (base, corpus):
        assert "eleven dollars and twenty-two cents" in _get(base + "law/89-b/")
        amend(corpus)
        _until(lambda: "eleven dollars and thirty cents" in _get(base + "law/89-b/"), "the site was not rebuilt")
    captured = capsys.readouterr()
    assert "navlaw serve: rebuilt in" in captured.err
    # one page per section: the amended section's page, its history, the tariffs and the change report (257 pages:
    # A.8982-A of 2024 brought its diagnostics page, issue 27 found § 137 inside § 136's line, issue 30 the page of
    # the text outside any section and the history of 21 NYCRR § 55.2)
    assert "1 of 5 documents parsed, 4 reused; 2 of 212 law and history pages written afresh; site: 4 of 257 pages rendered" in captured.out


def test_serve_refuses_a_bad_address(capsys):
    assert main(["serve", "--addr", "localhost"]) == 2
    assert "expected HOST:PORT" in capsys.readouterr().err


def test_serve_says_when_the_port_is_taken(tmp_path, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--corpus", str(CORPUS), "--out", str(tmp_path / "build"), "--module",
                     str(tmp_path / "fees"), "--addr", f"127.0.0.1:{port}"]) == 1
    assert f"navlaw serve: cannot listen on 127.0.0.1:{port}: Address already in use" in capsys.readouterr().err


def test_diagnostics_page_links_findings_to_provisions(site):
    page = (site / "diagnostics" / "088-fragments-2022-txt" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../../law/88/#p-88-4-b-1-ii-1-A-i">§ 88(4)(b)(1)(ii)(1)(A)(i)</a>' in page  # the 1650 jump in table (i)


def test_diagnostics_are_a_page_per_file_under_an_index_of_their_counts(site):
    """69 warnings and 27 notes (`navlaw lint` on the corpus; § 137, read inside § 136's line since issue 27,
    turned its unresolved reference into a note): the index gives each file's counts and
    links to its page, which lists exactly that many findings, each with its file:line:col (or the file
    alone, for a finding about the whole file)."""
    index = (site / "diagnostics" / "index.html").read_text(encoding="utf-8")
    assert "0 error(s), 69 warning(s),\n27 note(s)" in index
    rows = re.findall(r'<tr><td><a href="([^"]+)">([^<]+)</a></td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>', index)
    assert [(name, int(w), int(i)) for _, name, _, w, i in rows] == [
        # A.8982-A of 2024 amended § 88 (iii)–(vi): the rate-table jumps of (iv)–(vi) are its tables' now, found
        # in the act as printed (file 004's (iv)–(vi) were never in force), with its notes on applying it
        ("088.fragments.2022.txt", 4, 3), ("089-a.4-7-8.txt", 37, 2), ("21nycrr-55.2.proposed-2016.txt", 0, 9),
        ("A8982A-2024.md", 4, 8), ("nav-law.consolidated.txt", 24, 5)]
    for href, name, errors, warnings, notes in rows:
        page = (site / "diagnostics" / href / "index.html").read_text(encoding="utf-8")
        assert page.count('<tr class="warning">') == int(warnings) and page.count('<tr class="info">') == int(notes)
        assert len(re.findall(rf"<td>{re.escape(name)}(?::\d+:\d+)?</td>", page)) == int(warnings) + int(notes)


def test_relative_references_link_to_the_provision(site):
    law = (site / "law" / "88" / "index.html").read_text(encoding="utf-8")
    # § 88(4)(b)(1)(ii)(2)(C) (file 000): "item (A) of subclause one of this clause": the 2022 item (A) of
    # file 004, now that file 000's lost "(1)" is restored (manifest lost_labels) and both have one id
    assert ('<a class="xref" href="../88/#p-88-4-b-1-ii-1-A">item (A) of subclause one of this clause</a>'
            in law)
    # § 89-a(4)(b) (file 002): "clause (i) of subparagraph one-c of this paragraph"
    assert ('<a class="xref" href="../89-a/#p-89-a-4-b-1-c-i">clause (i) of subparagraph one-c of this '
            'paragraph</a>') in (site / "law" / "89-a" / "index.html").read_text(encoding="utf-8")


def test_penalty_index_page(site):
    page = (site / "penalties" / "article-06" / "index.html").read_text(encoding="utf-8")
    # § 89-a(3) (file 000): "a fine not exceeding one hundred dollars"
    assert '<a href="../../law/89-a/#p-89-a-3">Nav. Law § 89-a(3)</a></td><td class="amount">$100</td><td>at most</td>' in page
    # the index: each article's count, lowest and highest; Article 12 (oil spills): § 192's $25,000 at most
    index = (site / "penalties" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr><td><a href="([^"]+)">([^<]+)</a></td><td>(\d+)</td><td class="amount">([^<]*)</td><td class="amount">([^<]*)</td></tr>', index)
    assert sum(int(n) for _, _, n, _, _ in rows) == 42
    assert ("article-12/", "Article 12. OIL SPILL PREVENTION, CONTROL, AND COMPENSATION", "2", "$1,000", "$25,000") in rows
    for href, _, n, _, _ in rows:
        assert (site / "penalties" / href / "index.html").read_text(encoding="utf-8").count("<tr><td>") == int(n)


def test_a_section_page_has_breadcrumbs_contents_and_its_neighbours(site):
    page = (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    crumbs = re.search(r'<nav class="crumbs"[^>]*>(.*?)</nav>', page, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", crumbs) == ("Navigation Law › Article 6. PILOTS AND PILOTAGE FEES, PORT OF NEW YORK › "
                                              "Nav. Law § 89-b")
    assert 'href="../article-06/"' in crumbs and 'href="../"' in crumbs  # the article, "The law" (law/)
    assert '<a class="prev" href="../89-a/">← § 89-a</a>' in page and '<a class="next" href="../90/">§ 90 →</a>' in page
    toc = re.search(r'<details class="section-toc".*?</details>', page, re.S).group(0)
    assert [m for m in re.findall(r'href="#(p-89-b-\d)"', toc)] == ["p-89-b-1", "p-89-b-2", "p-89-b-3", "p-89-b-4", "p-89-b-5"]
    assert 'data-cite="Nav. Law § 89-b"' in page and "assets/cite.js" in page
    article = (site / "law" / "article-06" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../89-b/">§ 89-b. Pilotage on Long Island Sound and Block Island Sound; rates.</a>' in article


def test_the_site_makes_no_third_party_request(site):
    for p in site.rglob("*.html"):
        text = p.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, p


def test_site_url_fills_the_sitemap_and_canonical_links(tmp_path):
    assert main(["build", "--out", str(tmp_path / "b"), "--module", str(tmp_path / "m"), "--no-cache",
                 "--site-url", "https://example.org/navlaw"]) == 0
    site = tmp_path / "b" / "site"
    assert "<loc>https://example.org/navlaw/law/89-b/</loc>" in (site / "sitemap.xml").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://example.org/navlaw/law/89-b/"' in (
        site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    # the 404 page, served for any missing path, finds its styles under the sub-path
    missing = (site / "404.html").read_text(encoding="utf-8")
    assert 'href="/navlaw/assets/stylesheets/' in missing and 'href="/assets/' not in missing


def test_every_node_of_the_law_in_force_is_on_its_page(site, corpus):
    """Nothing dropped: each node of each section's current text (its label, heading, text, table cells) is
    on the section's page, and a heading-only section says the corpus has no text for it."""
    import html as H

    from navlaw.diagnostics import Diagnostics
    from navlaw.law import build_timeline
    from navlaw.site.pages import section_slug

    timeline = build_timeline(corpus, Diagnostics())  # the law with the corpus's amending acts applied
    checked = 0
    for sec in timeline.sections():
        comp = timeline.latest(sec)
        if comp.section is None:
            continue
        raw = (site / "law" / section_slug(sec) / "index.html").read_text(encoding="utf-8")
        page = H.unescape(re.sub(r"</?(?:a|dfn|span|del|ins|em|strong)\b[^>]*>", "", raw))  # inline: no space
        page = re.sub(r"<[^>]+>", " ", page)
        words = " ".join(page.split()).replace("[", "").replace("]", "")  # bracket notation renders as <del>
        for n in comp.section.walk():
            parts = [n.text] if n.kind != "table" else [c.text for r in n.rows for c in r.cells]  # type: ignore[attr-defined]
            for part in parts:
                folded = " ".join(part.replace("[", "").replace("]", "").split())
                if folded:
                    assert folded[:60] in words, (sec, n.id, folded[:60])
                    checked += 1
        if not comp.section.children:
            assert "The corpus holds no text for this section" in words, sec
    assert checked >= 500  # 503 texts and cells in the law in force today


def test_a_page_does_not_grow_with_the_corpus(tmp_path, site):
    """Issue 18: the navigation is the same few entries on every page (articles and sections are reached
    from "The law", article pages, breadcrumbs and previous/next), so a section page is the same size in a
    corpus three times as large (benchmarks/make_corpus.py 3), and the site's HTML grows with the pages."""
    import sys as _sys
    _sys.path.insert(0, str(ROOT / "benchmarks"))
    from make_corpus import make

    big = make(3, tmp_path / "corpus-3")
    assert main(["build", "--corpus", str(big), "--out", str(tmp_path / "b3"), "--module", str(tmp_path / "m3"),
                 "--no-cache"]) == 0
    big_site = tmp_path / "b3" / "site"
    one = (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    three = (big_site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert one.count("md-nav__link") == three.count("md-nav__link") < 40
    assert abs(len(three) - len(one)) < 200  # the same page; only its neighbours' names may differ
    for page in ("calculator", "tariffs", "history"):  # the same routes and dates: the same page
        one, three = ((s / page / "index.html").read_text(encoding="utf-8") for s in (site, big_site))
        assert abs(len(three) - len(one)) < 200, page
    calculator = (big_site / "calculator" / "index.html").read_text(encoding="utf-8")
    # the law pages a quote's lines link to: the sections its fee plans cite, not every section
    assert ('window.SECTION_PAGES = {"21nycrr/55.2": "law/21-nycrr-55.2/", "88": "law/88/", "89-a": "law/89-a/", '
            '"89-b": "law/89-b/"};') in calculator
    pages1, pages3 = list(site.rglob("*.html")), list(big_site.rglob("*.html"))
    bytes1, bytes3 = sum(p.stat().st_size for p in pages1), sum(p.stat().st_size for p in pages3)
    assert len(pages3) > 2.5 * len(pages1)
    assert bytes3 / bytes1 < 1.3 * len(pages3) / len(pages1)  # bytes grow as the pages do, not faster


def test_bracket_notation_is_rendered_as_deleted_matter_in_the_rule(site):
    """21 NYCRR § 55.2 (the proposed rule, file 003): "If a vessel [shall] makes a cargo stop" — the
    bracketed word is deleted matter; a statute page has no bracket notation to render."""
    rule = (site / "law" / "21-nycrr-55.2" / "index.html").read_text(encoding="utf-8")
    assert 'If a vessel <del title="deleted matter (in [brackets] in the text)">shall</del> makes a cargo stop' in rule
    assert 'class="legend">This text is in bracket notation' in rule
    assert "<del" not in (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")


def test_both_sections_numbered_45_aaaa_have_a_page(site):
    """New York has two §§ 45-aaaa (Greenwood Lake; Sodus Bay) in the consolidation: both are on the site,
    each on its own page, the second saying it is the second."""
    article = (site / "law" / "article-04" / "index.html").read_text(encoding="utf-8")
    assert ('href="../45-aaaa/">§ 45-aaaa. Special provisions relating to reckless operation and speed on Greenwood Lake.'
            in article)
    assert 'href="../45-aaaa-2/">§ 45-aaaa. Special provisions relating to speed on Sodus Bay.' in article
    second = (site / "law" / "45-aaaa-2" / "index.html").read_text(encoding="utf-8")
    assert "more than one section numbered § 45-aaaa" in second and "text number 2 of them" in second


def test_text_that_stops_at_a_colon_says_the_rest_is_not_in_the_corpus(site):
    """§ 2 (file 000): "… shall be deemed to mean and include:" and the consolidation stops there."""
    page = (site / "law" / "2" / "index.html").read_text(encoding="utf-8")
    assert "shall be deemed to mean and include:" in page
    assert "The rest of this provision is not in the corpus (its text stops at the colon)." in page
    assert "The rest of this provision" not in (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")


def test_tariff_tables_write_money_as_money_beside_the_law_s_own_words(site):
    """§ 88 table (i) (file 004): "50 to 99.99 | $1163" reads $1,163.00; "$((P.U. - 500) x 1.57) + 5860" reads
    (PU − 500) × $1.57 + $5,860.00; "$(11.72 x P.U.)" reads $11.72 × PU — and the written form stays beside it."""
    page = (site / "tariffs" / "index.html").read_text(encoding="utf-8")
    assert '<tr><td>50 to 99.99</td><td>$1,163.00</td><td class="written">$1163</td></tr>' in page
    assert ('<tr><td>500 to 1649.99</td><td>(PU − 500) × $1.57 + $5,860.00</td>'
            '<td class="written">$((P.U. - 500) x 1.57) + 5860</td></tr>') in page
    assert '<td>$11.72 × PU</td><td class="written">$(11.72 x P.U.)</td>' in page


def test_page_links_are_the_relative_paths_os_path_would_give():
    """rel_path computes page links on the strings (os.path.relpath asks the file system): the same
    answers for the site's relative paths."""
    import os

    from hypothesis import given, strategies as st

    from navlaw.site.render import rel_path

    path = st.lists(st.sampled_from(["law", "history", "89-b", "index.md", "a.md", "."]), max_size=4).map(
        lambda p: "/".join(p) or ".")

    @given(path, path)
    def same(to, start):  # type: ignore[no-untyped-def]
        assert rel_path(to, start) == os.path.relpath(to, start)

    same()


def test_search_finds_each_version_once_not_again_in_every_redline_between_two(site):
    """The history of § 89-a: each superseded version's text is a search entry under its own heading
    ("As of …"); the version in force on the site's date is found on the law page, not again on the
    history page; the redlines between any two versions and the date controls are not indexed (they
    repeated every version: 39 KB of § 89-a's 43 KB "Compare two versions" entry)."""
    from navlaw.site.search_index import documents

    index = documents(site)
    at = {e["location"]: e for e in index}
    assert at["history/89-a/#compare"]["text"] == ""
    phrase = "portion of the Hudson river specified in this section shall be subject to base pilotage"
    assert phrase in at["law/89-a/"]["text"]
    old, current = at["history/89-a/#v2006-01-01"], at["history/89-a/#v2022-01-01"]
    assert "The law as of 2006-01-01" in old["text"]
    assert current["title"].startswith("As of 2022-01-01 (in force on ")
    assert "The law as of 2022-01-01" not in current["text"]  # its text: on the law page
    assert "Changes from the version before" in current["text"]  # what changed on 2022-01-01 is still found
    assert not any("Versions: " in e["text"] or "View as of" in e["text"] for e in index)


def test_a_section_number_is_tagged_so_every_part_of_a_query_for_it_matches():
    """lunr splits "89-a" into "89…" and "a…": § 89-a's tags hold a word starting with each part; a word
    starting with the first part alone is not added (it would outrank § 88 for "88" with § 88-a's)."""
    from navlaw.site.pages import search_tags

    assert search_tags("89-a") == ["89-a", "a89"]
    assert search_tags("88") == ["88"]
    assert search_tags("45-aaaa") == ["45-aaaa", "aaaa45"]
    assert search_tags("55.2") == ["55.2"]
