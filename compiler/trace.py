"""Traces of fee quotes: each line's arithmetic, the law's words each number was read from, the version used.

This file is hand-written and copied verbatim into ``navlaw_fees/trace.py`` by the generator
(compiler/fees/generate.py); like the runtime it needs nothing beyond the standard library. A quote line
carries a :class:`Work` (made by the generated code, cheaply: format strings and the values they need);
``Quote.trace()`` turns it into a :class:`Trace`, whose ``text()`` and ``to_json()`` are deterministic.

The arithmetic of each line is an ``expression`` of numbers only (``+ - × /`` and parentheses) whose
exact value, rounded once to cents ROUND_HALF_UP, is the line's amount: anyone can recompute a quote
from its trace. Every number of the law in it is among the line's ``words``: the characters it was read
from, with the file (relative to the corpus) and the 1-based line and column where they start.
"""

from __future__ import annotations

import datetime as _dt
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple, Protocol, Sequence

_CENT = Decimal("0.01")


class Words(NamedTuple):
    """A number of the law and the exact characters it was read from."""

    what: str  # what it is in the fee: "rate", "percentage", "bracket", "minimum units" …
    value: str  # the number as used ("10.89"); "" for a bracket's range
    words: str  # the characters of the law text ("ten dollars and eighty-nine cents")
    file: str  # the text's file, relative to the corpus ("089-b.2022.txt")
    line: int  # 1-based line and column of the first character
    column: int

    def at(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Where(NamedTuple):
    """The provision a fee is read from, the dates of the fee used, and its pages on the reference site."""

    provision: str  # "89-b/4/b/1"
    citation: str  # "Nav. Law § 89-b(4)(b)(1)"
    start: str  # the fee's version: in force from (ISO date), to (exclusive; "" = open)
    end: str
    version: str  # the date of the version of the provision's text the fee is read from ("" = not known)
    link: str  # site path of the provision on its section's page ("law/89-b/#p-89-b-4-b-1")
    history: str  # site path of that version on the section's history page ("history/89-b/#v2022-07-21"; "" when
    # the section has one version, so no history page)


class BracketWords(NamedTuple):
    """One bracket of a schedule, for saying why it was chosen."""

    low: Decimal
    high: Decimal | None
    low_inclusive: bool
    high_inclusive: bool
    written: str
    words: tuple[Words, ...]  # the range cell, then every number of its fee

    def contains(self, units: Decimal) -> bool:
        if not (units >= self.low if self.low_inclusive else units > self.low):
            return False
        return self.high is None or (units <= self.high if self.high_inclusive else units < self.high)

    def why(self, units: Decimal) -> str:
        lo = f"{self.low} {'≤' if self.low_inclusive else '<'} {units}"
        hi = "" if self.high is None else f" {'≤' if self.high_inclusive else '<'} {self.high}"
        return f"{lo}{hi}"


class Work(NamedTuple):
    """How a line's amount was reached, kept as the generated code computed it (formatted on demand).

    ``fmt[0]`` is the expression, ``fmt[1:]`` the steps, each a ``str.format`` template over ``args``;
    ``args[0]`` is the exact (unrounded) amount. ``pu``: the units the expression's ``PU`` stands for.
    ``brackets``: a schedule's brackets, the one containing ``pu`` is the one used."""

    fmt: tuple[str, ...]
    args: tuple[object, ...]
    words: tuple[Words, ...]
    where: Where | None
    pu: Decimal | None = None
    brackets: tuple[BracketWords, ...] = ()


class _LineLike(Protocol):
    @property
    def description(self) -> str: ...
    @property
    def amount(self) -> Decimal: ...
    @property
    def citation(self) -> str: ...
    @property
    def work(self) -> Work | None: ...


class TracedLine(NamedTuple):
    description: str
    amount: Decimal
    citation: str
    steps: tuple[str, ...]
    expression: str  # numbers only; its exact value rounds to ``amount``
    exact: Decimal
    words: tuple[Words, ...]
    where: Where | None

    def as_dict(self) -> dict[str, object]:
        w = self.where
        return {"description": self.description, "amount": str(self.amount), "citation": self.citation,
                "steps": list(self.steps), "expression": self.expression, "exact": str(self.exact),
                "rounding": "to cents, ROUND_HALF_UP",
                "words": [dict(w._asdict()) for w in self.words],
                "provision": None if w is None else dict(w._asdict())}


class Trace(NamedTuple):
    """A quote explained: how the units were reached, each line's working and sources, the notes."""

    route: str
    on: _dt.date
    units: Decimal
    units_steps: tuple[str, ...]
    lines: tuple[TracedLine, ...]
    total: Decimal
    notes: tuple[str, ...]

    def text(self) -> str:
        out = [f"Trace of a pilotage quote: {self.route} on {self.on.isoformat()}"]
        out += [f"  units: {s}" for s in self.units_steps]
        for n, line in enumerate(self.lines, 1):
            out.append(f"{n}. {line.description}: ${line.amount:,}  ({line.citation})")
            out += [f"     - {s}" for s in line.steps]
            out.append(f"     = {line.expression} = {line.exact} → ${line.amount:,} (to cents, half up)")
            for w in line.words:
                value = f" {w.value}:" if w.value else ":"
                out.append(f"     {w.what}{value} \"{' '.join(w.words.split())}\" ({w.at()})")
            if line.where is not None:
                wh = line.where
                span = f"in force {wh.start} to {wh.end}" if wh.end else f"in force from {wh.start}"
                version = f"; text of {wh.version}" if wh.version else ""
                out.append(f"     law: {wh.citation}, {span}{version}; {wh.link}"
                           + (f" · {wh.history}" if wh.history else ""))
        out.append(f"Total: " + " + ".join(f"{x.amount}" for x in self.lines) + f" = ${self.total:,}")
        out += [f"note: {n}" for n in self.notes]
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        return {"route": self.route, "on": self.on.isoformat(), "units": str(self.units),
                "units_steps": list(self.units_steps), "lines": [x.as_dict() for x in self.lines],
                "total": str(self.total), "notes": list(self.notes)}

    def as_dict(self) -> dict[str, object]:
        return self.to_json()


# the base pilotage line's Work (args: exact, units charged, formula with PU[, the vessel's units])
BASE_WORK = ("{2}", "formula of the bracket: {2}, with PU = {1}")
CLAMPED_WORK = ("{2}", "the vessel's {3} pilotage units are charged as {1}: the schedule's minimum or maximum",
                "formula of the bracket: {2}, with PU = {1}")

_PU = re.compile(r"\bPU\b")


def trace_line(line: _LineLike) -> TracedLine:
    work = line.work
    if work is None:  # a line made without its working (the reference evaluator's)
        return TracedLine(line.description, line.amount, line.citation, (), str(line.amount), line.amount, (), None)
    exact = work.args[0]
    assert isinstance(exact, Decimal)
    steps = [f.format(*work.args) for f in work.fmt[1:]]
    words = list(work.words)
    expression = work.fmt[0].format(*work.args)
    if work.pu is not None:
        expression = _PU.sub(str(work.pu), expression)
        chosen = next((b for b in work.brackets if b.contains(work.pu)), None)
        if chosen is not None:
            steps.insert(0, f"bracket \"{chosen.written}\" applies to {work.pu} PU ({chosen.why(work.pu)})")
            amounts = {(w.file, w.line, w.column) for w in chosen.words[1:]}
            cell = chosen.words[:1] if (chosen.words[0].file, chosen.words[0].line, chosen.words[0].column) not in amounts else ()
            words = list(cell) + list(chosen.words[1:]) + words
    steps.append(f"rounded once to cents (ROUND_HALF_UP): {exact} → {exact.quantize(_CENT, ROUND_HALF_UP)}")
    return TracedLine(line.description, line.amount, line.citation, tuple(steps), expression, exact,
                      tuple(dict.fromkeys(words)), work.where)


def make_trace(route: str, on: _dt.date, units: Decimal, dimensions: tuple[Decimal, Decimal, Decimal] | None,
               lines: Sequence[_LineLike], notes: Sequence[str], unmeasured: str = "") -> Trace:
    if unmeasured:
        units_steps: tuple[str, ...] = (f"measurements not provided: {units} pilotage units, the schedule's maximum, "
                                        f"charged as {unmeasured} says",)
    elif dimensions is not None:
        length, breadth, depth = dimensions
        units_steps = (f"pilotage units = length × breadth × depth / 10,000 = {length} × {breadth} × {depth} / 10000 "
                       f"= {units} (exact, not rounded)",)
    else:
        units_steps = (f"{units} pilotage units, as given",)
    traced = tuple(trace_line(x) for x in lines)
    return Trace(route, on, units, units_steps, traced, sum((x.amount for x in traced), Decimal("0.00")), tuple(notes))
