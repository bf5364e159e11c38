"""export/jsontext.py's indented JSON is json.dumps(..., ensure_ascii=False, indent=2, default=str) byte for byte:
on generated values (every kind json takes, keys of every kind, strings with any character, subclasses,
values only ``default`` knows) and on the JSON files a build writes indented."""

from __future__ import annotations

import datetime as dt
import enum
import json
import math
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from navlaw.dumps import dump
from navlaw.export.jsontext import indented
from navlaw.frontend.outline import document_json


def reference(value, default=str):
    return json.dumps(value, ensure_ascii=False, indent=2, default=default)


class Colour(enum.IntEnum):
    RED = 1


class Label(str):
    pass


scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text() | st.decimals(allow_nan=False) | st.dates() | st.sampled_from([Colour.RED, Label("x")]))
keys = st.text() | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=5), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_same_text_as_json(value):
    assert indented(value) == reference(value)


def test_edge_values():
    for value in ([], {}, [[]], {"": {}}, [{}, []], math.nan, -math.inf, 1e300, -0.0, 10**40, "\u2028\ud800\x00\"\\",
                  {1: 2, 1.5: 3, True: 4, None: 5}, (1, (2, 3)), Decimal("1.10"), dt.date(2026, 1, 1)):
        assert indented(value) == reference(value)


def test_what_json_refuses_it_refuses():
    with pytest.raises(TypeError):
        indented({(1, 2): 3})
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        indented(loop)
    assert indented([1, {"a": object}], default=lambda o: "obj") == reference([1, {"a": object}], lambda o: "obj")


def test_a_builds_json(corpus):
    """The trees (OUT/tree/*.json) and the tariffs of the corpus: dump writes what json.dumps wrote."""
    from navlaw.export.api import tariffs_list
    from navlaw.tariffs import tariffs_and_lint

    for c in corpus.documents:
        tree = document_json(c.document)
        assert dump(tree) == reference(tree)
    found = tariffs_list(tariffs_and_lint(corpus)[0])
    assert found and dump(found) == reference(found)
