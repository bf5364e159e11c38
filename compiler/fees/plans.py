"""Fee plans: what a quote for each route consists of, built from the tariffs, and the options' words.

A :class:`Plan` gathers, for one route, the base schedules in date order (only those whose dates are
established can be quoted), what comes with them from the same text (the § 88 7.5% addition, the § 89-a
second pilot, the § 89-b transporting, detention and carried-off fees), the 21 NYCRR § 55.2 fees that
are quote options, and the notes a quote must carry (fees left to a board, surcharges whose dates are
not established, interpretations).

The generator (compiler/fees/generate.py) renders plans as straight-line Python; compiler/fees/reference.py
evaluates the same plans directly from the tariff objects. The property test checks that both agree.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Callable

from navlaw.runtime import MAX_OCCURRENCES, FeeError
from navlaw.tariffs.complete import quotable
from navlaw.tariffs.routes import RouteTable
from navlaw.frontend.options import OptionDecl
from navlaw.model.tariffs import AnyTariff, BoardSet, BracketSchedule, Percentage, PerUnitFee
from navlaw.model.codes import without_code

# The quote options are the manifest's [[option]] table (compiler/frontend/options.py): their names,
# kinds, words and order; the law's numbers and the citations come from the tariffs that price each (help()).


def one_person_note(name: str, partner: str, citation: str) -> str:
    """Why an option given with its partner (``one_charge_with``) adds nothing: a reading the quote names."""
    return (f"{name}: not charged again: one second pilot is on board, and {partner} charges it "
            f"(a reading: the statute and {citation} each price a second pilot; navlaw charges the one pilot once).")


def instead_note(name: str, t: Percentage) -> str:
    """The note of a fee charged instead of pilotage (the reference evaluator writes the same words)."""
    return (f"{name}: charged instead of the pilotage fee, none being rendered (\"{t.instead_of_pilotage}\", "
            f"{t.citation}).")


ROUNDED_BASE = ("Percentages are taken of the charge they are a percentage of as rounded to cents, and each line is "
                "rounded once (an interpretation: the texts do not say whether of the exact or the rounded amount).")


def label_for(plan: Plan, name: str, value: str = "") -> str:
    """What a quote line calls an option's charge: "Docking (tug)", "Intermediate stop"."""
    decl = plan.decl(name)
    return (decl.title if decl is not None else name) + (f" ({value})" if value else "")


def _common_citation(citations: list[str]) -> str:
    """The citation that covers them all, shortened as people write it: "21 NYCRR § 55.2(d)" for
    (d)(1), (d)(2), (d)(3); "§ 89-b(4)(b)(4)"."""
    if not citations:
        return ""
    parts = [re.findall(r"\([^()]*\)|[^()]+", c) for c in citations]
    common: list[str] = []
    for group in zip(*parts):
        if any(x != group[0] for x in group):
            break
        common.append(group[0])
    return without_code("".join(common).strip()).strip()


def option_help(plans: dict[str, Plan]) -> dict[str, str]:
    """Each option's words with the provision(s) of the law that price it."""
    cites: dict[str, list[str]] = {}
    decls: dict[str, OptionDecl] = {}
    for plan in plans.values():
        decls.update((d.name, d) for d in plan.decls)
        for ts in list(plan.with_base.values()) + [plan.rule_fees] + list(plan.board_fees.values()) + [plan.board_known]:
            for t in ts:
                opt = getattr(t, "option", "")
                if opt:
                    cites.setdefault(opt, []).append(t.citation)
    for d in decls.values():
        if d.priced_as in cites:
            cites[d.name] = cites[d.priced_as]
    return {name: d.help + (f" ({_common_citation(sorted(set(cites[name])))})" if cites.get(name) else "")
            for name, d in decls.items() if name in cites}


@dataclass(frozen=True)
class Option:
    name: str
    kind: str  # "hours" | "flag" | "choice" | "miles" | "days"
    choices: tuple[str, ...] = ()
    help: str = ""
    most: int = 1  # how many times it may occur in one quote (hours: each stop; flags: each shift;
                   # choices: each launch station the route pays)

