"""Parses normalized statute text with the Lark grammar in grammar/statute.lark into classified lines."""

from __future__ import annotations

from typing import NamedTuple
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedInput

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "statute.lark"


class Label(NamedTuple):
    text: str  # as written, without trailing spaces: "(a)", "4.", "(1-a)"
    start: int  # offsets in the normalized text
    end: int  # end of the label *with* its trailing spaces
    old: str = ""  # the bracketed old label before it ("[(b)]" -> "(b)"), if any


class Line(NamedTuple):
    """One line of normalized text, classified by the grammar.

    ``kind`` is the grammar rule: blank, section_head, article_head, part_head, tab_row, pipe_row,
    leader_row, formula_rule, provision, text. ``start``/``end`` cover the whole line with its
    newline; ``body_start`` is where the content after indentation and labels begins."""

    kind: str
    start: int
    end: int  # after the newline and any blank lines that follow
    indent: int
    labels: tuple[Label, ...]
    body_start: int
    body: str  # the content after indentation and labels, without the newline


class _Lines(Transformer[Token, list[Line]]):
    """Turns each line rule into a Line. Used inline by the LALR parser (no parse tree is built)."""

    def start(self, items: list[list[Line]]) -> list[Line]:
        return items[0]

    def lines(self, items: list[list[Line] | Line]) -> list[Line]:
        if not items:
            return []
        acc, line = items
        acc.append(line)  # type: ignore[union-attr,arg-type]
        return acc  # type: ignore[return-value]

    def blank(self, items: list[Token]) -> Line:
        t = items[0]
        return Line("blank", t.start_pos, t.end_pos, 0, (), t.end_pos - 1, "")  # type: ignore[operator]

    def _make(self, kind: str, items: list[Token]) -> Line:
        items = [x for c in items for x in (c if isinstance(c, list) else [c])]
        first, last = items[0], items[-1]
        indent = len(first) if first.type == "INDENT" else 0
        labels: list[Label] = []
        old = ""
        body: Token | None = None
        for t in items:
            if t.type == "OLD_LABEL":
                old = t.value.strip()[1:-1]
            elif t.type == "LABEL":
                labels.append(Label(t.value.rstrip(), t.start_pos, t.end_pos, old))  # type: ignore[arg-type]
                old = ""
            elif t.type not in ("INDENT", "NL"):
                body = t
        body_start = body.start_pos if body is not None else last.end_pos - 1
        return Line(kind, first.start_pos, last.end_pos, indent, tuple(labels), body_start,  # type: ignore[arg-type]
                    body.value.split("\n", 1)[0] if body is not None else "")

    def __default__(self, data, children, meta):  # type: ignore[no-untyped-def]
        if str(data).startswith("_"):  # Lark's helpers for repetitions: it inlines them itself
            return Tree(data, children)
        return self._make(str(data), children)

    # one method per line rule: a direct call is cheaper than __default__'s dispatch
    def section_head(self, items: list[Token]) -> Line:
        return self._make("section_head", items)

    def text(self, items: list[Token]) -> Line:
        return self._make("text", items)

    def provision(self, items: list[Token]) -> Line:
        return self._make("provision", items)


@lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                transformer=_Lines(), maybe_placeholders=False)


def _shift(line: Line, by: int) -> Line:
    if not by:
        return line
    labels = tuple(Label(l.text, l.start + by, l.end + by, l.old) for l in line.labels)
    return Line(line.kind, line.start + by, line.end + by, line.indent, labels, line.body_start + by, line.body)


def parse_lines(text: str, errors: list[tuple[int, str]] | None = None) -> list[Line]:
    """Classify every line of ``text``. The lines tile the text exactly (plus a final newline if the
    text lacked one). A line the grammar cannot place becomes an "unparsed" line, and its offset and
    the reason go to ``errors``; parsing goes on after it."""
    length = len(text)
    if not text.endswith("\n"):
        text += "\n"
    out: list[Line] = []
    pos = 0
    while pos < len(text):
        try:
            lines = parser().parse(text[pos:])
            out.extend(_shift(l, pos) for l in lines)  # type: ignore[union-attr]
            break
        except UnexpectedInput as exc:
            bad = pos + (exc.pos_in_stream or 0)
            line_start = text.rfind("\n", 0, bad) + 1
            line_end = text.index("\n", bad) + 1
            if line_start > pos:
                out.extend(_shift(l, pos) for l in parser().parse(text[pos:line_start]))  # type: ignore[union-attr]
            char = text[bad]
            reason = (f"unexpected character U+{ord(char):04X}" if char.isprintable() is False and char != "\n"
                      else f"unexpected {char!r}")
            if errors is not None:
                errors.append((bad, reason))
            body = text[line_start : line_end - 1]
            out.append(Line("unparsed", line_start, line_end, 0, (), line_start, body))
            pos = line_end
    if out and out[-1].end > length:  # the newline added above is not part of the text
        last = out[-1]
        out[-1] = Line(last.kind, last.start, length, last.indent, last.labels, min(last.body_start, length), last.body)
    return out
