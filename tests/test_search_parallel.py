"""Issue 32, item 1: the split of the search index (compiler/site/search_index.py) on the machine's cores
(compiler/site/search_parallel.py) writes the bytes one process writes, and the work was shared out
(counted, never timed). What the split's files mean is checked against Material's own worker in
tests/test_search_split.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navlaw.site import search_index, search_parallel, search_top

from .test_search_delta import CONFIG, _pages


def _documents(pages: int) -> list[dict[str, object]]:
    """The documents of test_search_delta's pages, in page order (the index Material writes)."""
    return [doc for _, entries in _pages(pages) for doc in entries]


def _split(where: Path, docs: list[dict[str, object]], monkeypatch: pytest.MonkeyPatch, jobs: str) -> dict[str, bytes]:
    monkeypatch.setenv("NAVLAW_JOBS", jobs)
    (where / "search").mkdir(parents=True)
    (where / "search" / "search_index.json").write_text(json.dumps({"config": CONFIG, "docs": docs}), encoding="utf-8")
    search_index.split_search_index(where)
    return {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*")) if p.is_file()}


def test_split_on_two_cores_gives_the_bytes_of_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_parallel, "PARALLEL_AT", 1)
    monkeypatch.setattr(search_index, "INLINE_BYTES", 300)  # postings files, several per large term
    monkeypatch.setattr(search_index, "POSTING_BYTES", 400)
    monkeypatch.setattr(search_index, "TERM_SHARD_BYTES", 2_000)
    monkeypatch.setattr(search_top, "WIDE_BYTES", 3_000)  # top files
    docs = _documents(300)
    search_parallel.MADE.clear()
    one = _split(tmp_path / "one", docs, monkeypatch, "1")
    assert search_parallel.MADE and {how for _, how, _ in search_parallel.MADE} == {"here"}
    search_parallel.MADE.clear()
    two = _split(tmp_path / "two", docs, monkeypatch, "2")
    made = {step: (how, ranges) for step, how, ranges in search_parallel.MADE}
    assert {step for step, (how, ranges) in made.items() if how == "forked" and ranges > 2} == {"count", "entries"}
    assert made["write"] == ("here", 1)  # files are created by one process (search_index._write_dirs)
    assert list(two) == list(one)
    assert [name for name in one if two[name] != one[name]] == []
    assert any(name.startswith("search/postings/") for name in one) and any(name.startswith("search/top/") for name in one)
    assert sum(name.startswith("search/terms/") for name in one) > 3


def test_term_order_and_counts_merged_from_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts made over ranges of documents merge into lunr's term order (first seen) and document order."""
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    docs = _documents(120)
    one = search_index.term_counts(CONFIG, docs, 1)
    search_parallel.MADE.clear()
    two = search_index.term_counts(CONFIG, docs, 2)
    assert search_parallel.MADE == [("count", "forked", 8)]
    assert list(two) == list(one) and [v[0] for v in two.values()] == list(range(len(one)))
    assert [(t, k, [list(f.items()) for f in per]) for t, (k, per) in two.items()] == \
        [(t, k, [list(f.items()) for f in per]) for t, (k, per) in one.items()]
    index = search_index.build_index(CONFIG, docs)
    assert list(index) == list(one) and index["pail"][1][1]  # weights of a common word in the text field


def test_small_index_stays_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    search_parallel.MADE.clear()
    _split(tmp_path, _documents(20), monkeypatch, "2")
    assert search_parallel.MADE and {how for _, how, _ in search_parallel.MADE} == {"here"}


def test_runs_of_terms_keep_families_of_wide_prefixes_whole() -> None:
    """The runs of terms the workers weigh cover every term once, in order, and each family of nested wide
    prefixes' ranges falls in one run (its terms weighed once)."""
    ranges = {"p": (10, 60), "pa": (12, 30), "par": (20, 25), "s": (70, 71), "t": (90, 140), "th": (100, 120)}
    families = search_index._families(ranges)
    assert families == [[(10, 60), (12, 30), (20, 25)], [(70, 71)], [(90, 140), (100, 120)]]
    for k in (1, 2, 3, 8, 200):
        tasks = search_index._tasks(150, families, k)
        assert len(tasks) == k and tasks[0][0] == 0 and tasks[-1][1] == 150
        assert all(a[1] == b[0] for a, b in zip(tasks, tasks[1:]))
        assert [f for _, _, first, last in tasks for f in range(first, last)] == list(range(len(families)))
        for start, end, first, last in tasks:
            assert all(start <= lo and hi <= end for family in families[first:last] for lo, hi in family)
    assert len({t[:2] for t in search_index._tasks(150, families, 8)}) > 3  # the terms are shared out
