"""The split search index of an incremental site build, made from the last build's (issue 32).

``split_search_index`` (compiler/site/search_index.py) tokenises every document, weighs every term and
cuts every file again. After an edit of a few pages most of that is as it was: Material sets lunr's
``b`` to 0, so a posting's weight depends only on the term's frequency in its field, the term's document
frequency, the number of documents and the boosts. ``split_pages`` keeps, in the build cache (beside the
site's own state, compiler/site/mkdocs_build.py), what the last split made (``SearchState``: each term's
counts, its index in lunr's order, its entry, the cuts of the term files, the wide prefixes and their top
files) and, when the pages MkDocs rendered again keep their number of documents, makes the new split from
it:

- only the changed documents are tokenised, before and after the edit; the terms whose counts changed
  there are weighed again (all their postings: their document frequency may have changed);
- lunr's term order (first seen, document by document) is rebuilt only when the terms first seen in a
  changed document are not the same ones in the same order (a new term, a term gone, a term whose first
  document moved); a term whose index moved keeps its postings and gets its new index;
- term files, names files, top files and the pages' document files are made again only where their
  inputs changed, and a file is written only when its bytes differ (the site starts as a copy of the last
  one: files are replaced, never written through).

The result is byte for byte the full split of the same site (tests/test_search_delta.py). A page whose
number of documents changed renumbers the documents after it: then the split is a full one, and
``split_pages`` says why.
"""

from __future__ import annotations

import json
import os
from bisect import bisect_right, insort
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from itertools import chain
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from navlaw.site import search_early, search_index as si
from navlaw.site.search_delta_top import Changes, tops
from navlaw.site.search_state import Fields, Index, SearchState, Work, pack, unpack
from navlaw.site.search_top import dump

LAST = Work()  # the last split's work (for the tests and benchmarks)


def _json(value: Any) -> Any:
    """``value`` as Material's JSON gives it back (it writes with ``default=str``)."""
    return json.loads(json.dumps(value, separators=(",", ":"), default=str))


def split_pages(site: Path, config: dict[str, Any], pages: list[tuple[str, list[dict[str, Any]]]],
                rendered: set[str], old: SearchState | None,
                before: Mapping[str, list[dict[str, Any]]]) -> tuple[SearchState, str]:
    """Write the split index of ``pages`` (each MkDocs page with its search entries, in order) into
    ``site``; from ``old`` (the split of the site ``site`` was copied from, whose pages ``rendered`` this
    time had the entries ``before``) when it can. The new state, and why the split was a full one ("" if
    it was not)."""
    config = _json(config)
    why = _why_full(config, pages, old)
    if not why:
        assert old is not None
        try:
            return _delta(site, old, config, pages, rendered, before), ""
        except _Full as exc:
            why = str(exc)
    docs = _json([e for _, entries in pages for e in entries])
    global LAST
    LAST = Work(mode="full", tokenised=len(docs))
    made = si.split_documents(site, config, docs, search_early.take(config, docs))  # counts made early, if these
    return state_of(made, config, [(uri, len(entries)) for uri, entries in pages], docs), why


class _Full(Exception):
    pass


def _why_full(config: dict[str, Any], pages: list[tuple[str, list[dict[str, Any]]]], old: SearchState | None) -> str:
    if old is None:
        return "no earlier split in the cache"
    if dump(config) != old.config:
        return "the search configuration changed"
    if len(pages) != len(old.pages) or any(uri != was for (uri, _), (was, _) in zip(pages, old.pages)):
        return "pages added or removed"
    for (uri, entries), (_, n) in zip(pages, old.pages):
        if len(entries) != n:
            return f"{uri} has {len(entries)} search documents, {n} before: the documents after it are numbered anew"
    return ""


def state_of(made: si.Split, config: dict[str, Any], pages: list[tuple[str, int]],
             docs: list[dict[str, Any]]) -> SearchState:
    """The state to keep of a full split."""
    counts = made.counts
    runs = Counter(name.split("-")[0] for name in made.postings)
    return SearchState(
        dump(config), pages, made.parent, si._boosts(config, docs)[1],
        {t: pack(pf) for t, (_, pf) in counts.items()}, {t: k for t, (k, _) in counts.items()},
        {t: min(next(iter(d)) for d in pf if d) for t, (_, pf) in counts.items()},
        {t: sum(len(d) for d in pf) for t, (_, pf) in counts.items()},
        dict(zip(made.order, made.entries)), {t: runs.get(str(k), 0) for t, (k, _) in counts.items()},
        made.order, list(counts), made.cuts, made.ranges, made.tops, made.names, made.weights)


