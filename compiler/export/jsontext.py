"""JSON indented by two spaces, byte for byte as ``json.dumps(value, ensure_ascii=False, indent=2, default=str)``
writes it, in about a third of the time.

The standard library encodes indented JSON in pure Python, one generator step per value (only compact JSON
has its C encoder); OUT's tree and tariff files are indented, and re-encoding them was a fifth of what an
edit of one section cost (issue 32). This encoder makes each container's text with one ``str.join`` and
uses the standard library's own C function for strings, so every string, number and key is written exactly
as ``json`` writes it; tests/test_jsontext.py compares the two on generated values and on every JSON file a
build writes.

What ``json`` accepts, this accepts in the same order of checks: strings (and their subclasses), None,
True, False, ints, floats (NaN and the infinities as ``json`` writes them), lists and tuples, dicts with
str, int, float, bool or None keys; anything else through ``default`` (``str`` unless given). A key of
another type is a TypeError, as in ``json``. A value that contains itself is refused (ValueError, as in
``json``) rather than followed.
"""

from __future__ import annotations

import json
from typing import Any, Callable

_string: Callable[[str], str] = json.encoder.encode_basestring  # the C function where it is built
_INF = float("inf")


def indented(value: Any, default: Callable[[Any], Any] = str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2, default=default)``."""
    return _encode(value, "\n", default, set())


def _float(f: float) -> str:
    if f != f:
        return "NaN"
    if f == _INF:
        return "Infinity"
    if f == -_INF:
        return "-Infinity"
    return float.__repr__(f)


def _key(k: Any) -> str:
    if isinstance(k, str):
        return _string(k)
    if isinstance(k, float):  # before int, as json checks them (a bool is an int: checked before both)
        return _string(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return _string(int.__repr__(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def _encode(o: Any, nl: str, default: Callable[[Any], Any], open_: set[int]) -> str:
    """``o``'s JSON, its lines after the first indented as ``nl`` (a newline and the current indent) says.
    A string, int or None inside a container is written there, without a call (nearly every value); the rest
    is checked in ``json``'s own order."""
    if isinstance(o, str):
        return _string(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    if isinstance(o, (list, tuple)):
        if not o:
            return "[]"
        inner = nl + "  "
        mark = _enter(o, open_)
        text = "[" + inner + ("," + inner).join([
            _string(v) if type(v) is str else int.__repr__(v) if type(v) is int else "null" if v is None
            else _encode(v, inner, default, open_) for v in o]) + nl + "]"
        open_.discard(mark)
        return text
    if isinstance(o, dict):
        if not o:
            return "{}"
        inner = nl + "  "
        mark = _enter(o, open_)
        text = "{" + inner + ("," + inner).join([
            (_string(k) if type(k) is str else _key(k)) + ": "
            + (_string(v) if type(v) is str else int.__repr__(v) if type(v) is int else "null" if v is None
               else _encode(v, inner, default, open_)) for k, v in o.items()]) + nl + "}"
        open_.discard(mark)
        return text
    mark = _enter(o, open_)
    text = _encode(default(o), nl, default, open_)
    open_.discard(mark)
    return text


def _enter(o: Any, open_: set[int]) -> int:
    """Mark ``o`` as being encoded (by identity): one met again inside itself is a circular reference."""
    mark = id(o)
    if mark in open_:
        raise ValueError("Circular reference detected")
    open_.add(mark)
    return mark
