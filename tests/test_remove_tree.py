"""The removal of a replaced output (compiler/publish.py ``remove_tree``): shared out among threads when the
build may use several cores, the same result as ``shutil.rmtree``: everything under the path is gone, and a
link in it is removed, never followed (what it points to is left whole), at every depth, split or not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from navlaw import publish


def _tree(root: Path, outside: Path) -> int:
    """A tree like a replaced OUT (pages three levels down, files at every level, links to a directory and
    to a file outside at every level); the number of entries in it."""
    n = 0
    for top in ("site", "api", "akn"):
        for mid in ("law", "sections", "assets"):
            for page in range(40):
                d = root / top / mid / f"p{page}"
                d.mkdir(parents=True)
                (d / "index.html").write_text("x", encoding="utf-8")
                (d / "deeper").mkdir()
                (d / "deeper" / "f.json").write_text("{}", encoding="utf-8")
                n += 4
            (root / top / mid / "file.txt").write_text("y", encoding="utf-8")
            n += 2
        (root / top / "top.txt").write_text("z", encoding="utf-8")
        n += 2
    for d in (root, root / "site", root / "site" / "law", root / "site" / "law" / "p3", root / "site" / "law" / "p3" / "deeper"):
        os.symlink(outside, d / "link-to-dir")
        os.symlink(outside / "keep.txt", d / "link-to-file")
        n += 2
    return n


@pytest.mark.parametrize("jobs", ["1", "2", "4"])
def test_remove_tree_removes_everything_and_follows_no_link(tmp_path, monkeypatch, jobs):
    monkeypatch.setenv("NAVLAW_JOBS", jobs)
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "keep.txt").write_text("keep", encoding="utf-8")
    (outside / "sub" / "also.txt").write_text("also", encoding="utf-8")
    root = tmp_path / ".out.old-x"
    assert _tree(root, outside) > 700
    removed: list[str] = []
    real = publish._remove_one
    monkeypatch.setattr(publish, "_remove_one", lambda p: (removed.append(p), real(p))[1])
    publish.remove_tree(root)
    assert not root.exists() and not root.is_symlink()
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == ["keep.txt", "sub", "sub/also.txt"]
    if jobs == "1":
        assert removed == []  # one thread: shutil.rmtree as before
    else:  # shared out: the page directories three levels down, each by a thread, and the files above them
        pages = [p for p in removed if Path(p).parent.parent.parent == root and Path(p).name.startswith("p")]
        assert len(pages) == len(set(pages)) == 3 * 3 * 40
        assert str(root / "site" / "law" / "link-to-dir") in removed


def test_remove_tree_of_a_link_or_a_missing_path_removes_nothing_it_points_to(tmp_path, monkeypatch):
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    target = tmp_path / "target"
    (target / "a").mkdir(parents=True)
    link = tmp_path / "link"
    os.symlink(target, link)
    publish.remove_tree(link)  # rmtree refuses a link (ignored, as before): what it points to stays
    publish.remove_tree(tmp_path / "missing")
    assert (target / "a").is_dir()
