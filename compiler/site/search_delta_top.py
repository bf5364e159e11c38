"""The top files of the wide prefixes (compiler/site/search_top.py) in an incremental split of the search
index (compiler/site/search_delta.py), made from the last split's.

A prefix's top file holds the best pages for the query of that one word: it depends on every posting of
every term the prefix starts. ``tops`` keeps, for each prefix an edit has touched, each document's weight
for the prefix's terms and its number of their postings; the next edit takes away the old postings of
the terms it changed and adds their new ones, ranks the pages again from those weights, and when the
pages shown are the same ones, reuses the last file's entries of the terms it did not change. Only the
prefixes of the terms whose postings changed can become wide or narrow.
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_left
from collections import Counter
from itertools import chain

from navlaw.site import search_index as si
from navlaw.site.search_state import Index, SearchState, Work, unpack
from navlaw.site.search_top import (WIDE_BYTES, _POSTING, _text, _units, file_name, pack_weights, shown_pages,
                                    top_entry, top_text)

def _range(order: list[str], prefix: str) -> tuple[int, int]:
    lo = bisect_left(order, prefix, key=_units)
    return lo, bisect_left(order, prefix + "\uffff", lo, key=_units)  # no term holds U+FFFF


class Changes:
    """The terms an edit changed (their postings), moved (their index only), added or removed; the terms of
    each changed document; and the weights a changed term had before."""

    def __init__(self, changed: set[str], moved: set[str], other: set[str], old: SearchState,
                 boosts: list[float], docs: dict[int, list[Counter[str]]]) -> None:
        self.changed, self.moved, self.touched = changed, moved, changed | moved | other
        self.old, self.boosts = old, boosts
        self.docs = {n: set(chain.from_iterable(fields)) for n, fields in docs.items()}

    def weights_before(self, term: str) -> list[list[list[int]]]:
        old = self.old
        if term not in old.counts:
            return []
        return si._weigh(unpack(old.counts[term]), len(old.parent), self.boosts, old.doc_boosts)


def tops(s: SearchState, old: SearchState, changes: Changes, index: Index, files: dict[str, str],
          stale: set[str], work: Work) -> None:
    """The wide prefixes (only the prefixes of the terms whose postings changed can have become wide or
    narrow) and the top files whose terms changed."""
    wide = {_units(p) for p in old.ranges}
    candidates = {u[:i] for t in changes.changed for u in [_units(t)] for i in range(1, len(u) + 1)}
    for p in candidates:
        lo, hi = _range(s.order, p)
        if _POSTING * sum(s.size[t] for t in s.order[lo:hi]) > WIDE_BYTES and not "\ud800" <= p[-1] <= "\udbff":
            wide.add(p)
        else:
            wide.discard(p)
    order_changed = s.order is not old.order
    s.ranges = {}
    for p in sorted(wide):
        text = _text(p)
        have = old.ranges.get(text)
        s.ranges[text] = _range(s.order, p) if order_changed or have is None else have
    if len(changes.touched) > 64:
        where = {t: i for i, t in enumerate(s.order)}
        at = sorted(where[t] for t in changes.touched if t in where)
    else:
        at = sorted(i for t in changes.touched if (i := bisect_left(s.order, si._js_order(t), key=si._js_order))
                    < len(s.order) and s.order[i] == t)
    base_changed = len(s.k) != len(old.k)
    made: dict[tuple[int, int], tuple[str, bytes]] = {}
    s.tops, s.weights = {}, {}
    for text, (lo, hi) in s.ranges.items():
        have = old.ranges.get(text)
        again = (base_changed or have is None or (order_changed and old.order[have[0]:have[1]] != s.order[lo:hi])
                 or bisect_left(at, lo) < bisect_left(at, hi))
        if not again:
            s.tops[text] = old.tops[text]
            if text in old.weights:
                s.weights[text] = old.weights[text]
            continue
        if (lo, hi) not in made:
            made[lo, hi] = _top(s, old, text, (lo, hi), changes, index, work)
        s.tops[text], s.weights[text] = made[lo, hi]
        if s.tops[text] != old.tops.get(text):
            files[f"search/top/{file_name(text)}"] = s.tops[text]
    stale.update(f"search/top/{file_name(text)}" for text in old.tops if text not in s.tops)


def _top(s: SearchState, old: SearchState, text: str, bounds: tuple[int, int], changes: Changes,
         index: Index, work: Work) -> tuple[str, bytes]:
    """A prefix's top file and its documents' weights: from the last ones, changed by the terms whose
    postings changed, when the pages it shows are the same; else made whole."""
    terms = s.order[bounds[0]:bounds[1]]
    packed = old.weights.get(text)
    before: set[int] | None = None  # the pages the last file showed
    if packed is None or text not in old.tops:  # a prefix that was not wide: made whole
        weight: dict[int, int] = {}
        for t in terms:
            _add(weight, index[t][1], 1)
    else:
        weight = _unpack_weights(packed)
        before = shown_pages(weight, old.parent)[0]
        unit = _units(text)
        for t in changes.changed:
            if _units(t).startswith(unit):
                _add(weight, changes.weights_before(t), -1)
                if t in s.counts:
                    _add(weight, index[t][1], 1)
        for n, have in changes.docs.items():  # only there can a document have gained or lost the prefix
            if not any(_units(t).startswith(unit) for t in have):
                weight.pop(n, None)
    shown, total = shown_pages(weight, s.parent)
    work.tops["whole" if shown != before else "from the last one"] += 1
    if shown != before:
        entries = [e for t in terms if (e := top_entry(t, *index[t], s.parent, shown))]
    else:  # the same pages: the unchanged terms' entries are the last file's
        was = {e[0]: e for e in json.loads(old.tops[text])["terms"]}
        entries = []
        for t in terms:
            if t in changes.changed:
                e = top_entry(t, *index[t], s.parent, shown)
            else:
                e = was.get(t)
                if e is not None and t in changes.moved:
                    e = [t, s.k[t], e[2]]
            if e is not None:
                entries.append(e)
    return top_text(entries, len(terms), total, len(s.k)), pack_weights(weight)


def _add(weight: dict[int, int], per_field: list[list[list[int]]], sign: int) -> None:
    """Add (or take away) a term's weighed postings to the documents' weights (a document stays while it
    holds any of the prefix's terms, even at a weight of 0)."""
    for postings in per_field:
        for n, w in postings:
            weight[n] = weight.get(n, 0) + sign * w


def _unpack_weights(packed: bytes) -> dict[int, int]:
    a = array("q")
    a.frombytes(packed)
    return dict(zip(a[0::2], a[1::2]))
