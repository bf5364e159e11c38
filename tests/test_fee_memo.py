"""The fee module's memo (compiler/fees/memo.py): after an edit that changes no fee, the module's code is the
last build's, not rendered again, and byte for byte what a build without the cache writes; an edit of a fee,
or of what the module asks the timeline, renders it again."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from navlaw.build import compile_law, fee_module
from navlaw.cache import BuildCache
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
