"""A regular expression compiled the first time it is used, for a module's patterns that most builds never use
(issue 32: a fresh process compiles every module-level pattern of every module it imports; an edit of one
section imports the act-reading modules but reads no act, and left a third of navlaw's module-level
patterns, 15 ms of them, compiled and unused).

``lazy(pattern, flags)`` stands where ``re.compile(pattern, flags)`` stood, for the methods a module calls
on it (match, fullmatch, search, sub, subn, split, finditer, findall): the same results, the pattern
compiled once, by ``re``, on the first call."""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, Iterator

Replacement = str | Callable[[re.Match[str]], str]


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: Replacement, string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def subn(self, repl: Replacement, string: str, count: int = 0) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count)


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
