"""Numbers, money and dates written in words ("ten dollars and eighty-nine cents"), found in law text.

The grammar is ``grammar/numbers.lark`` (Lark, LALR). ``scan(text)`` finds every run of number
vocabulary in a text and parses it; each hit is a :class:`Phrase` with its exact value and the span it
was read from, so a tariff can cite the very characters. Values are exact: ``Decimal`` for money,
``int`` for cardinals and ordinals, ``fractions.Fraction`` for "two-thirds", ``datetime.date`` for
"January first, two thousand twenty-three".
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Union

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput

from navlaw.model import parsers

Value = Union[int, Decimal, Fraction, dt.date]

_UNITS = {w: i for i, w in enumerate("one two three four five six seven eight nine".split(), 1)}
_TEENS = {w: i for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                     "nineteen".split(), 10)}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_ORD_UNITS = {w: i for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth".split(), 1)}
_ORD_TEENS = {w: i for i, w in enumerate("tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth "
                                         "seventeenth eighteenth nineteenth".split(), 10)}
_ORD_TENS = {w: 10 * i for i, w in enumerate("twentieth thirtieth fortieth fiftieth sixtieth seventieth "
                                             "eightieth ninetieth".split(), 2)}
_MONTHS = {w: i for i, w in enumerate("january february march april may june july august september october "
                                      "november december".split(), 1)}
_DENOMINATORS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4}

_VOCAB = sorted([*_UNITS, *_TEENS, *_TENS, *_ORD_UNITS, *_ORD_TEENS, *_ORD_TENS, *_MONTHS, *_DENOMINATORS,
                 "hundred", "thousand", "dollar", "dollars", "cent", "cents", "and"], key=len, reverse=True)
VOCABULARY = frozenset(_VOCAB)
_WORD = r"(?:%s)" % "|".join(_VOCAB)
# A run of vocabulary words joined by spaces, line breaks, hyphens or a comma (dates).
_RUN_RE = re.compile(r"(?i)\b%s\b(?:(?:[ \t\n]+|-|,[ \t\n]*)%s\b)*" % (_WORD, _WORD))
_TOKEN_RE = re.compile(r"(?i)\b%s\b" % _WORD)
MAX_WORDS = 16


@dataclass(frozen=True)
class Phrase:
    kind: str  # "money" | "cardinal" | "ordinal" | "fraction" | "date"
    value: Value
    start: int  # offsets in the scanned text
    end: int
    text: str


def _int(x: object) -> int:
    """A child the rules below made a whole number of: an int, or a ("cardinal" | "ordinal", n) pair."""
    v = x[1] if isinstance(x, tuple) else x
    if not isinstance(v, int):
        raise ValueError(f"not a whole number: {x!r}")
    return v


def _fraction(x: object) -> Fraction:
    """A ("fraction", value) pair's value."""
    v = x[1] if isinstance(x, tuple) else x
    if not isinstance(v, Fraction):
        raise ValueError(f"not a fraction: {x!r}")
    return v


