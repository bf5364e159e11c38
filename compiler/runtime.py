"""Runtime of the generated fee module: Quote, Line, FeeError and exact-money helpers.

This file is hand-written and copied verbatim into ``navlaw_fees/_runtime.py`` by the generator
(compiler/fees/generate.py); it has no dependencies beyond the standard library. The reference
evaluator (compiler/fees/plans.py) uses it too, so both speak the same types.

Money rules (DESIGN.md, "Rules of interpretation"): amounts are ``Decimal``; each line item is rounded
once to cents, ROUND_HALF_UP; the total is the sum of the rounded lines.
"""

from __future__ import annotations

import datetime as _dt
import math
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Any, Callable, NamedTuple, Union

from navlaw.trace import BracketWords, Trace, Where, Words, Work, make_trace  # ".trace" in navlaw_fees

Number = Union[int, Decimal, str, float]

CENT = Decimal("0.01")
MAX_UNITS = Decimal(100000)
_TEN_THOUSAND = Decimal(10000)


class FeeError(ValueError):
    """Bad input, or no schedule established for the date asked: the message says which and why."""


class _Line(NamedTuple):
    description: str
    amount: Decimal
    citation: str


class Line(_Line):
    """A line of a quote: (description, amount, citation). How the amount was reached (``work``, for
    ``Quote.trace()``) rides along outside the tuple: it is not compared, unpacked or printed."""

    def __new__(cls, description: str, amount: Decimal, citation: str, work: Work | None = None) -> Line:
        self = super().__new__(cls, description, amount, citation)
        if work is not None:
            self.__dict__["work"] = work
        return self

    @property
    def work(self) -> Work | None:
        return self.__dict__.get("work")


class _Quote(NamedTuple):
    route: str
    on: _dt.date
    units: Decimal  # the vessel's pilotage units as given or computed (before any minimum or maximum)
    lines: tuple[Line, ...]
    notes: tuple[str, ...]
    alternatives: tuple[Alternative, ...] = ()


class Quote(_Quote):
    """An itemized quote. Immutable; ``total`` is the sum of the lines, each already rounded to cents.
    ``dimensions`` (length, breadth, depth in feet, when the units were computed from them) rides along
    outside the tuple, like a line's work: a quote by dimensions equals the quote by the same units.

    On a day inside a date the law is known only between bounds (an act "signed between 2024-02-08 and
    2024-12-31"), the quote is not *settled*: its lines and ``total`` are the amount under the law as it
    stood before the change whose date is uncertain, and ``alternatives`` holds the quote under the
    changed law, with the condition it depends on; the first note says both amounts and the range.
    Code that needs one number must check ``settled`` (or ``alternatives``) first.
    """

    def __new__(cls, route: str, on: _dt.date, units: Decimal, lines: tuple[Line, ...], notes: tuple[str, ...],
                alternatives: tuple[Alternative, ...] = (), dimensions: tuple[Decimal, Decimal, Decimal] | None = None,
                unmeasured: str = "") -> Quote:
        self = super().__new__(cls, route, on, units, lines, notes, alternatives)
        if dimensions is not None:
            self.__dict__["dimensions"] = dimensions
        if unmeasured:  # measurements not provided: the units are the maximum this provision charges
            self.__dict__["unmeasured"] = unmeasured
        return self

    @property
    def dimensions(self) -> tuple[Decimal, Decimal, Decimal] | None:
        return self.__dict__.get("dimensions")

    def _replace(self, **changes: Any) -> Quote:
        """A copy with ``changes``, keeping what rides along outside the tuple (dimensions, unmeasured)."""
        new: Quote = super()._replace(**changes)
        new.__dict__.update(self.__dict__)
        return new

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0.00"))

    @property
    def settled(self) -> bool:
        """False when the amount depends on a date the corpus knows only between bounds (see ``alternatives``)."""
        return not self.alternatives

    def explain(self) -> str:
        width = max([len(line.description) for line in self.lines] + [20])
        out = [f"Pilotage quote: {self.route}, {self.units} pilotage units, on {self.on.isoformat()}"]
        if self.alternatives:
            out[0] += " — NOT SETTLED: " + " or ".join([f"{self.total:,.2f}"] + [f"{a.quote.total:,.2f}"
                                                                              for a in self.alternatives])
            out.append("  If the change below had not yet taken effect on that day:")
        for line in self.lines:
            out.append(f"  {line.description:<{width}}  {line.amount:>12,.2f}  {line.citation}")
        out.append(f"  {'Total':<{width}}  {self.total:>12,.2f}")
        for a in self.alternatives:
            out.append(f"  If {a.condition}:")
            for line in a.quote.lines:
                out.append(f"  {line.description:<{width}}  {line.amount:>12,.2f}  {line.citation}")
            out.append(f"  {'Total':<{width}}  {a.quote.total:>12,.2f}")
        for note in self.notes:
            out.append(f"  note: {note}")
        return "\n".join(out)

    def trace(self) -> Trace:
        """Each line's working: the steps, the expression with the numbers put in, the rounding, the
        words of the law every number was read from (file:line:column), the provision and its version."""
        return make_trace(self.route, self.on, self.units, self.dimensions, self.lines, self.notes,
                          self.__dict__.get("unmeasured", ""))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "route": self.route, "on": self.on.isoformat(), "units": str(self.units), "total": str(self.total),
            "lines": [{"description": x.description, "amount": str(x.amount), "citation": x.citation}
                      for x in self.lines],
            "notes": list(self.notes)}
        if self.alternatives:
            out["settled"] = False
            out["alternatives"] = [{"condition": a.condition, **a.quote.to_json()} for a in self.alternatives]
        return out


