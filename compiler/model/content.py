"""A node's content without its place in its file: what the memos of the outputs key on (the site's page memo,
compiler/site/render.py; each section's Akoma Ntoso, compiler/export/akn_memo.py). A one-word edit early in a
large document moves every node after it (offsets, lines, columns), and must not make every later section's
outputs new when they do not show where the node is (issue 32)."""

from __future__ import annotations

import dataclasses
from typing import Callable

_POSITIONS = frozenset({"start", "end", "line", "column"})  # where a node is in its file: no page shows them
_FIELDS: dict[type, tuple[str, ...] | None] = {}  # a type -> its fields less the positions (None: not a dataclass)


def content(x: object) -> str:
    """A node (or a value holding nodes) as ``repr`` shows it, less where it is in its file (offsets,
    lines, columns): the memos' key for the law an output shows."""
    out: list[str] = []
    _content(x, out.append)
    return "".join(out)


def _content(x: object, out: Callable[[str], object]) -> None:
    kind = type(x)
    try:
        names = _FIELDS[kind]  # asked once per type (is_dataclass is most of the time otherwise)
    except KeyError:
        names = _FIELDS[kind] = (tuple(f.name for f in dataclasses.fields(x) if f.name not in _POSITIONS)
                                 if dataclasses.is_dataclass(x) and not isinstance(x, type) else None)
    if names is not None:
        out(type(x).__name__ + "(")
        for name in names:
            _content(getattr(x, name), out)
            out(",")
        out(")")
    elif isinstance(x, (tuple, list)):
        out("(")
        for item in x:
            _content(item, out)
            out(",")
        out(")")
    else:
        out(repr(x))
