"""Files made only when what they are made from changed (issue 32): the keys of OUT's and the site's data
files (compiler/export/shapes.py, data_memo.py, pieces.py, akn_memo.py; compiler/outputs.py's write_files).

A key that misses an input gives a stale file: every test here that edits the corpus compares every output
file with a clean build's. The shape of a node (the key of its JSON) is checked against ``node_json`` itself:
equal shapes, equal JSON, and a change of any field a node's JSON shows changes its shape."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

import navlaw.export.akn as akn_module
import navlaw.export.api as api_module
import navlaw.export.pieces as pieces_module
from navlaw.cli import main
from navlaw.export.shapes import shape
from navlaw.frontend.corpus import Corpus
from navlaw.frontend.outline import node_json
from navlaw.model.nodes import Cell, Node, Row, Table

from .conftest import CONSOLIDATED, CORPUS
from .test_incremental import tree_bytes

OLD = "who shall have a practical knowledge of the construction"


def _tops(corpus: Corpus) -> list[tuple[Node, Any]]:
    return [(n, c.document.normal) for c in corpus.documents for top in c.document.children for n in top.walk()]


def test_equal_shapes_are_equal_json(corpus: Corpus) -> None:
    """Over every node of the corpus: nodes of one shape have one JSON (and the shape is a function of it)."""
    seen: dict[str, Any] = {}
    for node, nt in _tops(corpus):
        key = repr(shape(node, lambda n: nt, nt))
        got = node_json(node, lambda n: nt, nt)
        assert seen.setdefault(key, got) == got
    assert len(seen) > 500


def _changed(value: Any) -> Any:
    """Another value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, tuple) and value and isinstance(value[0], Row):
        row = value[0]
        return (dataclasses.replace(row, cells=(*row.cells, Cell("x", 0, 0, row.line, 99))), *value[1:])
    if isinstance(value, Row):
        return dataclasses.replace(value, cells=(*value.cells, Cell("x", 0, 0, value.line, 99)))
    if isinstance(value, tuple):
        return (*value, "x")
    return None


def test_a_field_the_json_shows_changes_the_shape(corpus: Corpus) -> None:
    """Every field of every kind of node (tables' cells too), changed: where the JSON changes, so does the
    shape. The offsets (start, end) count through the spans they give."""
    tried: set[tuple[str, str]] = set()
    for node, nt in _tops(corpus):
        for f in dataclasses.fields(node):
            if f.name == "children" or (type(node).__name__, f.name) in tried:
                continue
            new = _changed(getattr(node, f.name))
            if new is None:
                continue
            other = dataclasses.replace(node, **{f.name: new})
            try:
                changed_json = node_json(other, lambda n: nt, nt) != node_json(node, lambda n: nt, nt)
            except (IndexError, ValueError):  # an offset past the text
                continue
            if changed_json:
                tried.add((type(node).__name__, f.name))
                assert repr(shape(other, lambda n: nt, nt)) != repr(shape(node, lambda n: nt, nt)), (type(node), f.name)
    kinds = {k for k, _ in tried}
    assert {("Provision", "text"), ("Provision", "line"), ("Section", "heading"), ("Provision", "end")} <= tried
    assert "Table" in kinds and ("Table", "rows") in tried


def test_a_table_cells_offsets_are_not_its_shape(corpus: Corpus) -> None:
    """A table's cells hold offsets the JSON does not show (an edit above moves them): not in the shape."""
    node, nt = next((n, nt) for n, nt in _tops(corpus) if isinstance(n, Table) and n.rows)
    moved = dataclasses.replace(node, rows=tuple(dataclasses.replace(r, cells=tuple(
        dataclasses.replace(c, start=c.start + 5, end=c.end + 5) for c in r.cells)) for r in node.rows))
    assert repr(shape(moved, lambda n: nt, nt)) == repr(shape(node, lambda n: nt, nt))


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """What a build makes, in this process: each section's API JSON, Akoma Ntoso, and tree piece."""
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    got: dict[str, list[str]] = {"api": [], "akn": [], "piece": []}
    real_dumped, real_document, real_child = api_module._dumped, akn_module.Export.document, pieces_module._child

    def dumped(data: dict[str, Any], trees: Any) -> str:
        got["api"].append(data["section"])
        return real_dumped(data, trees)

    def document(self: Any, section: str, day: Any) -> str:
        got["akn"].append(section)
        return real_document(self, section, day)

    def child(node: Node, nt: Any, dump: Any) -> str:
        got["piece"].append(node.id)
        return real_child(node, nt, dump)

    monkeypatch.setattr(api_module, "_dumped", dumped)
    monkeypatch.setattr(akn_module.Export, "document", document)
    monkeypatch.setattr(pieces_module, "_child", child)
    return got


