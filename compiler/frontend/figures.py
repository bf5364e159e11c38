"""Numbers written twice: words followed by their figures ("seven and one-half (7.5%) percent", "thirty
(30) days", "one hundred dollars ($100)"). The two must agree; where they do not, that is an error at
the figure's file:line:col (the law says two things, and navlaw will not choose one quietly).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model import numbers as W
from navlaw.model.text import NormalText

# "(7.5%)", "(30)", "($100)", "($1,250.00)": a figure in parentheses. Most texts hold few, so the
# words before each are parsed only there (a literal "(" lets the regex engine skip ahead fast).
_FIGURE_RE = re.compile(r"\((?P<dollar>\$)?[ \t]*(?P<num>[0-9][0-9,]*(?:\.[0-9]+)?)[ \t]*(?P<pct>%)?[ \t]*\)")
_BETWEEN_RE = re.compile(r"[ \t\n]*(?:(?:percent|per centum)[ \t\n]*)?$", re.I)
_PREV_WORD_RE = re.compile(r"(?P<w>[A-Za-z]+)[ \t\n-]*$")
_LARGE = {"million", "millions", "billion", "billions", "trillion"}
# the words a number in words can end with, and the unit said between it and its figure
_LAST_WORDS = {w.lower() for w in W.VOCABULARY if w != "and"} | {"percent", "centum"}  # no phrase ends with "and"
_WINDOW = 160  # the longest phrase in words ("five hundred thousand dollars and ninety-nine cents") fits
_GROUPED_RE = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?")


def check_figures(nt: NormalText, file: str, diags: Diagnostics) -> int:
    """Report every words-and-figures pair that disagrees; returns how many pairs were checked."""
    text = nt.text
    checked = 0
    for m in _FIGURE_RE.finditer(text) if "(" in text else ():
        at = m.start()
        if at < 2 or text[at - 1] not in " \t\n" or not (text[at - 2].isalpha() or text[at - 2] in " \t"):
            continue  # "(1)" opening a line, "§ 12(3)": no word just before the figure
        word = _PREV_WORD_RE.search(text, max(0, at - 40), at)
        if word is None or word["w"].lower() not in _LAST_WORDS:
            continue  # "(1) Upon …", "section 2101 (34)": no number in words just before the figure
        lo = max(0, m.start() - _WINDOW)
        before = text[lo : m.start()]
        phrases = [p for p in W.scan(before) if p.kind in ("cardinal", "fraction", "money")]
        if not phrases or not _BETWEEN_RE.match(before, phrases[-1].end):
            continue
        words = phrases[-1]
        prev = _PREV_WORD_RE.search(before, 0, words.start)
        if prev is not None and (prev["w"].lower() in _LARGE or W.scan(prev["w"])):
            continue  # the words go on before what the grammar reads ("one million five hundred thousand")
        try:
            figure = Decimal(m["num"].replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern admits only digits
            continue
        checked += 1
        value = words.value
        if isinstance(value, dt.date):
            continue  # a date in words is not a figure's
        said = Fraction(value)
        grouped = _GROUPED_RE.fullmatch(m["num"]) is not None
        if said == Fraction(figure) and grouped:  # "ten (10) dollars": the unit may be said once, after both
            continue
        at = m.start("num")
        line, col = nt.raw_linecol(at)
        shown = " ".join(words.text.split())
        why = (f"the figure {m['num']!r} is not a number as the law writes one (groups of three digits)" if not grouped
               else f"the words say {_show(said)} and the figure says {m['num']}")
        diags.add(Diagnostic(
            Severity.ERROR, f"\"{shown}\" and its figure ({m.group(0)[1:-1]}) disagree: {why}", file, line, col,
            nt.raw_line(line), "numbers-twice",
            "the law states this number twice; correct the one the enacted text does not have (navlaw uses "
            "neither until they agree)"))
    return checked


def _show(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return format(d.normalize(), "f")
