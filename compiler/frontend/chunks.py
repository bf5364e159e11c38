"""The parser's lines of a document, by section: after an edit only the changed sections are parsed again.

The grammar (grammar/statute.lark) is line by line: every token ends at a newline (with the blank lines
after it), and at the start of every line that is not blank the LALR parser is in the same state (after
``lines``). So the lines Lark gives for ``text[a:b]``, when ``a`` and ``b`` are starts of lines that are not
blank, are the lines it gives for the whole text between ``a`` and ``b``, moved by ``a`` — and a line it
cannot place is reported and skipped the same way (frontend/parse.py's ``_parse_span`` restarts after it).

A text is cut into *chunks* at the lines that open a section, an article or an LBDC record (any cut at a
non-blank line start would be right; these keep one section a chunk). For each document (named by the
caller, in one process: ``navlaw serve`` rebuilding after each save) the memo holds the lines of each chunk
of the text it parsed last, under the chunk's digest. The next parse of that document takes a chunk whose
bytes are unchanged from the memo, moved to where the chunk now starts, and parses the runs of changed
chunks (one Lark call per run: a fresh document is one run, parsed as it always was).

The memo keeps only the last text of each document: it does not grow edit after edit.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import Callable, NamedTuple

from navlaw.frontend.parse import Line, Span, _parse_span, _shift, parse_lines

# Where a chunk may start: a line (not blank: something other than spaces follows) that opens a section
# ("§ 12.", "* § 89-b.", "Section 4."), an article or part, or an LBDC record.
# (Found from the newline before the line: a search that starts with a literal character is five times faster
# than one anchored at every line start.)
_CUT = re.compile(r"\n(?=[ \t]*(?:\*[ \t]*)?(?:§|Section[ \t]|S[ \t]+[0-9]|ARTICLE|Article|PART[ \t]|Part[ \t]|\.\.SO DOC))")


class _Chunk(NamedTuple):
    start: int  # where the chunk started in the text it was parsed in
    lines: list[Line]  # that text's lines (shared by every chunk of it) ...
    first: int  # ... lines[first:last] are this chunk's
    last: int
    errors: tuple[tuple[int, str], ...]  # (offset in that text, reason)


_MEMO: dict[str, dict[bytes, _Chunk]] = {}  # document -> chunk digest -> its lines
STATS: Counter[str] = Counter()  # "chunks parsed", "chunks reused", "lark calls": what the tests count


def cuts(text: str, pos: int, end: int) -> list[int]:
    """The chunk boundaries of ``text[pos:end]`` (whole lines): pos, the cuts inside, end."""
    return [pos, *(m.start() + 1 for m in _CUT.finditer(text, pos, end) if pos < m.start() + 1 < end), end]


def _digest(text: str, a: int, b: int) -> bytes:
    return hashlib.blake2b(text[a:b].encode("utf-8", "surrogatepass"), digest_size=20).digest()


def lines_of(text: str, errors: list[tuple[int, str]] | None, document: str) -> list[Line]:
    """``parse_lines(text, errors)`` of the text ``document`` now has, parsing only the chunks that are not
    those of its last text; this text's chunks become the memo of ``document``."""
    old = _MEMO.get(document, {})
    new: dict[bytes, _Chunk] = {}

    def span(text: str, pos: int, end: int, out: list[Line], errors: list[tuple[int, str]] | None) -> None:
        _span(text, pos, end, out, errors, _parse_span, old, new)

    before = STATS["chunks parsed"]
    lines = parse_lines(text, errors, span)
    _MEMO[document] = new
    STATS[f"chunks parsed: {document}"] += STATS["chunks parsed"] - before
    return lines


