"""Incremental build time: `navlaw build` (with the site) after a one-section amendment — the 2027 rate
of § 89-b(4)(b)(1) in file 001 changes — against a full build of the same corpus without the cache,
and a rebuild with nothing changed. Each build is a fresh process, as a user runs it; medians of R
runs, all measured in this run. Target: the amendment rebuild at most 20% of the full build.

    python benchmarks/incremental.py [RUNS] [--scale N]

With --scale N the corpus is benchmarks/make_corpus.py's N-times corpus and the builds skip the site
(`--no-site`) unless --site is given: how the cache fares when the untouched documents are large.
Targets (issue 18): inside `navlaw serve` <= 20% of a full build at 1x and <= 10% at 10x (--site);
a fresh process <= 40% at 1x. In one process, the first amendment after a full build also makes the
site the full build replaced mirror the current one (its pages are not yet links to the current
site's); each further amendment, edit after edit, is what `navlaw serve` does while someone works."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FILE = "089-b.2022.txt"
OLD = "shall pay eleven dollars\\nand twenty-two cents"
NEW = "shall pay eleven dollars\\nand thirty cents"
# A fresh process as a user's Python runs it: writing and reusing the bytecode of navlaw's modules. (The
# machine these figures come from sets PYTHONDONTWRITEBYTECODE=1, which makes every process compile
# navlaw's own modules from source again: 0.08 s of each build, full or not.)
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def navlaw(*args: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compiler", "build", *args], cwd=ROOT, check=True, capture_output=True,
                   env=USER_ENV)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=5)
    ap.add_argument("--scale", type=int, default=1, metavar="N")
    ap.add_argument("--site", action="store_true", help="with --scale: build the site too")
    ap.add_argument("--dir", default=str(ROOT / "build"), metavar="DIR",
                    help="where the corpus and the builds go (default: the repository's build/, where users build; "
                         "on this machine a directory in /tmp takes about 0.5 ms to create, one in the work tree "
                         "0.05–0.2 ms, and an incremental site build creates one per page)")
    args = ap.parse_args()
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        if args.scale > 1:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from make_corpus import make
            make(args.scale, corpus)
        else:
            shutil.copytree(ROOT / "corpus", corpus)
        law = corpus / FILE
        original = law.read_text(encoding="utf-8")
        assert original.count(OLD) == 1
        common = ["--corpus", str(corpus), "--out", f"{tmp}/build", "--module", f"{tmp}/fees"]
        if args.scale > 1 and not args.site:
            common.append("--no-site")
        full, amended, unchanged = [], [], []
        for _ in range(args.runs):
            law.write_text(original, encoding="utf-8")
            full.append(navlaw(*common, "--no-cache"))  # no cache read or written
            navlaw(*common)  # the cache now holds the corpus before the amendment
            law.write_text(original.replace(OLD, NEW), encoding="utf-8")
            amended.append(navlaw(*common))
            unchanged.append(navlaw(*common))
        # The same in one long-lived process, as `navlaw serve` rebuilds: no start-up, imports done.
        warm_full, warm_amended, warm_next = [], [], []
        for _ in range(args.runs):
            law.write_text(original, encoding="utf-8")
            warm_full.append(in_process(*common, "--no-cache"))
            in_process(*common)
            law.write_text(original.replace(OLD, NEW), encoding="utf-8")
            warm_amended.append(in_process(*common))
            # edit after edit, as someone keeps `navlaw serve` open: each further amendment of the rate
            for cents in ("forty", "fifty", "sixty"):
                law.write_text(original.replace(OLD, f"shall pay eleven dollars\\nand {cents} cents"), encoding="utf-8")
                warm_next.append(in_process(*common))
    f, a, u = (statistics.median(x) for x in (full, amended, unchanged))
    wf, wa, wn = statistics.median(warm_full), statistics.median(warm_amended), statistics.median(warm_next)
    size = (f"{args.scale}x corpus, " + ("site included" if args.site else "no site")) if args.scale > 1 \
        else "the corpus, site included"
    print(f"median of {args.runs} runs, {size}, in {args.dir}")
    print("fresh processes (navlaw build):")
    print(f"  full build (--no-cache)                  {f:6.2f} s")
    print(f"  after a one-section amendment (cached)   {a:6.2f} s  = {a / f:4.0%} of the full build (target <= 40% at 1x)")
    print(f"  nothing changed (cached)                 {u:6.2f} s  = {u / f:4.0%}")
    print("one long-lived process (as navlaw serve rebuilds):")
    print(f"  full build (--no-cache)                  {wf:6.2f} s")
    print(f"  after a one-section amendment (cached)   {wa:6.2f} s  = {wa / wf:4.0%} of the full build in this "
          f"process, {wa / f:4.0%} of a fresh full build")
    print(f"  each further amendment, edit after edit  {wn:6.2f} s  = {wn / wf:4.0%} of the full build in this "
          f"process (target <= 20% at 1x, <= 10% at 10x)")


def in_process(*args: str) -> float:
    """One build in this process, timed; then, untimed, what `navlaw serve` does while it waits for the
    next change (compiler/site/serve.py: settle, the garbage collector's pass)."""
    from compiler.cli import main as navlaw_main
    from compiler.site.serve import settle

    t = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert navlaw_main(["build", *args]) == 0
    took = time.perf_counter() - t
    settle()
    return took


if __name__ == "__main__":
    main()
