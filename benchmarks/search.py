"""What a page fetches to search, in bytes (issue 32, item 4: no search file fetched by a page over 2 MB
at 100x). For each corpus size N (benchmarks/make_corpus.py) the site is built once; then

- baseline: the one search_index.json Material's search plugin writes (every page fetched it whole), as
  it was before the split: its documents read back from the split files, written as Material writes them;
- the split: the manifest every page fetches, the largest file under search/ (the most any one request
  of a search can fetch), and, in chromium (Playwright), the search files a page fetched while each query
  was typed into the search box key by key, with the number of results: the largest of them and their total.

    python benchmarks/search.py [--sizes 10 100] [--queries pilotage 89-b "overall length" p]
    python benchmarks/search.py --built 100=/tmp/b100/site   # a site built already (its corpus's size N)
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_corpus import make  # noqa: E402

QUERIES = ["pilotage", "89-b", "overall length", "hudson river", "p"]


def build(n: int, tmp: Path) -> Path:
    corpus = make(n, tmp / f"corpus-{n}")
    out = tmp / f"build-{n}"
    subprocess.run([sys.executable, "-m", "navlaw", "build", "--no-cache", "--corpus", str(corpus), "--out", str(out),
                    "--module", str(tmp / f"module-{n}")], cwd=ROOT, check=True, capture_output=True)
    return out / "site"


def single_index_bytes(site: Path) -> int:
    """The size of the one file Material's plugin wrote (json.dumps with its separators) for this site."""
    from navlaw.site.search_index import documents

    config = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    config.pop("navlaw")
    return len(json.dumps({"config": config, "docs": documents(site)}, separators=(",", ":"), default=str).encode())


def _file(site: Path, url: str) -> Path | None:
    path = site / unquote(urlparse(url).path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def _files(site: Path, urls: list[str]) -> list[Path]:
    """The search files among ``urls``: search/'s, the workers and scripts named for search."""
    out = [_file(site, u) for u in urls if "/search/" in u or "search" in urlparse(u).path.rsplit("/", 1)[-1]]
    return [f for f in out if f is not None]


def typed(site: Path, queries: list[str | None]) -> list[tuple[str | None, str, list[int]]]:
    """For each query typed into the search box of the home page: the result count shown, and the sizes of
    the search files (search/, the search workers) the page fetched from its load until the results (for
    None, on its load alone)."""
    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a page closed while a file was on its way

    httpd = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    server = f"http://127.0.0.1:{httpd.server_address[1]}"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--headless"])
            for query in queries:
                page = browser.new_page()  # a fresh page each time: nothing fetched by an earlier query
                seen: list[str] = []
                page.on("request", lambda r: seen.append(r.url))
                page.goto(server + "/")
                page.wait_for_load_state("networkidle")
                if query is None:
                    rows.append((query, "", [f.stat().st_size for f in _files(site, seen)]))
                    page.close()
                    continue
                page.keyboard.press("/")
                page.keyboard.type(query, delay=80)
                page.wait_for_function("q => document.querySelector('input.md-search__input').value === q"
                                       " && /matching document|No matching/.test(document.querySelector("
                                       "'.md-search-result__meta').textContent)", arg=query, timeout=900_000)
                page.wait_for_load_state("networkidle")
                meta = page.locator(".md-search-result__meta").inner_text()
                rows.append((query, meta, [f.stat().st_size for f in _files(site, seen)]))
                page.close()
            browser.close()
    finally:
        httpd.shutdown()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100])
    ap.add_argument("--queries", nargs="+", default=QUERIES)
    ap.add_argument("--built", nargs="+", default=[], metavar="N=SITE", help="measure sites built already")
    args = ap.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        built = [(int(b.split("=", 1)[0]), Path(b.split("=", 1)[1])) for b in args.built]
        for n, given in built or [(n, None) for n in args.sizes]:
            site = given if given is not None else build(n, Path(tmp))
            parts = [p for p in (site / "search").rglob("*.json") if p.name != "search_index.json"]
            biggest = max(parts, key=lambda p: p.stat().st_size)
            print(f"{n}x: single search_index.json (baseline, fetched whole by every page): "
                  f"{single_index_bytes(site) / 1e6:8.2f} MB")
            print(f"{n}x: split: manifest fetched by every page {(site / 'search' / 'search_index.json').stat().st_size / 1e3:.1f} kB;"
                  f" {len(parts)} part files, {sum(p.stat().st_size for p in parts) / 1e6:.1f} MB in all;"
                  f" largest {biggest.relative_to(site)} {biggest.stat().st_size / 1e6:.3f} MB (target <= 2 MB at 100x)")
            for query, meta, sizes in typed(site, [None, *args.queries]):
                what = "page load, no search" if query is None else f"typed {query!r} -> {meta!r}"
                print(f"{n}x:   {what}: {len(sizes)} search files fetched,"
                      f" largest {max(sizes) / 1e6:.3f} MB, total {sum(sizes) / 1e6:.3f} MB")


if __name__ == "__main__":
    main()
