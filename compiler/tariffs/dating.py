"""Dating tariffs on the timeline — the one place where schedules succeed one another.

``date_tariffs`` takes the tariffs as the forms read them (each with the dates its own words give) and
decides, in order: within one text, a schedule of a series ends where the next one starts; across
texts, a schedule follows the text it comes from (in force while that text is, ended by the next text
of its series or by the date the corpus stops knowing its text, a gap left unresolved); a schedule an
act's new text states keeps the unit clamps of the text the act leaves unchanged.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import re
from dataclasses import replace
from typing import Any

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model.nodes import lineage, section_name, section_of
from navlaw.law.timeline import Span, TextVersion, Timeline, short_name
from navlaw.model.tariffs import AnyTariff, Effective
from navlaw.tariffs.routes import RouteTable


def date_tariffs(tariffs: list[AnyTariff], timeline: Timeline, diags: Diagnostics | None = None) -> list[AnyTariff]:
    """Every tariff with its effective range decided: see the module's docstring. With ``diags``, a provision
    whose new text yields none of the fees its old text did is an error (``check_successors``)."""
    dated = _say_bounds(inherit_clamps(succession(follow_timeline(_within_texts(tariffs), timeline, diags))))
    if diags is not None:
        check_successors(dated, timeline, diags)
    return dated


def succession(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """Across texts, a schedule left open ends where the next schedule of its series starts, by that schedule's
    own date: a clause an act adds "effective January first, two thousand twenty-eight" ends its sibling's
    schedule then, not on the act's date."""
    out = list(tariffs)
    by_series: dict[str, list[int]] = {}
    for i, t in enumerate(out):
        if t.series and t.effective.start is not None:
            by_series.setdefault(t.series, []).append(i)
    for idxs in by_series.values():
        for i in idxs:
            e = out[i].effective
            if e.end is not None or e.end_basis == "unresolved":
                continue
            later = [out[k] for k in idxs if out[k].file != out[i].file and _after(out[k].effective.start, e.start)]
            if later:
                nxt = min(later, key=lambda u: (u.effective.start, u.id))
                out[i] = replace(out[i], effective=replace(e, end=nxt.effective.start, end_basis="successor",
                                                           end_phrase=f"replaced by {nxt.citation}",
                                                           end_from=nxt.effective.start_from))
    return out


def check_successors(tariffs: list[AnyTariff], timeline: Timeline, diags: Diagnostics) -> None:
    """Tariffs follow provisions: a schedule ends where a new text of its provision (or of one enclosing it)
    takes effect. When that new text yields no fee of the schedule's series where the old one did, the new
    rate could not be read: an error naming the provision and the day, never the old rate carried on."""
    from navlaw.diagnostics import Diagnostic, Severity

    said: set[tuple[str, str]] = set()
    for t in tariffs:
        e = t.effective
        if not t.series or t.kind == "penalty" or e.end is None or e.end_basis != "successor":
            continue
        v = _version_of(timeline, t.file, t.provision)
        if v is None:
            continue
        _, w = provision_span(timeline, v, t.provision)
        if w is None or w.node is None or w.start != e.end or (w.target, t.series) in said:
            continue
        wfile = w.compiled.source.path if w.compiled is not None else w.file
        scope = w.target
        if any(u.series == t.series and u.file == wfile and (u.provision == scope or u.provision.startswith(scope + "/"))
               for u in tariffs):
            continue
        said.add((w.target, t.series))
        where = w.node.citation or w.target
        doc, _, part = wfile.partition("#section-")
        by = f"§ {part} of {short_name(doc)}" if part else short_name(doc)
        diags.add(Diagnostic(Severity.ERROR, f"the law at {where} changed {'' if w.possible_from else 'on '}"
                             f"{w.start_words()} and its new rate could not be read: {by} gives it a new text, in "
                             f"which navlaw reads no {t.series} fee where the old text stated {t.citation}", doc,
                             0, 0, "", "tariff-successor",
                             "navlaw does not carry the old rate past the day its text changed; check the new text "
                             "(a rate worded in a way no tariff form reads) or the manifest's dates"))


