"""Tariff lint: anomalies in the rate schedules a lawyer must see, each at the cell's file:line:col.

- gaps and overlaps between brackets (§ 89-a "up to 100" vs "100 and over" at exactly 100; the
  (1-c)(ii) surcharge's "0 to 50" / "51 to 100");
- a formula whose ``(P.U. - k)`` offset disagrees with its bracket (file 000: "300 to 474.99 … (P.U.-500)");
- jumps at a boundary between two unit-dependent brackets, with their size (§ 88 table (i) at 1650 PU);
- effective ranges of one series that overlap or leave a hole, and dates that stay unresolved.
Unbalanced parentheses are reported where the cell is read (compiler/tariffs/extract.py).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Callable

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model.formula import evaluate, numbers, unit_offsets, uses_units
from navlaw.model.tariffs import AnyTariff, Bracket, BracketSchedule, Percentage, Source, amounts, of_what

RawLine = Callable[[str, int], str]


def _at(src: Source | None, severity: Severity, message: str, code: str, raw_line: RawLine,
        hint: str = "", fallback_file: str = "") -> Diagnostic:
    if src is None:
        return Diagnostic(severity, message, fallback_file, 0, 0, "", code, hint)
    return Diagnostic(severity, message, src.file, src.line, src.column, raw_line(src.file, src.line), code, hint)


def _fmt(x: Decimal) -> str:
    return f"{x:,.2f}"


def _per_unit(b: Bracket) -> bool:
    """Does the fee grow with the units (a FACTOR of 0 makes "0 × P.U. + 455" a flat amount)?"""
    return uses_units(b.fee) and evaluate(b.fee, Decimal(1)) != evaluate(b.fee, Decimal(2))


def _lowest(b: Bracket, t: BracketSchedule) -> Decimal:
    """The least fee a bracket's formula gives over its range (formulas are + − × of units and numbers,
    linear in the units, so the least is at one end; an open end is taken at the 100,000-unit cap)."""
    low = max(b.low, t.min_units.value if t.min_units else b.low)
    high = b.high if b.high is not None else Decimal(100000)
    if t.max_units is not None:
        high = min(high, t.max_units.value)
    return min(evaluate(b.fee, low), evaluate(b.fee, max(high, low)), evaluate(b.fee, (low + max(high, low)) / 2))


def _bracket_checks(t: BracketSchedule, raw_line: RawLine, out: Diagnostics) -> None:
    bs = t.brackets
    for b in bs:
        least = _lowest(b, t)
        if least < 0:
            out.add(_at(b.amounts[0].source if b.amounts else b.source, Severity.ERROR,
                        f"a negative fee in {t.citation}: the bracket \"{b.written}\" gives {_fmt(least)} "
                        f"({b.formula_written})", "tariff-negative", raw_line,
                        "no fee is quoted from it; check the amount against the enacted text"))
        nums = numbers(b.fee)
        for k in unit_offsets(b.fee):
            if k.value != b.low:
                idx = next((i for i, n in enumerate(nums) if n is k), None)
                src = b.amounts[idx].source if idx is not None and idx < len(b.amounts) else b.source
                out.add(_at(src, Severity.WARNING,
                            f"formula offset disagrees with its bracket in {t.citation}: the bracket "
                            f"\"{b.written}\" starts at {b.low} but the formula subtracts {k.value} "
                            f"({b.formula_written})", "tariff-offset", raw_line,
                            "read as written; a lawyer should check the enacted text"))
    for b, n in zip(bs, bs[1:]):
        if b.high is None:
            out.add(_at(n.source, Severity.WARNING, f"bracket \"{n.written}\" follows an open-ended bracket "
                        f"\"{b.written}\" in {t.citation}", "tariff-overlap", raw_line))
            continue
        if b.high < n.low or (b.high == n.low and not b.high_inclusive and not n.low_inclusive):
            out.add(_at(n.source, Severity.WARNING,
                        f"gap between brackets in {t.citation}: \"{b.written}\" ends at {b.high} and "
                        f"\"{n.written}\" starts {'above ' if not n.low_inclusive else 'at '}{n.low}; "
                        f"{t.unit_name} in between fall in no bracket", "tariff-gap", raw_line))
        elif b.high > n.low or (b.high == n.low and b.high_inclusive and n.low_inclusive):
            out.add(_at(n.source, Severity.WARNING,
                        f"brackets overlap in {t.citation}: \"{b.written}\" and \"{n.written}\" both include "
                        f"{n.low}", "tariff-overlap", raw_line))
        if _per_unit(b) and _per_unit(n):
            left, right = evaluate(b.fee, n.low), evaluate(n.fee, n.low)
            if left != right:
                jump = right - left
                # a jump of a few dollars comes from rounding the constants of a table; a note, not a warning
                big = abs(jump) * 1000 > max(abs(left), abs(right))
                out.add(_at(n.source, Severity.WARNING if big else Severity.INFO,
                            f"the fee jumps by {'+' if jump > 0 else '-'}${_fmt(abs(jump))} at {n.low} {t.unit_name} "
                            f"in {t.citation}: \"{b.written}\" gives ${_fmt(left)} there, \"{n.written}\" "
                            f"${_fmt(right)}", "tariff-jump", raw_line))
    for b in bs:
        if b.reading:
            out.add(_at(b.source, Severity.WARNING, f"{t.citation}: {b.reading}", "tariff-interpretation", raw_line))


def _date_checks(tariffs: list[AnyTariff], raw_line: RawLine, out: Diagnostics) -> None:
    undated: dict[str, int] = {}
    for t in tariffs:
        e = t.effective
        if e.start_basis != "unresolved" or t.status == "superseded":
            continue
        if e.source is None and not t.effective.start_phrase.startswith("no date in the text;"):
            undated[t.file] = undated.get(t.file, 0) + 1  # the document has no date at all: one note below
            continue
        where = e.source or next((a.source for a in amounts(t)), None)
        out.add(_at(where, Severity.WARNING, f"unresolved effective date for {t.title}: {e.start_phrase}",
                    "tariff-date", raw_line, "add the anchor or the date to corpus/manifest.toml with its source",
                    fallback_file=t.file))
    for file, n in sorted(undated.items()):
        out.add(Diagnostic(Severity.INFO, f"{n} tariff(s) of this text have no effective date: neither the text nor "
                           "the manifest dates the document", file, code="tariff-date"))
    by_series: dict[str, list[AnyTariff]] = {}
    for t in tariffs:
        if t.status in ("in-force", "adopted") and t.effective.start is not None:
            by_series.setdefault(t.series, []).append(t)
    for series, ts in by_series.items():
        ts.sort(key=lambda t: t.effective.start or dt.date.min)  # every start is known (above)
        for a, b in zip(ts, ts[1:]):
            ea, eb = a.effective, b.effective
            if ea.end is None and ea.end_basis != "unresolved":
                out.add(_at(eb.source, Severity.WARNING, f"two schedules in force at once ({series}): {a.citation} "
                            f"has no end and {b.citation} starts {eb.start}", "tariff-dates-overlap", raw_line,
                            fallback_file=b.file))
            elif ea.end is not None and eb.start is not None and ea.end < eb.start:
                out.add(_at(eb.source, Severity.WARNING, f"no schedule in force ({series}) from {ea.end} to "
                            f"{eb.start}: {a.citation} ends before {b.citation} starts", "tariff-dates-hole",
                            raw_line, fallback_file=b.file))
            elif ea.end is not None and eb.start is not None and ea.end > eb.start:
                out.add(_at(eb.source, Severity.WARNING, f"schedules overlap ({series}): {a.citation} runs to "
                            f"{ea.end}, {b.citation} starts {eb.start}", "tariff-dates-overlap", raw_line,
                            fallback_file=b.file))


def lint(tariffs: list[AnyTariff], raw_line: RawLine) -> Diagnostics:
    out = Diagnostics()
    for t in tariffs:
        huge = [a for a in amounts(t) if a.value.is_finite() and a.value.adjusted() >= 9]
        for a in huge:  # a billion dollars or more is a misprint, and past what a quote can carry exactly
            out.add(_at(a.source, Severity.ERROR, f"an amount of {len(str(a.value.to_integral_value()))} digits in "
                        f"{t.citation} is not a fee navlaw can quote", "tariff-amount", raw_line,
                        "check the amount against the enacted text"))
        if isinstance(t, BracketSchedule) and not huge:
            _bracket_checks(t, raw_line, out)
        reading = getattr(t, "reading", "")
        if reading and t.status != "superseded":  # the reading a quote applies where the text is open
            src = getattr(t, "percent", None)
            out.add(_at(src.source if src is not None else None, Severity.INFO, f"{t.citation}: {reading}",
                        "tariff-interpretation", raw_line, fallback_file=t.file))
    others = sorted((t for t in tariffs if isinstance(t, Percentage) and t.of in ("base-rate", "regular-fee")
                     and t.status != "superseded" and t.percent is not None), key=lambda t: t.of != "base-rate")
    first = next((t for t in tariffs if any(t is o for o in others)), None)
    if isinstance(first, Percentage) and first.percent is not None:  # one reading for every percentage of another charge
        what = ", ".join(dict.fromkeys(of_what(t) for t in others))
        out.add(_at(first.percent.source, Severity.INFO, f"percentages of another charge ({what}) "
                    "are taken of it as rounded to cents, and each line is rounded once (an "
                    "interpretation: the texts do not say whether of the exact or the rounded amount)",
                    "tariff-interpretation", raw_line))
    _date_checks(tariffs, raw_line, out)
    return out

