"""model/lazy_re.py: a module's patterns that most builds never use are compiled on first use, with re's own
results. Counted, never timed: a build in a new process (as a user runs `navlaw build`), full or after an edit,
leaves uncompiled the act-reading patterns of frontend/effective.py and the flattened-print patterns of
formats/bill.py that the corpus's texts never reach (all were compiled at import before)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from navlaw.model.lazy_re import lazy

from .conftest import CORPUS


def test_the_same_results_as_re():
    text = "Section 1. This act shall take effect immediately; provided, that (a) x; and (b) y. Then More."
    for pattern, flags in ((r"(?P<w>\w+)\s+(act|effect)", re.I), (r";\s*", 0), (r"\((\w)\)", 0), (r"zzz", 0)):
        lazy_p, real = lazy(pattern, flags), re.compile(pattern, flags)
        assert lazy_p.compiled is not None  # made on demand
        for name in ("match", "search", "fullmatch"):
            a, b = getattr(lazy_p, name)(text), getattr(real, name)(text)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))
        assert [m.span() for m in lazy_p.finditer(text, 3)] == [m.span() for m in real.finditer(text, 3)]
        assert lazy_p.findall(text) == real.findall(text)
        assert lazy_p.split(text, 2) == real.split(text, 2)
        assert lazy_p.sub(lambda m: "<" + m.group(0) + ">", text) == real.sub(lambda m: "<" + m.group(0) + ">", text)
        assert lazy_p.subn("-", text, 1) == real.subn("-", text, 1)
        assert (lazy_p.pattern, lazy_p.flags) == (pattern, flags)


def test_compiled_once_on_first_use():
    p = lazy(r"a+")
    assert p._compiled is None
    first = p.compiled
    assert p.search("baa") is not None and p.compiled is first


CHILD = textwrap.dedent("""
    import contextlib, io, json, sys
    from navlaw.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(sys.argv[1:])
    from navlaw.frontend import effective
    from navlaw.frontend.formats import bill
    from navlaw.model.lazy_re import LazyPattern
    found = {f"{m.__name__}.{k}": v for m in (effective, bill) for k, v in vars(m).items() if isinstance(v, LazyPattern)}
    print(json.dumps({"code": code, "lazy": len(found), "compiled": sorted(k for k, p in found.items() if p._compiled)}))
""")


def _child(args: list[str]) -> dict[str, Any]:
    import navlaw

    here = str(Path(navlaw.__file__).resolve().parent.parent)  # the navlaw under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, done.stderr
    return result


def test_a_build_compiles_only_the_patterns_it_uses(tmp_path):
    shutil.copytree(CORPUS, tmp_path / "corpus")
    args = ["build", "--no-site", "--corpus", str(tmp_path / "corpus"), "--out", str(tmp_path / "out"),
            "--module", str(tmp_path / "fees")]
    full = _child(args)  # no cache yet: the act is read
    assert full["lazy"] >= 20
    large = tmp_path / "corpus" / "nav-law.consolidated.txt"
    text = large.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"
    assert text.count(old) == 1
    large.write_text(text.replace(old, old.replace("practical", "thorough")), encoding="utf-8")
    edit = _child(args)
    # what this corpus's texts never ask (a retroactive or tied effective date, a flattened bill print) stays
    # uncompiled: before, every one of them was compiled when the module was imported
    assert set(edit["compiled"]) <= set(full["compiled"]) and len(full["compiled"]) <= full["lazy"] - 10
    assert "navlaw.frontend.effective._IF_RETRO" not in edit["compiled"]
    assert "navlaw.frontend.formats.bill._FLAT_START" not in edit["compiled"]
