"""Issue 32, item 1: the search's terms counted while the rendering round's slices come back
(compiler/site/search_early.py) are the counts the split makes itself, and the split takes them only
for the documents and settings they were made from: its files are the same bytes either way (counted,
never timed). The whole site built with them is compared with a one-process build in
tests/test_site_parallel.py."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from navlaw.site import search_early, search_index, search_parallel

from .test_search_delta import CONFIG, _pages


def _plugin(before: list[dict[str, Any]], **config: Any) -> SimpleNamespace:
    """What the rendering round sees of Material's search plugin: its settings and its index so far."""
    return SimpleNamespace(config=dict(CONFIG, **config), search_index=SimpleNamespace(entries=list(before)))


def _counted(docs: list[dict[str, Any]], cuts: list[int], before: int = 0) -> search_early.Early:
    early = search_early.start(_plugin(docs[:before]))
    assert early is not None
    for a, b in zip([before, *cuts], [*cuts, len(docs)]):
        early.add(docs[a:b])
    return early


def _flat(counts: search_index._Counts) -> list[tuple[str, int, list[list[tuple[int, int]]]]]:
    return [(t, k, [list(f.items()) for f in per]) for t, (k, per) in counts.items()]


def test_counts_made_slice_by_slice_are_the_splits_own() -> None:
    docs = [doc for _, entries in _pages(90) for doc in entries]
    whole = search_index.term_counts(CONFIG, docs, 1)
    for cuts, before in (([], 0), ([1, 2, 50, 50, 51], 0), ([40, 100], 7)):
        early = _counted(docs, cuts, before)
        assert _flat(early.counts) == _flat(whole)
        assert search_early.take(CONFIG, docs) is early.counts
        assert search_early.take(CONFIG, docs) is None  # taken once


def test_counts_of_other_documents_or_settings_are_not_taken() -> None:
    docs = [doc for _, entries in _pages(30) for doc in entries]
    _counted(docs, [10])
    changed = [dict(d) for d in docs]
    changed[3]["text"] += " pilotage"
    assert search_early.take(CONFIG, changed) is None
    _counted(docs, [10])
    assert search_early.take(CONFIG, docs[:-1]) is None  # a document missing
    _counted(docs, [10])
    assert search_early.take(dict(CONFIG, separator="[\\s]+"), docs) is None
    _counted(docs, [10])
    search_early.drop()  # the round was made again here
    assert search_early.take(CONFIG, docs) is None
    # settings the split cannot use: nothing counted early (the split itself says why)
    assert search_early.start(_plugin([], lang=["de"])) is None
    assert search_early.start(SimpleNamespace(config=CONFIG)) is None  # no index


def _split(where: Path, docs: list[dict[str, Any]]) -> dict[str, bytes]:
    (where / "search").mkdir(parents=True)
    (where / "search" / "search_index.json").write_text(json.dumps({"config": CONFIG, "docs": docs}), encoding="utf-8")
    search_early.split_search_index(where)
    return {str(p.relative_to(where)): p.read_bytes() for p in sorted(where.rglob("*")) if p.is_file()}


def test_the_split_with_early_counts_writes_the_same_bytes(tmp_path: Path) -> None:
    docs = [doc for _, entries in _pages(200) for doc in entries]
    search_early.drop()
    search_parallel.MADE.clear()
    alone = _split(tmp_path / "alone", docs)
    assert ("count", "early", 1) not in search_parallel.MADE
    _counted(docs, [60, 130])
    search_parallel.MADE.clear()
    early = _split(tmp_path / "early", docs)
    assert [m for m in search_parallel.MADE if m[0] == "count"] == [("count", "early", 1)]
    assert early == alone and len(alone) > 5
    # counts of other documents: the split counts its own, and writes what it would have
    _counted(docs[:-2], [60])
    search_parallel.MADE.clear()
    assert _split(tmp_path / "other", docs) == alone
    assert [m[1] for m in search_parallel.MADE if m[0] == "count"] == ["here"]
