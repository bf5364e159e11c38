"""Normalizes decoded law text for the grammar, keeping a map from every offset back to the raw text.

After ``normalize(raw)`` returns ``nt``, these hold (each is a test in tests/test_normalize.py):

1. ``nt.text`` has no carriage returns: "\\r\\n" and a lone "\\r" became "\\n".
2. Every literal backslash-n sequence (the two characters ``\\`` ``n``) became a line break, and
   ``nt.wrapped`` says whether the text is hard-wrapped (short lines continuing one another).
3. Mojibake of the section sign and of common punctuation is repaired: "ｧ" and "Â§" became "§",
   "â€”" "—", "â€“" "–", "â€™" "’", "â€œ" "“", "â€\\x9d" "”"; and "õ" before a section number
   ("õ 4.", "õõ 1-3": LBDC's CP850 § read as Latin-1) became "§".
4. A no-break space became a plain space, and a run of tabs became one tab (one cell separator); every
   other exotic space (thin, hair, figure, narrow no-break, ideographic …) became a plain space, and every
   invisible format character (zero-width space, joiner and non-joiner, word joiner, soft hyphen, a BOM
   inside the text, the bidirectional embeddings, overrides, isolates and marks) is gone: none of them
   can change a label or a section number. Each such edit is a stage of its own ("exotic space",
   "format character", "bidi control"), which compiler/frontend/unicode.py reports at its file:line:col.
5. With list numbering judged an artifact (a flattened HTML list: "2. (b) ...", "   3. (ii) ..."),
   the ordinal and the spaces after it are gone before a parenthesized label; indentation stays,
   and an ordinal alone on its line ("4.") or before text ("1. Every vessel") stays.
6. Every dotted leader (four or more dots, and the spaces before them) is exactly " ....".
7. Nothing is lost: ``nt.raw_offset(i)`` maps any offset of ``nt.text`` (0..len) into ``nt.raw``,
   monotonically, and ``nt.denormalize()`` rebuilds ``nt.raw`` exactly from ``nt.text`` and the
   recorded edits.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator, Literal

from navlaw.model.text import Edit, NormalText, Stage

ListNumbering = Literal["auto", "artifact", "real"]


def _substitute(text: str, matches: Iterable[re.Match[str]], repl: Callable[[re.Match[str]], str], reason: str,
                widen_left: str = "") -> tuple[str, Stage]:
    """Replace every match (in order, not overlapping); ``widen_left`` names characters just before a
    match that the replacement swallows too (cheaper than a leading ``[ \t]*`` tried at every position)."""
    out: list[str] = []
    edits: list[Edit] = []
    last = 0
    new_len = 0
    olds: dict[str, str] = {}  # one string for each replaced text ("ｧ" a thousand times is one object, kept by every edit)
    for m in matches:
        new = repl(m)
        start = m.start()
        while widen_left and start > last and text[start - 1] in widen_left:
            start -= 1
        old = text[start : m.end()]
        if new == old:
            continue
        old = olds.setdefault(old, old)
        chunk = text[last:start]
        out.append(chunk)
        new_len += len(chunk)
        edits.append(Edit(new_len, new_len + len(new), start, m.end(), old, reason))
        out.append(new)
        new_len += len(new)
        last = m.end()
    out.append(text[last:])
    return "".join(out), Stage(reason, edits)


def _at_line_starts(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` anchored at the start of a line. Trying a pattern only where a line
    starts is 5x faster than ``(?m)^``, which the regex engine tests at every character."""
    m = pattern.match(text)
    if m:
        yield m
    for nl in _LINE_BREAK_RE.finditer(text):
        m = pattern.match(text, nl.end())
        if m:
            yield m


_LBDC_SECTION_SIGN_RE = re.compile(r"õ(?=õ|[ \t]*\d)")
_MOJIBAKE = {"ｧ": "§", "Â§": "§", "â€”": "—", "â€“": "–", "â€™": "’", "â€œ": "“", "â€\x9d": "”"}
# Patterns below start with a literal where they can: the regex engine then scans with a fast
# substring search instead of testing a character class at every position (20x on the corpus).
_NEWLINE_RE = re.compile(r"\r\n?")
_ESCAPED_NEWLINE_RE = re.compile(r"\\n")
_NBSP_RE = re.compile("\u00a0")
_EXOTIC_SPACES = "\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"
_FORMATS = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_BIDIS = "\u200e\u200f\u061c" + "".join(map(chr, range(0x202A, 0x202F))) + "".join(map(chr, range(0x2066, 0x206A)))
_EXOTIC_SPACE_RE = re.compile(f"[{_EXOTIC_SPACES}]")
_FORMAT_RE = re.compile(f"[{_FORMATS}]")
_BIDI_RE = re.compile(f"[{_BIDIS}]")
_TAB_RUN_RE = re.compile("\t\t+")
# An ordinal that begins a line (after indentation) and precedes a parenthesized label.
# These two are tried at line starts only (see _at_line_starts).
_ORDINAL_RE = re.compile(r"([ \t]*)(\d{1,3}\.[ \t]+)(?=\[?\()")
_LABEL_LINE_RE = re.compile(r"[ \t]*(\d{1,3}\.[ \t]+)?\[?\((?:\d{1,3}|[a-zA-Z]{1,5})(?:-\w{1,2})?\)")
_LINE_BREAK_RE = re.compile("\n")
_LEADER_RE = re.compile(r"\.\.\.\.+")


