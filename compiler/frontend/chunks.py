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
from array import array
from collections import Counter
from typing import Callable, NamedTuple

from navlaw.frontend.parse import Label, Line, Span, _parse_span, parse_lines

# Where a chunk may start: a line (not blank: something other than spaces follows) that opens a section
# ("§ 12.", "* § 89-b.", "Section 4."), an article or part, or an LBDC record.
# (Found from the newline before the line: a search that starts with a literal character is five times faster
# than one anchored at every line start.)
_CUT = re.compile(r"\n(?=[ \t]*(?:\*[ \t]*)?(?:§|Section[ \t]|S[ \t]+[0-9]|ARTICLE|Article|PART[ \t]|Part[ \t]|\.\.SO DOC))")


class _Chunk(NamedTuple):
    """A chunk's lines, compactly (what ``navlaw serve`` holds of a document between builds: 8 bytes a
    number, not a tuple and a string a line): per line its kind, start, end, indent, body start and number of
    labels, then each label's start and end, all from the chunk's start. The bodies and the labels' text are
    the text's own characters, sliced again when the lines are made."""

    nums: array[int]
    olds: tuple[tuple[int, str], ...]  # (label's number in the chunk, its old label) for the labels that have one
    errors: tuple[tuple[int, str], ...]  # (offset from the chunk's start, reason)


_KINDS = ("blank", "record_head", "section_head", "article_head", "part_head", "tab_row", "pipe_row", "leader_row",
          "formula_rule", "provision", "text", "unparsed")
_KIND = {k: n for n, k in enumerate(_KINDS)}


def _encode(lines: list[Line], a: int, errors: tuple[tuple[int, str], ...]) -> _Chunk | None:
    nums: array[int] = array("q")
    olds: list[tuple[int, str]] = []
    k = 0
    for line in lines:
        kind = _KIND.get(line.kind)
        if kind is None:
            return None
        nums.extend((kind, line.start - a, line.end - a, line.indent, line.body_start - a, len(line.labels)))
        for lab in line.labels:
            nums.extend((lab.start - a, lab.end - a))
            if lab.old:
                olds.append((k, lab.old))
            k += 1
    return _Chunk(nums, tuple(olds), tuple((o - a, r) for o, r in errors))


def _decode(text: str, chunk: _Chunk, a: int) -> list[Line]:
    """The chunk's lines, where it starts at ``a`` in ``text``."""
    nums, out = chunk.nums, []
    olds = dict(chunk.olds)
    i, k, n = 0, 0, len(nums)
    find = text.find
    while i < n:
        kind, start, end, indent, body, count = nums[i : i + 6]
        i += 6
        labels = []
        for _ in range(count):
            s, e = nums[i] + a, nums[i + 1] + a
            labels.append(Label(text[s:e].rstrip(), s, e, olds.get(k, "")))
            i += 2
            k += 1
        body += a
        nl = find("\n", body, end + a)
        out.append(Line(_KINDS[kind], start + a, end + a, indent, tuple(labels), body,
                        text[body : nl if nl >= 0 else end + a]))
    return out


_MEMO: dict[str, dict[bytes, _Chunk]] = {}  # document -> chunk digest -> its lines
STATS: Counter[str] = Counter()  # "chunks parsed", "chunks reused", "lark calls": what the tests count


def cuts(text: str, pos: int, end: int) -> list[int]:
    """The chunk boundaries of ``text[pos:end]`` (whole lines): pos, the cuts inside, end."""
    return [pos, *(m.start() + 1 for m in _CUT.finditer(text, pos, end) if pos < m.start() + 1 < end), end]


def _digest(text: str, a: int, b: int) -> bytes:
    return hashlib.blake2b(text[a:b].encode("utf-8", "surrogatepass"), digest_size=20).digest()


def lines_of(text: str, errors: list[tuple[int, str]] | None, document: str) -> list[Line]:
    """``parse_lines(text, errors)`` of the text ``document`` now has, parsing only the chunks that are not
    those of its last text; this text's chunks become the memo of ``document``. No ``document``: the whole
    text parsed, nothing kept (a text read once: an act's new matter, `navlaw show` of a file)."""
    if not document:
        return parse_lines(text, errors)
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
        if got is not None:  # unchanged: its lines, where it starts now
            out.extend(_decode(text, got, a))
            if errors is not None:
                errors.extend((o + a, r) for o, r in got.errors)
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
        # line by line; if a line ever ran over a cut, the chunk is simply parsed again next time) and
        # read back as they are
        if first < i and lines[first].start == a and lines[i - 1].end == b:
            got = _encode(lines[first:i], a, tuple(e for e in errs if a <= e[0] < b))
            if got is not None and _decode(text, got, a) == lines[first:i]:
                new[keys[c]] = got


_NONE: dict[int, str] = {}  # never written to
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
            got = find(text[a:b]) or _NONE  # most chunks have none: one empty dict for them all
            STATS[f"{what} found"] += 1
        new[key] = got
        out.update((at + a, v) for at, v in got.items())
    _LOCAL[(document, what)] = new
    return out


_AGAIN: set[str] = set()  # the documents this process compiled before


def settle(document: str) -> None:
    """After a document's compile in a corpus: the first time this process compiles it, its memo is let
    go (a one-off ``navlaw build`` holds no more than the tree; the build cache keeps the memo for the next
    process); from the second time on (``navlaw serve`` rebuilding after a save) it is kept for the next."""
    if document not in _AGAIN:
        _AGAIN.add(document)
        _MEMO.pop(document, None)
        for k in [k for k in _LOCAL if k[0] == document]:  # and the line roles found chunk by chunk
            del _LOCAL[k]


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
        _AGAIN.clear()
    else:
        _MEMO.pop(document, None)
        _AGAIN.discard(document)
        for k in [k for k in _LOCAL if k[0] == document]:
            del _LOCAL[k]
