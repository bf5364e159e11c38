"""Where one full build's time goes, stage by stage: for a build with the site (`navlaw build --no-cache`,
run in this process, replacing the OUT a first, untimed build wrote, as cores.py's builds do), each
stage's start, elapsed time, CPU time of the build process (its threads included) and CPU time of the
processes it forked and waited for, nested as the stages call each other.

    python benchmarks/phases.py [--scale N] [--jobs J] [--out DIR]

A map of where to look, not a figure of merit: one build, timed by the wall clock (cores.py gives the
ratios, in interleaved pairs). What the build process does while it waits for its workers shows as its
CPU inside a stage whose workers' CPU is larger. ``--out`` on a memory file system (/dev/shm) shows the
disk's share of a build: at 10x on the machine of 2026-12-03 (ext4 mounted with ``discard``), system time
was about half of a build's CPU, and the same builds into /dev/shm took half the time."""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

# (module, function or Class.method): the stages timed, outermost first
STAGES = (
    ("navlaw.build", "frontend"), ("navlaw.build", "law"), ("navlaw.build", "tariffs"),
    ("navlaw.build", "fee_module"), ("navlaw.build", "outputs"), ("navlaw.build", "site_pages"),
    ("navlaw.build", "publish_all"), ("navlaw.site.mkdocs_build", "build_site"),
    ("mkdocs.commands.build", "build"),
    ("navlaw.site.mkdocs_parallel", "Parallel.on_env"), ("navlaw.site.mkdocs_parallel", "Parallel.on_post_build"),
    ("navlaw.site.search_index", "split_documents"), ("navlaw.site.search_index", "term_counts"),
    ("navlaw.site.search_index", "_write_dirs"),
    ("navlaw.publish", "_chmod_tree"), ("navlaw.publish", "_swap"), ("navlaw.publish", "remove_tree"),
)

Row = tuple[float, int, str, float, float, float]  # start, depth, stage, elapsed, own CPU, workers' CPU


def _now() -> tuple[float, float, float]:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter(), own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def timed(rows: list[Row], t0: float) -> None:
    """Wrap each of STAGES so that its calls in this process append a row (a worker's calls are not)."""
    pid, depth = os.getpid(), [0]
    for module, name in STAGES:
        owner: Any = importlib.import_module(module)
        *path, attr = name.split(".")
        for part in path:
            owner = getattr(owner, part)
        real: Callable[..., Any] = getattr(owner, attr)  # AttributeError: a stage renamed, say so here

        def wrapper(*args: Any, _real: Callable[..., Any] = real, _name: str = name, **kwargs: Any) -> Any:
            if os.getpid() != pid:
                return _real(*args, **kwargs)
            before = _now()
            depth[0] += 1
            try:
                return _real(*args, **kwargs)
            finally:
                depth[0] -= 1
                after = _now()
                rows.append((before[0] - t0, depth[0], _name, after[0] - before[0], after[1] - before[1],
                             after[2] - before[2]))
        setattr(owner, attr, functools.wraps(real)(wrapper))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=10, metavar="N")
    ap.add_argument("--jobs", default="0", metavar="J", help="NAVLAW_JOBS for the build (0: every core)")
    ap.add_argument("--out", metavar="DIR", help="where the builds write (default: a temporary directory)")
    args = ap.parse_args()
    from make_corpus import make
    from measure import load

    os.environ["NAVLAW_JOBS"] = args.jobs
    from navlaw.cli import main as navlaw

    with tempfile.TemporaryDirectory(prefix="navlaw-phases-") as tmp:
        corpus = make(args.scale, Path(tmp) / "corpus")
        out = Path(args.out) if args.out else Path(tmp)
        command = ["build", "--no-cache", "--corpus", str(corpus), "--out", str(out / "build"),
                   "--module", str(out / "fees")]
        if navlaw(command) != 0:  # the OUT the timed build replaces
            raise SystemExit("the first build failed")
        rows: list[Row] = []
        start = _now()
        timed(rows, start[0])
        code = navlaw(command)
        end = _now()
        if args.out:
            shutil.rmtree(out / "build", ignore_errors=True)
            shutil.rmtree(out / "fees", ignore_errors=True)
    if code != 0:
        raise SystemExit("the timed build failed")
    print(f"{args.scale}x corpus, NAVLAW_JOBS={args.jobs}, one full build with the site; {load()}")
    print(f"  {'start':>7}  {'stage':48} {'elapsed':>8} {'CPU: build':>11} {'workers':>8}")
    for at, depth, name, wall, own, kids in sorted(rows):
        print(f"  {at:6.2f}s  {'  ' * depth + name:48} {wall:7.2f}s {own:10.2f}s {kids:7.2f}s")
    print(f"  {'':7}  {'the whole build':48} {end[0] - start[0]:7.2f}s {end[1] - start[1]:10.2f}s "
          f"{end[2] - start[2]:7.2f}s")


if __name__ == "__main__":
    main()
