"""Amending acts in the New York session-law form, read into instructions.

An act arrives as printed (compiler/frontend/formats/bill.py strips the print's line numbers, page
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
The law it names is looked up in the table of codes (compiler/model/codes.py): an instruction for a
code the corpus holds texts of (its chapter, a title of the NYCRR, another consolidated law) is read
into targets of that code (their ids carry its prefix: "21nycrr/55.2/b"); one for any other law is
*reported*, not applied: one act may amend several laws. In the new text, matter in [brackets] is deleted and matter in CAPITALS is new
(compiler/frontend/newmatter.py); compiler/law/amend.py checks and applies the instructions.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from lark.exceptions import LarkError

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model import codes
from navlaw.frontend import effective as E
from navlaw.frontend.formats import bill as billprint
from navlaw.frontend.bodies import Err, sections_of, split_bodies
from navlaw.model.codes import Code
from navlaw.frontend.instructions import INSTRUCTS, SENTENCE, Target, citation_id, read_instruction  # noqa: F401
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.manifest import Entry


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
    law: str = ""  # the law its sentence names, as read ("navigation law", "21 nycrr")
    code: Code = field(default_factory=Code)  # that law's code in the corpus: how the target is cited


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


@dataclass(frozen=True)
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
    sections: list[ActSection] = field(default_factory=list)  # every section of the act, as read
    part_dates: dict[str, E.Effective] = field(default_factory=dict)  # a Part's own effective-date section
    codes: tuple[Code, ...] = ()  # the codes the act was read against: its instructions for others are reported

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
        heading = pm or sm
        if heading is not None and starts_one(k) and (pm or len(stack) >= 2):
            del stack[1 if pm else 2:]
            stack.append([heading.group(1), 0, False])
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
        if level is None or m is None:
            if sections:
                sections[-1][3].append((n, text))
            continue
        del stack[level + 1:]
        stack[level][1] = int(m.group(1))
        body = text[m.end():]
        if E.is_effective_clause(body):
            stack[level][2] = True
        label = stack[1][0] + (f", subpart {stack[2][0]}" if len(stack) > 2 else "") if len(stack) > 1 else ""
        sections.append((label, int(m.group(1)), n, [(n, body)]))
    return sections


@dataclass
class _Reading:
    """An act being read, section by section (parse_act makes the Act from it once it is read whole)."""

    path: str
    entry: Entry
    codes: tuple[Code, ...]
    diags: Diagnostics
    raw_lines: list[str]
    instructions: list[Instruction] = field(default_factory=list)
    reported: list[Reported] = field(default_factory=list)
    sections: list[ActSection] = field(default_factory=list)
    part_dates: dict[str, E.Effective] = field(default_factory=dict)
    dates: E.Effective = field(default_factory=E.Effective)

    def report(self, severity: Severity, line: int, message: str, hint: str = "") -> None:
        raw = self.raw_lines[line - 1] if 0 < line <= len(self.raw_lines) else ""
        self.diags.add(Diagnostic(severity, message, self.path, line, 1, raw, "act", hint))

    def err(self, line: int, message: str, hint: str = "") -> None:
        self.report(Severity.ERROR, line, message, hint)

    def whole_act_dated(self) -> bool:
        """Whether an effective-date section of the act as a whole (not of one Part) has been read."""
        return any(s.kind == "effective" and not s.part for s in self.sections)


def parse_act(src: SourceDocument, entry: Entry, diags: Diagnostics, held: tuple[Code, ...] | None = None) -> Act:
    """The act in ``src`` read into instructions, with its dates. ``held``: the codes the corpus holds texts of
    (``codes_held``); an instruction for another law is reported. By default the code the act's entry names,
    else none (an act read with no law named amends nothing: each instruction is reported, not guessed at)."""
    raw = src.text
    printed, removed = billprint.clean(raw)
    held = held if held is not None else ((Code(entry.code_prefix, entry.code_cite),) if entry.code_cite
                                          else (codes.NO_LAW,))
    r = _Reading(src.path, entry, held, diags, raw.replace("\r\n", "\n").split("\n"))
    joined = [(pl.line, pl.text) for pl in printed]
    enact = next((k for k, (_, t) in enumerate(joined)
                  if _ENACT.search(t) or k + 1 < len(joined) and _ENACT.search(t.rstrip("-") + joined[k + 1][1].strip())), None)
    if enact is None:
        r.err(1, "not an act: no enacting clause (\"… DO ENACT AS FOLLOWS:\")",
              "an act of the legislature as printed, with its header, title and enacting clause")
        return Act(src.path, entry, "", [], None, "", raw, removed=removed, codes=held)
    if not _ENACT.search(joined[enact][1]):
        enact += 1  # "… ASSEM-" / "BLY, DO ENACT AS FOLLOWS:"
    head_text = " ".join(t.strip() for _, t in joined[:enact])
    m_title = re.search(r"\bAN\s+ACT\s+(.+?)(?:THE\s+PEOPLE\s+OF|$)", head_text, re.S)
    title = " ".join(m_title.group(1).split()) if m_title else ""
    body = printed[enact + 1 :]
    indents = [len(pl.text) - len(pl.text.lstrip()) for pl in body if pl.text.strip()]
    for part_, number, line, paras in _structure(unwrap(body, min(indents) if indents else 0)):
        head = paras[0][1]
        if E.is_effective_clause(head):
            _effective_section(r, part_, number, line, head, paras)
            continue
        before = (len(r.instructions), len(r.reported), len(diags.errors))
        said = (lambda at, msg, hint="", n=number, p=part_: r.err(at, msg.replace(f"§ {n} of the act", f"§ {n} of {_part_said(p)}the act", 1), hint))
        _instructions(r, part_, number, line, head, paras, said)
        after = (len(r.instructions), len(r.reported), len(diags.errors))
        kind = ("unread" if after[2] > before[2] else "instruction" if after[0] > before[0]
                else ("reported" if r.reported[-1].law else "nothing") if after[1] > before[1] else "nothing")
        r.sections.append(ActSection(part_, number, line, " ".join(head.split())[:3000], kind))
    if r.part_dates and not r.whole_act_dated():
        r.dates = E.Effective()  # no clause of the whole act: each Part's own dates it
    act = Act(src.path, entry, title, r.instructions, r.dates.date, r.dates.phrase, raw, r.reported, r.dates, removed,
              r.sections, r.part_dates, held)
    _check_dated(r, act)
    return act


def _effective_section(r: _Reading, part_: str, number: int, line: int, head: str, paras: list[tuple[int, str]]) -> None:
    """An effective-date section of the act (or of one of its Parts): its dates, and what navlaw says of them."""
    clause = " ".join([head] + [t for _, t in paras[1:]])
    where = f"§ {number} of {_part_said(part_)}the act"
    entry = r.entry
    dates = E.read(clause, entry.became_law, lambda msg: r.err(line, f"{where}: {msg}"), given=entry.effective)
    if part_ in r.part_dates or (not part_ and r.sections and r.whole_act_dated()):
        r.err(line, f"{where}: a second effective-date section in {_part_said(part_) or 'the act'}: navlaw cannot tell which one dates it")
    if part_:
        r.part_dates[part_] = dates
    else:
        r.dates = dates
    for p in dates.unread:
        r.report(Severity.INFO, line, f"{where}: a proviso navlaw does not read, as it dates nothing: {p[:160]!r}")
    if dates.expires:
        r.report(Severity.WARNING, line, f"{_part_said(part_) or 'the act'} expires on {dates.expires} "
                 f"({dates.expires_phrase}); navlaw applies it from its effective date and does not revert it after that")
    for n, (d, ph) in sorted(dates.section_expires.items()):
        r.report(Severity.WARNING, line, f"{where}: § {n} of {_part_said(part_)}the act expires on {d} ({ph}); navlaw "
                 "applies it from its effective date and does not revert it after that")
    for n, (d, ph) in sorted(dates.sections.items()):
        if d is None and ph:
            r.report(Severity.WARNING, line, f"{where}: § {n} of {_part_said(part_)}the act takes effect on a day "
                     f"another law sets ({ph[:160]!r}): navlaw does not apply it")
    if dates.date and entry.became_law and dates.date < entry.became_law and not dates.retroactive:
        r.report(Severity.WARNING, line, f"{where}: takes effect on {dates.date} ({dates.phrase}), before it became law "
                 f"({entry.became_law}): navlaw applies it from {dates.date}, as the act says")
    if dates.retroactive:
        r.report(Severity.INFO, line, f"{where}: deemed in full force and effect on and after {dates.retroactive}: "
                 "its amendments apply from that date")
    r.sections.append(ActSection(part_, number, line, " ".join(head.split())[:3000], "effective"))


def _check_dated(r: _Reading, act: Act) -> None:
    """What is wrong with the act's dates as a whole: the manifest's date against the act's own, a Part that no
    effective-date section dates, an act without one."""
    dated = any(s.kind == "effective" for s in act.sections)
    entry = act.entry
    if entry.effective is not None and dated and entry.effective not in _dates_read(act):
        first = next(s for s in act.sections if s.kind == "effective")
        r.err(first.line, f"the manifest gives effective = {entry.effective} for this act, but the act's own clause "
              f"dates it {act.effective or 'otherwise'}" + (f" ({act.effective_phrase})" if act.effective_phrase else "")
              + ": navlaw does not choose between them",
              "the manifest's `effective` is for a date another chapter or an event decides; take it out, or correct "
              "became_law if that is what is wrong")
    for part_ in sorted({s.part for s in act.sections if s.part and s.kind != "effective"} - set(act.part_dates)):
        if not r.whole_act_dated() and part_.split(",")[0] not in act.part_dates:
            first = next(s for s in act.sections if s.part == part_)
            r.err(first.line, f"{_part_said(part_)}the act has no effective-date section, nor has the act",
                  "a Part's last section says when it takes effect (\"This act shall take effect …\")")
    if not dated:
        r.err(len(r.raw_lines), "the act has no effective-date section (\"This act shall take effect …\")")


def codes_held(entries: list[Entry], documents: list[Any]) -> tuple[Code, ...]:
    """The codes the corpus holds texts of, that acts may amend: each the manifest names for a text, else each
    the texts compiled so far are cited by (``documents``: frontend.corpus.Compiled)."""
    out = [Code(e.code_prefix, e.code_cite) for e in entries if e.kind != "act" and e.code_cite]
    for c in documents:
        for sec in c.document.sections()[:1]:
            cite, sep, _ = sec.citation.partition("§")
            if sep and cite.strip():
                out.append(Code(sec.id.split("/")[0] if "/" in sec.id else "", cite.strip()))
    return tuple(dict.fromkeys(out))


def _code_named(law: str, held: tuple[Code, ...]) -> Code | None:
    """The code of the corpus an instruction's law is, through the table of codes (None: not the corpus's)."""
    named = codes.code_for(law)
    if named is None:
        return None
    return next((c for c in held if c.cite.lower() == named.cite.lower()), None)


def _dates_read(act: Act) -> set[dt.date]:
    """Every date the act's effective-date clauses name (the act's, its Parts', its sections', expiries)."""
    out: set[dt.date] = set()
    for e in [act.dates, *act.part_dates.values()]:
        out |= {d for d in (e.date, e.expires, e.retroactive) if d is not None}
        out |= {d for table in (e.sections, e.parts, e.section_expires) for d, _ in table.values() if d is not None}
    return out


def _instructions(r: _Reading, part: str, number: int, line: int, head: str, paras: list[tuple[int, str]], err: Err
                  ) -> None:
    """A section of the act that is not its effective-date section: its instructions for a code of the corpus,
    or reported (another law's, or instructing nothing), or an error saying what navlaw cannot read."""
    folded = " ".join(head.split())
    m = SENTENCE.match(folded)
    sentence, rest = ((m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4) or "")) if m else (folded, "")
    body_paras = ([rest] if rest else []) + [t for _, t in paras[1:]]
    if not INSTRUCTS.search(sentence):
        # findings, a short title, "Notwithstanding any other provision of law …", a study, a fund:
        # a section of the act that amends no law
        r.reported.append(Reported(number, line, "", sentence[:200]))
        return
    try:
        law, kind, targets, news = read_instruction(sentence)
    except (LarkError, ValueError) as e:
        why = str(e) if isinstance(e, ValueError) else ""
        err(line, f"§ {number} of the act: not an instruction navlaw reads{': ' + why if why else ''}: {sentence[:200]!r}",
            "known: \"… is/are amended to read as follows:\", \"… is amended by adding a new subdivision N to read "
            "as follows:\", \"… is amended and a new … is added …\", \"… is/are REPEALED.\", \"… is renumbered …\"; "
            "targets \"paragraph (b) of subdivision 4 of section 12\", \"the opening paragraph of …\"; the law's name "
            "(\"of the ... law\", \"of chapter 57 of the laws of 2008\")")
        return
    code = _code_named(law, r.codes)
    if code is None:
        r.reported.append(Reported(number, line, law, sentence[:200], tuple(t.said() for t in targets or news)))
        return
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
        r.instructions.append(Instruction(number, action, _in(code, target.id), text, line, sentence,
                                          _in(code, renamed) if renamed else "", part, target.portion, law, code))

    _read_targets(kind, targets, news, body_paras, adds_sections, add, (number, line, sentence), err)


