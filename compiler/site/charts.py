"""The tariff pages' charts: the fee against pilotage units per schedule, and the fee for 300 units
over time — static SVG with axis titles and ticks, a legend outside the plot (HTML, so it wraps and
stays readable on a phone), colours from CSS classes that hold in light and dark mode (navlaw.css),
the schedule in force on the site's date marked, and a text alternative (the same words as a paragraph
below the chart)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_CEILING, Decimal
from typing import TYPE_CHECKING

from navlaw import escape as esc
from navlaw.runtime import cents
from navlaw.model.tariffs import BracketSchedule

if TYPE_CHECKING:
    from navlaw.site.money import Quotes

# A viewBox this wide, drawn 350 px wide on a phone, keeps 15-unit text above 10 px.
W, H = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 84, 34, 40, 48
FONT = 14
SERIES = 8  # colour classes s0 … s7 in navlaw.css


def _nice(top: Decimal) -> tuple[Decimal, list[Decimal]]:
    """An axis maximum at or above ``top`` and 4–5 round ticks up to it: 12,345 -> 15,000 by 5,000."""
    if top <= 0:
        return Decimal(1), [Decimal(0), Decimal(1)]
    step = Decimal(1)
    while step * 10 <= top:
        step *= 10
    for m in (Decimal("0.2"), Decimal("0.25"), Decimal("0.5"), Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5)):
        if top / (step * m) <= 5:
            step = step * m
            break
    n = int((top / step).to_integral_value(rounding=ROUND_CEILING))  # not ``//``: Decimal's truncates
    return step * n, [step * k for k in range(n + 1)]


def in_force(s: BracketSchedule, on: dt.date) -> bool:
    """In force on ``on``: started, and not ended (an end the corpus does not establish is not "in force")."""
    e = s.effective
    return (e.start is not None and e.start <= on and (e.end is None and e.end_basis != "unresolved"
                                                         or e.end is not None and on < e.end))


def status_on(s: BracketSchedule, on: dt.date) -> str:
    """A schedule's status in words relative to the site's date: "in force", "ended 2023-01-01",
    "from 2027-01-01", "date not established"."""
    e = s.effective
    if e.start is None:
        return "date not established"
    if e.possibly(on):  # its start is known only between bounds, and the site's date falls between them
        return f"may be in force on {on}: from a day {e.start_words()}, certainly from {e.start}"
    if e.start > on:
        return f"from {e.start}" if e.start_from is None else f"from a day {e.start_words()}"
    if e.end is not None and e.end <= on:
        return f"ended {e.end}"
    if e.end_from is not None and e.end_from <= on:
        return f"in force on {on} unless the change whose date is known only between bounds came first (it may have " \
               f"ended from {e.end_from}; certainly on {e.end})"
    if e.end is None and e.end_basis == "unresolved":
        return f"from {e.start}; when it ended is not established"
    return f"in force on {on}"


def legend_when(s: BracketSchedule, on: dt.date) -> str:
    """When a schedule is law, and its status: "2023-01-01 to 2024-01-01 (ended)", "from 2026-01-01 (in
    force on 2026-12-01)" — two texts of one clause (old and new law) are told apart by their dates."""
    e = s.effective
    span = f"{e.start} to {e.end}" if e.end else f"from {e.start}"
    if e.start_from is not None:  # a start known only between bounds
        span = f"from a day {e.start_words()}" + (f" to {e.end}" if e.end else "")
    status = status_on(s, on)
    if status.startswith("may be in force"):
        return span + " (may be in force)"
    return span + (" (ended)" if status.startswith("ended") else f" ({status})" if not status.startswith("from") else
                   " (not yet in force)" if e.start and e.start > on else " (when it ended is not established)")


def _frame(xticks: list[tuple[float, str]], yticks: list[tuple[float, str]], xtitle: str, ytitle: str) -> str:
    parts = [f'<line class="axis" x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}"/>',
             f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}"/>']
    for x, label in xticks:
        parts.append(f'<line class="tick" x1="{x:.1f}" y1="{H - BOTTOM}" x2="{x:.1f}" y2="{H - BOTTOM + 5}"/>'
                     f'<text x="{x:.1f}" y="{H - BOTTOM + 20}" font-size="{FONT}" text-anchor="middle">{label}</text>')
    for y, label in yticks:
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>'
                     f'<text x="{LEFT - 6}" y="{y + 5:.1f}" font-size="{FONT}" text-anchor="end">{label}</text>')
    parts.append(f'<text class="axis-title" x="{(LEFT + W - RIGHT) / 2:.0f}" y="{H - 6}" font-size="{FONT}" '
                 f'text-anchor="middle">{xtitle}</text>')
    parts.append(f'<text class="axis-title" x="4" y="{TOP - 16}" font-size="{FONT}">{ytitle}</text>')  # above the axis
    return "".join(parts)


