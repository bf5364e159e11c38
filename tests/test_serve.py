"""Issue 18, item 4: `navlaw serve` as a live preview — pages reload after a good rebuild and show what a
failed rebuild said; the built files themselves are not changed."""

from __future__ import annotations

import contextlib
import json
import shutil
import threading
import time
import urllib.request
from pathlib import Path

from navlaw.cli import cmd_serve, make_parser

from .conftest import CONSOLIDATED, CORPUS, LIS_2022


def _get(url: str) -> str:
    return urllib.request.urlopen(url).read().decode()


@contextlib.contextmanager
def serving(tmp_path: Path):  # type: ignore[no-untyped-def]
    """`navlaw serve` of a copy of the corpus, in a thread: yields (base URL, corpus)."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    args = make_parser().parse_args(["serve", "--corpus", str(corpus), "--out", str(tmp_path / "build"),
                                     "--module", str(tmp_path / "fees"), "--addr", "127.0.0.1:0",
                                     "--interval", "0.2"])
    stop, ready, urls = threading.Event(), threading.Event(), []
    server = threading.Thread(target=cmd_serve, args=(args, stop, lambda u: (urls.append(u), ready.set())))
    server.start()
    try:
        assert ready.wait(600)
        yield urls[0], corpus
    finally:
        stop.set()
        server.join(30)


def amend(corpus: Path) -> None:
    """§ 89-b(4)(b)(1), file 001: the 2027 rate, $11.22 -> $11.30 a unit."""
    law = corpus / LIS_2022
    law.write_text(law.read_text(encoding="utf-8").replace(
        "shall pay eleven dollars\\nand twenty-two cents", "shall pay eleven dollars\\nand thirty cents"),
        encoding="utf-8")


def break_manifest(corpus: Path) -> str:
    """The manifest names a file that is not there: a rebuild fails. Returns the good manifest."""
    manifest = corpus / "manifest.toml"
    good = manifest.read_text(encoding="utf-8")
    manifest.write_text(good.replace('file = "089-b.2022.txt"', 'file = "no-such-file.txt"'), encoding="utf-8")
    return good


def _until(check, what: str):  # type: ignore[no-untyped-def]
    for _ in range(3000):  # polls, not a time limit: a loaded machine may take long to rebuild
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(what)


def test_serve_reloads_pages_after_a_rebuild_and_shows_a_failed_one(tmp_path, capsys):
    with serving(tmp_path) as (base, corpus):
        page = _get(base + "law/89-b/")
        assert page.count('<script src="/__navlaw/live.js"></script></body>') == 1  # served with the live script
        built = (tmp_path / "build" / "site" / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
        assert "/__navlaw/live.js" not in built  # the built site itself is not changed
        assert "location.reload()" in _get(base + "__navlaw/live.js")
        status = json.loads(_get(base + "__navlaw/status"))
        assert status["generation"] == 1 and status["ok"] is True
        # an error in the law: the rebuild fails, the last good site stays, the page is told what was said
        good = break_manifest(corpus)
        failed = _until(lambda: not (s := json.loads(_get(base + "__navlaw/status")))["ok"] and s, "no failed rebuild")
        assert failed["generation"] >= 2
        assert "no-such-file.txt" in failed["message"], failed
        assert "eleven dollars and twenty-two cents" in _get(base + "law/89-b/")  # still the last good site
        # fixed and amended: a good rebuild, which the open pages reload
        (corpus / "manifest.toml").write_text(good, encoding="utf-8")
        amend(corpus)
        _until(lambda: "eleven dollars and thirty cents" in _get(base + "law/89-b/"), "no good rebuild")
        # the status is the finished build's: it follows the swap of the site by a moment
        fixed = _until(lambda: (s := json.loads(_get(base + "__navlaw/status")))["ok"] and s, "no good status")
        assert "pages rendered" in fixed["message"]
    err = capsys.readouterr().err
    assert "navlaw serve: rebuilt in" in err and "the open pages reload" in err
    assert "the rebuild failed (see above, and on the open pages)" in err


def test_an_open_page_reloads_itself_and_shows_a_failed_rebuild(tmp_path):
    """In a browser: the page open on § 89-b shows the amended rate without being reloaded by hand, and a
    failed rebuild is said on the page."""
    from .test_browser import CHROMIUM

    if CHROMIUM is None:
        import pytest
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with serving(tmp_path) as (base, corpus), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        page = browser.new_page()
        page.goto(base + "law/89-b/")
        good = break_manifest(corpus)
        page.wait_for_selector("#navlaw-build-failed", timeout=600_000)
        assert "The last rebuild failed" in page.inner_text("#navlaw-build-failed")
        assert "no-such-file.txt" in page.inner_text("#navlaw-build-failed")
        (corpus / "manifest.toml").write_text(good, encoding="utf-8")
        amend(corpus)
        page.wait_for_function("document.body.innerText.includes('eleven dollars and thirty cents')",
                               timeout=600_000, polling=200)
        assert page.locator("#navlaw-build-failed").count() == 0
        browser.close()


def test_between_rebuilds_garbage_is_collected_and_what_was_set_aside_is_not_kept_forever():
    """settle(): what survives is frozen (the next rebuild's full collections skip it), and a cycle that
    was frozen and has since become garbage is collected at the next settle, not kept."""
    import gc
    import weakref

    from navlaw.site.serve import settle

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the cyclic collector frees it
    gone = weakref.ref(a)
    try:
        settle()
        assert gc.get_freeze_count() > 0
        del a, b
        gc.collect()  # a collection between rebuilds does not reach frozen objects
        assert gone() is not None
        settle()
        assert gone() is None
    finally:
        gc.unfreeze()


def test_sigterm_stops_serve_as_ctrl_c_does_and_what_it_held_is_written(tmp_path):  # type: ignore[no-untyped-def]
    """`kill` (SIGTERM, a service manager's stop) ends `navlaw serve` normally, after the build in progress:
    exit 0, and what its rebuilds held in memory (the edited document's tree: compiler/sealed.py) is written,
    so the next process parses only what changed since."""
    import os
    import signal
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    log = tmp_path / "serve.log"
    args = ["--corpus", str(corpus), "--out", str(tmp_path / "build"), "--module", str(tmp_path / "fees")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    with open(log, "w") as said:
        proc = subprocess.Popen([sys.executable, "-m", "navlaw", "serve", *args, "--addr", "127.0.0.1:0",
                                 "--interval", "0.2"], stdout=said, stderr=subprocess.STDOUT, env=env)
    try:
        _until(lambda: "rebuilding when" in log.read_text(encoding="utf-8"), "serve never started")
        amend(corpus)  # a rebuild in the same process: the amended document's tree is held, not written
        _until(lambda: "rebuilt in" in log.read_text(encoding="utf-8"), "serve never rebuilt")
        documents = tmp_path / ".build-cache" / "document"
        assert len(list(documents.glob("*.sealed"))) == 4
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(600) == 0, log.read_text(encoding="utf-8")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert len(list(documents.glob("*.sealed"))) == 5  # written at the end
    law = corpus / CONSOLIDATED
    law.write_text(law.read_text(encoding="utf-8").replace("practical knowledge", "thorough knowledge", 1),
                   encoding="utf-8")
    fresh = subprocess.run([sys.executable, "-m", "navlaw", "build", *args], capture_output=True, text=True, env=env)
    assert fresh.returncode == 0, fresh.stderr
    assert "cache: 1 of 5 documents parsed, 4 reused" in fresh.stdout