def _in(code: Code, node_id: str) -> str:
    """A provision id of ``code``: its prefix first ("21nycrr/55.2/b"); the corpus's own chapter has none."""
    return f"{code.prefix}/{node_id}" if code.prefix else node_id


def _read_targets(kind: str, targets: list[Target], news: list[Target], bodies: list[str], adds_sections: bool,
                  add: Callable[..., None], where: tuple[int, int, str], err: Err) -> None:
    """The instructions of one sentence of the kind ``kind``, each given to ``add`` (action, target, text,
    renamed) with its new text."""
    number, line, sentence = where
    if kind == "items":
        err(line, f"§ {number} of the act amends appropriation items of {', '.join(t.said() for t in targets)}: navlaw "
            "does not apply an amendment by items")
    elif kind == "amend":
        for target, text in split_bodies(targets, bodies, number, line, err):
            add("amend", target, text)
    elif kind == "add":
        if adds_sections:
            sections = sections_of(bodies)
            if not sections:
                err(line, f"§ {number} of the act adds {news[0].said()}, but navlaw finds no section (\"§ N. …\") in its text")
            for sec, text in sections:
                add("add", Target(sec, "section"), text)
            return
        for target, text in split_bodies(news, bodies, number, line, err):
            add("add", target, text)
    elif kind == "amend_add":
        for target, text in split_bodies(targets + news, bodies, number, line, err):
            add("amend" if target in targets else "add", target, text)
    elif kind == "repeal_add":
        for target in targets:
            if target.id not in {n.id for n in news}:
                add("repeal", target, "")
        added = [(Target(s, "section"), t) for s, t in sections_of(bodies)] if adds_sections \
            else split_bodies(news, bodies, number, line, err)
        for target, text in added:
            add("replace" if target.id in {t.id for t in targets} else "add", target, text)
    elif kind == "amend_renumber_add":
        renamed, more = news[:2], news[2:]
        add("renumber", renamed[0], "", renamed[1].id)
        for target, text in split_bodies(targets + more, bodies, number, line, err):
            add("amend" if target in targets else "replace" if target.id == renamed[0].id else "add", target, text)
    elif kind in ("renumber", "renumber_add", "renumber_amend", "designate", "designate_add"):
        renamed_to = news[: len(targets)]
        if len(renamed_to) != len(targets):
            err(line, f"§ {number} of the act renames {len(targets)} provision(s) to {len(renamed_to)}: {sentence[:160]!r}")
            return
        for target, new in zip(targets, renamed_to):
            add("renumber", target, "", new.id)
        if kind == "renumber_amend":
            for target, text in split_bodies(renamed_to, bodies, number, line, err):
                add("replace", target, text)
        if kind.endswith("_add"):
            for target, text in split_bodies(news[len(targets):], bodies, number, line, err):
                add("replace" if target.id in {t.id for t in targets} else "add", target, text)
    elif kind == "repeal":
        for target in targets:
            add("repeal", target, "")
