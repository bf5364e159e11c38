"""The instruction language of New York session laws (grammar/acts.lark) read into targets: which law an
instruction names, what it does (amend, add, amend and add, repeal, repeal and add, renumber or reletter,
designate, amend by items), the provisions it names — several per sentence, each sharing the last one's
outer levels, an opening or closing paragraph or a heading as a part of one — and the provisions it adds,
as provision ids ("paragraph (b) of subdivision 4 of section 12" is 12/4/b). compiler/frontend/acts.py
turns them into an act's instructions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Tree

from navlaw import resources
from navlaw.cache import lark_parser
from navlaw.model import numbers as W

GRAMMAR = resources.path("grammar", "acts.lark")
LEVELS = ("section", "subdivision", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem")

@lru_cache(maxsize=1)
def _instruction_parser() -> Lark:
    return lark_parser("acts-instruction", GRAMMAR.read_text(encoding="utf-8"), start="instruction")


@lru_cache(maxsize=1)
def _cite_parser() -> Lark:
    return lark_parser("acts", GRAMMAR.read_text(encoding="utf-8"), start="citation")


_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}


def _label(level: str, text: str) -> str:
    """A label as it is in ids: "(b)" -> "b", "one-c" -> "1-c", "49-A" (a section) -> "49-a"."""
    t = text.strip("()")
    head, sep, tail = t.partition("-")
    if head.lower() in _NUMBER_WORDS:
        head = _NUMBER_WORDS[head.lower()]
    elif head.isalpha() and len(head) > 2 and not re.fullmatch(r"[ivxlc]+|[IVXLC]+", head):
        try:
            _, n = W.parse(head.lower())
            head = str(n)
        except (ValueError, TypeError):
            pass
    t = head + sep + tail
    if level.startswith(("section", "subdivision", "article")) or "-" in t and t.split("-")[0].isdigit():
        t = t.lower()
    return t


def _ref_labels(ref: Tree[Token]) -> list[str]:
    """The labels a ref names, as written (the LABEL tokens of its second child)."""
    labels = ref.children[1]
    assert isinstance(labels, Tree)
    return [str(t) for t in labels.children if isinstance(t, Token) and t.type == "LABEL"]


def _refs(tree: Tree[Token]) -> list[tuple[str, list[str]]]:
    """(level, labels) of each ref of a subject or citation, as written, innermost first."""
    out = []
    for ref in tree.find_data("ref"):
        level = str(ref.children[0]).lower().rstrip("s")  # "Subitems" -> "subitem"
        out.append((level, [_label(level, l) for l in _ref_labels(ref)]))
    return out


def _chain(refs: list[tuple[str, list[str]]], words: str) -> list[str]:
    """The outer levels of a subject (all but its first ref) as an id prefix."""
    outer = list(reversed(refs[1:]))
    if refs and refs[-1][0] != "section" and refs[0][0] not in ("section", "article", "title", "part"):
        raise ValueError(f"the citation {words!r} does not name a section")
    order = [LEVELS.index(level) for level, _ in reversed(refs) if level in LEVELS]
    if order != sorted(order):
        raise ValueError(f"the citation {words!r} names its levels out of order")
    return [labels[0] for _, labels in outer]


def citation_id(words: str) -> str:
    """"Paragraph (b) of subdivision 4 of section 89-b" -> "89-b/4/b"."""
    refs = _refs(_cite_parser().parse(" ".join(words.split())))
    prefix = _chain(refs, words)
    return "/".join(prefix + refs[0][1][:1])


# A level's rank, outermost first: a target naming fewer levels than another of its sentence shares the
# other's levels ranked above its own; a provision added is under its target's levels ranked above it.
RANK = {"part": 0, "subpart": 1, "title": 3, "article": 3, "section": 4, "rule": 4, "subsection": 5,
        "subdivision": 5, "schedule": 6, "paragraph": 6, "subparagraph": 7, "clause": 8, "subclause": 9,
        "item": 10, "subitem": 11}
SENTENCE = re.compile(r"(.+?(?:to\s+read\s+as\s+follows\s*:|\bamended\s+by\s+repealing\b[^:]*:))\s*(.*)$"
                       r"|(.+?(?:\brepealed\b|\b(?:renumbered|relettered|redesignated|designated)\b[^.]*?)\.)(?:\s+(.*))?$",
                       re.S | re.I)
# a section that instructs: its first sentence says something "is/are (hereby) amended|repealed|…"
INSTRUCTS = re.compile(r"\b(?:is|are)\s+(?:hereby\s+)?(?:amended|repealed|renumbered|relettered|redesignated|designated|added)\b",
                       re.I)


@dataclass(frozen=True)
class Target:
    """One provision an instruction names: its id, level, and the part of it ("opening paragraph") if any."""

    id: str
    level: str
    portion: str = ""

    def said(self) -> str:
        name = f"{self.level} {self.id}" if self.level in ("article", "title", "part", "subpart") and "/" not in self.id else self.id
        return f"{name} ({self.portion})" if self.portion else name

    @property
    def above_sections(self) -> bool:
        """An article, title or Part as a whole (not a provision id of the law's sections)."""
        return RANK.get(self.level, RANK["section"]) < RANK["section"] and "/" not in self.id


def _portion(token: str) -> str:
    return " ".join(re.sub(r"(?i)^(?:of\s+)?(?:the|an?)\s+", "", token).lower().split())


_GROUPS = ("article", "title")  # a law's sections are numbered through it: no article or title in their ids


def _ident(chain: list[tuple[str, str]], level: str, label: str) -> str:
    """The id of the provision ``level label`` under ``chain`` (outermost first): "title 6 of article 2" is
    "6" (a title), "section 267-a" of that title is "267-a", "section 4 of part H of chapter 58" is "H/4"."""
    if level in _GROUPS:
        return label
    return "/".join([lab for lv, lab in chain if lv not in _GROUPS] + [label])


def _elements(target: Tree[Token]) -> list[tuple[str, str, list[str]]]:
    """A target's chain, innermost first: ("level", level, labels) or ("portion", "opening paragraph", [])."""
    out: list[tuple[str, str, list[str]]] = []
    for c in target.children:
        if isinstance(c, Tree) and c.data == "ref":
            level = str(c.children[0]).lower().rstrip("s")
            labels = [_label(level, t) for t in _ref_labels(c)]
            out.append(("level", level, labels))
        elif isinstance(c, Token) and c.type in ("PORTION", "OF_PORTION"):
            out.append(("portion", _portion(str(c)), []))
    return out


def _outer(chain: list[tuple[str, str]], rank: int) -> list[tuple[str, str]]:
    """The levels of an (outermost-first) chain ranked above ``rank``."""
    return [(lv, lab) for lv, lab in chain if RANK[lv] < rank]


def _targets(subject: Tree[Token], sentence: str) -> tuple[list[Target], list[tuple[str, str]]]:
    """The subject's targets, and the last target's chain (outermost first, (level, label)) that new
    provisions are placed in."""
    items = [_elements(t) for t in subject.children if isinstance(t, Tree) and t.data == "target"]
    for elements in items:
        for kind, level, labels in elements:
            if kind == "level" and level not in RANK:
                raise ValueError(f"the level {level!r} in {sentence[:120]!r} is not one navlaw reads")
            if kind == "level" and labels and elements.index((kind, level, labels)) > 0 and len(labels) > 1:
                raise ValueError(f"{sentence[:120]!r} names several {level}s as the place of its targets")
    last = items[-1]
    last_chain = [(lv, labs[0]) for kind, lv, labs in reversed(last) if kind == "level"]
    out: list[Target] = []
    for elements in items:
        levels = [(lv, labs) for kind, lv, labs in elements if kind == "level"]
        portion = elements[0][1] if elements[0][0] == "portion" else ""
        chain = [(lv, labs[0]) for lv, labs in reversed(levels[1:] if not portion else levels)]
        head = levels[0] if levels and not portion else None
        top = chain[0][0] if chain else head[0] if head else ""
        if elements is not last:  # shares the last target's outer levels
            rank = RANK[top] if top else RANK[last_chain[-1][0]]
            chain = _outer(last_chain, rank) + chain
        order = [RANK[lv] for lv, _ in chain] + ([RANK[head[0]]] if head else [])
        # "section 7 of section 1 of chapter …"; "title 6 of article 2" (the public health law) and "article 130 of
        # title M" (the penal law) both occur
        repeated = [r for r in order if order.count(r) > 1 and r not in (RANK["section"], RANK["article"])]
        if order != sorted(order) or repeated:
            raise ValueError(f"the citation {sentence[:120]!r} names its levels out of order")
        if not any(lv in ("section", "rule", "article", "title", "part", "subpart") for lv, _ in chain) and not (
                head and head[0] in ("section", "rule", "article", "title", "part", "subpart")):
            raise ValueError(f"the citation {sentence[:120]!r} does not name a section")
        if head:
            out += [Target(_ident(chain, head[0], lab), head[0]) for lab in head[1]]
        elif chain:
            out.append(Target(_ident(chain[:-1], *chain[-1]), chain[-1][0], portion))
        else:
            raise ValueError(f"{sentence[:120]!r} names a part of no provision")
    return out, last_chain


def _new(pred: Tree[Token], chain: list[tuple[str, str]], whole: bool) -> list[Target]:
    """The provisions a predicate adds (or renames to): under the target's levels ranked above theirs, or
    under the provision it names ("… are added to subdivision 2")."""
    out: list[Target] = []
    into = next((c for c in pred.children if isinstance(c, Tree) and c.data == "target"), None)
    if into is not None:
        inner = [(lv, labs[0]) for kind, lv, labs in reversed(_elements(into)) if kind == "level" and labs]
        if not inner or any(lv not in RANK for lv, _ in inner):
            raise ValueError("the provision new ones are added to is not one navlaw reads")
        chain = _outer(chain, RANK[inner[0][0]]) + inner
    for c in pred.children:
        if isinstance(c, Tree) and c.data == "new" and isinstance(c.children[0], Token):
            if not chain:
                raise ValueError("a new paragraph of no provision")
            out.append(Target(_ident(chain[:-1], *chain[-1]), chain[-1][0], _portion(str(c.children[0]))))
            continue
        ref = c.children[0] if isinstance(c, Tree) and c.data == "new" else c
        if not (isinstance(ref, Tree) and ref.data == "ref"):
            continue
        level = str(ref.children[0]).lower().rstrip("s")
        if level not in RANK:
            raise ValueError(f"the level {level!r} is not one navlaw reads")
        labels = [_label(level, t) for t in _ref_labels(ref)]
        outer = [] if whole else _outer(chain, RANK[level])
        out += [Target(_ident(outer, level, lab), level) for lab in labels]
    return out


_NYCRR = re.compile(r"official compilation of codes, rules and regulations of the state of new york|"
                    r"new york codes, rules and regulations")


def _rules_title(law: str, chain: list[tuple[str, str]]) -> str:
    """The NYCRR named with the title of its subject as the code it is ("21 nycrr": a code of the table of
    codes); any other law as named."""
    title = next((label for level, label in chain if level == "title"), "")
    return f"{title} nycrr" if _NYCRR.fullmatch(law) and title.isdigit() else law


def read_instruction(sentence: str) -> tuple[str, str, list[Target], list[Target]]:
    """(law, action, targets, new provisions) of an instruction sentence; raises LarkError or ValueError
    when navlaw cannot read it. The law is the one the sentence names ("navigation law", "chapter 57 of the
    laws of 2008"), never one of its amendment history."""
    tree = _instruction_parser().parse(sentence)
    law_tree = tree.children[1] if tree.data == "provisions" else tree.children[0]
    assert isinstance(law_tree, Tree)
    law_tok = [str(t) for t in law_tree.children if isinstance(t, Token) and t.type in ("LAW", "CHAPTER_LAW")][0]
    law = " ".join(law_tok.replace("\u2019", "'").lower().split())
    law = re.sub(r"^(?:of\s+)?(?:the\s+)?", "", law)
    pred = tree.children[-1]
    assert isinstance(pred, Tree)
    if tree.data == "provisions":
        subject = tree.children[0]
        assert isinstance(subject, Tree)  # the grammar's provisions rule begins with its targets
        targets, chain = _targets(subject, sentence)
        law = _rules_title(law, chain)
        if targets and not targets[0].portion:
            chain = [(lv, lab) for lv, lab in _outer(chain, 99)]
            first = targets[0]
            chain = _outer(chain, RANK[first.level]) + [(first.level, first.id.rsplit("/", 1)[-1])]
    else:
        targets, chain = [], []
    return law, pred.data, targets, _new(pred, chain, tree.data == "whole_law")


