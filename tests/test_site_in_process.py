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


def test_the_site_s_modes_are_set_in_its_stamp_s_walk_and_not_walked_again(tmp_path, corpus, monkeypatch):  # noqa: F811
    """publish._chmod_tree does not walk the site a build stamped (the stamp's walk set its modes, issue 32);
    under a new umask every directory and every file of its own still gets the umask's mode."""
    from navlaw import publish

    walked: list[str] = []
    real = publish._chmod_below

    def below(path, dir_mode, file_mode):  # type: ignore[no-untyped-def]
        walked.append(path)
        real(path, dir_mode, file_mode)

    monkeypatch.setattr(publish, "_chmod_below", below)
    old_mask = os.umask(0o022)
    try:
        assert build(tmp_path, corpus) == 0
        amend(corpus, RATE_2027, AMENDED_2027)
        os.umask(0o027)
        walked.clear()
        assert build(tmp_path, corpus) == 0
    finally:
        os.umask(old_mask)
    below_out = [p.split(".build.new-", 1)[-1].split(os.sep)[1:] for p in walked]  # [] for OUT itself
    assert [] in below_out and ["site-docs"] in below_out and not any(b[:1] == ["site"] for b in below_out)
    site = tmp_path / "build" / "site"
    for p in [site, *site.rglob("*")]:
        st = p.lstat()
        if p.is_dir():
            assert oct(st.st_mode & 0o777) == oct(0o750), p
        elif st.st_nlink == 1:
            assert oct(st.st_mode & 0o777) == oct(0o640), p
