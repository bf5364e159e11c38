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
    marked = _replacement_numbers(body)
    marked = re.sub(r"\{[^{}]*\}", " ", marked)
    toks = TOKEN.findall(marked.replace("[", " ").replace("]", " "))
    out = []
    for i, t in enumerate(toks):
        if is_caps(t):
            continue
        if len(t) == 1 and t.isupper() and any(is_caps(x) for x in toks[max(0, i - 1):i + 2]):
            continue  # "A" inside a run of new matter ("A MINIMUM CHARGE")
        out.append(t)
    return out


@dataclass
class CaseBook:
    """How each word is written in the law texts of the corpus, outside sentence starts."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)

    def learn(self, text: str) -> None:
        prev_end = ""
        for m in _WORD.finditer(text):
            w = m.group(0)
            before = text[max(0, m.start() - 2):m.start()]
            sentence_start = not prev_end or before.strip()[-1:] in ".:;" or "\n" in before
            prev_end = w
            if sentence_start or is_caps(w):
                continue
            self.counts.setdefault(w.lower(), Counter())[w] += 1

    def form(self, word: str) -> str:
        """The law-text form of a word printed in capitals."""
        if word.capitalize() in MONTHS:
            return word.capitalize()
        seen = self.counts.get(word.lower())
        if seen:
            best, n = seen.most_common(1)[0]
            if best != best.lower() and n >= 0.8 * sum(seen.values()):
                return best
        return word.lower()


def new_text(body: str, book: CaseBook | None = None) -> tuple[str, bool]:
    """The text after the act: bracketed matter deleted, CAPITALS restored; and whether any were."""
    book = book or CaseBook()
    text = re.sub(r"\[[^\[\]]*\]", "", body)
    restored = False
    lower_labels = bool(re.search(r"(?m)^\s*\([a-z]{1,4}\)", text))

    def label(m: re.Match[str]) -> str:
        nonlocal restored
        lab = m.group(2)
        if re.fullmatch(r"\d+-[A-Z]{1,3}\.", lab):  # "3-A." -> "3-a."
            restored = True
            return m.group(1) + lab.lower()
        if lower_labels and re.fullmatch(r"\([A-Z]{1,4}\)", lab):
            restored = True
            return m.group(1) + lab.lower()
        return m.group(0)

    text = re.sub(r"(?m)^(\s*)(\(?[0-9A-Za-z]{1,5}(?:-[0-9A-Za-z]{1,3})?[.)])(?=\s)", label, text)
    text = re.sub(r"§\s*\d+(?:-[A-Z]{1,4})+", lambda m: m.group(0).lower(), text)  # "§ 79-D." is § 79-d
    if not lower_labels:
        text, lowered = _paragraph_letters(text)
        restored = restored or lowered

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
        return book.form(w)

    # labels cited in new matter: "PARAGRAPH (A), (B), (D) OR (E) OF SUBDIVISION TWO" cites paragraphs (a) ...
    text = re.sub(r"(?i:\bparagraphs?)\s+\([A-Z]{1,2}\)(?:(?:,\s*|,?\s+(?:OR|AND|or|and)\s+)\([A-Z]{1,2}\))*",
                  lambda m: re.sub(r"\(([A-Z]{1,2})\)", lambda k: f"({k.group(1).lower()})", m.group(0)), text)
    text = re.sub(r"(?<![(\w])[A-Za-z]+(?:['’][A-Za-z]+)*", word, text)
    text = re.sub(r" +", " ", text)  # justified spacing (a tab is a table's cell separator: kept)
    text = re.sub(r" ([,.;:])", r"\1", text)
    # a sentence or a provision starts with a capital
    text = re.sub(r"(?m)(^(?:[ \t]*\(?[\w-]+[.)][ \t]+)*|[.:] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return "\n".join(l.strip() for l in text.split("\n")), restored


def _in_caps(text: str, start: int, end: int) -> bool:
    """Whether the word at [start, end) stands between words in capitals."""
    before = re.findall(r"[A-Za-z]+", text[max(0, start - 30):start])
    after = re.findall(r"[A-Za-z]+", text[end:end + 30])
    return bool(before and is_caps(before[-1]) or after and is_caps(after[0]))


_LINE_LABEL = re.compile(r"(?m)^([ \t]*)(\((?P<up>[A-HJ-UWYZ])\)|(?P<num>\d+(?:-[a-z]+)?\.)|\((?P<other>[0-9a-zIVXL]+)\))(?=\s)")


def _paragraph_letters(text: str) -> tuple[str, bool]:
    """New matter in capitals writes every letter label in capitals; the statute's ladder has
    paragraphs (a) under subdivisions 1., so a list of "(A)" that opens under a "1." is (a), (b) …
    ("(A)" under a clause (i) is a subclause, and stays)."""
    out: list[str] = []
    last = 0
    lowering: bool | None = None  # None: the next list of letters opens here (the section's text, a "1.")
    changed = False
    for m in _LINE_LABEL.finditer(text):
        if m.group("num"):
            lowering = None  # a subdivision: the next list of letters is its paragraphs
        elif m.group("up"):
            if lowering is None:
                lowering = m.group("up") == "A"
            if lowering:
                out.append(text[last:m.start(2)] + f"({m.group('up').lower()})")
                last = m.end(2)
                changed = True
        else:
            other = m.group("other")
            if other and other.isupper() and re.fullmatch(r"[IVXL]+", other) and (len(other) > 1 or other in "IVX"):
                out.append(text[last:m.start(2)] + f"({other.lower()})")  # "(II)": clause (ii)
                last = m.end(2)
                changed = True
            lowering = False if lowering is not None else lowering
    out.append(text[last:])
    return "".join(out), changed