class Alternative(NamedTuple):
    """Another possible quote for the same day: ``condition`` says when it, not the quote holding it, is the law."""

    condition: str
    quote: Quote


def possibly(periods: tuple[Period, ...], on: _dt.date, settled: Period) -> tuple[Period, ...]:
    """The schedules other than ``settled`` that may be in force on ``on``: their start is known only between
    bounds, and ``on`` falls between them."""
    return tuple(p for p in periods if p is not settled and p.possible_from is not None
                 and p.possible_from <= on < p.start and (p.end is None or on < p.end))


def undecided(q: Quote, others: tuple[tuple[Period, Quote], ...]) -> Quote:
    """``q`` with the quotes under schedules whose start is known only between bounds, and a note first that
    says both amounts and on what the choice depends."""
    alternatives = []
    words = []
    same = [p for p, other in others if other.total == q.total]
    if len(same) == len(others):  # the law is in doubt that day, but not the amount: said, and settled
        p = same[0]
        day = (p.possible_from - _dt.timedelta(days=1)).isoformat() if p.possible_from else ""
        return q._replace(notes=(f"{p.citation} may already be in force on {q.on.isoformat()} (it is in force from a "
                                 f"day between {day} and {p.start.isoformat()}); the amount is the same under it.",)
                          + q.notes)
    for p, other in others:
        if other.total == q.total:
            continue
        day = (p.possible_from - _dt.timedelta(days=1)).isoformat() if p.possible_from else ""
        condition = (f"{p.citation} was already in force on {q.on.isoformat()} (it is in force from a day between "
                     f"{day} and {p.start.isoformat()})")
        alternatives.append(Alternative(condition, other._replace(notes=tuple(n for n in other.notes))))
        words.append(f"${other.total:,.2f} if {p.citation} was already in force (it is in force from a day between "
                     f"{day} and {p.start.isoformat()}, certainly from {p.start.isoformat()})")
    note = (f"Not settled: on {q.on.isoformat()} the amount depends on a date the corpus knows only between bounds. "
            f"${q.total:,.2f} (the total: the law before that change) or " + "; or ".join(words)
            + ". See q.alternatives; navlaw picks no day inside the bounds.")
    return q._replace(notes=(note,) + q.notes, alternatives=tuple(alternatives))


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


# Every number a caller passes is bounded before any arithmetic: a vessel is at most 100,000 pilotage
# units, and no dimension, hour, day, mile or count reaches a million; more than 12 decimal places is
# not a measurement. So a quote costs microseconds whatever it is given (no 10**5000, no 1e999999).
MAX_NUMBER = Decimal(1000000)
MAX_PLACES = 12
_PLAIN = __import__("re").compile(r"[+-]?(?:(?:[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)(?:\.[0-9]*)?|\.[0-9]+)")


