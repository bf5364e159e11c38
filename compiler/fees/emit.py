"""The pieces of code the generator emits: the module's named constants (:class:`Module`), and the lines
of each quote option (:func:`option_block`): validate the caller's value, then one line per tariff that
prices it, as the reference evaluator (compiler/fees/reference.py) computes it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from navlaw.fees.names import V, comment, ident, ident_plain, pystr, text
from navlaw.fees.plans import ROUNDED_BASE, Option, Plan, instead_note, label_for, one_person_note
from navlaw.fees.trace_gen import Traces, fmt_literal, work
from navlaw.model.tariffs import AnyTariff, Percentage, PerUnitFee, TimeFee


@dataclass
class Module:
    """Constants and code lines collected while rendering; names are unique and sorted for output."""

    constants: dict[str, str] = field(default_factory=dict)  # name -> python expression
    comments: dict[str, str] = field(default_factory=dict)
    traces: Traces = field(default_factory=lambda: Traces([]))  # the law's words and the fees' provisions
    own: str = "law"  # how constants name the corpus's own chapter: its key in the table of codes ("nav")

    def ident(self, provision: str) -> str:
        """A constant's prefix for a provision id (compiler/fees/names.py's ident)."""
        return ident(provision, self.own)

    def const(self, name: str, value: Decimal | dt.date | None, note: str = "") -> str:
        if value is None:
            return "None"
        expr = (f"_date({value.year}, {value.month}, {value.day})" if isinstance(value, dt.date)
                else f'Decimal("{value}")')
        base, n = name, 1
        while name in self.constants and self.constants[name] != expr:  # two texts of one provision differ
            n += 1  # ``name_2``, … as trace_gen.Traces names the law's words of each
            name = f"{base}_{n}"
        self.constants[name] = expr
        if note:
            self.comments[name] = comment(note)
        return name


def option_block(mod: Module, plan: Plan, texts: dict[str, int], opt: Option) -> list[str]:
    """Code for one option: validate the value, then one line per matching tariff."""
    name = opt.name
    tariffs = list(dict.fromkeys(t for ts in plan.with_base.values() for t in ts if getattr(t, "option", "") == name)) + \
        [t for t in plan.rule_fees if getattr(t, "option", "") == plan.priced_by(name)]
    out, indent = _value_lines(plan, opt, tariffs)
    body: list[str] = []
    for t in tariffs:
        choice = getattr(t, "choice", "")
        pre = mod.ident(t.provision) + "_" + ident_plain(name) + (f"_{ident_plain(choice)}" if choice else "")
        guard = ""
        if t in plan.rule_fees:
            since = mod.const(f"{pre}_IN_FORCE_FROM", t.effective.start)
            body.append(f"in_force({since}, on, {pystr(name)}, {pystr(t.citation)})")
        else:
            where = tuple(i for key, i in texts.items() if t in plan.with_base[key])
            guard = f"p.text == {where[0]}" if len(where) == 1 else f"p.text in {where}"
        lines = _tariff_lines(mod, plan, opt, t, pre)
        if guard:
            body.append(f"if {guard}:")
            body += ["    " + x for x in lines]
        else:
            body += lines
    return out + [indent + x for x in body]


def _value_lines(plan: Plan, opt: Option, tariffs: list[AnyTariff]) -> tuple[list[str], str]:
    """The lines that read the caller's value for ``opt``, and the indent of the lines that charge it."""
    name = opt.name
    out = [f"value = options.get({pystr(name)})"]
    partner = plan.partner(name)
    if partner and tariffs:  # the same person priced twice: charged once
        out += [f"if value is not None and flag(value, {pystr(name)}) and options.get({pystr(partner)}):",
                f"    notes.append({pystr(one_person_note(name, partner, tariffs[0].citation))})",
                "    value = None"]
    if opt.kind == "flag" and opt.most > 1:  # each shift, each anchoring
        return out + ["if value is not None:", f"    for _ in range(times(value, {pystr(name)})):"], "        "
    if opt.kind == "flag":
        return out + [f"if value is not None and flag(value, {pystr(name)}):"], "    "
    if opt.kind == "choice" and opt.most > 1:  # each launch station the route pays
        return out + ["if value is not None:",
                      f"    for value in choices(value, {pystr(name)}, {opt.choices!r}, {opt.most}):"], "        "
    if opt.kind == "choice":
        return out + ["if value is not None:", f"    value = choice(value, {pystr(name)}, {opt.choices!r})"], "    "
    if opt.kind == "hours":  # each stop, each delay: its own hours and its own maximum
        return out + ["if value is not None:", f"    for amount_of in occurrences(value, {pystr(name)}):"], "        "
    if opt.kind == "miles":
        return out + ["if value is not None:", f"    amount_of = number(value, {pystr(name)}, allow_zero=False)"], "    "
    return out + ["if value is not None:", f"    days = whole(value, {pystr(name)})"], "    "


