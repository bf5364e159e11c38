"""Incremental build time: `navlaw build` (with the site) after a one-section amendment, against a full
build of the same corpus without the cache and a rebuild with nothing changed, all measured in this run.
Two amendments, each on its own: the small file (the 2027 rate of § 89-b(4)(b)(1) in 089-b.2022.txt)
and one word of one section of the large consolidated document (§ 12: "practical knowledge" ->
"thorough knowledge"; at --scale N only the first of the N copies of that section changes).

    python benchmarks/incremental.py [RUNS] [--scale N] [--site]

With --scale N the corpus is benchmarks/make_corpus.py's N-times corpus and the builds skip the site
(`--no-site`) unless --site is given. Targets: issue 18, the small file inside `navlaw serve` <= 20% of
a full build at 1x and <= 10% at 10x (--site), a fresh process <= 40% at 1x; issue 32, the section of
the large file <= 25% of a full build in a fresh process at 1x and <= 10% inside `serve` at 10x.

Survives a busy machine (benchmarks/measure.py): every round runs a full build and the amendments side
by side, each ratio is the median of the ratios within a round, and CPU time is printed beside the
wall clock (for fresh processes, the CPU time of the build and every process it started)."""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import MIN_RUNS, Sample, load, run_call, run_command, user_env  # noqa: E402

SMALL = ("089-b.2022.txt", "shall pay eleven dollars\\nand twenty-two cents", "shall pay eleven dollars\\nand {} cents",
         ("thirty", "forty", "fifty", "sixty"))
LARGE = ("nav-law.consolidated.txt", "who shall have a practical knowledge of the construction",
         "who shall have a {} knowledge of the construction", ("thorough", "sound", "working", "broad"))
ENV = user_env()


def navlaw(*args: str) -> Sample:
    return run_command([sys.executable, "-m", "navlaw", "build", *args], env=ENV, cwd=str(ROOT))


def in_process(*args: str) -> Sample:
    """One build in this process, timed; then, untimed, what `navlaw serve` does while it waits for the
    next change (compiler/site/serve.py: settle, the garbage collector's pass)."""
    from navlaw.cli import main as navlaw_main
    from navlaw.site.serve import settle

    def one() -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert navlaw_main(["build", *args]) == 0
    took = run_call(one)
    settle()
    return took


def edit(path: Path, original: str, old: str, new: str, copies: int) -> None:
    assert original.count(old) == copies, (path, original.count(old), copies)
    path.write_text(original.replace(old, new, 1), encoding="utf-8")


def target(label: str, scale: int, site: bool) -> float:
    """The issue's target for a row (a fraction of the full build of the same round), 0 if none: issue 18 for
    the small file, issue 32 for one section of the large file (at 10x: inside `navlaw serve`, which builds the
    site)."""
    fresh, small = label.startswith("fresh"), label.split(": ")[1] == "small file"
    if "full build" in label or "nothing changed" in label:
        return 0.0
    if scale == 1:
        return (0.40 if fresh else 0.20) if small else (0.25 if fresh else 0.0)
    return 0.10 if scale >= 10 and site and not fresh else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=5, help=f"rounds (at least {MIN_RUNS})")
    ap.add_argument("--scale", type=int, default=1, metavar="N")
    ap.add_argument("--site", action="store_true", help="with --scale: build the site too")
    ap.add_argument("--no-fresh", action="store_true", help="only the builds in one process")
    ap.add_argument("--dir", default=str(ROOT / "build"), metavar="DIR",
                    help="where the corpus and the builds go (default: the repository's build/, where users build; "
                         "on this machine a directory in /tmp takes about 0.5 ms to create, one in the work tree "
                         "0.05–0.2 ms, and an incremental site build creates one per page)")
    args = ap.parse_args()
    runs = max(args.runs, MIN_RUNS)
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, list[Sample], list[Sample]]] = []  # name, samples, the full builds of the same rounds
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".bench-") as tmp:
        corpus = Path(tmp) / "corpus"
        if args.scale > 1:
            from make_corpus import make
            make(args.scale, corpus)
        else:
            shutil.copytree(ROOT / "corpus", corpus)
        originals = {f: (corpus / f).read_text(encoding="utf-8") for f in (SMALL[0], LARGE[0])}
        copies = {SMALL[0]: 1, LARGE[0]: args.scale}
        common = ["--corpus", str(corpus), "--out", f"{tmp}/build", "--module", f"{tmp}/fees"]
        if args.scale > 1 and not args.site:
            common.append("--no-site")

        def restore() -> None:
            for f, text in originals.items():
                (corpus / f).write_text(text, encoding="utf-8")

        for way, build in ((("fresh", navlaw),) if not args.no_fresh else ()) + (("in process", in_process),):
            full: list[Sample] = []
            got: dict[str, list[Sample]] = {}
            for _ in range(runs):
                restore()
                full.append(build(*common, "--no-cache"))  # no cache read or written
                for label, (name, old, new, words) in (("small file", SMALL), ("one section of the large file", LARGE)):
                    restore()
                    build(*common)  # the cache now holds the corpus before the amendment
                    edit(corpus / name, originals[name], old, new.format(words[0]), copies[name])
                    got.setdefault(f"{label}: first amendment", []).append(build(*common))
                    if way == "in process":  # edit after edit, as someone keeps `navlaw serve` open
                        for w in words[1:]:
                            edit(corpus / name, originals[name], old, new.format(w), copies[name])
                            got.setdefault(f"{label}: each further amendment", []).append(build(*common))
                got.setdefault("nothing changed", []).append(build(*common))
            rows.append((f"{way}: full build (--no-cache)", full, full))
            for label, samples in got.items():
                per_round = len(samples) // runs
                rows.append((f"{way}: {label}", samples, [f for f in full for _ in range(per_round)]))
    size = (f"{args.scale}x corpus, " + ("site included" if args.site else "no site")) if args.scale > 1 \
        else "the corpus, site included"
    print(f"{size}; medians of {runs} rounds in {args.dir}; {load()}")
    print(f"  {'':58} {'wall s':>7} {'CPU s':>7} {'of full (wall)':>15} {'(CPU)':>6}")
    for label, samples, full in rows:
        wall = statistics.median(s.wall for s in samples)
        cpu = statistics.median(s.cpu for s in samples)
        rw = statistics.median(s.wall / f.wall for s, f in zip(samples, full))
        rc = statistics.median(s.cpu / max(f.cpu, 1e-9) for s, f in zip(samples, full))
        goal = target(label, args.scale, args.site)
        verdict = f"  target <= {goal:.0%} (CPU): {'met' if rc <= goal else 'NOT met'}" if goal else ""
        print(f"  {label:58} {wall:7.2f} {cpu:7.2f} {rw:14.0%} {rc:6.0%}{verdict}")
    print("  targets: small file <= 40% fresh at 1x, <= 20% in process at 1x, <= 10% at 10x; one section of the "
          "large file <= 25% fresh at 1x, <= 10% in process at 10x")


if __name__ == "__main__":
    main()
