"""Work is given another process by what it will make, not by the corpus's size (issue 32: at 10x, after a
one-word edit, forking the data files and OUT's files cost ~0.37 s of CPU more than making them here). A full
build forks both; an edit's few files are made here; either way the outputs are a clean one-process build's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from navlaw import parallel
from navlaw.export import data_memo
from navlaw.export.streamed import Files
from navlaw.outputs import to_write

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, tree_bytes

AMENDED_AGAIN = AMENDED_2027.replace("thirty", "forty")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    from .conftest import CORPUS

    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def test_an_edits_few_files_are_made_here_a_full_builds_forked(tmp_path, corpus, monkeypatch):
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    monkeypatch.setattr(parallel, "WORTH_AT", 40)  # the small corpus's ~200 sections: a full build's work is more
    monkeypatch.setattr(data_memo, "_LAST", {})  # this test's process has built nothing yet
    parallel.MADE.clear()
    assert build(tmp_path, corpus) == 0  # a full build: every file made and written
    assert parallel.MADE == [("data files", "forked"), ("outputs", "forked")]
    amend(corpus, RATE_2027, AMENDED_2027)
    # the first build that keys the API's files (a process's first build keeps none): every one is new
    assert build(tmp_path, corpus) == 0
    assert parallel.MADE[2:] == [("data files", "forked"), ("outputs", "forked")]
    amend(corpus, AMENDED_2027, AMENDED_AGAIN)
    assert build(tmp_path, corpus) == 0  # an edit: its few data files and OUT's few new files, here
    assert parallel.MADE[4:] == [("data files", "here"), ("outputs", "here")]
    monkeypatch.setattr(data_memo, "_LAST", {})
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "clean", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "clean")


def test_an_edit_that_changes_many_files_forks_their_making(tmp_path, corpus, monkeypatch):
    """The memo held, every file keyed here; when the files whose key is new are many, they are made in
    another process, the rest kept, and the outputs are a clean build's."""
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    monkeypatch.setattr(data_memo, "_LAST", {})
    assert build(tmp_path, corpus) == 0
    assert set(data_memo._LAST) == {"api", "akn"}  # held: the next build keys every file here
    # the memo held, but every file's text forgotten (as when every section changed): all are work again
    for kind, (root, _) in list(data_memo._LAST.items()):
        data_memo._LAST[kind] = (root, {})
    monkeypatch.setattr(parallel, "WORTH_AT", 40)
    parallel.MADE.clear()
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert parallel.MADE[0] == ("data files", "forked")
    monkeypatch.setattr(data_memo, "_LAST", {})
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "clean", "--no-cache") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "clean")


def test_the_files_to_write_are_those_the_last_build_did_not_record_so():
    files = Files()
    for name in ("same", "changed", "new", "plain", "plain-new"):
        files.put(name, lambda: "text")
    files.file_keys.update({"same": "a", "changed": "b", "new": "c"})
    known = {"same": ("k:a", 4, 1), "changed": ("k:old", 4, 1), "plain": ("digest", 4, 1)}
    assert to_write(files, known) == 3  # changed, new, plain-new (plain: digested, linked as a rule)
    assert to_write(files, None) == to_write(files, {}) == 5
