"""`navlaw serve`: build, serve the site over HTTP, and rebuild whenever a file of the corpus changes —
the preview legal staff keep open while they edit an amendment.

Each rebuild is `navlaw build` with its cache (compiler/cache.py): only the changed documents are read
again and only the pages whose Markdown changed are rendered, and the new output is swapped in whole,
so the server never shows a half-written site. A rebuild that fails (an error in the text) prints its
diagnostics and leaves the last good site served.
"""

from __future__ import annotations

import functools
import stat
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


class _Quiet(SimpleHTTPRequestHandler):
    """Serves the built site's files and nothing else: no directory listings, a malformed path is 400,
    and a connection idle for 30 s is closed (so idle clients cannot hold the server's threads)."""

    timeout = 30

    def log_message(self, format: str, *args: Any) -> None:  # one line per request drowns the build's
        pass

    def send_head(self) -> Any:
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        if "\x00" in path or not path.startswith("/") or any(ord(c) < 32 for c in path):
            self.send_error(400, "Bad request: malformed path")
            return None
        return super().send_head()

    def list_directory(self, path: Any) -> None:
        self.send_error(404, "Not found")
        return None


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


def serve(build: Callable[[], int], corpus: Path, site: Path, addr: tuple[str, int], interval: float = 1.0,
          say: Callable[[str], None] = print, stop: threading.Event | None = None,
          ready: Callable[[str], None] | None = None) -> int:
    """Run ``build`` now and after every change of ``corpus``; serve ``site`` until ``stop`` is set (or
    Ctrl-C). ``ready`` gets the server's URL once it listens. A build that fails in any way — an error
    in the law text, a broken manifest, an exception — is reported and the last good site stays up."""
    guarded(build, say)
    try:
        server = ThreadingHTTPServer(addr, functools.partial(_Quiet, directory=str(site.resolve())))
    except OSError as exc:
        say(f"navlaw serve: cannot listen on {addr[0]}:{addr[1]}: {exc.strerror or exc}")
        return 1
    url = f"http://{addr[0]}:{server.server_port}/"
    threading.Thread(target=server.serve_forever, name="navlaw-serve", daemon=True).start()
    say(f"navlaw serve: {url} — rebuilding when {corpus}/ changes (Ctrl-C stops)")
    if ready is not None:
        ready(url)
    stop = stop or threading.Event()
    try:
        seen = signature(corpus)
        while not stop.wait(interval):
            now = signature(corpus)
            if now == seen:
                continue
            seen = now
            t = time.perf_counter()
            code = guarded(build, say)
            say(f"navlaw serve: rebuilt in {time.perf_counter() - t:.2f} s" if code == 0 else
                "navlaw serve: the rebuild failed (see above); still serving the last good site")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