@dataclass(frozen=True)
class Plan:
    route: str
    base: tuple[BracketSchedule, ...]  # established schedules, by start date
    unresolved: tuple[BracketSchedule, ...]  # schedules of the route whose dates are not established
    with_base: dict[str, tuple[AnyTariff, ...]]  # by group key: what is in force with a base schedule
    notes_with_base: dict[str, tuple[str, ...]]
    rule_fees: tuple[AnyTariff, ...]  # § 55.2 fees: dated on their own
    options: tuple[Option, ...]
    zone2: Plan | None = None  # the plan of the route whose base rate a percentage is of ("Zone 2 Base Rate")
    group: dict[str, str] = field(default_factory=dict)  # base schedule id -> key of what comes with it
    title: str = ""  # what its base fee is called (the route table's title)
    family: tuple[str, ...] = ()  # the route ids whose tariffs apply to it: itself and its family
    zone2_route: str = ""  # the route whose base is its "Zone 2 Base Rate" (it may be itself), if any
    zone2_words: str = ""  # the words of the text that name that route ("Zone 2": one of its selectors)
    # by group key: (option, note) — a note a quote carries only when it does not use that option
    # ("Launch fee not included: no pilot station was chosen" — not when launch= is given)
    notes_unless: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # by group key: the fees a board sets that a caller may enter (capital expense fund surcharge, …)
    board_fees: dict[str, tuple[BoardSet, ...]] = field(default_factory=dict)
    board_known: tuple[BoardSet, ...] = ()  # every such fee of the route's texts, in force on a known date or not
    # options the law makes impossible together: (option, option, why) — a FeeError naming both; and
    # (option, option, note) — given together, both are charged and the quote says on which reading
    conflicts: tuple[tuple[str, str, str], ...] = ()
    beside: tuple[tuple[str, str, str], ...] = ()
    decls: tuple[OptionDecl, ...] = ()  # every option the manifest declares, in its order

    def decl(self, name: str) -> OptionDecl | None:
        return next((d for d in self.decls if d.name == name), None)

    def priced_by(self, name: str) -> str:
        """The option whose fees price ``name``: its ``priced_as``, or itself."""
        decl = self.decl(name)
        return decl.priced_as if decl is not None and decl.priced_as else name

    def partner(self, name: str) -> str:
        """The option charging the same person as ``name`` (given together, ``name`` adds nothing), or ""."""
        decl = self.decl(name)
        return decl.one_charge_with if decl is not None else ""

    def schedule_on(self, on: dt.date) -> BracketSchedule:
        for s in self.base:
            if s.effective.contains(on):
                return s
        raise FeeError(self.no_schedule(on))

    def no_schedule(self, on: dt.date) -> str:
        return no_schedule_message(self, on.isoformat())


def established(plan: Plan) -> list[BracketSchedule]:
    """The base schedules a quote can use: a known start, and a known end or none (an unresolved end
    makes every later day unknowable for that schedule)."""
    return [s for s in plan.base if quotable(s, plan.route)]  # the schedules the completeness proof checks


def no_schedule_message(plan: Plan, on: str) -> str:
    msg = f"no {plan.route} rate schedule can be established for {on}"
    spans: list[list[object]] = []  # [start, end, file], joined where one schedule follows the next
    for s in established(plan):
        e = s.effective
        file = s.file.rsplit("/", 1)[-1]
        if spans and spans[-1][1] == e.start and spans[-1][2] == file:
            spans[-1][1] = e.end
        else:
            spans.append([e.start, e.end, file])
    windows = [f"{a} to {b} ({f})" if b else f"from {a} ({f})" for a, b, f in spans]
    if windows:
        msg += "; the corpus establishes them " + ", ".join(windows)
        gaps = [s.effective.end_phrase for s in established(plan)
                if s.effective.end_basis == "unresolved" and s.effective.end_phrase]
        if gaps:
            msg += "; " + gaps[0]
    reasons = [f"{s.citation} ({s.effective.start_phrase})" for s in plan.unresolved]
    if reasons:
        msg += "; schedules whose dates the corpus does not establish: " + "; ".join(reasons[:3])
        if len(reasons) > 3:
            msg += f"; and {len(reasons) - 3} more"
    return msg


