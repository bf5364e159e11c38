"""Issue 17, items 2–4: law pages show the law in force on the site's date (``navlaw build --on DATE``),
old text says from which source and dates it is known, superseded text is on history pages with a
"view as of" picker and a redline between any two versions; gaps in the corpus are said as gaps."""

from __future__ import annotations

import html as H
import re
import shutil
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS


def build(tmp: Path, on: str | None = None) -> Path:
    args = ["build", "--corpus", str(CORPUS), "--out", str(tmp / "build"), "--module", str(tmp / "fees")]
    assert main(args + (["--on", on] if on else [])) == 0
    return tmp / "build" / "site"


def words(page: Path) -> str:
    raw = page.read_text(encoding="utf-8")
    raw = raw[raw.index("<article"):raw.index("</article>")]
    text = H.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?(?:a|dfn|span|del|ins|b)\b[^>]*>", "", raw)))
    return " ".join(text.split())


@pytest.fixture(scope="module")
def site_2004(tmp_path_factory):
    return build(tmp_path_factory.mktemp("on2004"), "2004-01-01")


@pytest.fixture(scope="module")
def site_2024(tmp_path_factory):
    return build(tmp_path_factory.mktemp("on2024"), "2024-06-01")


def test_a_law_page_shows_the_text_in_force_on_the_site_s_date(site_2004, site_2024):
    # § 89-b(4)(b)(1): $5.30 a unit in the consolidation (known 2002-07-01 to 2006-01-01), $8.86 from L.2022
    old, new = words(site_2004 / "law" / "89-b" / "index.html"), words(site_2024 / "law" / "89-b" / "index.html")
    assert "All vessels shall pay five dollars and thirty cents per pilotage unit" in old
    assert "eight dollars and eighty-six cents" not in old
    assert "All vessels shall pay eight dollars and eighty-six cents per pilotage unit" in new
    assert "five dollars and thirty cents" not in new  # the old text is on the history page only
    assert "The law in force on 2004-01-01, the site's date." in old
    assert "The law in force on 2024-06-01, the site's date." in new
    # (4)(c) "Definitions" came with the 2022 text: not on the 2004 page
    assert '"Overall length" is the distance' in new and '"Overall length" is the distance' not in old


def test_old_text_says_from_which_source_and_dates_it_is_known(site_2024):
    two = words(site_2024 / "law" / "2" / "index.html")
    assert ("Known to be in force from 2002-07-01 to 2006-01-01 (nav-law.consolidated.txt); the corpus has no "
            "later text of it, so whether it is still the law on 2024-06-01 is not established.") in two
    # § 89-a: its subdivisions 1–3 are the consolidation's, subdivisions 4, 7 and 8 the 2022 text's
    a = site_2024 / "law" / "89-a" / "index.html"
    assert "The parts from other texts say so where they are." in words(a)
    notes = re.findall(r'<p class="known lvl-0">([^<]*)</p>', a.read_text(encoding="utf-8"))
    assert notes == ["This part: 089-a.4-7-8.txt — known in force from 2022-01-01 (inferred)."] * 3
    # § 89-b's 2022 text took effect on 2022-07-21 and nothing later replaces it: current law, no such note
    assert "Known to be in force" not in words(site_2024 / "law" / "89-b" / "index.html")


