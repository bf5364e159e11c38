"""Amending acts in the New York session-law form, read into instructions.

An act arrives as printed (compiler/frontend/billprint.py strips the print's line numbers, page
headers, footer and a Markdown export's header): a header block, the title ("AN ACT to amend the
navigation law, …"), the enacting clause, then sections:

    Section 1. Paragraph (b) of subdivision 4 of section 89-b of the navigation law, as amended by
    chapter 427 of the laws of 2022, is amended to read as follows:
      (b) The following scale of charges … [eleven dollars and twenty-two cents] ELEVEN DOLLARS …
    § 2. Section 89-a of the navigation law is amended by adding a new subdivision 9 to read as follows:
    § 3. Sections 88-a and 88-b of the navigation law are REPEALED.
    § 4. This act shall take effect on the ninetieth day after it shall have become a law.

The first sentence of each section is read by ``grammar/acts.lark`` (the instruction language: amend,
add, amend and add, repeal, repeal and add, renumber; plural and listed targets; the law it names).
An instruction for a law other than the corpus's is *reported*, not applied: one act may amend
several laws. In the new text, matter in [brackets] is deleted and matter in CAPITALS is new
(compiler/frontend/newmatter.py); compiler/law/amend.py checks and applies the instructions.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from compiler import resources
from compiler.cache import lark_parser
from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend import billprint, effective as E
from compiler.frontend import numbers as W
from compiler.frontend.load import SourceDocument
from compiler.frontend.manifest import Entry

GRAMMAR = resources.path("grammar", "acts.lark")
LEVELS = ("section", "subdivision", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem")
CORPUS_LAW = "navigation law"  # the law the corpus holds; instructions for other laws are reported


@dataclass(frozen=True)
class Instruction:
    number: int  # the act's section number
    action: str  # "amend" | "add" | "repeal" | "replace" (repealed and added anew) | "renumber"
    target: str  # provision id ("89-b/4/b"); for "add", the new provision's id
    body: str  # the new text as printed, unwrapped (brackets and CAPITALS kept)
    line: int  # line of the instruction in the act file
    sentence: str
    renamed: str = ""  # "renumber": the provision's new id
    part: str = ""  # the act's part ("A"), in acts printed in parts


@dataclass(frozen=True)
class Reported:
    """An instruction for another law (or a section of the act that instructs nothing): said, not applied."""

    number: int
    line: int
    law: str
    sentence: str
    targets: tuple[str, ...] = ()


@dataclass
class Act:
    file: str
    entry: Entry
    title: str
    instructions: list[Instruction]
    effective: dt.date | None
    effective_phrase: str
    raw: str = field(repr=False, default="")
    reported: list[Reported] = field(default_factory=list)
    dates: E.Effective = field(default_factory=E.Effective)
    removed: list[str] = field(default_factory=list)  # what of the print was not the act (bill print)
    outcome: list[tuple[str, str]] = field(default_factory=list)  # (applied | reported | refused, what), when applied

    def effective_of(self, ins: Instruction) -> tuple[dt.date | None, str]:
        return self.dates.of(ins.number)


# ---- the instruction grammar -----------------------------------------------------------------------------

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


def _refs(tree: Tree) -> list[tuple[str, list[str]]]:  # type: ignore[type-arg]
    """(level, labels) of each ref of a subject or citation, as written, innermost first."""
    out = []
    for ref in tree.find_data("ref"):
        level = str(ref.children[0]).lower().rstrip("s")  # "Subitems" -> "subitem"
        labels = [str(t) for t in ref.children[1].children if isinstance(t, Token) and t.type == "LABEL"]
        out.append((level, [_label(level, l) for l in labels]))
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


# ---- the act's text ---------------------------------------------------------------------------------------

_SECTION_START = re.compile(r"^(?:Section|§|S)\s*(\d+)\.\s*")
_PART = re.compile(r"^PART\s+([A-Z]{1,3}(?:-\d)?)\.?\s*$")
_KEEP_HYPHEN = re.compile(r"(?i)(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|one|two|three|\d)-$")
_ENACT = re.compile(r"DO\s+ENACT\s+AS\s+FOLLOWS", re.I)


def unwrap(lines: list[billprint.PrintLine], base: int) -> list[tuple[int, str]]:
    """Join wrapped lines into paragraphs: a line indented more than ``base`` (the print's continuation
    indent) starts a new one, as does a section start; a word hyphenated across lines is joined
    ("navi-" + "gation"), a compound hyphen kept ("eighty-" + "six")."""
    out: list[tuple[int, str]] = []
    for pl in lines:
        text = pl.text.rstrip()
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip())
        stripped = text.strip()
        if out and indent <= base and not _SECTION_START.match(stripped) and not _PART.match(stripped):
            k, prev = out[-1]
            if prev.endswith("-") and not _KEEP_HYPHEN.search(prev) and stripped[:1].isalpha():
                out[-1] = (k, prev[:-1] + stripped)
            elif prev.endswith("-"):
                out[-1] = (k, prev + stripped)
            else:
                out[-1] = (k, prev + " " + stripped)
        else:
            out.append((pl.line, stripped))
    return out


def parse_act(src: SourceDocument, entry: Entry, diags: Diagnostics) -> Act:
    raw = src.text
    raw_lines = raw.replace("\r\n", "\n").split("\n")
    printed, removed = billprint.clean(raw)

    def report(severity: Severity, line: int, message: str, hint: str = "") -> None:
        diags.add(Diagnostic(severity, message, src.path, line, 1, raw_lines[line - 1] if 0 < line <= len(raw_lines) else "",
                             "act", hint))

    def err(line: int, message: str, hint: str = "") -> None:
        report(Severity.ERROR, line, message, hint)

    joined = [(pl.line, pl.text) for pl in printed]
    enact = next((k for k, (_, t) in enumerate(joined)
                  if _ENACT.search(t) or k + 1 < len(joined) and _ENACT.search(t.rstrip("-") + joined[k + 1][1].strip())), None)
    if enact is None:
        err(1, "not an act: no enacting clause (\"… DO ENACT AS FOLLOWS:\")",
            "an act of the legislature as printed, with its header, title and enacting clause")
        return Act(src.path, entry, "", [], None, "", raw, removed=removed)
    if not _ENACT.search(joined[enact][1]):
        enact += 1  # "… ASSEM-" / "BLY, DO ENACT AS FOLLOWS:"
    head_text = " ".join(t.strip() for _, t in joined[:enact])
    m_title = re.search(r"\bAN\s+ACT\s+(.+?)(?:THE\s+PEOPLE\s+OF|$)", head_text, re.S)
    title = " ".join(m_title.group(1).split()) if m_title else ""
    body = printed[enact + 1 :]
    indents = [len(pl.text) - len(pl.text.lstrip()) for pl in body if pl.text.strip()]
    base = min(indents) if indents else 0
    paragraphs = unwrap(body, base)
    sections: list[tuple[str, int, int, list[tuple[int, str]]]] = []  # (part, number, line, paragraphs)
    part = ""
    for n, text in paragraphs:
        pm = _PART.match(text)
        if pm:
            part = pm.group(1)
            continue
        m = _SECTION_START.match(text)
        # an act's sections go 1, 2, 3 (in each part); "§ 1199. Driver responsibility …" inside the new
        # text of a section is the law it adds, not a section of the act
        expected = sections[-1][1] + 1 if sections and sections[-1][0] == part else 1
        if m and int(m.group(1)) == expected:
            sections.append((part, int(m.group(1)), n, [(n, text[m.end():])]))
        elif sections:
            sections[-1][3].append((n, text))
    act = Act(src.path, entry, title, [], None, "", raw, removed=removed)
    dated = False
    for part_, number, line, paras in sections:
        head = paras[0][1]
        if E.is_effective_clause(head):
            clause = " ".join([head] + [t for _, t in paras[1:]])
            if part_ and dated:
                continue  # a later part's effective-date section: its instructions are other laws' (reported)
            act.dates = E.read(clause, entry.became_law, lambda msg: err(line, f"§ {number} of the act: {msg}"))
            act.effective, act.effective_phrase, dated = act.dates.date, act.dates.phrase, True
            for p in act.dates.unread:
                report(Severity.INFO, line, f"§ {number} of the act: a proviso navlaw does not read, as it dates "
                       f"nothing: {p[:160]!r}")
            if act.dates.expires:
                report(Severity.WARNING, line, f"the act expires on {act.dates.expires} ({act.dates.expires_phrase}); "
                       "navlaw applies it from its effective date and does not revert it after that")
            continue
        _instructions(act, part_, number, line, head, paras, err, report)
    if not dated:
        err(len(raw_lines), "the act has no effective-date section (\"This act shall take effect …\")")
    return act


def _instructions(act: Act, part: str, number: int, line: int, head: str, paras: list[tuple[int, str]],
                  err, report) -> None:  # type: ignore[no-untyped-def]
    folded = " ".join(head.split())
    m = (re.match(r"(.+?to\s+read\s+as\s+follows\s*:)\s*(.*)$", folded, re.S | re.I)
         or re.match(r"(.+?(?:\bREPEALED\b\.?|\brenumbered\b[^.]*\.))\s*(.*)$", folded, re.S | re.I))
    sentence, rest = (m.group(1), m.group(2)) if m else (folded, "")
    body_paras = ([rest] if rest else []) + [t for _, t in paras[1:]]
    try:
        tree = _instruction_parser().parse(sentence)
    except LarkError:
        chapter = re.search(r"\bof\s+(chapter\s+\d+\s+of\s+the\s+laws\s+of\s+\d{4})", sentence, re.I)
        if chapter:  # an unconsolidated law ("section 168 of chapter 639 of the laws of 1996"): not this corpus's
            act.reported.append(Reported(number, line, " ".join(chapter.group(1).lower().split()), sentence[:200]))
            return
        law = re.search(r"\bof\s+the\s+((?:[a-z-]+\s+){0,6}?law)\b", sentence, re.I)
        if law and " ".join(law.group(1).lower().split()) != CORPUS_LAW:
            act.reported.append(Reported(number, line, " ".join(law.group(1).lower().split()), sentence[:200]))
            return
        if law is None and not re.search(r"\b(amended|repealed|renumbered|added)\b", sentence, re.I):
            act.reported.append(Reported(number, line, "", sentence[:200]))  # findings, a short title: no instruction
            return
        err(line, f"§ {number} of the act: not an instruction navlaw reads: {sentence[:160]!r}",
            "known: \"… is/are amended to read as follows:\", \"… is amended by adding a new subdivision N to read "
            "as follows:\", \"… is amended and a new … is added …\", \"… is/are REPEALED.\", \"… is renumbered …\"")
        return
    law = " ".join(str(next(tree.scan_values(lambda v: isinstance(v, Token) and v.type == "LAW"))).lower().split())
    law = re.sub(r"^the\s+", "", law)
    pred: Tree = tree.children[-1]  # type: ignore[assignment]
    subject = tree.children[0] if tree.data == "provisions" else None
    refs = _refs(subject) if isinstance(subject, Tree) else []
    try:
        prefix = _chain(refs, sentence) if refs else []
    except ValueError as e:
        err(line, f"§ {number} of the act: {e}")
        return
    targets = ["/".join(prefix + [label]) for label in refs[0][1]] if refs else []
    new_level = str(next((c for c in pred.children if isinstance(c, Token) and c.type == "LEVEL"), "")).lower()
    new_labels = [_label(new_level, str(t)) for c in pred.children if isinstance(c, Tree) for t in c.children
                  if isinstance(t, Token) and t.type == "LABEL"]
    if law != CORPUS_LAW:
        act.reported.append(Reported(number, line, law, sentence[:200], tuple(targets)))
        return
    kind = pred.data
    bodies = body_paras

    def add(action: str, target: str, text: str, renamed: str = "") -> None:
        act.instructions.append(Instruction(number, action, target, text, line, sentence, renamed, part))

    if kind == "amend":
        for target, text in _split_bodies(targets, refs[0][0], bodies, number, line, err):
            add("amend", target, text)
    elif kind == "add":
        parent = "/".join(prefix + refs[0][1][:1]) if refs else ""
        new_ids = [f"{parent}/{l}" if parent else l for l in new_labels]
        if not refs and new_level.startswith("article"):
            for sec, text in _sections_of(bodies):
                add("add", sec, text)
            return
        for target, text in _split_bodies(new_ids, new_level, bodies, number, line, err):
            add("add", target, text)
    elif kind in ("amend_add", "repeal_add", "renumber_add"):
        parent = "/".join(prefix)
        new_ids = [f"{parent}/{l}" if parent else l for l in new_labels]
        if kind == "amend_add":
            pairs = _split_bodies(targets + new_ids, refs[0][0], bodies, number, line, err)
            for target, text in pairs:
                add("amend" if target in targets else "add", target, text)
        elif kind == "repeal_add":
            for target in targets:
                if target not in new_ids:
                    add("repeal", target, "")
            added = _sections_of(bodies) if new_level.startswith("article") else \
                _split_bodies(new_ids, new_level, bodies, number, line, err)
            for target, text in added:
                add("replace" if target in targets else "add", target, text)
        else:
            renamed_to = [f"{parent}/{l}" if parent else l for l in new_labels]
            for target, new in zip(targets, renamed_to):
                add("renumber", target, "", new)
            for target, text in _split_bodies(renamed_to[len(targets):] or new_ids[-1:], new_level, bodies, number, line, err):
                add("replace", target, text)
    elif kind == "repeal":
        for target in targets:
            add("repeal", target, "")
    elif kind == "renumber":
        parent = "/".join(prefix)
        for target, label in zip(targets, new_labels):
            add("renumber", target, "", f"{parent}/{label}" if parent else label)


def _label_forms(level: str, label: str) -> tuple[str, ...]:
    if level.startswith(("section",)):
        return (f"§ {label}.", f"§{label}.", f"Section {label}.", f"S {label}.")
    return (f"{label}.", f"({label})", f"{label.upper()}.", f"({label.upper()})")


def _split_bodies(targets: list[str], level: str, paras: list[str], number: int, line: int, err
                  ) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The new text of each target: for several ("Subitems (iii), (iv), (v) and (vi) …"), the text from
    each one's label to the next's."""
    if len(targets) <= 1:
        return [(targets[0], "\n".join(paras))] if targets else []
    starts = []
    k = 0
    for t in targets:
        label = t.rsplit("/", 1)[-1]
        forms = tuple(f.lower() for f in _label_forms(level, label))
        while k < len(paras) and not paras[k].lower().startswith(forms):
            k += 1
        if k == len(paras):
            err(line, f"§ {number} of the act names {t}, but its new text has no paragraph starting with its label")
            return []
        starts.append(k)
        k += 1
    out = []
    for i, t in enumerate(targets):
        end = starts[i + 1] if i + 1 < len(starts) else len(paras)
        out.append((t, "\n".join(paras[starts[i]:end])))
    return out


def _sections_of(paras: list[str]) -> list[tuple[str, str]]:
    """The sections in an added article's text ("ARTICLE 4-B", its contents "SECTION 79-D. …", then
    "§ 79-D. …" and its text, …): each section's text from its "§" heading to the next."""
    out: list[tuple[str, list[str]]] = []
    for p in paras:
        m = re.match(r"(?:§|S)\s*(\d+(?:-[A-Za-z]+)*)\.\s", p)
        if m:
            out.append((m.group(1).lower(), [p]))
        elif out:
            out[-1][1].append(p)
    return [(s, "\n".join(ps)) for s, ps in out]