def _delta(site: Path, old: SearchState, config: dict[str, Any], pages: list[tuple[str, list[dict[str, Any]]]],
           rendered: set[str], before: Mapping[str, list[dict[str, Any]]]) -> SearchState:
    work = Work()
    stop, separator, fields = si._settings(config)
    starts = [0]
    for _, entries in pages:
        starts.append(starts[-1] + len(entries))
    docs: dict[int, dict[str, Any]] = {}  # the changed documents, as they are now
    was: dict[int, dict[str, Any]] = {}  # and as they were
    for p, (uri, entries) in enumerate(pages):
        if uri in rendered:
            now, then = _json(entries), _json(before.get(uri, []))
            for i, (a, b) in enumerate(zip(now, then)):
                if a != b:
                    docs[starts[p] + i], was[starts[p] + i] = a, b
    s = replace(old, counts=dict(old.counts), k=dict(old.k), first=dict(old.first), size=dict(old.size),
                entry=dict(old.entry), runs=dict(old.runs), ranges=dict(old.ranges), tops=dict(old.tops),
                names=dict(old.names), doc_boosts=list(old.doc_boosts))
    for n, doc in docs.items():
        if doc["location"].split("#")[0] != was[n]["location"].split("#")[0]:
            raise _Full(f"search document {n} moved to another page ({doc['location']})")

    def tokenise(doc: dict[str, Any]) -> list[Counter[str]]:
        work.tokenised += 1
        return [Counter(w for w in si.tokens(doc.get(f), separator) if w not in stop) for f in fields]

    new_tok = {n: tokenise(d) for n, d in docs.items()}
    old_tok = {n: tokenise(d) for n, d in was.items()}
    changed: set[str] = set()  # terms whose counts or weights changed
    for n in docs:
        boost = float(docs[n].get("boost") or 1)
        if boost != s.doc_boosts[n]:
            s.doc_boosts[n] = boost
            changed.update(*new_tok[n], *old_tok[n])
        for a, b in zip(new_tok[n], old_tok[n]):
            changed.update(t for t in a.keys() | b.keys() if a.get(t) != b.get(t))
    counts = _recount(s, changed, new_tok, len(fields))
    gone = {t for t in changed if t not in counts}
    added = {t for t in counts if t not in old.counts}
    reordered = _reorder(s, old, changed, counts, new_tok, old_tok, pages, starts, tokenise)
    moved = {t for t, k in s.k.items() if old.k.get(t, k) != k} - changed if reordered else set()
    work.renumbered = len(moved)
    boosts = si._boosts(config, [])[0]
    files: dict[str, str] = {}
    weighed: dict[str, list[list[list[int]]]] = {}
    for t in sorted(counts):
        weighed[t] = si._weigh(counts[t], len(s.parent), boosts, s.doc_boosts)
        s.counts[t], s.size[t] = pack(counts[t]), sum(len(d) for d in counts[t])
        entry, runs = si._term_entry(t, s.k[t], weighed[t], s.parent)
        s.entry[t], s.runs[t] = entry, len(runs)
        files.update((f"search/postings/{name}", text) for name, text in runs)
    work.weighed = len(counts)
    _renumber(site, s, old, moved, files)
    for t in gone:
        for d in (s.counts, s.k, s.first, s.size, s.entry, s.runs):
            d.pop(t, None)
    stale = {f"search/postings/{old.k[t]}-{j}.json" for t in changed | moved if t in old.k for j in range(old.runs[t])}
    _reorder_terms(s, old, added, gone)
    _cut(s, old, changed | moved | added, gone, files, stale)
    tops(s, old, Changes(changed, moved, added | gone, old, boosts, new_tok), Index(s, weighed, boosts), files, stale, work)
    parents = {s.parent[n] for n in docs}
    groups: dict[int, list[list[Any]]] = {p: [] for p in parents}
    for n, p in enumerate(s.parent):
        if p in groups:
            groups[p].append(si._doc(docs[n] if n in docs else _document(pages, starts, n), fields))
    files.update((f"search/docs/{p}.json", dump(g)) for p, g in groups.items())
    files["search/search_index.json"] = si.manifest(config, len(s.parent), [s.order[c] for c in s.cuts], s.tops, s.names)
    _write(site, files, stale - files.keys(), work)
    if si.write_worker(site):
        work.written.append(si.WORKER)
    global LAST
    LAST = work
    return s


