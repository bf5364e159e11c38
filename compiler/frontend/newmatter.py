"""An amending act's text of a provision, read two ways: the old law it quotes (matter in [brackets]
kept, new matter left out) and the law it makes (brackets deleted, new matter restored to the case it
has as law).

New matter is printed underscored; in the plain-text print it is in CAPITALS, and a number cannot be
capitalised: "[3.97] 4.70" and "[B-1] 5-B" replace the bracketed number with the one written right
after it. How capitals are restored to law text case (``CaseBook``): a word takes the case it has
elsewhere in the corpus when it is written with a capital there nearly always ("New York", "Hudson",
"United States"); otherwise it is lower case; a sentence and a provision start with a capital; a
label takes its list's case ("(E)" after "(d)" is "(e)"; an insert "3-A." is "3-a.").
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

TOKEN = re.compile(r"[A-Za-z0-9]+")
MONTHS = ("January February March April May June July August September October November December").split()
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")


def is_caps(tok: str) -> bool:
    letters = [c for c in tok if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _replacement_numbers(body: str) -> str:
    """Mark the number written right after a bracketed one as new matter: "[3.97] 4.70" -> "[3.97] {4.70}"."""
    return re.sub(r"(\][ \t]*)([0-9$(]*[0-9][0-9A-Za-z.,$-]*)", lambda m: m.group(1) + "{" + m.group(2) + "}", body)


def old_words(body: str) -> list[str]:
    """The words of the text before the act: brackets dropped (their matter kept), new matter removed."""
    return [w for w, _ in old_tokens(body)]


def old_text(body: str) -> str:
    """The text before the act, for reading (a line a paragraph): brackets dropped, new matter removed."""
    marked = re.sub(r"\{[^{}]*\}", " ", _replacement_numbers(body)).replace("[", "").replace("]", "")
    lines = []
    for line in marked.split("\n"):
        words = line.split()
        keep = [w for i, w in enumerate(words) if not any(is_caps(x) for x in TOKEN.findall(w)) and not (
            len(re.sub(r"[^A-Za-z]", "", w)) == 1 and w.strip("(),.;:").isupper()
            and any(is_caps(x) for x in words[max(0, i - 1):i + 2]))]
        lines.append(" ".join(keep))
    return "\n".join(lines)


def old_tokens(body: str) -> list[tuple[str, bool]]:
    """``old_words`` with, for each word, whether it is (part of) a provision's label ("1", "a" of
    "(a)"; the number of a section's "§ 50." heading)."""
    marked = _replacement_numbers(body)
    marked = re.sub(r"\{[^{}]*\}", lambda m: " " * len(m.group(0)), marked)
    marked = marked.replace("[", " ").replace("]", " ")
    spans = label_spans(marked)
    head = re.match(r"\s*(?:§|Section|SECTION)\s*\d+(?:-[0-9A-Za-z]+)*\.", marked)
    if head is not None:
        spans.append((0, head.end()))
    found = [(m.group(0), next(((a, b) for a, b in spans if a <= m.start() < b), None)) for m in TOKEN.finditer(marked)]
    out: list[tuple[str, bool]] = []
    for i, (t, span) in enumerate(found):
        lab = span is not None
        if is_caps(t) or span is not None and span[0] > 0 and _caps_follows(marked, span[1]):
            continue  # new matter, or the label of a new provision ("2. UPON NOTIFICATION …")
        if len(t) == 1 and t.isupper() and any(is_caps(x) for x, _ in found[max(0, i - 1):i + 2]):
            continue  # "A" inside a run of new matter ("A MINIMUM CHARGE")
        out.append((t, lab))
    return out


