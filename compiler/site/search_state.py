"""What an incremental split of the search index (compiler/site/search_delta.py) keeps of the last one,
and how it reads it."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from navlaw.site import search_index as si

Fields = list[dict[int, int]]  # per field, {document: the term's count in it}, in document order


@dataclass
class SearchState:
    """What the last split made, kept for the next one."""

    config: str  # Material's search configuration (JSON)
    pages: list[tuple[str, int]]  # MkDocs page -> its number of documents, in order
    parent: list[int]  # each document's page's first document
    doc_boosts: list[float]
    counts: dict[str, tuple[bytes, ...]]  # term -> per field, (document, count) pairs packed (see _pack)
    k: dict[str, int]  # term -> its index in lunr's order
    first: dict[str, int]  # term -> the first document holding it
    size: dict[str, int]  # term -> its number of postings (all fields)
    entry: dict[str, str]  # term -> its entry in its term file
    runs: dict[str, int]  # term -> its number of postings files (0: inline)
    order: list[str]  # the terms in lunr's (UTF-16) order
    kseq: list[str]  # the terms in lunr's term order
    cuts: list[int]  # where each term file starts in ``order``
    ranges: dict[str, tuple[int, int]]  # wide prefix -> its range of ``order``
    tops: dict[str, str]  # wide prefix -> its top file
    names: dict[int, int]  # term length -> its number of names files
    # wide prefix -> its documents' weights for its terms (search_top.pack_weights: one object for the
    # prefixes of the same terms)
    weights: dict[str, bytes] = field(default_factory=dict)

    # Kept in the cache as a few long strings and arrays, not as dictionaries of every term: pickled and
    # unpickled at each build, those cost more than the split they save
    def __getstate__(self) -> dict[str, Any]:
        terms = self.kseq
        fields = len(next(iter(self.counts.values()), ()))
        blobs = [b for t in terms for b in self.counts[t]]
        return {"scalars": (self.config, self.pages, self.cuts, self.ranges, self.tops, self.names, fields, self.weights),
                "parent": array("i", self.parent), "doc_boosts": array("d", self.doc_boosts),
                "terms": _join(terms), "entries": _join([self.entry[t] for t in terms]),
                "counts": (b"".join(blobs), array("i", map(len, blobs))),
                "ints": [array("i", (d[t] for t in terms)) for d in (self.first, self.size, self.runs)],
                "order": array("i", (self.k[t] for t in self.order))}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config, self.pages, self.cuts, self.ranges, self.tops, self.names, fields, self.weights = state["scalars"]
        self.parent, self.doc_boosts = list(state["parent"]), list(state["doc_boosts"])
        terms = self.kseq = _split(*state["terms"])
        self.k = {t: k for k, t in enumerate(terms)}
        self.entry = dict(zip(terms, _split(*state["entries"])))
        blob, lengths = state["counts"]
        at, blobs = 0, []
        for n in lengths:
            blobs.append(blob[at:at + n])
            at += n
        self.counts = {t: tuple(blobs[k * fields:(k + 1) * fields]) for k, t in enumerate(terms)}
        self.first, self.size, self.runs = (dict(zip(terms, a)) for a in state["ints"])
        self.order = [terms[k] for k in state["order"]]


def _join(texts: list[str]) -> tuple[str, array[int]]:
    return "".join(texts), array("i", map(len, texts))


def _split(text: str, lengths: array[int]) -> list[str]:
    out, at = [], 0
    for n in lengths:
        out.append(text[at:at + n])
        at += n
    return out


@dataclass
class Work:
    """What a split did: counted by the tests (never timed)."""

    mode: str = "delta"  # or "full"
    tokenised: int = 0  # documents tokenised
    weighed: int = 0  # terms weighed
    renumbered: int = 0  # terms whose index in lunr's order moved (their postings did not change)
    tops: Counter[str] = field(default_factory=Counter)  # top files made "whole" or "from the last one"
    written: list[str] = field(default_factory=list)  # files written (under the site)
    removed: list[str] = field(default_factory=list)


def pack(per_field: Fields) -> tuple[bytes, ...]:
    return tuple(array("i", chain.from_iterable(d.items())).tobytes() for d in per_field)


def unpack(packed: tuple[bytes, ...]) -> Fields:
    out = []
    for b in packed:
        a = array("i")
        a.frombytes(b)
        out.append(dict(zip(a[0::2], a[1::2])))
    return out


class Index(Mapping[str, tuple[int, list[list[list[int]]]]]):
    """The weighed index over a state (weighed as it is read: top files need only their terms)."""

    def __init__(self, s: SearchState, weighed: dict[str, list[list[list[int]]]], boosts: list[float]) -> None:
        self.s, self.weighed, self.boosts = s, weighed, boosts

    def __getitem__(self, term: str) -> tuple[int, list[list[list[int]]]]:
        w = self.weighed.get(term)
        if w is None:
            w = self.weighed[term] = si._weigh(unpack(self.s.counts[term]), len(self.s.parent), self.boosts,
                                               self.s.doc_boosts)
        return self.s.k[term], w

    def __iter__(self) -> Iterator[str]:
        return iter(self.s.k)

    def __len__(self) -> int:
        return len(self.s.k)
