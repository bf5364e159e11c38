"""Bounded memory (issue 32): a build's output files are made one at a time as they are written, not all
held at once; the tree JSON is written a top-level child at a time, byte for byte the whole dump; the case
book reads the corpus's words without a list of them all; a compiled document holds its text once (the
normalised text and its tree, not the raw text beside them) in slotted nodes. Measured by counting
(tracemalloc's bytes, calls, objects), never by the clock."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import random
import re
import sys
import tracemalloc
from collections import Counter
from pathlib import Path
from types import FunctionType, ModuleType

import pytest

from navlaw.build import compile_law, dump, outputs, write_files
from navlaw.export.streamed import Files, tree_json
from navlaw.frontend.corpus import compile_corpus
from navlaw.frontend.load import load
from navlaw.frontend.newmatter import CaseBook
from navlaw.frontend.outline import document_json
from navlaw.model import nodes

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
    # once untraced, of another corpus: what outputs() imports and compiles is not the files' memory (and what
    # law3 derives and keeps, its Akoma Ntoso above all, is still made under the trace)
    outputs(compile_law(str(ROOT / "corpus"), None, relative=True))
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


def test_tree_nodes_are_slotted_and_pickle(corpus):
    """Every node, row and cell of the tree keeps its fields in slots, without a dict of its own (a node was
    ~190 bytes, now ~110: at 500 copies of the consolidated text, 300,000 nodes); the cache's pickles still
    give the same tree back."""
    classes = {type(n) for c in corpus.documents for n in c.document.walk()}
    assert {nodes.Document, nodes.Section, nodes.Provision, nodes.Text, nodes.Table} <= classes
    for cls in [*classes, nodes.Cell, nodes.Row, nodes.Formula, nodes.Part, nodes.Article]:
        assert dataclasses.is_dataclass(cls) and "__slots__" in vars(cls), cls
    table = next(n for c in corpus.documents for n in c.document.walk() if isinstance(n, nodes.Table))
    for x in (corpus.documents[0].document, table, table.rows[0], table.rows[0].cells[0]):
        assert not hasattr(x, "__dict__"), type(x)
    for c in corpus.documents:
        again = pickle.loads(pickle.dumps(c.document))
        assert again == c.document and list(again.walk()) == list(c.document.walk())
        assert again.normal is not None and again.normal.raw == c.source.text


def _strings_held(root: object) -> list[str]:
    """Every str reachable from ``root`` through objects' references (types, modules and functions, which
    are the program's, not the document's, not followed)."""
    seen, out, todo = set(), [], [root]
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, (type, ModuleType, FunctionType)):
            continue
        seen.add(id(x))
        if isinstance(x, str):
            out.append(x)
        else:
            todo.extend(gc.get_referents(x))
    return out


def test_a_compiled_document_holds_no_raw_text(corpus):
    """Once a document's tree is built, neither the document nor its source keeps the file's raw text (a
    second copy of the text, two bytes a character as soon as one character is past Latin-1, as the
    corpus's mojibake "ｧ" is): the normalised text is the only whole text held, and the raw text, its
    slices, lines and searches are made from it and the edits, each exactly the file's."""
    for c in corpus.documents:
        nt = c.document.normal
        assert nt is not None and not nt.raw_held and c.source.held == "", c.source.path
        whole = [x for x in _strings_held(c) if len(x) >= len(nt.text) // 2 and len(x) > 1000]
        assert all(x is nt.text for x in whole), (c.source.path, [len(x) for x in whole])
        raw = load(Path(corpus.root) / c.source.path).text
        assert c.source.text == raw and nt.raw_length == len(raw)
        lines = raw.split("\n")
        assert [nt.raw_line(k) for k in range(1, len(lines) + 1)] == lines
        pick = random.Random(c.source.path)
        for _ in range(500):
            a = pick.randrange(len(raw) + 1)
            b = min(len(raw), a + pick.randrange(400))
            assert nt.raw_slice(a, b) == raw[a:b]
        for needle in ("ｧ", "§", "..SO DOC", raw[-40:], raw[1000:1100]):
            assert c.source.contains(needle) == (needle in raw)
        assert c.source.starts(raw[:12]) and not c.source.starts(raw[:11] + "\x00")
    assert any("ｧ" in c.source.text for c in corpus.documents)  # a raw text that differs from its normal one


def test_what_the_front_end_holds_grows_by_its_text_once(tmp_path, corpus):
    """What a compiled corpus holds (tracemalloc's bytes, measured at 2 and 6 copies of the consolidated text,
    after ``corpus`` has built the parser once) grows by under 5 bytes a byte of corpus: 3.7 now, the
    normalised text (1), the tree's own text (1), the nodes, their ids, labels and citations; 6.2 when the raw
    text (2: one character past Latin-1) was held beside them and the nodes had dicts."""
    from make_corpus import make

    held = []
    for copies in (2, 6):
        root = make(copies, tmp_path / f"corpus{copies}")
        size = sum(p.stat().st_size for p in root.iterdir() if p.name != "manifest.toml")
        gc.collect()
        tracemalloc.start()
        try:
            compiled = compile_corpus(root, None, relative=True)
            gc.collect()
            held.append((size, tracemalloc.get_traced_memory()[0]))
        finally:
            tracemalloc.stop()
        assert compiled.documents
        del compiled
    (small, at_small), (large, at_large) = held
    growth = (at_large - at_small) / (large - small)
    assert 2.0 < growth < 5.0, (growth, held)