def build_plans(tariffs: list[AnyTariff], routes: RouteTable) -> dict[str, Plan]:
    """One plan per route of the route table, in its order."""
    # every dated schedule counts, whatever its status: an older text's rates apply inside its dates
    # (follow_timeline has bounded them); only the deleted matter of a rule is left out
    live = [t for t in tariffs if not (t.status == "superseded" and t.kind == "flat")]
    undeclared = sorted({o for t in live if (o := getattr(t, "option", "")) and routes.option(o) is None})
    if undeclared:  # a route table made without the manifest's [[option]] table would quote no option at all
        raise ValueError(f"options {', '.join(undeclared)} are not in the route table: build it with "
                         "RouteTable.of(manifest)")
    plans: dict[str, Plan] = {}
    named = _named_bases(routes, live)
    zone2_of = {r: v[0] for r, v in named.items()}
    # a route whose "Zone 2 Base Rate" is another route's base is planned after that route
    order = sorted(routes.ids(), key=lambda r: (zone2_of.get(r, "") not in ("", r), routes.ids().index(r)))
    for route in order:
        fam = routes.family(route)
        series = [t for t in live if isinstance(t, BracketSchedule) and t.route == route and t.series == f"{route}/base"]
        base = tuple(sorted((t for t in series if t.effective.start is not None),
                            key=lambda t: t.effective.start or dt.date.min))
        # the schedule just before the established ones first: it is the one a date before them falls in
        unresolved = tuple(sorted((t for t in series if t.effective.start is None),
                                  key=lambda t: (t.effective.end is None, -(t.effective.end or dt.date.min).toordinal())))
        with_base: dict[str, tuple[AnyTariff, ...]] = {}
        notes_with_base: dict[str, tuple[str, ...]] = {}
        notes_unless: dict[str, tuple[tuple[str, str], ...]] = {}
        board_fees: dict[str, tuple[BoardSet, ...]] = {}
        group: dict[str, str] = {}
        for s in base:
            assert s.effective.start is not None
            day = s.effective.start
            extras = tuple(sorted((t for t in live if t.route in fam and t.effective.start_basis == "with-text"
                                   and not isinstance(t, BoardSet) and t.effective.contains(day) is True),
                                  key=lambda t: t.id))
            pairs = _notes_for(routes, route, s.file, day, live)
            notes = tuple(n for opt, n in pairs if not opt)
            key = "|".join(t.id for t in extras) + "#" + "|".join(n for _, n in pairs)
            group[s.id] = key
            with_base[key] = extras
            notes_with_base[key] = notes
            notes_unless[key] = tuple((opt, n) for opt, n in pairs if opt)
            board_fees[key] = tuple(sorted((t for t in live if isinstance(t, BoardSet) and t.option and t.route in fam
                                            and t.effective.contains(day) is True), key=lambda t: t.option))
        rule = tuple(t for t in live if t.route in fam and isinstance(t, (Percentage, PerUnitFee)) and t.option
                     and t.effective.start is not None and t.effective.start_basis != "with-text")
        own = routes.get(route)
        charged = frozenset(t.title.lower() for t in live if isinstance(t, BoardSet) and t.route in fam
                            and (own is None or t.title.lower() not in own.not_charged))
        known = tuple(sorted((t for t in live if isinstance(t, BoardSet) and t.option and t.route in fam
                              and t.status != "superseded"), key=lambda t: (t.option, t.id)))
        options = _options(routes.options, with_base, rule, charged, {**board_fees, "": known})
        z2 = zone2_of.get(route, "")
        conflicts, beside = exclusions(options, [t for ts in with_base.values() for t in ts] + list(rule), routes.options)
        plans[route] = Plan(route, base, unresolved, with_base, notes_with_base, rule, options,
                            zone2=plans.get(z2) if z2 else None, group=group,
                            title=own.title if own is not None else route,
                            family=fam, zone2_route=z2, zone2_words=named.get(route, ("", ""))[1], notes_unless=notes_unless, board_fees=board_fees,
                            board_known=known, conflicts=conflicts, beside=beside, decls=routes.options)
    return {r: plans[r] for r in routes.ids()}


