"""The site's tariffs page: every rate schedule of each route with its dates, status and example quote, the
route's proof of completeness and its charts, every amount a quote of the plans the fee module is generated
from (compiler/site/money.py).

The page is made only when what it is made from changed (issue 32: its charts make some 800 quotes, every
build): it is kept in the page memo (compiler/site/render.py's ``Memo``, whose site-wide context holds where
every section and provision is, which the page's links read) under a digest of the tariffs as the fee
module's memo keys them (``fees_key``: every value of every tariff, each ``Source`` by its file, line, column
and words, not by its offsets — the page shows no offset), the route table (routes, their names and families,
the options) and the site's date. The plans, the quotes and the proofs are functions of the tariffs and the
route table, so they are not in the key.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from navlaw import escape as esc
from navlaw.model.tariffs import AnyTariff, BracketSchedule

if TYPE_CHECKING:
    from jinja2 import Environment

    from navlaw.fees.plans import Plan
    from navlaw.site.money import Quotes
    from navlaw.site.render import Memo, Pages
    from navlaw.tariffs.routes import RouteTable

# A change to what the page shows that the key below does not cover must change this (the memo then misses).
VIEW = "tariffs-page-1"
PAGE = "tariffs.md"

RouteView = dict[str, object]


def tariffs_page(tariffs: Sequence[AnyTariff], plans: dict[str, Plan], table: RouteTable, P: Pages,
                 env: Environment, on: dt.date, memo: Memo, fees_key: str) -> tuple[str, list[RouteView]]:
    """The page (from ``memo`` when it was made from the same inputs; ``fees_key``: the tariffs' digest,
    ``navlaw.fees.memo.tariffs_digest``, or "" to make it afresh) and what the home page lists of each route
    (its name, id and schedules)."""
    names = {r.id: r.name for r in table.routes}
    listed: list[RouteView] = [{"name": names[route], "route": route, "schedules": _schedules(tariffs, route)}
                               for route in names]

    def make() -> str:
        return _page(tariffs, plans, table, P, env, on)

    if not fees_key:
        return make(), listed
    return memo.page([VIEW, PAGE, fees_key, table.key(), on.isoformat()], make, counted=False), listed


def _schedules(tariffs: Sequence[AnyTariff], route: str) -> list[BracketSchedule]:
    """The route's base schedules, oldest first (those of no established start first)."""
    return sorted((t for t in tariffs if isinstance(t, BracketSchedule) and t.route == route
                   and t.series == f"{route}/base"), key=lambda t: (t.effective.start or dt.date.min, t.id))


def _page(tariffs: Sequence[AnyTariff], plans: dict[str, Plan], table: RouteTable, P: Pages, env: Environment,
          on: dt.date) -> str:
    from navlaw.report.changes import brief
    from navlaw.site.charts import fee_chart, rate_chart
    from navlaw.site.money import Quotes
    from navlaw.tariffs.complete import prove

    quotes = Quotes(plans)
    routes = []
    for route, name in {r.id: r.name for r in table.routes}.items():
        scheds = _schedules(tariffs, route)
        dated = [t for t in scheds if t.effective.start is not None]
        routes.append({"name": name, "route": route, "complete": prove(list(tariffs), route),
                       "chart": fee_chart(route, name, dated, quotes, on) + rate_chart(route, name, dated, quotes, on),
                       "schedules": [_schedule_view(t, P, on, quotes) for t in scheds],
                       "others": [{"title": esc.text(t.title), "link": _link(t, P), "when": _when(t), "status": t.status,
                                   "what": esc.text(brief(t))}
                                  for t in tariffs if t.route in table.family(route) and not isinstance(t, BracketSchedule)
                                  and t.kind != "penalty"]})
    return env.get_template("tariffs.md.j2").render(routes=routes, on=on.isoformat())


def _link(t: AnyTariff, P: Pages) -> str:
    from navlaw.site.render import tariff_link

    return tariff_link(t, P, PAGE)


def _when(t: AnyTariff) -> str:
    e = t.effective
    start = e.start.isoformat() if e.start else "not established"
    if e.start_from is not None:  # a start known only between bounds
        start = f"a day {e.start_words()}"
    end = e.end.isoformat() if e.end else ("not established" if e.end_basis == "unresolved" else "")
    if e.end_from is not None and e.end is not None:
        end = f"a day between {e.end_from - dt.timedelta(days=1)} and {e.end}"
    return esc.text(f"{start} – {end}" if end else f"from {start}")


EXAMPLE_UNITS = (Decimal(300),)  # the example quote under each schedule (the charts' 300 PU over time)


def _example(t: BracketSchedule, quotes: Quotes) -> dict[str, object] | None:
    """The quote ``navlaw fee`` gives on the schedule's first day, line by line (None: it gives none)."""
    for units in EXAMPLE_UNITS:
        q = quotes.quote(t, units)
        if q is None:
            return None
        return {"route": t.route, "units": str(units), "on": q.on.isoformat(), "total": f"${q.total:,}",
                "command": esc.text(f"navlaw fee {t.route} --units {units} --on {q.on.isoformat()}"),
                "lines": [(esc.text(ln.description), f"${ln.amount:,}", esc.text(ln.citation)) for ln in q.lines]}
    return None


def _schedule_view(t: BracketSchedule, P: Pages, on: dt.date, quotes: Quotes) -> dict[str, object]:
    from navlaw.report.changes import cited
    from navlaw.site.charts import fee_text, in_force, status_on

    return {"example": _example(t, quotes),
            "unquoted": "" if quotes.quotable(t) else esc.text(cited(quotes.why_not(t))),
            "title": esc.text(t.title), "link": _link(t, P), "when": _when(t), "status": t.status,
            "now": status_on(t, on), "current": in_force(t, on),
            "file": esc.text(Path(t.file).name.split("#")[0]),
            "why": esc.text(cited(t.effective.start_phrase)) if t.effective.start is None else "",
            "rows": [(esc.text(b.written), esc.text(fee_text(b.formula)), esc.text(b.formula_written)) for b in t.brackets],
            "clamp": (f"charged on at least {t.min_units.value} and at most {t.max_units.value} units"
                      if t.min_units and t.max_units else f"charged on at most {t.max_units.value} units"
                      if t.max_units else ""),
            "notes": [esc.text(n) for n in t.notes]}
