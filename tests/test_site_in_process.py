"""Builds in one process (`navlaw serve`, issue 32): the site's modes are set in the walk that stamps it.
(The site's state taken from memory while the cache's entry is the one this process wrote:
tests/test_cache_held.py.)"""

from __future__ import annotations

import os

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus  # noqa: F401


def test_the_site_s_modes_are_set_in_its_stamp_s_walk_and_not_walked_again(tmp_path, corpus, monkeypatch):  # noqa: F811
    """publish._chmod_tree does not walk the site a build stamped (the stamp's walk set its modes, issue 32);
    under a new umask every directory and every file of its own still gets the umask's mode."""
    from navlaw import publish

    walked: list[str] = []
    real = publish._chmod_below

    def below(path, modes):  # type: ignore[no-untyped-def]
        walked.append(path)
        real(path, modes)

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
    # nor OUT's data directories: write_out set their modes as it listed them (publish.modes_set)
    assert [] in below_out and not any(b[:1] in (["site"], ["site-docs"]) for b in below_out)
    site = tmp_path / "build" / "site"
    for p in [site, *site.rglob("*")]:
        st = p.lstat()
        if p.is_dir():
            assert oct(st.st_mode & 0o777) == oct(0o750), p
        elif st.st_nlink == 1:
            assert oct(st.st_mode & 0o777) == oct(0o640), p


def test_a_rebuild_in_process_hashes_only_the_docs_texts_that_changed(tmp_path, corpus, capsys):  # noqa: F811
    """The site's docs texts are compared with those of the last build in this process, and only the texts
    that differ are hashed again (compiler/site/mkdocs_build.py's _digests); what changed is still rendered,
    and the site is a clean build's."""
    from navlaw.site import mkdocs_build

    from .test_incremental import same_as_clean_build

    assert build(tmp_path, corpus) == 0
    for old, new in ((RATE_2027, AMENDED_2027), (AMENDED_2027, RATE_2027)):
        amend(corpus, old, new)
        mkdocs_build.DIGESTED.clear()
        assert build(tmp_path, corpus) == 0
        assert "site: 4 of 257 pages rendered" in capsys.readouterr().out
        assert 4 <= mkdocs_build.DIGESTED["texts"] <= 30, mkdocs_build.DIGESTED
    same_as_clean_build(tmp_path, corpus)


def test_an_edit_does_not_state_the_theme_s_files_to_copy_them_again(tmp_path, corpus, capsys, monkeypatch):  # noqa: F811
    """A dirty build takes the theme's static files as not modified (the theme's version is in the cache's key,
    its overrides in the site's shape, and the site it starts from is stamped): MkDocs' check stated each of
    them (two times of modification); the site is still a clean build's."""
    from .test_incremental import same_as_clean_build

    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    asked: list[str] = []
    real = os.path.getmtime

    def getmtime(path):  # type: ignore[no-untyped-def]
        asked.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os.path, "getmtime", getmtime)
    assert build(tmp_path, corpus) == 0
    monkeypatch.setattr(os.path, "getmtime", real)
    assert "site: 4 of 257 pages rendered" in capsys.readouterr().out
    assert not [p for p in asked if "assets" in p], asked[:5]
    same_as_clean_build(tmp_path, corpus)
