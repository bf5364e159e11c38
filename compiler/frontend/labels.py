"""Reads provision labels ("4.", "(a)", "(1-a)", "(ii)", "(A)") and decides how they nest.

New York statutes nest subdivision 1. > paragraph (a) > subparagraph (1) > clause (i) > subclause (A)
> item, but sections depart from it (§ 88 numbers subclauses "1." under a clause), texts arrive cut,
and "(i)" may be the ninth letter or the first roman numeral. So nesting is read from the sequence of
labels, not from a fixed ladder or from indentation:

1. A label that continues an open list (the next letter, number or numeral, or the next "-a" insert:
   (1) (1-a) (1-b) (2)) is a sibling in that list. The innermost list is tried first.
2. Otherwise, a label that starts a list ((a), (1), (i), (A), 1.) opens a new level under the
   innermost open provision.
3. Otherwise, the lists further out are tried, innermost first: "(2)" after "(1-c)(v)(E)" closes
   (E) and (v) and continues (1-c).
4. Otherwise the label is out of sequence and placed by the usual ladder (a diagnostic says so).
"""

from __future__ import annotations

from dataclasses import dataclass

# The usual ladder of New York statutes, outermost first; used only when sequences do not decide.
RANK = {"number": 1, "lower": 2, "arabic": 3, "roman": 4, "upper": 5, "upper_roman": 6,
        "double": 6, "double_upper": 7}
STYLE_NAMES = {"number": "subdivision", "lower": "paragraph", "arabic": "subparagraph",
               "roman": "clause", "upper": "subclause", "upper_roman": "item",
               "double": "item", "double_upper": "item"}

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def roman_value(s: str) -> int | None:
    """The value of a lowercase roman numeral up to 399, or None if ``s`` is not one."""
    total = 0
    prev = 0
    for ch in reversed(s):
        v = _ROMAN.get(ch)
        if v is None:
            return None
        if v < prev:
            total -= v
        else:
            total += v
            prev = v
    return total if to_roman(total) == s else None


def to_roman(n: int) -> str:
    out = []
    for value, numeral in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"),
                           (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


@dataclass(frozen=True)
class Reading:
    """One way to read a label: its style and its place in a list, (base, insert) — (1-b) is (1, 2)."""

    style: str
    base: int
    insert: int = 0

    def continues(self, prev: Reading) -> bool:
        if self.style != prev.style:
            return False
        return (self.base == prev.base + 1 and self.insert == 0) or (
            self.base == prev.base and self.insert in _next_inserts(prev.insert))

    @property
    def first(self) -> bool:
        return self.base == 1 and self.insert == 0

    def after(self, prev: Reading) -> bool:
        """Later in the same list than ``prev`` (a gap when not a continuation)."""
        return self.style == prev.style and (self.base, self.insert) > (prev.base, prev.insert)


def key(label: str) -> str:
    """The label as it appears in ids: "4." -> "4", "(1-a)" -> "1-a", "(A)" -> "A"."""
    return label.strip().strip("()").rstrip(".")


def _letters(s: str) -> int:
    return ord(s) - ord("a") + 1


# An insert ("12-a", "(1-c)") is a number: a digit suffix is itself (1-99); a letter suffix is
# 100 × its letter + how many times it is written, so that both of New York's ways of inserting go
# in order and continue a list: "12-a, 12-b, 12-c" and "12-a, 12-aa, 12-aaa" (then "12-b").
_LETTER_INSERT = 100


def _insert(suffix: str) -> int:
    if suffix.isdigit():
        return int(suffix)
    if suffix.isalpha() and len(set(suffix)) == 1:
        return _LETTER_INSERT * _letters(suffix[0]) + len(suffix)
    raise ValueError(suffix)


def _next_inserts(insert: int) -> set[int]:
    """The inserts that continue a list after ``insert``."""
    if insert == 0:
        return {1, _LETTER_INSERT + 1}  # "12" is followed by "12-1" or "12-a"
    if insert < _LETTER_INSERT:
        return {insert + 1}
    letter = insert // _LETTER_INSERT
    return {insert + 1, _LETTER_INSERT * (letter + 1) + 1}  # "12-aa" after "12-a"; "12-b" after "12-a"


def readings(label: str) -> list[Reading]:
    """Every plausible reading of a label, the preferred one first (used when nothing else decides)."""
    k = key(label)
    base, _, suffix = k.partition("-")
    try:
        insert = _insert(suffix.lower()) if suffix else 0
    except ValueError:  # "(1-ab)": no insert New York writes
        return []
    if label.strip().endswith(".") and base.isdigit():
        return [Reading("number", int(base), insert)]
    # "a." reads as "(a)" does: the laws and rules that letter their paragraphs "a." "b." nest them so
    if base.isdigit():
        return [Reading("arabic", int(base), insert)]
    out: list[Reading] = []
    lower = base.lower()
    upper = base.isupper()
    roman = roman_value(lower)
    if roman is not None:
        out.append(Reading("upper_roman" if upper else "roman", roman, insert))
    if len(base) == 1:
        letter = Reading("upper" if upper else "lower", _letters(lower), insert)
        # "(i)", "(v)", "(x)" usually open or continue a clause; other letters are letters first.
        out.insert(len(out) if lower in "ivx" else 0, letter)
    elif len(set(base)) == 1:
        out.append(Reading("double_upper" if upper else "double", _letters(lower[0]), insert))
    return out


def describe(r: Reading) -> str:
    return STYLE_NAMES.get(r.style, r.style)
