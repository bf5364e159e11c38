"""Parses normalized statute text with the Lark grammar in grammar/statute.lark into classified lines."""

from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple, cast
from functools import lru_cache

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedInput

from navlaw import resources
from navlaw.cache import lark_parser
from navlaw.frontend.terminals import lark_terminals

GRAMMAR = resources.path("grammar", "statute.lark")


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

    def lines(self, items: list[Any]) -> list[Line]:
        """``lines: (lines line)?``: the list so far and one more Line (Lark gives them as one list)."""
        if not items:
            return []
        acc: list[Line] = items[0]
        acc.append(items[1])
        return acc

    def blank(self, items: list[Token]) -> Line:
        t = items[0]
        end = t.end_pos or 0  # Lark's positions are Optional; the lexer sets them on every token
        return Line("blank", t.start_pos or 0, end, 0, (), end - 1, "")

    def _make(self, kind: str, items: list[Token]) -> Line:
        first, last = items[0], items[-1]
        indent = len(first) if first.type == "INDENT" else 0
        return Line(kind, first.start_pos or 0, last.end_pos or 0, indent, (), last.start_pos or 0,
                    last.value.split("\n", 1)[0])

    def provision(self, items: list[Token]) -> Line:
        """A PROVISION token holds the labels and the text: the labels are split off with the
        grammar's own LABEL and OLD_LABEL terminals."""
        first, tok = items[0], items[-1]
        indent = len(first) if first.type == "INDENT" else 0
        value: str = tok.value
        base = tok.start_pos or 0
        end = tok.end_pos or 0
        label_re, old_re = _label_patterns()
        labels: list[Label] = []
        pos = 0
        while True:
            old = ""
            m = old_re.match(value, pos)
            if m:
                old = m.group().strip()[1:-1]
                pos = m.end()
            m = label_re.match(value, pos)
            if not m:  # the token's regex guarantees a label after an old label
                break
            labels.append(Label(m.group().rstrip(), base + m.start(), base + m.end(), old))
            pos = m.end()
        body = value[pos:].split("\n", 1)[0]
        body_start = base + pos if body else end - 1
        return Line("provision", first.start_pos or 0, end, indent, tuple(labels), body_start, body)

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        if str(data).startswith("_"):  # Lark's helpers for repetitions: it inlines them itself
            return Tree(data, children)
        return self._make(str(data), children)

    # one method per line rule: a direct call is cheaper than __default__'s dispatch
    def section_head(self, items: list[Token]) -> Line:
        return self._make("section_head", items)

    def text(self, items: list[Token]) -> Line:
        return self._make("text", items)


@lru_cache(maxsize=1)
def _label_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """LABEL and OLD_LABEL as the grammar defines them (they live inside the PROVISION token, so
    only a lexer-only Lark, which keeps every terminal, can hand them out)."""
    return re.compile(_terminal("LABEL")), re.compile(_terminal("OLD_LABEL"))


@lru_cache(maxsize=1)
def _terminals() -> dict[str, str]:
    """The grammar's terminals, every one kept (as a lexer-only Lark keeps them), for the parts of a line
    that live inside one token: the labels of a labelled line, the number and mark of a heading."""
    return lark_terminals("statute", GRAMMAR.read_text(encoding="utf-8"))


def _terminal(name: str) -> str:
    return _terminals()[name]


@lru_cache(maxsize=1)
def _heading_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    t = _terminal
    section = re.compile(f"(?P<star>{t('SECTION_STAR')})?{t('SECTION_SIGN')}(?P<num>{t('SECTION_NUMBER')})"
                         f"(?P<sep>{t('SECTION_SEP')})?[ \t]*(?P<heading>.*)")
    division = re.compile(f"(?P<word>{t('ARTICLE_WORD')}|{t('PART_WORD')})[ \t]+(?P<num>{t('ARTICLE_NUMBER')})"
                          "[ \t]*[—–.-]?[ \t]*(?P<heading>.*)")
    return section, division


def section_head(body: str) -> re.Match[str] | None:
    """A section heading read with the grammar's SECTION_HEAD parts: groups ``star`` (LBDC's "*" of a
    section that expires), ``num`` ("89-b"), ``sep`` and ``heading`` (the rest of the line)."""
    return _heading_patterns()[0].match(body)


def article_head(body: str) -> re.Match[str] | None:
    """An article, rule or part heading read with the grammar's ARTICLE_HEAD and PART_HEAD parts:
    groups ``word`` ("Article", "JOINT RULE", "PART"), ``num`` and ``heading``."""
    return _heading_patterns()[1].match(body)


