"""The search split's counting of terms, made while the rendering round's workers render (issue 32, item 1).

After MkDocs' build, the split of the search index (compiler/site/search_index.py) tokenises every search
document and counts its terms before it weighs them: at 10x the corpus 0.4-0.6 s, in which this process
works and the machine's other cores wait. The documents are known before that, page by page, as the
rendering round's slices come back in page order (compiler/site/mkdocs_parallel.py), while this process
only waits for its workers. ``Early`` counts each slice's documents then, merged as ``term_counts`` merges
ranges (lunr's term order, document order); the split takes the counts when the documents it reads back
from Material's index are the ones counted, field by field, under the same search settings (the counts
are a function of those alone), and counts them itself otherwise. The split's files are the same bytes
either way (tests/test_search_early.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from navlaw.site import search_index
from navlaw.site.search_index import SearchIndexError, Split, _Counts, _count_range, _settings, merge_counts

_PLUGIN_KEYS = ("lang", "separator", "pipeline", "fields")  # what Material writes as the index's config


class Early:
    """Documents in the search index's order and their terms' counts, made as they come."""

    def __init__(self, config: dict[str, Any], before: list[dict[str, Any]]) -> None:
        self.settings = _settings(config)  # SearchIndexError: not made early (the split says why)
        self.docs: list[dict[str, Any]] = []
        self.counts: _Counts = {}
        self.add(before)

    def add(self, docs: list[dict[str, Any]]) -> None:
        """The next documents of the index, in order, counted."""
        start = len(self.docs)
        self.docs += docs
        stop, separator, fields = self.settings
        merge_counts(self.counts, _count_range((self.docs, stop, separator, fields), (start, len(self.docs))))


_LAST: list[Early] = []  # the last rendering round's, until a split takes it


def start(search: Any) -> Early | None:
    """At the rendering round's start: counting for Material's search plugin ``search`` (its index as it is
    now, then what ``add`` is given); None where the split could not use it (no index, unsupported settings)."""
    _LAST.clear()
    index = getattr(search, "search_index", None)
    if index is None:
        return None
    try:
        early = Early({key: search.config[key] for key in _PLUGIN_KEYS}, list(index.entries))
    except (SearchIndexError, KeyError, TypeError):
        return None
    _LAST.append(early)
    return early


def drop() -> None:
    """The round's counts are not the index's (a slice was made again in this process, or the round failed)."""
    _LAST.clear()


def take(config: dict[str, Any], docs: list[dict[str, Any]]) -> _Counts | None:
    """The counts made early, if they are those of ``docs`` under ``config`` (taken once: None after)."""
    if not _LAST:
        return None
    early = _LAST.pop()
    try:
        settings = _settings(config)  # stop words, separator (patterns compare by pattern and flags), fields
    except SearchIndexError:
        return None
    return early.counts if early.settings == settings and early.docs == docs else None


def split_search_index(site: Path) -> Split:
    """compiler/site/search_index.py's ``split_search_index``, with the counts made early when they are the
    index's."""
    return search_index.split_search_index(site, take)
