"""Scale: `navlaw build --no-site` (or, with --site, the whole build with the MkDocs site) on corpora
1x, 10x, 40x and 100x the real one (benchmarks/make_corpus.py), each in a fresh process; reports wall
time (median of R runs), peak memory (max RSS) and, with --site, the site's page count and HTML bytes,
and the ratios against the first size. Targets: without the site (issue 7) 100x in at most 150x the
time of 1x; with it (issue 18) 40x within 5x the time and 4.4x the HTML bytes of 10x, 100x within 12x
the time of 10x; peak memory under 2 GiB.

    python benchmarks/scale.py [--sizes 1 10 100] [--runs 3] [--site]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_corpus import make  # noqa: E402

CHILD = """
import resource, sys, time
from navlaw.cli import main
t = time.perf_counter()
code = main(sys.argv[1:])
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


def run(corpus: Path, work: Path, site: bool = False) -> tuple[float, int, int, int]:
    """Seconds, peak RSS (KiB), and (with the site) its pages and HTML bytes."""
    out = subprocess.run([sys.executable, "-c", CHILD, "build", *([] if site else ["--no-site"]), "--no-cache",
                          "--corpus", str(corpus), "--out", str(work / "build"), "--module", str(work / "module")],
                         capture_output=True, text=True, cwd=ROOT, check=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})  # incremental.py
    secs, rss_kb, code = out.stdout.split()[-3:]
    assert code == "0", out.stderr[-2000:]
    html = list((work / "build" / "site").rglob("*.html")) if site else []
    return float(secs), int(rss_kb), len(html), sum(p.stat().st_size for p in html)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--site", action="store_true", help="build the MkDocs site too; report its pages and HTML bytes")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            corpus = make(n, Path(tmp) / f"corpus-{n}")
            size = sum(p.stat().st_size for p in corpus.glob("*.txt"))
            results = [run(corpus, Path(tmp) / f"work-{n}", args.site) for _ in range(args.runs)]
            secs = statistics.median(r[0] for r in results)
            rss = max(r[1] for r in results) / 1024
            rows.append((n, size, secs, rss, results[-1][2], results[-1][3]))
    base = rows[0]
    print(f"{'N':>5} {'corpus':>10} {'build (median)':>15} {'x time':>7} {'peak RSS':>10}"
          + (f" {'pages':>6} {'HTML':>10} {'x HTML':>7}" if args.site else ""))
    for n, size, secs, rss, pages, html in rows:
        print(f"{n:>5} {size / 1e6:>8.1f} MB {secs:>13.2f} s {secs / base[2]:>6.1f}x {rss:>7.0f} MiB"
              + (f" {pages:>6} {html / 1e6:>7.1f} MB {html / max(base[5], 1):>6.1f}x" if args.site else ""))
    big = rows[-1]
    print(f"growth: {big[0] / base[0]:.0f}x corpus in {big[2] / base[2]:.1f}x the time"
          + (f" and {big[5] / max(base[5], 1):.1f}x the HTML" if args.site else "")
          + f" of {base[0]}x; peak {max(r[3] for r in rows):.0f} MiB (target < 2048 MiB)")


if __name__ == "__main__":
    main()
