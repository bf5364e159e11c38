"""Where the CPU of the work given to another process goes (compiler/parallel.py's ``later``), on a full build
and on one-word edits of § 12 of the large document, in one process as `navlaw serve` builds (issue 32).

    python benchmarks/fork_cost.py [--scale N] [--edits K]

For each piece of work: in the forked child, its start, the work itself, the pickling of the result and
its sending (CPU and minor page faults, from getrusage, which a forked process starts at zero); in this
process, the fork, the receiving and the unpickling; for a piece made here, the work. Per build: this
process's CPU and minor faults and the children's CPU. Run it twice, once with NAVLAW_JOBS=1, to compare a
piece's work in a child (its copy-on-write faults) with the same work here, and this process's faults.
Counts, not a target: nothing is asserted."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pickle
import resource
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import navlaw.parallel as P  # noqa: E402
from make_corpus import make  # noqa: E402
from navlaw.cli import main as navlaw_main  # noqa: E402
from navlaw.site.serve import settle  # noqa: E402

OLD = "who shall have a practical knowledge of the construction"
WORDS = ("thorough", "sound", "broad", "working", "deep", "fine", "full", "solid")
SEEN: list[dict[str, Any]] = []


def usage() -> dict[str, float]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return {"cpu": r.ru_utime + r.ru_stime, "minflt": r.ru_minflt}


def since(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {k: round(b[k] - a[k], 3) for k in a}


def child(fn: Any, write: Any, cache: Any) -> None:
    """compiler/parallel.py's ``_child``, measured; what it measured goes back ahead of the result."""
    s0 = usage()
    before = cache.mark() if cache is not None else None
    s1 = usage()
    value = fn()
    s2 = usage()
    news = cache.news_since(before) if cache is not None and before is not None else None
    data = pickle.dumps((value, news), protocol=pickle.HIGHEST_PROTOCOL)
    s3 = usage()
    stats = {"start": s0, "work": since(s1, s2), "pickle": since(s2, s3), "bytes": len(data)}
    write.send_bytes(json.dumps(stats).encode() + b"\n" + data)
    write.close()


def start(self: Any) -> None:
    a = usage()
    REAL_START(self)
    self.fork_cost = since(a, usage())


def result(self: Any) -> Any:
    if self._done:
        return self._value
    a = usage()
    data = self._read.recv_bytes()
    self._read.close()
    self._process.join()
    b = usage()
    head, _, body = data.partition(b"\n")
    self._value, news = pickle.loads(body)
    c = usage()
    if self._cache is not None and news is not None:
        self._cache.take(news)
    self._done = True
    P.MADE.append((self.name, "forked"))
    SEEN.append({"name": self.name, "child": json.loads(head), "fork": self.fork_cost, "receive": since(a, b),
                 "unpickle": since(b, c)})
    return self._value


def made_here(self: Any) -> None:
    a = usage()
    REAL_HERE(self)
    SEEN.append({"name": self.name, "here": since(a, usage())})


REAL_START, REAL_HERE = P.Later._start, P.Later._made_here


def instrument() -> None:
    """compiler/parallel.py measured, from here on in this process (called by ``main``, never at import: the
    tests import every benchmark, and the patched ``later`` would stay in their process)."""
    P._child = child  # type: ignore[assignment]
    P.Later._start, P.Later.result, P.Later._made_here = start, result, made_here  # type: ignore[method-assign]


def main() -> None:
    instrument()
    p = argparse.ArgumentParser()
    p.add_argument("--scale", type=int, default=10)
    p.add_argument("--edits", type=int, default=4)
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="fork-cost-"))
    try:
        make(args.scale, work / "corpus")
        flags = ["--corpus", str(work / "corpus"), "--out", str(work / "out"), "--module", str(work / "fees")]
        path = work / "corpus" / "nav-law.consolidated.txt"
        text = path.read_text(encoding="utf-8")
        print(f"NAVLAW_JOBS={os.environ.get('NAVLAW_JOBS', '')!r}, {args.scale}x")
        for i in range(args.edits + 1):
            if i:
                path.write_text(text.replace(OLD, OLD.replace("practical", WORDS[(i - 1) % len(WORDS)]), 1),
                                encoding="utf-8")
            SEEN.clear()
            t, r = os.times(), usage()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                assert navlaw_main(["build", *flags]) == 0
            u, s = os.times(), usage()
            settle()
            print(f"{'full build' if not i else f'edit {i}'}: {u.user + u.system - t.user - t.system:.2f} s here "
                  f"({s['minflt'] - r['minflt']:.0f} minor faults) + "
                  f"{u.children_user + u.children_system - t.children_user - t.children_system:.2f} s children")
            for seen in SEEN:
                print("   ", json.dumps(seen))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
