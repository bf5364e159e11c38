"""Dating tariffs on the timeline — the one place where schedules succeed one another.

``date_tariffs`` takes the tariffs as the forms read them (each with the dates its own words give) and
decides, in order: within one text, a schedule of a series ends where the next one starts; across
texts, a schedule follows the text it comes from (in force while that text is, ended by the next text
of its series or by the date the corpus stops knowing its text, a gap left unresolved); a schedule an
act's new text states keeps the unit clamps of the text the act leaves unchanged.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import replace

from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend.nodes import lineage, section_name, section_of
from compiler.law.timeline import TextVersion, Timeline, short_name
from compiler.tariffs.model import AnyTariff
from compiler.tariffs.routes import RouteTable


def date_tariffs(tariffs: list[AnyTariff], timeline: Timeline, diags: Diagnostics | None = None) -> list[AnyTariff]:
    """Every tariff with its effective range decided: see the module's docstring. Where a series' rate
    would otherwise outlive its text (a later text of its section prices the route but states no tariff
    of the series), the rate ends where its text is known and ``diags`` gets an error."""
    return inherit_clamps(follow_timeline(_within_texts(tariffs), timeline, diags))


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
                eff = replace(cur, end=nxt.start, end_basis="successor", end_phrase=f"replaced by {out[b].citation}")
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


def act_tariffs(timeline: Timeline, diags: Diagnostics, routes: RouteTable) -> list[AnyTariff]:
    """Tariffs read from the texts amending acts put in force."""
    from compiler.tariffs.extract import extract_document

    out: list[AnyTariff] = []
    for vs in timeline.versions.values():
        for v in vs:
            if v.compiled is not None and v.compiled.entry is not None and v.compiled.entry.kind == "act":
                out.extend(t for t in extract_document(v.compiled, diags, routes)
                           if t.provision == v.target or t.provision.startswith(v.target + "/"))
    return out


def _later_texts(tariffs: list, version_of: dict) -> dict[tuple[str, str], dict[str, dt.date]]:  # type: ignore[type-arg]
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
    from compiler.tariffs.model import amounts

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


def follow_timeline(tariffs: list, timeline: Timeline, diags: Diagnostics | None = None) -> list:  # type: ignore[type-arg]
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
    from compiler.tariffs.model import Effective

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
        cap: dict[str, tuple[dt.date, str, bool]] = {}
        for (fa, _), (fb, sb) in zip(ordered, ordered[1:]):
            va = next((version_of[i] for i in idxs if out[i].file == fa and version_of[i] is not None), None)
            ku = va.known_until if va is not None else None
            if ku is not None and ku < sb:
                cap[fa] = (ku, f"the corpus has no text known in force from {ku} until {sb} ({short_name(fb)})", True)
            else:
                cap[fa] = (sb, f"replaced by {short_name(fb)} from {sb}", False)
        silent: dict[str, str] = {}  # file -> the later text of its section that states no tariff of the series
        if ordered:
            fa, sa = ordered[-1]
            first = next(i for i in idxs if out[i].file == fa)
            others = pricing.get((out[first].route, section_of(out[first].provision)), {})
            provision = out[first].provision
            words = _sentence(timeline, out[first]) if any(sb > sa and fb not in files for fb, sb in others.items()) else ""
            later = sorted((sb, fb) for fb, sb in others.items() if sb > sa and fb not in files
                           and _restates(timeline, fb, provision, words))
            if later:
                sb, fb = later[0]
                va = version_of[first]
                ku = va.known_until if va is not None else None
                gap = ku is not None and ku < sb
                cap[fa] = ((ku, f"the corpus has no text of it known in force after {ku}: {short_name(fb)}, the text "
                                f"from {sb}, states no such rate", True) if gap and ku is not None else
                           (sb, f"{short_name(fb)}, the text from {sb}, states no such rate", True))
                silent[fa] = fb
        for i in idxs:
            t, v = out[i], version_of[i]
            e = t.effective
            if e.start_basis == "with":
                if v is None or v.start is None:
                    continue
                span = timeline.span(v)
                e = Effective(v.start, span.end, "with-text", f"in force with its text: {v.note}",
                              "unresolved" if span.gap_until else ("successor" if span.end else "open"),
                              span.end_note if span.end else "", "inferred" if not v.hard_start else e.confidence,
                              e.source)
            if v is not None and v.start is not None:
                undated = e.start_phrase.startswith(("no date in the text", "the manifest gives no date"))
                if e.start is None and undated and last_in_file.get(t.file) == i and not v.hard_start:
                    e = Effective(v.start, e.end, "manifest", f"no date in the text; {v.note}", e.end_basis,
                                  e.end_phrase, "inferred", e.source)
                if v.hard_start and (e.end is None or e.end > v.start) and (e.start is None or e.start < v.start) \
                        and e.start_basis != "unresolved":
                    e = Effective(v.start, e.end, "text-version", f"from its text's effective date: {v.note}",
                                  e.end_basis, e.end_phrase, e.confidence, e.source)
            if v is not None and t.effective.start_basis != "with":
                span = timeline.span(v)
                if span.end is not None and ((e.end is None and e.end_basis != "unresolved") or
                                             (e.end is not None and e.end > span.end)):
                    e = Effective(e.start, span.end, e.start_basis, e.start_phrase,
                                  "unresolved" if span.gap_until else "successor", span.end_note, e.confidence,
                                  e.source)
            if t.file in cap:
                end, why, gap = cap[t.file]
                if (e.end is None and e.end_basis != "unresolved") or (e.end is not None and e.end > end):
                    e = Effective(e.start, end, e.start_basis, e.start_phrase, "unresolved" if gap else "successor",
                                  why, e.confidence, e.source)
                    if t.file in silent and diags is not None:
                        _report_silent(diags, t, silent[t.file], end)
            if e is not t.effective:
                out[i] = replace(t, effective=e)
    # a schedule an act repeats but which ends before the act takes effect was never law under it; and a
    # schedule its successor replaced before its own date came (an act amended it beforehand) never was either
    return [t for t in out if not (t.effective.start is not None and t.effective.end is not None
                                   and t.effective.end <= t.effective.start
                                   and (t.effective.start_basis == "text-version" or t.effective.end_basis == "successor"))]


def _report_silent(diags: Diagnostics, t: AnyTariff, later: str, end: dt.date) -> None:
    from compiler.tariffs.model import amounts

    where = next(iter(amounts(t)), None)
    line, col, text = (where.source.line, where.source.column, where.source.text) if where else (0, 0, "")
    diags.add(Diagnostic(
        Severity.ERROR, f"{t.title} ({t.citation}, {short_name(t.file)}) is not read in {short_name(later)}, a later "
        f"text of {section_name(section_of(t.provision))} that prices {t.route}: the older rate ends on {end}, and no "
        f"rate of this kind is known after it", t.file, line, col, text, "tariff-lost",
        f"check the sentence of {short_name(later)} that states it: if its words changed, navlaw does not read them "
        "yet (report it); the older rate is never used in its place"))


def inherit_clamps(tariffs: list) -> list:  # type: ignore[type-arg]
    """A schedule read from an act's new text keeps the unit minimum and maximum of the schedule it
    replaces when the act leaves the provision that states them unchanged (§ 89-b(4)(b)(2) when an act
    amends only (b)(1))."""
    from compiler.tariffs.model import BracketSchedule

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