def _span(text: str, pos: int, end: int, out: list[Line], errors: list[tuple[int, str]] | None,
          parse: Span, old: dict[bytes, _Chunk], new: dict[bytes, _Chunk]) -> None:
    """``parse(text, pos, end, out, errors)`` (frontend/parse.py's ``_parse_span``), through the memo of
    the document's chunks; what it appends to ``out`` and ``errors`` is what ``parse`` would."""
    bounds = cuts(text, pos, end)
    keys = [_digest(text, a, b) for a, b in zip(bounds, bounds[1:])]
    k = 0
    n = len(keys)
    while k < n:
        got = old.get(keys[k]) or new.get(keys[k])
        a = bounds[k]
        if got is not None:  # unchanged: its lines, moved to where it starts now
            by = a - got.start
            out.extend([_shift(l, by) for l in got.lines[got.first : got.last]])
            if errors is not None:
                errors.extend((o + by, r) for o, r in got.errors)
            new[keys[k]] = got
            STATS["chunks reused"] += 1
            k += 1
            continue
        j = k  # a run of changed chunks, parsed in one call
        while j < n and (old.get(keys[j]) or new.get(keys[j])) is None:
            j += 1
        _parse_run(text, bounds, keys, k, j, out, errors, new, parse)
        k = j


def _parse_run(text: str, bounds: list[int], keys: list[bytes], k: int, j: int, out: list[Line],
               errors: list[tuple[int, str]] | None, new: dict[bytes, _Chunk], parse: Span) -> None:
    """Parse chunks k..j-1 in one call into ``out``, and remember each chunk's lines and errors."""
    lines: list[Line] = []
    errs: list[tuple[int, str]] = []
    parse(text, bounds[k], bounds[j], lines, errs)
    STATS["lark calls"] += 1
    STATS["chunks parsed"] += j - k
    out.extend(lines)
    if errors is not None:
        errors.extend(errs)
    i = 0
    for c in range(k, j):
        a, b = bounds[c], bounds[c + 1]
        first = i
        while i < len(lines) and lines[i].start < b:
            i += 1
        # a chunk is remembered only when its lines tile it exactly (they always do, the grammar being
        # line by line; if a line ever ran over a cut, the chunk is simply parsed again next time)
        if first < i and lines[first].start == a and lines[i - 1].end == b:
            new[keys[c]] = _Chunk(a, lines, first, i, tuple(e for e in errs if a <= e[0] < b))


_LOCAL: dict[tuple[str, str], dict[bytes, dict[int, str]]] = {}  # (document, what) -> chunk digest -> found


def line_local(document: str, what: str, text: str, find: Callable[[str], dict[int, str]]) -> dict[int, str]:
    """``find(text)``, for a ``find`` that reads each line on its own (it gives something for some lines, by
    their start): chunk by chunk, a chunk unchanged since ``document``'s last text given what it gave then,
    moved to where the chunk now starts (formats.copied_roles: the roles of web chrome, bill furniture and
    LBDC notes). No ``document``: ``find(text)``."""
    if not document:
        return find(text)
    bounds = cuts(text, 0, len(text))
    old = _LOCAL.get((document, what), {})
    new: dict[bytes, dict[int, str]] = {}
    out: dict[int, str] = {}
    for a, b in zip(bounds, bounds[1:]):
        key = _digest(text, a, b)
        got = old.get(key)
        if got is None:
            got = new.get(key)
        if got is None:
            got = find(text[a:b])
            STATS[f"{what} found"] += 1
        new[key] = got
        out.update((at + a, v) for at, v in got.items())
    _LOCAL[(document, what)] = new
    return out


def memo_of(document: str) -> dict[bytes, _Chunk] | None:
    """What the memo holds for ``document`` (to keep on disk for the next process: frontend/corpus.py)."""
    return _MEMO.get(document)


def recall(document: str, memo: object) -> None:
    """Give the memo what a former process kept of ``document`` (BuildCache: sealed, ours), unless it has its
    own. Only a chunk's digest decides whether it is reused, so an old memo is never wrong, only missed."""
    if document not in _MEMO and isinstance(memo, dict):
        _MEMO[document] = memo


def forget(document: str | None = None) -> None:
    """Drop the memo of one document, or of all (tests)."""
    if document is None:
        _MEMO.clear()
        _LOCAL.clear()
    else:
        _MEMO.pop(document, None)
        for k in [k for k in _LOCAL if k[0] == document]:
            del _LOCAL[k]
