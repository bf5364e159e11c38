"""The site's search entries of each page (compiler/site/mkdocs_build.py's state) kept in the build cache in
chunks of pages, each its own entry: a build writes again only the chunks of the pages it rendered, and the
state's own entry names the chunks (issue 32: the entries, the text of every page, were 40% of the state
pickled, sealed and written at every edit; at 10x, 3.8 MB).

A chunk is the entries of up to ``CHUNK`` pages, by name in sorted order. A chunk of the same pages as the
last build's, none of which was rendered this time, holds what the last build's chunk holds (the entries of a
page not rendered are the last build's, see mkdocs_build._Keeper.on_post_build): that entry is kept. Any
other chunk is written under a new key. A chunk that cannot be read back makes the state unusable (the
build is a full one), never a page without its entries."""

from __future__ import annotations

import uuid
from typing import Any

from navlaw.cache import BuildCache

STAGE = "site-entries"
CHUNK = 64

Chunks = list[tuple[tuple[str, ...], str]]  # (the pages, by name; the cache key of their entries)


def put_entries(cache: BuildCache, entries: dict[str, list[dict[str, Any]]], fresh: set[str] | None,
                old: Chunks | None) -> Chunks:
    """``entries`` in chunks; ``fresh``: the pages whose entries were made this build (None: all), ``old``:
    the last build's chunks (those of its state, if this build started from it)."""
    names = sorted(entries)
    last = dict(old or [])
    out: Chunks = []
    for i in range(0, len(names), CHUNK):
        pages = tuple(names[i:i + CHUNK])
        key = last.get(pages)
        if key is not None and fresh is not None and fresh.isdisjoint(pages):
            cache.keep(STAGE, key)
        else:
            key = cache.key(STAGE, uuid.uuid4().hex)
            cache.put(STAGE, key, [entries[p] for p in pages])
        out.append((pages, key))
    return out


def get_entries(cache: BuildCache, chunks: Chunks) -> dict[str, list[dict[str, Any]]] | None:
    """The entries ``put_entries`` kept in ``chunks``; None if a chunk is missing or is not what it names."""
    entries: dict[str, list[dict[str, Any]]] = {}
    for pages, key in chunks:
        got = cache.get(STAGE, key)
        if not isinstance(got, list) or len(got) != len(pages):
            return None
        entries.update(zip(pages, got))
    return entries
