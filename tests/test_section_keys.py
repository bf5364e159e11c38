"""One key per section, shared (issue 32): the section's data file (compiler/export/api.py) and its article's
piece of the tree JSON (compiler/export/pieces.py) are keyed on ``shapes.section_key``, made once per section
of a build, not walked and digested once per file.

A key that misses an input gives a stale file. So, over the consolidated law compiled before and after each
kind of edit (in one process, as `navlaw serve` compiles it after a save): a section's key is the same after the
edit exactly when its JSON is, and so is an article's (its piece's key, made of its sections' keys)."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

import navlaw.export.shapes as shapes
from navlaw.export.api import text_of
from navlaw.export.shapes import Same, keyed_shape, section_key, shape
from navlaw.frontend import chunks
from navlaw.frontend.corpus import compile_source
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.outline import node_json
from navlaw.model.nodes import Document, Node, Section

from .conftest import CONSOLIDATED, CORPUS

NAV = (CORPUS / CONSOLIDATED).read_text(encoding="utf-8")
WORD = "who shall have a practical knowledge of the construction"


def _compile(text: str) -> Document:
    return compile_source(SourceDocument(CONSOLIDATED, text, "", len(text.encode())), memo=True)


def _one(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def _crlf(text: str) -> str:
    """One line of § 12 ended with CR LF (its raw end column moves; its text does not)."""
    at = text.index(WORD)
    nl = text.index("\n", at)
    return text[:nl] + "\r" + text[nl:]


EDITS: dict[str, Callable[[str], str]] = {
    "word": lambda t: _one(t, WORD, WORD.replace("practical", "thorough")),
    "word, same length": lambda t: _one(t, WORD, WORD.replace("practical", "practicel")),
    # a line added near the top: every later section's lines move (its JSON's line numbers change)
    "line added early": lambda t: _one(t, "ｧ 2. Definitions.", "ｧ 2. Definitions.\n\nA new paragraph.\n"),
    # the offsets of every later section move, their lines do not
    "words added early": lambda t: _one(t, "ｧ 2. Definitions.", "ｧ 2. Definitions of terms."),
    "heading": lambda t: _one(t, "ｧ 12. Inspector; qualifications.", "ｧ 12. Inspector; his qualifications."),
    "line ending": _crlf,
    # the section sign as received: mojibake "ｧ" or "§" (the same law, read from another raw character)
    "section sign": lambda t: _one(t, "ｧ 12. Inspector", "§ 12. Inspector"),
}


def _by_id(doc: Document) -> dict[str, Node]:
    return {n.id: n for n in doc.walk() if n.id and type(n) is Section}


def _json(node: Node, doc: Document) -> str:
    nt = doc.normal
    return json.dumps(node_json(node, lambda n: nt, nt), ensure_ascii=False)


@pytest.fixture(scope="module")
def before() -> Document:
    chunks.forget()
    return _compile(NAV)


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_section_key_changes_exactly_when_its_json_does(before: Document, name: str) -> None:
    _compile(NAV)  # the memo of the text before the edit (the chunks of the last compile are reused)
    after = _compile(EDITS[name](NAV))
    assert after.normal is not None and before.normal is not None
    old, new = _by_id(before), _by_id(after)
    changed = same = 0
    for sid, node in new.items():
        if sid not in old:
            continue
        equal_json = _json(node, after) == _json(old[sid], before)
        equal_key = section_key(node, after.normal) == section_key(old[sid], before.normal)
        assert equal_key == equal_json, (name, sid)
        changed += not equal_json
        same += equal_json
    # CR LF and the sign as received change no section's JSON (the words' raw spans are where they were)
    assert changed >= (0 if name in ("line ending", "section sign") else 1), (changed, same)
    assert same >= (0 if name == "line added early" else 50), (changed, same)
    # the pieces of the tree JSON: an article's key (its sections' keys in it) the same exactly when its JSON is
    for a, b in zip(before.children, after.children):
        if a.id == b.id:
            equal_json = _json(a, before) == _json(b, after)
            assert (repr(keyed_shape(a, before.normal)) == repr(keyed_shape(b, after.normal))) == equal_json, a.id


def test_a_section_key_is_the_digest_of_its_shape(before: Document) -> None:
    nt = before.normal
    assert nt is not None
    for node in list(_by_id(before).values())[:40]:
        assert section_key(node, nt) == shapes.digest("section-shape", repr(shape(node, lambda n: nt, nt)))


def test_each_section_is_walked_once_for_both_files(before: Document, monkeypatch: pytest.MonkeyPatch) -> None:
    """The data files' keys, then the tree pieces' keys: the second walks no section again."""
    doc = _compile(NAV + "\n")  # new node objects: nothing kept from another test
    nt = doc.normal
    assert nt is not None
    walked: list[Node] = []
    real = shapes.shape

    def counting(node: Node, *args: Any) -> Any:
        walked.append(node)
        return real(node, *args)

    monkeypatch.setattr(shapes, "shape", counting)
    sections = list(_by_id(doc).values())
    keys = [section_key(s, nt) for s in sections]
    first = sum(type(n) is Section for n in walked)
    assert first == len(sections)
    walked.clear()
    for child in doc.children:
        keyed_shape(child, nt)
    assert not [n for n in walked if type(n) is Section]
    assert [section_key(s, nt) for s in sections] == keys


def test_a_section_read_from_one_text_shares_its_key(corpus: Any) -> None:
    """api.text_of gives ``Same`` for a section whose parts are all read from one text (so its key is shared);
    a section made of several texts keeps its finder, node by node."""
    from navlaw.law import build_timeline

    timeline = build_timeline(corpus)
    kinds = set()
    for s in timeline.sections():
        comp = timeline.latest(s)
        if comp.section is None:
            continue
        find = text_of(corpus, comp)
        nts = {id(find(n)) for n in comp.section.walk()}
        kinds.add(isinstance(find, Same))
        if isinstance(find, Same):
            assert nts == {id(find.nt)}
    assert True in kinds


def test_the_keys_go_with_their_text() -> None:
    """The keys are kept by normalized text (weakly): a document let go takes its sections' keys with it, so
    `navlaw serve` holds no more keys after a hundred edits than after one."""
    import gc

    doc = _compile(NAV + "\n\n")
    nt = doc.normal
    assert nt is not None
    for s in _by_id(doc).values():
        section_key(s, nt)
    assert nt in shapes._KEYS and len(shapes._KEYS[nt]) == len(_by_id(doc))
    held = len(shapes._KEYS)
    del doc, nt, s
    gc.collect()
    assert len(shapes._KEYS) == held - 1


def test_the_keys_are_made_before_the_forks_only_in_a_rebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    """pieces.key_sections (build.site_pages, before the data files' process is forked) keys every section only
    when this process has the data files of a last build (a rebuild: both forked processes key every section);
    a build in a fresh process keys none there."""
    import navlaw.export.pieces as pieces

    doc = _compile(NAV + "\n\n\n")
    nt = doc.normal
    assert nt is not None
    pieces.key_sections([doc], None)
    assert nt not in shapes._KEYS
    monkeypatch.setattr(pieces, "last", lambda kind, cache: {})  # as after a first build in this process
    pieces.key_sections([doc], None)
    assert len(shapes._KEYS[nt]) == len(_by_id(doc))
