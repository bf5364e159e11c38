"""Front-end speed: load + normalize + parse + build the whole corpus, against a single regex pass
over the same text measured in the same run. Prints medians and the ratio (target: <= 50x)."""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.frontend.corpus import compile_corpus  # noqa: E402
from compiler.frontend.normalize import normalize  # noqa: E402
from compiler.frontend.parse import parse_lines, parser  # noqa: E402

# One pass that touches every line the way a naive splitter would: each line and its leading label.
BASELINE = re.compile(r"(?m)^[ \t]*(\(\w+\)|\d+\.|§|ｧ)?[^\n]*")


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=str(ROOT / "corpus"))
    ap.add_argument("--repeat", type=int, default=31)
    args = ap.parse_args()
    corpus = Path(args.corpus)
    texts = [p.read_text(encoding="utf-8") for p in sorted(corpus.glob("*.txt"))]
    size = sum(len(t.encode()) for t in texts)
    parser()  # build the LALR tables once, as a long-running process would
    compile_corpus(corpus)

    regex = median_ms(lambda: [sum(1 for _ in BASELINE.finditer(t)) for t in texts], args.repeat)
    norm = median_ms(lambda: [normalize(t) for t in texts], args.repeat)
    normals = [normalize(t).text for t in texts]
    parse = median_ms(lambda: [parse_lines(t) for t in normals], args.repeat)
    full = median_ms(lambda: compile_corpus(corpus), args.repeat)
    print(f"corpus: {len(texts)} files, {size / 1024:.0f} KiB; median of {args.repeat} runs")
    print(f"  regex pass (baseline)          {regex:8.2f} ms")
    print(f"  normalize                      {norm:8.2f} ms")
    print(f"  parse (Lark LALR)              {parse:8.2f} ms")
    print(f"  front end (load..tree, all)    {full:8.2f} ms")
    print(f"  ratio front end / regex pass   {full / regex:8.1f}x   (target <= 50x)")


if __name__ == "__main__":
    main()