def _money(v: Decimal) -> str:
    return f"${v:,.0f}" if v >= 1000 or v == v.to_integral() else f"${v:,.2f}"


def _svg(route: str, kind: str, title: str, desc: str, body: str) -> str:
    return (f'<svg class="chart" role="img" data-search-exclude viewBox="0 0 {W} {H}" width="100%" '
            f'aria-labelledby="{kind}t-{route} {kind}d-{route}">'
            f'<title id="{kind}t-{route}">{esc.text(title)}</title><desc id="{kind}d-{route}">{esc.text(desc)}</desc>'
            + body + "</svg>")


def _not_drawn(schedules: list[BracketSchedule], quotes: Quotes) -> str:
    """The schedules a chart leaves out, and why: ``navlaw fee`` quotes no day of them."""
    left = [s for s in schedules if not quotes.quotable(s)]
    if not left:
        return ""
    from navlaw.report.changes import cited
    items = "; ".join(f"{s.citation} ({cited(quotes.why_not(s))})" for s in left)
    return (f'<p class="chart-alt not-drawn" data-search-exclude>Not drawn, as <code>navlaw fee</code> quotes no day '
            f'of them: {esc.text(items)}.</p>')


def _unit_points(s: BracketSchedule) -> list[Decimal]:
    """Where a fee line can bend between 1 and 2,000 units: the brackets' ends (and just below a
    half-open end), the clamps, and every 50 units in between."""
    pts = {Decimal(1), Decimal(2000)} | {Decimal(u) for u in range(50, 2001, 50)}
    for b in s.brackets:
        for v in (b.low, b.high):
            if v is not None and 1 <= v <= 2000:
                pts |= {Decimal(v), Decimal(v) - Decimal("0.01")}
    for c in (s.min_units, s.max_units):
        if c is not None and 1 <= c.value <= 2000:
            pts.add(Decimal(c.value))
    return sorted(p for p in pts if p >= 1)


def fee_chart(route: str, name: str, schedules: list[BracketSchedule], quotes: Quotes,
              on: dt.date | None = None) -> str:
    """The quote (``navlaw fee``, no options, on each schedule's first day) against pilotage units (1 to
    2,000), one line per schedule the module quotes, the one in force on ``on`` bold."""
    on = on or dt.date.today()
    series = []
    for s in schedules:
        pts = [(u, t) for u in _unit_points(s) if (t := quotes.total(s, u)) is not None]
        if pts:
            series.append((s, pts))
    top, yt = _nice(max((p[1] for _, pts in series for p in pts), default=Decimal(1)))

    def x(u: Decimal) -> float:
        return LEFT + float(u) / 2000 * (W - LEFT - RIGHT)

    def y(v: Decimal) -> float:
        return H - BOTTOM - float(v / top) * (H - TOP - BOTTOM)

    lines, legend = [], []
    for i, (s, pts) in enumerate(series):
        now = in_force(s, on)
        coords = " ".join(f"{x(u):.1f},{y(f):.1f}" for u, f in pts)
        lines.append(f'<polyline class="series s{i % SERIES}{" now" if now else ""}" points="{coords}"/>')
        legend.append(f'<li class="s{i % SERIES}{" now" if now else ""}"><span class="swatch"></span>'
                      f'{esc.text(s.citation)}, {esc.text(legend_when(s, on))}</li>')
    frame = _frame([(x(Decimal(u)), f"{u:,}") for u in (0, 500, 1000, 1500, 2000)],
                   [(y(v), _money(v)) for v in yt], "Pilotage units", "Fee")
    desc = (f"The fee navlaw fee quotes (no options, on each schedule's first day, with what the law adds to "
            f"the rate table) against pilotage units (1 to 2,000) for {len(series)} schedule(s) of {name}; "
            f"the axis runs to ${top:,}.")
    return (_svg(route, "f", f"{name}: fee by pilotage units", desc, frame + "".join(lines))
            + f'<ul class="chart-legend" data-search-exclude>{"".join(legend)}</ul><p class="chart-alt" data-search-exclude>'
            f'{esc.text(desc)}</p>')