@dataclass
class CaseBook:
    """How each word is written in the law texts of the corpus, outside sentence starts: alone, and
    beside the word before and after it ("the United States" but "states that"; "New York" but "new")."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    pairs: dict[tuple[str, str, str], Counter[str]] = field(default_factory=dict)  # (side, other word, word)

    def learn(self, text: str) -> None:
        # one word ahead, not a list of every word's match: the corpus's whole text in match objects
        # was most of a large build's peak memory (benchmarks/memory.py)
        found = _WORD.finditer(text)
        m, prev = next(found, None), ""
        while m is not None:
            after, w, at = next(found, None), m.group(0), m.start()
            before = text[max(0, at - 2):at]
            sentence_start = not prev or before.strip()[-1:] in ".:;" or "\n" in before
            if not (sentence_start or is_caps(w)):
                self.counts.setdefault(w.lower(), Counter())[w] += 1
                if prev:
                    self.pairs.setdefault(("after", prev.lower(), w.lower()), Counter())[w] += 1
                if after is not None and not is_caps(after.group(0)):
                    self.pairs.setdefault(("before", after.group(0).lower(), w.lower()), Counter())[w] += 1
            m, prev = after, w

    def form(self, word: str, prev: str = "", nxt: str = "") -> str:
        """The law-text form of a word printed in capitals, between ``prev`` and ``nxt`` (if known)."""
        if word.capitalize() in MONTHS:
            return word.capitalize()
        for seen in (self.pairs.get(("after", prev.lower(), word.lower())) if prev else None,
                     self.pairs.get(("before", nxt.lower(), word.lower())) if nxt else None,
                     self.counts.get(word.lower())):
            if seen and sum(seen.values()) >= 2:
                best, n = seen.most_common(1)[0]
                if n >= 0.8 * sum(seen.values()):
                    return best if best != best.lower() else word.lower()
        seen = self.counts.get(word.lower())
        if seen:
            best, n = seen.most_common(1)[0]
            if best != best.lower() and n >= 0.8 * sum(seen.values()):
                return best
        return word.lower()


def new_text(body: str, book: CaseBook | None = None, outer: tuple[str, ...] = (), own: str = "") -> tuple[str, bool]:
    """The text after the act: bracketed matter deleted, CAPITALS restored; and whether any were.
    ``outer`` are the labels, as the law prints them, of the provisions the text sits in ("4.", "(b)"),
    ``own`` the label the instruction gives the provision the text begins with: the labels of new
    matter take their case from these and from their siblings (``label_case``), never from the print."""
    book = book or CaseBook()
    text = re.sub(r"\[[^\[\]]*\]", "", body)
    text, restored = label_case(text, outer, own)
    text = re.sub(r"§\s*\d+(?:-[A-Z]{1,4})+", lambda m: m.group(0).lower(), text)  # "§ 79-D." is § 79-d

    def word(m: re.Match[str]) -> str:
        nonlocal restored
        w = m.group(0)
        if w == "A" and _in_caps(text, m.start(), m.end()):
            restored = True
            return "a"  # the article, in a run of new matter ("AS A MEANS OF")
        if not is_caps(w.replace("'", "").replace("’", "")):
            return w
        restored = True
        if "'" in w or "’" in w:  # "PERSON'S" -> "person's"
            head, sep, tail = re.split(r"(['’])", w, maxsplit=1)
            return book.form(head) + sep + tail.lower()
        if w == "MAY" and not _DATED_MAY.match(text, m.start()) and not _MAY_DATED.search(text[:m.start()]):
            return "may"  # the verb; the month has a day or a year beside it
        prev = _PREV_WORD.search(text[max(0, m.start() - 40):m.start()])
        nxt = _NEXT_WORD.match(text, m.end())
        return book.form(w, prev.group(1) if prev else "", nxt.group(1) if nxt else "")

    # labels cited in new matter: "PARAGRAPH (A), (B), (D) OR (E) OF SUBDIVISION TWO" cites paragraphs (a) ...
    text = re.sub(r"(?i:\bparagraphs?)\s+\([A-Z]{1,2}\)(?:(?:,\s*|,?\s+(?:OR|AND|or|and)\s+)\([A-Z]{1,2}\))*",
                  lambda m: re.sub(r"\(([A-Z]{1,2})\)", lambda k: f"({k.group(1).lower()})", m.group(0)), text)
    # so do roman numerals cited or listed in new matter: "SUBPARAGRAPH (I) OR (II)", "A WAIVER: (I) HAS …"
    text = re.sub(r"(?:(?i:\b(?:sub)?paragraphs?|\bclauses?)\s+|[:;]\s+|\b(?:AND|OR)\s+)\((?:I|II|III|IV|V|VI|VII|VIII|IX|X)\)"
                  r"(?=\s+[A-Z]{2,}|\s+(?:OR|AND|or|and)\s+\(|\s+OF\b|[,;])",
                  lambda m: m.group(0)[:m.group(0).rindex("(")] + m.group(0)[m.group(0).rindex("("):].lower(), text)
    text = re.sub(r"(?<=\b(?:OR|or) )\((I|II|III|IV|V|VI|VII|VIII|IX|X)\)(?= (?:OF|of)\b)",
                  lambda m: m.group(0).lower(), text)
    text = re.sub(r"(?<![(\w])[A-Za-z]+(?:['’][A-Za-z]+)*", word, text)
    # a section number written out or in figures keeps its insert in lower case: "forty-seven-b", "79-d"
    text = re.sub(_NUMBER_INSERT, lambda m: m.group(1) + m.group(2).lower(), text)
    text = re.sub(r" +", " ", text)  # justified spacing (a tab is a table's cell separator: kept)
    text = re.sub(r" ([,.;:])", r"\1", text)
    # a sentence or a provision starts with a capital (also a defined term in quotes: (a) "Department" means)
    text = re.sub(r"(?m)(^(?:[ \t]*(?:§[ \t]*)?%s[ \t]+)*[\"“]?|[.:] [\"“]?|\. (?:%s[ \t]+)+[\"“]?)([a-z])" % (_LABEL, _LABEL),
                  lambda m: m.group(1) + m.group(2).upper(), text)
    return "\n".join(l.strip() for l in text.split("\n")), restored


_PREV_WORD = re.compile(r"([A-Za-z]+)[ \t\n]+$")
_NEXT_WORD = re.compile(r"[ \t\n]+([A-Za-z]+)")
_DATED_MAY = re.compile(r"MAY,?\s+(?:\d|(?:FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|EIGHTH|NINTH|TENTH|"
                        r"ELEVENTH|TWELFTH|THIR|FOUR|FIF|SIX|SEVEN|EIGH|NINE|TWENT|THIRT)\w*|first|second|third)")
_MAY_DATED = re.compile(r"(?i)\b(?:of|in|during|until|since|before|after|through)\s+$")
_NUMBER_WORD = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)")
_NUMBER_INSERT = re.compile(r"(?i)(\b%s(?:-%s)*-)([A-Z]{1,4})\b" % (_NUMBER_WORD, _NUMBER_WORD))


# ---- labels: their case from the label sequence, not from the print -------------------------------------

_LABEL = r"(?:\((?:[0-9]{1,3}|[A-Za-z]{1,6})(?:-[0-9A-Za-z]{1,4})?\)|[0-9]{1,3}(?:-[A-Za-z]{1,4})?\.)"
_CHAIN_LABEL = re.compile(r"(%s)(?=[ \t]+\S)" % _LABEL)
_SUB_HEAD = re.compile(r"[A-Z][A-Za-z'’ ,;/-]{0,300}\.[ \t]+(?=\()")  # a subdivision's heading: "Definitions. "
_SECTION_HEAD = re.compile(r"[ \t]*(?:§|Section|SECTION)[ \t]*\d+(?:-[0-9A-Za-z]+)*\.[ \t]+[^.\n]*\.[ \t]+")


def label_spans(text: str) -> list[tuple[int, int]]:
    """Where the labels of provisions are in a text of paragraphs (one a line): a paragraph's first labels
    ("2. (A) NO …" holds two) and, after a section's heading, the label its text opens with
    ("§ 175. Notification … discharge. 1. Any person …")."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        i = len(line) - len(line.lstrip())
        head = _SECTION_HEAD.match(line)
        if head is not None:
            i = head.end()
        while True:
            m = _CHAIN_LABEL.match(line, i)
            if m is None and spans and spans[-1][0] >= pos and (h := _SUB_HEAD.match(line, i)) is not None:
                m = _CHAIN_LABEL.match(line, h.end())  # "1. Criminal penalties. (A) OPERATION …": past a heading
            if m is None:
                break
            spans.append((pos + m.start(1), pos + m.end(1)))
            i = m.end(1)
            i += len(line[i:]) - len(line[i:].lstrip())
        pos += len(line) + 1
    return spans


