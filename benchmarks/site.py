"""Site build time: `navlaw build` with the site and with --no-site, each in a fresh process, median of
R runs; the MkDocs share is the difference over the full build."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "navlaw", *args], cwd=ROOT, check=True, capture_output=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})  # see incremental.py
    return time.perf_counter() - t


def main(runs: int = 5) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        common = ["build", "--no-cache", "--out", f"{tmp}/build", "--module", f"{tmp}/module"]
        full = statistics.median(timed(common) for _ in range(runs))
        bare = statistics.median(timed(common + ["--no-site"]) for _ in range(runs))
    print(f"navlaw build (with site)   {full:6.2f} s  (median of {runs}, fresh processes)")
    print(f"navlaw build --no-site     {bare:6.2f} s")
    print(f"site share (page generation + mkdocs build --strict)  {full - bare:6.2f} s = {(full - bare) / full:.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
