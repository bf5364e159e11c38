"""Change reports: what changed in the law between two dates — provisions, redlines, and the money in
words a lawyer reads ("§ 89-b(4)(b)(1): from 2028-01-01 the rate is $11.56 per pilotage unit (was $11.22)")."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from navlaw.law.redline import Change, compare, render_html, render_text
from navlaw.model.tariffs import (of_what, AnyTariff, BoardSet, BracketSchedule, FlatFee, FractionOfRate, Penalty, Percentage,
                      PerUnitFee, TimeFee)
from navlaw.frontend.acts import Act
from navlaw.model.nodes import section_name, section_of, section_order
from navlaw.law.amend import ActOutcome, earliest_reading
from navlaw.law.timeline import Timeline
from navlaw.report.tariffs import stated
from navlaw.model.codes import without_code


def _money(x: Decimal) -> str:
    """Exact: "$75", "$10.89", "$1.495" (never rounded for display)."""
    if x == x.to_integral_value():
        return f"${int(x):,}"
    # the exponent of NaN and infinity is a letter, not an int
    return f"${x:,.2f}" if isinstance(e := x.as_tuple().exponent, int) and -e <= 2 else f"${x:,}"


def brief(t: AnyTariff) -> str:
    """One tariff's amounts in a few words."""
    if isinstance(t, BracketSchedule):
        if len(t.brackets) == 1 and t.brackets[0].amounts:
            b = t.brackets[0]
            rate = b.amounts[0].value
            return f"{_money(rate)} per pilotage unit" if "×" in b.formula else _money(rate)
        return "; ".join(f"{b.written}: {b.formula_written}" for b in t.brackets)
    if isinstance(t, Percentage):
        what = of_what(t)
        per = f" per {t.per}" if t.per else ""
        mx = f", up to {t.max_percent.value}%" if t.max_percent else ""
        return f"{stated(t, t.percent)}%{per} of {what}{mx}"
    if isinstance(t, PerUnitFee):
        return f"{_money(stated(t, t.rate))} per pilotage unit"
    if isinstance(t, (FlatFee, Penalty)):
        return _money(stated(t, t.amount))
    if isinstance(t, TimeFee):
        return f"{_money(stated(t, t.amount))} per {t.per}"
    if isinstance(t, FractionOfRate):
        return f"{t.numerator}/{t.denominator} of the statutory rate"
    if isinstance(t, BoardSet):
        return f"set by the {t.who}" + (f", not to exceed {_money(t.cap.value)} {t.cap_unit}" if t.cap else "")
    return t.title


def _short(citation: str) -> str:
    return without_code(citation)


def _formulas(t: AnyTariff) -> list[str]:
    return [b.formula for b in t.brackets] if isinstance(t, BracketSchedule) else []


def _from(t: AnyTariff) -> str:
    """"from 2026-01-01", or for a start known only between bounds "from a day between 2024-02-08 and
    2024-12-31 (what that rests on)"."""
    e = t.effective
    if e.start_from is None:
        return f"from {e.start}"
    return f"from a day {e.start_words()} (a date known only between these bounds)"


