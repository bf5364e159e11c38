"""Front-end speed: load + normalize + parse + build the whole corpus, against a single regex pass
over the same text measured in the same run. Prints medians and the ratio (target: <= 50x).

Survives a busy machine (benchmarks/measure.py): CPU time of this process (time.process_time), each
round runs the baseline and every stage side by side in a rotating order, and the ratio is the median
of the ratios within each round; the wall-clock figures are printed beside for reference."""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from navlaw.frontend.corpus import compile_corpus  # noqa: E402
from navlaw.frontend.normalize import normalize  # noqa: E402
from navlaw.frontend.parse import parse_lines, parser  # noqa: E402
from measure import MIN_RUNS, load, run_call  # noqa: E402

# One pass that touches every line the way a naive splitter would: each line and its leading label.
BASELINE = re.compile(r"(?m)^[ \t]*(\(\w+\)|\d+\.|§|ｧ)?[^\n]*")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=str(ROOT / "corpus"))
    ap.add_argument("--repeat", type=int, default=31, help=f"rounds (at least {MIN_RUNS})")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    texts = [p.read_text(encoding="utf-8") for p in sorted(corpus.glob("*.txt"))]
    size = sum(len(t.encode()) for t in texts)
    parser()  # build the LALR tables once, as a long-running process would
    compile_corpus(corpus)
    normals = [normalize(t).text for t in texts]

    stages = {
        "regex": lambda: [sum(1 for _ in BASELINE.finditer(t)) for t in texts],
        "normalize": lambda: [normalize(t) for t in texts],
        "parse": lambda: [parse_lines(t) for t in normals],
        "full": lambda: compile_corpus(corpus),
    }
    names = list(stages)
    samples: dict[str, list] = {n: [] for n in names}
    for i in range(max(args.repeat, MIN_RUNS)):
        order = names[i % len(names):] + names[:i % len(names)]  # who runs first rotates
        for n in order:
            samples[n].append(run_call(stages[n]))

    def med(n: str, what: str) -> float:
        return statistics.median(getattr(s, what) for s in samples[n]) * 1000

    def ratio(n: str, what: str = "cpu") -> float:
        return statistics.median(getattr(s, what) / max(getattr(b, what), 1e-9)
                                 for s, b in zip(samples[n], samples["regex"]))

    rounds = len(samples["regex"])
    print(f"corpus: {len(texts)} files, {size / 1024:.0f} KiB; medians of {rounds} rounds, each running "
          f"the regex pass and every stage side by side; {load()}")
    print(f"  {'':32} {'CPU ms':>9} {'wall ms':>9} {'x regex (CPU)':>14}")
    for n, label in (("regex", "regex pass (baseline)"), ("normalize", "normalize"),
                     ("parse", "parse (Lark LALR)"), ("full", "front end (load..tree, all)")):
        print(f"  {label:32} {med(n, 'cpu'):9.2f} {med(n, 'wall'):9.2f} {ratio(n):13.1f}x")
    r = ratio("full")
    print(f"  ratio front end / regex pass   {r:8.1f}x CPU ({ratio('full', 'wall'):.1f}x wall)   "
          f"(target <= 50x: {'met' if r <= 50 else 'NOT met'})")


if __name__ == "__main__":
    main()
