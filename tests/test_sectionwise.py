"""The law stage's finders section by section (compiler/law/sectionwise.py, issue 32): after a one-word edit of
one section of the consolidated document only that section is searched again, and what is found is what a
search of the whole edited document finds (the references of every later section moved with the edit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from navlaw.frontend.corpus import compile_file
from navlaw.law import definitions, references, sectionwise
from navlaw.model.nodes import Section

from .conftest import CONSOLIDATED, CORPUS

OLD = "who shall have a practical knowledge of the construction"


def whole(module, doc):  # type: ignore[no-untyped-def]
    """The finder over the whole document at once: what it found before it went by section."""
    return module._find_nodes(doc.walk(), doc.normal.text, doc.file, "")


@pytest.mark.parametrize("module", [definitions, references], ids=["definitions", "references"])
def test_an_edit_searches_the_edited_section_again_and_finds_what_a_whole_search_finds(tmp_path: Path, module,
                                                                                      monkeypatch) -> None:
    path = tmp_path / CONSOLIDATED
    text = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    searched: list[str] = []
    real = module._find_nodes

    def counted(nodes, text, file, article):  # type: ignore[no-untyped-def]
        nodes = list(nodes)
        searched.extend(n.id for n in nodes if isinstance(n, Section))
        return real(nodes, text, file, article)
    monkeypatch.setattr(sectionwise, "_MEMO", {})
    monkeypatch.setattr(sectionwise, "_AGAIN", set())
    doc = compile_file(path)
    sections = len(doc.sections())
    for _ in range(2):  # a one-off build keeps no memo: the first search of a document in a process
        monkeypatch.setattr(module, "_find_nodes", counted)
        got = module._find_in(doc)
        monkeypatch.setattr(module, "_find_nodes", real)
        assert got == whole(module, doc) and got
    assert len(searched) == 2 * sections
    # § 12, early in the document: every section after it starts 3 characters earlier
    assert text.count(OLD) == 1 and text.index(OLD) < len(text) // 10
    path.write_text(text.replace(OLD, OLD.replace("practical", "sound")), encoding="utf-8")
    edited = compile_file(path)
    searched.clear()
    monkeypatch.setattr(module, "_find_nodes", counted)
    got = module._find_in(edited)
    monkeypatch.setattr(module, "_find_nodes", real)
    assert searched == ["12"]
    assert got == whole(module, edited)
    if module is references:  # the offsets of the references after § 12 moved with the edit
        later = [r for r in got if r.start > text.index(OLD)]
        assert later and all(edited.normal.text[r.start:r.end] == r.text for r in later)


def test_a_section_whose_article_changes_is_searched_again(tmp_path: Path, monkeypatch) -> None:
    """A definition "as used in this article" holds in the article the section stands in: a section moved to
    another article (its own text unchanged) is searched again, and its definitions name the new article."""
    monkeypatch.setattr(sectionwise, "_MEMO", {})
    monkeypatch.setattr(sectionwise, "_AGAIN", set())
    path = tmp_path / "doc.txt"
    body = ('§ 1. Terms.\n"Vessel", as used in this article, shall mean every description of watercraft.\n'
            '§ 2. Other.\nNothing here.\n')
    path.write_text("ARTICLE 1\nFIRST\n" + body, encoding="utf-8")
    for _ in range(2):
        doc = compile_file(path)
        assert [d.scope for d in definitions._find_in(doc)] == ["article:1"]
    path.write_text("ARTICLE 2\nFIRST\n" + body, encoding="utf-8")
    doc = compile_file(path)
    assert [d.scope for d in definitions._find_in(doc)] == ["article:2"] == [
        d.scope for d in whole(definitions, doc)]


def test_the_second_finder_takes_the_digests_of_the_same_document_only(tmp_path: Path, monkeypatch) -> None:
    """The sections' digests are made once per document and shared by the finders (the law stage's references,
    then the site's definitions); another document of the same file (an edit) has its own made again, so its
    edited section is searched again and what is found is what a whole search finds."""
    monkeypatch.setattr(sectionwise, "_MEMO", {})
    monkeypatch.setattr(sectionwise, "_AGAIN", set())
    monkeypatch.setattr(sectionwise, "_KEYS", {})
    made: list[int] = []
    real = sectionwise._inputs

    def counted(*args):  # type: ignore[no-untyped-def]
        made.append(1)
        return real(*args)
    monkeypatch.setattr(sectionwise, "_inputs", counted)
    path = tmp_path / CONSOLIDATED
    text = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    doc = compile_file(path)
    sections = len(doc.sections())
    definitions._find_in(doc)
    references._find_in(doc)
    assert len(made) == sections  # the digests of the first search only
    assert doc.file not in sectionwise._KEYS  # taken once: the document is not held after its build
    definitions._find_in(doc)  # the definitions' memo of this document is kept from its second search on
    assert len(made) == 2 * sections
    path.write_text(text.replace(OLD, OLD.replace("practical", "sound").replace("knowledge", '"knowledge"')
                                 + ' "Knowledge" shall mean what an inspector knows.'), encoding="utf-8")
    edited = compile_file(path)
    made.clear()
    got = definitions._find_in(edited)  # a new document of the same file: its digests are its own
    assert len(made) == sections
    assert got == whole(definitions, edited) and any(d.term.lower() == "knowledge" for d in got)
