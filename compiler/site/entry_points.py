"""The installed packages' entry points read once for a MkDocs build, not once per question.

A fresh MkDocs build asks ``importlib.metadata.entry_points`` three times (MkDocs for its plugins and its
themes, Markdown for its extensions), and each answer reads the ``entry_points.txt`` of every installed
distribution again (~170 here: ~2 ms each time, issue 32). While ``once()`` is held, the first question
reads them all (``entry_points()``, every group) and every question is answered by ``select`` over that
reading: ``entry_points(**params)`` is ``entry_points().select(**params)`` in importlib.metadata (3.10 and
later), so each answer is the one importlib.metadata gives, as of the build's first question. Nothing is
kept after it: the next build, and the next process, reads them again."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

# Where the build's questions are asked from: the names bound by ``from importlib.metadata import entry_points``
# (MkDocs) and importlib.metadata's own (Markdown calls ``metadata.entry_points``).
_HOLDERS = ("mkdocs.plugins", "mkdocs.utils", "importlib.metadata")


@contextlib.contextmanager
def once() -> Iterator[None]:
    import sys
    from importlib import metadata

    import mkdocs.plugins  # noqa: F401  (loaded here so that their names are there to stand in for)
    import mkdocs.utils  # noqa: F401

    real = metadata.entry_points
    read: list[Any] = []

    def entry_points(**params: Any) -> Any:
        if not read:
            read.append(real())
        return read[0].select(**params)

    holders = [m for m in map(sys.modules.get, _HOLDERS) if m is not None and getattr(m, "entry_points", None) is real]
    for m in holders:
        m.entry_points = entry_points  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m in holders:
            m.entry_points = real  # type: ignore[attr-defined]
