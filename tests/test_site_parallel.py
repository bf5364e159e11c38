"""The site on every core (issue 32): MkDocs' conversion and rendering of the pages made by forked
workers give the site one process gives, byte for byte, search index included; what a worker logs still
fails a strict build; NAVLAW_JOBS=1 keeps everything in one process. The threshold is lowered so that
the small corpus uses the workers."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest

from navlaw import parallel
from navlaw.site import mkdocs_parallel, search_early, search_parallel
from navlaw.site.mkdocs_errors import SiteError

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, tree_bytes


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    from .conftest import CORPUS

    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


SHARED_DATA_FILES: list[int] = []  # per rendering round: the data files its workers wrote


@pytest.fixture
def rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The rounds of workers started: (which, pages)."""
    seen: list[tuple[str, int]] = []
    real = mkdocs_parallel._in_workers

    def spy(work, fn, n, *each):  # type: ignore[no-untyped-def]
        seen.append((fn.__name__, len(work)))
        if fn is mkdocs_parallel._render_range:
            SHARED_DATA_FILES.append(len(mkdocs_parallel._STATIC))
        return real(work, fn, n, *each)

    monkeypatch.setattr(mkdocs_parallel, "_in_workers", spy)
    monkeypatch.setattr(mkdocs_parallel, "PARALLEL_AT", 1)
    monkeypatch.setattr(parallel, "WORTH_AT", 1)  # the data files and OUT's files made beside the build too
    parallel.MADE.clear()
    SHARED_DATA_FILES.clear()
    return seen


def test_the_site_built_on_two_cores_is_the_site_built_on_one(tmp_path, corpus, rounds, monkeypatch):
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    search_parallel.MADE.clear()
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    assert rounds == [("_convert_range", 257), ("_render_range", 257)]
    # the search's terms counted as the rendered slices came back (compiler/site/search_early.py)
    assert [m for m in search_parallel.MADE if m[0] == "count"] == [("count", "early", 1)]
    search_parallel.MADE.clear()
    assert parallel.MADE == [("data files", "forked"), ("outputs", "forked")]
    # the site's files that are not pages (api/, akn/, assets), held in memory, written by the rendering
    # round's workers
    data = [p for p in (tmp_path / "build" / "site-docs").rglob("*") if p.is_file() and p.suffix != ".md"]
    assert SHARED_DATA_FILES == [len(data)] and len(data) > 400
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "serial", "--no-cache") == 0
    assert len(rounds) == 2  # none the second time
    assert parallel.MADE[2:] == [("data files", "here"), ("outputs", "here")]
    assert [m for m in search_parallel.MADE if m[0] == "count"] == [("count", "here", 1)]
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "serial")
    assert tree_bytes(tmp_path / "build-fees") == tree_bytes(tmp_path / "serial-fees")
    assert len(list((tmp_path / "build" / "akn").rglob("*.xml"))) > 200  # OUT's own, written by the other process
    assert sum(p.stat().st_size for p in (tmp_path / "build" / "site" / "search" / "terms").iterdir()) > 100_000


def test_an_incremental_build_on_two_cores_is_a_clean_build(tmp_path, corpus, rounds, monkeypatch, capsys):
    """With the cache: the first build is a full one in workers, the amendment a dirty one (its few pages
    in workers too), and the result, search index included, is a clean one-process build's."""
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    search_parallel.MADE.clear()
    assert build(tmp_path, corpus) == 0
    # the full split of the first build took the counts made as the rendered slices came back
    assert [m for m in search_parallel.MADE if m[0] == "count"] == [("count", "early", 1)]
    amend(corpus, RATE_2027, AMENDED_2027)
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    assert "site: 4 of 257 pages rendered, the rest kept from the last build" in capsys.readouterr().out
    assert search_early._LAST == []  # a dirty round: no counting its split would not take
    assert [r for r, _ in rounds] == ["_convert_range", "_render_range"] * 2
    assert parallel.MADE == [("data files", "forked"), ("outputs", "forked")] * 2
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "clean", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "clean")


def test_a_warning_in_a_worker_fails_the_strict_build(tmp_path, rounds, monkeypatch):
    from navlaw.site.mkdocs_build import build_site

    monkeypatch.setenv("NAVLAW_JOBS", "2")
    files = {"index.md": "# Home\n\nSee [the other page](other.md).\n",
             "other.md": "# Other\n\nA link to [nowhere](nowhere.md).\n"}
    with pytest.raises(SiteError, match="nowhere.md"):
        build_site(files, tmp_path / "site")
    assert rounds and rounds[0][0] == "_convert_range"