def number(value: object, name: str, *, allow_zero: bool = False) -> Decimal:
    """``value`` as an exact Decimal: int, Decimal, a plain numeric str ("350", "1,250.5"), or a finite
    float; positive (or zero with ``allow_zero``), under a million, at most 12 decimal places."""
    if type(value) is Decimal and value.is_finite() and 0 < value < MAX_NUMBER and value.as_tuple().exponent >= -MAX_PLACES:  # type: ignore[operator]
        return value  # the common case, first
    if isinstance(value, bool):
        raise FeeError(f"{name} must be a number, not {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FeeError(f"{name} must be a finite number, not {value!r}")
        d = Decimal(repr(value))
    elif isinstance(value, int):
        if abs(value) >= MAX_NUMBER:  # before any str() of it: a 5,000-digit int cannot even be printed
            raise FeeError(f"{name} is too large: a number under {MAX_NUMBER:,} is expected")
        d = Decimal(value)
    elif isinstance(value, Decimal):
        d = value
    elif isinstance(value, str):
        text = value.strip()
        if text.lower().lstrip("+-") in ("inf", "infinity", "nan", "snan"):
            raise FeeError(f"{name} must be a finite number, not {value!r}")
        if len(text) > 40 or not _PLAIN.fullmatch(text):
            raise FeeError(f"{name} must be a number written with digits, an optional decimal point and "
                           f"thousands commas in threes (e.g. 1,250.5), not {value[:40]!r}")
        d = Decimal(text.replace(",", ""))
    else:
        raise FeeError(f"{name} must be a number (int, Decimal or str), not {type(value).__name__}")
    if not d.is_finite():
        raise FeeError(f"{name} must be a finite number, not {value!r}")
    if d < 0 or (d == 0 and not allow_zero):
        raise FeeError(f"{name} must be {'zero or more' if allow_zero else 'more than zero'}, not {value!r}")
    if d.adjusted() >= 6:
        raise FeeError(f"{name} is too large: a number under {MAX_NUMBER:,} is expected")
    if d and d.as_tuple().exponent < -MAX_PLACES:  # type: ignore[operator]
        raise FeeError(f"{name} has more than {MAX_PLACES} decimal places")
    return d


def pilotage_units(length_ft: Number, breadth_ft: Number, depth_ft: Number) -> Decimal:
    """Overall length × extreme breadth × depth (feet) / 10,000 — exact, unrounded."""
    length = number(length_ft, "length_ft")
    breadth = number(breadth_ft, "breadth_ft")
    depth = number(depth_ft, "depth_ft")
    return length * breadth * depth / _TEN_THOUSAND


def vessel_units(units: object, length_ft: object, breadth_ft: object, depth_ft: object) -> Decimal:
    if units is not None and length_ft is None and breadth_ft is None and depth_ft is None:
        u = number(units, "units")
        if u > MAX_UNITS:
            raise FeeError(f"units={u} is not a vessel: more than {MAX_UNITS:,} pilotage units")
        return u
    dims = (length_ft, breadth_ft, depth_ft)
    if units is not None:
        if any(d is not None for d in dims):
            raise FeeError("give either units= or length_ft=, breadth_ft= and depth_ft=, not both")
        u = number(units, "units")
        if u > MAX_UNITS:
            raise FeeError(f"units={u} is not a vessel: more than {MAX_UNITS:,} pilotage units")
        return u
    if any(d is None for d in dims):
        missing = [n for n, d in zip(("length_ft", "breadth_ft", "depth_ft"), dims) if d is None]
        raise FeeError("give units= or all of length_ft=, breadth_ft= and depth_ft= (missing: "
                       + ", ".join(missing) + ")")
    u = pilotage_units(length_ft, breadth_ft, depth_ft)  # type: ignore[arg-type]
    if u > MAX_UNITS:
        raise FeeError(f"length_ft × breadth_ft × depth_ft / 10,000 = {u:,.2f} pilotage units: more than "
                       f"{MAX_UNITS:,}; check the dimensions (feet)")
    return u


def day(on: object) -> _dt.date:
    if on is None:
        return _dt.date.today()
    if isinstance(on, _dt.datetime) or not isinstance(on, _dt.date):
        raise FeeError(f"on must be a datetime.date, not {type(on).__name__} {on!r}")
    return on


def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise FeeError(f"{name} must be True or False, not {value!r}")
    return value


def choice(value: object, name: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise FeeError(f"{name} must be one of {', '.join(allowed)}; not {value!r}")
    return value


MAX_OCCURRENCES = 100  # stops, shifts, delays in one quote


def board_amount(value: object, name: str, cap: Decimal | None, cap_words: str) -> Decimal:
    """An amount the law leaves to a board, entered by the caller: dollars, checked against the law's cap."""
    amount = number(value, name, allow_zero=True)
    if cap is not None and amount > cap:
        raise FeeError(f"{name}: ${amount:,} is more than the law allows: {cap_words}")
    return cents(amount)


def occurrences(value: object, name: str) -> tuple[Decimal, ...]:
    """Hours of a charge that may occur more than once: a number, or a list of them (each stop, each
    delay is charged on its own, with its own maximum)."""
    if isinstance(value, (list, tuple)):
        if not value or len(value) > MAX_OCCURRENCES:
            raise FeeError(f"{name} must be a number of hours or a list of 1 to {MAX_OCCURRENCES} of them")
        return tuple(number(v, f"{name}[{i}]", allow_zero=True) for i, v in enumerate(value))
    return (number(value, name, allow_zero=True),)


def times(value: object, name: str) -> int:
    """How often a fee of one event is charged: True (once), False, or a whole number of times (read as
    every number is, whatever its type: 2, "2", Decimal("2"))."""
    if value is True or value is False:
        return int(value)
    try:
        n = whole(value, name)
    except FeeError:
        n = -1
    if 0 <= n <= MAX_OCCURRENCES:
        return n
    raise FeeError(f"{name} must be True, False or a whole number of times from 0 to {MAX_OCCURRENCES}, not {value!r}")


def choices(value: object, name: str, allowed: tuple[str, ...], most: int) -> tuple[str, ...]:
    """One choice, or a list of distinct ones where the law charges up to ``most`` of them."""
    chosen = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if not chosen or len(chosen) > most:
        raise FeeError(f"{name}: {'one' if most == 1 else f'1 to {most}'} of {', '.join(allowed)} on this route, "
                       f"not {value!r}")
    out = tuple(choice(v, name, allowed) for v in chosen)
    if len(set(out)) != len(out):
        raise FeeError(f"{name}: {value!r} names one twice")
    return out


def whole(value: object, name: str) -> int:
    d = number(value, name, allow_zero=True)
    if d != d.to_integral_value():
        raise FeeError(f"{name} must be a whole number, not {value!r}")
    return int(d)


def started(value: Decimal, per: Decimal = Decimal(1)) -> int:
    """Periods begun: 2.1 hours -> 3 ("each hour or part thereof")."""
    return int((value / per).to_integral_value(rounding=ROUND_CEILING))


def clamp(units: Decimal, low: Decimal | None, high: Decimal | None) -> Decimal:
    if low is not None and units < low:
        return low
    if high is not None and units > high:
        return high
    return units


def check_options(route: str, given: dict[str, object], known: tuple[str, ...]) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise FeeError(f"unknown option{'s' if len(unknown) > 1 else ''} for {route}: {', '.join(unknown)}"
                       + (f"; options: {', '.join(known)}" if known else "; this route takes no options"))


class Period(NamedTuple):
    """A base schedule as generated: in force from ``start`` until ``end`` (exclusive, None = open)."""

    start: _dt.date
    end: _dt.date | None
    fee: Callable[[Decimal], tuple[Decimal, str, str]]  # units -> (exact fee, bracket as written, formula)
    citation: str
    min_units: Decimal | None
    max_units: Decimal | None
    notes: tuple[str, ...]
    text: int  # which source text it comes from (selects what comes with it)
    unmeasured: str = ""  # the provision charging a vessel without measurements the maximum, if its text has one
    # a start known only between bounds: the first day it may be in force (``start`` is the day it certainly
    # is), and on what that rests
    possible_from: _dt.date | None = None
    uncertain: str = ""
    where: Where | None = None  # for traces: the provision, its dates and pages
    words: tuple[Words, ...] = ()  # for traces: the words of its minimum and maximum units
    brackets: tuple[BracketWords, ...] = ()  # for traces: each bracket's range and the words of its numbers


def unmeasured_units(p: Period) -> Decimal:
    """``measurements_provided=False``: the units of "the maximum pilotage charge" — the schedule's
    maximum — where the schedule's text says so; a FeeError naming what the law leaves open otherwise."""
    if not p.unmeasured:
        raise FeeError(f"measurements_provided=False: the text {p.citation} comes from says nothing of a vessel whose "
                       "measurements are not provided (the corpus may lack the provision that does); give units= "
                       "or the vessel's dimensions")
    if p.max_units is None:
        raise FeeError(f"measurements_provided=False: {p.unmeasured} subjects the vessel to the maximum pilotage "
                       f"charge, but {p.citation} states no maximum, so the law fixes no amount")
    return p.max_units


def vessel_or_unmeasured(measurements_provided: object, units: object, length_ft: object, breadth_ft: object,
                         depth_ft: object) -> Decimal | None:
    """The vessel's pilotage units, or None for "measurements not provided" (the maximum charge)."""
    if measurements_provided is True:
        return vessel_units(units, length_ft, breadth_ft, depth_ft)
    if measurements_provided is not False:
        raise FeeError(f"measurements_provided must be True or False, not {measurements_provided!r}")
    if any(x is not None for x in (units, length_ft, breadth_ft, depth_ft)):
        raise FeeError("measurements_provided=False: give no units or dimensions (the law charges the maximum)")
    return None


def period(periods: tuple[Period, ...], on: _dt.date, no_schedule: str) -> Period:
    for p in periods:
        if p.start <= on and (p.end is None or on < p.end):
            return p
    raise FeeError(no_schedule.format(on=on.isoformat()))


def in_force(since: _dt.date, on: _dt.date, option: str, citation: str) -> None:
    if on < since:
        raise FeeError(f"{option}: {citation} is not in force on {on.isoformat()} (in force from {since.isoformat()})")


def percent_of(base: Decimal, percent: Decimal) -> Decimal:
    return cents(base * percent / 100)


def hourly_percent(hours: Decimal, percent: Decimal, maximum: Decimal | None, per_day_cap: bool) -> tuple[Decimal, str]:
    """Total percentage for ``hours`` at ``percent`` per hour or part thereof, capped at ``maximum``
    overall or, with ``per_day_cap``, for each 24-hour period; and how it was reached."""
    if maximum is not None and per_day_cap:
        full = int(hours // 24)
        rest = hours - 24 * full
        total = full * min(24 * percent, maximum) + (min(started(rest) * percent, maximum) if rest else Decimal(0))
        return total, f"{percent}% per hour, at most {maximum}% per 24 hours"
    n = started(hours)
    total = percent * n
    how = f"{percent}% × {n} hour(s)"
    if maximum is not None and total > maximum:
        return maximum, how + f", capped at {maximum}%"
    return total, how


def _given(value: object) -> bool:
    return value is not None and value is not False and not (isinstance(value, (int, Decimal)) and value == 0) \
        and value != [] and value != ()


def exclusive(options: dict[str, object], conflicts: tuple[tuple[str, str, str], ...],
              beside: tuple[tuple[str, str, str], ...], notes: list[str]) -> None:
    """Options the law makes impossible together are a FeeError naming both and why; options charged
    together on a reading (``beside``) add that reading to the notes."""
    given = {k for k, v in options.items() if _given(v)}
    if len(given) < 2:
        return
    for a, b, why in conflicts:
        if a in given and b in given:
            raise FeeError(f"{a} and {b} cannot both be charged: {why}")
    for a, b, note in beside:
        if a in given and b in given:
            notes.append(note)
