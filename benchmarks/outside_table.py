"""What navlaw reads in each real text of ../shared/outside/ (issue 27): a Markdown table of its sections,
provisions, contents and chrome/furniture lines, warnings and errors, and what the tree-invariant check
found (which must be nothing the tree does not explain). Usage: python benchmarks/outside_table.py [DIR]"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from navlaw.diagnostics import Diagnostics, NavlawError, Severity  # noqa: E402
from navlaw.frontend.assess import summarize  # noqa: E402
from navlaw.frontend.corpus import compile_file  # noqa: E402


def main() -> None:
    outside = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "outside"
    print("| file | sections | provisions | contents lines | chrome/furniture lines | warnings | errors | invariant |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for path in sorted(p for p in outside.iterdir() if p.is_file() and p.name != "README.md"):
        diags = Diagnostics()
        try:
            doc = compile_file(path, diags)
        except NavlawError as exc:
            print(f"| {path.name} | refused: {exc.diagnostics[0].message[:60]} | | | | | {len(exc.diagnostics)} | |")
            continue
        s = summarize(doc)
        count = {sev: sum(1 for d in diags if d.severity is sev) for sev in Severity}
        inv = sum(1 for d in diags if d.code == "invariant")
        print(f"| {path.name} | {s.sections} | {s.provisions} | {s.contents} | {s.chrome} | {count[Severity.WARNING]} "
              f"| {count[Severity.ERROR]} | {inv} |")


if __name__ == "__main__":
    main()