def test_in_a_gap_of_the_corpus_the_page_says_so_and_points_to_the_history(tmp_path):
    site = build(tmp_path, "2010-01-01")
    page = words(site / "law" / "89-b" / "index.html")
    assert ("Not in force on 2010-01-01: no text of 89-b in this corpus is known to be in force on 2010-01-01: "
            "nav-law.consolidated.txt is known until 2006-01-01, and the next text starts on 2022-07-21.") in page
    assert "shall pay" not in page  # neither the old text nor the new one is shown as the law
    assert 'href="../../history/89-b/"' in (site / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    # § 2: no later text than the consolidation's replaces it, so it stands, said to be known only until 2006
    two = words(site / "law" / "2" / "index.html")
    assert "The following terms when used in this chapter" in two and "Known to be in force from 2002-07-01" in two


def test_before_any_text_the_page_says_so_and_the_text_is_on_a_history_page(tmp_path):
    site = build(tmp_path, "2000-01-01")
    two = words(site / "law" / "2" / "index.html")
    assert ("Not in force on 2000-01-01: the corpus has no text of 2 known to be in force before 2002-07-01 "
            "(nav-law.consolidated.txt).") in two
    assert "The following terms when used in this chapter" not in two
    # § 2 has one version only: it gets a history page all the same, so its text is on the site
    assert "The following terms when used in this chapter" in words(site / "history" / "2" / "index.html")


def test_history_has_a_date_picker_and_a_redline_between_any_two_versions(site_2024):
    raw = (site_2024 / "history" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert 'data-dates="2002-07-01 2006-01-01 2022-07-21"' in raw
    assert "As of 2022-07-21 (in force on 2024-06-01)" in words(site_2024 / "history" / "89-b" / "index.html")
    pairs = re.findall(r'<section class="pair" data-search-exclude id="(cmp-[0-9-]+)"', raw)
    assert pairs == ["cmp-2002-07-01-2022-07-21"]  # the two versions with text (2006-01-01 starts a gap)
    pair = raw[raw.index('id="cmp-2002-07-01-2022-07-21"'):]
    pair = pair[:pair.index("</section>")]
    assert "<del>five</del> <ins>eight</ins>" in pair
    # each provision named in the redline links to it in the law in force
    assert '<a href="../../law/89-b/#p-89-b-4-b-1"><b>§ 89-b(4)(b)(1)</b></a>' in pair
    law = (site_2024 / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert 'data-href="../../history/89-b/"' in law and 'href="../../history/89-b/#v2002-07-01"' in law


def test_a_gap_in_the_corpus_is_not_redlined_as_a_law_that_removed_text(site_2024):
    """§ 88(4)(b)(1)(ii)(1)(A): the consolidation is known until 2006-01-01, the 2022 fragments from
    2023-01-01; on 2006-01-01 the corpus has no text of it. That is a gap, not deleted matter."""
    raw = (site_2024 / "history" / "88" / "index.html").read_text(encoding="utf-8")
    box = raw[raw.index('id="v2006-01-01"'):raw.index('id="v2023-01-01"')]
    # the gap is said once, where it begins, by citation; its items are not listed as removed (issue 30)
    gap = re.search(r'<p class="gap" data-id="88/4/b/1/ii/1/A">(.*?)</p>', box, re.S)
    assert gap is not None and 'data-id="88/4/b/1/ii/1/A/ii"' not in box
    assert "<del>" not in gap[1] and "no text of § 88(4)(b)(1)(ii)(1)(A) in this corpus is known to be in force on 2006-01-01" in gap[1]
    back = raw[raw.index('id="v2023-01-01"'):]
    assert re.search(r'<p class="known" data-id="88/4/b/1/ii/1/A">.*?the corpus has no text of this before; '
                     r"from here it is:", back, re.S)
    report = (site_2024 / "changes" / "2006" / "index.html").read_text(encoding="utf-8")  # the change report's 2006
    day = report[report.index('id="2006-01-01"'):]
    # the gap is said once, where it begins (§ 88(4)(b)(1)(ii)(1)(A)), by citation, in one form; nothing
    # inside it is "removed" (issue 30)
    assert ('<a href="../../law/88/#p-88-4-b-1-ii-1-A">§ 88(4)(b)(1)(ii)(1)(A)</a>: no text known in the corpus '
            "from this date (a gap in the record), so this is not a repeal") in day
    assert " removed" not in day[:day.index("Texts the corpus")] and "88/4/b/1/ii/1/A/ii</a>" not in day


def test_the_change_report_links_the_sections_provisions_and_fees_it_names(site_2024):
    report = (site_2024 / "changes" / "2022" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../../law/89-b/#p-89-b">§ 89-b</a>' in report  # 2022-01-01: § 89-b changes
    report = (site_2024 / "changes" / "2000" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../../law/88/#p-88-4-b-1-ii-1-A-ii">§ 88(4)(b)(1)(ii)(1)(A)(ii)</a>' in report  # a fee's line
    for year in (site_2024 / "changes").iterdir():
        report = (year / "index.html").read_text(encoding="utf-8")
        assert "{+" not in report and "[-" not in report  # redlines as HTML, not as markup


def test_the_change_report_has_a_page_per_year_and_an_index_that_says_what_each_date_changes(site_2024):
    """The years of the corpus's dates (2000-07-01 … 2027-01-01), each a page; the index says per date
    what changes, counted from the year's page."""
    years = sorted(p.name for p in (site_2024 / "changes").iterdir())
    assert years == ["2000", "2002", "2006", "2016", "2022", "2023", "2024", "2025", "2026", "2027"]
    index = (site_2024 / "history" / "index.html").read_text(encoding="utf-8")
    # 2022 has two dates: 2022-01-01 (§ 88's 2022 fragments and their fees) and 2022-07-21, when § 89-b's
    # 2022 text is known again after a gap, with its fees
    assert re.search(r'<a href="../changes/2022/#2022-01-01">2022-01-01</a> — 1 section changes, 6 fee changes; '
                     r'<a href="../changes/2022/#2022-07-21">2022-07-21</a> — 1 text the corpus starts or stops '
                     r"knowing, 4 fee changes", index)
    y2027 = (site_2024 / "changes" / "2027" / "index.html").read_text(encoding="utf-8")
    fees = y2027[y2027.index('id="2027-01-01"'):]
    assert fees.count("from 2027-01-01 the rate") == 2  # § 88's table and § 89-b(4)(b)(1)
    assert "the rate is $11.22 per pilotage unit (was $10.89 per pilotage unit)" in fees
    assert 'href="../2026/"' in y2027 and 'href="../../history/"' in y2027  # the year before, the index


def test_every_version_of_every_section_is_on_the_site(site_2024, corpus):
    """Nothing dropped: each node of each version the timeline knows (current law on the law page,
    superseded text and gaps on the history page) is on the site."""
    from navlaw.law.timeline import Timeline, document_versions
    from navlaw.report.changes import cited
    from navlaw.site.pages import section_slug

    timeline = Timeline(document_versions(corpus))
    checked = 0
    for sec in timeline.sections():
        slug = section_slug(sec)
        shown = words(site_2024 / "law" / slug / "index.html")
        hist = site_2024 / "history" / slug / "index.html"
        if hist.exists():
            shown += " " + words(hist)
        shown = shown.replace("[", "").replace("]", "")
        for day in timeline.boundaries(sec):
            comp = timeline.section_on(sec, day)
            if comp.section is None:
                assert cited(comp.message) in shown, (sec, day)
                continue
            # a gap is said once, where it begins, naming provisions by citation (issue 30): a gap inside
            # another gap of the same version is not said again
            gaps = [m[1] for n in comp.section.walk() if "gap" in n.flags
                    and (m := re.match(r"(\S+): no text", n.text))]
            for n in comp.section.walk():
                parts = [n.text] if n.kind != "table" else [c.text for r in n.rows for c in r.cells]  # type: ignore[attr-defined]
                if "gap" in n.flags:
                    m = re.match(r"(\S+): no text", n.text)
                    if m and any(m[1].startswith(g + "/") for g in gaps):
                        continue
                    parts = [cited(n.text)]
                for part in parts:
                    folded = " ".join(part.replace("[", "").replace("]", "").split())
                    if folded:
                        assert folded[:60] in shown, (sec, str(day), n.id, folded[:60])
                        checked += 1
    assert checked >= 700  # 716 texts and cells in the versions of this corpus


def test_new_matter_of_an_amending_act_is_shown_as_inserted(tmp_path):
    """Issue 17, item 4: S8469A of 2024 prints "[4.21] 4.70" and the like in the 1650-and-up rows of the
    four § 88 rate tables, the rest as old law; A4677 adds § 176(9), all new matter (CAPITALS)."""
    from .test_outside_acts import OUTSIDE, corpus_with

    if not OUTSIDE.is_dir():
        pytest.skip("../shared/outside/ is not beside the repository")
    root = corpus_with(tmp_path, "derived.S8469A-2024-fulltext.txt")
    shutil.copy(OUTSIDE / "nylg.2023-A4677.md", root / "nylg.2023-A4677.md")
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write('\n[[document]]\nfile = "nylg.2023-A4677.md"\nkind = "act"\nbecame_law = 2024-06-01\n'
                'status = "in-force"\nsource = "test"\nconfidence = "verified"\n')
    assert main(["build", "--corpus", str(root), "--out", str(tmp_path / "b"), "--module", str(tmp_path / "m"),
                 "--on", "2026-06-01"]) == 0
    law = (tmp_path / "b" / "site" / "law" / "88" / "index.html").read_text(encoding="utf-8")
    inserted = re.findall(r'<ins title="new matter[^"]*">([^<]*)</ins>', law)
    assert inserted == [f"$((P.U. - 1650) x {m}) + {b}" for m, b in
                        (("4.70", 8225), ("4.85", 8472), ("5.00", 8726), ("5.15", 8988))]
    assert "Matter an amending act inserted is shown" in law
    six = (tmp_path / "b" / "site" / "law" / "176" / "index.html").read_text(encoding="utf-8")
    nine = re.search(r'id="p-176-9".*?</p>', six, re.S)
    assert nine and '<ins title="new matter: inserted by an amending act">Any discharge of petroleum occurring at a ' \
        'residence' in nine[0]
    assert six.count("<ins title=") == nine[0].count("<ins title=") == 1  # the old subdivisions are not new matter


def test_a_whole_article_whose_record_begins_on_a_date_is_named_once_not_section_by_section(site_2024):
    """2002-07-01, the consolidation: Article 2's ten sections (§ 10, § 12 … § 20 — there is no § 11) all
    begin their record that day, so the year's page names the article, a link to its page, once;
    § 2, the one section of Article 1 in the corpus, is named itself. changes.md names every section."""
    page = (site_2024 / "changes" / "2002" / "index.html").read_text(encoding="utf-8")
    assert ('<a href="../../law/article-02/">Article 2. ADMINISTRATION</a>: all 10 sections, § 10 to § 20'
            in page)
    assert '<a href="../../law/2/#p-2">§ 2</a>, <a href="../../law/article-02/">' in page
    assert 'href="../../law/12/' not in page
    text = (site_2024.parent / "changes.md").read_text(encoding="utf-8")
    assert "§ 2, § 10, § 12, § 13, § 14, § 15, § 16, § 17, § 18, § 19, § 20, § 30" in text
