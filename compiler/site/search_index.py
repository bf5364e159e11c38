"""Splits the site's search index into small files that the search loads on demand (issue 32, item 4).

Material's search fetches one ``search/search_index.json`` holding every page's text (36 MB at 100 times
the corpus) on every page load and builds a lunr index from it in the browser. After MkDocs has written
that file, ``split_search_index`` replaces it by

- ``search/search_index.json``: Material's search configuration and no documents, with the list of
  shards under ``config.navlaw`` (Material's bundle still fetches this file and hands its ``config`` to
  the search worker): the first term of each term file, the wide prefixes that have a top file, and how
  many names files each term length has;
- ``search/terms/N.json``: lunr's inverted index, computed here as Material's worker computes it
  (Material's tokenizer, the pipeline of mkdocs.yml, lunr's BM25 with Material's ``b = 0``), cut into
  ranges of sorted terms of at most ``TERM_SHARD_BYTES``: each term with its index in lunr's term order
  and, per field, the documents holding it and the weight lunr's field vector gives it there; a term
  whose postings are over ``INLINE_BYTES`` has instead the number of its postings files;
- ``search/postings/K-J.json``: the postings of term K (its index in lunr's order) cut by runs of
  documents of about ``POSTING_BYTES`` (J from 0): no file grows with the number of documents holding
  a word ("§": 0.55 MB of postings at 100 times the corpus, in 21 files);
- ``search/top/NAME.json``: for each wide prefix, the candidates for the query of that one word
  (compiler/site/search_top.py): a query of one short word fetches a bounded part of the index;
- ``search/names/L-K.json``: the index's terms of length L (in UTF-16 code units) with the number of
  their term file, in runs of at most ``TERM_SHARD_BYTES``: a fuzzy word looks its terms up among the
  lengths it can have, a leading wildcard among the lengths at least its own, instead of fetching
  every term file;
- ``search/docs/N.json``: the documents (location, title, text, tags) of one page, N being the number
  of its first document (the one Material makes the others' parent);
- ``assets/navlaw-search-worker.js``: the search worker (templates/site/search-worker.js), which the
  page runs in place of Material's (site/overrides/main.html). For a query it fetches only the term
  ranges its words can expand to, the postings files of the large terms among them and the documents of
  the results it shows (or a wide word's top file and those documents), and ranks them with lunr itself
  (taken from Material's worker) over that part of the index: the order, scores and highlighting are
  the ones Material's worker gives with the whole index (the worker says where it reads a query
  otherwise, on purpose).

The files are a function of the index Material wrote: the same site gives the same bytes. A site build
with the cache makes them from the last build's split where it can (compiler/site/search_delta.py), with
the same bytes.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from navlaw import resources
from navlaw.site import search_parallel
from navlaw.site.search_top import dump as _dump, file_name, flat_postings as _postings, top_file_weights, top_ranges

TERM_SHARD_BYTES = 64_000  # a range of terms per file
INLINE_BYTES = 2_000  # a term's postings up to this size are in its range's file; larger ones in postings/
POSTING_BYTES = 32_000  # postings/K-J.json: one run of documents of the postings of term K
FORMAT = 2  # the worker checks it: a page cached from an older build asks for files of its own format
WORKER = "assets/navlaw-search-worker.js"
_K1 = 1.2  # lunr's BM25 k1; Material sets b to 0, so field lengths do not count

# lunr 2.3.9's English stop words (lunr.stopWordFilter), which Material's pipeline ["stopWordFilter"] applies
# to the documents (its search pipeline is empty: the query's words are not filtered)
STOP_WORDS = frozenset("""a able about across after all almost also am among an and any are as at be because been
but by can cannot could dear did do does either else ever every for from get got had has have he her hers him his
how however i if in into is it its just least let like likely may me might most must my neither no nor not of off
often on only or other our own rather said say says she should since so some than that the their them then there
these they this tis to too twas us wants was we were what when where which while who whom why will with would yet
you your""".split())

# JavaScript's \s (what the separator means in the browser), spelled out for Python's re
_JS_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"


class SearchIndexError(Exception):
    """The search configuration or index is not one this module can split faithfully."""


def js_separator(separator: str) -> re.Pattern[str]:
    """mkdocs.yml's search separator (a JavaScript pattern) as a Python pattern with the same meaning."""
    if "(?<" in separator or "\\p{" in separator or "\\d" in separator.replace("\\\\", ""):
        raise SearchIndexError(f"search separator {separator!r}: lookbehinds, \\p and \\d are not supported here; "
                               "use character classes in mkdocs.yml")
    out, in_class, i = [], False, 0
    while i < len(separator):
        two = separator[i:i + 2]
        if two == "\\s":
            out.append(_JS_SPACE if in_class else f"[{_JS_SPACE}]")
        elif two[:1] == "\\":
            out.append(two)
        else:
            in_class = (in_class or two[:1] == "[") and two[:1] != "]"
            out.append(two[:1])
            i += 1
            continue
        i += 2
    return re.compile("".join(out))


