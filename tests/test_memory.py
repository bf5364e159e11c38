"""Bounded memory (issue 32): a build's output files are made one at a time as they are written, not all
held at once; the tree JSON is written a top-level child at a time, byte for byte the whole dump; the case
book reads the corpus's words without a list of them all. Measured by counting (tracemalloc's bytes,
calls), never by the clock."""

from __future__ import annotations

import re
import sys
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

from navlaw.build import compile_law, dump, outputs, write_files
from navlaw.export.streamed import Files, tree_json
from navlaw.frontend.newmatter import CaseBook
from navlaw.frontend.outline import document_json

from .conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))


def test_tree_json_in_pieces_is_the_whole_dump(corpus):
    for c in corpus.documents:
        pieces = list(tree_json(c.document, dump))
        assert "".join(pieces) == dump(document_json(c.document)) + "\n"
        assert len(pieces) == len(c.document.children) + 2 if c.document.children else len(pieces) == 1


def test_files_are_made_when_written_and_not_kept(tmp_path):
    made = Counter[str]()

    def text(name: str) -> str:
        made[name] += 1
        return f"{name}\n" * 1000

    files = Files()
    files.put("a.txt", lambda: text("a"))
    files.stream("b/c.json", lambda: iter(text("c").splitlines(keepends=True)))
    files["d.md"] = "plain\n"
    assert made == {} and sorted(files) == ["a.txt", "b/c.json", "d.md"]
    written = write_files(tmp_path, files)
    assert made == {"a": 1, "c": 1}  # each made once, at its writing
    assert (tmp_path / "b" / "c.json").read_text() == "c\n" * 1000 and (tmp_path / "d.md").read_text() == "plain\n"
    plain = write_files(tmp_path / "again", {"a.txt": text("a"), "b/c.json": text("c"), "d.md": "plain\n"})
    assert [v[:2] for v in written.values()] == [v[:2] for v in plain.values()]  # digest and size as for a str
    assert files["a.txt"] == text("a")  # read whole: made again, not kept


@pytest.fixture(scope="module")
def law3(tmp_path_factory):
    from make_corpus import make

    corpus = make(3, tmp_path_factory.mktemp("corpus3") / "corpus")
    return compile_law(str(corpus), None, relative=True)


def test_writing_the_outputs_holds_one_file_at_a_time(law3, tmp_path):
    """outputs() makes no file's text (it did: akn/ and every tree JSON, more than all it writes; now
    it keeps their names and the functions that make them), and
    writing them allocates at its peak not much more than what it writes (the largest file made whole,
    tariffs.json with its dict; the sections composed for akn/, kept by the timeline)."""
    tracemalloc.start()
    try:
        files = outputs(law3)
        after_outputs = tracemalloc.get_traced_memory()[0]
        write_files(tmp_path, files)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    written = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert written > 3_000_000
    assert after_outputs < written / 4, (after_outputs, written)  # names and the functions that make them
    assert peak < 2 * written, (peak, written)


def test_case_book_counts_without_a_list_of_every_word(corpus):
    """The case book counts paragraph by paragraph (compiler/frontend/casecount.py; that its counts are the
    whole text's is tests/test_casecount.py): what it holds while counting is not a match per word of the
    corpus (which was ~20x the text, most of a large build's peak memory)."""
    text = "\n".join(c.document.normal.text for c in corpus.documents if c.document.normal is not None)
    text = text + "\n" + re.sub(r"(?m)^(\d+)", r"1\1", text)  # two copies: the vocabulary stays, the words double
    book = CaseBook()
    book.learn(text)
    tracemalloc.start()
    try:
        assert book.counts and book.pairs
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # held while counting, beyond what it keeps: about the text's size (its paragraphs' list), not the ~20x of
    # a match per word (or the ~70x of counting the whole text at once, as by-paragraph counting first did)
    assert peak - current < 2 * len(text), (peak, current, len(text))
