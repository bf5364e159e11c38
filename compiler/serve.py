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
    def log_message(self, format: str, *args: Any) -> None:  # one line per request drowns the build's
        pass


def parse_addr(addr: str) -> tuple[str, int]:
    """"127.0.0.1:8000" -> ("127.0.0.1", 8000); ValueError with a readable message otherwise."""
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--addr {addr!r}: expected HOST:PORT, e.g. 127.0.0.1:8000")
    return host or "127.0.0.1", int(port)


def serve(build: Callable[[], int], corpus: Path, site: Path, addr: tuple[str, int], interval: float = 1.0,
          say: Callable[[str], None] = print, stop: threading.Event | None = None,
          ready: Callable[[str], None] | None = None) -> int:
    """Run ``build`` now and after every change of ``corpus``; serve ``site`` until ``stop`` is set (or
    Ctrl-C). ``ready`` gets the server's URL once it listens."""
    build()
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
            code = build()
            say(f"navlaw serve: rebuilt in {time.perf_counter() - t:.2f} s" if code == 0 else
                "navlaw serve: the rebuild failed (see above); still serving the last good site")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0
