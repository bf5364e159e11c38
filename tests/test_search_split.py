"""Issue 32, item 4, in a real browser (Playwright driving Debian's chromium): the search index split into
parts a page fetches on demand (compiler/site/search_index.py, search_top.py, templates/site/search-worker.js),
and the citations search reads fetched per section number (compiler/site/citations.py, search-cite.js).

- The split search gives what Material's own worker gives with the whole index (its worker, run here on
  the documents read back from the parts): the same pages in the same order, the same scores, titles,
  texts and highlights, for section numbers, words, a defined term, phrases, lunr's operators, one letter
  and the words whose postings are split across files. Where navlaw's search means to differ (a word of one
  character among several words is that word, not a prefix), it gives what Material's worker gives for the
  query written that way ("89-b" as "89-b~0").
- What a page fetches is counted in bytes, on the real corpus and on one four times as large, with the
  split's bounds made small so that the real corpus has wide prefixes and postings in several files:
  every file is within a fixed bound, a page load fetches no more at 4x than at 1x, and a query of one
  short word fetches no more at 4x than at 1x."""

from __future__ import annotations

import contextlib
import functools
import http.server
import itertools
import json
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

from navlaw.cli import main
from navlaw.site import search_index, search_top
from navlaw.site.search_index import TERM_SHARD_BYTES, documents

from .conftest import CORPUS, ROOT
from .test_browser import CHROMIUM, SHOTS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")

# section numbers, words, a defined term, a phrase and lunr's operators (required, prohibited, field,
# wildcards, fuzzy), a stop word, nothing, one letter (more pages than are listed), wide prefixes, and
# words whose postings are in several files
QUERIES = ["89-b", "§ 89-b", "88", "130-a", "55.2", "pilotage", "pilot", "overall length", "hudson river",
           "+pilotage -fees", "title:pilotage", "fee*", "pilotge~1", "*age", '"pilotage fees"', "the", "zzzz", "p",
           "s", "§", "pi", "law", "p pilotage", "pilotage fees", "title:p", "89-", "p-", "pilotge~2", "*ta*"]
# what Material's worker is asked for a query navlaw's search reads otherwise: a word of one character
# among several words is that word (lunr's "b~0"), not every word it begins ("89-b": Material searches
# the words "89" and "b*", navlaw "89" and "b"); a word that is only "*" is left out ("89-" typed is
# "89-*" to Material: "89" and every term of the index)
AS_MATERIAL = {"89-": "89~0", "p-": "p~0", "89-b": "89-b~0", "§ 89-b": "§~0 89-b~0", "3089-b": "3089-b~0", "130-a": "130-a~0", "p pilotage": "p~0 pilotage"}
LISTED = 50  # pages the worker returns (MAX_GROUPS in search-worker.js)
assert LISTED == search_top.MAX_GROUPS
# the split's bounds for these tests: small enough that the real corpus has wide prefixes ("p", "§") and
# words whose postings are in several files
SMALL = {"WIDE_BYTES": 4_000, "INLINE_BYTES": 300, "POSTING_BYTES": 1_500}


@contextlib.contextmanager
def served(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):  # what `python3 -m http.server -d build/site` does
        def log_message(self, *args):  # type: ignore[no-untyped-def]
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):  # type: ignore[no-untyped-def]
            pass  # a page closed while a part was on its way

    httpd = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def _build(tmp: Path, corpus: Path) -> Path:
    assert main(["build", "--no-cache", "--corpus", str(corpus), "--out", str(tmp / "build"),
                 "--module", str(tmp / "fees")]) == 0
    site = tmp / "build" / "site"
    _split_small(site)
    return site


def _split_small(site: Path) -> None:
    """Split the site's search index again with the ``SMALL`` bounds (from Material's one file, as its
    plugin wrote it: the documents read back from the parts)."""
    path = site / "search" / "search_index.json"
    config = json.loads(path.read_text(encoding="utf-8"))["config"]
    config.pop("navlaw")
    path.write_text(json.dumps({"config": config, "docs": documents(site)}, ensure_ascii=False), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search_top, "WIDE_BYTES", SMALL["WIDE_BYTES"])
        mp.setattr(search_index, "INLINE_BYTES", SMALL["INLINE_BYTES"])
        mp.setattr(search_index, "POSTING_BYTES", SMALL["POSTING_BYTES"])
        search_index.split_search_index(site)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The site of the real corpus and of one four times as large (benchmarks/make_corpus.py 4)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from make_corpus import make
    finally:
        sys.path.pop(0)
    tmp = tmp_path_factory.mktemp("search")
    return {1: _build(tmp / "1", CORPUS), 4: _build(tmp / "4", make(4, tmp / "corpus-4"))}


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        yield b
        b.close()


