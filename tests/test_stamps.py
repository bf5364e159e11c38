"""The stamps of a build's outputs (compiler/stamps.py, issue 32): each tree is walked once a build, and the
cheaper stamps still catch a file of the last output changed, added or removed — by anyone, at any time,
including while the build that stamps it is writing it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from navlaw import stamps
from navlaw.cache import tree_stamp
from navlaw.stamps import Stamp

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus, same_as_clean_build  # noqa: F401


def _tree(root: Path) -> None:
    for name, text in {"a/b": "1", "a-c": "22", "a/d/e.txt": "333", "site/index.html": "x", "site/law/1/index.html": "y",
                       "z": ""}.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / "empty").mkdir()
    os.symlink("a-c", root / "link")


def test_a_stamp_is_tree_stamp_and_takes_an_inner_stamp_without_walking_it(tmp_path):
    _tree(tmp_path)
    whole = tree_stamp(tmp_path)
    site = Stamp.walk(tmp_path / "site")
    stamps.WALKED.clear()
    assert Stamp.walk(tmp_path, {"site": site}).digest() == whole
    assert stamps.WALKED["entries"] == 5  # a/b, a/d/e.txt, a-c, link, z: not the site's two files
    assert Stamp.walk(tmp_path / "nothing").digest() == tree_stamp(tmp_path / "nothing") == ""


@pytest.mark.parametrize("change", ["added", "removed"])
def test_a_site_with_a_file_added_or_removed_by_hand_is_rebuilt_whole(tmp_path, corpus, capsys, change):  # noqa: F811
    assert build(tmp_path, corpus) == 0
    site = tmp_path / "build" / "site"
    if change == "added":
        (site / "law" / "mine.html").write_text("mine", encoding="utf-8")
    else:
        (site / "sitemap.xml").unlink()
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert "(the earlier site is not the one the cache remembers)" in capsys.readouterr().out
    same_as_clean_build(tmp_path, corpus)


@pytest.mark.parametrize("where", ["site/index.html", "site-docs/law/10.md", "akn/10/2002-07-01.xml"])
def test_an_output_changed_while_the_build_writes_it_is_found_by_the_next_build(tmp_path, corpus, capsys,  # noqa: F811
                                                                               monkeypatch, where):
    """OUT's stamp takes its directories' stamps as the build wrote them (the site's as the site build stamped
    it, the data files' as write_out recorded them): what another program changes there after that (here, in
    the staged output before the swap) is not recorded as navlaw's, so the next build is not "up to date"
    with it (and does not start from a site so changed)."""
    from navlaw import publish

    real = publish._chmod_tree

    def meddle(root: Path, mask: int) -> None:
        page = root / where
        if root.name.startswith(".build.new"):
            assert page.is_file(), sorted(p.name for p in page.parent.iterdir())
            page.write_text(page.read_text(encoding="utf-8") + "<!-- meddled -->", encoding="utf-8")
        real(root, mask)

    monkeypatch.setattr(publish, "_chmod_tree", meddle)
    assert build(tmp_path, corpus) == 0
    monkeypatch.setattr(publish, "_chmod_tree", real)
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    out = capsys.readouterr().out
    assert "up to date" not in out
    if where.startswith("site/"):
        assert "(the earlier site is not the one the cache remembers)" in out
    same_as_clean_build(tmp_path, corpus)


def test_no_page_source_is_written_to_disk_to_be_read_back(tmp_path, corpus, capsys):  # noqa: F811
    """MkDocs reads the pages and data files from memory in an incremental build as in a full one: the
    cache's work directory holds the site's configuration and an empty docs/, and an edit still renders only
    what changed (a page source another program could change in the cache no longer exists to be stamped)."""
    from navlaw.build import cache_dir

    assert build(tmp_path, corpus) == 0
    docs = cache_dir(str(tmp_path / "build")) / "site-src" / "docs"
    assert docs.is_dir() and not any(docs.iterdir())
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert "site: 4 of 257 pages rendered, the rest kept from the last build" in capsys.readouterr().out
    assert docs.is_dir() and not any(docs.iterdir())
    same_as_clean_build(tmp_path, corpus)


def _files(root: Path) -> int:
    return sum(1 for p in root.rglob("*") if p.is_file() or p.is_symlink())


def _site_and_rest(tmp_path: Path, capsys) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """After an edit build that rendered the amended rate's 4 pages: the files of the site, and those a build
    states of the rest of its outputs (OUT's top files and the module)."""
    assert "4 of 257 pages rendered" in capsys.readouterr().out
    out = tmp_path / "build"
    return _files(out / "site"), sum(1 for p in out.iterdir() if not p.is_dir()) + _files(tmp_path / "build-fees")


def test_an_edit_states_the_site_twice_and_the_other_outputs_not_again(tmp_path, corpus, capsys):  # noqa: F811
    """An edit build states the last site (to check it is the one the cache remembers) and the new site (its
    stamp, which OUT's takes); of the rest of OUT only the files at its top (its directories' stamps are
    those write_out recorded as it wrote them), and the module: before, the site was stated three times, the
    page sources in the cache (as many files as the site's pages and data) twice, and the rest of OUT once."""
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    stamps.WALKED.clear()
    assert build(tmp_path, corpus) == 0
    site, rest = _site_and_rest(tmp_path, capsys)
    assert _files(tmp_path / "build") - site > 1000 > rest  # site-docs/, akn/, tree/: not stated
    assert 2 * site + rest <= stamps.WALKED["entries"] <= 2 * site + rest + 5


@pytest.mark.parametrize("change", ["changed", "added", "removed", "link"])
def test_a_site_changed_by_hand_is_found_when_the_build_starts_from_the_spare(tmp_path, corpus, capsys,  # noqa: F811
                                                                             change):
    """With a spare (the site the last build replaced), the last site is checked by the same stat of each file
    that mirrors it into the spare: a file changed, added or removed, or a link put in, still makes the build
    a full one, and a link is not followed (nothing of its target reaches the new site)."""
    from navlaw.build import cache_dir

    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert (cache_dir(str(tmp_path / "build")) / "site-spare").is_dir()
    site = tmp_path / "build" / "site"
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the site", encoding="utf-8")
    if change == "changed":
        page = site / "law" / "10" / "index.html"
        page.unlink()  # (a hard link to the spare's: replaced, not written through)
        page.write_text("edited by hand", encoding="utf-8")
    elif change == "added":
        (site / "law" / "mine.html").write_text("mine", encoding="utf-8")
    elif change == "removed":
        (site / "sitemap.xml").unlink()
    else:
        (site / "sitemap.xml").unlink()
        os.symlink(secret, site / "sitemap.xml")
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0
    assert "(the earlier site is not the one the cache remembers)" in capsys.readouterr().out
    assert not any("not for the site" in p.read_text(encoding="utf-8", errors="replace")
                   for p in site.rglob("*") if p.is_file())
    same_as_clean_build(tmp_path, corpus)


def test_an_edit_changes_only_the_modes_that_are_not_the_umask_s(tmp_path, corpus, monkeypatch):  # noqa: F811
    """publish._chmod_tree states every entry of the staged output but changes a mode only where it is not
    the umask's: on an edit, the staging directory itself and little else (before: every directory and every
    file not linked to the last build's). Under another umask, every directory and every file of its own
    (not shared with the last build's output by a hard link) gets the new umask's mode."""
    from navlaw import publish

    old_mask = os.umask(0o022)
    try:
        assert build(tmp_path, corpus) == 0
        amend(corpus, RATE_2027, AMENDED_2027)
        changed: list[str] = []
        active: list[bool] = []
        real, real_tree = os.chmod, publish._chmod_tree

        def chmod(path, mode, **kw):  # type: ignore[no-untyped-def]
            if active:
                changed.append(str(path))
            real(path, mode, **kw)

        def tree(root: Path, mask: int) -> None:
            active.append(True)
            try:
                real_tree(root, mask)
            finally:
                active.pop()

        monkeypatch.setattr(publish.os, "chmod", chmod)
        monkeypatch.setattr(publish, "_chmod_tree", tree)
        assert build(tmp_path, corpus) == 0
        entries = sum(1 for _ in (tmp_path / "build").rglob("*"))
        assert entries > 1000 and len(changed) <= 10, changed
        amend(corpus, AMENDED_2027, RATE_2027)
        os.umask(0o027)
        start = time.time_ns()
        assert build(tmp_path, corpus) == 0
    finally:
        os.umask(old_mask)
    written = 0
    for root in (tmp_path / "build", tmp_path / "build-fees"):
        assert oct(root.stat().st_mode & 0o777) == oct(0o750)
        for p in root.rglob("*"):
            st = p.lstat()
            if p.is_dir():
                assert oct(st.st_mode & 0o777) == oct(0o750), p
            elif st.st_mtime_ns >= start:  # written by this build (one linked to the last build's keeps its mode)
                written += 1
                assert oct(st.st_mode & 0o777) == oct(0o640), p
    assert written > 10


def test_an_edit_from_the_spare_states_the_last_site_once_and_of_the_new_one_only_what_mkdocs_wrote(
        tmp_path, corpus, capsys):  # noqa: F811
    """Started from the spare (the site the build before the last replaced), an edit states each file of the
    last site once (the mirror that checks it and makes the spare hold it) and, of the new site, only the
    files MkDocs and the search's split wrote (compiler/site/site_written.py): the new site's stamp is the
    mirrored one with those stated again. That stamp is the site's as written: the next edit starts from it
    (a file MkDocs wrote that the stamp missed would make the next build a full one), and a file changed
    after the build is still found."""
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0  # the first site kept as the spare
    amend(corpus, AMENDED_2027, RATE_2027)
    stamps.WALKED.clear()
    assert build(tmp_path, corpus) == 0
    site, rest = _site_and_rest(tmp_path, capsys)
    assert site + rest <= stamps.WALKED["entries"] <= site + rest + 40
    out = tmp_path / "build"
    from navlaw.build import cache_dir
    from navlaw.cache import BuildCache

    cache = BuildCache(cache_dir(str(out)))
    state = cache.get("site", cache.key("site", "state"))
    assert state is not None and state.output == tree_stamp(out / "site")
    for _ in range(2):
        amend(corpus, RATE_2027, AMENDED_2027)
        assert build(tmp_path, corpus) == 0
        assert "4 of 257 pages rendered" in capsys.readouterr().out
        amend(corpus, AMENDED_2027, RATE_2027)
        assert build(tmp_path, corpus) == 0
        assert "4 of 257 pages rendered" in capsys.readouterr().out
    same_as_clean_build(tmp_path, corpus)


def test_the_modes_of_out_s_data_files_are_not_stated_again(tmp_path, corpus, capsys):  # noqa: F811
    """OUT's data directories hold only the files write_out made, each new under the umask or a hard link to
    the last build's, and the directories it made or took from the spare, whose modes it set as it listed them
    (publish.modes_set): _chmod_tree walks none of them (the site's modes are set by its own build: not walked
    either); every mode is still the umask's (the test above changes the umask between builds)."""
    from navlaw import publish

    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    publish.CHMOD_STATED.clear()
    assert build(tmp_path, corpus) == 0
    assert "4 of 257 pages rendered" in capsys.readouterr().out
    out, fees = tmp_path / "build", tmp_path / "build-fees"
    data = [p for p in out.iterdir() if p.is_dir() and p.name != "site"]
    dirs = sum(1 for d in data for p in d.rglob("*") if p.is_dir()) + len(data)
    top = sum(1 for p in out.iterdir() if p.name != "site") + 1 + sum(1 for _ in fees.rglob("*"))
    assert sum(_files(d) for d in data) > 1000 > dirs + top
    assert top - 1 <= publish.CHMOD_STATED["entries"] <= top