def tokens(value: str | list[str] | None, separator: re.Pattern[str]) -> list[str]:
    """The words Material's tokenizer gives lunr for one field (its ``extract`` and ``split``, lower-cased):
    the text between markup, split at the separator."""
    out: list[str] = []
    for text in [] if value is None else [value] if isinstance(value, str) else value:
        for start, end in _text_ranges(text):
            out += separator.split(text[start:end].lower())
    return [w for w in out if w]


def _text_ranges(text: str) -> Iterator[tuple[int, int]]:
    """Material's ``extract``: the ranges of ``text`` outside markup, as it cuts them (a range ends at a
    "<" and starts after a ">"; only those move it, so only they are visited)."""
    start = 0
    for m in _ANGLE.finditer(text):
        end = m.start()
        if m.group() == ">":
            start = end + 1
        elif end > start:
            yield start, end
            start = end
    if len(text) > start:
        yield start, len(text)


_ANGLE = re.compile("[<>]")


def _thousandths(score: float) -> int:
    """``Math.round(score * 1000)``, halves up as JavaScript rounds: lunr keeps this over 1000 as the weight."""
    x = score * 1000
    r = math.floor(x)
    return r + (1 if x - r >= 0.5 else 0)


def _js_order(term: str) -> bytes:
    return term.encode("utf-16-be")  # JavaScript compares strings by UTF-16 code units


_Counts = dict[str, tuple[int, list[dict[int, int]]]]  # term -> (its index in lunr's order, per field {document: tf})
_Index = dict[str, tuple[int, list[list[list[int]]]]]


def _settings(config: dict[str, Any]) -> tuple[frozenset[str], re.Pattern[str], list[str]]:
    """The stop words, separator and fields of Material's search configuration."""
    pipeline = list(config.get("pipeline", []))
    if [p for p in pipeline if p != "stopWordFilter"] or any(lang != "en" for lang in config.get("lang", ["en"])):
        raise SearchIndexError(f"search pipeline {pipeline} / lang {config.get('lang')}: only English with "
                               "the stop word filter (mkdocs.yml's search plugin) can be split")
    return STOP_WORDS if pipeline else frozenset(), js_separator(config["separator"]), list(config["fields"])


def _count_range(data: tuple[list[dict[str, Any]], frozenset[str], re.Pattern[str], list[str]],
                 bounds: tuple[int, int]) -> _Counts:
    """The terms of documents ``bounds`` (in first-seen order, numbered from 0) with their counts per field."""
    docs, stop, separator, fields = data
    postings: _Counts = {}
    for n in range(*bounds):
        doc = docs[n]
        for k, field in enumerate(fields):
            counts = Counter(w for w in tokens(doc.get(field), separator) if w not in stop)  # in first-seen order
            for term, tf in counts.items():
                posting = postings.get(term)
                if posting is None:
                    posting = postings[term] = (len(postings), [{} for _ in fields])
                posting[1][k][n] = tf
    return postings


def term_counts(config: dict[str, Any], docs: list[dict[str, Any]], workers: int = 1) -> _Counts:
    """Every term's index in lunr's term order (first seen, document by document, field by field) and its
    counts per field, in document order; made over ranges of documents (``workers`` processes, see
    compiler/site/search_parallel.py) merged in document order, which keeps both orders."""
    stop, separator, fields = _settings(config)
    out: _Counts = {}
    for part in search_parallel.run("count", _count_range, (docs, stop, separator, fields), len(docs), workers):
        merge_counts(out, part)
    return out


def merge_counts(out: _Counts, part: _Counts) -> None:
    """The counts of the next range of documents (numbered as in the whole) merged into ``out``: a term new
    to ``out`` takes the next index of lunr's order."""
    for term, (_, per_field) in part.items():
        have = out.get(term)
        if have is None:
            out[term] = (len(out), per_field)
        else:
            for mine, theirs in zip(have[1], per_field):
                mine.update(theirs)


