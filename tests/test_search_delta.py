"""Issue 32: the split search index of an incremental build made from the last one
(compiler/site/search_delta.py) is byte for byte the full split of the same pages, and its work is the
edit's: documents tokenised, terms weighed and files written are counted (never timed)."""

from __future__ import annotations

import copy
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from navlaw.site import search_delta, search_delta_top, search_index, search_top
from navlaw.site.search_delta import split_pages

CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"],
          "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0}, "tags": {"boost": 1000000.0}}}

_Pages = list[tuple[str, list[dict[str, Any]]]]


def _pages(count: int, seed: int = 32) -> _Pages:
    """Pages of a few documents each: words shared by many pages and words of one page, markup, stop
    words, tags and boosts, non-ASCII terms (a character outside the BMP among them)."""
    rng = random.Random(seed)
    common = [f"{a}{b}" for a in "pqrs" for b in ("ail", "ort", "ilot", "ermit", "ay", "-b", "é", "\U0001d4d0")]
    pages: _Pages = []
    for p in range(count):
        entries = []
        for d in range(rng.randint(1, 4)):
            words = rng.choices(common, k=rng.randint(3, 40)) + [f"w{p}x{d}", "the", "of", f"§ {p}-{d}"]
            rng.shuffle(words)
            doc: dict[str, Any] = {"location": f"p{p}/" + (f"#s{d}" if d else ""),
                                   "title": f"Page {p} {rng.choice(common)}",
                                   "text": "<p>" + " ".join(words[:len(words) // 2]) + "</p> <li>"
                                           + " ".join(words[len(words) // 2:]) + "</li>"}
            if p % 7 == 0 and d == 0:
                doc["tags"] = [rng.choice(common), "Tag-One"]
            if p % 11 == 0:
                doc["boost"] = 2
            entries.append(doc)
        pages.append((f"p{p}.md", entries))
    return pages


@pytest.fixture(autouse=True)
def small_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds small enough that a small corpus has several term files, wide prefixes and postings files;
    one process (the split's workers are tested in tests/test_search_parallel.py)."""
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    monkeypatch.setattr(search_index, "TERM_SHARD_BYTES", 3_000)
    monkeypatch.setattr(search_index, "INLINE_BYTES", 300)
    monkeypatch.setattr(search_index, "POSTING_BYTES", 1_500)
    monkeypatch.setattr(search_top, "WIDE_BYTES", 3_000)
    monkeypatch.setattr(search_delta_top, "WIDE_BYTES", 3_000)


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _edit(tmp: Path, pages: _Pages, edited: _Pages) -> tuple[dict[str, bytes], dict[str, bytes], str]:
    """The files of an incremental split of ``edited`` after ``pages``, those of a full one, and why the
    incremental split was a full one."""
    full = tmp / "full"
    split_pages(full, CONFIG, edited, set(), None, {})
    first = tmp / "first"
    state, why = split_pages(first, CONFIG, pages, {u for u, _ in pages}, None, {})
    assert why == "no earlier split in the cache"
    site = tmp / "site"
    shutil.copytree(first, site)  # a dirty build starts from a copy of the last site
    rendered = {u for (u, e), (_, was) in zip(edited, pages) if e != was}
    _, why = split_pages(site, CONFIG, edited, rendered, state, dict(pages))
    return _files(site), _files(full), why


def _text(pages: _Pages, p: int, d: int, change: Any) -> _Pages:
    out = copy.deepcopy(pages)
    out[p][1][d]["text"] = change(out[p][1][d]["text"])
    return out


PAGES = _pages(60)


# each edit, and whether it moves terms in lunr's order (a term new, gone or first seen elsewhere)
@pytest.mark.parametrize("name, edited, renumbers", [
    ("a word swapped for one of the index", _text(PAGES, 20, 0, lambda t: t.replace("<p>", "<p>sail ", 1)), False),
    ("words added", _text(PAGES, 31, 0, lambda t: t + " pilot pilot sort sort pay"), False),
    ("a new term", _text(PAGES, 17, 0, lambda t: t + " zebra"), True),
    ("a new term in the first document", _text(PAGES, 0, 0, lambda t: "aardvark " + t), True),
    ("a term gone from the index", _text(PAGES, 40, 0, lambda t: t.replace("w40x0", "")), True),
    ("a term gone, another in its place", _text(PAGES, 40, 0, lambda t: t.replace("w40x0", "w40")), False),
    ("a term gone from the document where it was first seen",
     _text(PAGES, 0, 0, lambda t: " ".join(w for w in t.split() if w not in ("rermit", "<p>rermit", "rermit</p>"))), True),
    ("a page's words reordered", _text(PAGES, 3, 0, lambda t: " ".join(reversed(t.split()))), False),
    ("a boost", [(u, [dict(e, boost=3) if u == "p9.md" else e for e in es]) for u, es in PAGES], False),
])
def test_an_incremental_split_writes_the_bytes_of_a_full_one(tmp_path: Path, name: str, edited: _Pages,
                                                              renumbers: bool) -> None:
    assert edited != PAGES
    site, full, why = _edit(tmp_path, PAGES, edited)
    assert why == ""
    assert search_delta.LAST.mode == "delta"
    assert (search_delta.LAST.renumbered > 0) == renumbers
    assert site.keys() == full.keys()
    assert [f for f in site if site[f] != full[f]] == []


def test_a_page_with_another_number_of_documents_is_split_whole_and_says_why(tmp_path: Path) -> None:
    edited = copy.deepcopy(PAGES)
    edited[5][1].append({"location": "p5/#new", "title": "New heading", "text": "pilot sail"})
    site, full, why = _edit(tmp_path, PAGES, edited)
    assert why.startswith("p5.md has ") and "numbered anew" in why
    assert search_delta.LAST.mode == "full"
    assert site == full


def test_a_one_word_edit_tokenises_and_writes_what_it_changed(tmp_path: Path) -> None:
    pages = _pages(300)
    edited = _text(pages, 150, 0, lambda t: t.replace("<p>", "<p>sail ", 1))
    site, full, _ = _edit(tmp_path, pages, edited)
    assert site == full
    work = search_delta.LAST
    assert work.mode == "delta"
    assert work.tokenised == 2  # the document before and after
    assert work.weighed == 1  # "sail"
    assert work.removed == []
    written = set(work.written)
    assert "search/docs/" + str(sum(len(e) for _, e in pages[:150])) + ".json" in written
    assert len(written) < len(full) // 10, sorted(written)


# the site build (compiler/site/mkdocs_build.py): MkDocs Material over a few pages, with the cache


def _site_pages(edit: str = "") -> dict[str, str]:
    words = "pilot vessel harbor fee tonnage license master engineer knowledge construction".split()
    files = {"index.md": "# Home\n\nThe pilot pages.\n"}
    for p in range(12):
        body = " ".join(words[(p + i) % len(words)] for i in range(30))
        files[f"p{p}.md"] = (f"# Page {p}\n\nOn page {p}: {body}.\n\n## Part {p}\n\nMore on {words[p % len(words)]}"
                             f" (mark{p}).\n")
    if edit == "word":
        files["p5.md"] = files["p5.md"].replace("knowledge", "pilot", 1)
    elif edit == "new term":
        files["p5.md"] = files["p5.md"].replace("knowledge", "zyzzyva", 1)
    elif edit == "term gone":
        files["p5.md"] = files["p5.md"].replace(" (mark5)", "", 1)
    elif edit == "heading":
        files["p5.md"] += "\n## A new part\n\nOf the pilot.\n"
    return files


@pytest.mark.parametrize("edit", ["word", "new term", "term gone", "heading"])
def test_an_incremental_site_build_splits_the_index_a_clean_build_splits(tmp_path: Path, edit: str) -> None:
    from navlaw.cache import BuildCache
    from navlaw.site.mkdocs_build import build_site

    cache = BuildCache(tmp_path / "cache")
    assert build_site(_site_pages(), tmp_path / "first", None, cache).mode == "full"
    report = build_site(_site_pages(edit), tmp_path / "second", tmp_path / "first", cache)
    assert report.mode == "incremental" and report.rendered == 1
    build_site(_site_pages(edit), tmp_path / "clean")
    second, clean = _files(tmp_path / "second"), _files(tmp_path / "clean")
    assert second.keys() == clean.keys()
    assert [f for f in second if second[f] != clean[f]] == []
    work = search_delta.LAST
    if edit == "heading":  # p5.md has one search document more: the ones after it are numbered anew
        assert work.mode == "full" and "p5.md has 3 search documents, 2 before" in report.search
        assert "search index split whole (p5.md has 3 search documents" in report.summary()
    else:
        assert work.mode == "delta" and report.search == "" and work.tokenised <= 4
        assert work.renumbered > 0 if edit in ("new term", "term gone") else work.renumbered == 0
        first = next(n for n, doc in enumerate(search_index.documents(tmp_path / "clean")) if doc["location"] == "p5/")
        assert f"search/docs/{first}.json" in work.written  # p5's documents
        assert not [f for f in work.written if f.startswith("search/docs/") and f != f"search/docs/{first}.json"]
        assert len(work.written) < len(clean) // 4, work.written


def test_edit_after_edit_keeps_the_bytes_of_a_full_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each split starts from the last one's state (the prefixes' weights kept by the first edit that
    touched them); few pages shown per prefix, so that an edit changes which ones are."""
    monkeypatch.setattr(search_top, "MAX_GROUPS", 4)
    monkeypatch.setattr(search_top, "MARGIN", 1)
    pages = _pages(120, seed=7)
    edits = [lambda t: t.replace("<p>", "<p>sail pail ", 1),  # words of wide prefixes
             lambda t: t + " sail sail sail sail sail sail sail sail",  # to the top of "s"
             lambda t: t.replace("sail", "quokka"),  # a new term, "sail" less
             lambda t: t.replace("quokka", ""),  # and gone again
             ]
    state, _ = split_pages(tmp_path / "0", CONFIG, pages, set(), None, {})
    site = tmp_path / "0"
    modes, shown, tops = [], [], Counter[str]()
    for i, change in enumerate(edits * 2):
        edited = _text(pages, 30 + 40 * (i % 2), 0, change)
        edited = [(u, [dict(e, boost=5) if u == "p33.md" and i == 5 else e for e in es]) for u, es in edited]
        full = tmp_path / f"full{i}"
        split_pages(full, CONFIG, edited, set(), None, {})
        nxt = tmp_path / str(i + 1)
        shutil.copytree(site, nxt)
        rendered = {u for (u, e), (_, was) in zip(edited, pages) if e != was}
        state, why = split_pages(nxt, CONFIG, edited, rendered, state, dict(pages))
        assert why == ""
        assert _files(nxt) == _files(full), (i, [f for f in _files(full) if _files(full)[f] != _files(nxt).get(f)])
        modes.append(search_delta.LAST.mode)
        tops.update(search_delta.LAST.tops)
        shown.append(search_index.json.loads(_files(full)["search/top/s.json"])["terms"])
        site, pages = nxt, edited
    assert modes == ["delta"] * len(modes)
    assert any(a != b for a, b in zip(shown, shown[1:]))  # the pages "s" shows changed on the way
    assert tops["from the last one"] > tops["whole"] > 0, tops


def test_a_one_word_edit_of_the_real_corpus_splits_the_index_from_the_last_split(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """benchmarks/incremental.py's edit in § 12 ("a practical knowledge"), with words the index has: two
    documents tokenised (§ 12's, before and after), the two words weighed, a few files written; a word
    the index lacks renumbers the terms lunr meets after it (their term files are written, their
    postings are not weighed again); the site is a clean build's."""
    from .conftest import CORPUS
    from .test_incremental import build, same_as_clean_build

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    assert build(tmp_path, corpus) == 0
    path = corpus / "nav-law.consolidated.txt"
    text = path.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"
    works = []
    for word in ("competent", "sound", "quixotic"):
        path.write_text(text.replace(old, old.replace("practical", word)), encoding="utf-8")
        capsys.readouterr()
        assert build(tmp_path, corpus) == 0
        assert "site: 1 of 257 pages rendered, the rest kept from the last build\n" in capsys.readouterr().out
        work = works.append(search_delta.LAST) or search_delta.LAST
        assert work.mode == "delta" and work.tokenised <= 3 and work.weighed <= 2, work
    # "competent" is first met in § 12 now, "practical" later: the terms lunr meets in between move
    assert [w.renumbered > 0 for w in works] == [True, False, True], works
    assert len(works[1].written) < 10, works[1].written
    for w in works:  # § 12's documents, the term files, names files and top files, postings of moved terms
        docs = [f for f in w.written if f.startswith("search/docs/")]
        assert len(docs) == 1 and (tmp_path / "build" / "site" / docs[0]).read_text().startswith('[["law/12/"')
        assert len([f for f in w.written if f.startswith("search/postings/")]) <= 2 * w.weighed + w.renumbered
    same_as_clean_build(tmp_path, corpus)
