"""A law page's view is made only when what it is made from changed (compiler/site/pages_memo.py, issue 32):
a one-word edit makes one section's view, not every section's; an edit that changes what OTHER pages show
(what cites a section, a section's heading, a date of the manifest, a new text of a section) makes those
pages again, and every build is byte for byte a clean build's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from navlaw.site import pages as site_pages

from .conftest import CONSOLIDATED, CORPUS
from .test_incremental import build, same_as_clean_build

OLD = "who shall have a practical knowledge of the construction"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.fixture
def views(monkeypatch) -> list[str]:
    """The sections whose page view was made, build after build (pages rendered in this process)."""
    made: list[str] = []
    real = site_pages._section_view

    def counted(site, k, *rest):  # type: ignore[no-untyped-def]
        made.append(site.order[k][0])
        return real(site, k, *rest)
    monkeypatch.setattr(site_pages, "_section_view", counted)
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    return made


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def page(tmp: Path, name: str) -> str:
    return (tmp / "build" / "site-docs" / name).read_text(encoding="utf-8")


def test_a_one_word_edit_makes_the_view_of_the_edited_section_only(tmp_path, corpus, views):
    assert build(tmp_path, corpus) == 0
    assert len(views) > 200 and "12" in views  # the first build: every section's
    views.clear()
    edit(corpus / CONSOLIDATED, OLD, OLD.replace("practical", "sound"))
    assert build(tmp_path, corpus) == 0
    assert views == ["12"]
    assert "sound knowledge" in page(tmp_path, "law/12.md")
    views.clear()
    assert build(tmp_path, corpus, "clean", "--no-cache") == 0
    assert len(views) > 200  # a clean build makes every view
    same_as_clean_build(tmp_path, corpus)


def test_a_new_reference_reaches_the_page_of_the_section_it_cites(tmp_path, corpus, views):
    """§ 12 comes to cite § 14: § 14's page (not edited) lists § 12 under "Cited by"."""
    assert build(tmp_path, corpus) == 0
    assert "Cited by" not in page(tmp_path, "law/14.md")
    views.clear()
    edit(corpus / CONSOLIDATED, "specifically defined in section thirteen hereof",
         "specifically defined in section fourteen of this article")
    assert build(tmp_path, corpus) == 0
    assert sorted(views) == ["12", "14"]
    assert 'Cited by: <a href="../12/#p-12">§ 12</a>' in page(tmp_path, "law/14.md")
    same_as_clean_build(tmp_path, corpus)


def test_a_heading_edit_reaches_the_article_page(tmp_path, corpus, views):
    """§ 173's heading changes: its page, and its article's list of sections, which no view of another
    section shows."""
    assert build(tmp_path, corpus) == 0
    article = next(p for p in (tmp_path / "build" / "site-docs" / "law").glob("article-*.md")
                   if "Discharge of petroleum; prohibition." in p.read_text(encoding="utf-8"))
    views.clear()
    edit(corpus / CONSOLIDATED, " 173. Discharge of petroleum; prohibition.", " 173. Discharge of petroleum; ban.")
    assert build(tmp_path, corpus) == 0
    assert views == ["173"]
    assert "Discharge of petroleum; ban." in article.read_text(encoding="utf-8")
    same_as_clean_build(tmp_path, corpus)


def test_a_manifest_date_reaches_every_page_that_says_it(tmp_path, corpus, views):
    """The consolidation's known_until is on every page whose text is known only up to then: each such page
    is made again (its view too), though no law text changed."""
    assert build(tmp_path, corpus) == 0
    assert "to 2006-01-01" in page(tmp_path, "law/12.md")
    every = len(views)
    views.clear()
    edit(corpus / "manifest.toml", "known_until = 2006-01-01", "known_until = 2006-02-01")
    assert build(tmp_path, corpus) == 0
    assert "to 2006-02-01" in page(tmp_path, "law/12.md") and "to 2006-01-01" not in page(tmp_path, "law/12.md")
    assert "12" in views and len(views) > every // 2
    same_as_clean_build(tmp_path, corpus)


def test_a_new_text_of_a_section_reaches_its_page_and_history(tmp_path, corpus, views):
    """A new text of § 12 taking effect in 2030 (a history entry): § 12's page says what is announced and
    links its history; no other section's view is made."""
    assert build(tmp_path, corpus) == 0
    assert not (tmp_path / "build" / "site-docs" / "history" / "12.md").exists()
    views.clear()
    (corpus / "012.2030.txt").write_text(
        "§ 12. Inspector; qualifications.\nThe commissioner may appoint an inspector or inspectors, who shall have "
        "a thorough knowledge of the construction, equipment and management of vessels.\n", encoding="utf-8")
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as f:
        f.write('\n[[document]]\nfile = "012.2030.txt"\nkind = "section-text"\ncovers = ["12"]\n'
                'effective = 2030-01-01\nstatus = "in-force"\nsource = "a test"\nconfidence = "inferred"\n')
    assert build(tmp_path, corpus) == 0
    assert views == ["12"]
    assert "2030-01-01" in page(tmp_path, "law/12.md") and "history/12/" in page(tmp_path, "law/12.md")
    assert "thorough knowledge" in page(tmp_path, "history/12.md")
    same_as_clean_build(tmp_path, corpus)


def test_what_is_announced_through_the_index_is_what_a_scan_of_every_change_gives(tmp_path):
    """Announcements (the later changes indexed by the sections they name) gives each section what
    announced.pending gives from every change: acts' instructions, repeals, fee changes said of a section,
    texts the corpus starts or stops knowing; on dates before, between and after them."""
    import datetime as dt

    from navlaw.build import compile_law
    from navlaw.site.announced import pending
    from navlaw.site.pages_memo import Announcements

    from .test_versions import corpus_with

    result = compile_law(str(corpus_with(tmp_path, "lis-rates-2028.txt", "hudson-and-repeal.txt")))
    acts = result.corpus.acts
    sections = result.timeline.sections()
    said = 0
    for on in ("2000-01-01", "2005-06-01", "2027-04-01", "2027-12-01", "2028-01-01"):
        day = dt.date.fromisoformat(on)
        index = Announcements(result.changes, acts, day)
        for sec in sections:
            assert index.of(sec) == pending(result.changes, acts, sec, day), (sec, on)
            said += bool(index.of(sec))
    assert said > 10  # there is something to announce on those dates
