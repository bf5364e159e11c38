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
from typing import Any
from lark.exceptions import LarkError

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend import billprint, effective as E
from navlaw.frontend.instructions import INSTRUCTS, SENTENCE, Target, citation_id, read_instruction  # noqa: F401
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.manifest import Entry

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
    portion: str = ""  # the part of the target it amends: "opening paragraph", "closing paragraph", "heading"


@dataclass(frozen=True)
class Reported:
    """An instruction for another law (or a section of the act that instructs nothing): said, not applied."""

    number: int
    line: int
    law: str
    sentence: str
    targets: tuple[str, ...] = ()
    read: bool = True  # the instruction grammar read it (law and targets)


@dataclass(frozen=True)
class ActSection:
    """A section of the act as read: what navlaw took it for (benchmarks/acts.py counts these)."""

    part: str
    number: int
    line: int
    sentence: str  # its first sentence (an instruction's, up to "to read as follows:")
    kind: str  # "instruction" (this corpus's law) | "reported" (another law's) | "nothing" (amends nothing)
    #            | "effective" | "unread" (an error said why)


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
    sections: list[ActSection] = field(default_factory=list)  # every section of the act, as read
    part_dates: dict[str, E.Effective] = field(default_factory=dict)  # a Part's own effective-date section
    rejected: bool = False  # an instruction of it is refused: none of it is applied
    made: dict[tuple[int, str], tuple[str, str]] = field(default_factory=dict)  # (§, target) -> (old, new) text in law case, when applied

    def effective_of(self, ins: Instruction) -> tuple[dt.date | None, str]:
        """An instruction's date: its Part's own effective-date section (a subpart's, else its Part's), else a
        proviso of the act's dating its Part, else the act's."""
        if ins.part:
            for key in (ins.part, ins.part.split(",")[0]):
                if key in self.part_dates:
                    dates = self.part_dates[key]
                    return dates.of(ins.number) if key == ins.part else (dates.date, dates.phrase)
            if ins.part.split(",")[0] in self.dates.parts:
                return self.dates.parts[ins.part.split(",")[0]]
            return self.dates.date, self.dates.phrase
        return self.dates.of(ins.number)


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


def _part_said(part: str) -> str:
    return f"Part {part} of " if part else ""


_SUBPART = re.compile(r"^SUBPART\s+([A-Z]{1,3}(?:-\d)?)\.?\s*$")
_WHOLE_SECTION = re.compile(r"^(?:Section|§)\s+(?P<label>\d+(?:[.-][A-Za-z0-9]+)*)\s+of\b(?!.*\b(?:sections|and\s+section)\b).*"
                            r"to\s+read\s+as\s+follows\s*:\s*$", re.I | re.S)


def _quoted(text: str) -> bool:
    """New matter (a section the act adds, in CAPITALS) rather than a section of the act."""
    letters = [c for c in text[:80] if c.isalpha()]
    return len(letters) >= 8 and sum(c.isupper() for c in letters) > 0.9 * len(letters)