def labels_at(text: str, pos: int, end: int) -> tuple[tuple[Label, ...], int]:
    """The labels written at ``pos`` (the grammar's LABEL and OLD_LABEL, as in a labelled line) and
    where the text after them starts; no labels gives ``((), pos)``."""
    label_re, old_re = _label_patterns()
    labels: list[Label] = []
    while True:
        old = ""
        m = old_re.match(text, pos, end)
        p = m.end() if m else pos
        if m:
            old = m.group().strip()[1:-1]
        m2 = label_re.match(text, p, end)
        if not m2:
            return tuple(labels), pos
        labels.append(Label(m2.group().rstrip(), m2.start(), m2.end(), old))
        pos = m2.end()


def line_at(text: str, start: int, end: int) -> Line:
    """The rest of a line from ``start`` (inside it) to ``end`` (its end, with its newline), read as a
    line of its own: a labelled line if labels begin there, else text. The tree builder uses it where a
    line holds more than one thing: a section's heading and its first subdivision, a sentence and the
    label after it."""
    labels, body_start = labels_at(text, start, end)
    body = text[body_start:end].split("\n", 1)[0]
    if not body:
        body_start = end - 1 if text[end - 1 : end] == "\n" else end
    return Line("provision" if labels else "text", start, end, 0, labels, body_start, body)


@lru_cache(maxsize=1)
def parser() -> Lark:
    return lark_parser("statute", GRAMMAR.read_text(encoding="utf-8"), lexer="contextual",
                transformer=_Lines(), maybe_placeholders=False)


def _lines(text: str) -> list[Line]:
    """The parser's result: the transformer above makes it a list of Lines, not a tree."""
    return cast(list[Line], parser().parse(text))


Span = Callable[[str, int, int, "list[Line]", "list[tuple[int, str]] | None"], None]


def _shift(line: Line, by: int) -> Line:
    if not by:
        return line
    labels = tuple(Label(l.text, l.start + by, l.end + by, l.old) for l in line.labels)
    return Line(line.kind, line.start + by, line.end + by, line.indent, labels, line.body_start + by, line.body)


# Control characters (other than tab and form feed) are not law text: a line holding one is reported
# and kept as unparsed. They are found before the grammar runs: excluding them from the grammar's TEXT
# terminal would test a character class at every character of every line (a tenth of the parse),
# and deleting them from the UTF-8 bytes tells in one fast C pass whether there are any at all.
_CONTROLS = "".join(map(chr, [*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F]))
_CONTROL_BYTES = _CONTROLS.encode("ascii")
_CONTROL_RE = re.compile(f"[{re.escape(_CONTROLS)}]")


def _has_control(text: str) -> bool:
    data = text.encode("utf-8", "surrogatepass")
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


def parse_lines(text: str, errors: list[tuple[int, str]] | None = None, span: Span | None = None) -> list[Line]:
    """Classify every line of ``text``. The lines tile the text exactly (plus a final newline if the
    text lacked one). A line the grammar cannot place becomes an "unparsed" line, and its offset and
    the reason go to ``errors``; parsing goes on after it. ``span``: what parses the text between such
    lines (``_parse_span``, or frontend/chunks.py's memo of it, which parses only changed sections)."""
    length = len(text)
    if not text.endswith("\n"):
        text += "\n"
    out: list[Line] = []
    pos = 0
    parse = span or _parse_span
    for m in _CONTROL_RE.finditer(text) if _has_control(text) else ():
        bad = m.start()
        if bad < pos:  # a second control character on a line already reported
            continue
        line_start = text.rfind("\n", 0, bad) + 1
        parse(text, pos, line_start, out, errors)
        pos = _unparsed(text, bad, f"unexpected character U+{ord(m.group()):04X}", out, errors)
    parse(text, pos, len(text), out, errors)
    if out and out[-1].end > length:  # the newline added above is not part of the text
        last = out[-1]
        out[-1] = Line(last.kind, last.start, length, last.indent, last.labels, min(last.body_start, length), last.body)
    return out


def _unparsed(text: str, bad: int, reason: str, out: list[Line], errors: list[tuple[int, str]] | None) -> int:
    """Report the line holding offset ``bad`` and keep it whole as an unparsed line; returns its end."""
    line_start = text.rfind("\n", 0, bad) + 1
    line_end = text.index("\n", bad) + 1
    if errors is not None:
        errors.append((bad, reason))
    out.append(Line("unparsed", line_start, line_end, 0, (), line_start, text[line_start : line_end - 1]))
    return line_end


def _parse_span(text: str, pos: int, end: int, out: list[Line], errors: list[tuple[int, str]] | None) -> None:
    """Parse ``text[pos:end]`` (whole lines) into ``out``; a line the grammar rejects is reported and
    parsing restarts after it."""
    while pos < end:
        try:
            out.extend(_shift(l, pos) for l in _lines(text[pos:end]))
            return
        except UnexpectedInput as exc:
            bad = pos + (exc.pos_in_stream or 0)
            line_start = text.rfind("\n", 0, bad) + 1
            if line_start > pos:
                out.extend(_shift(l, pos) for l in _lines(text[pos:line_start]))
            pos = _unparsed(text, bad, f"unexpected {text[bad]!r}", out, errors)
