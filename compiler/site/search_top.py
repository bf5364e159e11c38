"""The best pages of each wide prefix, so that a query of one short word fetches a bounded part of the index
(issue 32). Part of the split search index (compiler/site/search_index.py).

Material's search makes every word of a query a prefix ("p" searches "p*": every word that starts with
"p"). Searched over the index's terms, a short word needs the postings of thousands of terms: 1.8 MB for
"p" at 100 times the corpus, growing with it. For each *wide* prefix (one whose terms' postings are over
``WIDE_BYTES``) the split index has ``search/top/NAME.json`` (NAME: ``file_name``): the candidates for the
query of that one word, and nothing else:

- the pages that can be among the ``MAX_GROUPS`` listed: the best ``MAX_GROUPS + MARGIN`` pages by the
  score Material gives the query (lunr's, times Material's boost for a page's own document), ties in
  document order, as lunr meets them;
- the postings of the prefix's terms in those pages' documents (each term with its index in lunr's term
  order), and how many of the prefix's terms are not there (``more``: lunr divides a score by the length
  of the query's vector, one per term the prefix expands to);
- how many pages match in all (``total``).

The search worker runs lunr over that part of the index: the candidates' scores, their order and their
highlighting are the ones Material's worker gives with the whole index, and the listed pages are the best
``MAX_GROUPS`` of them. Its size is bounded by that of ``MAX_GROUPS + MARGIN`` pages, whatever the size of
the corpus.
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence, Sized
from itertools import chain
from typing import Any

MAX_GROUPS = 50  # pages the worker returns (MAX_GROUPS in templates/site/search-worker.js)
MARGIN = 10  # pages more than are listed: a score within rounding of the last listed one cannot be left out
WIDE_BYTES = 150_000  # a prefix whose terms' postings are larger has a file of its best pages
_POSTING = 9  # bytes of one posting in a term file, about ("3,0,1234,")


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def flat_postings(postings: list[list[int]], parent: list[int]) -> list[int]:
    """A term's postings in one field, flat: for each document (in order) its number less the one before,
    its number less its page's first document's, and lunr's weight in thousandths (an integer: lunr keeps
    three decimals, and k / 1000 is the number lunr computes)."""
    flat, before = [], 0
    for n, weight in postings:
        flat += [n - before, n - parent[n], weight]
        before = n
    return flat


def file_name(prefix: str) -> str:
    """The file of a prefix, as the worker names it: a-z, 0-9 and "-" as they are, any other UTF-16 code
    unit as "_" and four hex digits."""
    units = prefix.encode("utf-16-be", "surrogatepass")
    out = []
    for i in range(0, len(units), 2):
        u = int.from_bytes(units[i:i + 2], "big")
        c = chr(u)
        out.append(c if c.isascii() and (c.isdigit() or "a" <= c <= "z" or c == "-") else f"_{u:04x}")
    return "".join(out) + ".json"


def _units(term: str) -> str:
    """``term`` as JavaScript indexes it (a character outside the BMP is two code units): the prefixes
    the worker forms are prefixes of this."""
    if term.isascii():
        return term
    b = term.encode("utf-16-be", "surrogatepass")
    return "".join(chr(int.from_bytes(b[i:i + 2], "big")) for i in range(0, len(b), 2))


def _text(units: str) -> str:
    return "".join(units).encode("utf-16-be", "surrogatepass").decode("utf-16-be")


def wide_prefixes(index: Mapping[str, tuple[int, Sequence[Sized]]]) -> list[str]:
    """The prefixes (in UTF-16 code units) whose terms' postings are over ``WIDE_BYTES`` (``index``: term ->
    its index and, per field, its postings: only their number counts)."""
    cost: Counter[str] = Counter()
    for term, (_, per_field) in index.items():
        n = _POSTING * sum(len(p) for p in per_field)
        units = _units(term)
        for i in range(1, len(units) + 1):
            cost[units[:i]] += n
    return sorted(p for p, n in cost.items() if n > WIDE_BYTES and not "\ud800" <= p[-1] <= "\udbff")  # not half a character


def top_ranges(index: Mapping[str, tuple[int, Sequence[Sized]]], order: list[str]) -> dict[str, tuple[int, int]]:
    """prefix -> the range of ``order`` (the terms in lunr's UTF-16 order) that starts with it, for each wide
    prefix ("law.c", "law.co", … may share one: their files are the same)."""
    keys = [_units(t) for t in order]
    out: dict[str, tuple[int, int]] = {}
    for prefix in wide_prefixes(index):
        lo = bisect_left(keys, prefix)
        hi = bisect_left(keys, prefix + "\uffff", lo)  # the terms that start with the prefix (no term holds U+FFFF)
        out[_text(prefix)] = lo, hi
    return out


def top_file(index: Mapping[str, tuple[int, list[list[list[int]]]]], order: list[str], bounds: tuple[int, int],
             parent: list[int]) -> str:
    """The text of the ``search/top`` file of the prefix whose terms are ``order[bounds[0]:bounds[1]]``."""
    return _top(index, order[bounds[0]:bounds[1]], parent, len(index))[0]


def top_file_weights(index: Mapping[str, tuple[int, list[list[list[int]]]]], order: list[str],
                     bounds: tuple[int, int], parent: list[int]) -> tuple[str, bytes]:
    """``top_file``, and the documents' weights it ranked (``pack_weights``): an incremental split changes
    them (compiler/site/search_delta_top.py)."""
    text, weight = _top(index, order[bounds[0]:bounds[1]], parent, len(index))
    return text, pack_weights(weight)


def pack_weights(weight: Mapping[int, int]) -> bytes:
    """document -> its weights for a prefix's terms, as (document, weight) pairs of 64-bit integers."""
    return array("q", chain.from_iterable(weight.items())).tobytes()


def top_files(index: dict[str, tuple[int, list[list[list[int]]]]], order: list[str],
              parent: list[int]) -> dict[str, str]:
    """prefix -> the text of its ``search/top`` file, for each wide prefix. ``order``: the terms in lunr's
    (UTF-16) order; ``parent``: each document's page's first document."""
    ranges = top_ranges(index, order)
    made = {bounds: top_file(index, order, bounds, parent) for bounds in dict.fromkeys(ranges.values())}
    return {prefix: made[bounds] for prefix, bounds in ranges.items()}


def _top(index: Mapping[str, tuple[int, list[list[list[int]]]]], terms: list[str], parent: list[int],
         base: int) -> tuple[str, Counter[int]]:
    """One prefix's file (see the module's docstring)."""
    weight: Counter[int] = Counter()  # document -> its weights for the prefix's terms, all fields (thousandths)
    for t in terms:
        for postings in index[t][1]:
            for n, w in postings:
                weight[n] += w
    shown, total = shown_pages(weight, parent)
    entries = [e for t in terms if (e := top_entry(t, *index[t], parent, shown))]
    return top_text(entries, len(terms), total, base), weight


def shown_pages(weight: Mapping[int, int], parent: list[int]) -> tuple[set[int], int]:
    """The pages a prefix's file holds (by their first documents), from each document's weights for its
    terms; and how many pages match."""
    best: dict[int, tuple[int, int]] = {}  # page -> (score, -document) of its best document
    for n, w in weight.items():
        score = w * (5 if parent[n] == n else 2)  # Material: score * (1 + (own page's document + 1)^2)
        page = parent[n]
        if page not in best or (score, -n) > best[page]:
            best[page] = (score, -n)
    ranked = sorted(best, key=lambda page: (-best[page][0], -best[page][1]))
    return set(ranked[:MAX_GROUPS + MARGIN]), len(best)


def top_entry(term: str, k: int, per_field: list[list[list[int]]], parent: list[int], shown: set[int]) -> list[Any] | None:
    """A term's entry in a prefix's file: its postings in the ``shown`` pages (None if it has none)."""
    kept = [[p for p in postings if parent[p[0]] in shown] for postings in per_field]
    return [term, k, [flat_postings(p, parent) for p in kept]] if any(kept) else None


def top_text(entries: list[list[Any]], terms: int, total: int, base: int) -> str:
    return dump({"terms": entries, "more": terms - len(entries), "total": total, "base": base})