def _weigh(per_field: list[dict[int, int]], count: int, boosts: list[float], doc_boosts: list[float]) -> list[list[list[int]]]:
    """A term's postings per field, [[document, lunr's weight in thousandths], ...] (``count``: documents)."""
    with_term = sum(len(c) for c in per_field)
    x = (count - with_term + 0.5) / (with_term + 0.5)
    idf = math.log(1 + abs(x))
    return [[[n, _thousandths(idf * ((_K1 + 1) * tf) / (_K1 * 1.0 + tf) * boosts[k] * doc_boosts[n])]
             for n, tf in counts.items()] for k, counts in enumerate(per_field)]


def _boosts(config: dict[str, Any], docs: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    return ([float(config["fields"][f].get("boost", 1) or 1) for f in config["fields"]],
            [float(d.get("boost") or 1) for d in docs])


def build_index(config: dict[str, Any], docs: list[dict[str, Any]]) -> _Index:
    """lunr's inverted index as Material's worker builds it: term -> (its index in lunr's term order, per
    field [[document, weight in thousandths], ...] in document order)."""
    boosts, doc_boosts = _boosts(config, docs)
    return {term: (k, _weigh(per_field, len(docs), boosts, doc_boosts))
            for term, (k, per_field) in term_counts(config, docs).items()}


def _shards(items: list[str], limit: int) -> Iterator[list[str]]:
    """``items`` (JSON texts) in consecutive runs of at most ``limit`` bytes as a JSON list (an item
    larger than that makes a run of its own)."""
    run: list[str] = []
    size = 1
    for item in items:
        n = len(item.encode("utf-8")) + 1
        if run and size + n > limit:
            yield run
            run, size = [], 1
        run.append(item)
        size += n
    if run:
        yield run


def _doc(doc: dict[str, Any], fields: list[str]) -> list[Any]:
    """A document as the worker reads it: its location, then its fields in order (null where it has none)."""
    return [doc["location"], *[doc.get(f) for f in fields]]


def _chunks(per_field: list[list[list[int]]], parent: list[int], limit: int) -> list[list[list[int]]]:
    """A term's postings cut by document ranges into runs of about ``limit`` bytes of JSON each (each run:
    per field, the flat postings of ``_postings`` for its documents)."""
    by_doc: dict[int, list[tuple[int, int]]] = {}
    for k, postings in enumerate(per_field):
        for n, weight in postings:
            by_doc.setdefault(n, []).append((k, weight))
    runs: list[list[list[list[int]]]] = [[[] for _ in per_field]]
    size = 0
    for n in sorted(by_doc):
        if size > limit:
            runs.append([[] for _ in per_field])
            size = 0
        for k, weight in by_doc[n]:
            runs[-1][k].append([n, weight])
            size += 6 + len(str(n)) + len(str(weight))
    return [[_postings(postings, parent) for postings in run] for run in runs]


def _term_entry(term: str, k: int, per_field: list[list[list[int]]], parent: list[int]) -> tuple[str, list[tuple[str, str]]]:
    """A term's entry in its range's file, and its postings files when its postings are not inline."""
    flat = [_postings(p, parent) for p in per_field]
    if len(_dump(flat)) <= INLINE_BYTES:
        return _dump([term, k, flat]), []
    runs = _chunks(per_field, parent, POSTING_BYTES)
    return _dump([term, k, len(runs)]), [(f"{k}-{j}.json", _dump(run)) for j, run in enumerate(runs)]


class _Weighed(Mapping[str, tuple[int, list[list[list[int]]]]]):
    """The index of ``build_index`` made from ``term_counts``' counts a term at a time, as it is read."""

    def __init__(self, counts: _Counts, parent: list[int], boosts: list[float], doc_boosts: list[float]) -> None:
        self.counts, self.parent, self.boosts, self.doc_boosts = counts, parent, boosts, doc_boosts
        self._made: dict[str, tuple[int, list[list[list[int]]]]] = {}

    def __getitem__(self, term: str) -> tuple[int, list[list[list[int]]]]:
        made = self._made.get(term)
        if made is None:
            k, per_field = self.counts[term]
            made = self._made[term] = k, _weigh(per_field, len(self.parent), self.boosts, self.doc_boosts)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)


_Task = tuple[int, int, int, int]  # terms [start, end) of lunr's order, and the families of top ranges among them