def tariff_deltas(tariffs: list[AnyTariff], start: dt.date, end: dt.date) -> list[str]:
    """Sentences for every tariff that starts or ends in (start, end]."""
    began = [t for t in tariffs if t.effective.start is not None and start < t.effective.start <= end
             and t.kind != "penalty"]
    ended = [t for t in tariffs if t.effective.end is not None and start < t.effective.end <= end
             and t.kind != "penalty"]
    out: list[str] = []
    used: set[str] = set()
    for t in sorted(began, key=lambda t: (t.effective.start, t.citation, t.id)):
        when = t.effective.start
        before = [o for o in ended if o.effective.end == when and (o.series == t.series or o.provision == t.provision)
                  and o.id not in used]
        if before and all(brief(o) == brief(t) and _formulas(o) == _formulas(t) for o in before):
            used.update(o.id for o in before)  # the same fee read again from a new text (an act restating it)
            continue
        if isinstance(t, BracketSchedule) and before and isinstance(before[0], BracketSchedule):
            last = before[0]
            used.add(last.id)
            if len(t.brackets) == 1 and len(last.brackets) == 1:
                out.append(f"{_short(t.citation)}: {_from(t)} the rate is {brief(t)} (was {brief(last)}).")
            else:
                diffs = [f"{b.written}: {b.formula_written} (was {a.formula_written})"
                         for a, b in zip(last.brackets, t.brackets) if a.formula != b.formula]
                out.append(f"{_short(t.citation)}: {_from(t)} the rate table changes — " + "; ".join(diffs) + ".")
            continue
        if before:
            for o in before:
                used.add(o.id)
            olds = "/".join(brief(o) for o in before)
            out.append(f"{_short(t.citation)}: {_from(t)}, the {olds} "
                       f"{'fee is' if len(before) == 1 else 'fees are'} replaced by {brief(t)}.")
            continue
        out.append(f"{_short(t.citation)}: {_from(t)}, {t.title.lower() if t.title else 'a fee'}: {brief(t)} (new).")
    # what ends without a successor in the window
    for o in ended:
        if o.id in used or any(t.effective.start == o.effective.end and t.series == o.series for t in began):
            continue
        flat = [x for x in ended if x.provision == o.provision and x.kind == "flat" and x.id not in used]
        if o.kind == "flat" and flat:
            successors = [t for t in tariffs if t.provision == o.provision and t.kind != "flat"
                          and t.effective.start == o.effective.end]
            for x in flat:
                used.add(x.id)
            olds = "/".join(brief(x) for x in flat)
            new = "; ".join(brief(t) for t in successors) or "nothing in the text"
            out.append(f"{_short(o.citation)}: from {o.effective.end}, the {olds} "
                       f"fee{'s are' if len(flat) > 1 else ' is'} replaced by {new}.")
            continue
        used.add(o.id)
        why = f" ({o.effective.end_phrase})" if o.effective.end_phrase else ""
        out.append(f"{_short(o.citation)}: {brief(o)} ends on {o.effective.end}{why}.")
    return out


def _record(timeline: Timeline, section: str, start: dt.date, bounds: list[dt.date],
            begins: bool) -> tuple[bool, str, tuple[tuple[str, str], ...]]:
    """What the corpus knows of a section at each of its boundaries in the period — the files whose
    text is in force from that date, or "" where no text is known (a gap), each on its own dates — and,
    for a record that begins, the date its last earlier text stops being known ("" if it has none)."""
    steps = []
    for d in bounds:
        comp = timeline.section_on(section, d)
        files = sorted({Path(v.file).name.split("#")[0] for _, v in comp.sources}) if comp.section is not None else []
        steps.append((str(d), " and ".join(files)))
    gap_from = ""
    if begins:
        earlier = [d for d in timeline.boundaries(section) if d <= start]
        texts = [d for d in earlier if timeline.section_on(section, d).section is not None]
        if texts:
            gap_from = str(min(d for d in earlier if d > texts[-1]))
    return begins, gap_from, tuple(steps)


def _plain(text: str) -> str:
    return text


# One form for every provision's line: "§ 89-a(4): <what>; so this is not …" (issue 30)
_STATUS = {"gap": "no text known in the corpus from this date (a gap in the record), so this is not a repeal",
           "known": "a text known in the corpus again from this date (the end of a gap in the record), so this is "
                    "not an amendment",
           "added": "added", "removed": "removed", "changed": "changed"}


def _cite(node_id: str) -> str:
    """A provision as a reader cites it, not its id: "89-a/4/a" -> "§ 89-a(4)(a)"."""
    sec = section_of(node_id)
    rest = node_id[len(sec):].strip("/")
    return section_name(sec.split("*")[0]) + "".join(f"({p.split('*')[0]})" for p in rest.split("/") if p)


_ID = re.compile(r"(?<![\w/#.*-])(\d+[a-z]*(?:-[a-z0-9]+)*(?:\*\d+)?(?:/[0-9A-Za-z*-]+)+)(?![\w/])")
_GAP_SPAN = re.compile(r'(<span class="gap">)(.*?)(</span>)', re.S)


def cited(message: str) -> str:
    """A message about the record (a gap, a text known again) with the provision ids it names written as
    citations: "no text of 88/4/c in this corpus …" -> "no text of § 88(4)(c) in this corpus …"."""
    return _ID.sub(lambda m: _cite(m.group(1)), message)


def redline_html(changes: list[Change], link: Callable[[str], str] | None = None) -> str:
    """The redline as HTML (compiler/law/redline.py) without the provisions inside a gap, its messages
    naming provisions by citation."""
    html = render_html(_outside_gaps(changes), link)
    return _GAP_SPAN.sub(lambda m: m[1] + cited(m[2]) + m[3], html)


