"""The site on every core (issue 32): MkDocs' conversion and rendering of the pages made by forked
workers give the site one process gives, byte for byte, search index included; what a worker logs still
fails a strict build; NAVLAW_JOBS=1 keeps everything in one process. The threshold is lowered so that
the small corpus uses the workers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from navlaw.site import mkdocs_parallel

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, tree_bytes


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    from .conftest import CORPUS

    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


@pytest.fixture
def rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The rounds of workers started: (which, pages)."""
    seen: list[tuple[str, int]] = []
    real = mkdocs_parallel._in_workers

    def spy(work, fn, n):  # type: ignore[no-untyped-def]
        seen.append((fn.__name__, len(work)))
        return real(work, fn, n)

    monkeypatch.setattr(mkdocs_parallel, "_in_workers", spy)
    monkeypatch.setattr(mkdocs_parallel, "PARALLEL_AT", 1)
    return seen


def test_the_site_built_on_two_cores_is_the_site_built_on_one(tmp_path, corpus, rounds, monkeypatch):
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    assert rounds == [("_convert_range", 257), ("_render_range", 257)]
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "serial", "--no-cache") == 0
    assert len(rounds) == 2  # none the second time
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "serial")
    assert sum(p.stat().st_size for p in (tmp_path / "build" / "site" / "search" / "terms").iterdir()) > 100_000


def test_an_incremental_build_on_two_cores_is_a_clean_build(tmp_path, corpus, rounds, monkeypatch, capsys):
    """With the cache: the first build is a full one in workers, the amendment a dirty one (its few pages
    in workers too), and the result, search index included, is a clean one-process build's."""
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    assert "site: 4 of 257 pages rendered, the rest kept from the last build" in capsys.readouterr().out
    assert [r for r, _ in rounds] == ["_convert_range", "_render_range"] * 2
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "clean", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "clean")


def test_a_warning_in_a_worker_fails_the_strict_build(tmp_path, rounds, monkeypatch):
    from navlaw.site.mkdocs_build import build_site

    monkeypatch.setenv("NAVLAW_JOBS", "2")
    files = {"index.md": "# Home\n\nSee [the other page](other.md).\n",
             "other.md": "# Other\n\nA link to [nowhere](nowhere.md).\n"}
    with pytest.raises(RuntimeError, match="nowhere.md"):
        build_site(files, tmp_path / "site")
    assert rounds and rounds[0][0] == "_convert_range"


def test_no_processes_to_be_had_builds_the_same_site_here(tmp_path, corpus, monkeypatch):
    def no_fork(method):  # type: ignore[no-untyped-def]
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(mkdocs_parallel, "PARALLEL_AT", 1)
    monkeypatch.setattr(mkdocs_parallel.multiprocessing, "get_context", no_fork)
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    monkeypatch.undo()
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "serial", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "serial")
