"""Builds an N-times larger synthetic corpus from the real one: N copies of the consolidated text, copy k
with its articles and sections renumbered (article 6 -> 6 + 100k, § 88 -> § 88 + 1000k, "45-aaaa" ->
"1045-aaaa"), real text otherwise; the other documents and the manifest as they are.

    python benchmarks/make_corpus.py N OUT_DIR
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = re.compile(r"(?m)^(ｧ|§)(\s*)(\d+)")
ARTICLE = re.compile(r"(?m)^((?:ARTICLE|Article)\s+)(\d+)")


def renumber(text: str, k: int) -> str:
    if k == 0:
        return text
    text = SECTION.sub(lambda m: f"{m[1]}{m[2]}{int(m[3]) + 1000 * k}", text)
    return ARTICLE.sub(lambda m: f"{m[1]}{int(m[2]) + 100 * k}", text)


def make(n: int, out: Path, corpus: Path = ROOT / "corpus") -> Path:
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(corpus, out)
    name = "nav-law.consolidated.txt"
    raw = (corpus / name).read_bytes().decode("utf-8")
    with open(out / name, "w", encoding="utf-8", newline="") as f:
        for k in range(n):
            f.write(renumber(raw, k))
            if not raw.endswith("\n"):
                f.write("\n")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    make(int(sys.argv[1]), Path(sys.argv[2]))