def _outside_gaps(changes: list[Change]) -> list[Change]:
    """Without the provisions inside a gap (or inside a text known again): a gap is never "removed" or
    "added" provision by provision — the gap is said once, at the provision it begins."""
    said = [c.id for c in changes if c.status in ("gap", "known")]
    return [c for c in changes if not any(c.id.startswith(g + "/") for g in said)]


@dataclass
class SectionChange:
    """A section whose text changes in a period: its messages on either side, the provisions that
    differ, and the redline (None where one side has no text: a gap is said, not redlined as law)."""

    section: str
    before: str  # the message on the start date ("" if none)
    after: str  # the message on the end date
    changes: list[Change]  # the provisions whose status is not "same"
    redline: list[Change] | None


@dataclass
class Changes:
    """What changes in the law in (start, end]: found once, written as text or as the site's HTML
    (``report``)."""

    start: dt.date
    end: dt.date
    acts: list[Act]  # amending acts taking effect in the period
    sections: list[SectionChange]
    # sections whose text the corpus starts (or stops) knowing, grouped by what it knows of them
    known: dict[tuple[bool, str, tuple[tuple[str, str], ...]], list[str]]
    deltas: list[str]  # the tariffs' changes in words
    outcomes: Mapping[str, ActOutcome] = field(default_factory=dict)  # what the law stage did with each act, by file

    def outcome(self, act: Act) -> ActOutcome:  # what the law stage did with ``act``
        return self.outcomes.get(act.file) or ActOutcome(act.file)


def changes_between(timeline: Timeline, tariffs: list[AnyTariff], start: dt.date, end: dt.date,
                    acts: list[Act] | tuple[Act, ...] = (), outcomes: Mapping[str, ActOutcome] = {}) -> Changes:
    """Every section whose text changes in (start, end], and the tariff deltas. A text the corpus starts
    or stops knowing is dated by its own dates (where they are known), never by ``start``/``end``."""
    taking = []
    for act in acts:  # what an act that takes effect in the window did heads its changes
        days = {d for i in act.instructions if (d := act.effective_of(i)[0]) is not None} | (
            {act.effective} if act.effective else set())
        if any(start < d <= end for d in days):
            taking.append(act)
    # Sections whose text the corpus starts (or stops) knowing: not amendments, and a redline of the
    # whole text against nothing says no more than the section's own page. Listed together by file.
    known: dict[tuple[bool, str, tuple[tuple[str, str], ...]], list[str]] = {}
    sections: list[SectionChange] = []
    for section in timeline.changing(start, end):
        bounds = [b for b in timeline.boundaries(section) if start < b <= end]
        if not bounds:
            continue
        a, b = timeline.section_on(section, start), timeline.section_on(section, end)
        # a record that begins or ends is listed, not compared (one side says why it has no text: messages differ)
        if (a.section is None and not a.sources and b.sources) or (b.section is None and not b.sources and a.sources):
            known.setdefault(_record(timeline, section, start, bounds, begins=a.section is None), []).append(section)
            continue
        red = compare(a.section, b.section)
        changes = [c for c in red if c.status != "same"]
        if not changes and a.message == b.message:
            continue
        sections.append(SectionChange(section, a.message, b.message, changes,
                                      red if changes and a.section is not None and b.section is not None else None))
    for listed in known.values():
        listed.sort(key=section_order)
    return Changes(start, end, taking, sections, known, tariff_deltas(tariffs, start, end), outcomes)


def change_report(timeline: Timeline, tariffs: list[AnyTariff], start: dt.date, end: dt.date,
                  quote: Callable[[str], str] = _plain, html: bool = False, acts: list[Act] | tuple[Act, ...] = (),
                  link: Callable[[str, str], str] | None = None, outcomes: Mapping[str, ActOutcome] = {}) -> list[str]:
    """Markdown: every section whose text changes in (start, end], its redline, and the tariff deltas
    (``report`` of ``changes_between``)."""
    return report(changes_between(timeline, tariffs, start, end, acts, outcomes), tariffs, quote, html, link)


