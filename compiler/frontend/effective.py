"""An act's effective-date section, read: "This act shall take effect immediately", "… on the
ninetieth day after it shall have become a law", "… January 1, 2024" (with or without "on"), the
provisos that date some of its sections otherwise ("; provided, however, that section two of this act
shall take effect …"), and the end it sets ("… and shall expire and be deemed repealed …"). Days are
counted from the manifest's ``became_law``; a clause that cannot be read is an error that names it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Callable

from compiler.frontend import numbers as W
from compiler.frontend.newmatter import MONTHS as _MONTHS

_TAKE_EFFECT = re.compile(r"^(?:This act|This part|This article)\s+shall\s+take\s+effect\s+(?P<when>.+)$", re.S | re.I)
_PROVISO = re.compile(r";?\s*provided(?:,)?\s+(?:however,\s+)?that\s+", re.I)
_EXPIRE = re.compile(r",?\s*and\s+shall\s+expire(?:\s+and\s+be\s+deemed\s+repealed)?\s+(?P<when>.+)$", re.S | re.I)
_SECTIONS = re.compile(r"^(?:the\s+amendments?\s+to\s+.+?\s+made\s+by\s+)?sections?\s+(?P<list>[a-z0-9, -]+?(?:\s+(?:and|through)\s+"
                       r"[a-z0-9-]+)?)\s+of\s+this\s+act\s+shall\s+take\s+effect\s+(?P<when>.+)$", re.S | re.I)


@dataclass
class Effective:
    date: dt.date | None = None  # when the act (its sections not dated otherwise) takes effect
    phrase: str = ""
    sections: dict[int, tuple[dt.date | None, str]] = field(default_factory=dict)  # § N -> (date, phrase)
    expires: dt.date | None = None
    expires_phrase: str = ""
    unread: list[str] = field(default_factory=list)  # provisos that date nothing navlaw reads (said in a note)

    def of(self, section: int) -> tuple[dt.date | None, str]:
        return self.sections.get(section, (self.date, self.phrase))


def is_effective_clause(text: str) -> bool:
    return _TAKE_EFFECT.match(" ".join(text.split())) is not None


def read(text: str, became_law: dt.date | None, fail: Callable[[str], None]) -> Effective:
    """Read an effective-date section (its text after "§ N."). ``fail`` is told what cannot be read."""
    text = " ".join(text.split())
    m = _TAKE_EFFECT.match(text)
    out = Effective()
    if m is None:
        fail(f"not an effective-date clause: {text[:100]!r}")
        return out
    parts = _PROVISO.split(m["when"])
    main, provisos = parts[0], parts[1:]
    main, out.expires, out.expires_phrase = _split_expiry(main, became_law, fail)
    out.phrase = main.rstrip(" .;,")
    out.date = when(out.phrase, became_law, fail)
    for p in provisos:
        p = p.strip().rstrip(".;")
        sm = _SECTIONS.match(p)
        if sm is None:
            if re.search(r"take\s+effect|expire|deemed\s+repealed", p, re.I):
                fail(f"cannot read the proviso {p[:120]!r}: which sections it dates, or when")
            else:
                out.unread.append(p)
            continue
        rest, _, _ = _split_expiry(sm["when"], became_law, fail)
        phrase = rest.rstrip(" .;,")
        date = when(phrase, became_law, fail)
        for n in _numbers(sm["list"], fail):
            out.sections[n] = (date, phrase)
    return out


def _split_expiry(text: str, became_law: dt.date | None, fail: Callable[[str], None]) -> tuple[str, dt.date | None, str]:
    e = _EXPIRE.search(text)
    if e is None:
        return text, None, ""
    phrase = e["when"].rstrip(" .;,")
    return text[: e.start()], when(phrase, became_law, fail), phrase


def _numbers(words: str, fail: Callable[[str], None]) -> list[int]:
    """ "two", "two and three", "one through four", "2, 3 and 5" -> section numbers."""
    out: list[int] = []
    thru = re.split(r"\s+through\s+", words.strip())
    items = re.split(r"\s*,\s*|\s+and\s+", words.strip()) if len(thru) == 1 else thru
    for item in items:
        item = item.strip()
        if not item:
            continue
        if item.isdigit():
            out.append(int(item))
            continue
        try:
            kind, n = W.parse(item)
            out.append(int(n))  # type: ignore[call-overload]
        except (ValueError, TypeError):
            fail(f"cannot read the section number {item!r}")
    if len(thru) == 2 and len(out) == 2:
        out = list(range(out[0], out[1] + 1))
    return out


def when(phrase: str, became_law: dt.date | None, fail: Callable[[str], None]) -> dt.date | None:
    """The date a phrase names: "immediately", "on the ninetieth day after it shall have become a law",
    "on the first of January next succeeding the date on which it shall have become a law",
    "January 1, 2024", "on January first, two thousand twenty-four"."""
    p = phrase.lower().strip()
    if p.startswith("immediately"):
        if became_law is None:
            fail("\"take effect immediately\": the manifest must give became_law for this act")
        return became_law
    m = re.match(r"(?:on\s+)?the\s+(?P<n>[a-z\- ]+?)\s+day\s+(?:after|following)\s+(?:the\s+date\s+on\s+which\s+)?"
                 r"(?:it|this\s+act)\s+shall\s+have\s+become\s+a\s+law", p)
    if m:
        n = _ordinal(m["n"])
        if n is None:
            fail(f"cannot read the number of days in {phrase!r}")
            return None
        if became_law is None:
            return _no_became_law(phrase, fail)
        try:
            return became_law + dt.timedelta(days=int(n))  # type: ignore[call-overload]
        except OverflowError:
            fail(f"{phrase!r} from {became_law} falls after 9999-12-31, the last date navlaw can represent")
            return None
    m = re.match(r"(?:on\s+the\s+date\s+that\s+is\s+)?(?P<n>[a-z0-9 -]+?)\s+(?P<unit>years?|months?)\s+after\s+(?:the\s+date\s+on\s+which\s+)?"
                 r"(?:it|this\s+act)\s+shall\s+have\s+become\s+a\s+law", p)
    if m:
        n = int(m["n"]) if m["n"].isdigit() else _cardinal(m["n"])
        if n is None:
            fail(f"cannot read the number of {m['unit']} in {phrase!r}")
            return None
        if became_law is None:
            return _no_became_law(phrase, fail)
        months = n * (12 if m["unit"].startswith("year") else 1)
        y, mo = divmod(became_law.month - 1 + months, 12)
        day = min(became_law.day, [31, 29 if _leap(became_law.year + y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo])
        return dt.date(became_law.year + y, mo + 1, day)
    m = re.match(r"(?:on\s+)?(?:the\s+)?first\s+(?:day\s+)?of\s+(?P<month>[a-z]+)\s+next\s+succeeding", p)
    if m and m["month"].capitalize() in _MONTHS:
        if became_law is None:
            return _no_became_law(phrase, fail)
        month = _MONTHS.index(m["month"].capitalize()) + 1
        year = became_law.year + (1 if (month, 1) <= (became_law.month, became_law.day) else 0)
        return dt.date(year, month, 1)
    m = re.match(r"(?:on\s+)?(?P<month>[a-z]+)\s+(?P<day>\d{1,2}),\s*(?P<year>\d{4})", p)
    if m and m["month"].capitalize() in _MONTHS:
        return dt.date(int(m["year"]), _MONTHS.index(m["month"].capitalize()) + 1, int(m["day"]))
    for hit in W.scan(phrase):
        if hit.kind == "date":
            return hit.value  # type: ignore[return-value]
    fail(f"cannot read the effective date {phrase!r}")
    return None


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _cardinal(words: str) -> int | None:
    try:
        _, n = W.parse(words.strip())
        return int(n)  # type: ignore[call-overload]
    except (ValueError, TypeError):
        return None


_ORDINAL_ENDS = (("twelfth", "twelve"), ("first", "one"), ("second", "two"), ("third", "three"), ("fifth", "five"),
                 ("eighth", "eight"), ("ninth", "nine"), ("ieth", "y"), ("th", ""))


def _ordinal(words: str) -> int | None:
    """ "ninetieth" -> 90, "one hundred twentieth" -> 120, "thirtieth" -> 30."""
    n = _cardinal(words)
    if n is not None:
        return n
    w = words.strip()
    for end, cardinal in _ORDINAL_ENDS:
        if w.endswith(end):
            return _cardinal(w[: len(w) - len(end)] + cardinal)
    return None


def _no_became_law(phrase: str, fail: Callable[[str], None]) -> None:
    fail(f"{phrase!r} counts from the day the act became law: the manifest must give became_law")
    return None
