"""`navlaw serve`: build, serve the site over HTTP, and rebuild whenever a file of the corpus changes —
the preview legal staff keep open while they edit an amendment.

Each rebuild is `navlaw build` with its cache (compiler/cache.py): only the changed documents are read
again and only the pages whose Markdown changed are rendered, and the new output is swapped in whole,
so the server never shows a half-written site. A rebuild that fails (an error in the text) prints its
diagnostics and leaves the last good site served.

Live preview: every HTML page the server sends carries a small script (served at ``/__navlaw/live.js``;
the built files are not changed) that asks ``/__navlaw/status`` once a second which build the site is
at. After a good rebuild the page reloads itself; after a failed one it shows, on the page, what the
build said (as text), until a good rebuild replaces it.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import json
import signal
import stat
import sys
import threading
import time
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

Signature = tuple[tuple[str, int, int], ...]


def signature(root: Path) -> Signature:
    """Each file's path, size and modification time: cheap enough to take every second."""
    out = []
    for p in root.rglob("*"):
        try:
            st = p.stat()
        except OSError:  # removed while we looked
            continue
        if stat.S_ISREG(st.st_mode):  # from the one stat: this runs every second
            out.append((p.relative_to(root).as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


class Status:
    """Which build the served site is at, whether it succeeded, and what it said (for the live page)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.generation, self.ok, self.message, self.took = 0, True, "", 0.0

    def done(self, ok: bool, message: str, took: float) -> None:
        with self.lock:
            self.generation += 1
            self.ok, self.message, self.took = ok, message, took

    def json(self) -> bytes:
        with self.lock:
            return json.dumps({"generation": self.generation, "ok": self.ok, "message": self.message,
                               "took": round(self.took, 2)}).encode()


LIVE_JS = b"""// navlaw serve: reload after a good rebuild; after a failed one, say what the build said.
(function () {
  var seen = null, box = null;
  function show(text) {
    if (!box) {
      box = document.createElement("pre");
      box.id = "navlaw-build-failed";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:45vh;overflow:auto;margin:0;" +
        "padding:1em;background:#b71c1c;color:#fff;font:12px/1.4 monospace;z-index:1000;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "The last rebuild failed; this is the last good site.\\n\\n" + text;
  }
  function poll() {
    fetch("/__navlaw/status", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (seen === null) seen = s.generation;
      if (!s.ok) show(s.message);
      else if (s.generation !== seen) location.reload();
    }).catch(function () {}).then(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
"""
_TAG = b'<script src="/__navlaw/live.js"></script>'


class _Quiet(SimpleHTTPRequestHandler):
    """Serves the built site's files and nothing else: no directory listings, a malformed path is 400,
    and a connection idle for 30 s is closed (so idle clients cannot hold the server's threads). HTML
    pages get the live-preview script; ``/__navlaw/`` answers the script."""

    timeout = 30
    status: Status | None = None

    def _send(self, body: bytes, kind: str, code: int = 200) -> io.BytesIO:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: Any) -> None:  # one line per request drowns the build's
        pass

    def send_head(self) -> Any:
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        if "\x00" in path or not path.startswith("/") or any(ord(c) < 32 for c in path):
            self.send_error(400, "Bad request: malformed path")
            return None
        if path == "/__navlaw/live.js":
            return self._send(LIVE_JS, "text/javascript; charset=utf-8")
        if path == "/__navlaw/status" and self.status is not None:
            return self._send(self.status.json(), "application/json")
        page = self._page(path)
        if page is None or self.status is None:
            return super().send_head()
        body = page.read_bytes()  # the page as built, with the live script before </body>
        body = body.replace(b"</body>", _TAG + b"</body>", 1) if b"</body>" in body else body + _TAG
        return self._send(body, "text/html; charset=utf-8")

    def _page(self, path: str) -> Path | None:
        """The HTML file a request names (a directory's index.html), or None: anything else, and a
        directory asked for without its "/" (the base class redirects it), are the base class's."""
        target = Path(self.translate_path(path))
        if target.is_dir():
            if not path.endswith("/"):
                return None
            target = target / "index.html"
        return target if target.suffix == ".html" and target.is_file() else None

    def list_directory(self, path: Any) -> None:
        self.send_error(404, "Not found")
        return None


_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class _Server(ThreadingHTTPServer):
    """The HTTP server, quiet about clients that go away: a browser that abandons a request (a reload,
    a closed tab) is no error of the site's, and is not printed at all; anything else a request meets
    is one line on the terminal itself, never a traceback, and never in what a build said (the build's
    output is captured for the live page while the server's threads run)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, _GONE):
            return
        stream = sys.__stderr__
        if stream is not None:
            print(f"navlaw serve: a request from {client_address[0] if client_address else '?'} failed: "
                  f"{type(exc).__name__}: {exc}", file=stream)


def parse_addr(addr: str) -> tuple[str, int]:
    """"127.0.0.1:8000" -> ("127.0.0.1", 8000); ValueError with a readable message otherwise."""
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--addr {addr!r}: expected HOST:PORT, e.g. 127.0.0.1:8000")
    return host or "127.0.0.1", int(port)


def guarded(build: Callable[[], int], say: Callable[[str], None]) -> int:
    """``build()``, with any exception it raises reported as one failed build instead of ending serve."""
    try:
        return build()
    except Exception as exc:  # the server must outlive whatever a rebuild meets
        say(f"navlaw serve: the build failed: {type(exc).__name__}: {exc}")
        return 1


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy: what a rebuild said, for the live page."""

    def __init__(self, to: Any, copy: io.StringIO) -> None:
        self.to, self.copy = to, copy

    def write(self, text: str) -> int:
        self.copy.write(text)
        return int(self.to.write(text))

    def flush(self) -> None:
        self.to.flush()


def _run(build: Callable[[], int], say: Callable[[str], None]) -> tuple[bool, str, float]:
    """One build: whether it succeeded, what it printed, and how long it took."""
    said = io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(_Tee(sys.stdout, said)), contextlib.redirect_stderr(_Tee(sys.stderr, said)):
        code = guarded(build, say)
    return code == 0, said.getvalue(), time.perf_counter() - t


def settle() -> None:
    """Between two rebuilds, while no one waits for one: collect the last build's garbage, then set what
    survives (the modules, the theme's file list, the finders' memos) aside where the collector's full
    passes during the next rebuild do not walk it again (``gc.freeze``). Each time, what was set aside
    is first put back (``gc.unfreeze``) and collected with the rest, so nothing that has since become
    garbage is kept. At 10 times the corpus this takes 0.04–0.12 s off each rebuild: its full passes
    walked every object of the process, one to two times a rebuild."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def serve(build: Callable[[], int], corpus: Path, site: Path, addr: tuple[str, int], interval: float = 1.0,
          say: Callable[[str], None] = print, stop: threading.Event | None = None,
          ready: Callable[[str], None] | None = None) -> int:
    """Run ``build`` now and after every change of ``corpus``; serve ``site`` until ``stop`` is set (or
    Ctrl-C). ``ready`` gets the server's URL once it listens. A build that fails in any way — an error
    in the law text, a broken manifest, an exception — is reported and the last good site stays up."""
    if not corpus.is_dir():
        say(f"navlaw serve: {corpus}: no such corpus directory; run from the repository root or pass --corpus DIR")
        return 1
    status = Status()
    handler = type("_Live", (_Quiet,), {"status": status})
    try:  # the address first: a port already taken is said before a whole build, not after it
        server = _Server(addr, functools.partial(handler, directory=str(site.resolve())))
    except OSError as exc:
        say(f"navlaw serve: cannot listen on {addr[0]}:{addr[1]}: {exc.strerror or exc}")
        return 1
    url = f"http://{addr[0]}:{server.server_port}/"
    # served from now on (the last build's site, if there is one), while the first build runs
    threading.Thread(target=server.serve_forever, name="navlaw-serve", daemon=True).start()
    stop = stop or threading.Event()
    stopped = _stop_on_sigterm(stop)
    try:
        seen = signature(corpus)  # before the build: a save while it runs is a change, rebuilt after it
        status.done(*_run(build, say))
        settle()
        say(f"navlaw serve: {url} — rebuilding when {corpus}/ changes (Ctrl-C stops)")
        if ready is not None:
            ready(url)
        while not stop.wait(interval):
            now = signature(corpus)
            if now == seen:
                continue
            seen = now
            ok, said, took = _run(build, say)
            status.done(ok, said, took)
            say(f"navlaw serve: rebuilt in {took:.2f} s; the open pages reload" if ok else
                "navlaw serve: the rebuild failed (see above, and on the open pages); still serving the last good site")
            settle()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
        if stopped is not None:
            signal.signal(signal.SIGTERM, stopped)
    return 0


def _stop_on_sigterm(stop: threading.Event) -> Any:
    """SIGTERM (a service manager's or `kill`'s stop) ends serving as Ctrl-C does, after the build in progress,
    so the process ends normally and writes what its builds held for the next process (compiler/sealed.py);
    the handler it replaces is given back (None: not the main thread, where no handler can be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