def _tariff_lines(mod: Module, plan: Plan, opt: Option, t: AnyTariff, pre: str) -> list[str]:
    """The lines that charge one tariff of the option (the value read, inside its loop or test)."""
    if isinstance(t, Percentage):
        if opt.kind == "hours" and t.per == "24 hours":
            return _per_day_percentage(mod, plan, opt, t, pre)
        if opt.kind == "hours":
            return _hourly_percentage(mod, plan, opt, t, pre)
        return _percentage(mod, plan, opt, t, pre)
    if isinstance(t, PerUnitFee):
        return _per_unit(mod, opt, t, pre)
    if isinstance(t, TimeFee) and t.per == "hour":
        return _hourly_time(mod, opt, t, pre)
    if isinstance(t, TimeFee):
        return _daily_time(mod, t, pre)
    return []


def _of(plan: Plan, opt: Option, t: Percentage) -> tuple[str, str, str, Decimal]:
    """What a percentage is taken of (the code, its words), the line's label, and the percent."""
    assert t.percent is not None
    of = "zone2()" if t.of == "base-rate" else "base"
    what = f"the {t.of_words} base rate" if t.of == "base-rate" else "the regular pilotage fee"
    return of, what, label_for(plan, opt.name, t.choice), t.percent.value


def _per_day_percentage(mod: Module, plan: Plan, opt: Option, t: Percentage, pre: str) -> list[str]:
    of, what, desc, percent = _of(plan, opt, t)
    pct = mod.const(f"{pre}_PERCENT", percent, t.title)
    return ["periods = started(amount_of, HOURS_PER_DAY)",
            "if periods:",
            f"    lines.append(Line({text(f'{desc}: {percent}% × ', V('periods'), f' period(s) of 24 hours of {what}')}, "
            f"percent_of((of_ := {of}), {pct} * periods), {pystr(t.citation)}, "
            + work(["{1} × {2} × {3} / 100", "{4} hours: {3} period(s) of 24 hours begun",
                    "{2}% × {3} of " + fmt_literal(what) + " (${1})"],
                   [f"of_ * {pct} * periods / 100", "of_", pct, "periods", "amount_of"],
                   mod.traces.words(pre, [("percentage", t.percent)]), mod.traces.where(pre, t)) + "))",
            f"    notes.append({pystr(ROUNDED_BASE)})"]


def _hourly_percentage(mod: Module, plan: Plan, opt: Option, t: Percentage, pre: str) -> list[str]:
    of, what, desc, percent = _of(plan, opt, t)
    name = opt.name
    pct = mod.const(f"{pre}_PERCENT", percent, t.title)
    mx = mod.const(f"{pre}_MAX_PERCENT", t.max_percent.value) if t.max_percent else "None"
    lines: list[str] = []
    if t.free_hours:
        free_c = mod.const(f"{pre}_FREE_HOURS", Decimal(t.free_hours))
        reason = t.free_reason or f"within {t.free_hours} hour(s)"
        lines += [f"if amount_of and amount_of <= {free_c}:",
                  f"    notes.append({pystr(f'{name}: no charge, {reason} ({t.citation}).')})",
                  "elif amount_of:"]
    else:
        lines += ["if amount_of:"]
    free = "    "
    lines += [f"{free}total, how = hourly_percent(amount_of, {pct}, {mx}, {t.max_per == '24 hours'})",
              f"{free}lines.append(Line({text(f'{desc}: ', V('how'), f' of {what}')}, percent_of((of_ := {of}), total), "
              f"{pystr(t.citation)}, "
              + work(["{1} × {2} / 100", "{4} hour(s): {3} = {2}%", "{2}% of " + fmt_literal(what) + " (${1})"],
                     ["of_ * total / 100", "of_", "total", "how", "amount_of"],
                     mod.traces.words(pre, [("percentage per hour", t.percent), ("maximum percentage", t.max_percent)]),
                     mod.traces.where(pre, t)) + "))",
              f"{free}notes.append({pystr(ROUNDED_BASE)})"]
    if t.reading:
        lines += [f"{free}notes.append({pystr(f'{name}: {t.reading} ({t.citation}).')})"]
    return lines


