"""Scale: `navlaw build --no-site` on corpora 1x, 10x and 100x the real one (benchmarks/make_corpus.py),
each in a fresh process; reports wall time (median of R runs) and peak memory (max RSS), and the
ratios against 1x. Targets (issue 7): 100x in at most 150x the time of 1x; peak memory under 2 GiB.

    python benchmarks/scale.py [--sizes 1 10 100] [--runs 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_corpus import make  # noqa: E402

CHILD = """
import resource, sys, time
from compiler.cli import main
t = time.perf_counter()
code = main(sys.argv[1:])
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


def run(corpus: Path, work: Path) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", CHILD, "build", "--no-site", "--no-cache", "--corpus", str(corpus),
                          "--out", str(work / "build"), "--module", str(work / "module")],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    secs, rss_kb, code = out.stdout.split()[-3:]
    assert code == "0", out.stderr[-2000:]
    return float(secs), int(rss_kb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            corpus = make(n, Path(tmp) / f"corpus-{n}")
            size = sum(p.stat().st_size for p in corpus.glob("*.txt"))
            results = [run(corpus, Path(tmp) / f"work-{n}") for _ in range(args.runs)]
            secs = statistics.median(r[0] for r in results)
            rss = max(r[1] for r in results) / 1024
            rows.append((n, size, secs, rss))
    base = rows[0][2]
    print(f"{'N':>5} {'corpus':>10} {'build (median)':>15} {'x of 1x':>8} {'peak RSS':>10}")
    for n, size, secs, rss in rows:
        print(f"{n:>5} {size / 1e6:>8.1f} MB {secs:>13.2f} s {secs / base:>7.1f}x {rss:>7.0f} MiB")
    big = rows[-1]
    print(f"growth: {big[0]}x corpus in {big[2] / base:.1f}x the time (target <= {1.5 * big[0]:.0f}x); "
          f"peak {big[3]:.0f} MiB (target < 2048 MiB)")


if __name__ == "__main__":
    main()
