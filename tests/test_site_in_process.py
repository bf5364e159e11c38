"""Builds in one process (`navlaw serve`, issue 32): the site's state the last build put in the cache is
taken from memory while the cache's entry is the one this process wrote, and read from the cache when
another build replaced it; either way the site is a clean build's."""

from __future__ import annotations

import os
import shutil

from navlaw.cache import BuildCache

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus, same_as_clean_build  # noqa: F401


def test_the_site_state_of_the_last_build_is_taken_from_memory_while_its_entry_is_unchanged(
        tmp_path, corpus, capsys, monkeypatch):  # noqa: F811
    from navlaw.build import cache_dir

    read: list[str] = []
    real = BuildCache.get

    def get(self, stage, key):  # type: ignore[no-untyped-def]
        read.append(stage)
        return real(self, stage, key)

    monkeypatch.setattr(BuildCache, "get", get)
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    read.clear()
    assert build(tmp_path, corpus) == 0
    assert "4 of 257 pages rendered" in capsys.readouterr().out
    assert "site" not in read and "site-pages" in read
    # another process's build replaces the entry (as cache.put does: a new file renamed into place)
    entries = list((cache_dir(str(tmp_path / "build")) / "site").glob("*.sealed"))
    assert len(entries) == 1
    shutil.copy2(entries[0], entries[0].with_suffix(".tmp"))
    os.replace(entries[0].with_suffix(".tmp"), entries[0])
    amend(corpus, AMENDED_2027, RATE_2027)
    read.clear()
    assert build(tmp_path, corpus) == 0
    assert "4 of 257 pages rendered" in capsys.readouterr().out
    assert "site" in read
    same_as_clean_build(tmp_path, corpus)