def _structure(paragraphs: list[tuple[int, str]]) -> list[tuple[str, int, int, list[tuple[int, str]]]]:
    """The act's sections: (part, number, line, paragraphs). Sections go 1, 2, 3 in the act, in each Part
    ("PART B" followed by its "Section 1.") and in each Subpart; after the last Part the act's own
    sections go on from its number before the first ("§ 2. Severability …", "§ 3. This act shall take
    effect …"). What is not a section of the act is text of the one before: a "PART II" heading not
    followed by a section 1, the quoted "§ 5." that begins the new text of "Section 5 of … is amended to
    read as follows:", a "§ 2." of new matter (CAPITALS), a "§ 1199." of the law a section adds."""
    sections: list[tuple[str, int, int, list[tuple[int, str]]]] = []
    stack: list[list[Any]] = [["", 0, False]]  # [label, last section number, closed (its effective-date section seen)]

    def starts_one(k: int) -> bool:
        nxt = paragraphs[k + 1][1] if k + 1 < len(paragraphs) else ""
        m = _SECTION_START.match(nxt)
        return m is not None and int(m.group(1)) == 1

    for k, (n, text) in enumerate(paragraphs):
        pm, sm = _PART.match(text), _SUBPART.match(text)
        if (pm or sm) and starts_one(k) and (pm or len(stack) >= 2):
            del stack[1 if pm else 2:]
            stack.append([(pm or sm).group(1), 0, False])  # type: ignore[union-attr]
            continue
        m = _SECTION_START.match(text)
        level = None
        if m and not _quoted(text[m.end():]):
            number = int(m.group(1))
            prev = sections[-1] if sections else None
            quote = prev is not None and len(prev[3]) == 1 and _WHOLE_SECTION.match(prev[3][0][1].strip())
            if quote and quote.group("label").lower() == m.group(1):
                level = None  # the quoted section the instruction before it amends
            elif number == stack[-1][1] + 1 and not stack[-1][2]:
                level = len(stack) - 1
            else:
                for j in range(len(stack) - 2, -1, -1):
                    if number == stack[j][1] + 1 and (stack[-1][2] or number <= stack[-1][1]):
                        level = j
                        break
        if level is None:
            if sections:
                sections[-1][3].append((n, text))
            continue
        del stack[level + 1:]
        stack[level][1] = int(m.group(1))  # type: ignore[union-attr]
        body = text[m.end():]  # type: ignore[union-attr]
        if E.is_effective_clause(body):
            stack[level][2] = True
        label = stack[1][0] + (f", subpart {stack[2][0]}" if len(stack) > 2 else "") if len(stack) > 1 else ""
        sections.append((label, int(m.group(1)), n, [(n, body)]))  # type: ignore[union-attr]
    return sections


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
    sections = _structure(paragraphs)
    act = Act(src.path, entry, title, [], None, "", raw, removed=removed)
    for part_, number, line, paras in sections:
        head = paras[0][1]
        if E.is_effective_clause(head):
            clause = " ".join([head] + [t for _, t in paras[1:]])
            where = f"§ {number} of {_part_said(part_)}the act"
            dates = E.read(clause, entry.became_law, lambda msg: err(line, f"{where}: {msg}"), given=entry.effective)
            if part_ in act.part_dates or (not part_ and act.sections and any(s.kind == "effective" and not s.part for s in act.sections)):
                err(line, f"{where}: a second effective-date section in {_part_said(part_) or 'the act'}: navlaw cannot tell which one dates it")
            if part_:
                act.part_dates[part_] = dates
            else:
                act.dates = dates
            for p in dates.unread:
                report(Severity.INFO, line, f"{where}: a proviso navlaw does not read, as it dates nothing: {p[:160]!r}")
            if dates.expires:
                report(Severity.WARNING, line, f"{_part_said(part_) or 'the act'} expires on {dates.expires} "
                       f"({dates.expires_phrase}); navlaw applies it from its effective date and does not revert it after that")
            for n, (d, ph) in sorted(dates.section_expires.items()):
                report(Severity.WARNING, line, f"{where}: § {n} of {_part_said(part_)}the act expires on {d} ({ph}); navlaw "
                       "applies it from its effective date and does not revert it after that")
            for n, (d, ph) in sorted(dates.sections.items()):
                if d is None and ph:
                    report(Severity.WARNING, line, f"{where}: § {n} of {_part_said(part_)}the act takes effect on a day "
                           f"another law sets ({ph[:160]!r}): navlaw does not apply it")
            if dates.date and entry.became_law and dates.date < entry.became_law and not dates.retroactive:
                report(Severity.WARNING, line, f"{where}: takes effect on {dates.date} ({dates.phrase}), before it became law "
                       f"({entry.became_law}): navlaw applies it from {dates.date}, as the act says")
            if dates.retroactive:
                report(Severity.INFO, line, f"{where}: deemed in full force and effect on and after {dates.retroactive}: "
                       "its amendments apply from that date")
            act.sections.append(ActSection(part_, number, line, " ".join(head.split())[:3000], "effective"))
            continue
        before = (len(act.instructions), len(act.reported), len(diags.errors))
        said = (lambda at, msg, hint="", n=number, p=part_: err(at, msg.replace(f"§ {n} of the act", f"§ {n} of {_part_said(p)}the act", 1), hint))
        _instructions(act, part_, number, line, head, paras, said, report)
        after = (len(act.instructions), len(act.reported), len(diags.errors))
        kind = ("unread" if after[2] > before[2] else "instruction" if after[0] > before[0]
                else ("reported" if act.reported[-1].law else "nothing") if after[1] > before[1] else "nothing")
        act.sections.append(ActSection(part_, number, line, " ".join(head.split())[:3000], kind))
    dated = any(s.kind == "effective" for s in act.sections)
    if act.part_dates and not any(s.kind == "effective" and not s.part for s in act.sections):
        act.dates = E.Effective()  # no clause of the whole act: each Part's own dates it
    act.effective, act.effective_phrase = act.dates.date, act.dates.phrase
    if entry.effective is not None and dated and entry.effective not in _dates_read(act):
        first = next(s for s in act.sections if s.kind == "effective")
        err(first.line, f"the manifest gives effective = {entry.effective} for this act, but the act's own clause dates it "
            f"{act.effective or 'otherwise'}" + (f" ({act.effective_phrase})" if act.effective_phrase else "")
            + ": navlaw does not choose between them",
            "the manifest's `effective` is for a date another chapter or an event decides; take it out, or correct "
            "became_law if that is what is wrong")
    for part_ in sorted({s.part for s in act.sections if s.part and s.kind != "effective"} - set(act.part_dates)):
        if not any(s.kind == "effective" and not s.part for s in act.sections) and part_.split(",")[0] not in act.part_dates:
            first = next(s for s in act.sections if s.part == part_)
            err(first.line, f"{_part_said(part_)}the act has no effective-date section, nor has the act",
                "a Part's last section says when it takes effect (\"This act shall take effect …\")")
    if not dated:
        err(len(raw_lines), "the act has no effective-date section (\"This act shall take effect …\")")
    return act


