"""Generates the ``navlaw_fees`` package from the fee plans: Jinja2 templates in compiler/templates/.

The output is straight-line Python: a named ``Decimal`` constant for every number of the law (named
after its provision), one function per schedule with a docstring citing it, one quote function per
route. Numbers reach the code only through :func:`navlaw.model.formula.to_python` (numbers, the units
variable, + - ×) and ``repr()`` of strings, so nothing from the corpus is ever emitted as code.
Output is deterministic: same corpus, same bytes.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from navlaw import resources
from navlaw.cache import jinja_bytecode
from navlaw.fees.emit import Module, option_block
from navlaw.model import codes
from navlaw.fees.names import V, comment, constant_roles, docstring, ident, ident_plain, prefixes, pystr, text
from navlaw.fees.package import EXAMPLE_ON, EXAMPLE_UNITS, About, header_lines, pyproject
from navlaw.fees.trace_gen import Traces, Versions, fmt_literal, work
from navlaw.fees.plans import ROUNDED_BASE, board_refusal, board_line_words, instead_note, label_for, one_person_note, Option, Plan, established, no_schedule_message, option_help
from navlaw.model.formula import Bin, Expr, Num, Units, describe, numbers, to_python
from navlaw.model.tariffs import (AnyTariff, BracketSchedule, FractionOfRate, Percentage, PerUnitFee, TimeFee,
                      fields_json)

TEMPLATES = resources.PACKAGE / "templates"
RUNTIME = resources.PACKAGE / "runtime.py"
TRACE = resources.PACKAGE / "trace.py"  # copied as navlaw_fees/trace.py; the runtime's import of it made relative
TRACE_IMPORT = "from navlaw.trace import"



@dataclass
class ScheduleFn:
    name: str
    doc: str
    branches: list[tuple[str, str, str, str]]  # condition, return expression, bracket written, formula
    fallback: str








def schedule_function(mod: Module, route: str, s: BracketSchedule, prefix: str) -> ScheduleFn:
    r = route.replace("-", "_")
    fn = f"{r}_{prefix.lower().replace('_' + r, '')}"  # the route once, though a shared provision's prefix names it
    branches = []
    for i, b in enumerate(s.brackets, 1):
        roles = iter(constant_roles(b.fee))
        srcs = iter(b.amounts)

        def const(value: Decimal, i: int = i) -> str:
            role = next(roles, "N")
            src = next(srcs, None)
            where = f"{Path(src.source.file).name}:{src.source.line}:{src.source.column}" if src else ""
            return mod.const(f"{prefix}_B{i}_{role}", value, f"{b.written} | {b.formula_written}  ({where})")

        expr = to_python(b.fee, "pu", const)
        conds = []
        if not (b.low == 0 and b.low_inclusive):
            lo = mod.const(f"{prefix}_B{i}_FROM", b.low)
            conds.append(f"pu {'>=' if b.low_inclusive else '>'} {lo}")
        if b.high is not None:
            hi = mod.const(f"{prefix}_B{i}_TO", b.high)
            conds.append(f"pu {'<=' if b.high_inclusive else '<'} {hi}")
        branches.append((" and ".join(conds), expr, b.written, describe(b.fee, "PU")))  # "": every pu
    e = s.effective
    when = f"in force {e.start} to {e.end}" if e.end else f"in force from {e.start}"
    doc = (f"{s.citation}: {s.title.split(',')[0].lower()}, {when} ({e.start_basis}, {e.confidence}).\n\n"
           f"    Read from {Path(s.file).name}, line {s.brackets[0].source.line}. Returns the exact fee for ``pu`` pilotage\n"
           "    units (after any minimum or maximum), the bracket as written, and its formula.")
    return ScheduleFn(fn, docstring(doc), branches, text(f"{s.citation}: no bracket for ", V("pu"), " pilotage units"))


@dataclass
class RouteView:
    route: str
    fn: str
    label: str
    options_type: str  # the TypedDict of its options, e.g. _LongIslandSoundOptions
    periods: list[dict[str, str]]
    no_schedule: str
    options: tuple[OptionView, ...]
    body: list[str]
    zone2: str = ""  # the function name of the route whose base is its "Zone 2 Base Rate", if any
    instead: bool = False  # whether an option of the route is charged instead of pilotage  # code lines of the quote function after the base line
    bounded: bool = False  # a schedule's start is known only between bounds: quotes may hold alternatives
    conflicts: tuple[tuple[str, str, str], ...] = ()  # options impossible together (plans.exclusions)
    beside: tuple[tuple[str, str, str], ...] = ()


def period_notes(plan: Plan, s: BracketSchedule) -> tuple[str, ...]:
    """The notes every quote on this schedule carries: its own, the addition's, the text's (board-set fees)."""
    notes = list(s.notes)
    key = plan.group.get(s.id, "")
    for t in plan.with_base.get(key, ()):
        if isinstance(t, Percentage) and t.of == "calculated-fee":
            notes.extend(t.notes)
    notes.extend(plan.notes_with_base.get(key, ()))
    return tuple(dict.fromkeys(notes))


def route_view(mod: Module, plan: Plan, fns: dict[str, ScheduleFn], names: dict[str, str]) -> RouteView:
    route = plan.route
    texts = {f: i for i, f in enumerate(sorted(plan.with_base))}
    periods = [_period(mod, plan, s, names[s.id], fns, texts) for s in established(plan)]
    body: list[str] = []
    # what comes with each text: the percentage addition, the transporting charge (it replaces the base line)
    for f, i in texts.items():
        block = _with_text(mod, plan, f)
        if block:
            if len(texts) > 1:
                body.append(f"if p.text == {i}:")
                body += ["    " + x for x in block]
            else:
                body += block
    option_code: list[str] = []
    for opt in plan.options:
        if opt.kind in ("miles", "amount"):
            continue
        option_code += option_block(mod, plan, texts, opt)
    if option_code:
        body += ["if options:"] + ["    " + x for x in option_code]
    message = no_schedule_message(plan, "\x00").replace("{", "{{").replace("}", "}}").replace("\x00", "{on}")
    fn = route.replace("-", "_")
    typed = "_" + "".join(w.capitalize() for w in fn.split("_")) + "Options"
    instead = any(getattr(t, "instead_of_pilotage", "") for t in plan.rule_fees)
    return RouteView(route, fn, plan.title, typed, periods, message,
                     tuple(OptionView(o.name, option_type(o), value_form(o)) for o in plan.options), body,
                     plan.zone2_route.replace("-", "_"), instead, any(p["possible_from"] for p in periods),
                     plan.conflicts, plan.beside)


def _period(mod: Module, plan: Plan, s: BracketSchedule, pre: str, fns: dict[str, ScheduleFn],
            texts: dict[str, int]) -> dict[str, str]:
    """One base schedule of a route's quote function: its dates, clamp, notes and the law's words."""
    return {
        "start": mod.const(f"{pre}_FROM", s.effective.start),
        "end": mod.const(f"{pre}_UNTIL", s.effective.end) if s.effective.end else "None",
        "fn": fns[s.id].name, "citation": pystr(s.effective.cited(s.citation)),
        "min": mod.const(f"{pre}_MIN_UNITS", s.min_units.value) if s.min_units else "None",
        "max": mod.const(f"{pre}_MAX_UNITS", s.max_units.value) if s.max_units else "None",
        "notes": repr(period_notes(plan, s)), "text": str(texts[plan.group[s.id]]),
        "unmeasured": pystr(s.unmeasured) if s.unmeasured else "",
        # a start known only between bounds: the first day it may be in force, and on what that rests
        "possible_from": mod.const(f"{pre}_POSSIBLY_FROM", s.effective.start_from) if s.effective.start_from else "",
        "uncertain": pystr(s.effective.uncertain),
        "where": mod.traces.where(pre, s),
        "words": mod.traces.words(pre, [("minimum units", s.min_units), ("maximum units", s.max_units)]),
        "brackets": mod.traces.brackets(pre, s),
    }


def _with_text(mod: Module, plan: Plan, f: str) -> list[str]:
    """The lines of what comes with one text's base schedules: the transporting charge, the notes an
    option answers, the percentage addition, the amounts a board sets."""
    block: list[str] = []
    for t in plan.with_base[f]:
        if isinstance(t, FractionOfRate) and t.condition_miles is not None:
            block += _transporting(mod, plan, t)
    for opt, note in plan.notes_unless.get(f, ()):
        block += [f"if {pystr(opt)} not in options:", f"    notes.append({pystr(note)})"]
    for t in plan.with_base[f]:
        if isinstance(t, Percentage) and t.of == "calculated-fee" and t.percent is not None:
            pct = mod.const(f"{mod.ident(t.provision)}_ADDITION_PERCENT", t.percent.value, t.title)
            block += [f"lines.append(Line({pystr(f'{t.percent.value}% of the calculated fee')}, "
                      f"percent_of(base, {pct}), {pystr(t.citation)}, "
                      + work(["{1} × {2} / 100", "{2}% of the calculated fee (${1})"], [f"base * {pct} / 100", "base", pct],
                             mod.traces.words(mod.ident(t.provision) + "_ADDITION", [("percentage", t.percent)]),
                             mod.traces.where(mod.ident(t.provision) + "_ADDITION", t)) + "))"]
    for name in sorted(o.name for o in plan.options if o.kind == "amount"):  # a board's amount, entered
        block += _board_amount(mod, plan, f, name)
    return block


def _transporting(mod: Module, plan: Plan, t: FractionOfRate) -> list[str]:
    """The transporting charge: a fraction of the pilotage fee instead of it, below a distance."""
    assert t.condition_miles is not None
    miles = mod.const(f"{mod.ident(t.provision)}_MILES", t.condition_miles.value)
    desc = text(f"Transporting charge, piloted under {t.condition_miles.value} miles: "
                f"{t.numerator}/{t.denominator} of ", V("formula.replace('PU', str(used))"))
    num = mod.const(f"{mod.ident(t.provision)}_NUMERATOR", Decimal(t.numerator))
    den = mod.const(f"{mod.ident(t.provision)}_DENOMINATOR", Decimal(t.denominator))
    by_miles = next((o.name for o in plan.options if o.kind == "miles"), "")
    return [f'miles = options.get("{by_miles}")',
            f'if miles is not None and number(miles, "{by_miles}") < ' + miles + ":",
            f"    base = cents(exact * {num} / {den})",
            f"    lines[0] = Line({desc}, base, {pystr(t.citation)}, "
            + work(["({1}) × {2} / {3}", "piloted {4} miles, under " + str(t.condition_miles.value) +
                    ": {2}/{3} of the pilotage fee instead of it"],
                   [f"exact * {num} / {den}", "formula", num, den, "miles"],
                   mod.traces.words(mod.ident(t.provision), [("miles", t.condition_miles)], mod.traces.fraction(t)),
                   mod.traces.where(mod.ident(t.provision), t), "used", "p.brackets") + ")"] + \
        [f"    notes.append({pystr(n)})" for n in t.notes]


def _board_amount(mod: Module, plan: Plan, f: str, name: str) -> list[str]:
    """An amount a board sets, entered by the caller: its line, or why it cannot be entered on the date."""
    t = next((t for t in plan.board_fees.get(f, ()) if t.option == name), None)
    if t is None:
        return [f"if {pystr(name)} in options:",
                f"    raise FeeError({pystr(board_refusal(plan, name))} + on.isoformat())"]
    desc, cap_words = board_line_words(t)
    cap = mod.const(f"{ident_plain(t.id)}_CAP", t.cap.value) if t.cap else "None"
    return [f"if {pystr(name)} in options:",
            f"    lines.append(Line({pystr(desc)}, (entered := board_amount(options[{pystr(name)}], {pystr(name)}, {cap}, "
            f"{pystr(cap_words)})), {pystr(t.citation)}, "
            + work(["{1}", "the amount the board set, entered by the user: ${1}"
                    + fmt_literal(f" ({cap_words})" if cap_words else " (the law sets no cap)")],
                   ["entered", "entered"], mod.traces.words(ident_plain(t.id), [("cap", t.cap)]),
                   mod.traces.where(ident_plain(t.id), t)) + "))"]


@dataclass(frozen=True)
class OptionView:
    name: str
    type: str  # its annotation in the generated TypedDict
    form: tuple[str, int, tuple[str, ...]] = ("number", 1, ())  # what it takes: see value_form


def value_form(o: Option) -> tuple[str, int, tuple[str, ...]]:
    """What a caller gives for the option, for programs that ask (the command line's parser): "flag"
    (True or False), "count" (True, False or how many times), "choice" (one of the choices), "hours",
    "miles", "days" or "amount" (a number); with how many times it may be given and its choices."""
    if o.kind == "flag":
        return ("count" if o.most > 1 else "flag", o.most, ())
    if o.kind == "choice" and o.choices:
        return ("choice", o.most, tuple(o.choices))
    if o.kind in ("hours", "miles", "days"):
        return (o.kind, o.most if o.kind == "hours" else 1, ())
    return ("amount", 1, ())


def option_type(o: Option) -> str:
    """The type a caller's value must have: bool for a flag (or a count where it may occur several
    times), the choices as a Literal (or a sequence of them), hours as a Number or a sequence of them."""
    if o.kind == "flag":
        return "bool | int" if o.most > 1 else "bool"
    if o.kind == "choice" and o.choices:
        one = "Literal[" + ", ".join(repr(c) for c in o.choices) + "]"
        return f"{one} | Sequence[{one}]" if o.most > 1 else one
    if o.kind == "hours":
        return "Number | Sequence[Number]"
    return "Number"


def render(plans: dict[str, Plan], tariffs: list[AnyTariff], sources: list[tuple[str, str]],
           versions: Versions | None = None, about: About = About()) -> dict[str, str]:
    """The files of the package: name -> text."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined, keep_trailing_newline=True,
                      trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=jinja_bytecode())
    env.filters["pyrepr"] = repr
    env.filters["comment"] = comment  # text from the corpus (the route table) in a comment or docstring
    env.filters["docstring"] = docstring
    own = codes.lookup(about.law) if about.law else None  # the corpus's own chapter, as constants name it
    mod = Module(traces=Traces(sources, versions), own=own.key.lower() if own is not None else "law")
    fns: dict[str, ScheduleFn] = {}
    names = prefixes([s for plan in plans.values() for s in established(plan)], mod.own)
    for plan in plans.values():
        for s in established(plan):
            if s.id not in fns:
                fns[s.id] = schedule_function(mod, plan.route, s, names[s.id])
    routes = [route_view(mod, plans[r], fns, names) for r in plans]
    listed = {r: [_schedule_summary(t) for t in tariffs if _listed(t, plans[r])] for r in plans}
    header = header_lines(sources)
    ctx = dict(header=header, constants=sorted(mod.constants.items()), comments=mod.comments,
               objects=sorted(mod.traces.objects.items()),
               functions=sorted(fns.values(), key=lambda f: f.name), routes=routes, listed=listed,
               help=option_help(plans), about=about, example_units=EXAMPLE_UNITS, example_on=EXAMPLE_ON, bounded=any(r.bounded for r in routes),
               zones=[{"fn": z.replace("-", "_"), "title": plans[z].title, "words": words}
                      for z, words in dict.fromkeys((p.zone2_route, p.zone2_words) for p in plans.values()
                                                    if p.zone2_route)])
    runtime = header + "\n" + RUNTIME.read_text(encoding="utf-8").replace(TRACE_IMPORT, "from .trace import", 1)
    return {
        "trace.py": header + "\n" + TRACE.read_text(encoding="utf-8"),
        "__init__.py": env.get_template("navlaw_fees/__init__.py.j2").render(ctx),
        "_schedules.py": env.get_template("navlaw_fees/_schedules.py.j2").render(ctx),
        "_runtime.py": runtime,
        "py.typed": "",
        "pyproject.toml": pyproject(tariffs, sources, about),
    }


def _listed(t: AnyTariff, plan: Plan) -> bool:
    return t.route in plan.family and t.kind != "penalty"


def _schedule_summary(t: AnyTariff) -> dict[str, object]:
    out: dict[str, object] = fields_json(t, ("id", "kind", "title", "provision", "citation", "status"))
    e = t.effective
    out["effective_from"] = e.start.isoformat() if e.start else None
    out["effective_to"] = e.end.isoformat() if e.end else None
    out["effective_note"] = e.start_phrase if e.start is None else ""
    if e.start_from is not None:  # a start known only between bounds: from when it may be in force, and why
        out["effective_possibly_from"] = e.start_from.isoformat()
        out["effective_note"] = f"in force from a day {e.start_words()}: {e.uncertain}"
    if e.end_from is not None:  # and an end known only between bounds: it may have ended from this day
        out["effective_possibly_to"] = e.end_from.isoformat()
    if e.act:
        out["citation"] = e.cited(t.citation)
    if isinstance(t, BracketSchedule):
        out["brackets"] = tuple((b.written, b.formula) for b in t.brackets)
    return out
