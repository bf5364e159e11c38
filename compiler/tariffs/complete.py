"""Proof that each route's tariffs are complete: every vessel size has exactly one rate on every date.

For every route and every date range the corpus establishes (the schedules the fee module quotes), this
checks, by reasoning over the bracket boundaries (never by trying unit counts one by one):

- exactly one schedule is in force on each day of the range (no two at once);
- every unit count from 0 to 100,000 falls in exactly one bracket, after the schedule's minimum and
  maximum: each boundary value, and each open stretch between two boundaries (on which membership of
  an interval cannot change), is counted; a stretch in no bracket is a gap, in two an overlap;
- the fee never decreases as the units grow: within a bracket (its formula at both ends and the middle;
  formulas are + − × of units and numbers) and at each boundary (the left bracket's fee there against
  the right one's). A jump up at a boundary is the table's own figures and is listed; a fall is named.

A gap or an overlap is an error at the bracket cell next to it (``tariff-incomplete``), naming the
boundary; a fall is a warning (``tariff-decreasing``), a note when it is a few dollars (a table's rounded
constants, as tariffs/lint.py's ``tariff-jump``). The tariffs page shows each route's result
("complete from 2022-07-21: every vessel size has exactly one rate").
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.runtime import MAX_UNITS
from navlaw.model.formula import evaluate
from navlaw.model.tariffs import AnyTariff, Bracket, BracketSchedule, Source

RawLine = Callable[[str, int], str]


def quotable(t: AnyTariff, route: str) -> bool:
    """A base schedule of ``route`` the fee module can quote: a known start, and a known end or none."""
    return (isinstance(t, BracketSchedule) and t.route == route and t.series == f"{route}/base"
            and t.effective.start is not None
            and (t.effective.end is not None or t.effective.end_basis != "unresolved"))


@dataclass(frozen=True)
class Problem:
    message: str
    source: Source | None
    severity: Severity


@dataclass(frozen=True)
class Span:
    """A date range with one set of schedules in force, and what the check found there."""

    start: dt.date
    end: dt.date | None  # exclusive; None = open
    schedules: tuple[BracketSchedule, ...]
    problems: tuple[Problem, ...]
    jumps: tuple[str, ...]  # the fee's jumps up at bracket boundaries: the table's own figures

    @property
    def ok(self) -> bool:
        return not any(p.severity is Severity.ERROR for p in self.problems)

    def dates(self) -> str:
        return f"{self.start} to {self.end}" if self.end else f"from {self.start}"


@dataclass(frozen=True)
class Proof:
    route: str
    spans: tuple[Span, ...]

    @property
    def ok(self) -> bool:
        return bool(self.spans) and all(s.ok for s in self.spans)

    def summary(self) -> str:
        """One sentence for the tariffs page."""
        if not self.spans:
            return "no rate schedule of this route has dates the corpus establishes: nothing to prove"
        good = _joined([s for s in self.spans if s.ok])
        bad = [s for s in self.spans if not s.ok]
        falls = sorted({p.message for s in self.spans for p in s.problems if p.severity is not Severity.ERROR})
        said = f"; {len(falls)} fall(s) of the fee as the units grow, as the law's figures give them" if falls else ""
        if not bad:
            return f"complete {good}: every vessel size (0 to {MAX_UNITS:,} pilotage units) has exactly one rate{said}"
        out = f"not complete {_joined(bad)}: " + "; ".join(p.message for s in bad for p in s.problems
                                                        if p.severity is Severity.ERROR)
        return out + (f" (complete {good})" if good else "")


def _joined(spans: list[Span]) -> str:
    """Adjacent date ranges as one: "2022-07-21 to 2023-01-01" + "from 2023-01-01" -> "from 2022-07-21"."""
    merged: list[list[dt.date | None]] = []
    for s in spans:
        if merged and merged[-1][1] == s.start:
            merged[-1][1] = s.end
        else:
            merged.append([s.start, s.end])
    return " and ".join(f"{a} to {b}" if b else f"from {a}" for a, b in merged)


def _fmt(x: Decimal) -> str:
    return f"{x:,.2f}"


def _pieces(points: list[Decimal]) -> list[tuple[Decimal, Decimal | None]]:
    """The boundary points and the open stretches between them, in order: (v, None) is the point v,
    (a, b) the stretch a < x < b."""
    out: list[tuple[Decimal, Decimal | None]] = []
    for i, v in enumerate(points):
        out.append((v, None))
        if i + 1 < len(points):
            out.append((v, points[i + 1]))
    return out


def _describe(run: list[tuple[Decimal, Decimal | None]], unit: str) -> str:
    (a, a2), (b, b2) = run[0], run[-1]
    low = f"{a} ≤" if a2 is None else f"{a} <"
    high = f"≤ {b}" if b2 is None else f"< {b2}"
    return f"{low} {unit} {high}"


def check_schedule(t: BracketSchedule) -> tuple[list[Problem], list[str]]:
    """Gaps, overlaps and falls of one schedule over 0 to MAX_UNITS units (after its minimum and maximum)."""
    unit = "pilotage units" if t.unit_name == "pilotage units" else t.unit_name
    lo = max(Decimal(0), t.min_units.value if t.min_units else Decimal(0))
    hi = min(MAX_UNITS, t.max_units.value if t.max_units else MAX_UNITS)
    problems: list[Problem] = []
    jumps: list[str] = []
    bs = list(t.brackets)
    points = sorted({lo, hi} | {x for b in bs for x in (b.low, b.high) if x is not None and lo <= x <= hi})
    pieces = _pieces(points)

    def holding(piece: tuple[Decimal, Decimal | None]) -> list[Bracket]:
        a, b = piece
        x = a if b is None else (a + b) / 2
        return [br for br in bs if br.contains(x)]

    counts = [holding(p) for p in pieces]
    i = 0
    while i < len(pieces):
        n = len(counts[i])
        if n == 1:
            i += 1
            continue
        j = i
        while j + 1 < len(pieces) and counts[j + 1] == counts[i]:
            j += 1
        run = pieces[i:j + 1]
        where = _describe(run, unit)
        if n == 0:
            start = run[0][0]
            end = run[-1][0] if run[-1][1] is None else run[-1][1]
            before = next((b for b in bs if b.high is not None and b.high == start), None)
            after = next((b for b in bs if b.low == end), None)
            said = []
            if before is not None:
                said.append(f"\"{before.written}\" ends {'at' if before.high_inclusive else 'below'} {start}")
            if after is not None:
                said.append(f"\"{after.written}\" starts {'at' if after.low_inclusive else 'above'} {end}")
            msg = (f"no rate for {where} in {t.citation} ({t.effective.start} on): the brackets leave a gap {'at' if run[0][1] is None else 'above'} {start}"
                   + (f" ({' and '.join(said)})" if said else ""))
            src = (after or before or (bs[0] if bs else None))
            problems.append(Problem(msg, src.source if src else None, Severity.ERROR))
        else:
            names = " and ".join(f"\"{b.written}\"" for b in counts[i])
            problems.append(Problem(f"two rates for {where} in {t.citation} ({t.effective.start} on): {names} both "
                                    f"include it", counts[i][1].source, Severity.ERROR))
        i = j + 1
    # the fee as the units grow: within each bracket, and from one bracket to the next
    ordered = sorted(bs, key=lambda b: (b.low, not b.low_inclusive))
    for b in ordered:
        a = max(b.low, lo)
        z = min(b.high if b.high is not None else hi, hi)
        if z < a:
            continue
        fa, fm, fz = evaluate(b.fee, a), evaluate(b.fee, (a + z) / 2), evaluate(b.fee, z)
        if not fa <= fm <= fz:
            problems.append(Problem(f"the fee falls as the units grow inside \"{b.written}\" of {t.citation}: "
                                    f"${_fmt(fa)} at {a}, ${_fmt(fz)} at {z} ({b.formula_written})",
                                    b.source, Severity.WARNING))
    for b, nxt in zip(ordered, ordered[1:]):
        v = nxt.low
        if not lo < v <= hi or b.high is None:
            continue
        left, right = evaluate(b.fee, v), evaluate(nxt.fee, v)
        if right < left:  # the table's own figures (each bracket is as written): said, not corrected
            small = (left - right) * 1000 <= left  # a few dollars: the rounding of a table's constants
            problems.append(Problem(f"the fee falls at {v} {unit} in {t.citation}: \"{b.written}\" gives ${_fmt(left)} "
                                    f"there, \"{nxt.written}\" ${_fmt(right)} (as the law's figures give it)",
                                    nxt.source, Severity.INFO if small else Severity.WARNING))
        elif right > left:
            jumps.append(f"at {v} {unit}: ${_fmt(left)} → ${_fmt(right)} (\"{b.written}\" to \"{nxt.written}\")")
    return problems, jumps


def _rates(t: BracketSchedule) -> tuple[object, ...]:
    """What a schedule charges, whatever text states it."""
    return (tuple((b.low, b.high, b.low_inclusive, b.high_inclusive, b.formula) for b in t.brackets),
            t.min_units.value if t.min_units else None, t.max_units.value if t.max_units else None)


def prove(tariffs: list[AnyTariff], route: str) -> Proof:
    """The route's date ranges (where its quotable schedules start or end) and the check of each."""
    scheds = sorted((t for t in tariffs if isinstance(t, BracketSchedule) and quotable(t, route)),
                    key=lambda t: (t.effective.start or dt.date.min, t.id))
    days = sorted({d for t in scheds for d in (t.effective.start, t.effective.end) if d is not None})
    checked: dict[str, tuple[list[Problem], list[str]]] = {}
    spans: list[Span] = []
    for k, start in enumerate(days):
        end = days[k + 1] if k + 1 < len(days) else None
        here = tuple(t for t in scheds if t.effective.contains(start) is True)
        if not here:
            continue  # a stretch the corpus does not establish: quotes there are a FeeError that says so
        problems: list[Problem] = []
        jumps: list[str] = []
        if len({_rates(t) for t in here}) > 1:  # the same rates restated (an act re-enacting a paragraph) are one
            problems.append(Problem(f"{len(here)} schedules of {route} in force at once from {start}: "
                                    + ", ".join(f"{t.citation} ({t.file.rsplit('/', 1)[-1]})" for t in here),
                                    here[1].brackets[0].source if here[1].brackets else here[1].effective.source,
                                    Severity.ERROR))
        for t in here:
            if t.id not in checked:
                checked[t.id] = check_schedule(t)
            problems += checked[t.id][0]
            jumps += checked[t.id][1]
        spans.append(Span(start, end, here, tuple(problems), tuple(jumps)))
    return Proof(route, tuple(spans))


def lint(tariffs: list[AnyTariff], routes: tuple[str, ...], raw_line: RawLine) -> Diagnostics:
    """Each problem once (a schedule in force over several ranges is checked once), at its bracket cell."""
    out = Diagnostics()
    seen: set[str] = set()
    for route in routes:
        for span in prove(tariffs, route).spans:
            for p in span.problems:
                if p.severity is Severity.INFO:  # a fall of a few dollars: tariffs/lint.py's tariff-jump says it
                    continue
                if p.message in seen:
                    continue
                seen.add(p.message)
                code = "tariff-incomplete" if p.severity is Severity.ERROR else "tariff-decreasing"
                s = p.source
                out.add(Diagnostic(p.severity, f"{route}: {p.message}", s.file if s else "", s.line if s else 0,
                                   s.column if s else 0, raw_line(s.file, s.line) if s else "", code,
                                   "every vessel size must have exactly one rate on every date the corpus establishes;"
                                   " check the table against the enacted text"))
    return out
