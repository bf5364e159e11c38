"""Changes announced: what the corpus already holds that is not yet in force on the site's date.

Each section page lists, date by date after the site's date, what will change in it (the provisions an
amending act amends, adds or repeals, a text the corpus starts or stops knowing, the fee changes), from
which act or text, and the act's instructions that were reported (another law's) or refused (why). An
act whose instructions for the section were all refused is listed too: it is announced, and not applied.
The home page lists what changes in the next twelve months. Everything here is plain text; the templates
escape it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from navlaw.frontend.acts import Act
from navlaw.model.nodes import section_name, section_of
from navlaw.law.amend import ActOutcome
from navlaw.report.changes import Changes

VERBS = {"changed": "amended", "added": "added", "removed": "repealed", "gap": "no longer known in the corpus",
         "known": "known in the corpus again"}
ACTIONS = {"amend": "amended", "add": "added", "repeal": "repealed", "replace": "repealed and added anew",
           "renumber": "renumbered"}


def _instructed(act: Act, section: str, day: dt.date) -> list[str]:
    """What the act's instructions taking effect on ``day`` do to ``section``: "§ 89-b(4)(b)(1) amended"."""
    out = []
    for i in act.instructions:
        if section_of(i.target) == section and act.effective_of(i)[0] == day:
            out.append(f"{citation(i.target)} {ACTIONS.get(i.action, i.action)}"
                       + (f" as {citation(i.renamed)}" if i.renamed else ""))
    return out


@dataclass(frozen=True)
class Announced:
    date: str  # ISO date it takes effect ("" when the act has none navlaw reads)
    source: str  # the acts or texts that make the change
    what: tuple[str, ...]
    reported: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()


def citation(pid: str) -> str:
    """A provision's citation from its id: "89-b/4/b/1" -> "§ 89-b(4)(b)(1)"."""
    sec = section_of(pid)
    rest = pid[len(sec):].strip("/")
    return section_name(sec) + "".join(f"({p})" for p in rest.split("/") if p)


def _act_name(act: Act) -> str:
    name = Path(act.file).name
    source = act.entry.source if act.entry is not None and act.entry.source else ""
    words = " ".join(act.title.split())
    short = words if len(words) <= 200 else words[:200].rsplit(" ", 1)[0] + " …"
    title = f", AN ACT {short}" if act.title else ""
    return f"{name}" + (f" ({source})" if source else "") + title


def _outcomes(act: Act, results: tuple[tuple[str, str], ...], kind: str, section: str) -> tuple[str, ...]:
    """The act's instructions reported (all: they are the act's, for other laws) or refused (those for
    ``section``), of what the law stage did with it (``results``)."""
    out = []
    for k, what in results:
        if k != kind:
            continue
        if kind == "refused" and not any(f"({i.target})" in what and section_of(i.target) == section
                                         for i in act.instructions):
            continue
        out.append(what)
    return tuple(out)


def _about(line: str, section: str) -> bool:
    name = section_name(section)
    return line.startswith((name + "(", name + ":", name + " "))


def pending(changes: Sequence[Changes], acts: Sequence[Act], section: str, on: dt.date,
            outcomes: Mapping[str, ActOutcome] | None = None) -> list[Announced]:
    """What changes in ``section`` after ``on``, date by date. ``outcomes``: what the law stage did with each
    act (navlaw.law.Law.outcomes; by default as the changes carry it)."""
    done = dict(outcomes) if outcomes is not None else {f: o for c in changes for f, o in c.outcomes.items()}

    def results(a: Act) -> tuple[tuple[str, str], ...]:
        return done[a.file].results if a.file in done else ()

    out: list[Announced] = []
    dated_acts: set[tuple[str, str]] = set()
    for c in changes:
        if c.end <= on:
            continue
        what: list[str] = []
        mine = [a for a in c.acts if any(section_of(i.target) == section for i in a.instructions)]
        for a in mine:
            what += _instructed(a, section, c.end)
        for sc in c.sections:
            if sc.section == section and not mine:
                what += [f"{citation(ch.id)} {VERBS.get(ch.status, ch.status)}" for ch in sc.changes]
                if not sc.changes and sc.after:
                    what.append(sc.after)
        for (begins, _, _steps), secs in c.known.items():
            if section in secs:
                what.append("the corpus starts knowing its text" if begins else "the corpus stops knowing its text")
        what += [d for d in c.deltas if _about(d, section)]
        if not what and not mine:
            continue
        for a in mine:
            dated_acts.add((a.file, str(c.end)))
        source = "; ".join(_act_name(a) for a in mine) or (
            "the text in force, which sets this rate ahead" if all(_about(w, section) for w in what) else "a text of the corpus")
        out.append(Announced(str(c.end), source, tuple(dict.fromkeys(what)) or ("no change to its words",),
                             tuple(r for a in mine for r in _outcomes(a, results(a), "reported", section)),
                             tuple(r for a in mine for r in _outcomes(a, results(a), "refused", section))))
    for a in acts:  # an act for this section that changes nothing in it (refused, or no date navlaw reads)
        targets = [i for i in a.instructions if section_of(i.target) == section]
        day = a.effective
        if not targets or (day is not None and day <= on) or (a.file, str(day or "")) in dated_acts:
            continue
        refused = _outcomes(a, results(a), "refused", section)
        if not refused and day is not None:
            continue
        out.append(Announced(str(day or ""), _act_name(a),
                             tuple(f"{citation(i.target)}: {i.action} instruction not applied" for i in targets),
                             _outcomes(a, results(a), "reported", section), refused))
    return sorted(out, key=lambda x: (x.date or "9999", x.source))


def upcoming(changes: Sequence[Changes], on: dt.date, days: int = 365) -> list[tuple[str, str, str]]:
    """(date, year page, what) for each date in the next ``days`` days on which the law changes."""
    from navlaw.site.history import _in_words

    until = on + dt.timedelta(days=days)
    return [(str(c.end), f"changes/{c.end.year}.md#{c.end}", _in_words(c)) for c in changes if on < c.end <= until]
