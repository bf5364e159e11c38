"""Amending acts applied to the law: each instruction checked like a patch against the provision as
in force the day before it takes effect, then its new text added to the timeline from its effective
date (the act's text itself is read by compiler/frontend/acts.py). What each act did — applied,
reported (other laws), refused — is an :class:`ActOutcome` of its own, for the build's review and the
change report; the act as read is not changed. An instruction amends whatever code it names: its target
carries that code's id prefix, and the new text is cited as the text in force of that code is."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend.acts import Act, Instruction, parse_act
from navlaw.frontend.corpus import Compiled, Corpus
from navlaw.frontend.load import SourceDocument
from navlaw.frontend.newmatter import TOKEN, CaseBook, new_text, old_text, old_tokens, old_words
from navlaw.frontend.normalize import normalize
from navlaw.model.codes import Code
from navlaw.model.nodes import Node, Table, citation, other_code, section_name, section_of
from navlaw.frontend.tree import build
from navlaw.law.timeline import Composed, TextVersion, Timeline


def words_of(node: Node) -> list[str]:
    """The words of a provision as the law reads, its tables' cells included."""
    return [w for w, _, _ in law_tokens(node)]


def law_tokens(node: Node) -> list[tuple[str, str, bool]]:
    """(word, the id of the provision it is in, whether it is part of that provision's label)."""
    out: list[tuple[str, str, bool]] = []
    for n in node.walk():
        if isinstance(n, Table):
            for row in ([n.header] if n.header else []) + list(n.rows):
                for cell in row.cells:
                    out.extend((w, n.id or node.id, False) for w in TOKEN.findall(cell.text))
            continue
        if n.kind == "provision":
            out.extend((w, n.id, True) for w in TOKEN.findall(n.label))
        own = " ".join(x for x in (n.heading, n.text) if x)
        out.extend((w, n.id or node.id, False) for w in TOKEN.findall(own))
    return out


def compare(want: list[tuple[str, bool]], have: list[tuple[str, str, bool]], section_level: bool
            ) -> tuple[int, int, list[str]]:
    """The act's old text against the law, provision by provision: (index in ``want``, index in ``have``)
    of the first difference ((-1, -1) when none), and the labels the act prints that the law does not.
    A section's own number ("§ 50.") is its label, not its text; a label in figures that the law does not
    print there is new matter (a number cannot be printed in capitals: "§ 175. … discharge. 1. Any person"
    numbers the text the law printed without a label)."""
    i = j = 0
    new_labels: list[str] = []
    while i < len(want) or j < len(have):
        w = want[i] if i < len(want) else None
        h = have[j] if j < len(have) else None
        if w is not None and h is not None and w[0] == h[0]:
            i, j = i + 1, j + 1
            continue
        if w is not None and w[1] and (section_level and i < 4 and not any(x[1] is False for x in want[:i])):
            i += 1  # the number of the section's heading
            continue
        if w is not None and w[1] and w[0].isdigit() and not (h is not None and h[2]):
            new_labels.append(w[0])
            i += 1
            continue
        return i, j, new_labels
    return -1, -1, new_labels


# a rate-table row whose tab the print turned into spaces: "0 to 24.99  $849", "1650 and up  $((P.U. …"
_ROW = re.compile(r"(?m)^(\d[\d,.]*\s+(?:to\s+[\d,.]+|and\s+(?:up|over)))[ \t]{2,}(?=\$)")


def build_provision(act: Act, ins: Instruction, text: str, diags: Diagnostics, restored: bool = False,
                    code: Code | None = None) -> tuple[Node | None, Compiled | None]:
    """Parse the new text as the provision ``ins.target`` of ``code`` (by default the one its id names, cited
    as the id says nothing more). It is read under its section's heading alone, so that its own labels nest as
    the statute's do from its first label down ("(iii)" of an item, not the third clause), and then takes the
    target's id."""
    code = code or Code(other_code(ins.target))
    section = section_of(ins.target)
    path = ins.target.split("/")[len(section.split("/")):]
    number = section.split("/")[-1]
    synthetic = (f"§ {number}.\n" if path else "") + text + "\n"
    name = f"{act.file}#section-{ins.number}"
    nt = normalize(synthetic, "real")
    doc = build(nt, name, code, number, Diagnostics())
    node: Node | None
    if path:
        sec = doc.find(section)
        first = next((c for c in sec.children if c.kind == "provision"), None) if sec is not None else None
        if first is not None and first.id.rsplit("/", 1)[-1].lower() == path[-1].lower() and sec is not None:
            node = _renamed(first, first.id, ins.target, code)
            # the compiled text holds the provision under its own id, for what is read from it (tariffs)
            doc = replace(doc, children=tuple(replace(sec, children=tuple(node if c is first else c for c in sec.children))
                                              if c is sec else c for c in doc.children))
        else:
            node = None
    else:
        node = doc.find(ins.target)
    if node is None:
        diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act: its new text does not begin with the label of "
                             f"{ins.target}", act.file, ins.line, 1, "", "act",
                             "the new text of an amended or added provision begins with its own label"))
        return None, None
    if restored:
        node = replace(node, flags=node.flags + ("restored-case",))
    src = SourceDocument(name, synthetic, "", len(synthetic.encode()))
    return node, Compiled(src, doc, act.entry)


