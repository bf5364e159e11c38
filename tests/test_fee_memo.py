"""The fee module's memo (compiler/fees/memo.py): after an edit that changes no fee, the module's code is the
last build's, not rendered again, and byte for byte what a build without the cache writes; an edit of a fee,
or of what the module asks the timeline, renders it again."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from navlaw.build import compile_law, fee_module
from navlaw.cache import BuildCache
from navlaw.cli import main
from navlaw.fees.generate import render
from navlaw.fees.package import About, sources_of
from navlaw.fees.plans import build_plans
from navlaw.model.tariffs import Source
from navlaw.tariffs.routes import RouteTable

from .conftest import CORPUS

# a word of a section that prices nothing (the benchmark's edit, benchmarks/incremental.py), one letter shorter:
# every offset after it moves, no line or column of a fee does
LARGE = "nav-law.consolidated.txt"
WORDS = "who shall have a practical knowledge of the construction"


def _module(corpus: Path, cache: BuildCache | None) -> dict[str, str]:
    return fee_module(compile_law(str(corpus), cache, relative=True), None, cache)


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(CORPUS, tmp_path / "corpus")
    return tmp_path / "corpus"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edit_without_a_fee_reuses_the_code(tmp_path):
    corpus = _copy(tmp_path)
    first = BuildCache(tmp_path / "cache")
    before = _module(corpus, first)
    assert first.stats["fee module made"] == 1 and first.stats["fee module reused"] == 0
    _edit(corpus / LARGE, WORDS, WORDS.replace("practical", "thorough"))
    again = BuildCache(tmp_path / "cache")
    after = _module(corpus, again)
    assert again.stats["fee module reused"] == 1 and again.stats["fee module made"] == 0
    fresh = _module(corpus, None)  # no cache: rendered
    assert after == fresh
    assert after["__init__.py"] != before["__init__.py"]  # the header names the edited file's new digest
    assert after["pyproject.toml"] != before["pyproject.toml"]  # and so does the version


def test_an_edit_of_a_fee_renders_again(tmp_path):
    corpus = _copy(tmp_path)
    _module(corpus, BuildCache(tmp_path / "cache"))
    _edit(corpus / "089-b.2022.txt", "shall pay eleven dollars\\nand twenty-two cents",
          "shall pay eleven dollars\\nand thirty cents")
    again = BuildCache(tmp_path / "cache")
    after = _module(corpus, again)
    assert again.stats["fee module made"] == 1 and again.stats["fee module reused"] == 0
    assert after == _module(corpus, None)
    assert "11.30" in after["_schedules.py"] or "Decimal(\"11.30\")" in after["_schedules.py"]


def test_a_changed_answer_of_the_timeline_renders_again(tmp_path):
    """What render asked the timeline is checked again: another answer (another version of a section in force
    on a schedule's first day) is a miss, though the fees are the same."""
    result = compile_law(str(CORPUS), None, relative=True)
    plans = build_plans(result.tariffs, RouteTable.of(result.corpus.manifest))
    sources, about = sources_of(result.corpus), About.of(plans, result.corpus.manifest.law)
    from navlaw.fees.memo import rendered

    asked: list[tuple[str, object]] = []

    def versions(section, day):
        asked.append((section, day))
        return day, True

    cache = BuildCache(tmp_path / "cache")
    made = rendered(plans, result.tariffs, sources, versions, about, cache)
    assert asked and cache.stats["fee module made"] == 1
    cache = BuildCache(tmp_path / "cache")
    assert rendered(plans, result.tariffs, sources, versions, about, cache) == made
    assert cache.stats["fee module reused"] == 1
    cache = BuildCache(tmp_path / "cache")
    other = rendered(plans, result.tariffs, sources, lambda s, d: (d, False), about, cache)  # no history page
    assert cache.stats["fee module made"] == 1 and other != made


def test_the_code_does_not_read_offsets():
    """The memo's key leaves out where in its file each number was read (compiler/fees/memo.py's _pickled):
    a module rendered from the tariffs with every offset moved is the same text."""
    result = compile_law(str(CORPUS), None, relative=True)
    moved = 0

    def shift(value):
        nonlocal moved
        if isinstance(value, Source):
            moved += 1
            return dataclasses.replace(value, start=value.start + 7, end=value.end + 7)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {f.name: shift(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
            return dataclasses.replace(value, **changes)
        if isinstance(value, tuple):
            return tuple(shift(v) for v in value)
        if isinstance(value, list):
            return [shift(v) for v in value]
        return value

    shifted = [shift(t) for t in result.tariffs]
    assert moved > 100

    def module(tariffs):
        plans = build_plans(tariffs, RouteTable.of(result.corpus.manifest))
        return render(plans, tariffs, sources_of(result.corpus), None, About.of(plans, result.corpus.manifest.law))

    assert module(shifted) == module(result.tariffs)


CHILD = textwrap.dedent("""
    import contextlib, io, json, sys
    from navlaw.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(sys.argv[1:])
    print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
""")


def test_a_fresh_process_after_an_edit_does_not_load_the_generator(tmp_path):
    """`navlaw build` after an edit that changes no fee, in a new process (as a user runs it): the generator and
    its templates are not loaded (tests/test_startup.py's way: the modules the process loaded), and the module
    is the one a build without the cache writes."""
    import navlaw

    corpus = _copy(tmp_path)
    args = ["build", "--no-site", "--corpus", str(corpus), "--out", str(tmp_path / "out"),
            "--module", str(tmp_path / "fees")]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(args) == 0
    _edit(corpus / LARGE, WORDS, WORDS.replace("practical", "thorough"))
    here = str(Path(navlaw.__file__).resolve().parent.parent)  # the navlaw under test, as the child must import it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, done.stderr
    assert "navlaw.fees.memo" in result["modules"] and "navlaw.fees.generate" not in result["modules"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "--no-site", "--no-cache", "--corpus", str(corpus), "--out", str(tmp_path / "out2"),
                     "--module", str(tmp_path / "fees2")]) == 0
    for name in ("__init__.py", "_schedules.py", "_runtime.py", "trace.py", "pyproject.toml", "api.json"):
        assert (tmp_path / "fees" / name).read_bytes() == (tmp_path / "fees2" / name).read_bytes(), name


def test_fields_json_is_part_of_to_json():
    """fees/generate.py lists schedules from a few fields of each tariff (model/tariffs.fields_json), not its
    whole JSON: the same values."""
    from navlaw.model.tariffs import fields_json, to_json

    result = compile_law(str(CORPUS), None, relative=True)
    names = ("id", "kind", "title", "provision", "citation", "status", "effective", "route")
    for t in result.tariffs:
        whole = to_json(t)
        assert fields_json(t, names) == {n: whole[n] for n in names}
