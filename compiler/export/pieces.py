"""A large file whose pieces are taken from the last build's copy when they are made from the same thing
(issue 32: a one-word edit of one section of the large document made its whole tree JSON again, ~0.1 s of
CPU at 10x the corpus, to change one article's piece of it).

A document's tree JSON (OUT/tree/) is its head, then each top-level child's JSON, then its tail
(export/streamed.py's ``tree_json``). Here each child's piece comes with a key, the digest of its shape
(export/shapes.py: everything its JSON is made from); when the file is written (compiler/outputs.py's
write_files), a piece whose key is one of a piece of the last build's copy of the file is read from that copy
(its bytes, where the table of that copy's pieces says they are), the rest is made. The tables are one cache
entry, written with the files; a copy is read only when it is as that build left it (its size and time).
A copy is read a piece at a time: a build holds one piece's text, never the whole file."""

from __future__ import annotations

import dataclasses
import os
import stat
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Union

from navlaw.cache import BuildCache, digest
from navlaw.export.data_memo import last
from navlaw.export.shapes import keyed_shape, shape
from navlaw.frontend.outline import document_json, node_json
from navlaw.model.nodes import Document, Node
from navlaw.model.text import NormalText

STAGE = "out-pieces"

Piece = tuple[str, Union[str, Callable[[], str]]]  # (key, or "" for a piece always made; its text or its maker)
Table = tuple[int, int, dict[str, tuple[int, int]]]  # a file's size and time as written, key -> (offset, length)

_MARK = "navlaw-streamed-children-9f1c"


@dataclasses.dataclass(frozen=True)
class Reusable:
    """A file's text given as pieces with keys (``Piece``), in order."""

    make: Callable[[], Iterator[Piece]]

    def texts(self) -> Iterator[str]:
        for _, piece in self.make():
            yield piece if isinstance(piece, str) else piece()


def tree_pieces(doc: Document, dump: Callable[[Any], str]) -> Iterator[Piece]:
    """export/streamed.py's ``tree_json(doc, dump)``, its top-level children's pieces with their keys."""
    if not doc.children:
        yield "", dump(document_json(doc)) + "\n"
        return
    text = dump({**document_json(dataclasses.replace(doc, children=())), "children": [_MARK]})
    mark = f'"{_MARK}"'
    assert text.count(mark) == 1 and text.count(_MARK) == 1, "the mark is found once, where the items go"
    at = text.index(mark)
    yield "", text[:at]
    nt = doc.normal
    for i, child in enumerate(doc.children):
        if i:
            yield "", ",\n    "
        made = keyed_shape(child, nt) if nt is not None else shape(child, lambda n: nt, nt)  # sections' keys shared
        yield digest("tree-piece", repr(made)), partial(_child, child, nt, dump)
    yield "", text[at + len(mark):] + "\n"


def _child(child: Node, nt: NormalText | None, dump: Callable[[Any], str]) -> str:
    return dump(node_json(child, lambda n: nt, nt)).replace("\n", "\n    ")


def write_reusing(path: str, pieces: Iterator[Piece], copy: str | None, table: Table | None) -> Table:
    """Write the pieces to ``path``; a keyed piece found in ``table`` (of the last build's copy ``copy``)
    read from the copy, when the copy is as ``table`` says it was written. Returns the new file's table."""
    old: dict[str, tuple[int, int]] = {}
    src = -1
    if copy is not None and table is not None:
        try:
            src = os.open(copy, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            st = os.fstat(src)
            if (st.st_size, st.st_mtime_ns) == table[:2] and stat.S_ISREG(st.st_mode):
                old = table[2]
        except OSError:
            pass
    new: dict[str, tuple[int, int]] = {}
    at = 0
    try:
        with open(path, "wb") as f:
            for key, piece in pieces:
                got = old.get(key) if key else None
                data = os.pread(src, got[1], got[0]) if got is not None else b""
                if got is None or len(data) != got[1]:
                    data = (piece if isinstance(piece, str) else piece()).encode("utf-8")
                f.write(data)
                if key:
                    new[key] = (at, len(data))
                at += len(data)
    finally:
        if src >= 0:
            os.close(src)
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns, new


def key_sections(docs: Iterable[Document], cache: BuildCache | None) -> None:
    """Every section's key (export/shapes.py's ``section_key``, kept with its text) made now, in a rebuild in
    one process (`navlaw serve`; ``cache`` has the data files of its last build): such a build makes the site's
    data files and OUT's files in two forked processes (compiler/parallel.py), and both key every section of
    every document; made here before the forks, each section's key is made once, not once in each. (A build in
    a fresh process keys no data file: nothing is made here.)"""
    if last("api", cache) is None:
        return
    for doc in docs:
        nt = doc.normal
        if nt is not None:
            for child in doc.children:
                keyed_shape(child, nt)