_BOTH = """async ([theme, whole, split, queries, asked]) => {
  function run(url, setup, queries) {
    return new Promise((done, fail) => {
      const worker = new Worker(url), out = [];
      worker.onerror = e => fail(e.message);
      worker.onmessage = ev => {
        if (ev.data.type === 1) worker.postMessage({type: 2, data: queries[0]});
        if (ev.data.type !== 3) return;
        out.push(ev.data.data);
        if (out.length < queries.length) worker.postMessage({type: 2, data: queries[out.length]});
        else { worker.terminate(); done(out); }
      };
      worker.postMessage({type: 0, data: setup});
    });
  }
  const material = await run(theme, {config: whole.config, docs: whole.docs, options: {suggest: false}}, asked);
  const ours = await run("/assets/navlaw-search-worker.js?theme=" + encodeURIComponent(new URL(theme, location.href)),
                         {config: split.config, docs: [], options: {suggest: false}}, queries);
  return [material, ours];
}"""


def _results(site: Path, server: str, browser, queries: list[str]):  # type: ignore[no-untyped-def]
    """Material's worker on the whole index and navlaw's on the parts, each query in turn: their RESULTs."""
    split = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    config = dict(split["config"])
    config.pop("navlaw")
    theme = "/" + next((site / "assets" / "javascripts" / "workers").glob("search.*.min.js")).relative_to(site).as_posix()
    page = browser.new_page()
    try:
        page.goto(server + "/")
        return page.evaluate(_BOTH, [theme, {"config": config, "docs": documents(site)}, split, queries,
                                     [AS_MATERIAL.get(q, q) for q in queries]])
    finally:
        page.close()


def _shown(group: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return [(i["location"], round(i["score"], 9), i["title"], i.get("text"), i.get("tags"), json.dumps(i["terms"]))
            for i in group]


@pytest.mark.parametrize("size, queries", [(1, QUERIES), (4, ["89-b", "3089-b", "pilotage", "overall length", "p",
                                                              "§", "pilotage fees", "s"])])
def test_the_split_search_finds_what_materials_worker_finds_in_the_whole_index(sites, browser, size, queries):
    manifest = json.loads((sites[size] / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]["navlaw"]
    assert {"p", "s", "§"} <= set(manifest["top"])  # these queries are answered from top/ files
    assert len(list((sites[size] / "search" / "postings").iterdir())) > 10  # and postings in several files
    with served(sites[size]) as server:
        material, ours = _results(sites[size], server, browser, queries)
    for query, want, got in zip(queries, material, ours):
        assert got["total"] == len(want["items"]), query
        assert len(got["items"]) == min(LISTED, len(want["items"])), query
        assert [_shown(g) for g in got["items"]] == [_shown(g) for g in want["items"][:LISTED]], query
    by_query = dict(zip(queries, ours))
    assert by_query.get("zzzz", {"items": []})["items"] == []
    if size == 1:  # what the site's own tests expect first: the section, the defined term's section
        assert by_query["89-b"]["items"][0][0]["location"] == "law/89-b/"
        assert by_query["§ 89-b"]["items"][0][0]["location"] == "law/89-b/"
        assert any("<mark>overall</mark> <mark>length</mark>" in (i.get("text") or "")
                   for g in by_query["overall length"]["items"] for i in g)


def _fetched(site: Path, server: str, browser, query: str | None,  # type: ignore[no-untyped-def]
             typed: bool = True) -> list[tuple[str, int]]:
    """The search files (search/, the workers, in bytes) a fresh page fetched: on its load, and with
    ``query`` typed into the search box key by key (``typed``; how many of its prefixes are searched before
    the next key depends on the machine's speed) or filled in at once (one query's files, whatever the
    speed), until its results are listed."""
    page = browser.new_page()
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))  # the workers' requests too
    try:
        page.goto(server + "/")
        page.wait_for_load_state("networkidle")
        if query is not None:
            page.keyboard.press("/")
            if typed:
                page.keyboard.type(query, delay=60)
            else:
                page.fill("input.md-search__input", query)
            page.wait_for_function("q => document.querySelector('input.md-search__input').value === q && "
                                   "/matching document/.test(document.querySelector('.md-search-result__meta')"
                                   ".textContent)", arg=query, timeout=600_000)
            page.wait_for_load_state("networkidle")
    finally:
        page.close()
    out = []
    for url in seen:
        path = url.split("?")[0].split(server, 1)[1]
        if path.startswith(("/search/", "/assets/citations/")) or "search" in path.rsplit("/", 1)[-1]:
            file = site / path.lstrip("/")  # (a number with no section: its citations file is not found)
            out.append((path, file.stat().st_size if file.is_file() else 0))
    return out


