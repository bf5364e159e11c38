"""The tree's nodes pickle as their class and their fields' values (Node.__reduce__: the build cache keeps
document trees, and dataclasses' field-by-field state took a third more): every field of every kind of node,
and the document's normalised text, come back."""

from __future__ import annotations

import copy
import dataclasses
import pickle

from navlaw.frontend.corpus import compile_file
from navlaw.model.nodes import Node, Provision, Table

from .conftest import CORPUS


def test_a_document_comes_back_from_pickle_whole() -> None:
    doc = compile_file(CORPUS / "nav-law.consolidated.txt")
    back = pickle.loads(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    kinds = {type(n) for n in doc.walk()}
    assert {Provision, Table} <= kinds  # the node classes with fields of their own
    for a, b in zip(doc.walk(), back.walk(), strict=True):
        assert type(a) is type(b)
        assert all(getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(a) if f.name != "normal")
    assert back.normal is not None and doc.normal is not None
    assert (back.normal.text, back.normal.raw, back.file) == (doc.normal.text, doc.normal.raw, doc.file)
    assert copy.deepcopy(doc) == doc


def test_a_node_reduces_to_its_class_and_every_field_in_order() -> None:
    node = Provision("12/a", "(a)", "", "text", 1, 9, 3, 4, "§ 12(a)", ("f",), (), "subdivision", "(b)")
    cls, args = node.__reduce__()
    assert cls is Provision and args == tuple(getattr(node, f.name) for f in dataclasses.fields(Provision))
    assert isinstance(node, Node) and cls(*args) == node