def label_case(text: str, outer: tuple[str, ...] = (), own: str = "") -> tuple[str, bool]:
    """Labels of new matter printed in capitals take the case their place gives them: a label that
    continues an open list is its next sibling in that list's case ("(F)" after "(e)" is "(f)", "(III)"
    after "(ii)" is "(iii)"); one that opens a list takes the case its cousins under a parent of the same
    kind have, else the usual ladder's next level below its parent ("(A)" under "1." is "(a)", under
    "(i)" it stays "(A)"). A label of old law (in law case: followed by words in law case) stays as printed."""
    from navlaw.frontend.labels import RANK, Reading, readings

    stack: list[Reading] = []
    for lab in outer:  # each one a provision of the one before
        rs = readings(lab)
        if rs:
            stack.append(rs[0])
    kids: dict[str, str] = {}  # a parent's style -> the style its first list took
    out: list[str] = []
    last = 0
    changed = False
    first = True
    for a, b in label_spans(text):
        printed = text[a:b]
        letters = re.sub(r"[^A-Za-z]", "", printed)
        new_matter = bool(letters) and letters.isupper() and _caps_follows(text, b)
        forms = [printed]
        if new_matter:
            forms = [printed.lower(), printed] if len(letters) else [printed]
        if first and own and printed.strip("().").lower() == own.lower():
            forms = [printed.replace(printed.strip("()."), own)]
        first = False
        best: tuple[str, Reading] | None = None
        for depth in range(len(stack) - 1, -1, -1):  # a continuation, innermost list first
            best = next(((f, r) for f in forms for r in readings(f) if r.continues(stack[depth])), None)
            if best is not None:
                del stack[depth:]
                break
        if best is None:  # a first label: under the innermost open provision
            parent = stack[-1].style if stack else ""
            opening = [(f, r) for f in forms for r in readings(f) if r.first]
            prefer = [x for x in opening if x[1].style == kids.get(parent)]
            below = sorted((x for x in opening if RANK.get(x[1].style, 9) > RANK.get(parent, 0)),
                           key=lambda x: RANK.get(x[1].style, 9))
            best = (prefer or below or opening or [(printed, (readings(printed) or [Reading("", 0)])[0])])[0]
            if best[1].first:
                kids.setdefault(parent, best[1].style)
        if best[0] != printed:
            out.append(text[last:a] + best[0])
            last = b
            changed = True
        stack.append(best[1])
    out.append(text[last:])
    return "".join(out), changed


def _caps_follows(text: str, end: int) -> bool:
    """Whether the first word after a label (and any labels chained to it) is new matter."""
    m = re.compile(r"(?:[ \t]+%s)*[ \t]+[\"“(]?([A-Za-z][A-Za-z'’-]*)" % _LABEL).match(text, end)
    return m is not None and (is_caps(m.group(1)) or m.group(1) == "A")


def _in_caps(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) stands between words in capitals."""
    before = re.findall(r"[A-Za-z]+", text[max(0, start - 30):start])
    after = re.findall(r"[A-Za-z]+", text[end:end + 30])
    return bool(before and is_caps(before[-1]) or after and is_caps(after[0]))