def _renamed(node: Node, old: str, new: str, code: Code) -> Node:
    kids = tuple(_renamed(c, old, new, code) for c in node.children)
    if not node.id:
        return replace(node, children=kids)
    nid = new + node.id[len(old):]
    return replace(node, id=nid, label=_as_label(node.label, nid) if node.id == old else node.label,
                   citation=citation(code, nid) if node.citation else "", children=kids)


def code_of(node: Node) -> Code:
    """The code a provision of the corpus is cited by: its id's prefix and its citation's code ("Nav. Law",
    "21 NYCRR"; none when its text does not say whose law it is)."""
    head, sep, _ = node.citation.partition("§")
    return Code(other_code(node.id), head.strip() if sep else "")


def _as_label(label: str, nid: str) -> str:
    last = nid.rsplit("/", 1)[-1]
    return f"{last}." if label.endswith(".") else f"({last})" if label.startswith("(") else last


def case_book(corpus: Corpus) -> CaseBook:
    book = CaseBook()
    for c in corpus.documents:
        book.learn(c.document.normal.text if c.document.normal is not None else "")
    return book


def _first_day(act: Act) -> tuple[dt.date, str]:
    """Acts are checked and applied in the order their first instruction takes effect (a section or Part dated
    before the act's own date changes the law another act, dated between them, amends)."""
    days = [d for ins in act.instructions if (d := act.effective_of(ins)[0]) is not None]
    return min(days, default=act.effective or dt.date.max), act.file


@dataclass(frozen=True)
class ActOutcome:
    """What the law stage did with one amending act, a value of its own (the act as read is not changed):
    each instruction applied, reported (another law's, or a section that instructs nothing) or refused (why),
    in the act's order; whether the act is refused as a whole; and the text each applied instruction made."""

    file: str  # the act's file: the key of its outcome
    results: tuple[tuple[str, str], ...] = ()  # (applied | reported | refused, what)
    rejected: bool = False  # an instruction of it is refused: none of it is applied
    # (§ of the act, target) -> (old, new) text in law case, for each instruction applied
    made: Mapping[tuple[int, str], tuple[str, str]] = field(default_factory=lambda: MappingProxyType({}))

    def of(self, kind: str) -> list[str]:
        """What the act's instructions of one kind ("applied", "reported", "refused") are said to do."""
        return [what for k, what in self.results if k == kind]


@dataclass
class _Applying:
    """What applying the corpus's acts works on, act after act: the versions so far, the order of the next
    act's versions, the case book of the law's words, where findings go, and the current act's record."""

    versions: list[TextVersion]
    order: int
    book: CaseBook
    diags: Diagnostics
    results: list[tuple[str, str]] = field(default_factory=list)
    made: dict[tuple[int, str], tuple[str, str]] = field(default_factory=dict)


