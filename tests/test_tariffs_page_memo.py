"""The site's tariffs page is made only when what it is made from changed (compiler/site/tariffs_page.py,
issue 32): an edit of a section without a fee takes it from the last build; a changed rate, a route's name in
the manifest or the site's date make it again; every build is byte for byte a clean build's."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from navlaw.build import Options, build as build_api, compile_law
from navlaw.model.tariffs import Source
from navlaw.site import tariffs_page

from .conftest import CONSOLIDATED, CORPUS, LIS_2022
from .test_incremental import AMENDED_2027, RATE_2027, build, same_as_clean_build, tree_bytes

from .test_pages_memo import OLD, corpus, edit  # noqa: F401  (corpus: a copy of corpus/, the fixture)


@pytest.fixture
def made(monkeypatch) -> list[int]:
    """One entry per tariffs page made (rendered in this process)."""
    count: list[int] = []
    real = tariffs_page._page

    def counted(*args):  # type: ignore[no-untyped-def]
        count.append(1)
        return real(*args)
    monkeypatch.setattr(tariffs_page, "_page", counted)
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    return count


def page(tmp: Path, name: str = "build") -> str:
    return (tmp / name / "site-docs" / "tariffs.md").read_text(encoding="utf-8")


def test_an_edit_without_a_fee_takes_the_page_from_the_last_build(tmp_path, corpus, made):
    assert build(tmp_path, corpus) == 0
    assert made == [1]
    edit(corpus / CONSOLIDATED, OLD, OLD.replace("practical", "sound"))  # moves every offset after § 12
    assert build(tmp_path, corpus) == 0
    assert made == [1]
    same_as_clean_build(tmp_path, corpus)


def test_a_changed_rate_makes_the_page_again(tmp_path, corpus, made):
    assert build(tmp_path, corpus) == 0
    assert "$11.30" not in page(tmp_path)
    edit(corpus / LIS_2022, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert len(made) == 2 and "$11.30" in page(tmp_path)
    same_as_clean_build(tmp_path, corpus)


def test_a_route_name_in_the_manifest_makes_the_page_again(tmp_path, corpus, made):
    """A route's name is on the page and in no tariff: the route table is in the key."""
    assert build(tmp_path, corpus) == 0
    edit(corpus / "manifest.toml", 'name = "Sandy Hook (§ 88)"', 'name = "Sandy Hook Channel (§ 88)"')
    assert build(tmp_path, corpus) == 0
    assert len(made) == 2 and "Sandy Hook Channel" in page(tmp_path)
    same_as_clean_build(tmp_path, corpus)


def test_the_sites_date_makes_the_page_again(tmp_path, corpus, made):
    """Which schedule is in force (bold in the charts, "in force" or "ended …") is of the site's date."""
    def options(name: str, on: str, cache: bool = True) -> Options:
        return Options(corpus=str(corpus), out=str(tmp_path / name), module=str(tmp_path / f"{name}-fees"),
                       cache=cache, on=dt.date.fromisoformat(on))

    assert build_api(options("build", "2023-06-01")).code == 0
    before = page(tmp_path)
    assert build_api(options("build", "2031-06-01")).code == 0
    assert len(made) == 2 and page(tmp_path) != before
    assert build_api(options("clean", "2031-06-01", cache=False)).code == 0
    assert tree_bytes(tmp_path / "build" / "site-docs") == tree_bytes(tmp_path / "clean" / "site-docs")


def test_the_page_does_not_read_offsets():
    """The key leaves out where in its file each number was read (fees/memo.py's tariffs_digest): the page
    made from the tariffs with every offset moved is the same text."""
    from navlaw.site.pages import pages

    result = compile_law(str(CORPUS), None, relative=True)
    moved = 0

    def shift(value):  # type: ignore[no-untyped-def]
        nonlocal moved
        if isinstance(value, Source):
            moved += 1
            return dataclasses.replace(value, start=value.start + 7, end=value.end + 7)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return dataclasses.replace(value, **{f.name: shift(getattr(value, f.name))
                                                 for f in dataclasses.fields(value) if f.init})
        if isinstance(value, (tuple, list)):
            return type(value)(shift(v) for v in value)
        return value

    shifted = [shift(t) for t in result.tariffs]
    assert moved > 100
    day = dt.date(2026, 6, 1)

    def made(tariffs):  # type: ignore[no-untyped-def]
        return pages(result.corpus, result.timeline, tariffs, result.diagnostics, result.changes, day,
                     references=result.law.references)["tariffs.md"]

    assert made(shifted) == made(result.tariffs)