def _named_bases(routes: RouteTable, live: list[AnyTariff]) -> dict[str, tuple[str, str]]:
    """Route -> the route whose base rate a percentage of its fees is taken of, and the words naming it
    ("25 percent of the Zone 2 Base Rate": the route of its family whose selectors hold "Zone 2")."""
    out: dict[str, tuple[str, str]] = {}
    for r in routes.ids():
        fam = routes.family(r)
        words = next((t.of_words for t in live if isinstance(t, Percentage) and t.of == "base-rate" and t.route in fam), "")
        if words:
            out[r] = (routes.select(fam[-1], words), words)
    return out


def exclusions(options: tuple[Option, ...], tariffs: list[AnyTariff],
               decls: tuple[OptionDecl, ...] = ()) -> tuple[tuple[tuple[str, str, str], ...],
                                                                            tuple[tuple[str, str, str], ...]]:
    """Which options cannot go together, read from what the tariffs say of themselves (no option is
    named here): a fee charged instead of the pilotage fee, none being rendered (``instead_of_pilotage``),
    cannot go with another such fee (one call is not both), with a share of the pilotage fee (``of`` the
    regular fee: there is none), or with a fee for an act of pilotage (``service``: docking, shifting …).
    A fee for waiting, notice or a delay beside it is charged, and the quote names that reading."""
    by_option: dict[str, list[AnyTariff]] = {}
    for t in tariffs:
        opt = getattr(t, "option", "")
        if opt:
            by_option.setdefault(opt, []).append(t)
            for d in decls:  # an option priced by another's fees (priced_as)
                if d.priced_as == opt:
                    by_option.setdefault(d.name, []).append(t)
    names = [o.name for o in options if o.name in by_option]
    conflicts: list[tuple[str, str, str]] = []
    beside: list[tuple[str, str, str]] = []
    for a in names:
        ia = _percentage(by_option[a], lambda t: bool(t.instead_of_pilotage))
        if ia is None:
            continue
        stands = f"{ia.citation} (\"{ia.instead_of_pilotage}\") is charged instead of the pilotage fee"
        for b in names:
            if b == a:
                continue
            ib = _percentage(by_option[b], lambda t: bool(t.instead_of_pilotage))
            share = _percentage(by_option[b], lambda t: t.of == "regular-fee" and t.percent is not None)
            act = _percentage(by_option[b], lambda t: bool(t.service))
            if ib is not None:
                if names.index(b) > names.index(a):
                    conflicts.append((a, b, f"{stands}, and so is {ib.citation} (\"{ib.instead_of_pilotage}\"): "
                                            "one call is not both"))
            elif share is not None and share.percent is not None:
                conflicts.append((a, b, f"{stands}, and {share.citation} charges {share.percent.value}% of that "
                                        "pilotage fee, none being rendered"))
            elif act is not None:
                conflicts.append((a, b, f"{stands}, and {act.citation} pays for {act.service.lower()} (\"{act.service}\"), "
                                        "an act of pilotage, none being rendered"))
            elif by_option[b][0].kind == "percentage":
                beside.append((a, b, f"{b}: charged beside {a} ({by_option[b][0].citation} charges for the vessel's "
                                     f"waiting, notice or delay, not for pilotage rendered; a reading: the law does not "
                                     f"say whether it stands with a fee charged instead of pilotage)."))
    return tuple(conflicts), tuple(beside)


def _percentage(ts: list[AnyTariff], test: Callable[[Percentage], bool]) -> Percentage | None:
    """The first percentage of ``ts`` that passes ``test``."""
    return next((t for t in ts if isinstance(t, Percentage) and test(t)), None)


