"""What a node's JSON is made from, as one value, for the memos of the files that hold it (issue 32): after
an edit of one section of a large document the tree is built again (new nodes, the offsets of every later
node moved), but most sections' files are the same text as before.

``shape(node, text_of)`` mirrors ``navlaw.frontend.outline.node_json(node, text_of)``: every field of every
node it reads (all of them but ``start``, ``end`` and ``children``: a superset) and, in place of the offsets
into the normalized text, the raw spans ``node_json`` computes from them, each with the normalized text
``node_json`` would take for it. Two nodes of equal shape have the same JSON: tests/test_file_keys.py
checks it on every section of the corpus and on nodes changed field by field. A shape costs about a third of
the JSON it stands for (most of it the spans)."""

from __future__ import annotations

import dataclasses
import weakref
from operator import attrgetter
from typing import Any, Callable

from navlaw.cache import digest
from navlaw.frontend.outline import SpanOf, raw_span
from navlaw.model.nodes import Node, Provision, Row, Section, Table, Text
from navlaw.model.text import NormalText

_SKIP = frozenset({"start", "end", "children"})  # offsets (their spans stand for them) and the children (walked)
_PLACE = _SKIP | {"line", "column"}  # where a node is in its file
_FIELDS: dict[type, Callable[[Any], Any]] = {}
_BARE: dict[type, Callable[[Any], Any]] = {}


def _getter(made: dict[type, Callable[[Any], Any]], node: Node, skip: frozenset[str]) -> Callable[[Any], Any]:
    """One attrgetter per node class, of its fields less ``skip`` (made once, kept in ``made``)."""
    get = made.get(type(node))
    if get is None:
        get = made[type(node)] = attrgetter(*[f.name for f in dataclasses.fields(node) if f.name not in skip])
    return get


def _fields(node: Node) -> Any:
    got = _getter(_FIELDS, node, _SKIP)(node)
    return tuple(_rows(v) for v in got) if type(node) is Table else got


def _rows(value: Any) -> Any:
    """A table's row (or rows) as ``row_json`` reads it: each cell's text, line and column (not its offsets,
    which move with every edit above it), and the row's line and column."""
    if isinstance(value, Row):
        return value.line, value.column, tuple((c.text, c.line, c.column) for c in value.cells)
    if isinstance(value, tuple) and value and isinstance(value[0], Row):
        return tuple(_rows(r) for r in value)
    return value


class Same:
    """A ``text_of`` that gives one normalized text for every node (a document's own tree, a section read from
    one text): the shapes of its sections are digested once per build (``section_key``), whoever asks."""

    __slots__ = ("nt",)

    def __init__(self, nt: NormalText) -> None:
        self.nt = nt

    def __call__(self, node: Node) -> NormalText:
        return self.nt


# a normalized text -> id(section) -> (the section, its key): kept while the text is (a build's document), the
# section held so that its id is not another's; only sections, which hold no reference to their document's text
_KEYS: weakref.WeakKeyDictionary[NormalText, dict[int, tuple[Node, str]]] = weakref.WeakKeyDictionary()


def section_key(node: Section, nt: NormalText) -> str:
    """The digest of ``shape(node, Same(nt))``, made once per section object and text: the data file of the
    section (compiler/export/api.py) and the piece of its document's tree JSON (compiler/export/pieces.py) are
    keyed on it, so a build (in one process) walks and digests each section once, not once a file."""
    memo = _KEYS.get(nt)
    if memo is None:
        memo = _KEYS[nt] = {}
    got = memo.get(id(node))
    if got is not None and got[0] is node:
        return got[1]
    key = digest("section-shape", repr(shape(node, Same(nt), nt)))
    memo[id(node)] = (node, key)
    return key


def keyed_shape(node: Node, nt: NormalText) -> tuple[Any, ...]:
    """``shape(node, Same(nt))`` with each section in it as its ``section_key``: as unique a key of the node's
    JSON (a digest stands for each section's shape), made of the sections' keys already made."""
    if type(node) is Section:
        return ("section", section_key(node, nt))
    return shape(node, Same(nt), nt, lambda c: section_key(c, nt) if type(c) is Section else None)


def shape(node: Node, text_of: SpanOf | None = None, _nt: NormalText | None = None,
          _sub: Callable[[Node], str | None] | None = None) -> tuple[Any, ...]:
    """Everything ``node_json(node, text_of)`` reads, as a tuple (``repr`` it for a key: a node's fields are
    strings, numbers and tuples of them, tables' rows dataclasses whose ``repr`` shows all of them).
    ``_sub``: a descendant's key to put in place of its shape (``keyed_shape``), where it gives one."""
    nt = text_of(node) if text_of is not None and (node.id or _nt is None) else _nt
    kids = node.children
    own = 0
    if isinstance(node, (Provision, Section)):
        while own < len(kids) and type(kids[own]) is Text and not kids[own].children and "gap" not in kids[own].flags:
            own += 1
    return (type(node).__name__, _fields(node), tuple(tuple(raw_span(n, nt).values()) for n in (node, *kids[:own])),
            tuple(_fields(k) for k in kids[:own]), tuple(_kid(c, text_of, nt, _sub) for c in kids[own:]))


def _kid(node: Node, text_of: SpanOf | None, nt: NormalText | None, sub: Callable[[Node], str | None] | None) -> Any:
    got = sub(node) if sub is not None else None
    return ("section", got) if got is not None else shape(node, text_of, nt, sub)


def bare(node: Node) -> tuple[Any, ...]:
    """``node`` less where it is in its file (offsets, lines, columns; a table's cells their texts only): what
    ``navlaw.model.content.content`` shows of it, in about half its time (the key of each section's Akoma
    Ntoso, compiler/export/akn.py's ``Export.inputs``)."""
    kind = type(node)
    got = _getter(_BARE, node, _PLACE)(node)
    if kind is Table:
        got = tuple(_texts(v) for v in got)
    return kind.__name__, got, tuple(bare(c) for c in node.children)


def _texts(value: Any) -> Any:
    if isinstance(value, Row):
        return tuple(c.text for c in value.cells)
    if isinstance(value, tuple) and value and isinstance(value[0], Row):
        return tuple(_texts(r) for r in value)
    return value