@pytest.fixture
def penalties_made(monkeypatch) -> list[int]:
    """One entry per time the penalty pages were made (in this process)."""
    from navlaw.site import pages

    count: list[int] = []
    real = pages.penalty_pages

    def counted(*args):  # type: ignore[no-untyped-def]
        count.append(1)
        return real(*args)
    monkeypatch.setattr(pages, "penalty_pages", counted)
    return count


def penalties(tmp: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((tmp / "build" / "site-docs" / "penalties").glob("*.md")))


def test_the_penalty_pages_are_made_only_when_a_penalty_or_an_article_changed(tmp_path, corpus, penalties_made):
    assert build(tmp_path, corpus) == 0
    assert penalties_made == [1]
    edit(corpus / CONSOLIDATED, OLD, OLD.replace("practical", "sound"))
    assert build(tmp_path, corpus) == 0
    assert penalties_made == [1]
    same_as_clean_build(tmp_path, corpus)
    edit(corpus / CONSOLIDATED, "shall be subject to a fine of not more than twenty-five dollars for each",
         "shall be subject to a fine of not more than thirty-five dollars for each")  # a penalty's amount
    assert build(tmp_path, corpus) == 0
    assert len(penalties_made) == 3 and "$35" in penalties(tmp_path)  # (and the clean build's)
    same_as_clean_build(tmp_path, corpus)
    edit(corpus / CONSOLIDATED, "Article 3 - NAVIGABLE WATERS OF THE STATE", "Article 3 - THE STATE'S NAVIGABLE WATERS")
    assert build(tmp_path, corpus) == 0  # an article's name: in no tariff, on the penalty pages
    assert len(penalties_made) == 5 and "NAVIGABLE WATERS OF THE STATE" not in penalties(tmp_path)
    same_as_clean_build(tmp_path, corpus)


def test_the_citation_files_are_made_again_when_a_citation_changes(monkeypatch):
    """The search's citation files are kept under the sections' citations (and the site-wide context: pages
    and anchors); a changed citation makes them again, an unchanged one takes them from the last build."""
    from types import SimpleNamespace

    from navlaw.model.nodes import Section
    from navlaw.site import pages
    from navlaw.site.citations import citation_files
    from navlaw.site.render import Memo, Pages

    made: list[int] = []
    monkeypatch.setattr(pages, "citation_files", lambda P, titled: made.append(1) or citation_files(P, titled))
    P = Pages()
    P.section_page = {"12": "law/12.md", "12-a": "law/12-a.md"}
    P.anchors = {("law/12.md", "p-12"), ("law/12-a.md", "p-12-a"), ("law/12-a.md", "p-12-a-1")}
    titled = {"12": Section(id="12", citation="Nav. Law § 12"), "12-a": Section(id="12-a", citation="Nav. Law § 12-a")}

    def files(old: Memo | None, titled: dict[str, Section]) -> tuple[dict[str, str], Memo]:
        memo = Memo(old.new if old is not None else None)
        memo.set_context(P)
        return pages._citations(SimpleNamespace(P=P, titled=titled, memo=memo)), memo  # type: ignore[arg-type]

    first, memo = files(None, titled)
    assert first == citation_files(P, titled) and len(first) == 2 and made == [1]
    again, memo = files(memo, titled)
    assert again == first and made == [1]
    changed = {**titled, "12-a": Section(id="12-a", citation="21 NYCRR § 12-a")}
    third, memo = files(memo, changed)
    assert third == citation_files(P, changed) != first and len(made) == 2