def report(found: Changes, tariffs: list[AnyTariff], quote: Callable[[str], str] = _plain, html: bool = False,
           link: Callable[[str, str], str] | None = None,
           listing: Callable[[list[str]], str] | None = None) -> list[str]:
    """The changes as Markdown. Every string from the corpus (file names, messages, provision ids,
    amounts in words) goes through ``quote`` (the site passes ``escape.text``); with ``html`` the
    redlines are ``<del>``/``<ins>`` HTML instead of ``[-…-]{+…+}`` in a code block. ``link(id, text)``
    (the site's) makes the quoted ``text`` naming a section or provision a link to it; ``listing``
    writes a list of sections whose record begins or ends together (the site names a whole article
    once; by default each section is named)."""
    def named(node_id: str, text: str) -> str:
        return link(node_id, text) if link is not None else text

    def each(sections: list[str]) -> str:
        return ", ".join(named(x, quote(section_name(x))) for x in sections)
    listed_as = listing or each

    start, end = found.start, found.end
    lines = [f"# Changes from {start} to {end}", ""]
    for act in found.acts:
        lines += [f"## Amending act {quote(Path(act.file).name)}", ""] + [
            f"- {r.strip()}" for r in act_review(act, found.outcome(act), tariffs, quote)] + [""]
    for s in found.sections:
        lines.append(f"## {named(s.section, quote(section_name(s.section)))}")
        if s.before:
            lines.append(f"- on {start}: {quote(cited(s.before))}")
        if s.after:
            lines.append(f"- on {end}: {quote(cited(s.after))}")
        for c in _outside_gaps(s.changes):
            lines.append(f"- {named(c.id, quote(_cite(c.id)))}: {_STATUS.get(c.status, c.status)}")
        if s.redline is not None:
            red = _outside_gaps(s.redline)
            lines += ["", redline_html(red, (lambda i: named(i, f"<b>{quote(_cite(i))}</b>")) if link else None)] \
                if html else ["", "```", render_text(red), "```"]
        lines.append("")
    if found.known:
        lines += ["## Texts the corpus starts or stops knowing", ""]
        for (begins, gap_from, steps), sections in sorted(found.known.items()):
            listed = listed_as(sections)
            them = "them" if len(sections) > 1 else "it"
            said = "; ".join(f"known to be in force from {d} ({quote(f)})" if f else f"no text known from {d}"
                             for d, f in steps)
            if begins and gap_from:
                lines.append(f"- {listed}: {said}; the corpus has no text of {them} from {gap_from} until then "
                             "(a gap in the record), so this is not an amendment")
            elif begins:
                lines.append(f"- {listed}: {said}; the corpus knows no text of {them} before {steps[0][0]}, "
                             "so this begins the record and is not an amendment")
            else:
                lines.append(f"- {listed}: {said}; the corpus knows no later text of {them}, "
                             "so this ends the record and is not a repeal")
        lines.append("")
    if found.deltas:
        by_citation = {_short(t.citation): t.provision for t in tariffs}  # a fee's line starts with its citation

        def fee(d: str) -> str:
            head, sep, rest = d.partition(": ")
            return named(by_citation[head], quote(head)) + sep + quote(rest) if head in by_citation and sep else quote(d)
        lines += ["## Fees", ""] + [f"- {fee(d)}" for d in found.deltas] + [""]
    if not (found.acts or found.sections or found.known or found.deltas):
        lines.append("No provision or fee of the corpus changes in this period.")
    return lines


def under_its_date(found: Changes, lines: list[str]) -> list[str]:
    """A report (``report``'s lines) under a heading of its date: its sections and fees one level below."""
    return [f"## {found.end}"] + ["#" + line if line.startswith("#") else line for line in lines[1:]]


# ---- what an amending act did ---------------------------------------------------------------------------
# For a lawyer to sign off: the instructions applied (provision, from when), reported (another law's),
# refused (why), and the changes they make, in words. `navlaw build` prints it; the change report puts it
# at the head of the act's date.

