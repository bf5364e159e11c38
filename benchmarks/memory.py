"""Memory: peak RSS of `navlaw build --no-site --no-cache` (fresh process each) on corpora N times the real
one, as bytes of peak RSS per byte of corpus; the 1x build of the same run is the baseline (what the
interpreter and the libraries take whatever the corpus), and the growth past it per added corpus byte is
printed too. Target (issue 32): 500x in at most 1 GiB.

The copies of the consolidated text (benchmarks/make_corpus.py's renumbering) go into files of at most
PER_FILE copies each, every file with its own manifest entry, as a corpus of many laws would be: one file
of 500 copies (91 MB) is over the most navlaw reads from one file (64 MB).

    python benchmarks/memory.py [--sizes 1 10 100 500] [--per-file 50]

Peak RSS depends on the corpus, not on the load of the machine: one run per size.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_corpus import make, renumber  # noqa: E402
from measure import load, user_env  # noqa: E402

NAME = "nav-law.consolidated.txt"
GIB = 1 << 30
CHILD = """
import resource, sys
from navlaw.cli import main
code = main(sys.argv[1:])
print("navlaw-rss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


def make_split(n: int, out: Path, per_file: int, corpus: Path = ROOT / "corpus") -> Path:
    """``n`` renumbered copies of the consolidated text, ``per_file`` to a file: the first file is the
    corpus's own (its manifest entry as it is), each further one a copy of that entry without what is
    said of the first copy's provisions (lost labels, fragments)."""
    make(min(n, per_file), out, corpus)
    raw = (corpus / NAME).read_text(encoding="utf-8")
    manifest = (corpus / "manifest.toml").read_text(encoding="utf-8")
    entry = _entry_of(manifest, NAME)
    extra = []
    for first in range(per_file, n, per_file):
        name = f"nav-law.consolidated.{first // per_file}.txt"
        with open(out / name, "w", encoding="utf-8", newline="") as f:
            for k in range(first, min(n, first + per_file)):
                f.write(renumber(raw, k))
                if not raw.endswith("\n"):
                    f.write("\n")
        extra.append(entry.replace(f'file = "{NAME}"', f'file = "{name}"', 1))
    if extra:
        (out / "manifest.toml").write_text(manifest.rstrip("\n") + "\n\n" + "\n".join(extra), encoding="utf-8")
    return out


def _entry_of(manifest: str, name: str) -> str:
    """The [[document]] entry of ``name``: its own keys, up to its first sub-table or the next entry."""
    start = manifest.index(f'file = "{name}"')
    start = manifest.rindex("[[document]]", 0, start)
    end = re.compile(r"(?m)^\[").search(manifest, start + len("[[document]]"))
    return manifest[start:end.start() if end else len(manifest)].rstrip("\n") + "\n"


def peak_rss(corpus: Path, work: Path) -> int:
    """Peak RSS in bytes of a no-site, no-cache build in a fresh process."""
    done = subprocess.run([sys.executable, "-c", CHILD, "build", "--no-site", "--no-cache", "--corpus", str(corpus),
                           "--out", str(work / "build"), "--module", str(work / "module")],
                          capture_output=True, text=True, cwd=ROOT, env=user_env())
    line = [x for x in done.stdout.splitlines() if x.startswith("navlaw-rss ")]
    if done.returncode != 0 or not line or not line[-1].endswith(" 0"):
        raise SystemExit(f"build failed:\n{done.stderr[-2000:]}")
    return int(line[-1].split()[1]) * 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100, 500])
    ap.add_argument("--per-file", type=int, default=50)
    args = ap.parse_args()
    sizes = sorted(set(args.sizes) | {1})
    rows = []
    with tempfile.TemporaryDirectory(prefix="navlaw-memory-") as tmp:
        for n in sizes:
            corpus = make_split(n, Path(tmp) / f"corpus-{n}", args.per_file)
            size = sum(p.stat().st_size for p in corpus.iterdir() if p.name != "manifest.toml")
            rows.append((n, size, peak_rss(corpus, Path(tmp) / f"work-{n}")))
            print(f"  {n}x done: {rows[-1][2] / 2**20:.0f} MiB", file=sys.stderr, flush=True)
    _, base_size, base_rss = rows[0]
    print(f"no-site build, --no-cache, fresh process each, {args.per_file} copies a file; {load()}")
    print(f"{'N':>5} {'corpus':>10} {'peak RSS':>10} {'per corpus byte':>16} {'growth past 1x':>15}")
    for n, size, rss in rows:
        growth = f"{(rss - base_rss) / (size - base_size):>12.1f} B/B" if n > 1 else f"{'(baseline)':>15}"
        print(f"{n:>5} {size / 1e6:>7.1f} MB {rss / 2**20:>6.0f} MiB {rss / size:>14.1f} B {growth}")
    big = [r for r in rows if r[0] == 500]
    if big:
        print(f"500x: peak {big[0][2] / 2**20:.0f} MiB (target <= 1024 MiB: {'met' if big[0][2] <= GIB else 'NOT met'})")


if __name__ == "__main__":
    main()