def _notes_for(routes: RouteTable, route: str, file: str, day: dt.date,
               live: list[AnyTariff]) -> list[tuple[str, str]]:
    """What a quote must say about fees the law creates but this quote cannot compute: (option, note),
    the option "" for a note every quote carries, else the option whose use makes the note untrue."""
    out: list[tuple[str, str]] = []
    fam = routes.family(route)
    for t in live:
        if t.route not in fam or not isinstance(t, BoardSet) or t.effective.contains(day) is not True:
            continue
        if t.cap is not None:
            out.append((t.option, f"Not included: the {t.title.lower()} set by the {t.who} ({t.citation}); the law caps "
                                  f"it at ${t.cap.value:,} {t.cap_unit} but leaves the amount to the board."))
        elif (chosen := _choosing(routes, t, fam, live)) is not None:
            own = routes.get(route)
            if own is not None and t.title.lower() in own.not_charged:
                continue
            out.append((chosen[0], f"{t.title} not included: no pilot station was chosen ({t.citation}: set by the "
                                   f"{t.who}; {chosen[1]} sets launch fees per pilotage unit by station)."))
        else:
            out.append((t.option, f"Not included: the {t.title.lower()} ({t.citation}), set by the {t.who}; its amount "
                                  "is not in the law text."))
    surcharges = [t for t in live if t.route in fam and t.file == file and t.series.endswith("retirement-surcharge")]
    if surcharges:
        first = surcharges[0]
        months = re.search(r"ending with the (\S+) month", surcharges[-1].effective.end_phrase)
        span = f"until the {months.group(1)} month" if months else "for a period"
        out.append(("", f"Not included: the pilots' retirement surcharge ({first.citation}): its statutory amounts "
                         f"run {span} after a date the corpus does not establish "
                         f"({first.effective.start_phrase.split(': ')[-1]}), and after them the surcharge board sets it."))
    return out


def _choosing(routes: RouteTable, t: BoardSet, fam: tuple[str, ...],
              live: list[AnyTariff]) -> tuple[str, str] | None:
    """The option whose choice answers a board-set fee's "not included" note (its ``board_fees``), and
    the citation of the fees it chooses among; None when no option does, or no fee of it is read."""
    for d in routes.options:
        if t.title.lower() in d.board_fees:
            cited = _common_citation(sorted({x.citation for x in live if x.route in fam
                                             and getattr(x, "option", "") == d.name}))
            return (d.name, cited) if cited else None
    return None


def _options(decls: tuple[OptionDecl, ...], with_base: dict[str, tuple[AnyTariff, ...]], rule: tuple[AnyTariff, ...],
             charged: frozenset[str] = frozenset(),
             board_fees: dict[str, tuple[BoardSet, ...]] | None = None) -> tuple[Option, ...]:
    """The route's quote options, in the manifest's order; ``charged``: the titles of the board-set fees
    the route pays: an option answering several (``board_fees``: a launch fee at each of two stations)
    may be chosen so many times."""
    names: dict[str, set[str]] = {}
    for ts in list(with_base.values()) + [rule]:
        for t in ts:
            opt = getattr(t, "option", "")
            if opt:
                names.setdefault(opt, set())
                choice = getattr(t, "choice", "")
                if choice:
                    names[opt].add(choice)
    for d in decls:
        if d.priced_as in names:
            names[d.name] = set(names[d.priced_as])
    board = {t.option for ts in (board_fees or {}).values() for t in ts}
    for name in board:
        names.setdefault(name, set())
    out = []
    for d in decls:
        if d.name not in names:
            continue
        kind = "amount" if d.name in board else d.kind
        answered = len(charged & set(d.board_fees))
        most = (MAX_OCCURRENCES if kind == "hours" or d.repeatable else
                max(1, min(answered, len(names[d.name]))) if d.board_fees else 1)
        out.append(Option(d.name, kind, tuple(sorted(names[d.name])), d.help, most))
    return tuple(out)


def board_refusal(plan: Plan, name: str) -> str:
    """Why an amount a board sets cannot be entered on a date (without the date: the caller adds it)."""
    t = next((t for t in plan.board_known if t.option == name), None)
    if t is not None and t.effective.start is None:
        return (f"{name}: {t.citation} has the {t.who} set it from a date the corpus does not establish "
                f"({t.effective.start_phrase}), so it cannot be quoted on ")
    return f"{name}: no such fee set by a board is in force on {plan.route} on "


def board_line_words(t: BoardSet) -> tuple[str, str]:
    """A board-set fee entered by the caller: the line's description, and the cap in the law's words."""
    cap = f"{t.citation} caps it at ${t.cap.value:,} {t.cap_unit}" if t.cap is not None else ""
    return f"{t.title} (set by the {t.who}, entered by the user)", cap
