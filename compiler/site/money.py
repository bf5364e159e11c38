"""Money on the site, from the fee plans the module is generated from (compiler/fees/plans.py) through
the reference evaluator the property tests hold equal to ``navlaw_fees``: every amount a chart draws,
every example a tariff shows, is a quote ``navlaw fee`` gives, with what the law adds to the rate table
(the 7.5% of the calculated fee …) — never a rate table evaluated on its own."""

from __future__ import annotations

from decimal import Decimal

from navlaw.fees.plans import Plan
from navlaw.fees.reference import reference_quote
from navlaw.runtime import FeeError, Quote
from navlaw.model.tariffs import BracketSchedule


class Quotes:
    """Quotes without options for a schedule's first day, as ``navlaw fee ROUTE --units N --on START``."""

    def __init__(self, plans: dict[str, Plan]) -> None:
        self.plans = plans
        self._memo: dict[tuple[str, Decimal], Quote | None] = {}

    def quotable(self, s: BracketSchedule) -> bool:
        """The module quotes on the schedule's first day with this very schedule (its dates are established
        and no other text is law that day)."""
        plan = self.plans.get(s.route)
        if plan is None or s.effective.start is None:
            return False
        try:
            return plan.schedule_on(s.effective.start).id == s.id and s in plan.base and (
                s.effective.end is not None or s.effective.end_basis != "unresolved")
        except FeeError:
            return False

    def quote(self, s: BracketSchedule, units: Decimal) -> Quote | None:
        """The quote for ``units`` on the schedule's first day; None when the module gives none."""
        key = (s.id, units)
        if key not in self._memo:
            q = None
            if self.quotable(s):
                try:
                    q = reference_quote(self.plans, s.route, units=units, on=s.effective.start)
                except FeeError:
                    q = None
            self._memo[key] = q
        return self._memo[key]

    def total(self, s: BracketSchedule, units: Decimal) -> Decimal | None:
        q = self.quote(s, units)
        return q.total if q is not None else None

    def why_not(self, s: BracketSchedule) -> str:
        """Why ``navlaw fee`` quotes no day of this schedule, in words."""
        e = s.effective
        if e.start is None:
            return f"its start is not established ({e.start_phrase})" if e.start_phrase else "its start is not established"
        if e.end is None and e.end_basis == "unresolved":
            return (f"when it ended is not established ({e.end_phrase})" if e.end_phrase
                    else "when it ended is not established")
        return "another text is law on its first day"
