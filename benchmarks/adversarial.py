"""Adversarial input: a megabyte of each pathological shape (tests/test_hardening.py ADVERSARIAL)
through normalize -> parse -> tree -> tariffs -> lint, with the lossless checks. Prints the median of
R runs per shape against the 5-second target (issue 7)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_hardening import ADVERSARIAL, front_and_tariffs  # noqa: E402


def main(runs: int = 3) -> None:
    worst = 0.0
    for name, text in ADVERSARIAL.items():
        data = text.encode("utf-8")
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            front_and_tariffs(data)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        worst = max(worst, med)
        print(f"{name:20} {len(data) / 1e6:5.2f} MB  {med:6.2f} s  {'ok' if med < 5 else 'OVER 5 s'}")
    print(f"worst: {worst:.2f} s (target < 5 s per MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