def test_no_processes_to_be_had_builds_the_same_site_here(tmp_path, corpus, monkeypatch):
    def no_fork(method):  # type: ignore[no-untyped-def]
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(mkdocs_parallel, "PARALLEL_AT", 1)
    monkeypatch.setattr(multiprocessing, "get_context", no_fork)  # imported by mkdocs_parallel where it forks
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    monkeypatch.undo()
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "serial", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "serial")


def test_an_unchanged_rebuild_after_outputs_written_by_another_process_links_them(tmp_path, corpus, rounds,
                                                                                  monkeypatch, capsys):
    """What the process that wrote OUT's files recorded of them (for the next build) comes back to the build:
    a rebuild with a changed page keeps OUT's unchanged files as links to the last build's."""
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    assert build(tmp_path, corpus) == 0
    def inode(name: str) -> int:
        return (tmp_path / "build" / name).stat().st_ino

    before = {name: inode(name) for name in ("tree/nav-law.consolidated.txt.json", "tariffs.json")}
    # the cache entry the other process stored (the tables of the pieces of the trees' JSON) is the build's: not
    # pruned
    tables = sorted((tmp_path / ".build-cache" / "out-pieces").glob("*.sealed"))
    assert len(tables) == 1
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert parallel.MADE.count(("outputs", "forked")) == 2
    assert inode("tree/nav-law.consolidated.txt.json") == before["tree/nav-law.consolidated.txt.json"]  # linked
    assert inode("tariffs.json") != before["tariffs.json"]  # changed: written afresh
    assert len(list((tmp_path / ".build-cache" / "out-pieces").glob("*.sealed"))) == 1


def test_work_that_fails_in_the_forked_process_is_made_again_here(monkeypatch):
    """A child that fails (an exception, or killed) is no error of its own: the work is made here, where its
    error, if it has one, is raised as one process raises it."""
    import os

    monkeypatch.setenv("NAVLAW_JOBS", "2")
    parent = os.getpid()
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        if os.getpid() != parent:
            raise ValueError("only in the child")
        return 42

    parallel.MADE.clear()
    assert parallel.later("failing", work).result() == 42
    assert calls == [parent] and parallel.MADE == [("failing", "here")]  # the child's call is its own

    def bad() -> int:
        raise ValueError("everywhere")

    with pytest.raises(ValueError, match="everywhere"):
        parallel.later("bad", bad).result()
    assert parallel.later("fine", lambda: {"a": [1, 2]}).result() == {"a": [1, 2]}
    assert parallel.MADE[-1] == ("fine", "forked")
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    made = parallel.later("serial", lambda: calls.append(-1))
    assert calls[-1] == -1 and parallel.MADE[-1] == ("serial", "here")  # made at once, in this process
    made.result()
    assert calls.count(-1) == 1


def test_pages_from_memory_are_the_files_mkdocs_finds_on_disk_in_its_order(tmp_path):
    """MkDocs' files made from memory (compiler/site/mkdocs_memory.py) come in the order, with the
    inclusion, that MkDocs gives the same files found on disk: the navigation, the pages' previous/next
    links and the search index follow that order."""
    from mkdocs.commands.build import get_files
    from mkdocs.config import load_config

    from navlaw.site.mkdocs_memory import memory_files

    docs = {name: f"# {name}\n" for name in (
        "index.md", "b.md", "a/index.md", "a/z.md", "a/b/c.md", "a/README.md", "a_b.md", "A.md", "z/y/x.md",
        "z/index.md", "data/1.json", "data/10.json", "data/2.json", ".hidden.md", "a/b/index.md", "law/index.md",
        "law/89-b.md", "law/89.md", "assets/x.css")}
    (tmp_path / "docs").mkdir()
    for name, text in docs.items():
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text(text, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nnot_in_nav: |\n  /law/*.md\n", encoding="utf-8")
    cfg = load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    on_disk = [(f.src_uri, f.inclusion, f.dest_uri) for f in get_files(cfg)]
    in_memory = memory_files(cfg, docs)
    assert [(f.src_uri, f.inclusion, f.dest_uri) for f in in_memory] == on_disk
    assert len(on_disk) == len(docs) - 1  # README.md gives way to the index beside it
    assert [f.content_string for f in in_memory] == [docs[f.src_uri] for f in in_memory]