def _year_ticks(first: dt.date, last: dt.date) -> list[int]:
    """1 January of every year, or of every 2nd, 5th, 10th … year, at most seven ticks."""
    years = [y for y in range(first.year, last.year + 1) if first <= dt.date(y, 1, 1) <= last]
    for step in (1, 2, 5, 10, 20, 50):
        picked = [y for y in years if y % step == 0]
        if len(picked) <= 7:
            return picked
    return years[:: max(1, len(years) // 6)]


def rate_chart(route: str, name: str, schedules: list[BracketSchedule], quotes: Quotes,
               on: dt.date | None = None) -> str:
    """The quote for a 300-unit vessel over time, one step per schedule the module quotes, the site's
    date marked. A schedule in force with no end runs to the right edge with an arrow."""
    on = on or dt.date.today()
    units = Decimal(300)
    pts = []
    for s in schedules:
        total = quotes.total(s, units)
        if total is not None and s.effective.start is not None:
            pts.append((s.effective.start, s.effective.end, total, in_force(s, on)))
    if not pts:
        return _not_drawn(schedules, quotes)
    first = min(p[0] for p in pts)
    last = max(max((p[1] or p[0]) for p in pts), first, on)
    last = last + dt.timedelta(days=365) if last < dt.date.max - dt.timedelta(days=365) else dt.date.max
    span = (last - first).days or 1
    top, yt = _nice(max(p[2] for p in pts))

    def x(d: dt.date) -> float:
        return LEFT + (d - first).days / span * (W - LEFT - RIGHT)

    def y(v: Decimal) -> float:
        return H - BOTTOM - float(v / top) * (H - TOP - BOTTOM)

    steps = "".join(f'<line class="series s0{" now" if now else ""}" x1="{x(a):.1f}" y1="{y(v):.1f}" '
                    f'x2="{x(b or last):.1f}" y2="{y(v):.1f}"/>'
                    + ("" if b else f'<path class="series s0 open" d="M{x(last) - 8:.1f},{y(v) - 6:.1f} '
                                    f'L{x(last):.1f},{y(v):.1f} L{x(last) - 8:.1f},{y(v) + 6:.1f}"/>')
                    for a, b, v, now in pts)
    # a start known only between bounds: the days it may already be in force, dashed
    maybe = {s.effective.start: s.effective for s in schedules if s.effective.start_from is not None}
    steps += "".join(f'<line class="series s0 possible" stroke-dasharray="4 3" x1="{x(since):.1f}" '
                     f'y1="{y(v):.1f}" x2="{x(a):.1f}" y2="{y(v):.1f}"/>'
                     for a, _, v, _ in pts if a in maybe and (since := maybe[a].start_from) is not None and since >= first)
    today = (f'<line class="today" x1="{x(on):.1f}" y1="{TOP}" x2="{x(on):.1f}" y2="{H - BOTTOM}"/>'
             f'<text class="today" x="{x(on):.1f}" y="{TOP - 16}" font-size="{FONT}" text-anchor="end">{on}</text>'
             if first <= on <= last else "")
    frame = _frame([(x(dt.date(yr, 1, 1)), str(yr)) for yr in _year_ticks(first, last)],
                   [(y(v), _money(v)) for v in yt], "Date the schedule takes effect", "Fee for 300 PU")
    desc = "; ".join((f"from a day {maybe[a].start_words()}" if a in maybe else f"from {a}") + f": ${v:,}"
                     + (" (in force on the site's date)" if now else "") for a, _, v, now in pts)
    return (_svg(route, "r", f"{name}: the fee for 300 pilotage units over time", desc, frame + steps + today)
            + f'<p class="chart-alt" data-search-exclude>The fee <code>navlaw fee</code> quotes for 300 pilotage '
            f'units, {esc.text(desc)}.</p>' + _not_drawn(schedules, quotes))


_NUM = r"(\d+(?:\.\d+)?)"


def fee_text(formula: str) -> str:
    """A bracket's fee in one notation, money as money: "1163" -> "$1,163.00", "11.72 × PU" -> "$11.72 × PU",
    "(PU - 500) × 1.57 + 5860" -> "(PU − 500) × $1.57 + $5,860.00"; any other formula as the tariff states it."""
    def money(x: str) -> str:
        return f"${Decimal(x):,.2f}"

    if re.fullmatch(_NUM, formula):
        return money(formula)
    if m := re.fullmatch(_NUM + r" × PU", formula):
        return f"${m.group(1)} × PU"
    if m := re.fullmatch(r"\(PU - " + _NUM + r"\) × " + _NUM + r" \+ " + _NUM, formula):
        return f"(PU − {m.group(1)}) × ${m.group(2)} + {money(m.group(3))}"
    return formula
