"""`navlaw fee`'s itemized quote as a boxed text table, fitted to the terminal's width.

Plain Python (textwrap, no table library): `navlaw fee` starts in little more than the time the fee
module takes to import, and a table library cost as much again (issue 32)."""

from __future__ import annotations

import os
import sys
import textwrap
import unicodedata
from typing import Any

PAD = 1  # spaces each side of a cell


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fold(text: str, width: int) -> list[str]:
    """``text`` wrapped at spaces to ``width`` columns, a word longer than that folded."""
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def _fit(natural: list[int], wrapping: list[bool], room: int) -> list[int]:
    """Column widths within ``room``: the widest wrapping column gives up a column at a time."""
    widths = list(natural)
    while sum(widths) > room:
        candidates = [i for i, w in enumerate(wrapping) if w and widths[i] > 8]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def table(title: str, header: list[str], rows: list[list[str]], footer: list[str], right: set[int],
          wrapping: list[bool], width: int) -> list[str]:
    """A table with a heavy head, light body and a footer row, ``width`` columns at most."""
    n = len(header)
    natural = [max(_width(r[i]) for r in [header, *rows, footer]) for i in range(n)]
    widths = _fit(natural, wrapping, width - (2 * PAD + 1) * n - 1)

    def line(left: str, fill: str, cross: str, end: str) -> str:
        return left + cross.join(fill * (w + 2 * PAD) for w in widths) + end

    def row(cells: list[str], bar: str) -> list[str]:
        wrapped = [_fold(c, widths[i]) if wrapping[i] else [c] for i, c in enumerate(cells)]
        out = []
        for k in range(max(len(w) for w in wrapped)):
            parts = []
            for i, lines in enumerate(wrapped):
                text = lines[k] if k < len(lines) else ""
                gap = " " * max(widths[i] - _width(text), 0)
                parts.append(" " * PAD + (gap + text if i in right else text + gap) + " " * PAD)
            out.append(bar + bar.join(parts) + bar)
        return out

    total = sum(widths) + (2 * PAD + 1) * n + 1
    out = [title.center(total).rstrip() if _width(title) <= total else title]
    out.append(line("┏", "━", "┳", "┓"))
    out += row(header, "┃")
    out.append(line("┡", "━", "╇", "┩"))
    for r in rows:
        out += row(r, "│")
    out.append(line("├", "─", "┼", "┤"))
    out += row(footer, "│")
    out.append(line("└", "─", "┴", "┘"))
    return out


def columns() -> int:
    """The terminal's width: $COLUMNS, else the terminal's, else 80 (as shutil.get_terminal_size, without
    the archive modules shutil imports)."""
    try:
        width = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ is not None else 0
        except (AttributeError, ValueError, OSError):
            width = 0
    return width if width > 0 else 80


def quote_text(q: Any, width: int | None = None) -> str:
    """A navlaw_fees Quote as text: its lines with their amounts and citations, the total, and its
    notes, to the terminal's width (80 columns when the output is not a terminal)."""
    width = width or columns()
    out: list[str] = []
    alternatives = getattr(q, "alternatives", ())  # a date known only between bounds: each possible amount
    for title, one in [("" if not alternatives else " · if the change had not yet taken effect", q)] + [
            (f" · if {a.condition}", a.quote) for a in alternatives]:
        out += ([""] if out else []) + table(
            f"{one.route} · {one.units} pilotage units · {one.on.isoformat()}{title}", ["Item", "Amount", "Citation"],
            [[line.description, f"${line.amount:,.2f}", line.citation] for line in one.lines],
            ["Total", f"${one.total:,.2f}", ""], right={1}, wrapping=[True, False, True], width=width)
    for note in q.notes:
        out += textwrap.wrap(f"• {note}", width, break_long_words=True, break_on_hyphens=False)
    return "\n".join(out)
