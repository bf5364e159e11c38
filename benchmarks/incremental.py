"""Incremental build time: `navlaw build` (with the site) after a one-section amendment — the 2027 rate
of § 89-b(4)(b)(1) in file 001 changes — against a full build of the same corpus without the cache,
and a rebuild with nothing changed. Each build is a fresh process, as a user runs it; medians of R
runs, all measured in this run. Target: the amendment rebuild at most 20% of the full build.

    python benchmarks/incremental.py [RUNS] [--scale N]

With --scale N the corpus is benchmarks/make_corpus.py's N-times corpus and the builds skip the site
(`--no-site`): how the cache fares when the untouched documents are large."""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = "089-b.2022.txt"
OLD = "shall pay eleven dollars\\nand twenty-two cents"
NEW = "shall pay eleven dollars\\nand thirty cents"


def navlaw(*args: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "compiler", "build", *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=5)
    ap.add_argument("--scale", type=int, default=1, metavar="N")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
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
        if args.scale > 1:
            common.append("--no-site")
        full, amended, unchanged = [], [], []
        for _ in range(args.runs):
            law.write_text(original, encoding="utf-8")
            full.append(navlaw(*common, "--no-cache"))  # no cache read or written
            navlaw(*common)  # the cache now holds the corpus before the amendment
            law.write_text(original.replace(OLD, NEW), encoding="utf-8")
            amended.append(navlaw(*common))
            unchanged.append(navlaw(*common))
    f, a, u = (statistics.median(x) for x in (full, amended, unchanged))
    size = f"{args.scale}x corpus, no site" if args.scale > 1 else "the corpus, site included"
    print(f"median of {args.runs} runs, fresh processes, {size}")
    print(f"  full build (--no-cache)                  {f:6.2f} s")
    print(f"  after a one-section amendment (cached)   {a:6.2f} s  = {a / f:4.0%} of the full build (target <= 20%)")
    print(f"  nothing changed (cached)                 {u:6.2f} s  = {u / f:4.0%}")


if __name__ == "__main__":
    main()