def test_a_page_fetches_the_search_by_parts_whose_size_does_not_grow_with_the_corpus(sites, browser):
    """At 1x and 4x: a page load fetches the same few search files and none of the citations; every file a
    query fetches is within a fixed bound (a term range, a run of postings, a top file of the best pages,
    one page's documents) that is no larger at 4x; a query of one wide word ("p", "§", "s") fetches its top
    file and the listed pages' documents, no term range and no postings: within a bound that the size of
    the corpus does not enter; a fuzzy word fetches the term names of the lengths it can have and the
    ranges of its terms, not every range."""
    load, typed, filled = {}, {}, {}
    for size, site in sites.items():
        with served(site) as server:
            load[size] = _fetched(site, server, browser, None)
            typed[size] = {q: _fetched(site, server, browser, q) for q in ("pilotage", "89-b", "p")}
            filled[size] = {q: _fetched(site, server, browser, q, typed=False)
                            for q in ("pilotage", "89-b", "p", "§", "s", "pilotage fees", "pilotge~1")}
    tops = {size: {p.name: p.stat().st_size for p in (site / "search" / "top").iterdir()} for size, site in sites.items()}
    assert tops[1] and max(tops[4].values()) <= 1.25 * max(tops[1].values()), tops
    for size, site in sites.items():  # a top file holds the best pages, never more
        for top in (site / "search" / "top").iterdir():
            data = json.loads(top.read_text(encoding="utf-8"))
            pages = {n - d for _, _, per_field in data["terms"] for flat in per_field
                     for n, d in zip(itertools.accumulate(flat[0::3]), flat[1::3])}
            assert len(pages) <= LISTED + search_top.MARGIN and data["total"] >= len(pages), (size, top.name)
    docs_bound = max(p.stat().st_size for p in (sites[1] / "search" / "docs").iterdir())  # one page's documents
    bound = max(TERM_SHARD_BYTES, docs_bound, max(tops[1].values()))  # measured at 1x, held at 4x
    for size, site in sites.items():
        assert (site / "search" / "search_index.json").stat().st_size <= TERM_SHARD_BYTES
        for query, files in [*typed[size].items(), *filled[size].items()]:
            assert max(n for _, n in files) <= bound, (size, query, max(files, key=lambda f: f[1]))
            postings = [n for path, n in files if path.startswith("/search/postings/")]
            assert not postings or max(postings) <= 2 * SMALL["POSTING_BYTES"], (size, query, max(postings))
            docs = {path for path, _ in files if path.startswith("/search/docs/")}
            assert len(docs) <= len(query) * LISTED, (size, query, len(docs))  # the pages listed at each key
        for query in ("p", "§", "s"):  # a wide word: its best pages, nothing of the term ranges
            kinds = {path.split("/")[2] for path, _ in filled[size][query] if path.startswith("/search/")}
            assert kinds == {"search_index.json", "top", "docs"}, (size, query, kinds)
        assert any(path.startswith("/search/postings/") for path, _ in filled[size]["pilotage fees"])
        # a fuzzy word: the names of the lengths within its edit distance, then only its terms' ranges
        fuzzy = [path for path, _ in filled[size]["pilotge~1"]]
        assert {p.split("/")[3].split("-")[0] for p in fuzzy if p.startswith("/search/names/")} == {"6", "7", "8"}
        ranges = [p for p in fuzzy if p.startswith("/search/terms/")]
        assert 0 < len(ranges) < len(list((site / "search" / "terms").iterdir())) / 2, (size, ranges)
    # a wide word's bytes: the manifest, its top file and the listed pages' documents, a bound that the
    # size of the corpus does not enter (measured at 1x, held at 4x)
    wide_bound = TERM_SHARD_BYTES + 1.25 * max(tops[1].values()) + LISTED * docs_bound
    for query in ("p", "§", "s"):
        total = {size: sum(n for path, n in filled[size][query] if path.startswith("/search/")) for size in sites}
        assert total[4] <= wide_bound, (query, total, wide_bound)
    parts = {size: sum(p.stat().st_size for p in (site / "search").rglob("*.json")) for size, site in sites.items()}
    for query in ("pilotage", "89-b"):  # a part of the index, and a smaller part of a larger one
        share = {size: sum(n for _, n in filled[size][query]) / parts[size] for size in sites}
        assert share[4] < 0.5 and share[4] < share[1], (query, share)
    assert {p for p, _ in load[1]} == {p for p, _ in load[4]}
    assert "/search/search_index.json" in {p for p, _ in load[1]}
    assert not any("/citations" in p for p, _ in load[1] + load[4])
    assert max(n for _, n in load[4]) <= bound
    whole = {size: len(json.dumps(documents(site))) for size, site in sites.items()}
    assert whole[4] > 2.5 * whole[1]  # what every page fetched whole before the split (the law four times)


