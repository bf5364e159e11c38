"""Diagnostics: findings about the input, each pointing at file:line:col with a caret excerpt."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Iterator


class Severity(IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Diagnostic:
    """One finding. ``line`` and ``column`` are 1-based and refer to the raw file as received."""

    severity: Severity
    message: str
    file: str = "<input>"
    line: int = 0
    column: int = 0
    source_line: str = ""  # the raw line, for the caret excerpt
    code: str = ""  # a short machine-readable kind, e.g. "label-sequence"
    hint: str = ""

    def format(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        out = f"{where}: {self.severity}: {self.message}"
        if self.code:
            out += f" [{self.code}]"
        if self.source_line:
            out += "\n" + excerpt(self.source_line, self.column)
        if self.hint:
            out += f"\n  hint: {self.hint}"
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": str(self.severity),
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        }


def excerpt(line: str, column: int, width: int = 100) -> str:
    """The source line (clipped around the column if long) with a caret under ``column``."""
    line = line.rstrip("\n").replace("\t", " ")
    col = max(column - 1, 0)
    start = 0
    if len(line) > width:
        start = max(0, min(col - width // 3, len(line) - width))
        line = line[start : start + width]
    prefix = "... " if start else "    "
    return f"  {prefix}{line}\n  {' ' * (len(prefix) + col - start)}^"


@dataclass
class Diagnostics:
    """A collector: stages append findings and carry on (collect-all, never fail-fast by default)."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, d: Diagnostic) -> None:
        self.items.append(d)

    def extend(self, ds: list[Diagnostic] | Diagnostics) -> None:
        self.items.extend(ds.items if isinstance(ds, Diagnostics) else ds)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


class NavlawError(Exception):
    """Input navlaw cannot process at all (unreadable file, bad manifest): carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))


def shown_from(d: Diagnostic, corpus: str) -> Diagnostic:
    """A finding as the terminal shows it: its file (named relative to the manifest in what a build
    publishes) as a path from where the user is, the corpus as they spelled it."""
    import dataclasses
    from pathlib import Path

    if not corpus or not d.file or Path(d.file).is_absolute() or not (Path(corpus) / d.file).is_file():
        return d
    return dataclasses.replace(d, file=str(Path(corpus) / d.file))


def print_errors(diagnostics: Diagnostics | list[Diagnostic], corpus: str) -> None:
    """The errors among ``diagnostics`` on stderr, each named from where the user is (``shown_from``): how every
    command that reads the corpus reports what stops it, as `navlaw build` does."""
    import sys

    for d in diagnostics:
        if d.severity >= Severity.ERROR:
            print(shown_from(d, corpus).format(), file=sys.stderr)
