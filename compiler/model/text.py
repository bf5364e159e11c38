"""Normalised text: the text the grammar reads, the raw text it came from, and the edits between them,
so that every offset of the one maps back to the other (a line and column in the file as received).

``compiler/frontend/normalize.py`` makes a :class:`NormalText`; every stage that reports a position in the
law text reads it through ``raw_linecol``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Literal, NamedTuple


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
    """The edits one normalization step made, sorted by position."""

    reason: str
    edits: list[Edit]
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._starts = [e.new_start for e in self.edits]

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


@dataclass
class NormalText:
    raw: str
    text: str
    stages: list[Stage]
    wrapped: bool
    list_numbering: Literal["artifact", "real"]
    _raw_line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._raw_line_starts = [0] + [m.end() for m in re.finditer("\n", self.raw)]
        self._mapping = [s for s in reversed(self.stages) if s.edits]  # stages that changed nothing map 1:1

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
        end = starts[line] - 1 if line < len(starts) else len(self.raw)
        return self.raw[starts[line - 1] : end]

    def denormalize(self) -> str:
        text = self.text
        for stage in reversed(self.stages):
            text = stage.undo(text)
        return text
