"""Normalised text: the text the grammar reads, the raw text it came from, and the edits between them,
so that every offset of the one maps back to the other (a line and column in the file as received).

``compiler/frontend/normalize.py`` makes a :class:`NormalText`; every stage that reports a position in the
law text reads it through ``raw_linecol``.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Callable, Iterator, Literal, NamedTuple


class Edit(NamedTuple):
    """One replacement: ``new[new_start:new_end]`` stands for ``old[old_start:old_end]`` (= ``old_text``).
    A tuple, not a frozen dataclass: a text can hold thousands of edits, and a tuple is made 4x faster."""

    new_start: int
    new_end: int
    old_start: int
    old_end: int
    old_text: str
    reason: str


@dataclass
class Stage:
    """The edits one normalization step made, sorted by position (in the text before the step and after
    it: each step edits left to right, no two edits overlapping)."""

    reason: str
    edits: list[Edit]
    _starts: array[int] = field(default_factory=lambda: array("q"), repr=False)

    def __post_init__(self) -> None:
        self._starts = array("q", [e.new_start for e in self.edits])  # 8 bytes an edit, not an int object's 36

    def to_old(self, pos: int) -> int:
        i = bisect_right(self._starts, pos) - 1
        if i < 0:
            return pos
        e = self.edits[i]
        if pos < e.new_end:
            return e.old_start + min(pos - e.new_start, e.old_end - e.old_start)
        return e.old_end + (pos - e.new_end)

    def undo(self, new_text: str) -> str:
        out, last = [], 0
        for e in self.edits:
            out.append(new_text[last : e.new_start])
            out.append(e.old_text)
            last = e.new_end
        out.append(new_text[last:])
        return "".join(out)

    def old_slice(self, a: int, b: int, new_slice: Callable[[int, int], str]) -> str:
        """``old[a:b]``, the text before this step, made from the edits' old texts and ``new_slice(x, y)``
        (the text after the step, ``new[x:y]``) between them: what ``undo`` gives, without the whole text."""
        edits = self.edits
        i = bisect_right(edits, a, key=_OLD_END)  # the first edit that ends after a
        out: list[str] = []
        pos = a
        while pos < b:
            e = edits[i] if i < len(edits) else None
            if e is not None and e.old_start <= pos:  # inside an edit: its old text
                stop = min(b, e.old_end)
                out.append(e.old_text[pos - e.old_start : stop - e.old_start])
                i += 1
            else:  # between edits: the text is the step's, shifted by what the edits before changed
                stop = b if e is None else min(b, e.old_start)
                shift = edits[i - 1].new_end - edits[i - 1].old_end if i else 0
                out.append(new_slice(pos + shift, stop + shift))
            pos = stop
        return "".join(out)

    def ordered(self) -> bool:
        """Whether the edits are in order, none overlapping another, in both texts (what ``old_slice``
        and ``to_old`` rely on)."""
        last_old = last_new = 0
        for e in self.edits:
            if e.old_start < last_old or e.new_start < last_new or e.old_end < e.old_start or e.new_end < e.new_start \
                    or len(e.old_text) != e.old_end - e.old_start:
                return False
            last_old, last_new = e.old_end, e.new_end
        return True


_OLD_END = itemgetter(3)
_PIECE = 1 << 16  # characters compared at a time when a raw text is let go


class NormalText:
    """The text the grammar reads (``text``), the steps that made it from the file's text as received
    (``stages``), and that raw text. Once the document's tree is built the raw text is let go
    (``release_raw``): a slice or a line of it is made from ``text`` and the edits when asked (each
    edit keeps the characters it replaced), so a document holds its text once, not twice. A raw text
    is often twice the normalised one in memory: one character outside Latin-1 (a mojibake "ｧ", a
    dash) makes Python keep every character of it in two bytes."""

    def __init__(self, raw: str, text: str, stages: list[Stage], wrapped: bool,
                 list_numbering: Literal["artifact", "real"]) -> None:
        self._raw: str | None = raw
        self._raw_len = len(raw)
        self.text = text
        self.stages = stages
        self.wrapped = wrapped
        self.list_numbering: Literal["artifact", "real"] = list_numbering
        # where each raw line starts: 8 bytes a line (a list of ints was 44)
        self._raw_line_starts = array("q", [0])
        self._raw_line_starts.extend(m.end() for m in re.finditer("\n", raw))
        self._forward = [s for s in stages if s.edits]  # stages that changed nothing map 1:1
        self._mapping = self._forward[::-1]

    def __repr__(self) -> str:
        return f"NormalText({len(self.text)} characters, {len(self.stages)} stages, wrapped={self.wrapped})"

    @property
    def raw(self) -> str:
        """The file's text as received (rebuilt from ``text`` and the edits once released)."""
        return self._raw if self._raw is not None else self.denormalize()

    @property
    def raw_held(self) -> bool:
        return self._raw is not None

    @property
    def raw_length(self) -> int:
        return self._raw_len

    def release_raw(self) -> bool:
        """Let the raw text go, when ``text`` and the edits rebuild it exactly (checked: they always
        should; if not, it is kept and nothing changes). Whether it was let go."""
        raw = self._raw
        if raw is None:
            return True
        if not all(s.ordered() for s in self.stages):
            return False
        # compared a piece at a time, made as raw_slice will make it: never a second whole text at once
        if any(self._slice(0, a, min(a + _PIECE, len(raw))) != raw[a : a + _PIECE] for a in range(0, len(raw), _PIECE)):
            return False
        self._raw = None
        return True

    def raw_slice(self, start: int, end: int) -> str:
        """``raw[start:end]`` (raw offsets, ``0 <= start <= end <= len(raw)``), without the whole raw text."""
        if self._raw is not None:
            return self._raw[start:end]
        start, end = max(0, start), min(end, self._raw_len)
        if start >= end:
            return ""
        return self._slice(0, start, end)

    def raw_pieces(self, size: int = 1 << 16) -> Iterator[str]:
        """The raw text in consecutive pieces of ``size`` characters (the last may be shorter)."""
        for a in range(0, self._raw_len, size):
            yield self.raw_slice(a, a + size)

    def raw_contains(self, needle: str) -> bool:
        """Whether ``needle`` is in the raw text, found piece by piece once the raw text is let go."""
        if self._raw is not None:
            return needle in self._raw
        keep = len(needle) - 1  # the end of a piece a match may start in
        tail = ""
        for piece in self.raw_pieces(max(1 << 16, 4 * len(needle))):
            if needle in tail + piece:
                return True
            tail = piece[len(piece) - keep :] if keep else ""
        return not needle

    def _slice(self, k: int, a: int, b: int) -> str:
        """``[a:b]`` of the text before the k-th stage that edits (after the last one: ``text``)."""
        forward = self._forward
        if k == len(forward):
            return self.text[a:b]
        return forward[k].old_slice(a, b, lambda x, y: self._slice(k + 1, x, y))

    def raw_offset(self, pos: int) -> int:
        for stage in self._mapping:
            pos = stage.to_old(pos)
        return pos

    def raw_linecol(self, pos: int) -> tuple[int, int]:
        """1-based line and column in the raw file of normalized offset ``pos``."""
        r = self.raw_offset(pos)
        i = bisect_right(self._raw_line_starts, r) - 1
        return i + 1, r - self._raw_line_starts[i] + 1

    def raw_line(self, line: int) -> str:
        starts = self._raw_line_starts
        if not 1 <= line <= len(starts):
            return ""
        end = starts[line] - 1 if line < len(starts) else self._raw_len
        return self.raw_slice(starts[line - 1], end)

    def denormalize(self) -> str:
        text = self.text
        for stage in reversed(self.stages):
            text = stage.undo(text)
        return text