def apply_acts(corpus: Corpus, timeline: Timeline, diags: Diagnostics) -> tuple[Timeline, dict[str, ActOutcome]]:
    """Check each act's instructions against the law the day before they take effect, and add its versions;
    what each act did, by its file."""
    run = _Applying([v for vs in timeline.versions.values() for v in vs], len(corpus.documents),
                    case_book(corpus) if corpus.acts else CaseBook(), diags)
    outcomes: dict[str, ActOutcome] = {}
    for act in sorted(corpus.acts, key=_first_day):
        run.results, run.made = [], {}
        _report_other_laws(act, run)
        run.order += 1
        mark = len(run.versions)
        for ins in act.instructions:
            run.results.append(_instruction(act, ins, run))
        refusals = [w for k, w in run.results if k == "refused"]
        if refusals and len(run.versions) > mark:
            # an act is law as a whole: one that `navlaw build` refuses is in no timeline (show, diff, changes,
            # the site), not in part
            del run.versions[mark:]
            diags.add(Diagnostic(Severity.WARNING, f"the act is refused as a whole ({len(refusals)} of its instructions "
                                 "do not apply): none of its instructions is applied", act.file, 1, 1, "", "act-apply",
                                 "fix the corpus (or the act's entry) so that every instruction applies; `navlaw act "
                                 "check FILE` reviews an act instruction by instruction"))
        outcomes[act.file] = ActOutcome(act.file, tuple(run.results), bool(refusals), MappingProxyType(dict(run.made)))
    return Timeline(run.versions), outcomes


def _report_other_laws(act: Act, run: _Applying) -> None:
    """The act's sections for other laws (or instructing nothing): reported, not applied."""
    for r in act.reported:
        what = f"the {r.law}" if r.law else "no law"
        run.results.append(("reported", f"§ {r.number}: {r.sentence[:140]}" if not r.law else
                            f"§ {r.number} instructs {what}" + (f" ({', '.join(r.targets)})" if r.targets else "")
                            + ": not in this corpus, not applied"))
        if r.law:
            run.diags.add(Diagnostic(Severity.INFO, f"§ {r.number} of the act amends {what}"
                                     + (f" ({', '.join('§ ' + t for t in r.targets)})" if r.targets else "")
                                     + ", which is not in this corpus: reported, not applied", act.file, r.line, 1, "",
                                     "act-other-law"))


def _instruction(act: Act, ins: Instruction, run: _Applying) -> tuple[str, str]:
    """One instruction applied (or refused): its outcome."""
    when, phrase = act.effective_of(ins)
    if when is None:
        return "refused", f"§ {ins.number} ({ins.target}): no effective date"
    refused = _apply(act, ins, when, phrase, run, _uncertain(act, ins, when))
    if refused:
        return "refused", f"§ {ins.number} ({ins.target}): {refused}"
    verb = {"amend": "amends", "add": "adds", "repeal": "repeals", "replace": "replaces",
            "renumber": f"renumbers as {ins.renamed}"}[ins.action]
    first = possible_from(act, ins)
    since = f"from a day between {first - dt.timedelta(days=1)} and {when}" if first else f"from {when}"
    return "applied", f"§ {ins.number} {verb} {ins.target}, {since}"


def _apply(act: Act, ins: Instruction, when: dt.date, phrase: str, run: _Applying,
           uncertain: dict[str, Any] | None = None) -> str:
    """Apply one instruction; returns why it was refused ("" when applied). ``uncertain``: the version's
    ``possible_from`` and ``uncertain`` when its date is known only between bounds."""
    bounded = uncertain or {}
    day_before = when - dt.timedelta(days=1)
    section = section_of(ins.target)
    comp = Timeline(run.versions).section_on(section, day_before)
    note = f"effective {when} ({phrase}; {Path(act.file).name})"
    if uncertain:
        note = f"effective between {uncertain['possible_from'] - dt.timedelta(days=1)} and {when} ({phrase}; " \
               f"{Path(act.file).name})"

    def refuse(message: str, hint: str = "") -> str:
        run.diags.add(Diagnostic(Severity.ERROR, message, act.file, ins.line, 1, "", "act-apply", hint))
        return message

    if ins.portion:  # "the opening paragraph of …": read (acts.py), not applied
        return refuse(f"§ {ins.number} of the act {ins.action}s the {ins.portion} of {ins.target}: navlaw reads the "
                      "instruction but does not apply a change to part of a provision's own text",
                      "apply it by hand: put the provision's text as amended into the corpus with its effective date")
    found = comp.section.find(ins.target) if comp.section is not None and ins.target != section else comp.section
    if ins.action in ("repeal", "renumber"):
        if found is None:
            return refuse(f"§ {ins.number} of the act {'repeals' if ins.action == 'repeal' else 'renumbers'} "
                          f"{ins.target}, which is not in force on {day_before}" + (f": {comp.message}" if comp.message else ""))
        _ended(act, ins, found, when, note, run, bounded)
        return ""
    why = (_amendable(act, ins, comp, found, day_before, run.diags) if ins.action == "amend" else
           _addable(ins, comp, found, section, day_before) if ins.action == "add" else None)
    if why:
        return refuse(*why)
    path = ins.target.split("/")[len(section.split("/")):]
    outer = tuple(n.label for k in range(1, len(path)) if comp.section is not None
                  and (n := comp.section.find("/".join([section] + path[:k]))) is not None)
    text, restored = new_text(_ROW.sub(lambda m: m.group(1) + "\t", ins.body), run.book, outer, path[-1] if path else "")
    code = code_of(comp.section) if comp.section is not None else ins.code
    node, compiled = build_provision(act, ins, text, run.diags, restored, code)
    if node is None:
        return "its new text does not read as the provision it names"
    run.made[(ins.number, ins.target)] = (old_text(ins.body) if ins.action == "amend" else "", text)
    run.versions.append(TextVersion(ins.target, node, compiled.source.path if compiled else act.file, when, True, None,
                                    note, run.order, compiled, confirms=ins.action == "amend",
                                    quoted=tuple(w.lower() for w in old_words(ins.body)) if ins.action == "amend" else (),
                                    **bounded))
    return ""


