"""An act's effective-date section, read: "This act shall take effect immediately", "… on the
ninetieth day after it shall have become a law", "… on the first of the calendar month next succeeding
the sixtieth day after …", "… January 1, 2024" (with or without "on"), a date tied to another chapter
("on the same date and in the same manner as chapter 128 of the laws of 2023 takes effect") or to an
event ("upon the enactment into law by the state of New Jersey of …"), which only the manifest's
``effective`` can give; the end it sets ("… and shall expire and be deemed repealed three years after
such date"); a retroactive date ("… and shall be deemed to have been in full force and effect on and
after January 1, 2023", "if this act shall take effect after April 1, 2024, it shall be deemed to have
been in effect on and after April 1, 2024"); and the provisos that date some of its sections or Parts
otherwise ("; provided, however, that section two of this act shall take effect …", "the amendments to
… made by section one of this act shall not affect the repeal of such section and shall be deemed
repealed therewith" — a sunset kept, which dates nothing). Days are counted from the manifest's
``became_law``; a clause that cannot be read is an error that names it, never a date guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Callable

from navlaw.model import numbers as W
from navlaw.model.lazy_re import lazy
from navlaw.frontend.newmatter import MONTHS as _MONTHS

_TAKE_EFFECT = lazy(r"^(?:This act|This part|This article|This title|This subpart)\s+shall\s+take\s+effect\s+(?P<when>.+)$",
                    re.S | re.I)
_PROVISO = lazy(r"(?:\s*[;,:]\s*|\s+)(?:and\s+)?(?:(?<!as\s)(?<!otherwise\s)provided\s*,?\s*(?:(?:however|further)\s*,?\s*)*"
                r"(?:that\b\s*:?\s*)?|except\s+(?:that\s+)?(?=(?:the\s+)?(?:sections?|parts?|amendments?|provisions?|if)\b))", re.I)
# "provided, however, that: (a) …; and (b) …"
_ENUMERATED = lazy(r"(?:^|;\s*(?:and\s+)?)\((?:[a-z]|[ivx]+|\d+)\)\s+")
# a sentence of the clause after its first: "Effective immediately, the addition, amendment and/or repeal
# of any rule … are authorized …" (dates nothing); one that dates something is read as a proviso
_SENTENCE_END = lazy(r"(?<=[a-z0-9)\]])\.\s+(?=[A-Z])")
_AND_SHALL = lazy(r",?\s+and\s+shall\s+", re.I)
# "immediately and, except as otherwise expressly provided in this act, shall apply to …": what it applies to, not a
# proviso (its "provided" would be read as one)
_EXCEPT_AS_PROVIDED = lazy(r",?\s+and\s*,\s*except\s+as\s+otherwise\s+(?:expressly\s+)?provided\s+(?:in|by)\s+this\s+act\s*,\s*"
                           r"shall\s+", re.I)
_EXPIRY = lazy(r"^(?:expire|be\s+deemed\s+repealed|remain\s+in\s+(?:full\s+)?force\s+and\s+effect\s+(?:only\s+)?until)"
               r"(?:\s+and\s+be\s+deemed\s+repealed)?\s*(?P<when>.*)$", re.S | re.I)
_RETRO = lazy(r"^(?:be\s+)?deemed\s+to\s+have\s+been\s+in\s+(?:full\s+force\s+and\s+)?effect\s+(?:on\s+and\s+after|from\s+and\s+after|"
              r"since|as\s+of|on\s+and\s+since|commencing)\s+(?P<when>.+)$", re.S | re.I)
_IF_RETRO = lazy(r"^if\s+(?:this\s+act|it)\s+shall\s+(?:take\s+effect|(?:have\s+)?become\s+a\s+law)\s+(?:after|subsequent\s+to)\s+"
                 r"(?P<date>.+?),?\s+(?:it|this\s+act)\s+shall\s+(?:take\s+effect\s+immediately\s+and\s+shall\s+)?"
                 r"(?P<retro>be\s+deemed\s+to\s+have\s+been\s+in\s+.+)$", re.S | re.I)
_SUBJECT = lazy(r"^(?P<subject>.+?)\s+shall\s+(?P<verb>take\s+effect|expire|be\s+deemed\s+repealed|remain\s+in\s+(?:full\s+)?force\s+"
                r"and\s+effect\s+(?:only\s+)?until|be\s+deemed\s+to\s+have\s+been\s+in\s+(?:full\s+force\s+and\s+)?effect"
                r"(?:\s+(?:on\s+and\s+after|from\s+and\s+after|since|as\s+of|on|from))?)\b\s*(?P<rest>.*)$", re.S | re.I)
_KEPT = lazy(r"shall\s+not\s+affect\s+the\s+(?:repeal|expiration|expiry|sunset|reversion)|shall\s+be\s+subject\s+to\s+the\s+"
             r"(?:repeal|expiration|expiry|sunset|reversion)", re.I)
# "…, when upon such date the provisions of section two of this act shall take effect": sections dated by
# another law's sunset
_WHEN_UPON = lazy(r"when\s+upon\s+such\s+date\s+(?P<subject>.+?)\s+shall\s+take\s+effect", re.I | re.S)
_PARTS_NOTE = lazy(r"effective\s+dates?\s+of\s+(?:the\s+)?parts?\b.+?set\s+forth\s+in\s+the\s+last\s+section", re.I | re.S)
_SECTIONS_OF = lazy(r"\b(?:sections?|§§?)\s+(?P<list>[a-z0-9-]+(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+through\s+)[a-z0-9-]+)*)"
                    r"\s+of\s+(?:part\s+(?P<part>[A-Z]{1,3}(?:-\d)?)\s+of\s+)?this\s+act\b", re.I)
_PARTS_OF = lazy(r"\bparts?\s+(?P<list>[A-Z]{1,3}(?:-\d)?(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+through\s+)[A-Z]{1,3}(?:-\d)?)*)"
                 r"\s+of\s+this\s+act\b")
_THIS_ACT = lazy(r"^(?:the\s+provisions\s+of\s+)?this\s+(?:act|part)$", re.I)


@dataclass
class Effective:
    date: dt.date | None = None  # when the act (its sections not dated otherwise) takes effect
    phrase: str = ""
    sections: dict[int, tuple[dt.date | None, str]] = field(default_factory=dict)  # § N -> (date, phrase)
    parts: dict[str, tuple[dt.date | None, str]] = field(default_factory=dict)  # Part B -> (date, phrase)
    expires: dt.date | None = None
    expires_phrase: str = ""
    section_expires: dict[int, tuple[dt.date | None, str]] = field(default_factory=dict)
    retroactive: dt.date | None = None  # "deemed to have been in full force and effect on and after …"
    unread: list[str] = field(default_factory=list)  # provisos that date nothing navlaw reads (said in a note)

    def of(self, section: int) -> tuple[dt.date | None, str]:
        return self.sections.get(section, (self.date, self.phrase))


def is_effective_clause(text: str) -> bool:
    return _TAKE_EFFECT.match(" ".join(text.split())) is not None


def read(text: str, became_law: dt.date | None, fail: Callable[[str], None], given: dt.date | None = None) -> Effective:
    """Read an effective-date section (its text after "§ N."). ``fail`` is told what cannot be read;
    ``given`` is the manifest's ``effective`` for the act: the date a clause tied to another chapter or
    to an event names."""
    text = _EXCEPT_AS_PROVIDED.sub(" and shall ", " ".join(text.split()))
    sentences = _SENTENCE_END.split(text)
    m = _TAKE_EFFECT.match(sentences[0])
    out = Effective()
    if m is None:
        fail(f"not an effective-date clause: {text[:100]!r}")
        return out
    parts = _PROVISO.split(m["when"])
    main = parts[0]
    provisos = [q for p in parts[1:] for q in _ENUMERATED.split(p.strip()) if q.strip()]
    for s in sentences[1:]:
        if re.search(r"take\s+effect|expire|deemed\s+repealed|deemed\s+to\s+have\s+been", s, re.I) and \
                not re.match(r"effective\s+immediately\s*,", s, re.I):
            provisos.append(s)
        else:
            out.unread.append(s.strip())
    pieces = _AND_SHALL.split(main)
    out.phrase = pieces[0].rstrip(" .;,")
    out.date = when(out.phrase, became_law, fail, given=given)
    for piece in pieces[1:]:
        piece = piece.strip().rstrip(" .;,")
        if (e := _EXPIRY.match(piece)) is not None:
            out.expires_phrase = e["when"].rstrip(" .;,")
            out.expires = when(out.expires_phrase, became_law, fail, base=out.date, given=given)
        elif (r := _RETRO.match(piece)) is not None:
            _retroactive(out, r["when"], became_law, fail)
        else:
            out.unread.append(f"and shall {piece}")
    for p in provisos:
        _proviso(out, p.strip().rstrip(".;"), became_law, fail, given)
    return out


def _retroactive(out: Effective, phrase: str, became_law: dt.date | None, fail: Callable[[str], None],
                 only_if_later: bool = False) -> None:
    date = when(phrase.rstrip(" .;,"), became_law, fail, base=out.date)
    if date is None:
        return
    if only_if_later and out.date is not None and out.date <= date:
        return
    out.retroactive = date
    out.phrase = f"{out.phrase}, deemed in full force and effect on and after {date}"
    out.date = date


def _proviso(out: Effective, p: str, became_law: dt.date | None, fail: Callable[[str], None], given: dt.date | None) -> None:
    if (r := _IF_RETRO.match(p)) is not None:
        after = when(r["date"], became_law, fail, base=out.date)
        retro = _RETRO.match(r["retro"])
        if after is None or retro is None:
            fail(f"cannot read the proviso {p[:160]!r}: when the act is deemed in effect")
            return
        _retroactive(out, retro["when"], became_law, fail, only_if_later=True)
        return
    if _KEPT.search(p) and (w := _WHEN_UPON.search(p)) is not None:
        for n in [n for sm in _SECTIONS_OF.finditer(w["subject"]) for n in _numbers(sm["list"], fail)]:
            out.sections[n] = (None, p)  # the day another law's provision expires: not known here
        out.unread.append(p)
        return
    if _KEPT.search(p) or _PARTS_NOTE.search(p):
        out.unread.append(p)  # a sunset kept ("… deemed repealed therewith"), or Parts dated in their own last sections
        return
    s = _SUBJECT.match(p)
    if s is None:
        if re.search(r"take\s+effect|expire|deemed\s+repealed|deemed\s+to\s+have\s+been", p, re.I):
            fail(f"cannot read the proviso {p[:160]!r}: which sections it dates, or when")
        else:
            out.unread.append(p)
        return
    subject, verb, rest = s["subject"], s["verb"].lower(), s["rest"].rstrip(" .;,")
    conditional = re.match(r"if\b|in\s+the\s+event\b|unless\b|upon\s+the\s+condition", subject, re.I) is not None
    sections = [n for sm in _SECTIONS_OF.finditer(subject) if not sm["part"] for n in _numbers(sm["list"], fail)]
    in_parts = [(sm["part"], n) for sm in _SECTIONS_OF.finditer(subject) if sm["part"] for n in _numbers(sm["list"], fail)]
    parts = [x for pm in _PARTS_OF.finditer(subject) for x in _part_list(pm["list"])]
    whole = _THIS_ACT.match(subject.strip()) is not None
    expiry = not verb.startswith(("take", "be deemed to have"))
    if expiry:
        if conditional or re.search(r"\bif\b|\bupon\s+the\s+(?:occurrence|determination)", rest, re.I):
            out.unread.append(p)  # an end on a condition navlaw cannot know: said, not applied
            return
        rest = re.sub(r"^and\s+be\s+deemed\s+repealed\s*", "", rest, flags=re.I)
        date = when(rest, became_law, fail, base=out.date, given=given)
        if whole:
            out.expires, out.expires_phrase = date, rest
        elif sections:
            for n in sections:
                out.section_expires[n] = (date, rest)
        else:
            out.unread.append(p)  # the end of something other than the act's sections (a provision of another law)
        return
    if conditional:
        fail(f"the proviso {p[:160]!r} dates sections on a condition navlaw cannot know; the act cannot be dated")
        return
    rest = _AND_SHALL.split(rest)[0].rstrip(" .;,")
    if not (whole or sections or parts or in_parts):
        fail(f"cannot read the proviso {p[:160]!r}: which sections it dates")
        return
    date = when(rest, became_law, fail, base=out.date, given=given)
    if whole:
        out.date, out.phrase = date, rest
    for n in sections:
        out.sections[n] = (date, rest)
    for part in parts:
        out.parts[part] = (date, rest)
    if in_parts:
        fail(f"the proviso {p[:160]!r} dates sections of a Part from the act's effective-date section: navlaw reads a "
             "Part's dates from the Part's own last section")


def _part_list(words: str) -> list[str]:
    thru = re.split(r"\s+through\s+", words.strip())
    if len(thru) == 2:
        a, b = thru
        if len(a) == len(b) == 1:
            return [chr(c) for c in range(ord(a), ord(b) + 1)]
        if len(set(a)) == len(set(b)) == 1 and a[0] <= b[0] and len(a) <= len(b):  # "A through ZZ"
            letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
            out = []
            for k in range(len(a), len(b) + 1):
                for ch in letters:
                    label = ch * k
                    if (k, label) >= (len(a), a) and (k, label) <= (len(b), b):
                        out.append(label)
            return out
    return [x for x in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", words.strip()) if x]


def _numbers(words: str, fail: Callable[[str], None]) -> list[int]:
    """ "two", "two and three", "one through four", "2, 3 and 5" -> section numbers."""
    out: list[int] = []
    thru = re.split(r"\s+through\s+", words.strip())
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", words.strip()) if len(thru) == 1 else thru
    for item in items:
        item = item.strip()
        if not item:
            continue
        if item.isdigit():
            out.append(int(item))
            continue
        try:
            kind, n = W.parse(item)
            out.append(_whole(n))
        except (ValueError, TypeError):
            fail(f"cannot read the section number {item!r}")
    if len(thru) == 2 and len(out) == 2:
        out = list(range(out[0], out[1] + 1))
    return out


_BECOME = r"(?:the\s+date\s+(?:on|upon)\s+which\s+)?(?:it|this\s+act)\s+shall\s+(?:have\s+)?become\s+a\s+law"
_ORDINAL_DAY = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "tenth": 10, "fifteenth": 15,
                "twentieth": 20, "thirtieth": 30, "thirty-first": 31}
_TIED = lazy(r"^(?:on\s+)?(?:the\s+)?same\s+date\s+(?:and\s+(?:in\s+)?the\s+same\s+manner\s+)?as\s+(?P<what>.+?)(?:,?\s+(?:takes|shall\s+take|"
             r"took|was|is|shall\s+be|has\s+been)\s+(?:effect|enacted|effective)\b.*)?$", re.S)
_EVENT = lazy(r"^(?:upon|on|after)\s+the\s+(?:enactment|adoption|effective\s+date|approval|occurrence|date\s+on\s+which|"
              r"first\s+day\s+of\s+a\s+(?:sales\s+tax\s+)?quarterly|first\s+day\s+of\s+the\s+(?:sales\s+tax\s+)?quarterly)\b")


# what may follow a date in its phrase: "… on the first of January, 2030 when upon such date the
# provisions of such sections shall be deemed repealed" (an expiry's own words)
_TAIL = r"\s*(?:,?\s*when\s+upon\s+such\s+date\b.*)?$"


def _full(pattern: str, p: str) -> re.Match[str] | None:
    return re.match(pattern + _TAIL, p, re.S)


def when(phrase: str, became_law: dt.date | None, fail: Callable[[str], None], base: dt.date | None = None,
         given: dt.date | None = None) -> dt.date | None:
    """The date a phrase names (``_when``), or an error when counting from its start passes 9999-12-31."""
    try:
        return _when(phrase, became_law, fail, base, given)
    except (OverflowError, ValueError) as e:  # dt.date and timedelta arithmetic past 9999-12-31
        fail(f"{_short(phrase)!r} counted from {became_law or base} falls after 9999-12-31, the last date navlaw can "
             f"represent ({e})")
        return None


def _when(phrase: str, became_law: dt.date | None, fail: Callable[[str], None], base: dt.date | None = None,
          given: dt.date | None = None) -> dt.date | None:
    """The date a phrase names: "immediately", "on the ninetieth day after it shall have become a law",
    "on the first of January next succeeding the date on which it shall have become a law", "on the first
    of the calendar month next succeeding the sixtieth day after …", "January 1, 2024", "on January
    first, two thousand twenty-four", "on the first of January, 2030", "three years after such date"
    (``base``: the act's effective date); a date another chapter or an event decides is ``given`` (the
    manifest's), or an error."""
    p = " ".join(phrase.lower().split()).strip(" ,;.")
    p = re.sub(r"^on\s+and\s+after\s+", "", p)
    if p in ("such date", "such effective date", "the effective date of this act") and base is not None:
        return base
    if p == "immediately":  # "immediately upon …", "immediately for …": words after it date the act otherwise
        if became_law is None:
            fail("\"take effect immediately\": the manifest must give became_law for this act")
        return became_law
    if (t := _TIED.match(p)) is not None or _EVENT.match(p):
        if given is not None:
            return given
        what = f"the day {_short(t['what'])} takes effect" if t else f"a date another event decides: {_short(phrase)!r}"
        fail(f"{'the act' if base is None else 'a part of the act'} takes effect on {what}; navlaw does not guess that "
             "date: the manifest must give `effective` for this act (the date it happened)")
        return None
    for form in (_relative, _calendar):
        matched, day = form(p, phrase, became_law, base, fail)
        if matched:
            return day
    fail(f"cannot read the effective date {phrase!r}")
    return None


Found = tuple[bool, dt.date | None]  # (whether the phrase is of this form, the date it names)


def _relative(p: str, phrase: str, became_law: dt.date | None, base: dt.date | None, fail: Callable[[str], None]
              ) -> Found:
    """A date counted from the day the act became law (or from ``base``): "on the first of the month next
    succeeding …", "on the ninetieth day after …", "three years after such date"."""
    m = _full(r"(?:on\s+)?the\s+first\s+(?:day\s+)?of\s+the\s+(?:calendar\s+)?month\s+next\s+(?:succeeding|following)\s+"
                 r"(?:the\s+(?:date\s+on\s+which\s+)?(?P<n>[a-z0-9\- ]+?)\s+day\s+(?:after|following)\s+)?" + _BECOME, p)
    if m:
        if became_law is None:
            _no_became_law(phrase, fail)
            return True, None
        day = became_law
        if m["n"]:
            n = _ordinal(m["n"])
            if n is None:
                fail(f"cannot read the number of days in {phrase!r}")
                return True, None
            day = became_law + dt.timedelta(days=n)
        return True, dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    m = _full(r"(?:on\s+)?the\s+(?P<n>[a-z0-9\- ]+?)\s+day\s+(?:after|following|next\s+succeeding)\s+" + _BECOME, p)
    if m:
        n = _ordinal(m["n"])
        if n is None:
            fail(f"cannot read the number of days in {phrase!r}")
            return True, None
        if became_law is None:
            _no_became_law(phrase, fail)
            return True, None
        return True, became_law + dt.timedelta(days=int(n))
    m = _full(r"(?:on\s+the\s+date\s+that\s+is\s+)?(?P<n>[a-z0-9 -]+?)\s+(?P<unit>years?|months?|days?)\s+after\s+(?:(?P<become>"
                 + _BECOME + r")|(?P<such>such\s+(?:effective\s+)?date|it\s+shall\s+(?:have\s+)?take[n]?\s+effect|the\s+effective\s+date"
                 r"\s+of\s+this\s+act|its\s+effective\s+date))", p)
    if m:
        n = int(m["n"]) if m["n"].isdigit() else _cardinal(m["n"])
        if n is None:
            fail(f"cannot read the number of {m['unit']} in {phrase!r}")
            return True, None
        start = became_law if m["become"] else base
        if start is None:
            _no_became_law(phrase, fail)
            return True, None
        if m["unit"].startswith("day"):
            return True, start + dt.timedelta(days=n)
        return True, _add_months(start, n * (12 if m["unit"].startswith("year") else 1))
    return False, None


def _calendar(p: str, phrase: str, became_law: dt.date | None, base: dt.date | None, fail: Callable[[str], None]
              ) -> Found:
    """A day of the calendar: "the first of January next succeeding …", "the first of January, 2030",
    "January 1, 2024", "on January first, two thousand twenty-four"."""
    m = _full(r"(?:on\s+)?(?:the\s+)?first\s+(?:day\s+)?of\s+(?P<month>[a-z]+)\s+(?:next\s+(?:succeeding|following)|after|following)"
              r"(?:\s+" + _BECOME + ")?", p)
    if m and m["month"].capitalize() in _MONTHS:
        if became_law is None:
            _no_became_law(phrase, fail)
            return True, None
        month = _MONTHS.index(m["month"].capitalize()) + 1
        year = became_law.year + (1 if (month, 1) <= (became_law.month, became_law.day) else 0)
        return True, dt.date(year, month, 1)
    m = _full(r"(?:on\s+)?(?:the\s+)?(?P<day>[a-z-]+)\s+(?:day\s+)?of\s+(?P<month>[a-z]+),?\s+(?P<year>\d{4})", p)
    if m and m["month"].capitalize() in _MONTHS and m["day"] in _ORDINAL_DAY:
        return True, dt.date(int(m["year"]), _MONTHS.index(m["month"].capitalize()) + 1, _ORDINAL_DAY[m["day"]])
    m = _full(r"(?:on\s+)?(?P<month>[a-z]+)\s+(?P<day>\d{1,2}|[a-z-]+),\s*(?P<year>\d{4})", p)
    if m and m["month"].capitalize() in _MONTHS and (m["day"].isdigit() or m["day"] in _ORDINAL_DAY):
        dom = int(m["day"]) if m["day"].isdigit() else _ORDINAL_DAY[m["day"]]
        return True, dt.date(int(m["year"]), _MONTHS.index(m["month"].capitalize()) + 1, dom)
    if re.search(r"\b(?:" + "|".join(x.lower() for x in _MONTHS) + r")\b", p) and not re.search(r"\b(?:after|succeeding|following|same|upon|if)\b", p):
        for hit in W.scan(phrase):
            rest = (phrase[: hit.start] + " " + phrase[hit.end:]).lower()
            if hit.kind == "date" and isinstance(hit.value, dt.date) and _full(r"\s*(?:on\s+)?(?:the\s+)?[\s,.;]*",
                                                                                  rest.strip()):
                return True, hit.value
    return False, None




def _short(words: str, limit: int = 110) -> str:
    return words if len(words) <= limit else words[:limit].rsplit(" ", 1)[0] + " …"


def _add_months(start: dt.date, months: int) -> dt.date:
    y, mo = divmod(start.month - 1 + months, 12)
    day = min(start.day, [31, 29 if _leap(start.year + y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo])
    return dt.date(start.year + y, mo + 1, day)


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _whole(n: W.Value) -> int:
    """A number read in words, as an int (a date is none: TypeError, as ``int`` says of it)."""
    if isinstance(n, dt.date):
        raise TypeError(f"{n} is a date, not a number")
    return int(n)


def _cardinal(words: str) -> int | None:
    try:
        _, n = W.parse(words.strip())
        return _whole(n)
    except (ValueError, TypeError):
        return None


_ORDINAL_ENDS = (("twelfth", "twelve"), ("first", "one"), ("second", "two"), ("third", "three"), ("fifth", "five"),
                 ("eighth", "eight"), ("ninth", "nine"), ("ieth", "y"), ("th", ""))


def _ordinal(words: str) -> int | None:
    """ "ninetieth" -> 90, "one hundred twentieth" -> 120, "thirtieth" -> 30, "90th" -> 90."""
    w = words.strip()
    if (d := re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", w)) is not None:
        return int(d.group(1))
    n = _cardinal(w)
    if n is not None:
        return n
    for end, cardinal in _ORDINAL_ENDS:
        if w.endswith(end):
            return _cardinal(w[: len(w) - len(end)] + cardinal)
    return None


def _no_became_law(phrase: str, fail: Callable[[str], None]) -> None:
    fail(f"{phrase!r} counts from the day the act became law: the manifest must give became_law")
