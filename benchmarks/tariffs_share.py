"""CPU of the tariff work in the builds after a one-word edit of § 12 (benchmarks/incremental.py's edit, chained:
"practical" -> "thorough" -> "sound" -> "broad" -> "working" -> "deep" -> "broad"), unprofiled: process time
around build.tariffs (extraction, dating, lint; its parts beside it), build.fee_module, and the tariffs' JSON
(export/api.py's tariffs_sorted: OUT's tariffs.json and the site's api/tariffs.json), and around the whole build
(the command's ``main``: imports done before it are not counted, nor forked children: run with NAVLAW_JOBS=1).
The tariff modules are imported before the first build, so no stage is charged with their import.

    NAVLAW_JOBS=1 python benchmarks/tariffs_share.py SCALE DIR   # SCALE 1: each build in a fresh process;
                                                                  # otherwise all in this one, as `navlaw serve`

Prints one line of seconds per build from the third edit on (the first ones fill the memos)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
SPENT: dict[str, float] = {}


def _timed(mod: Any, name: str, label: str) -> None:
    real: Callable[..., Any] = getattr(mod, name)
    SPENT[label] = 0.0

    def timed(*args: Any, **kwargs: Any) -> Any:
        t = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            SPENT[label] += time.process_time() - t
    setattr(mod, name, timed)


def _wrap() -> None:
    import navlaw.build as b
    import navlaw.export.api as api
    import navlaw.law.references as references
    import navlaw.tariffs.complete as complete
    import navlaw.tariffs.dating as dating
    import navlaw.tariffs.extract as extract
    import navlaw.tariffs.lint as lint

    _timed(b, "tariffs", "tariffs stage")
    _timed(b, "fee_module", "fee module")
    for mod, name in ((extract, "extract"), (dating, "act_tariffs"), (dating, "date_tariffs"), (lint, "lint"),
                      (complete, "lint"), (references, "lint")):
        _timed(mod, name, f"{mod.__name__.rsplit('.', 1)[-1]}.{name}")
    real = api.tariffs_sorted
    SPENT["tariffs json"] = 0.0

    def listed(tariffs: Any) -> Any:  # made all at once here, to be timed (the build makes them as written)
        t = time.process_time()
        out = list(real(tariffs))
        SPENT["tariffs json"] += time.process_time() - t
        return iter(out)
    api.tariffs_sorted = listed


def one(args: list[str]) -> dict[str, float]:
    from navlaw.cli import main

    if not SPENT:
        _wrap()
    for k in SPENT:
        SPENT[k] = 0.0
    t = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", *args]) == 0
    return {"build": time.process_time() - t, **SPENT}


def run(scale: int, d: Path) -> None:
    from make_corpus import make

    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    make(scale, d / "corpus")
    args = ["--corpus", str(d / "corpus"), "--out", str(d / "out"), "--module", str(d / "fees")]
    f = d / "corpus" / "nav-law.consolidated.txt"
    text = f.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"

    def build() -> dict[str, float]:
        if scale != 1:
            return one(args)
        done = subprocess.run([sys.executable, __file__, "--one", *args], capture_output=True, text=True, check=True)
        return dict(json.loads(done.stdout))

    build()
    for k, word in enumerate(("thorough", "sound", "broad", "working", "deep", "broad")):
        f.write_text(text.replace(old, old.replace("practical", word), 1), encoding="utf-8")
        spent = build()
        if k >= 2:
            print(json.dumps({name: round(v, 3) for name, v in spent.items()}))


if __name__ == "__main__":
    if sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2:])))
    else:
        run(int(sys.argv[1]), Path(sys.argv[2]))