def _ended(act: Act, ins: Instruction, found: Node, when: dt.date, note: str, run: _Applying,
           bounded: dict[str, Any]) -> None:
    """A repeal or a renumbering: the provision's text ends on ``when`` (renumbered, it goes on as its new id)."""
    # "subdivisions 7 and 8 are renumbered 8 and 9": 8 ends as itself but goes on as the old 7
    taken = {i.renamed for i in act.instructions if i.action in ("renumber", "replace", "add") and i.number == ins.number}
    taken |= {i.target for i in act.instructions if i.action in ("replace", "add") and i.number == ins.number}
    if ins.target not in taken:
        run.versions.append(TextVersion(ins.target, None, act.file, when, True, None, note, run.order, confirms=True,
                                        **bounded))
    if ins.action == "renumber":
        run.versions.append(TextVersion(ins.renamed, _renamed(found, ins.target, ins.renamed, code_of(found)),
                                        act.file, when, True, None, note, run.order, **bounded))


def _amendable(act: Act, ins: Instruction, comp: Composed, found: Node | None, day_before: dt.date,
               diags: Diagnostics) -> tuple[str, str] | None:
    """Why an amendment does not apply to the provision as in force the day before (None: it applies)."""
    if found is None:
        return (f"§ {ins.number} of the act amends {ins.target}, which is not in force on {day_before}"
                + (f": {comp.message}" if comp.message else _holds(comp.section)),
                "the corpus must hold the provision's text as in force the day before the act takes effect")
    tokens, law = old_tokens(ins.body), law_tokens(found)
    want, have = [w for w, _ in tokens], [w for w, _, _ in law]
    i, j, numbered = compare(tokens, law, found.kind == "section")
    if i >= 0 and not _partial(found, want, have):
        return _mismatch(ins, tokens, law, i, j, day_before)
    if numbered:
        diags.add(Diagnostic(Severity.INFO, f"§ {ins.number} of the act numbers provisions of {ins.target} that the "
                             f"law prints without a number ({', '.join(numbered)}): a number cannot be printed in "
                             "capitals, so it is read as new matter", act.file, ins.line, 1, "", "act-apply"))
    if i >= 0:
        diags.add(Diagnostic(Severity.INFO, f"§ {ins.number} of the act: the corpus holds only part of {ins.target} "
                             f"(a fragment); the act's old text agrees with that part, and its new text is the "
                             "whole provision from now on", act.file, ins.line, 1, "", "act-apply"))
    return None


def _addable(ins: Instruction, comp: Composed, found: Node | None, section: str, day_before: dt.date
             ) -> tuple[str] | tuple[str, str] | None:
    """Why a provision cannot be added to the law as in force the day before (None: it can)."""
    if comp.section is None and ins.target != section:
        return (f"§ {ins.number} of the act adds to {section_name(section)}, which is not in force on {day_before}"
                + (f": {comp.message}" if comp.message else ""),)
    if found is not None:
        return (f"§ {ins.number} of the act adds {ins.target}, which already exists on {day_before}",)
    parent = ins.target.rsplit("/", 1)[0]
    if parent != ins.target and parent != section and comp.section is not None and comp.section.find(parent) is None:
        return (f"§ {ins.number} of the act adds {ins.target} to {parent}, which is not in force on "
                f"{day_before}" + _holds(comp.section),
                "the corpus must hold the provision the act adds to, as in force the day before")
    stray = [w for w in old_words(ins.body) if not w.isdigit() and len(w) > 1]
    if stray:
        return (f"§ {ins.number} of the act adds {ins.target}, but its text is not all new matter (not in "
                f"CAPITALS): {' '.join(stray[:12])}",)
    return None


