"""How each word is written in the corpus's law text, counted for newmatter.CaseBook (which restores the case of
an act's new matter printed in CAPITALS): alone, and beside the word before and after it.

Counting every word of the corpus was, after a one-section edit of the large consolidated text, the largest
part of a rebuild inside ``navlaw serve`` (27% of it at 10x the corpus). So the counts are kept in the
process with the text they were made from, cut into paragraphs (at blank lines, each holding a word), and a
rebuild counts again only the paragraphs that changed: it takes the last counts, subtracts what the old
paragraphs gave and adds what the new ones give. What a word contributes depends on its paragraph and on the
words just before and after it (a paragraph's first word pairs with the last word of the paragraph before),
so a paragraph is keyed by its own text and both its neighbours': an edit recounts at most three paragraphs
of the old text and three of the new. The counts are those of counting the whole text afresh (tested).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import NamedTuple, TypeVar

WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
_BLANK = re.compile(r"\n\n+")

Counts = dict[str, Counter[str]]
Pairs = dict[tuple[str, str, str], Counter[str]]
K = TypeVar("K")
STATS: Counter[str] = Counter()  # "paragraphs counted", "paragraphs kept": the work the last tallies did


class _Para(NamedTuple):
    text: str  # the whole text the paragraph is in (not copied)
    start: int
    end: int
    prev: str  # the last word before it ("" at the start of the text)
    next: str  # the first word after it ("" at the end)


def count(text: str, counts: Counts, pairs: Pairs, start: int = 0, end: int | None = None,
          prev: str = "", nxt: str = "", sign: int = 1) -> None:
    """Add (``sign`` 1) or take away (-1) what the words starting in ``text[start:end]`` give: how each is
    written where it does not start a sentence and is not in capitals, alone and beside its neighbours.
    ``prev`` and ``nxt`` are the words just outside the span ("": none, the span starts or ends the text)."""
    end = len(text) if end is None else end
    found = [(m.start(), m.group()) for m in WORD.finditer(text, start, end)]
    words = ([prev] if prev else []) + [w for _, w in found] + ([nxt] if nxt else [])
    at = [0] * (1 if prev else 0) + [s for s, _ in found]
    low = [w.lower() for w in words]
    caps = [w.isupper() and len(w) - w.count("'") - w.count("’") >= 2 for w in words]
    last = len(words) - 1
    own = range(1 if prev else 0, len(at))  # the span's own words (not the neighbours)
    # a sentence starts at the text's first word, after a newline, after . : ; or after two spaces
    keep = [k for k in own if k > 0 and not caps[k] and not (
        "\n" in (b := text[max(0, at[k] - 2):at[k]]) or b.strip()[-1:] in ".:;")]
    _add(counts, Counter((low[k], words[k]) for k in keep), sign)
    _add(pairs, Counter((("after", low[k - 1], low[k]), words[k]) for k in keep), sign)
    _add(pairs, Counter((("before", low[k + 1], low[k]), words[k]) for k in keep if k < last and not caps[k + 1]), sign)


def _add(table: dict[K, Counter[str]], got: Counter[tuple[K, str]], sign: int) -> None:
    """``got`` (a key and a word's form, how often) added to ``table`` (taken away: ``sign`` -1); a form, and a
    key, that no word gives any more goes."""
    for (key, w), n in got.items():
        c = table.get(key)
        if c is None:
            c = table[key] = Counter()
        c[w] += sign * n
        if c[w] <= 0:
            del c[w]
            if not c:
                del table[key]


def paragraphs(text: str) -> list[tuple[int, int]]:
    """``text`` cut after each run of blank lines into spans that each hold a word (a span without one joins
    the next; a last one the span before), tiling the text; [] if it has no word."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BLANK.finditer(text):
        if WORD.search(text, start, m.end()):
            spans.append((start, m.end()))
            start = m.end()
    if start < len(text):
        if WORD.search(text, start):
            spans.append((start, len(text)))
        elif spans:
            spans[-1] = (spans[-1][0], len(text))
    return spans


def _last_word(text: str, start: int, end: int) -> str:
    """The last word in ``text[start:end]`` (a span that holds one)."""
    at = text.rfind("\n", start, end - 1) + 1
    while True:
        found = WORD.findall(text, max(at, start), end)
        if found:
            return found[-1]  # type: ignore[no-any-return]
        end, at = at, text.rfind("\n", start, max(at - 1, start)) + 1


def _keyed(texts: list[str]) -> list[tuple[tuple[str, str, str], _Para]]:
    """Every paragraph of ``texts`` by its key (its own digest and its neighbours'), with where it is."""
    out: list[tuple[tuple[str, str, str], _Para]] = []
    for text in texts:
        spans = paragraphs(text)
        ds = [hashlib.sha1(text[a:b].encode("utf-8", "surrogatepass")).hexdigest() for a, b in spans]
        for i, (a, b) in enumerate(spans):
            prev = _last_word(text, *spans[i - 1]) if i else ""
            m = WORD.search(text, b) if i + 1 < len(spans) else None
            key = (ds[i - 1] if i else "start", ds[i], ds[i + 1] if i + 1 < len(spans) else "end")
            out.append((key, _Para(text, a, b, prev, m.group() if m else "")))
    return out


class _State(NamedTuple):
    keys: Counter[tuple[str, str, str]]
    where: dict[tuple[str, str, str], _Para]
    counts: Counts
    pairs: Pairs


_LAST: list[_State] = []  # the last tally of this process, for the next


def tally(texts: list[str]) -> tuple[Counts, Pairs]:
    """How every word of ``texts`` is written, from the last tally of this process where most paragraphs are
    the same, else counted whole. The result is kept for the next tally: read it, do not change it."""
    keyed = _keyed(texts)
    keys = Counter(k for k, _ in keyed)
    where = dict(keyed)
    last = _LAST[0] if _LAST else None
    gone, new = (last.keys - keys, keys - last.keys) if last is not None else (Counter(), keys)
    if last is not None and sum(gone.values()) + sum(new.values()) <= len(keyed) // 2:
        counts: Counts = {k: v.copy() for k, v in last.counts.items()}
        pairs: Pairs = {k: v.copy() for k, v in last.pairs.items()}
        for changes, at, sign in ((gone, last.where, -1), (new, where, 1)):
            for key, times in changes.items():
                p = at[key]
                for _ in range(times):
                    count(p.text, counts, pairs, p.start, p.end, p.prev, p.next, sign)
        STATS["paragraphs counted"] += sum(gone.values()) + sum(new.values())
        STATS["paragraphs kept"] += len(keyed) - sum(new.values())
    else:
        counts, pairs = {}, {}
        for _, p in keyed:  # paragraph by paragraph: what counting holds at once is one paragraph's words
            count(p.text, counts, pairs, p.start, p.end, p.prev, p.next)
        STATS["paragraphs counted"] += len(keyed)
    _LAST[:] = [_State(keys, where, counts, pairs)]
    return counts, pairs