def _entries_range(data: tuple[_Weighed, list[str], list[_Task], list[list[tuple[int, int]]]],
                   bounds: tuple[int, int]) -> tuple[list[str], list[tuple[str, str]], list[tuple[tuple[int, int], tuple[str, bytes]]]]:
    """For the tasks ``bounds``: their terms' entries and postings files, and the top files of their
    families of ranges (compiler/site/search_top.py), the terms weighed once."""
    index, order, tasks, families = data
    entries, postings, tops = [], [], []
    for start, end, first, last in tasks[bounds[0]:bounds[1]]:
        for term in order[start:end]:
            k, weights = index[term]
            entry, files = _term_entry(term, k, weights, index.parent)
            entries.append(entry)
            postings += files
        tops += [(r, top_file_weights(index, order, r, index.parent)) for family in families[first:last] for r in family]
    return entries, postings, tops


def _tasks(terms: int, families: list[list[tuple[int, int]]], k: int) -> list[_Task]:
    """``k`` runs of about equal numbers of terms, none cutting a family of nested top ranges ("p", "pa",
    "par", …: they share their terms, weighed once by the worker that makes them)."""
    spans = [(family[0][0], max(hi for _, hi in family)) for family in families]
    cuts, f = [0], 0
    for i in range(1, k):
        cut = max(terms * i // k, cuts[-1])
        while f < len(spans) and spans[f][1] <= cut:
            f += 1
        if f < len(spans) and spans[f][0] < cut:
            cut = spans[f][1]
        cuts.append(cut)
    cuts.append(terms)
    starts = [lo for lo, _ in spans]
    return [(lo, hi, bisect_left(starts, lo), bisect_left(starts, hi)) for lo, hi in zip(cuts, cuts[1:])]


def _families(ranges: dict[str, tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The wide prefixes' ranges of terms, in families of nested (overlapping) ranges, in order."""
    families: list[list[tuple[int, int]]] = []
    end = -1
    for lo, hi in sorted(set(ranges.values())):
        if lo >= end:
            families.append([])
        families[-1].append((lo, hi))
        end = max(end, hi)
    return families


class Split(NamedTuple):
    """What a split made, for the next one (compiler/site/search_delta.py): each term's counts, the terms in
    lunr's UTF-16 order with their entries, the postings files, where the term files start, the wide
    prefixes' ranges and top files, each document's page, and the number of names files of each length."""

    counts: _Counts
    order: list[str]
    entries: list[str]
    postings: dict[str, str]
    cuts: list[int]
    ranges: dict[str, tuple[int, int]]
    tops: dict[str, str]
    parent: list[int]
    names: dict[int, int]
    weights: dict[str, bytes]  # wide prefix -> its documents' weights (search_top.pack_weights)


def split_search_index(site: Path, made: Callable[[dict[str, Any], list[dict[str, Any]]], _Counts | None] | None = None) -> Split:
    """Replace the site's ``search/search_index.json`` by its split form (see the module's docstring); a
    large index on the machine's cores (compiler/site/search_parallel.py), the same bytes. ``made``: the
    documents' term counts for the index's config and documents where they are made already, else None."""
    data = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    counts = made(data["config"], data["docs"]) if made is not None else None
    return split_documents(site, data["config"], data["docs"], counts)


def split_documents(site: Path, config: dict[str, Any], docs: list[dict[str, Any]], counts: _Counts | None = None) -> Split:
    """``split_search_index`` of the index Material writes for ``config`` and ``docs`` (as read back from
    its JSON); ``counts``: their ``term_counts``, made already (compiler/site/search_early.py)."""
    path = site / "search" / "search_index.json"
    fields = list(config["fields"])
    workers = search_parallel.workers(len(docs))
    articles: dict[str, int] = {}  # page -> its first document (Material's "article": the others' parent)
    parent = [articles.setdefault(d["location"].split("#")[0], n) for n, d in enumerate(docs)]
    if counts is None:
        counts = term_counts(config, docs, workers)
    else:
        search_parallel.MADE.append(("count", "early", 1))
    order = sorted(counts, key=_js_order)
    index = _Weighed(counts, parent, *_boosts(config, docs))
    ranges = top_ranges(counts, order)
    families = _families(ranges)
    tasks = _tasks(len(order), families, search_parallel.SLICES * workers if workers > 1 else 1)
    entries: list[str] = []
    postings: dict[str, str] = {}
    made: dict[tuple[int, int], tuple[str, bytes]] = {}
    for part in search_parallel.run("entries", _entries_range, (index, order, tasks, families), len(tasks), workers):
        entries += part[0]
        postings.update(part[1])
        made.update(part[2])
    tops = {prefix: made[r][0] for prefix, r in ranges.items()}
    term_firsts, terms, cuts = [], {}, []
    by_length: dict[int, list[str]] = {}  # a term's length in UTF-16 code units -> [term, its range], in order
    at = 0
    for i, run in enumerate(_shards(entries, TERM_SHARD_BYTES)):
        term_firsts.append(order[at])
        cuts.append(at)
        terms[f"{i}.json"] = "[" + ",".join(run) + "]"
        for term in order[at:at + len(run)]:
            by_length.setdefault(len(term.encode("utf-16-be")) // 2, []).append(_dump([term, i]))
        at += len(run)
    names = {f"{n}-{k}.json": "[" + ",".join(run) + "]"
             for n, items in by_length.items() for k, run in enumerate(_shards(items, TERM_SHARD_BYTES))}
    name_files = {n: sum(1 for f in names if f.startswith(f"{n}-")) for n in sorted(by_length)}
    pages: dict[int, list[list[Any]]] = {}
    for n, doc in enumerate(docs):
        pages.setdefault(parent[n], []).append(_doc(doc, fields))
    _write_dirs({site / "search" / "terms": terms, site / "search" / "postings": postings,
                 site / "search" / "names": names,
                 site / "search" / "top": {file_name(prefix): text for prefix, text in tops.items()},
                 site / "search" / "docs": {f"{n}.json": _dump(page) for n, page in pages.items()}})
    path.write_text(manifest(config, len(docs), term_firsts, tops, name_files), encoding="utf-8")
    write_worker(site)
    return Split(counts, order, entries, postings, cuts, ranges, tops, parent, name_files,
                 {prefix: made[r][1] for prefix, r in ranges.items()})


def manifest(config: dict[str, Any], count: int, term_firsts: list[str], tops: Mapping[str, str],
             names: dict[int, int]) -> str:
    """The text of ``search/search_index.json``: Material's configuration with the list of the parts."""
    config = dict(config, navlaw={"format": FORMAT, "count": count, "fields": list(config["fields"]),
                                  "terms": term_firsts, "top": sorted(tops, key=_js_order),  # as the worker compares them
                                  "names": names})
    return _dump({"config": config, "docs": []})


def write_worker(site: Path) -> bool:
    """Put the search worker in the site (unless it is there with the same bytes); whether it was written."""
    worker = site / WORKER
    data = (resources.PACKAGE / "templates" / "site" / "search-worker.js").read_bytes()
    if worker.is_file() and worker.read_bytes() == data:
        return False
    worker.parent.mkdir(parents=True, exist_ok=True)
    tmp = worker.parent / f".{worker.name}.tmp"  # a new file: the last site may share it
    tmp.write_bytes(data)
    os.replace(tmp, worker)
    return True


def _write_dirs(dirs: dict[Path, dict[str, str]]) -> None:
    """Make each directory hold exactly its files (name -> text). A file already there with the same bytes
    is left alone: a rebuild after a small edit (``navlaw serve``, a build with the cache, which starts from
    a copy of the last site) rewrites only the parts that changed, and browsers keep the others cached;
    a part that changed is a new file (a hard link to the last site's would be safe). The files are written
    by this process, even when the split's other steps are forked: creating files is the file system's work
    more than the CPU's, and two processes creating them side by side in the same directories took more
    CPU and no less time (at 10x, 2,503 files: 0.33-0.45 s more CPU and 0.14 s more time forked in two)."""
    for where, files in dirs.items():
        where.mkdir(parents=True, exist_ok=True)
        for old in where.iterdir():
            if old.name not in files:
                shutil.rmtree(old) if old.is_dir() else old.unlink()
    todo = [(where, name, text) for where, files in dirs.items() for name, text in files.items()]
    search_parallel.run("write", _write_range, todo, len(todo), 1)


def _write_range(todo: list[tuple[Path, str, str]], bounds: tuple[int, int]) -> int:
    for where, name, text in todo[bounds[0]:bounds[1]]:
        data = text.encode("utf-8")
        path = where / name
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                continue
        except FileNotFoundError:
            pass
        tmp = where / f".{name}.tmp"  # a new file, not one written in place: the last site may share it
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return bounds[1] - bounds[0]


def documents(site: Path) -> list[dict[str, Any]]:
    """The search's documents, as Material wrote them in one file, read back from a built site's parts."""
    manifest = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]["navlaw"]
    out = []
    for path in sorted((site / "search" / "docs").glob("*.json"), key=lambda p: int(p.stem)):
        for row in json.loads(path.read_text(encoding="utf-8")):
            doc = {"location": row[0]}
            doc.update((f, v) for f, v in zip(manifest["fields"], row[1:]) if v is not None)
            out.append(doc)
    return out
