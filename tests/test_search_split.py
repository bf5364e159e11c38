"""Issue 32, item 4, in a real browser (Playwright driving Debian's chromium): the search index split into
parts a page fetches on demand (compiler/site/search_index.py, templates/site/search-worker.js).

- The split search gives what Material's own worker gives with the whole index (its worker, run here on
  the documents read back from the parts): the same pages in the same order, the same scores, titles,
  texts and highlights, for section numbers, words, a defined term, phrases and lunr's operators.
- What a page fetches is counted in bytes, on the real corpus and on one four times as large: every file
  is within the bound of a part, and a page load fetches no more at 4x than at 1x."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest

from navlaw.cli import main
from navlaw.site.search_index import TERM_SHARD_BYTES, documents

from .conftest import CORPUS, ROOT
from .test_browser import CHROMIUM, SHOTS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")

# section numbers, words, a defined term, a phrase and lunr's operators (required, prohibited, field,
# wildcards, fuzzy), a stop word, nothing, and one letter (more pages than are listed)
QUERIES = ["89-b", "§ 89-b", "88", "130-a", "55.2", "pilotage", "pilot", "overall length", "hudson river",
           "+pilotage -fees", "title:pilotage", "fee*", "pilotge~1", "*age", '"pilotage fees"', "the", "zzzz", "p"]
LISTED = 50  # pages the worker returns (MAX_GROUPS in search-worker.js)


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
    return tmp / "build" / "site"


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


_BOTH = """async ([theme, whole, split, queries]) => {
  function run(url, setup) {
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
  const material = await run(theme, {config: whole.config, docs: whole.docs, options: {suggest: false}});
  const ours = await run("/assets/navlaw-search-worker.js?theme=" + encodeURIComponent(new URL(theme, location.href)),
                         {config: split.config, docs: [], options: {suggest: false}});
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
        return page.evaluate(_BOTH, [theme, {"config": config, "docs": documents(site)}, split, queries])
    finally:
        page.close()


def _shown(group: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return [(i["location"], round(i["score"], 9), i["title"], i.get("text"), i.get("tags"), json.dumps(i["terms"]))
            for i in group]


@pytest.mark.parametrize("size, queries", [(1, QUERIES), (4, ["89-b", "3089-b", "pilotage", "overall length", "p"])])
def test_the_split_search_finds_what_materials_worker_finds_in_the_whole_index(sites, browser, size, queries):
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
        if path.startswith("/search/") or "search" in path.rsplit("/", 1)[-1]:
            out.append((path, (site / path.lstrip("/")).stat().st_size))
    return out


def test_a_page_fetches_the_search_by_parts_whose_size_does_not_grow_with_the_corpus(sites, browser):
    """At 1x and 4x: a page load fetches the same few search files (the manifest grows by a term per
    64 kB of index); typing a word fetches term files of at most TERM_SHARD_BYTES and one documents file
    per listed page, never the whole index; the largest file fetched is no larger at 4x than at 1x."""
    load, typed, share = {}, {}, {}
    for size, site in sites.items():
        with served(site) as server:
            load[size] = _fetched(site, server, browser, None)
            typed[size] = {q: _fetched(site, server, browser, q) for q in ("pilotage", "89-b", "p")}
            filled = {q: _fetched(site, server, browser, q, typed=False) for q in typed[size]}
        parts = sum(p.stat().st_size for p in (site / "search").rglob("*.json"))
        for query, files in typed[size].items():
            terms = [n for path, n in files if path.startswith("/search/terms/")]
            docs = {path for path, _ in files if path.startswith("/search/docs/")}
            assert terms and max(terms) <= TERM_SHARD_BYTES, (size, query, max(terms))
            assert len(docs) <= len(query) * LISTED, (size, query, len(docs))  # the pages listed at each key
            # the share of one query's files: typed, a slow machine searches every prefix ("8", "89", …)
            share[size, query] = sum(n for _, n in filled[query]) / parts
    for query in typed[4]:  # a part of the index, and a smaller part of a larger one
        assert share[4, query] < 0.5 and share[4, query] < share[1, query], (query, share)
    assert {p for p, _ in load[1]} == {p for p, _ in load[4]}
    assert "/search/search_index.json" in {p for p, _ in load[1]}
    assert sum(n for _, n in load[4]) - sum(n for _, n in load[1]) < 1000, (load[1], load[4])
    biggest = {size: max(n for files in typed[size].values() for _, n in files) for size in sites}
    docs_bound = max(p.stat().st_size for p in (sites[1] / "search" / "docs").iterdir())  # one page's documents
    assert biggest[4] <= max(TERM_SHARD_BYTES, docs_bound), biggest
    whole = {size: len(json.dumps(documents(site))) for size, site in sites.items()}
    assert whole[4] > 2.5 * whole[1]  # what every page fetched whole before the split (the law four times)


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
