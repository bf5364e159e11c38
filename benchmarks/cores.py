"""The site on every core: a full build with the site (`navlaw build --no-cache`, fresh process) against
the same build with NAVLAW_JOBS=1, in interleaved pairs, medians of the ratio per pair; elapsed time is
what the cores save, CPU time (the build's and its workers') what they cost.
Target (issue 32): at 10x and 100x, elapsed <= 0.65x the one-process build.

    python benchmarks/cores.py [RUNS] [--scale N]

On a machine whose cores are busy with other work the elapsed ratio shows what share of the cores
this build could get, not what it would get on an idle machine: the load average is printed with it."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import MIN_RUNS, interleaved, load, run_command, user_env  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=5, help=f"pairs (at least {MIN_RUNS})")
    ap.add_argument("--scale", type=int, default=10, metavar="N")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="navlaw-cores-") as tmp:
        corpus = Path(tmp) / "corpus"
        if args.scale > 1:
            from make_corpus import make
            make(args.scale, corpus)
        else:
            shutil.copytree(ROOT / "corpus", corpus)

        def build(jobs: str):  # type: ignore[no-untyped-def]
            env = user_env(**({"NAVLAW_JOBS": jobs} if jobs else {}))
            env.pop("NAVLAW_JOBS", None) if not jobs else None
            return lambda: run_command([sys.executable, "-m", "compiler", "build", "--no-cache", "--corpus", str(corpus),
                                        "--out", f"{tmp}/build", "--module", f"{tmp}/fees"], env=env, cwd=str(ROOT))
        pairs = interleaved(build(""), build("1"), args.runs)
    r = pairs.ratio("wall")
    print(f"{args.scale}x corpus, full build with the site, fresh processes; {load()}")
    print("  " + pairs.line("every core", "NAVLAW_JOBS=1", "wall"))
    print("  " + pairs.line("every core", "NAVLAW_JOBS=1", "cpu"))
    print(f"  elapsed ratio {r:.2f} (target <= 0.65: {'met' if r <= 0.65 else 'NOT met'})")


if __name__ == "__main__":
    main()
