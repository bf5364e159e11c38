"""Values a rebuilding process reads back itself (`navlaw serve`): the site's state and the pages' memo are put
with ``hold`` and got with ``held``, so the next build in the same process takes them from memory, not by
unpickling the entry it just wrote (at 10x, ~0.09 s CPU an edit), and the outputs stay a clean build's."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from navlaw import cache as cache_module
from navlaw.cache import BuildCache, _write_atomic, seal

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus, same_as_clean_build  # noqa: F401


def test_only_a_rebuilding_process_holds_and_gives_back_once(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    value = {"page": ["entry"]}
    first = BuildCache(root)
    assert not first.rebuilding
    first.put("site", "k", value, hold=True)
    got = first.get("site", "k", held=True)
    assert got == value and got is not value  # a one-off build holds nothing: read from the file
    second = BuildCache(root)
    assert second.rebuilding
    second.put("site", "k", value, hold=True)
    assert second.get("site", "k") is not value  # not asked for: read from the file
    assert second.get("site", "k", held=True) is value
    assert second.stats["site held"] == 1
    again = second.get("site", "k", held=True)
    assert again == value and again is not value  # given back once: the next get reads the file


def test_an_entry_written_since_is_read_from_its_file(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("site", "k", {"old": 1}, hold=True)
    path = root / "site" / "k.sealed"
    before = path.stat()
    other = {"written by": "another process"}
    _write_atomic(path, seal("site/k", pickle.dumps(other)))
    assert path.stat().st_ino != before.st_ino or path.stat().st_mtime_ns != before.st_mtime_ns
    assert c.get("site", "k", held=True) == other


def test_a_held_value_goes_when_the_stage_is_put_again(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("site", "a", {"a": 1}, hold=True)
    c.put("site", "b", {"b": 2}, hold=True)
    held = [p for p in cache_module._HELD if p.is_relative_to(root)]
    assert held == [root / "site" / "b.sealed"]  # the stage's last value only


def test_in_process_rebuilds_take_the_site_state_and_pages_memo_held(tmp_path: Path, corpus: Path,  # noqa: F811
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    caches: list[BuildCache] = []
    init = BuildCache.__init__

    def spy(self: BuildCache, root: Path | None) -> None:
        init(self, root)
        caches.append(self)

    monkeypatch.setattr(BuildCache, "__init__", spy)
    assert build(tmp_path, corpus) == 0
    root = caches[-1].root
    assert root is not None and not [p for p in cache_module._HELD if p.is_relative_to(root)]  # one-off: none
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert caches[-1].stats["site held"] == 0  # the first build held nothing
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0
    stats = caches[-1].stats
    assert stats["site held"] == 1 and stats["site-pages held"] == 1
    assert stats["site hit"] == 1 and stats["site-pages hit"] == 1
    same_as_clean_build(tmp_path, corpus)