def _say_bounds(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """A schedule whose start is known only between bounds says so in its notes (every quote on it carries
    them); an act's text says it already (act_tariffs: the act's bounds)."""
    out = []
    for t in tariffs:
        e = t.effective
        if e.start_from is not None and not e.act:
            t = replace(t, notes=t.notes + (f"Its start is known only between bounds: in force from a day "
                                            f"{e.start_words()}, certainly from {e.start} ({e.uncertain}).",))
        out.append(t)
    return out


def _within_texts(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """Within one text, each schedule of a series ends where the next one (in the text's order) starts."""
    by_series: dict[tuple[str, str], list[int]] = {}
    for i, t in enumerate(tariffs):
        by_series.setdefault((t.file, t.series), []).append(i)
    out = list(tariffs)
    for idxs in by_series.values():
        for a, b in zip(idxs, idxs[1:]):
            cur, nxt = out[a].effective, out[b].effective
            if any(n.startswith("A second table under the same clause") for n in out[b].notes):
                continue
            if nxt.start is not None and nxt.start == cur.start:
                continue  # two tables under one dated clause (file 000's § 88(4)(b)(1)(ii)(1)(A)(iv)): not successors
            if cur.end is not None or cur.end_basis in ("text", "anchor"):
                continue
            if nxt.start is not None:
                eff = replace(cur, end=nxt.start, end_basis="successor", end_phrase=f"replaced by {out[b].citation}",
                              end_from=nxt.start_from)
            elif nxt.start_basis == "unresolved":
                eff = replace(cur, end=None, end_basis="unresolved",
                              end_phrase=f"replaced by {out[b].citation}, whose start is unresolved")
            else:
                continue
            out[a] = replace(out[a], effective=eff)
    return out


def _version_of(timeline: Timeline, file: str, provision: str) -> TextVersion | None:
    best: TextVersion | None = None
    for t in lineage(provision):
        for v in timeline.versions.get(t, ()):
            vfile = v.compiled.source.path if v.compiled is not None else v.file
            if vfile == file and (best is None or len(v.target) > len(best.target)):
                best = v
    return best


def provision_span(timeline: Timeline, v: TextVersion, provision: str) -> tuple[Span, TextVersion | None]:
    """When the text of ``provision`` — read from version ``v`` (of it, or of a provision enclosing it) — is in
    force: until a later text of it or of a provision enclosing it takes effect; a text of a sibling (or of a
    provision inside it, whose words are not the ones the tariff was read from) does not end it. Returns the
    span and the version that ends it (None when none does)."""
    pv = replace(v, target=provision) if provision.startswith(v.target + "/") else v
    return timeline.span(pv), timeline._next_start(pv)[1]


def _from_act(v: TextVersion) -> bool:
    return v.compiled is not None and v.compiled.entry is not None and v.compiled.entry.kind == "act"


def act_tariffs(timeline: Timeline, diags: Diagnostics, routes: RouteTable,
                raws: dict[str, str] | None = None) -> list[AnyTariff]:
    """Tariffs read from the texts amending acts put in force. With ``raws`` (each act file's text as received),
    every amount points at its characters in the act as printed (``in_print``), not at the new text navlaw
    composed from it."""
    from navlaw.tariffs.extract import extract_document

    out: list[AnyTariff] = []
    for vs in timeline.versions.values():
        for v in vs:
            if v.compiled is not None and v.compiled.entry is not None and v.compiled.entry.kind == "act":
                e = v.compiled.entry
                name = e.cite or short_name(e.file)  # the act is cited with the provision it amends
                said = (f"The law by {name}, whose date is known only between bounds: {v.uncertain}.",) if v.uncertain else ()
                raw_file = v.compiled.source.path.split("#section-")[0]
                for t in extract_document(v.compiled, diags, routes):
                    if t.provision == v.target or t.provision.startswith(v.target + "/"):
                        t = replace(t, effective=replace(t.effective, act=name), notes=t.notes + said)
                        out.append(in_print(t, raw_file, (raws or {}).get(raw_file), v.target))
    return out


_INSTRUCTION_END = re.compile(r"(?i)to\s+read\s+as\s+follows\s*:")


def _after(a: dt.date | None, b: dt.date | None) -> bool:
    """Whether ``a`` is a later day than ``b`` (False when either is not known)."""
    return a is not None and b is not None and a > b


def in_print(t: AnyTariff, raw_file: str, raw: str | None, target: str) -> AnyTariff:
    """``t`` with its amounts' sources in the act as printed: from the new text of ``target`` (its label at a line
    start after an instruction's "to read as follows:"), each amount is the next occurrence of its characters,
    outside [brackets] (the deleted old matter). Left as read when the print does not hold them in that order."""
    from navlaw.model.tariffs import Amount, Effective, Source

    if raw is None:
        return t
    label = re.escape(f"({target.rsplit('/', 1)[-1]})")
    head = next((m.end() for m in _INSTRUCTION_END.finditer(raw)), None)
    at = re.compile(rf"(?m)^[ \t\d]*{label}").search(raw, head) if head is not None else None
    if at is None:
        return t
    deleted = [(m.start(), m.end()) for m in re.finditer(r"\[[^\[\]]*\]", raw)]
    cursor = {"amount": at.start(), "source": at.start(), "effective": at.start()}  # amounts, and the other cited words (a row's range)
    moved: dict[int, object] = {}

    def find(src: Source, kind: str) -> Source:
        words = r"\s+".join(re.escape(w) for w in src.text.split())
        pat = re.compile(rf"(?<![\w.]){words}(?![\w]|\.\d)")
        for m in pat.finditer(raw, cursor[kind]):
            if any(s <= m.start() < e for s, e in deleted):
                continue
            cursor[kind] = m.end()
            line_start = raw.rfind("\n", 0, m.start()) + 1
            return Source(raw_file, m.start(), m.end(), raw.count("\n", 0, m.start()) + 1, m.start() - line_start + 1,
                          raw[m.start():m.end()])
        raise LookupError(src.text)

    def walk(x: Any) -> Any:
        if isinstance(x, (Amount, Source)):
            if id(x) not in moved:
                moved[id(x)] = Amount(x.value, find(x.source, "amount")) if isinstance(x, Amount) else \
                    find(x, "source") if x.text.strip() else x
            return moved[id(x)]
        if isinstance(x, tuple):
            return tuple(walk(y) for y in x)
        if isinstance(x, Effective):  # the words its date is read from: moved when found, kept otherwise
            try:
                return replace(x, source=find(x.source, "effective")) if x.source is not None else x
            except LookupError:
                return x
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            changes = {f.name: walk(getattr(x, f.name)) for f in dataclasses.fields(x)}
            return replace(x, **{k: v for k, v in changes.items() if v is not getattr(x, k)})
        return x

    try:
        placed: AnyTariff = walk(t)
    except LookupError:
        return t
    return placed


def _later_texts(tariffs: list[AnyTariff], version_of: dict[int, TextVersion | None]) -> dict[tuple[str, str], dict[str, dt.date]]:
    """(route, section) -> file -> the earliest start of its versions: which texts price a route in a
    section, and from when."""
    out: dict[tuple[str, str], dict[str, dt.date]] = {}
    for i, t in enumerate(tariffs):
        v = version_of[i]
        if v is not None and v.start is not None and t.provision:
            files = out.setdefault((t.route, section_of(t.provision)), {})
            files[t.file] = min(files.get(t.file, dt.date.max), v.start)
    return out


def _restates(timeline: Timeline, file: str, provision: str, words: str) -> bool:
    """Whether ``file`` gives a new text of the sentence ``words`` stood in: one of its versions is of
    ``provision``, of a provision it is part of, or of a part of it, and holds a sentence much like it (the
    § 88 text of 2022 restates, in § 88(4)(b)(1)(ii)(1)(A), the addition the consolidation had in
    § 88(4)(b)); an act that replaces only the tables under it does not."""
    old = words.lower().split()
    if not old:
        return False
    for target, vs in timeline.versions.items():
        if not (target == provision or provision.startswith(target + "/") or target.startswith(provision + "/")):
            continue
        for v in vs:
            if (v.compiled.source.path if v.compiled is not None else v.file) != file or v.node is None:
                continue
            for n in v.node.walk():
                if n.text and difflib.SequenceMatcher(None, old, n.text.lower().split(), autojunk=False).ratio() >= 0.6:
                    return True
    return False


def _sentence(timeline: Timeline, t: AnyTariff) -> str:
    """The sentence of the raw text a tariff's first amount was read from."""
    from navlaw.model.tariffs import amounts

    v = _version_of(timeline, t.file, t.provision)
    first = next(iter(amounts(t)), None)
    nt = v.compiled.document.normal if v is not None and v.compiled is not None else None
    if first is None or nt is None:
        return ""
    line = nt.raw_line(first.source.line)
    at = first.source.column - 1
    start = line.rfind(". ", 0, at) + 2 if line.rfind(". ", 0, at) >= 0 else 0
    end = line.find(". ", at)
    return line[start : end if end >= 0 else len(line)]


def follow_timeline(tariffs: list[AnyTariff], timeline: Timeline, diags: Diagnostics | None = None) -> list[AnyTariff]:
    """Date each tariff by the text it comes from:

    - a schedule the text does not date, and that no later schedule of its text follows, is in force
      while its text is known to be (file 000's $5.30 § 89-b rate: from 2002-07-01);
    - nothing is in force before its text's effective date (an act's copy of older schedules);
    - a schedule ends when a later text of its series starts, or — when its text is only known up to a
      date and the next text starts later — at that date, with the gap left unresolved;
    - a later text of the same section that prices the route but states no tariff of the series (its
      sentence reworded past what the forms read) ends the series' last text there too: the older rate
      is never carried over the newer text; that is an error in ``diags``, never a quiet fallback.
    """
    by_series: dict[str, list[int]] = {}
    for i, t in enumerate(tariffs):
        by_series.setdefault(t.series, []).append(i)
    out = list(tariffs)
    version_of = {i: _version_of(timeline, t.file, t.provision) for i, t in enumerate(tariffs)}
    pricing = _later_texts(tariffs, version_of)
    for idxs in by_series.values():
        files: dict[str, dt.date] = {}
        for i in idxs:
            v = version_of[i]
            if v is not None and v.start is not None:
                files[out[i].file] = min(files.get(out[i].file, dt.date.max), v.start)
        last_in_file = {out[i].file: i for i in idxs}
        ordered = sorted(files.items(), key=lambda kv: kv[1])
        cap = _replaced(out, idxs, version_of, files, ordered)
        silent = _unstated(timeline, out, idxs, version_of, files, ordered, pricing, cap)
        for i in idxs:
            t = out[i]
            e = _dated(t, version_of[i], timeline, last_in_file.get(t.file) == i)
            if t.file in cap:
                end, why, gap = cap[t.file]
                if (e.end is None and e.end_basis != "unresolved") or (e.end is not None and e.end > end):
                    e = Effective(e.start, end, e.start_basis, e.start_phrase, "unresolved" if gap else "successor",
                                  why, e.confidence, e.source)
                if t.file in silent and diags is not None:  # ended by its text's span or here: said either way
                    _report_silent(diags, t, silent[t.file], end)
            e = _never_law(e, version_of[i])
            e = _bounded(e, t.effective, version_of[i], timeline, t.provision)
            if e is not t.effective:
                out[i] = replace(t, effective=e)
    # a schedule an act repeats but which ends before the act takes effect was never law under it; and a
    # schedule its successor replaced before its own date came (an act amended it beforehand) never was either
    return [t for t in out if not (t.effective.start is not None and t.effective.end is not None
                                   and t.effective.end <= t.effective.start
                                   and (t.effective.start_basis == "text-version" or t.effective.end_basis == "successor"))]


Cap = dict[str, tuple[dt.date, str, bool]]  # file -> (the day its schedules of a series end, why, a gap follows)


def _replaced(out: list[AnyTariff], idxs: list[int], version_of: dict[int, TextVersion | None], files: dict[str, dt.date],
              ordered: list[tuple[str, dt.date]]) -> Cap:
    """Where each text's schedules of a series end: when a later text of the law starts, or — when the
    text is only known up to a date and the next starts later — at that date, the gap unresolved."""
    cap: Cap = {}
    # a later *text of the law* of the series (a section text, a consolidation) supersedes an older text's
    # schedules; an amending act does not: it replaces only the provisions it names, and the timeline ends
    # their schedules (tariffs follow provisions: a clause an act adds leaves its siblings' fees in force)
    acts = {f for f in files if any(out[i].file == f and (w := version_of[i]) is not None and _from_act(w)
                                    for i in idxs)}
    later = [(fa, next(((fb, sb) for fb, sb in ordered[k + 1:] if fb not in acts), None))
             for k, (fa, _) in enumerate(ordered)]
    for fa, nxt in later:
        if nxt is None:
            continue
        fb, sb = nxt
        va = next((version_of[i] for i in idxs if out[i].file == fa and version_of[i] is not None), None)
        ku = va.known_until if va is not None else None
        if ku is not None and ku < sb:
            cap[fa] = (ku, f"the corpus has no text known in force from {ku} until {sb} ({short_name(fb)})", True)
        else:
            cap[fa] = (sb, f"replaced by {short_name(fb)} from {sb}", False)
    return cap


def _unstated(timeline: Timeline, out: list[AnyTariff], idxs: list[int], version_of: dict[int, TextVersion | None],
              files: dict[str, dt.date], ordered: list[tuple[str, dt.date]],
              pricing: dict[tuple[str, str], dict[str, dt.date]], cap: Cap) -> dict[str, str]:
    """A later text of the section that prices the route but states no tariff of the series ends the
    series' last text there (set in ``cap``): file -> that later text."""
    silent: dict[str, str] = {}
    if not ordered:
        return silent
    fa, sa = ordered[-1]
    first = next(i for i in idxs if out[i].file == fa)
    others = pricing.get((out[first].route, section_of(out[first].provision)), {})
    provision = out[first].provision
    words = _sentence(timeline, out[first]) if any(sb > sa and fb not in files for fb, sb in others.items()) else ""
    restating = sorted((sb, fb) for fb, sb in others.items() if sb > sa and fb not in files
                       and _restates(timeline, fb, provision, words))
    if restating:
        sb, fb = restating[0]
        va = version_of[first]
        ku = va.known_until if va is not None else None
        gap = ku is not None and ku < sb
        cap[fa] = ((ku, f"the corpus has no text of it known in force after {ku}: {short_name(fb)}, the text "
                        f"from {sb}, states no such rate", True) if gap and ku is not None else
                   (sb, f"{short_name(fb)}, the text from {sb}, states no such rate", True))
        silent[fa] = fb
    return silent


def _dated(t: AnyTariff, v: TextVersion | None, timeline: Timeline, last_in_file: bool) -> Effective:
    """A tariff's dates from its text's version: in force with its text, from the text's effective date,
    and ending where the provision's span ends."""
    e = t.effective
    if e.start_basis == "with":
        if v is None or v.start is None:
            return e
        span, _ = provision_span(timeline, v, t.provision)
        e = Effective(v.start, span.end, "with-text", f"in force with its text: {v.note}",
                      "unresolved" if span.gap_until else ("successor" if span.end else "open"),
                      span.end_note if span.end else "", "inferred" if not v.hard_start else e.confidence,
                      e.source)
    if v is not None and v.start is not None:
        undated = e.start_phrase.startswith(("no date in the text", "the manifest gives no date"))
        if e.start is None and undated and last_in_file and not v.hard_start:
            e = Effective(v.start, e.end, "manifest", f"no date in the text; {v.note}", e.end_basis,
                          e.end_phrase, "inferred", e.source)
        if v.hard_start and (e.end is None or e.end > v.start) and (e.start is None or e.start < v.start) \
                and e.start_basis != "unresolved":
            e = Effective(v.start, e.end, "text-version", f"from its text's effective date: {v.note}",
                          e.end_basis, e.end_phrase, e.confidence, e.source)
    if v is not None and t.effective.start_basis != "with":
        span, _ = provision_span(timeline, v, t.provision)
        if span.end is not None and ((e.end is None and e.end_basis != "unresolved") or
                                     (e.end is not None and e.end > span.end)):
            e = Effective(e.start, span.end, e.start_basis, e.start_phrase,
                          "unresolved" if span.gap_until else "successor", span.end_note, e.confidence,
                          e.source)
    return e


def _never_law(e: Effective, v: TextVersion | None) -> Effective:
    """A dated schedule of an act that ends by the day the act takes effect (an act signed after a date
    in its own rate table) was never law under it: the text before the act holds until then."""
    if v is not None and v.quoted is not None and v.hard_start and v.start is not None and e.end is not None \
            and e.end <= v.start:
        return Effective(v.start, e.end, "text-version", f"superseded before its text took effect: {v.note}",
                         e.end_basis, e.end_phrase, e.confidence, e.source)
    return e


def _report_silent(diags: Diagnostics, t: AnyTariff, later: str, end: dt.date) -> None:
    from navlaw.model.tariffs import amounts

    where = next(iter(amounts(t)), None)
    line, col, text = (where.source.line, where.source.column, where.source.text) if where else (0, 0, "")
    diags.add(Diagnostic(
        Severity.ERROR, f"{t.title} ({t.citation}, {short_name(t.file)}) is not read in {short_name(later)}, a later "
        f"text of {section_name(section_of(t.provision))} that prices {t.route}: the older rate ends on {end}, and no "
        f"rate of this kind is known after it", t.file, line, col, text, "tariff-lost",
        f"check the sentence of {short_name(later)} that states it: if its words changed, navlaw does not read them "
        "yet (report it); the older rate is never used in its place"))


def _bounded(e: Effective, given: Effective, v: TextVersion | None, timeline: Timeline, provision: str) -> Effective:
    """Carry a date known only between bounds: a start taken from a text version whose start is bounded (an
    act whose became_law the manifest bounds) may come from the version's first possible day (not before the
    date the schedule's own words give); a start the words gave keeps its own bounds (an anchor's); an end
    where the next text starts may come as early as that text may start."""
    if v is not None and v.possible_from is not None and e.start == v.start and e.start != given.start:
        first = max(v.possible_from, given.start) if given.start is not None else v.possible_from
        if _after(v.start, first):
            e = replace(e, start_from=first, uncertain=v.uncertain)
    elif e.start == given.start and given.start_from is not None and e.start_from is None:
        e = replace(e, start_from=given.start_from, uncertain=given.uncertain)
    if e.start_from is None and e.uncertain:
        e = replace(e, uncertain="")
    if v is not None and e.end is not None:
        span, _ = provision_span(timeline, v, provision)
        if span.end == e.end and span.end_possible is not None and span.end_possible < e.end:
            e = replace(e, end_from=max(span.end_possible, e.start) if e.start else span.end_possible)
        elif e.end == given.end and given.end_from is not None and e.end_from is None:
            e = replace(e, end_from=given.end_from)
    if given.act and not e.act:
        e = replace(e, act=given.act)
    return e


def inherit_clamps(tariffs: list[AnyTariff]) -> list[AnyTariff]:
    """A schedule read from an act's new text keeps the unit minimum and maximum of the schedule it
    replaces when the act leaves the provision that states them unchanged (§ 89-b(4)(b)(2) when an act
    amends only (b)(1))."""
    from navlaw.model.tariffs import BracketSchedule

    out = list(tariffs)
    for i, t in enumerate(out):
        if not (isinstance(t, BracketSchedule) and "#section-" in t.file and t.min_units is None
                and t.max_units is None and t.effective.start is not None):
            continue
        day = t.effective.start - dt.timedelta(days=1)
        prev = next((p for p in out if isinstance(p, BracketSchedule) and p.series == t.series and p is not t
                     and "#section-" not in p.file and p.effective.contains(day) is True), None)
        if prev is not None and (prev.min_units or prev.max_units):
            note = (f"The unit minimum and maximum are those of the text the act leaves unchanged "
                    f"({prev.citation}, {short_name(prev.file)}).")
            out[i] = replace(t, min_units=prev.min_units, max_units=prev.max_units, notes=t.notes + (note,))
    return out
