"""CPU of MkDocs' page loops on every core (compiler/site/mkdocs_parallel.py) against the same build in one
process, user and system time apart (issue 32): a full build with the site (`navlaw build --no-cache`, fresh
process) with NAVLAW_JOBS unset and with NAVLAW_JOBS=1, in interleaved pairs (at least 5, each in turn the other way round); medians.

    python benchmarks/site_rounds.py [RUNS] [--scale N]

Per part, the build process's CPU and its workers' together: the conversion round (``on_env``), what MkDocs
does between the rounds (the copy of the static files: the data files held in memory, which the rendering
round's workers write a share each when the pages go to workers, the theme's files; the theme's templates),
and the rendering round (``on_post_build``). Counts, not a target: nothing is asserted. On this machine the
system time of creating thousands of files depends on what else writes to its disk: compare figures of one
sitting only."""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import MIN_RUNS, load, user_env  # noqa: E402

CHILD = """
import functools, json, os, sys
from navlaw.site import mkdocs_parallel as mp
from navlaw.cli import main
R, MARK = {}, []
def cpu():
    t = os.times()
    return (t.user + t.children_user, t.system + t.children_system)
def timed(attr, label):
    fn = getattr(mp.Parallel, attr)
    @functools.wraps(fn)
    def w(*a, **k):
        t = cpu()
        if label == "rendering" and MARK:
            R["between"] = [b - a for a, b in zip(MARK.pop(), t)]
        try:
            return fn(*a, **k)
        finally:
            u = cpu()
            R[label] = [b - a for a, b in zip(t, u)]
            MARK.append(u)
    setattr(mp.Parallel, attr, w)
timed("on_env", "conversion")
timed("on_post_build", "rendering")
code = main(sys.argv[1:])
print("navlaw-rounds", json.dumps(R), code)
"""
PARTS = ("conversion", "between", "rendering")


def run(corpus: Path, tmp: str, jobs: str | None) -> dict[str, list[float]]:
    env = user_env(**({"NAVLAW_JOBS": jobs} if jobs else {}))
    if not jobs:
        env.pop("NAVLAW_JOBS", None)
    done = subprocess.run([sys.executable, "-c", CHILD, "build", "--no-cache", "--corpus", str(corpus), "--out",
                           f"{tmp}/build", "--module", f"{tmp}/fees"], env=env, cwd=ROOT, capture_output=True, text=True)
    line = [x for x in done.stdout.splitlines() if x.startswith("navlaw-rounds ")]
    if done.returncode != 0 or not line or not line[0].endswith(" 0"):
        sys.exit(f"build failed:\n{done.stderr[-2000:]}")
    shutil.rmtree(f"{tmp}/build", ignore_errors=True)
    return json.loads(line[0].split(" ", 1)[1].rsplit(" ", 1)[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", type=int, nargs="?", default=5, help=f"pairs (at least {MIN_RUNS})")
    ap.add_argument("--scale", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="navlaw-rounds-") as tmp:
        from make_corpus import make

        corpus = make(a.scale, Path(tmp) / "corpus")
        got: dict[str, list[dict[str, list[float]]]] = {"every core": [], "NAVLAW_JOBS=1": []}
        runs = max(a.runs, MIN_RUNS)
        for i in range(runs):  # each pair in turn the other way round, as benchmarks/cores.py
            for jobs in ((None, "1") if i % 2 == 0 else ("1", None)):
                got["NAVLAW_JOBS=1" if jobs else "every core"].append(run(corpus, tmp, jobs))
    print(f"{a.scale}x corpus, full build with the site, fresh processes, medians of {runs} interleaved pairs; {load()}")
    print(f"  {'CPU s (user + system)':22s}" + "".join(f"{p:>22s}" for p in PARTS) + f"{'total':>22s}")
    for name, runs in got.items():
        cells = []
        for part in (*PARTS, "total"):
            pick = (lambda r, i: sum(r[p][i] for p in PARTS)) if part == "total" else (lambda r, i, p=part: r[p][i])
            user, system = (statistics.median(pick(r, i) for r in runs) for i in (0, 1))
            cells.append(f"{user + system:6.2f} ({user:5.2f} + {system:4.2f})")
        print(f"  {name:22s}" + "".join(f"{c:>22s}" for c in cells))


if __name__ == "__main__":
    main()