def _dates_read(act: Act) -> set[dt.date]:
    """Every date the act's effective-date clauses name (the act's, its Parts', its sections', expiries)."""
    out: set[dt.date] = set()
    for e in [act.dates, *act.part_dates.values()]:
        out |= {d for d in (e.date, e.expires, e.retroactive) if d is not None}
        out |= {d for table in (e.sections, e.parts, e.section_expires) for d, _ in table.values() if d is not None}
    return out


def _instructions(act: Act, part: str, number: int, line: int, head: str, paras: list[tuple[int, str]],  # type: ignore[no-untyped-def]
                  err, report) -> None:
    folded = " ".join(head.split())
    m = SENTENCE.match(folded)
    sentence, rest = ((m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4) or "")) if m else (folded, "")
    body_paras = ([rest] if rest else []) + [t for _, t in paras[1:]]
    if not INSTRUCTS.search(sentence):
        # findings, a short title, "Notwithstanding any other provision of law …", a study, a fund:
        # a section of the act that amends no law
        act.reported.append(Reported(number, line, "", sentence[:200]))
        return
    try:
        law, kind, targets, news = read_instruction(sentence)
    except (LarkError, ValueError) as e:
        why = str(e) if isinstance(e, ValueError) else ""
        err(line, f"§ {number} of the act: not an instruction navlaw reads{': ' + why if why else ''}: {sentence[:200]!r}",
            "known: \"… is/are amended to read as follows:\", \"… is amended by adding a new subdivision N to read "
            "as follows:\", \"… is amended and a new … is added …\", \"… is/are REPEALED.\", \"… is renumbered …\"; "
            "targets \"paragraph (b) of subdivision 4 of section 12\", \"the opening paragraph of …\"; the law's name "
            "(\"of the navigation law\", \"of chapter 57 of the laws of 2008\")")
        return
    if law != CORPUS_LAW:
        act.reported.append(Reported(number, line, law, sentence[:200], tuple(t.said() for t in targets or news)))
        return
    bodies = body_paras
    # adding an article, or a title to an article, adds the sections in its text
    adds_sections = kind in ("add", "repeal_add") and bool(news) and all(n.above_sections for n in news)
    whole = [t.said() for t in targets + news if t.above_sections and not t.portion
             and not (adds_sections and (t in news or kind == "add"))]
    if whole:
        err(line, f"§ {number} of the act: {kind.replace('_', ' and ')} {', '.join(whole)} of the {law} as a whole: navlaw "
            "reads the instruction but applies instructions to sections and their provisions only",
            "apply it by hand: put the sections' texts as amended into the corpus with their effective date")
        return

    def add(action: str, target: Target, text: str, renamed: str = "") -> None:
        act.instructions.append(Instruction(number, action, target.id, text, line, sentence, renamed, part, target.portion))

    if kind == "items":
        err(line, f"§ {number} of the act amends appropriation items of {', '.join(t.said() for t in targets)}: navlaw "
            "does not apply an amendment by items")
    elif kind == "amend":
        for target, text in _split_bodies(targets, bodies, number, line, err):
            add("amend", target, text)
    elif kind == "add":
        if adds_sections:
            sections = _sections_of(bodies)
            if not sections:
                err(line, f"§ {number} of the act adds {news[0].said()}, but navlaw finds no section (\"§ N. …\") in its text")
            for sec, text in sections:
                add("add", Target(sec, "section"), text)
            return
        for target, text in _split_bodies(news, bodies, number, line, err):
            add("add", target, text)
    elif kind == "amend_add":
        for target, text in _split_bodies(targets + news, bodies, number, line, err):
            add("amend" if target in targets else "add", target, text)
    elif kind == "repeal_add":
        for target in targets:
            if target.id not in {n.id for n in news}:
                add("repeal", target, "")
        added = [(Target(s, "section"), t) for s, t in _sections_of(bodies)] if adds_sections \
            else _split_bodies(news, bodies, number, line, err)
        for target, text in added:
            add("replace" if target.id in {t.id for t in targets} else "add", target, text)
    elif kind == "amend_renumber_add":
        renamed, more = news[:2], news[2:]
        add("renumber", renamed[0], "", renamed[1].id)
        for target, text in _split_bodies(targets + more, bodies, number, line, err):
            add("amend" if target in targets else "replace" if target.id == renamed[0].id else "add", target, text)
    elif kind in ("renumber", "renumber_add", "renumber_amend", "designate", "designate_add"):
        renamed_to = news[: len(targets)]
        if len(renamed_to) != len(targets):
            err(line, f"§ {number} of the act renames {len(targets)} provision(s) to {len(renamed_to)}: {sentence[:160]!r}")
            return
        for target, new in zip(targets, renamed_to):
            add("renumber", target, "", new.id)
        if kind == "renumber_amend":
            for target, text in _split_bodies(renamed_to, bodies, number, line, err):
                add("replace", target, text)
        if kind.endswith("_add"):
            for target, text in _split_bodies(news[len(targets):], bodies, number, line, err):
                add("replace" if target.id in {t.id for t in targets} else "add", target, text)
    elif kind == "repeal":
        for target in targets:
            add("repeal", target, "")