def act_review(act: Act, outcome: ActOutcome, tariffs: list[AnyTariff], quote: Callable[[str], str] = _plain) -> list[str]:
    name = Path(act.file).name
    when = f"takes effect {act.effective} ({act.effective_phrase})" if act.effective else "has no effective date navlaw reads"
    bounds = act.entry.became_law_bounds
    early = earliest_reading(act)  # became_law known only between bounds: the act's dates from the first day
    if act.effective and early is not None and early.effective and bounds is not None and early.effective < act.effective:
        when = (f"takes effect between {early.effective - dt.timedelta(days=1)} and {act.effective} "
                f"({act.effective_phrase}; it became law {bounds.rests_on()})")
    out = [f"act {quote(name)}" + (f" — AN ACT {quote(act.title[:160])}" if act.title else "") + f"; {quote(when)}"]
    counts = {k: len(outcome.of(k)) for k in ("applied", "reported", "refused")}
    out.append(f"  {counts['applied']} instruction(s) applied, {counts['reported']} reported (not this corpus's law), "
               f"{counts['refused']} refused")
    for kind, what in outcome.results:
        out.append(f"  {'applies, but not applied' if kind == 'applied' and outcome.rejected else kind}: {quote(cited(what))}")
    if outcome.rejected:
        out.append("  the act is refused as a whole: none of its instructions is in the law navlaw shows")
    for ins in act.instructions:
        made = outcome.made.get((ins.number, ins.target))
        if made is None:
            continue
        before, after = made
        if ins.action in ("add", "replace") or not before:
            words = " ".join(after.split())
            out.append(f"  § {ins.number} {'adds' if ins.action == 'add' else 'enacts anew'} {quote(_cite(ins.target))}: "
                       f"{quote(_cut(words, 40))}")
            continue
        changed = wording(before, after)
        out += [f"  § {ins.number} in {quote(_cite(ins.target))}: {quote(w)}" for w in changed] or [
            f"  § {ins.number} in {quote(_cite(ins.target))}: restated without a change of wording"]
    out += [f"  fee change: {quote(line)}" for line in fee_changes(act, outcome, tariffs)]
    return out


def _cut(words: str, n: int) -> str:
    w = words.split()
    return " ".join(w[:n]) + (" …" if len(w) > n else "")


def _key(word: str) -> str:
    return re.sub(r"[^\w$]", "", word).lower()


def _balanced(words: str) -> str:
    """Words cut out of a line, without the punctuation the cut left dangling ("4.21)" of "x 4.21) + 8726")."""
    words = re.sub(r"\s+([)\]])", r"\1", words).strip(",;: ")
    while words.endswith(")") and words.count(")") > words.count("("):
        words = words[:-1]
    return words