def _document(pages: list[tuple[str, list[dict[str, Any]]]], starts: list[int], n: int) -> dict[str, Any]:
    """Document ``n`` as Material's JSON gives it."""
    p = bisect_right(starts, n) - 1
    return _json(pages[p][1][n - starts[p]])  # type: ignore[no-any-return]


def _recount(s: SearchState, changed: set[str], new_tok: dict[int, list[Counter[str]]], fields: int) -> dict[str, Fields]:
    """The counts of the ``changed`` terms that are still in the index, in document order (their first
    documents set in ``s``)."""
    out = {}
    for t in changed:
        per_field = unpack(s.counts[t]) if t in s.counts else [{} for _ in range(fields)]
        for n, tok in new_tok.items():
            for f, c in enumerate(tok):
                tf = c.get(t)
                if tf:
                    per_field[f][n] = tf
                else:
                    per_field[f].pop(n, None)
        per_field = [dict(sorted(d.items())) for d in per_field]
        if any(per_field):
            out[t] = per_field
            s.first[t] = min(next(iter(d)) for d in per_field if d)
    return out


def _seen(tok: list[Counter[str]]) -> list[str]:
    """A document's terms in the order lunr first meets them (field by field)."""
    return list(dict.fromkeys(chain.from_iterable(tok)))


def _reorder(s: SearchState, old: SearchState, changed: set[str], counts: dict[str, Fields],
             new_tok: dict[int, list[Counter[str]]], old_tok: dict[int, list[Counter[str]]],
             pages: list[tuple[str, list[dict[str, Any]]]], starts: list[int], tokenise: Any) -> bool:
    """lunr's term order after the edit (``s.kseq``, ``s.k``): the terms first seen in each document, in
    document order. Only the changed documents' terms, and the documents where a term is now first seen
    instead of a changed one, can change it. Whether it changed."""
    def first(t: str) -> int | None:
        return None if t in changed and t not in counts else s.first[t]

    place = {n: [t for t in _seen(tok) if first(t) == n] for n, tok in new_tok.items()}
    was = {n: [t for t in _seen(tok) if old.first.get(t) == n] for n, tok in old_tok.items()}
    later = {f for t in counts if t in changed and (f := s.first[t]) != old.first.get(t) and f not in place}
    if not later and all(place[n] == was[n] for n in place):
        return False
    for m in later:  # a term no longer in the changed document where it was first seen: now first in m
        place[m] = [t for t in _seen(tokenise(_document(pages, starts, m))) if first(t) == m]
    skip = set(chain.from_iterable(place.values())) | set(chain.from_iterable(was.values()))
    skip |= {t for t in changed if first(t) != old.first.get(t)}
    pending = sorted(place)
    kseq: list[str] = []
    i = 0
    for t in old.kseq:
        if t in skip:
            continue
        f = old.first[t]
        while i < len(pending) and pending[i] < f:
            kseq += place[pending[i]]
            i += 1
        kseq.append(t)
    for n in pending[i:]:
        kseq += place[n]
    s.kseq, s.k = kseq, {t: k for k, t in enumerate(kseq)}
    return True