_EARLIEST: dict[tuple[str, str, str, str], Act] = {}


def earliest_reading(act: Act) -> Act | None:
    """When the manifest knows the act's became_law only between bounds: the act read again as if it had become
    law on the first possible day (its dates counted from there; its own reading counts from the last, the day
    by which it is certainly law). None when became_law is a plain date. Read once per act text and entry."""
    b = act.entry.became_law_bounds
    if b is None:
        return None
    key = (act.file, act.raw, repr(act.entry), repr(act.codes))
    if key not in _EARLIEST:
        src = SourceDocument(act.file, act.raw, "", len(act.raw.encode()))
        _EARLIEST[key] = parse_act(src, replace(act.entry, became_law=b.earliest, became_law_bounds=None), Diagnostics(),
                                   act.codes)
    return _EARLIEST[key]


def possible_from(act: Act, ins: Instruction) -> dt.date | None:
    """The first day ``ins`` may be in force, when its date is known only between bounds (else None): the date of
    the same instruction in the act read from its first possible became_law."""
    early = earliest_reading(act)
    if early is None:
        return None
    k = act.instructions.index(ins)
    if k >= len(early.instructions):
        return None
    first, last = early.effective_of(early.instructions[k])[0], act.effective_of(ins)[0]
    return first if first is not None and last is not None and first < last else None


def _uncertain(act: Act, ins: Instruction, when: dt.date) -> dict[str, Any]:
    """What a version of ``ins`` carries when the act's date is known only between bounds: the first day it may
    be in force, and on what that rests (the manifest's bounds of became_law and the act's own words)."""
    first = possible_from(act, ins)
    b = act.entry.became_law_bounds
    if first is None or b is None:
        return {}
    name = act.entry.cite or Path(act.file).name
    return {"possible_from": first,
            "uncertain": f"{name} became law {b.rests_on()}; it takes effect {act.effective_of(ins)[1]}: in force "
                         f"from a day between {first - dt.timedelta(days=1)} and {when}, certainly from {when}"}


def _partial(found: Node, want: list[str], have: list[str]) -> bool:
    """A fragment (the manifest says the corpus holds only part of the provision) agrees with the act's old
    text when its words are the act's old words from some point on, in order."""
    if "fragment" not in found.flags or not have or len(have) > len(want):
        return False
    if found.label and have[:1] == want[:1] == TOKEN.findall(found.label)[:1]:
        want, have = want[1:], have[1:]  # the label, then the fragment's part of the text
    return want[len(want) - len(have):] == have or any(want[k:k + len(have)] == have for k in range(len(want) - len(have) + 1))


def _mismatch(ins: Instruction, want: list[tuple[str, bool]], have: list[tuple[str, str, bool]], i: int, j: int,
              day: dt.date) -> tuple[str, str]:
    where = have[min(j, len(have) - 1)][1] if have else ins.target
    a = [w for w, _ in want]
    b = [w for w, _, _ in have]
    said = (f"\"… {' '.join(a[max(0, i - 8):i + 8])} …\"" if i < len(a) else "nothing more")
    law = (f"\"… {' '.join(b[max(0, j - 8):j + 8])} …\"" if j < len(b) else "nothing more")
    return (f"§ {ins.number} of the act does not apply to {ins.target} as in force on {day}: in {where}, from word "
            f"{i + 1} of the act's old text (\"{a[i] if i < len(a) else '(end)'}\" where the law has "
            f"\"{b[j] if j < len(b) else '(end)'}\") the act's old text reads {said} but the law reads {law}",
            "the act's text with CAPITALS removed and [brackets] dropped must be the provision as in force the day "
            "before it takes effect; check the target and the corpus dates")


def _holds(section: Node | None) -> str:
    """What the corpus's text of the section holds, when it lacks the provision an act names."""
    if section is None:
        return ""
    kids = [c.id for c in section.children if c.kind == "provision"]
    if not kids:
        return f": the corpus's text of § {section.label} holds its heading only" if not section.children else \
            f": the corpus's text of § {section.label} has no numbered provisions"
    return f": the corpus's text of § {section.label} holds {', '.join(kids[:8])}" + (" …" if len(kids) > 8 else "")