def _label_forms(level: str, label: str) -> tuple[str, ...]:
    if level.startswith(("section",)):
        return (f"§ {label}.", f"§{label}.", f"Section {label}.", f"S {label}.", f"§ {label} ", f"§{label} ")
    return (f"{label}.", f"({label})", f"{label.upper()}.", f"({label.upper()})")


def _split_bodies(targets: list[Target], paras: list[str], number: int, line: int, err,  # type: ignore[no-untyped-def]
                  ) -> list[tuple[Target, str]]:
    """The new text of each target: for several ("Subitems (iii), (iv), (v) and (vi) …"), the text from
    each one's label to the next's (an opening paragraph's or a heading's from where the one before it
    ends). A label starts a paragraph, or is run in after a stop ("… complaint; or (ii) their judgment",
    "Safety code. 1. The commissioner")."""
    if len(targets) <= 1:
        return [(targets[0], "\n".join(paras))] if targets else []
    text = "\n".join(paras)
    folded = text.lower()
    starts: list[int] = []
    at = 0
    for t in targets:
        if t.portion:
            starts.append(at)
            at += 1
            continue
        label = t.id.rsplit("/", 1)[-1]
        forms = [f.lower() for f in _label_forms(t.level, label)]
        found = [m.start(1) for f in forms
                 for m in [re.compile(r"(?:^|\n)\s*(" + re.escape(f).replace(r"\ ", r"\s+") + ")").search(folded, at),
                           re.compile(r"[.;:\]]\s*(?:(?:and|or)\s+)?(" + re.escape(f).replace(r"\ ", r"\s+") + r")\s").search(folded, at)]
                 if m is not None]
        if not found:
            err(line, f"§ {number} of the act names {t.id}, but its new text has no paragraph starting with its label")
            return []
        starts.append(min(found))
        at = min(found) + 1
    out = []
    for i, t in enumerate(targets):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((t, text[starts[i]:end].strip()))
    return out


def _sections_of(paras: list[str]) -> list[tuple[str, str]]:
    """The sections in an added article's text ("ARTICLE 4-B", its contents "SECTION 79-D. …", then
    "§ 79-D. …" and its text, …): each section's text from its "§" heading to the next. A heading the
    print runs on from the line before (not indented) starts a section too."""
    text = "\n".join(paras)
    heads = list(re.finditer(r"(?:^|(?<=\s))(?:§|(?<=\n)S)\s*(\d+(?:[.-][A-Za-z0-9]+)*)\.?\s", text))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((m.group(1).lower(), text[m.start():end].rstrip()))
    return out
