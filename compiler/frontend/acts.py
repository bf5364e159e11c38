"""Amending acts in the New York session-law form: parsed into instructions, checked, applied.

An act arrives as printed: a header block ("S T A T E   O F   N E W   Y O R K", session, house), the
title ("AN ACT to amend the navigation law, …"), the enacting clause, then sections:

    Section 1. Paragraph (b) of subdivision 4 of section 89-b of the navigation law, as amended by
    chapter 427 of the laws of 2022, is amended to read as follows:
      (b) The following scale of charges … [eleven dollars and twenty-two cents] ELEVEN DOLLARS …
    § 2. Section 89-a of the navigation law is amended by adding a new subdivision 9 to read as follows:
      9. …
    § 3. Section 89-c of the navigation law is REPEALED.
    § 4. This act shall take effect on the ninetieth day after it shall have become a law.

Lines are wrapped at about 70 columns, words hyphenated across lines. In the new text, matter in
[brackets] is deleted and matter in CAPITALS is new (the plain-text form of underscoring).

Before an instruction is applied it is checked like a patch: the new text with CAPITALS removed and
brackets dropped must be the provision as in force the day before (words compared, white space and
punctuation aside); if not, an error shows both. The citation of the target ("paragraph (b) of
subdivision 4 of section 89-b") is parsed by ``grammar/acts.lark``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Transformer
from lark.exceptions import LarkError

from compiler import resources
from compiler.cache import lark_parser
from compiler.frontend import numbers as W
from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend.load import SourceDocument
from compiler.frontend.manifest import Entry

GRAMMAR = resources.path("grammar", "acts.lark")
LEVELS = ("section", "subdivision", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem")
_MONTHS = ("January February March April May June July August September October November December").split()


@dataclass(frozen=True)
class Instruction:
    number: int  # the act's section number
    action: str  # "amend" | "add" | "repeal"
    target: str  # provision id ("89-b/4/b"); for "add", the new provision's id
    body: str  # the new text as printed, unwrapped (brackets and CAPITALS kept)
    line: int  # line of the instruction in the act file
    sentence: str


@dataclass
class Act:
    file: str
    entry: Entry
    title: str
    instructions: list[Instruction]
    effective: dt.date | None
    effective_phrase: str
    raw: str = field(repr=False, default="")


# ---- parsing ------------------------------------------------------------------------------------------------

class _Cite(Transformer):  # type: ignore[type-arg]
    def part(self, c):  # type: ignore[no-untyped-def]
        return (str(c[0]).lower(), str(c[1]).strip("()"))

    def citation(self, c):  # type: ignore[no-untyped-def]
        return list(c)


@lru_cache(maxsize=1)
def _cite_parser() -> Lark:
    return lark_parser("acts", GRAMMAR.read_text(encoding="utf-8"), start="citation")


def citation_id(words: str) -> str:
    """"Paragraph (b) of subdivision 4 of section 89-b" -> "89-b/4/b"."""
    parts = _Cite().transform(_cite_parser().parse(words))
    parts = list(reversed(parts))
    if not parts or parts[0][0] != "section":
        raise ValueError(f"the citation {words!r} does not name a section of the navigation law")
    order = [LEVELS.index(level) for level, _ in parts]
    if order != sorted(order):
        raise ValueError(f"the citation {words!r} names its levels out of order")
    return "/".join(label for _, label in parts)


_SECTION_START = re.compile(r"^\s*(?:Section|§)\s*(\d+)\.\s*", re.M)
_AMEND = re.compile(r"^(?P<cite>.+?) of the navigation law,?(?:\s+as (?:amended|added|renumbered)[^,]*?,)?\s+is "
                    r"amended to read as follows:\s*$", re.S | re.I)
_ADD = re.compile(r"^(?P<cite>.+?) of the navigation law,?(?:\s+as (?:amended|added|renumbered)[^,]*?,)?\s+is "
                  r"amended by adding a new (?P<level>\w+) (?P<label>\(?[\w-]+\)?) to read as follows:\s*$", re.S | re.I)
_REPEAL = re.compile(r"^(?P<cite>.+?) of the navigation law,?(?:\s+as (?:amended|added)[^,]*?,)?\s+is REPEALED\.?\s*$",
                     re.S)
_EFFECT = re.compile(r"^This act shall take effect (?P<when>.+?)\.?\s*$", re.S | re.I)
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}
_KEEP_HYPHEN = re.compile(r"(?i)(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|one|two|three|\d)-$")


def unwrap(lines: list[str]) -> list[tuple[int, str]]:
    """Join wrapped lines into paragraphs: a line indented by two or more spaces starts a new one; a word
    hyphenated across lines is joined ("navi-" + "gation"), a compound hyphen kept ("eighty-" + "six")."""
    out: list[tuple[int, str]] = []
    for n, line in lines:  # type: ignore[misc]
        text = line.rstrip()
        if not text.strip():
            continue
        if out and not re.match(r"^\s{2,}\S", line) and not _SECTION_START.match(line):
            k, prev = out[-1]
            if prev.endswith("-") and not _KEEP_HYPHEN.search(prev) and text.strip()[:1].isalpha():
                out[-1] = (k, prev[:-1] + text.strip())
            elif prev.endswith("-"):
                out[-1] = (k, prev + text.strip())
            else:
                out[-1] = (k, prev + " " + text.strip())
        else:
            out.append((n, text.strip()))
    return out


def parse_act(src: SourceDocument, entry: Entry, diags: Diagnostics) -> Act:
    raw = src.text
    lines = raw.split("\n")

    def err(line: int, message: str, hint: str = "") -> None:
        diags.add(Diagnostic(Severity.ERROR, message, src.path, line, 1, lines[line - 1] if 0 < line <= len(lines) else "",
                             "act", hint))

    enact = next((i for i, l in enumerate(lines) if re.search(r"DO\s+ENACT\s+AS\s+FOLLOWS", l)), None)
    if enact is None:
        err(1, "not an act: no enacting clause (\"… DO ENACT AS FOLLOWS:\")",
            "an act of the legislature as printed, with its header, title and enacting clause")
        return Act(src.path, entry, "", [], None, "", raw)
    title = " ".join(l.strip() for l in lines[:enact] if l.strip().upper().startswith("AN ACT") or False)
    m_title = re.search(r"AN ACT (.+?)(?:\n\s*\n|THE PEOPLE)", raw, re.S)
    if m_title:
        title = " ".join(m_title.group(1).split())
    paragraphs = unwrap([(i + 1, l) for i, l in enumerate(lines) if i > enact])  # type: ignore[arg-type]
    # group paragraphs into act sections
    sections: list[tuple[int, int, list[tuple[int, str]]]] = []
    for n, text in paragraphs:
        m = _SECTION_START.match(text)
        if m:
            sections.append((int(m.group(1)), n, [(n, text[m.end():])]))
        elif sections:
            sections[-1][2].append((n, text))
    instructions: list[Instruction] = []
    effective: dt.date | None = None
    phrase = ""
    for number, line, paras in sections:
        head = paras[0][1]
        body = "\n".join(t for _, t in paras[1:])
        if (m := _EFFECT.match(head)) is not None:
            phrase = " ".join(m["when"].split())
            effective = _effective_date(phrase, entry, lambda msg: err(line, msg))
            continue
        try:
            if (m := _ADD.match(head)) is not None:
                parent = citation_id(m["cite"])
                label = m["label"].strip("()")
                label = _NUMBER_WORDS.get(label.lower(), label)
                instructions.append(Instruction(number, "add", f"{parent}/{label}", body, line, head))
            elif (m := _AMEND.match(head)) is not None:
                instructions.append(Instruction(number, "amend", citation_id(m["cite"]), body, line, head))
            elif (m := _REPEAL.match(head)) is not None:
                instructions.append(Instruction(number, "repeal", citation_id(m["cite"]), "", line, head))
            else:
                err(line, f"§ {number} of the act: not an instruction navlaw knows: {head[:120]!r}",
                    "known: \"… is amended to read as follows:\", \"… is amended by adding a new subdivision N to "
                    "read as follows:\", \"… is REPEALED.\", \"This act shall take effect …\"")
        except (LarkError, ValueError) as e:
            err(line, f"§ {number} of the act: cannot read the citation: {str(e).splitlines()[0]}")
    if effective is None and not phrase:
        err(len(lines), "the act has no effective-date section (\"This act shall take effect …\")")
    return Act(src.path, entry, title, instructions, effective, phrase, raw)


def _effective_date(phrase: str, entry: Entry, fail) -> dt.date | None:  # type: ignore[no-untyped-def]
    p = phrase.lower()
    if p.startswith("immediately"):
        if entry.became_law is None:
            fail("\"take effect immediately\": the manifest must give became_law for this act")
        return entry.became_law
    m = re.match(r"on the (?P<n>[a-z\- ]+?) day (?:after|following) (?:it shall have become|the date on which it "
                 r"shall have become) a law", p)
    if m:
        try:
            kind, n = W.parse(m["n"])
        except ValueError:
            fail(f"cannot read the number of days in {phrase!r}")
            return None
        if entry.became_law is None:
            fail(f"{phrase!r} counts from the day the act became law: the manifest must give became_law")
            return None
        return entry.became_law + dt.timedelta(days=int(n))  # type: ignore[call-overload]
    m = re.match(r"on (?P<month>[A-Za-z]+) (?P<day>\d{1,2}), (?P<year>\d{4})", phrase)
    if m and m["month"].capitalize() in _MONTHS:
        return dt.date(int(m["year"]), _MONTHS.index(m["month"].capitalize()) + 1, int(m["day"]))
    for hit in W.scan(phrase):
        if hit.kind == "date":
            return hit.value  # type: ignore[return-value]
    fail(f"cannot read the effective date {phrase!r}")
    return None


# ---- new text, old text ----------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _is_caps(tok: str) -> bool:
    letters = [c for c in tok if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def old_words(body: str) -> list[str]:
    """The words of the text before the act: brackets dropped (their matter kept), CAPITALS removed."""
    toks = _TOKEN.findall(body.replace("[", " ").replace("]", " "))
    out = []
    for i, t in enumerate(toks):
        if _is_caps(t):
            continue
        if len(t) == 1 and t.isupper() and any(_is_caps(x) for x in toks[max(0, i - 1):i + 2]):
            continue  # "A" inside a run of new matter ("A MINIMUM CHARGE")
        out.append(t)
    return out


def new_text(body: str) -> str:
    """The text after the act: bracketed matter deleted, CAPITALS kept as new matter in ordinary case."""
    text = re.sub(r"\[[^\[\]]*\]", "", body)

    def lower(m: re.Match[str]) -> str:
        w = m.group(0)
        if not _is_caps(w):
            return w
        cap = w.capitalize()
        return cap if cap in _MONTHS else w.lower()

    text = re.sub(r"[A-Za-z]+", lower, text)
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r" ([,.;:])", r"\1", text)
    # a sentence or a provision starts with a capital
    text = re.sub(r"(?m)(^(?:\(?[\w-]+[.)]\s+)*|[.:] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return "\n".join(l.strip() for l in text.split("\n"))
