"""Typed tariff objects: every rate table and fee schedule of the corpus, dated and cited.

Each object says what it charges (brackets, a per-unit rate, a percentage of another charge, a time
fee, an amount left to a board …), for which route, from which provision (id and citation), in which
date range, with which status, and where each number was read: every :class:`Amount` carries a
:class:`Source` whose raw-file offsets slice exactly the characters it came from.

``evaluate_*`` functions compute fees straight from these objects. They are the reference the
generated ``navlaw_fees`` module is checked against (tests/test_fees_property.py), written for
clarity, not speed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Union

from navlaw.model.formula import Bin, Expr, Neg, Num, Units, describe, evaluate


@dataclass(frozen=True)
class Source:
    """Where a value was read: raw-file offsets [start, end), 1-based line:column, the raw characters."""

    file: str
    start: int
    end: int
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class Amount:
    value: Decimal
    source: Source


@dataclass(frozen=True)
class Effective:
    """From when (inclusive) to when (exclusive) a tariff is law. ``None`` = not established."""

    start: dt.date | None
    end: dt.date | None
    start_basis: str  # how the start is known: "text", "anchor", "manifest", "unresolved", "open"
    start_phrase: str  # the words it was read from, or why it is unresolved
    end_basis: str = "open"  # "text", "successor", "unresolved", "open" (no end)
    end_phrase: str = ""
    confidence: str = "verified"
    source: Source | None = None  # the phrase in the law text, when there is one
    # A start known only between bounds (an act or anchor the manifest dates "after … by …"): ``start`` is
    # the day from which the schedule is certainly in force, ``start_from`` the first day it may be, and
    # ``uncertain`` says on what that rests. ``end_from``: the first day it may already have ended.
    start_from: dt.date | None = None
    end_from: dt.date | None = None
    uncertain: str = ""
    act: str = ""  # the amending act whose text states the tariff ("A.8982-A of 2024"); "" for the law's own text

    def cited(self, citation: str) -> str:
        """How a quote cites the tariff: its provision, and the act that gave it this text."""
        return f"{citation}, as amended by {self.act}" if self.act else citation

    def possibly(self, day: dt.date) -> bool:
        """In force on ``day`` if a date known only between bounds came early enough, not certainly."""
        return (self.start_from is not None and self.start is not None and self.start_from <= day < self.start
                and (self.end is None or day < self.end))

    def start_words(self) -> str:
        if self.start_from is None:
            return str(self.start)
        return f"between {self.start_from - dt.timedelta(days=1)} and {self.start}"

    def contains(self, day: dt.date) -> bool | None:
        """True/False, or None when an unresolved bound makes it unknowable."""
        if self.start is None and self.start_basis == "unresolved":
            if self.end is not None and day >= self.end:
                return False
            return None
        if self.start is not None and day < self.start:
            return False
        if self.end is None:
            return None if self.end_basis == "unresolved" else True
        return day < self.end


@dataclass(frozen=True)
class Bracket:
    """One row of a bracket table. ``low``/``high`` with inclusivity; ``high=None`` = no upper bound."""

    low: Decimal
    high: Decimal | None
    low_inclusive: bool
    high_inclusive: bool
    fee: Expr  # in terms of the units (pilotage units, tons burden …)
    written: str  # the range as written: "0 to 24.99"
    formula_written: str  # the fee as written: "$((P.U. - 500) x 1.57) + 5860"
    amounts: tuple[Amount, ...]  # every number of the fee, with its source
    source: Source  # the range cell
    reading: str = ""  # a named interpretation applied to this bracket (shown in notes and lint)

    def contains(self, units: Decimal) -> bool:
        above = units >= self.low if self.low_inclusive else units > self.low
        if not above:
            return False
        if self.high is None:
            return True
        return units <= self.high if self.high_inclusive else units < self.high

    @property
    def formula(self) -> str:
        return describe(self.fee)


@dataclass(frozen=True)
class Tariff:
    id: str  # stable: "<route or topic>/<provision id>[/<part>]"
    kind: str
    route: str  # a route of the manifest's [[route]] table, a family of routes ("hudson"), or "" (none)
    series: str  # schedules that follow one another in time share a series ("sandy-hook/base")
    title: str
    provision: str
    citation: str
    file: str
    effective: Effective
    status: str  # in-force | proposed | adopted | superseded
    notes: tuple[str, ...]


@dataclass(frozen=True)
class BracketSchedule(Tariff):
    """Contiguous brackets of units, each with a flat amount or a formula; optional unit clamp."""

    brackets: tuple[Bracket, ...] = ()
    unit_name: str = "pilotage units"
    min_units: Amount | None = None  # "minimum charge calculated on 200 pilotage units"
    max_units: Amount | None = None  # "maximum charge of up to 500 pilotage units"
    # the sentence of the same text that charges a vessel whose measurements are not provided the
    # maximum ("Failure to provide the measurements so required shall subject vessel to the maximum
    # pilotage charge"): its citation, or "" when the text says nothing of it
    unmeasured: str = ""

    def fee(self, units: Decimal) -> Decimal:
        """The exact (unrounded) fee for ``units`` after clamping."""
        u = clamp(units, self.min_units, self.max_units)
        for b in self.brackets:
            if b.contains(u):
                return evaluate(b.fee, u)
        raise ValueError(f"{units} {self.unit_name} falls in no bracket of {self.citation}")

    def bracket_for(self, units: Decimal) -> Bracket | None:
        u = clamp(units, self.min_units, self.max_units)
        return next((b for b in self.brackets if b.contains(u)), None)


@dataclass(frozen=True)
class PerUnitFee(Tariff):
    """A rate per pilotage unit with unit bounds (the § 55.2 launch and pilot-transport fees)."""

    rate: Amount | None = None
    min_units: Amount | None = None
    max_units: Amount | None = None
    option: str = ""  # the quote option that charges it
    choice: str = ""  # the option value that selects it ("yonkers-pilot-station")
    reading: str = ""  # the interpretation a charged line applies, for the quote's notes


@dataclass(frozen=True)
class Percentage(Tariff):
    """A percentage of another charge ("7.5% of the calculated fee", "25 percent of the Zone 2 base rate")."""

    percent: Amount | None = None
    of: str = ""  # "calculated-fee" | "regular-fee" | "base-rate" (the base rate of the route ``of_words`` select)
    per: str = ""  # "" (once) | "hour" | "24 hours"
    max_percent: Amount | None = None
    option: str = ""
    choice: str = ""
    max_per: str = ""  # "" (the whole charge) | "24 hours" ("maximum of 35 percent for each 24 hour period")
    free_hours: int = 0  # hours that cost nothing: "used within one hour, no charge"; "more than one hour later"
    free_reason: str = ""  # why, for the quote's note: "the vessel is not more than one hour later than …"
    reading: str = ""  # the interpretation a charged line applies, for the quote's notes
    instead_of_pilotage: str = ""  # the words that make it the whole charge ("dismissed without rendering services")
    of_words: str = ""  # of="base-rate": the words naming the route, as the text writes them (a route's selector)
    service: str = ""  # the words by which it pays for an act of pilotage ("docking", "shift"): none without pilotage


def of_what(t: Percentage) -> str:
    """What a percentage is of, in words: "the calculated fee", "the Zone 2 Base Rate" (the text's words)."""
    if t.of == "base-rate":
        return f"the {t.of_words} Base Rate"
    return {"calculated-fee": "the calculated fee", "regular-fee": "the regular pilotage fee"}.get(t.of, t.of)


@dataclass(frozen=True)
class FractionOfRate(Tariff):
    """A fraction of the statutory rate instead of it (§ 89-b(4)(b)(4): two-thirds under 25 miles)."""

    numerator: int = 0
    denominator: int = 1
    fraction_source: Source | None = None  # where "two-thirds" is written
    condition_miles: Amount | None = None  # applies when piloted for less than this many miles
    option: str = ""


@dataclass(frozen=True)
class TimeFee(Tariff):
    """A fixed amount per hour or per day (§ 89-b: $25 an hour detained, $200 a day carried off)."""

    amount: Amount | None = None
    per: str = "hour"  # "hour" | "day"
    after: Amount | None = None  # charged only when the time exceeds this ("for more than two hours")
    part_counts: bool = False  # "per hour or fraction thereof"
    option: str = ""


@dataclass(frozen=True)
class FlatFee(Tariff):
    """A fixed amount (the superseded § 55.2 dollar fees, § 65 fees …)."""

    amount: Amount | None = None
    condition: str = ""


@dataclass(frozen=True)
class BoardSet(Tariff):
    """A fee the law creates but whose amount a board sets: known to exist, amount not in the text."""

    who: str = ""
    cap: Amount | None = None  # "not to exceed three hundred dollars per ship"
    cap_unit: str = ""
    option: str = ""  # the quote option by which a caller enters the amount the board set ("" for none)


@dataclass(frozen=True)
class Penalty(Tariff):
    """A fine, forfeiture or civil penalty stated in dollars (the penalty index)."""

    amount: Amount | None = None
    bound: str = ""  # "max" ("not exceeding"), "min" ("not less than"), "fixed"
    phrase: str = ""


AnyTariff = Union[BracketSchedule, PerUnitFee, Percentage, FractionOfRate, TimeFee, FlatFee, BoardSet, Penalty]


def clamp(units: Decimal, lo: Amount | None, hi: Amount | None) -> Decimal:
    """Units within a schedule's minimum and maximum: the rule the fee module applies (navlaw/runtime.py's
    ``clamp``, which the generated module carries and so cannot import the model; tests/test_fees_property.py
    checks the two agree on every route)."""
    if lo is not None and units < lo.value:
        return lo.value
    if hi is not None and units > hi.value:
        return hi.value
    return units


# ---- JSON -------------------------------------------------------------------------------------------

_LEAVES = frozenset((str, int, bool, float, type(None)))  # most of a tariff's fields: returned as they are


_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, looked up once per class


def _names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_CONVERT: dict[type, Callable[[Any], Any]] = {}  # a value's type -> how ``_plain`` makes its JSON, decided once


def _plain(x: Any) -> Any:
    """``x`` as JSON values: a Decimal as its digits, a date in ISO form, a formula in words, a dataclass as a
    dict of its fields (a tariff's kind first; a bracket's formula in words last, for its ``fee``)."""
    cls = type(x)
    if cls in _LEAVES:
        return x
    convert = _CONVERT.get(cls)
    if convert is None:
        convert = _CONVERT[cls] = _converter(cls)
    return convert(x)


def _seq(x: Any) -> list[Any]:
    return [v if type(v) in _LEAVES else _plain(v) for v in x]


def _record(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    def record(x: Any) -> dict[str, Any]:
        d = {}
        for name in names:
            v = getattr(x, name)
            d[name] = v if type(v) in _LEAVES else _plain(v)
        return d
    return record


def _converter(cls: type) -> Callable[[Any], Any]:
    """How ``_plain`` turns a value of ``cls`` into JSON values (in the order of the checks the JSON was
    first defined by: a list or tuple, a Decimal, a date, a bracket, a formula, any other dataclass)."""
    if cls is tuple or cls is list:
        return _seq
    if issubclass(cls, Decimal):
        return str
    if issubclass(cls, dt.date):
        return cls.isoformat
    if issubclass(cls, Bracket):
        fields = _record(tuple(n for n in _names(cls) if n != "fee"))
        return lambda x: {**fields(x), "formula": x.formula}
    if dataclasses.is_dataclass(cls):
        if issubclass(cls, (Num, Units, Bin, Neg)):
            return describe
        names = _names(cls)
        return _record(("kind", *(n for n in names if n != "kind")) if issubclass(cls, Tariff) else names)
    if issubclass(cls, (list, tuple)):
        return _seq
    return lambda x: x


def to_json(t: Tariff) -> dict[str, Any]:
    out: dict[str, Any] = _plain(t)
    return out


def fields_json(t: Tariff, names: tuple[str, ...]) -> dict[str, Any]:
    """``{n: to_json(t)[n] for n in names}`` for fields of ``t`` (and its kind), without the rest of its JSON."""
    return {n: t.kind if n == "kind" else _plain(getattr(t, n)) for n in names}


def amounts(t: Tariff) -> list[Amount]:
    """Every amount the tariff was read from, in the order of its fields (for the source-position test and the
    site)."""
    out: list[Amount] = []
    _walk(t, out)
    return out


# values that hold no Amount, by their definitions: a Source is its file, offsets and words, a formula's nodes
# are numbers (a Decimal and its offsets in the cell), units and operations of formulas
_NO_AMOUNT = frozenset((str, int, bool, float, type(None), Decimal, dt.date, Source, Num, Units, Bin, Neg))


def _walk(x: Any, out: list[Amount]) -> None:
    cls = type(x)
    if cls in _NO_AMOUNT:
        return
    if cls is Amount or isinstance(x, Amount):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _walk(v, out)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        for name in _names(cls):
            _walk(getattr(x, name), out)