@pytest.mark.parametrize("size, query, url, anchor", [
    (1, "89-b(4)(b)(1)", "/law/89-b/", "p-89-b-4-b-1"),
    (1, "55.2(c)", "/law/21-nycrr-55.2/", "p-21nycrr-55-2-c"),
    (4, "§ 3089-b(4)(b)", "/law/3089-b/", "p-3089-b-4-b"),
])
def test_a_citation_fetches_the_file_of_its_section_number_only_and_opens_the_provision_on_a_phone(
        sites, browser, size, query, url, anchor):
    """The citations search reads (search-cite.js) come per section number: on a phone, a page load fetches
    none; a citation typed fetches the one file of its number (no larger at 4x than the largest at 1x), is
    offered as "Go to …", and Enter opens the provision at its anchor; a query that is no citation fetches
    none."""
    largest = max(p.stat().st_size for p in (sites[1] / "assets" / "citations").iterdir())
    with served(sites[size]) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        seen: list[str] = []
        page.on("request", lambda r: seen.append(r.url.split(server, 1)[-1]))
        try:
            page.goto(server + "/")
            page.wait_for_load_state("networkidle")
            assert not [u for u in seen if "citations" in u]
            page.click("label.md-search__icon, label[for=__search]")
            page.fill("input.md-search__input", "pilotage")
            page.wait_for_function("/matching document/.test(document.querySelector('.md-search-result__meta').textContent)",
                                   timeout=600_000)
            assert not [u for u in seen if "citations" in u]
            page.fill("input.md-search__input", query)
            jump = page.locator(".cite-jump a")
            jump.wait_for(state="visible", timeout=600_000)
            assert jump.inner_text().startswith("Go to ")
            fetched = [u for u in seen if "citations" in u]
            assert len(fetched) == 1 and fetched[0].startswith("/assets/citations/"), fetched
            assert (sites[size] / fetched[0].lstrip("/")).stat().st_size <= largest
            assert page.evaluate("document.documentElement.scrollWidth") <= 390 or page.wait_for_function(
                "document.documentElement.scrollWidth <= 390", timeout=600_000)
            page.keyboard.press("Enter")
            page.wait_for_url(f"**{url}#{anchor}", timeout=600_000)
        finally:
            page.close()


def test_the_search_box_lists_the_best_pages_highlighted_and_says_how_many_matched(sites, browser):
    """Material's search box as a reader uses it, at 1x and on a phone: the count, the listed pages with
    their highlighted words, Enter opening the best result; more pages than are listed are counted."""
    with served(sites[1]) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        try:
            page.goto(server + "/")
            page.click("label.md-search__icon, label[for=__search]")
            page.keyboard.type("p")  # Material searches at each key (keyup)
            page.wait_for_function("/the best 50 are listed/.test(document.querySelector('.md-search-result__meta')"
                                   ".textContent)", timeout=600_000)
            assert page.locator(".md-search-result__meta").inner_text().startswith("244 matching documents")
            # no sideways scrolling on a phone, once Material's script has laid the page out (it wraps the
            # page's wide tables in scrolling boxes when it runs: on a busy machine that can come after the
            # results are listed, so this waits for it; a page that stays wider fails here)
            page.wait_for_function("document.documentElement.scrollWidth <= 390", timeout=600_000)
            page.keyboard.type("ilotage")
            page.wait_for_function("/^\\d+ matching documents$/.test(document.querySelector('.md-search-result__meta')"
                                   ".textContent)", timeout=600_000)
            assert page.locator(".md-search-result__item").count() == 10  # Material lists 10, more on scrolling
            assert page.locator(".md-search-result__item mark").count() > 0
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "search-split-phone.png"))
            page.keyboard.press("Enter")  # Material opens the best-scored result
            page.wait_for_url("**/law/**")
        finally:
            page.close()


def test_the_search_works_on_the_site_navlaw_serve_serves(tmp_path, browser):
    """`navlaw serve` (its own server, with the live-preview script) serves the parts and the worker."""
    from .test_serve import serving

    with serving(tmp_path) as (base, _):
        page = browser.new_page()
        failed: list[str] = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        try:
            page.goto(base)
            page.keyboard.press("/")
            page.keyboard.type("overall length", delay=30)
            page.wait_for_function("/\\d+ matching document/.test(document.querySelector('.md-search-result__meta')"
                                   ".textContent)", timeout=600_000)
            assert page.locator(".md-search-result__item mark").count() > 0
        finally:
            page.close()
    assert failed == []