def _build(tmp: Path, corpus: Path, name: str, *extra: str) -> None:
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp / name), "--module", str(tmp / f"{name}-fees"),
                 *extra]) == 0


def _same_as_clean(tmp: Path, corpus: Path) -> None:
    shutil.rmtree(tmp / "clean", ignore_errors=True)
    _build(tmp, corpus, "clean", "--no-cache")
    got, want = tree_bytes(tmp / "out"), tree_bytes(tmp / "clean")
    got = {k: v for k, v in got.items() if not k.startswith("site/")}  # the site: MkDocs' (its own tests)
    want = {k: v for k, v in want.items() if not k.startswith("site/")}
    assert sorted(got) == sorted(want)
    assert [k for k in got if got[k] != want[k]] == []


@pytest.mark.parametrize("new", [
    OLD.replace("practical", "thorough"),  # a word of another length: the columns after it move, on its line
    OLD.replace("practical", "practicak"),  # one letter
    OLD.replace("a practical", "a\npractical"),  # a line more: every later line moves
])
def test_an_edit_of_one_section_makes_that_section_s_files(tmp_path: Path, made: dict[str, list[str]],
                                                            new: str) -> None:
    """Inside one process (as `navlaw serve` builds): from its second build on, an edit of one section makes
    that section's API JSON, Akoma Ntoso and tree piece, and no other (unless the edit moves every later
    line); every output is a clean build's, edit after edit."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    path = corpus / CONSOLIDATED
    text = path.read_text(encoding="utf-8")
    assert text.count(OLD) == 1
    for i, now in enumerate([text, text.replace(OLD, new), text, text.replace(OLD, new)]):
        path.write_text(now, encoding="utf-8")
        for v in made.values():
            v.clear()
        _build(tmp_path, corpus, "out")
        if i < 2:  # the first build, and the first whose API files are keyed
            continue
        if "\n" in new:  # every later section's lines moved: their JSON, not their Akoma Ntoso
            assert len(made["api"]) > 100 and made["akn"] == ["12"] and len(made["piece"]) > 5
        else:
            assert made == {"api": ["12"], "akn": ["12"], "piece": ["article-2"]}
        _same_as_clean(tmp_path, corpus)


def test_a_one_off_build_keys_no_api_file(tmp_path: Path, made: dict[str, list[str]]) -> None:
    """A process's first build makes the API files without their keys (a fresh `navlaw build`): the same files."""
    import navlaw.export.data_memo as data_memo

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    data_memo._LAST.clear()
    _build(tmp_path, corpus, "out")
    assert data_memo._LAST["api"][1] == {}  # the next build's memo: there, empty
    _same_as_clean(tmp_path, corpus)


def test_bare_is_content(corpus: Corpus) -> None:
    """The key of each section's Akoma Ntoso (shapes.bare) tells nodes apart as model/content.content does:
    over every node of the corpus, equal bare shapes are equal contents and unequal ones unequal; a node
    moved (offsets, line, column, its table's cells') has its bare shape."""
    from navlaw.export.shapes import bare
    from navlaw.model.content import content

    by_bare: dict[str, str] = {}
    by_content: dict[str, str] = {}
    for node, _ in _tops(corpus):
        b, c = repr(bare(node)), content(node)
        assert by_bare.setdefault(b, c) == c and by_content.setdefault(c, b) == b
        moved = dataclasses.replace(node, start=node.start + 3, end=node.end + 3, line=node.line + 1, column=9)
        if isinstance(node, Table):
            moved = dataclasses.replace(moved, rows=tuple(dataclasses.replace(r, line=r.line + 1, cells=tuple(
                dataclasses.replace(c, start=c.start + 3, line=c.line + 1) for c in r.cells)) for r in node.rows))
        assert repr(bare(moved)) == b
    assert len(by_bare) > 300
