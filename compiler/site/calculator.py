"""The fee calculator's data: the fee plans as JSON for the page's script (the same plans the fee
module is generated from, so the page gives the same cents)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from navlaw.report.tariffs import stated
from navlaw.model.tariffs import AnyTariff

if TYPE_CHECKING:
    from navlaw.fees.plans import Plan
    from navlaw.model.formula import Expr


def _expr_json(e: Expr) -> dict[str, object]:
    from navlaw.model.formula import Bin, Neg, Num, Units
    if isinstance(e, Num):
        return {"num": str(e.value)}
    if isinstance(e, Units):
        return {"units": True}
    if isinstance(e, Neg):
        return {"neg": _expr_json(e.operand)}
    assert isinstance(e, Bin)
    return {"op": e.op, "l": _expr_json(e.left), "r": _expr_json(e.right)}


def _extra_json(t: AnyTariff) -> dict[str, object]:
    from navlaw.model.tariffs import FractionOfRate, Percentage, PerUnitFee, TimeFee
    d: dict[str, object] = {"kind": t.kind, "citation": t.citation, "provision": t.provision, "title": t.title,
                            "option": getattr(t, "option", ""), "choice": getattr(t, "choice", "")}
    if isinstance(t, Percentage):
        d.update(percent=str(stated(t, t.percent)), of=t.of, of_words=t.of_words, per=t.per, max_percent=str(t.max_percent.value)
                 if t.max_percent else None, max_per=t.max_per, free_hours=t.free_hours,
                 instead=bool(t.instead_of_pilotage))
    elif isinstance(t, PerUnitFee):
        d.update(rate=str(stated(t, t.rate)), min_units=str(t.min_units.value) if t.min_units else None,
                 max_units=str(t.max_units.value) if t.max_units else None)
    elif isinstance(t, TimeFee):
        d.update(amount=str(stated(t, t.amount)), per=t.per, after=str(t.after.value) if t.after else None,
                 part_counts=t.part_counts)
    elif isinstance(t, FractionOfRate):
        d.update(numerator=t.numerator, denominator=t.denominator,
                 miles=str(t.condition_miles.value) if t.condition_miles else None)
    if t.effective.start is not None and t.effective.start_basis != "with-text":
        d["since"] = t.effective.start.isoformat()
    return d


def plans_json(plans: dict[str, Plan]) -> dict[str, object]:
    """The fee plans as data for the calculator (same objects the fee module is generated from)."""
    from navlaw.model.formula import describe
    from navlaw.fees.plans import label_for, board_line_words, established, no_schedule_message
    out: dict[str, object] = {}
    for route, plan in plans.items():
        periods = []
        for s in established(plan):
            start = s.effective.start
            assert start is not None, "an established schedule has a known start (fees.plans.established)"
            periods.append({
                "start": start.isoformat(), "end": s.effective.end.isoformat() if s.effective.end else None,
                # a start known only between bounds: the first day it may be in force
                "possible_from": s.effective.start_from.isoformat() if s.effective.start_from else None,
                "citation": s.effective.cited(s.citation), "provision": s.provision, "group": plan.group[s.id],
                "min": str(s.min_units.value) if s.min_units else None,
                "max": str(s.max_units.value) if s.max_units else None,
                "unmeasured": s.unmeasured,  # the words that charge a vessel without measurements the maximum
                "notes": list(s.notes) + list(plan.notes_with_base.get(plan.group[s.id], ())),
                "notes_unless": [list(x) for x in plan.notes_unless.get(plan.group[s.id], ())],
                "board": [{"option": t.option, "description": board_line_words(t)[0], "cap_words": board_line_words(t)[1],
                           "cap": str(t.cap.value) if t.cap else None, "citation": t.citation, "provision": t.provision}
                          for t in plan.board_fees.get(plan.group[s.id], ())],
                "brackets": [{"low": str(b.low), "low_inclusive": b.low_inclusive,
                              "high": str(b.high) if b.high is not None else None,
                              "high_inclusive": b.high_inclusive, "written": b.written, "expr": _expr_json(b.fee),
                              "describe": describe(b.fee, "PU")}
                             for b in s.brackets]})
        out[route] = {"periods": periods,
                      "groups": {k: [_extra_json(t) for t in v] for k, v in plan.with_base.items()},
                      "rules": [_extra_json(t) for t in plan.rule_fees],
                      "options": [{"name": o.name, "kind": o.kind, "choices": list(o.choices), "help": o.help, "most": o.most}
                                  for o in plan.options],
                      "option_order": [d.name for d in plan.decls],
                      # what a quote line calls each option's charge ("Docking"), as the module's lines do
                      "titles": {o.name: label_for(plan, o.name) for o in plan.options},
                      "one_person": {d.name: d.one_charge_with for d in plan.decls if d.one_charge_with},
                      "priced_as": {d.name: d.priced_as for d in plan.decls if d.priced_as},
                      "no_schedule": no_schedule_message(plan, "{on}"),
                      "conflicts": [list(c) for c in plan.conflicts], "beside": [list(c) for c in plan.beside],
                      "zone2": plan.zone2_route or None}
    return out
