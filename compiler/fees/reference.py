"""The reference evaluator: a quote computed directly from the fee plans (compiler/fees/plans.py), with
the same lines and notes as the generated module — the property tests hold the two equal."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Callable

from navlaw.fees.plans import (board_refusal, ROUNDED_BASE, Option, Plan, board_line_words, instead_note,
                                 established, label_for, one_person_note)
from navlaw.runtime import (FeeError, Line, Period, Quote, board_amount, cents, check_options, choice, exclusive,
                              choices as choose_many, clamp, day, flag, number, occurrences, started, times,
                              undecided, unmeasured_units, vessel_or_unmeasured, whole)
from navlaw.model.formula import describe
from navlaw.model.tariffs import Amount, AnyTariff, Bracket, BracketSchedule, FractionOfRate, Percentage, PerUnitFee, TimeFee
from navlaw.model.tariffs import clamp as clamp_amounts


def amount_of(a: Amount | None) -> Decimal:
    """The value of an amount a form always reads for its kind of fee (a percentage's percent, a rate)."""
    assert a is not None, "a fee without its amount"
    return a.value


def _pct_line(t: Percentage, base_amount: Decimal, hours: Decimal | None) -> tuple[Decimal, str]:
    """Percent of ``base_amount`` (already rounded), per hour / per 24 hours with the maximum; the
    percentage applied and how it was reached."""
    pct = amount_of(t.percent)
    mx = t.max_percent.value if t.max_percent else None
    if hours is None:
        total = pct
        how = f"{pct}%"
    elif t.per == "24 hours":
        n = started(hours, Decimal(24))
        total = pct * n
        how = f"{pct}% × {n} period(s) of 24 hours"
    elif mx is not None and t.max_per == "24 hours":
        full = int(hours // 24)
        rest = hours - 24 * full
        total = full * min(24 * pct, mx) + (min(started(rest) * pct, mx) if rest else Decimal(0))
        how = f"{pct}% per hour, at most {mx}% per 24 hours"
    else:
        n = started(hours)
        total = pct * n
        how = f"{pct}% × {n} hour(s)"
        if mx is not None and total > mx:
            total = mx
            how += f", capped at {mx}%"
    return cents(base_amount * total / 100), how


def reference_quote(plans: dict[str, Plan], route: str, *, units: object = None, length_ft: object = None,
                    breadth_ft: object = None, depth_ft: object = None, on: object = None,
                    measurements_provided: object = True, **options: object) -> Quote:
    if not isinstance(route, str) or route not in plans:
        raise FeeError(f"unknown route {route!r}; routes: {', '.join(plans)}")
    plan = plans[route]
    given = vessel_or_unmeasured(measurements_provided, units, length_ft, breadth_ft, depth_ft)
    when = day(on)
    check_options(route, options, tuple(o.name for o in plan.options))
    base = plan.schedule_on(when)
    q = _quote_on(plan, route, base, given, when, options)
    # schedules whose start is known only between bounds and may already be in force: both amounts
    others = [s for s in established(plan) if s is not base and s.effective.possibly(when)]
    if not others:
        return q
    return undecided(q, tuple((_as_period(s), _quote_on(plan, route, s, given, when, options)) for s in others))


def _as_period(s: BracketSchedule) -> Period:
    e = s.effective
    return Period(e.start or dt.date.min, e.end, lambda x: (x, "", ""), e.cited(s.citation), None, None, (), 0, "",
                  e.start_from, e.uncertain)


def _quote_on(plan: Plan, route: str, base: BracketSchedule, given: Decimal | None, when: dt.date,
              options: dict[str, object]) -> Quote:
    lines: list[Line] = []
    notes: list[str] = list(base.notes)
    extras = plan.with_base.get(plan.group.get(base.id, ""), ())
    notes.extend(n for t in extras if isinstance(t, Percentage) and t.of == "calculated-fee" for n in t.notes)
    notes.extend(plan.notes_with_base.get(plan.group.get(base.id, ""), ()))
    if given is None:
        u = unmeasured_units(Period(base.effective.start or when, base.effective.end, lambda x: (x, "", ""), base.effective.cited(base.citation),
                                    base.min_units.value if base.min_units else None,
                                    base.max_units.value if base.max_units else None, (), 0, base.unmeasured))
        notes.append(f"Measurements not provided: the maximum pilotage charge, on {u} pilotage units ({base.unmeasured}).")
    else:
        u = given
    used = clamp_amounts(u, base.min_units, base.max_units)
    if used != u:
        notes.append(f"Charged on {used} pilotage units: the {'minimum' if used > u else 'maximum'} of {base.effective.cited(base.citation)}.")
    if options:
        exclusive(options, plan.conflicts, plan.beside, notes)
    notes.extend(n for opt, n in plan.notes_unless.get(plan.group.get(base.id, ""), ()) if opt not in options)
    bracket = base.bracket_for(u)
    if bracket is None:
        raise FeeError(f"{u} pilotage units fall in no bracket of {base.citation}")
    base_amount = cents(base.fee(u))
    fraction = next((t for t in extras if isinstance(t, FractionOfRate)), None)
    by_miles = next((o.name for o in plan.options if o.kind == "miles"), "")
    miles = options.get(by_miles) if by_miles else None
    if miles is not None and fraction is not None:
        m = number(miles, by_miles)
        if fraction.condition_miles and m < fraction.condition_miles.value:
            frac_amount = cents(base.fee(u) * fraction.numerator / fraction.denominator)
            lines.append(Line(f"Transporting charge, piloted under {fraction.condition_miles.value} miles: "
                              f"{fraction.numerator}/{fraction.denominator} of {used} PU × {describe(bracket.fee, 'PU')}",
                              frac_amount, fraction.citation))
            notes.extend(fraction.notes)
            base_amount = frac_amount
        else:
            lines.append(_base_line(plan, base, bracket, used, base_amount))
    else:
        lines.append(_base_line(plan, base, bracket, used, base_amount))
    for t in extras:
        if isinstance(t, Percentage) and t.of == "calculated-fee":
            pct = amount_of(t.percent)
            lines.append(Line(f"{pct}% of the calculated fee", cents(base_amount * pct / 100), t.citation))
    lines.extend(_board_lines(plan, plan.group.get(base.id, ""), options, when))
    zone2: Decimal | None = None

    def zone2_amount(words: str) -> Decimal:
        nonlocal zone2
        if zone2 is None:
            z = plan.zone2 if plan.zone2 is not None else plan
            s = z.schedule_on(when)
            zone2 = cents(s.fee(u))
            notes.append(f"\"{words} Base Rate\" read as the {z.title} charge for {u} "
                         f"pilotage units: ${zone2:,} ({s.effective.cited(s.citation)}); the rule does not define it.")
        return zone2

    instead: list[str] = []
    for name in (d.name for d in plan.decls):
        if name not in options:
            continue
        opt = next(o for o in plan.options if o.name == name)
        if opt.kind in ("amount", "miles"):
            continue  # a board's amount, entered: its line comes with the base (_board_lines)
        partner = plan.partner(name)
        if partner and partner in options and flag(options[name], name) and options[partner]:
            t = next(t for t in plan.rule_fees if getattr(t, "option", "") == name)
            notes.append(one_person_note(name, partner, t.citation))
            continue
        for value in _occurrences(opt, options[name]):  # each stop, shift, delay, station on its own
            _option_lines(plan, opt, value, extras, when, u, base_amount, zone2_amount, lines, notes, instead)
    if instead:  # a fee charged instead of the pilotage fee: no pilotage was rendered
        lines.pop(0)
        notes.extend(instead)
    return Quote(route, when, u, tuple(lines), tuple(dict.fromkeys(notes)))


def _base_line(plan: Plan, base: BracketSchedule, bracket: Bracket, used: Decimal, amount: Decimal) -> Line:
    return Line(f"Pilotage: {used} PU, bracket \"{bracket.written}\": {describe(bracket.fee, 'PU')}", amount,
                base.effective.cited(base.citation))


def _occurrences(opt: Option, value: object) -> list[object]:
    """An option's value as the occurrences it stands for: hours of each stop, each shift, each station."""
    if opt.kind == "hours":
        return list(occurrences(value, opt.name))
    if opt.kind == "flag":
        return [True] * (times(value, opt.name) if opt.most > 1 else int(flag(value, opt.name)))
    if opt.kind == "choice":
        return list(choose_many(value, opt.name, opt.choices, opt.most))
    return [value]


def _option_lines(plan: Plan, opt: Option, value: object, extras: tuple[AnyTariff, ...], when: dt.date, u: Decimal,
                  base_amount: Decimal, zone2_amount: Callable[[str], Decimal], lines: list[Line],
                  notes: list[str], instead: list[str]) -> None:
    """The line (and notes) of one occurrence of an option."""
    name = opt.name
    if opt.kind == "flag":
        if not flag(value, name):
            return
    elif opt.kind == "choice":
        value = choice(value, name, opt.choices)
    candidates = [t for t in list(extras) + list(plan.rule_fees)
                  if getattr(t, "option", "") == plan.priced_by(name)
                  and (opt.kind != "choice" or getattr(t, "choice", "") == value)]
    t = candidates[0]
    if t in plan.rule_fees and not t.effective.contains(when):
        raise FeeError(f"{name}: {t.citation} is not in force on {when.isoformat()} (in force from "
                       f"{t.effective.start})")
    label = label_for(plan, name, str(value) if opt.kind == "choice" else "")
    if isinstance(t, Percentage):
        hours = number(value, name, allow_zero=True) if opt.kind == "hours" else None
        if hours is not None and hours == 0:
            return
        if hours is not None and t.free_hours and hours <= t.free_hours:
            reason = t.free_reason or f"within {t.free_hours} hour(s)"
            notes.append(f"{name}: no charge, {reason} ({t.citation}).")
            return
        of = zone2_amount(t.of_words) if t.of == "base-rate" else base_amount
        amount, how = _pct_line(t, of, hours)
        what = f"the {t.of_words} base rate" if t.of == "base-rate" else "the regular pilotage fee"
        lines.append(Line(f"{label}: {how} of {what}", amount, t.citation))
        notes.append(ROUNDED_BASE)
        if t.instead_of_pilotage:
            instead.append(instead_note(name, t))
        if t.reading and hours is not None:
            notes.append(f"{name}: {t.reading} ({t.citation}).")
    elif isinstance(t, PerUnitFee):
        on_units = clamp(u, t.min_units.value if t.min_units else None, t.max_units.value if t.max_units else None)
        rate = amount_of(t.rate)
        lines.append(Line(f"{t.title}: {on_units} PU × ${rate}", cents(on_units * rate), t.citation))
        if t.reading:
            notes.append(f"{name}: {t.reading} ({t.citation}).")
    elif isinstance(t, TimeFee) and t.per == "hour":
        hours = number(value, name, allow_zero=True)
        after = t.after.value if t.after else Decimal(0)
        if hours <= after:
            if hours:
                notes.append(f"{name}: a detention of {after} hours or less is not paid ({t.citation}).")
            return
        n = started(hours) if t.part_counts else int(hours)
        per_hour = amount_of(t.amount)
        lines.append(Line(f"{t.title}: {n} hour(s) × ${per_hour}", cents(n * per_hour), t.citation))
        notes.extend(t.notes)
    elif isinstance(t, TimeFee):
        days = whole(value, name)
        if days:
            per_day = amount_of(t.amount)
            lines.append(Line(f"{t.title}: {days} day(s) × ${per_day}", cents(days * per_day), t.citation))
            notes.extend(n for n in t.notes if n.startswith("Not included"))




def _board_lines(plan: Plan, key: str, options: dict[str, object], when: dt.date) -> list[Line]:
    out = []
    for name in sorted(o.name for o in plan.options if o.kind == "amount"):
        if name not in options:
            continue
        t = next((t for t in plan.board_fees.get(key, ()) if t.option == name), None)
        if t is None:
            raise FeeError(board_refusal(plan, name) + when.isoformat())
        desc, cap_words = board_line_words(t)
        out.append(Line(desc, board_amount(options[name], name, t.cap.value if t.cap else None, cap_words), t.citation))
    return out