# children are the rule's tokens and what the rules below it returned (ints, or (kind, value) pairs)
class _Values(Transformer[Token, tuple[str, Value]]):
    def unit(self, c: list[Token]) -> int:
        return _UNITS[c[0].lower()]

    def below_hundred(self, c: list[object]) -> int:
        x = c[0]
        if isinstance(x, int):
            return x
        t = str(x).lower()
        return _TEENS.get(t) or _TENS[t]

    def tens_unit(self, c: list[object]) -> int:
        return _TENS[str(c[0]).lower()] + _int(c[-1])

    def hundreds(self, c: list[object]) -> int:
        return _int(c[0]) * 100 + (_int(c[2]) if len(c) > 2 else 0)

    def thousands(self, c: list[object]) -> int:
        return _int(c[0]) * 1000 + (_int(c[2]) if len(c) > 2 else 0)

    def cardinal(self, c: list[int]) -> tuple[str, int]:
        return ("cardinal", c[0])

    def ordinal(self, c: list[Token]) -> tuple[str, int]:
        t = c[0].lower()
        return ("ordinal", _ORD_UNITS.get(t) or _ORD_TEENS.get(t) or _ORD_TENS[t])

    def tens_ord(self, c: list[Token]) -> tuple[str, int]:
        return ("ordinal", _TENS[c[0].lower()] + _ORD_UNITS[c[-1].lower()])

    def dollars(self, c: list[object]) -> tuple[str, Decimal]:
        dollars = _int(c[0])
        cents = _int(c[3]) if len(c) > 3 else 0
        if cents >= 100:
            raise ValueError("more than 99 cents")
        if len(c) <= 3:
            return ("money", Decimal(dollars))
        # to the cent, as written: "eleven dollars and thirty cents" is 11.30, not 11.3
        return ("money", Decimal(dollars) + Decimal(cents).scaleb(-2))

    def cents_only(self, c: list[object]) -> tuple[str, Decimal]:
        return ("money", Decimal(_int(c[0])).scaleb(-2))

    def date(self, c: list[object]) -> tuple[str, dt.date]:
        month = _MONTHS[str(c[0]).lower()]
        return ("date", dt.date(_int(c[-1]), month, _int(c[1])))

    def simple_fraction(self, c: list[object]) -> tuple[str, Fraction]:
        return ("fraction", Fraction(_int(c[0]), _DENOMINATORS[str(c[-1]).lower()]))

    def fraction(self, c: list[object]) -> object:
        return c[0]

    def mixed(self, c: list[object]) -> tuple[str, Fraction]:
        return ("fraction", _int(c[0]) + _fraction(c[2]))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return parsers.parser("numbers", lexer="contextual", maybe_placeholders=False)


class NotANumber(ValueError):
    def __init__(self, words: str, stop: int):
        super().__init__(f"not a number in words: {words!r}")
        self.stop = stop  # offset in ``words`` where the grammar stopped: no phrase reaches past it


def parse(words: str) -> tuple[str, Value]:
    """Parse one phrase ("ten dollars and eighty-nine cents") into (kind, value); ValueError if not one."""
    return _parse_cached(" ".join(words.split()))


@lru_cache(maxsize=8192)
def _parse_cached(words: str) -> tuple[str, Value]:
    try:
        tree = _parser().parse(words)
        kind, value = _Values().transform(tree)
    except UnexpectedInput as e:
        stop = e.pos_in_stream if isinstance(e.pos_in_stream, int) and e.pos_in_stream >= 0 else len(words)
        raise NotANumber(words, stop) from None
    except (LarkError, ValueError, KeyError):
        raise NotANumber(words, len(words)) from None
    return kind, value


def scan(text: str) -> list[Phrase]:
    """Every number, money amount, fraction or date written in words in ``text``, left to right.

    A run of vocabulary is parsed whole; if it does not parse, words are dropped from its end until it
    does ("one and sixth-tenth" -> "one"), and scanning resumes after the phrase that parsed.
    """
    out: list[Phrase] = []
    for run in _RUN_RE.finditer(text):
        tokens = [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text, run.start(), run.end())]
        i = 0
        while i < len(tokens):
            if text[tokens[i][0]:tokens[i][1]].lower() == "and":
                i += 1
                continue
            # the longest phrase the grammar reads has about a dozen words ("five hundred thousand dollars
            # and ninety-nine cents"); bounding the window keeps a long run of number words linear
            j = min(len(tokens), i + MAX_WORDS)
            while j > i:
                start, end = tokens[i][0], tokens[j - 1][1]
                if text[tokens[j - 1][0]:end].lower() == "and":
                    j -= 1
                    continue
                try:
                    kind, value = parse(text[start:end])
                except NotANumber as e:
                    # the grammar stopped at a word: no phrase from here reaches past it, but one may end
                    # right before it (or at it, when the input ran out early)
                    words = " ".join(text[start:end].split())
                    n_ok = len(words[:e.stop].split())
                    j = min(j - 1, i + max(n_ok, 1))
                    continue
                out.append(Phrase(kind, value, start, end, text[start:end]))
                i = j
                break
            else:
                i += 1
    return out


def money(text: str) -> Decimal:
    """The amount of a money phrase; ValueError if ``text`` is not exactly one."""
    kind, value = parse(text)
    if kind != "money":
        raise ValueError(f"not an amount of money: {text!r}")
    assert isinstance(value, Decimal)
    return value