def wording(before: str, after: str) -> list[str]:
    """What an instruction changes, word for word in law case, one line per change: "'on and after' becomes
    'from'", "adds 'until January first, two thousand twenty-eight'", "deletes 'herein'"; a row of a rate
    table is named ("1650 and up: '4.21' becomes '5.00'")."""
    import difflib

    out: list[str] = []
    olds, news = before.split("\n"), after.split("\n")
    if len(olds) != len(news):
        olds, news = [" ".join(olds)], [" ".join(news)]
    for old_line, new_line in zip(olds, news):
        a, b = old_line.split(), new_line.split()
        row = re.match(r"\s*(\d[\d,.]*\s+(?:to\s+[\d,.]+|and\s+(?:up|over)))", new_line)
        where = f"{' '.join(row.group(1).split())}: " if row else ""
        sm = difflib.SequenceMatcher(None, [_key(x) for x in a], [_key(x) for x in b], autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            old, new = (_balanced(" ".join(x)) for x in (a[i1:i2], b[j1:j2]))
            if op == "replace":
                out.append(f"{where}{_cut(old, 30)!r} becomes {_cut(new, 30)!r}")
            elif op == "delete":
                out.append(f"{where}deletes {_cut(old, 30)!r}" + (f" (after {' '.join(a[max(0, i1 - 4):i1])!r})" if i1 else ""))
            elif op == "insert":
                out.append(f"{where}adds {_cut(new, 40)!r}" + (f" (after {' '.join(b[max(0, j1 - 4):j1])!r})" if j1 else ""))
    return out


def fee_changes(act: Act, outcome: ActOutcome, tariffs: list[AnyTariff]) -> list[str]:
    """Every fee the act changes, with the date it changes: each schedule read from the act's text, from the
    day it is in force under the act, against the schedule the law had for that day without the act (its
    latest one of the same series that had begun). A schedule the act restates unchanged is not said."""
    name = act.file + "#"
    ours = [t for t in tariffs if t.file.startswith(name)]
    theirs = [t for t in tariffs if not t.file.startswith(name)]
    out: list[str] = []
    for t in sorted(ours, key=lambda t: (t.effective.start or dt.date.min, t.citation)):
        sec = next((i.number for i in act.instructions if t.file == f"{act.file}#section-{i.number}"), None)
        eff = next((act.effective_of(i)[0] for i in act.instructions if i.number == sec), act.effective)
        if eff is None:
            continue
        start = max(t.effective.start or eff, eff)
        since = _from(t) if t.effective.start_from is not None and start == t.effective.start else f"from {start}"
        if t.effective.end is not None and t.effective.end <= start:
            continue  # a schedule of the past that the act restates: not in force under the act
        before = [o for o in theirs if o.series == t.series and o.provision == t.provision and o.kind == t.kind
                  and (o.effective.start or dt.date.min) <= start]
        o = max(before, key=lambda o: o.effective.start or dt.date.min) if before else None
        if o is not None and o.effective.end is not None and o.effective.end <= start and not (
                o.effective.end == eff and o.effective.end_basis == "successor"):
            o = None  # the law's schedule had ended by then (one the act cut short ends on its effective date)
        if isinstance(t, BracketSchedule) and (rows := _old_rows(act, outcome, t)):  # a rate table: against the act's own
            # old text of it, which is the law the day before
            diffs = [f"{b.written}: {b.formula_written} (was {re.sub(r'[ ]+[)]', ')', rows[k])})" for b in t.brackets
                     if (k := " ".join(b.written.split())) in rows and _flat(rows[k]) != _flat(b.formula_written)]
            if diffs:
                out.append(f"{_short(t.citation)}: {since} the rate table changes — " + "; ".join(diffs) + ".")
            continue
        if o is not None and brief(o) == brief(t) and _formulas(o) == _formulas(t):  # (o is of t's kind)
            continue
        if o is None:
            out.append(f"{_short(t.citation)}: {since}, {t.title.lower() if t.title else 'a fee'}: {brief(t)} (new).")
        elif isinstance(t, BracketSchedule) and isinstance(o, BracketSchedule) and not (
                len(t.brackets) == 1 and len(o.brackets) == 1):
            diffs = [f"{b.written}: {b.formula_written} (was {a.formula_written})"
                     for a, b in zip(o.brackets, t.brackets) if a.formula != b.formula]
            out.append(f"{_short(t.citation)}: {since} the rate table changes — " + "; ".join(diffs) + ".")
        else:
            out.append(f"{_short(t.citation)}: {since} the rate is {brief(t)} (was {brief(o)}).")
    return out


_ROW_TEXT = re.compile(r"^\s*(\d[\d,.]*\s+(?:to\s+[\d,.]+|and\s+(?:up|over)))\s+(\S.*)$")


def _flat(formula: str) -> str:
    return re.sub(r"\s+", "", formula).lower().rstrip(".;")


def _old_rows(act: Act, outcome: ActOutcome, t: AnyTariff) -> dict[str, str]:
    """The rows of a rate table as the act's old text prints them (range -> fee), for the instruction that
    amends the provision the table is in."""
    for (number, target), (before, _) in outcome.made.items():
        if before and (t.provision == target or t.provision.startswith(target + "/")) and \
                t.file == f"{act.file}#section-{number}":
            rows = {}
            for line in before.split("\n"):
                m = _ROW_TEXT.match(line)
                if m:
                    rows[" ".join(m.group(1).split())] = " ".join(m.group(2).split())
            if rows:
                return rows
    return {}


_PAIR = re.compile(r"\[([^\[\]]*)\]\s*(\S*)")


def replacements(body: str) -> list[str]:
    """The act's changes as it prints them, one per deletion: "[3.97] 4.70" in the row "1650 and up"
    reads "1650 and up: 3.97 becomes 4.70"; "[mechanically propelled]" alone is "deletes …"."""
    out = []
    for line in body.split("\n"):
        for m in _PAIR.finditer(line):
            old, new = " ".join(m.group(1).split()), m.group(2)
            row = re.match(r"\s*(\d[\d,.]*\s+(?:to\s+[\d,.]+|and\s+(?:up|over)))", line)
            where = f"{row.group(1)}: " if row else ""
            replaced = new and (any(ch.isdigit() for ch in new) and any(ch.isdigit() for ch in old)
                                or new.isupper() and len(new) > 1)
            out.append(f"{where}{old!r} becomes {new.strip('$(),;.')!r}" if replaced else f"{where}deletes {old!r}")
    return out


def _cites(line: str, target: str) -> bool:
    """Whether a delta sentence ("§ 88(4)(b)(1)(ii)(1)(A)(v): …") is about the target or below it."""
    parts = target.split("/")
    cite = f"§ {parts[0]}" + "".join(f"({p})" for p in parts[1:])
    return line.startswith(cite)