def _renumber(site: Path, s: SearchState, old: SearchState, moved: set[str], files: dict[str, str]) -> None:
    """The terms whose index in lunr's order moved and whose postings did not: their entries with the new
    index, their postings files under it."""
    for t in moved:
        head = "[" + dump(t) + ","
        was = f"{head}{old.k[t]},"
        if not s.entry[t].startswith(was):
            raise _Full(f"the last split's entry of {t!r} is not the one its state says")
        s.entry[t] = f"{head}{s.k[t]}," + s.entry[t][len(was):]
        for j in range(s.runs[t]):
            try:
                text = (site / "search" / "postings" / f"{old.k[t]}-{j}.json").read_text(encoding="utf-8")
            except OSError as exc:
                raise _Full(f"the last split's postings of {t!r} are not in the site ({exc})") from None
            files[f"search/postings/{s.k[t]}-{j}.json"] = text


def _reorder_terms(s: SearchState, old: SearchState, added: set[str], gone: set[str]) -> None:
    """The terms in UTF-16 order, with the new ones and without those gone."""
    if added or gone:
        s.order = [t for t in old.order if t not in gone]
        for t in sorted(added):
            insort(s.order, t, key=si._js_order)


def _length(term: str) -> int:
    """The term's length as JavaScript counts it (UTF-16 code units)."""
    return len(term) if term.isascii() else len(term.encode("utf-16-be")) // 2


def _name_item(term: str, shard: int) -> str:
    """``dump([term, shard])``, byte for byte, without a JSON encoder made for each of thousands of terms
    (json's own string encoder, the one ``dump`` uses: ensure_ascii off)."""
    return f"[{encode_basestring(term)},{shard}]"


def _cut(s: SearchState, old: SearchState, changed: set[str], gone: set[str], files: dict[str, str],
         stale: set[str]) -> None:
    """The term files (cut again where their entries changed) and the names files of the lengths whose
    terms moved from one term file to another."""
    cuts, size, run = [], 1, 0
    entry = s.entry
    for i, t in enumerate(s.order):
        e = entry[t]
        n = (len(e) if e.isascii() else len(e.encode("utf-8"))) + 1  # isascii: without reading the text
        if run and size + n > si.TERM_SHARD_BYTES:
            size, run = 1, 0
        if not run:
            cuts.append(i)
        run += 1
        size += n
    bounds = list(zip(cuts, cuts[1:] + [len(s.order)]))
    was = list(zip(old.cuts, old.cuts[1:] + [len(old.order)]))
    for i, (lo, hi) in enumerate(bounds):
        terms = s.order[lo:hi]
        if i >= len(was) or old.order[was[i][0]:was[i][1]] != terms or any(t in changed for t in terms):
            files[f"search/terms/{i}.json"] = "[" + ",".join(s.entry[t] for t in terms) + "]"
    stale.update(f"search/terms/{i}.json" for i in range(len(bounds), len(was)))
    s.cuts = cuts
    if s.order is old.order and cuts == old.cuts:
        return
    shard = {t: i for i, (lo, hi) in enumerate(bounds) for t in s.order[lo:hi]}
    shard_was = {t: i for i, (lo, hi) in enumerate(was) for t in old.order[lo:hi]}
    lengths = {_length(t) for t in changed | gone if shard.get(t) != shard_was.get(t)}
    lengths |= {_length(t) for t in s.order if shard[t] != shard_was.get(t)}
    items: dict[int, list[str]] = {n: [] for n in lengths}
    for t in s.order:
        n = _length(t)
        if n in items:
            items[n].append(_name_item(t, shard[t]))
    for n, terms in items.items():
        runs = list(si._shards(terms, si.TERM_SHARD_BYTES))
        files.update((f"search/names/{n}-{k}.json", "[" + ",".join(run) + "]") for k, run in enumerate(runs))
        stale.update(f"search/names/{n}-{k}.json" for k in range(len(runs), s.names.get(n, 0)))
        if runs:
            s.names[n] = len(runs)
        else:
            s.names.pop(n, None)
    s.names = dict(sorted(s.names.items()))


def _write(site: Path, files: dict[str, str], stale: set[str], work: Work) -> None:
    """Write the files whose bytes changed (each a new file: the site began as a copy of the last one, which
    may share it) and remove the ``stale`` ones."""
    for rel in sorted(stale):
        try:
            (site / rel).unlink()
            work.removed.append(rel)
        except FileNotFoundError:
            pass
    for rel, text in sorted(files.items()):
        path = site / rel
        data = text.encode("utf-8")
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                continue
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, path)
        work.written.append(rel)
