"""Start-up: what a command costs a user who runs it in a fresh process, against the least it could
cost, measured in the same run in interleaved pairs (CPU time of the child process; benchmarks/measure.py).

- `navlaw fee ROUTE --units N` against `python -c "import navlaw_fees; navlaw_fees.quote(...)"`
  (target, issue 32: <= 2.5x);
- `navlaw show SECTION` against `python -c "import lark"` (what reading the corpus needs at least);
- `navlaw build` with nothing changed (cached, site included) against `python -c "import lark, jinja2"`
  (target <= 1.5x).

    python benchmarks/startup.py [RUNS]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import MIN_RUNS, interleaved, load, run_command, user_env  # noqa: E402

PY = sys.executable
ROUTE, UNITS, ON = "sandy-hook", "250", "2025-06-01"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=7, help=f"pairs (at least {MIN_RUNS})")
    args = ap.parse_args()
    env = user_env()

    def cmd(*argv: str):  # type: ignore[no-untyped-def]
        return lambda: run_command([PY, *argv], env=env, cwd=str(ROOT))

    print(f"fresh processes, CPU time (user + system) of each; {load()}")
    fee = interleaved(cmd("-m", "navlaw", "fee", ROUTE, "--units", UNITS, "--on", ON),
                      cmd("-c", "import datetime, decimal, navlaw_fees; navlaw_fees.quote("
                                f"{ROUTE!r}, units=decimal.Decimal({UNITS!r}), on=datetime.date.fromisoformat({ON!r}))"),
                      args.runs)
    print("  " + fee.line("navlaw fee", "import navlaw_fees + quote") + f"  (target <= 2.5x: "
          f"{'met' if fee.ratio() <= 2.5 else 'NOT met'})")
    show = interleaved(cmd("-m", "navlaw", "show", "89-b"), cmd("-c", "import lark"), args.runs)
    print("  " + show.line("navlaw show 89-b", "import lark"))
    with tempfile.TemporaryDirectory(prefix="navlaw-startup-") as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(ROOT / "corpus", corpus)
        common = ["-m", "navlaw", "build", "--corpus", str(corpus), "--out", f"{tmp}/build", "--module", f"{tmp}/fees"]
        run_command([PY, *common], env=env, cwd=str(ROOT))  # the build whose outputs the next ones find current
        same = interleaved(cmd(*common), cmd("-c", "import lark, jinja2"), args.runs)
    print("  " + same.line("navlaw build, nothing changed", "import lark, jinja2") + f"  (target <= 1.5x: "
          f"{'met' if same.ratio() <= 1.5 else 'NOT met'})")
    print(f"  (wall clock, same pairs: fee {fee.ratio('wall'):.2f}x, show {show.ratio('wall'):.2f}x, "
          f"nothing changed {same.ratio('wall'):.2f}x)")


if __name__ == "__main__":
    main()