def _percentage(mod: Module, plan: Plan, opt: Option, t: Percentage, pre: str) -> list[str]:
    of, what, desc, percent = _of(plan, opt, t)
    pct = mod.const(f"{pre}_PERCENT", percent, t.title)
    cond = f"if value == {pystr(t.choice)}:" if opt.kind == "choice" else ""
    line = [f"lines.append(Line({pystr(f'{desc}: {percent}% of {what}')}, "
            f"percent_of((of_ := {of}), {pct}), {pystr(t.citation)}, "
            + work(["{1} × {2} / 100", "{2}% of " + fmt_literal(what) + " (${1})"], [f"of_ * {pct} / 100", "of_", pct],
                   mod.traces.words(pre, [("percentage", t.percent)]), mod.traces.where(pre, t)) + "))",
            f"notes.append({pystr(ROUNDED_BASE)})"]
    if t.instead_of_pilotage:
        line.append(f"instead.append({pystr(instead_note(opt.name, t))})")
    return [cond] + ["    " + x for x in line] if cond else line


def _per_unit(mod: Module, opt: Option, t: PerUnitFee, pre: str) -> list[str]:
    assert t.rate is not None
    rate = mod.const(f"{pre}_RATE", t.rate.value, t.title)
    lo = mod.const(f"{pre}_MIN_UNITS", t.min_units.value) if t.min_units else "None"
    hi = mod.const(f"{pre}_MAX_UNITS", t.max_units.value) if t.max_units else "None"
    lines = [f"if value == {pystr(t.choice)}:",
             f"    on_units = clamp(u, {lo}, {hi})",
             f"    lines.append(Line({text(f'{t.title}: ', V('on_units'), f' PU × ${t.rate.value}')}, cents(on_units * {rate}), "
             f"{pystr(t.citation)}, "
             + work(["{1} × {2}", "the vessel's {3} PU, charged on {1} PU (this fee's units: "
                                  f"{t.min_units.value if t.min_units else 'no minimum'} to "
                                  f"{t.max_units.value if t.max_units else 'no maximum'})"],
                    [f"on_units * {rate}", "on_units", rate, "u"],
                    mod.traces.words(pre, [("rate per pilotage unit", t.rate), ("minimum units", t.min_units),
                                           ("maximum units", t.max_units)]), mod.traces.where(pre, t)) + "))"]
    if t.reading:
        lines += [f"    notes.append({pystr(f'{opt.name}: {t.reading} ({t.citation}).')})"]
    return lines


def _hourly_time(mod: Module, opt: Option, t: TimeFee, pre: str) -> list[str]:
    assert t.amount is not None
    amount = mod.const(f"{pre}_PER_HOUR", t.amount.value)
    unpaid = t.after.value if t.after else Decimal(0)
    after = mod.const(f"{pre}_UNPAID_HOURS", unpaid)
    count = "started(amount_of)" if t.part_counts else "int(amount_of)"
    shown = t.after.value if t.after else 0
    lines = [f"if amount_of <= {after}:",
             "    if amount_of:",
             f"        notes.append({pystr(f'{opt.name}: a detention of {shown} hours or less is not paid ({t.citation}).')})",
             "else:",
             f"    hours = {count}",
             f"    lines.append(Line({text(f'{t.title}: ', V('hours'), f' hour(s) × ${t.amount.value}')}, cents(hours * {amount}), "
             f"{pystr(t.citation)}, "
             + work(["{1} × {2}", f"{{3}} hours, more than {shown}: {{1}} hour(s) "
                                  f"charged{', a part of an hour as an hour' if t.part_counts else ''}"],
                    [f"hours * {amount}", "hours", amount, "amount_of"],
                    mod.traces.words(pre, [("amount per hour", t.amount), ("hours not paid", t.after)]),
                    mod.traces.where(pre, t)) + "))"]
    return lines + [f"    notes.append({pystr(n)})" for n in t.notes]


def _daily_time(mod: Module, t: TimeFee, pre: str) -> list[str]:
    assert t.amount is not None
    amount = mod.const(f"{pre}_PER_DAY", t.amount.value)
    lines = ["if days:",
             f"    lines.append(Line({text(f'{t.title}: ', V('days'), f' day(s) × ${t.amount.value}')}, cents(days * {amount}), "
             f"{pystr(t.citation)}, "
             + work(["{1} × {2}", "{1} whole day(s) × ${2}"], [f"days * {amount}", "days", amount],
                    mod.traces.words(pre, [("amount per day", t.amount)]), mod.traces.where(pre, t)) + "))"]
    return lines + [f"    notes.append({pystr(n)})" for n in t.notes if n.startswith("Not included")]