def _exotic_space(m: re.Match[str]) -> str:
    """A plain space, or nothing inside a label or a number ("(\u2009b)", "8\u20098"): a space there would
    change what the label is."""
    text, a, b = m.string, m.start(), m.end()
    before, after = text[a - 1 : a], text[b : b + 1]
    inside = before == "(" or after == ")" or (before.isdigit() and after.isdigit())
    return "" if inside else " "


def detect_list_numbering(text: str) -> Literal["artifact", "real"]:
    """In a flattened HTML list nearly every line that opens with a parenthesized label carries an
    ordinal before it ("1. (a)", "2. (b)", "   1. (1)"); in statute text only a subdivision number
    and its first paragraph share a line ("4. (a)"), so few labelled lines do."""
    with_ordinal = total = 0
    for m in _at_line_starts(_LABEL_LINE_RE, text):
        total += 1
        with_ordinal += m.group(1) is not None
    return "artifact" if with_ordinal >= 3 and with_ordinal >= 0.6 * total else "real"


def detect_wrapped(text: str) -> bool:
    """Hard-wrapped text: most lines of prose end near one right margin (a printed page of 60 to 132
    columns), unlike texts that hold a whole paragraph on one line. Table rows and short lines do not
    vote; the margin is the length that the longest tenth of the lines reach."""
    sample = text[:65536].split("\n")[:400]  # a printed page's layout shows in its first lines
    votes = sorted(len(l.rstrip()) for l in sample if len(l) >= 40 and "\t" not in l and "|" not in l)
    if len(votes) < 10:
        return False
    margin = votes[(9 * len(votes)) // 10]
    return margin <= 132 and sum(1 for n in votes if margin - 24 <= n <= margin) >= 0.6 * len(votes)


def normalize(raw: str, list_numbering: ListNumbering = "auto") -> NormalText:
    stages: list[Stage] = []

    def step(text: str, matches: Iterable[re.Match[str]], repl: Callable[[re.Match[str]], str], reason: str,
             widen_left: str = "") -> str:
        text, stage = _substitute(text, matches, repl, reason, widen_left)
        if stage.edits:
            stages.append(stage)
        return text

    text = step(raw, _NEWLINE_RE.finditer(raw), lambda m: "\n", "line ending")
    text = step(text, _ESCAPED_NEWLINE_RE.finditer(text), lambda m: "\n", "escaped line break")
    escaped = bool(stages and stages[-1].reason == "escaped line break")
    # a one-character test first: finding a several-character string in a wide string is slow
    present = [k for k in sorted(_MOJIBAKE, key=len, reverse=True) if k[0] in text and k in text]
    if present:
        rx = re.compile("|".join(map(re.escape, present)))
        text = step(text, rx.finditer(text), lambda m: _MOJIBAKE[m.group(0)], "mojibake")
    if "õ" in text:
        text = step(text, _LBDC_SECTION_SIGN_RE.finditer(text), lambda m: "§", "mojibake")
    text = step(text, _NBSP_RE.finditer(text), lambda m: " ", "no-break space")
    if not text.isascii():  # one C pass; law texts are mostly ASCII
        # a substring test per character is a fast C search; a character class would be tried at every position
        if any(c in text for c in _EXOTIC_SPACES):
            text = step(text, _EXOTIC_SPACE_RE.finditer(text), _exotic_space, "exotic space")
        if any(c in text for c in _FORMATS):
            text = step(text, _FORMAT_RE.finditer(text), lambda m: "", "format character")
        if any(c in text for c in _BIDIS):
            text = step(text, _BIDI_RE.finditer(text), lambda m: "", "bidi control")
    text = step(text, _TAB_RUN_RE.finditer(text), lambda m: "\t", "tab run")
    mode = detect_list_numbering(text) if list_numbering == "auto" else list_numbering
    if mode == "artifact":
        text = step(text, _at_line_starts(_ORDINAL_RE, text), lambda m: m.group(1), "list numbering")
    text = step(text, _LEADER_RE.finditer(text), lambda m: " ....", "dotted leader", widen_left=" \t")
    wrapped = escaped and text.count("\n") >= 3 or detect_wrapped(text)
    return NormalText(raw, text, stages, wrapped, mode)
