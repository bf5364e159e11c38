"""The tariff pages' charts: the fee against pilotage units per schedule, and the fee for 300 units
over time — static SVG with a text alternative (the same words as a paragraph below it)."""

from __future__ import annotations

import re

import datetime as dt
from decimal import Decimal

from compiler import escape as esc
from compiler.runtime import cents
from compiler.tariffs.model import BracketSchedule


def fee_chart(route: str, name: str, schedules: list[BracketSchedule]) -> str:
    """A static SVG of fee against pilotage units, one line per schedule, with a text alternative."""
    w, h, pad = 640, 300, 40
    xs = [Decimal(u) for u in range(1, 2001, 10)]
    series = []
    for s in schedules:
        pts = []
        for u in xs:
            try:
                pts.append((u, cents(s.fee(u))))
            except ValueError:
                continue
        series.append((s, pts))
    top = max((p[1] for _, pts in series for p in pts), default=Decimal(1)) or Decimal(1)
    colors = ["#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#4e342e", "#ad1457"]
    lines = []
    legend = []
    for i, (s, pts) in enumerate(series):
        coords = " ".join(f"{pad + float(u) / 2000 * (w - 2 * pad):.1f},{h - pad - float(f / top) * (h - 2 * pad):.1f}"
                          for u, f in pts)
        color = colors[i % len(colors)]
        when = s.effective.start.isoformat() if s.effective.start else "?"
        lines.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{coords}"/>')
        legend.append(f'<text x="{pad + 6}" y="{pad + 14 * i}" font-size="11" fill="{color}">'
                      f'{esc.text(s.citation)} from {when}</text>')
    desc = (f"Fee against pilotage units (1 to 2,000) for {len(series)} schedule(s) of {name}; "
            f"highest fee shown ${top:,}.")
    return (f'<svg class="chart" role="img" viewBox="0 0 {w} {h}" width="100%" aria-labelledby="t-{route} d-{route}">'
            f'<title id="t-{route}">{esc.text(name)}: fee by pilotage units</title>'
            f'<desc id="d-{route}">{esc.text(desc)}</desc>'
            f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="currentColor"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="currentColor"/>'
            f'<text x="{w - pad}" y="{h - 8}" font-size="11" text-anchor="end" fill="currentColor">2,000 PU</text>'
            f'<text x="4" y="{pad - 6}" font-size="11" fill="currentColor">${top:,}</text>'
            + "".join(lines) + "".join(legend) + "</svg>"
            f'<p class="chart-alt">{esc.text(desc)}</p>')


def rate_chart(route: str, name: str, schedules: list[BracketSchedule]) -> str:
    """The fee for a 300-unit vessel over time, one step per schedule: how the rate moved, at a glance."""
    pts = []
    for s in schedules:
        try:
            pts.append((s.effective.start, s.effective.end, cents(s.fee(Decimal(300)))))
        except ValueError:
            continue
    if not pts:
        return ""
    w, h, pad = 640, 220, 40
    first = min(p[0] for p in pts)
    last = max((p[1] or p[0]) for p in pts)
    last = max(last, first) + dt.timedelta(days=365)
    span = (last - first).days or 1
    top = max(p[2] for p in pts)

    def x(d: dt.date) -> float:
        return pad + (d - first).days / span * (w - 2 * pad)

    def y(v: Decimal) -> float:
        return h - pad - float(v / top) * (h - 2 * pad)

    bars = "".join(f'<line x1="{x(a):.1f}" y1="{y(v):.1f}" x2="{x(b or last):.1f}" y2="{y(v):.1f}" stroke="#1565c0" '
                   f'stroke-width="3"/><text x="{x(a):.1f}" y="{y(v) - 4:.1f}" font-size="10" fill="currentColor">'
                   f'${v:,}</text>' for a, b, v in pts)
    desc = "; ".join(f"from {a}: ${v:,}" for a, b, v in pts)
    return (f'<svg class="chart" role="img" viewBox="0 0 {w} {h}" width="100%" aria-labelledby="tt-{route} dd-{route}">'
            f'<title id="tt-{route}">{esc.text(name)}: the fee for 300 pilotage units over time</title>'
            f'<desc id="dd-{route}">{esc.text(desc)}</desc>'
            f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="currentColor"/>'
            f'<text x="{pad}" y="{h - 8}" font-size="11" fill="currentColor">{first.year}</text>'
            f'<text x="{w - pad}" y="{h - 8}" font-size="11" text-anchor="end" fill="currentColor">{last.year}</text>'
            + bars + f'</svg><p class="chart-alt">The fee for 300 pilotage units, {esc.text(desc)}.</p>')


_NUM = r"(\d+(?:\.\d+)?)"


def fee_text(formula: str) -> str:
    """A bracket's fee in one notation, money as money: "1163" -> "$1,163.00", "11.72 × PU" -> "$11.72 × PU",
    "(PU - 500) × 1.57 + 5860" -> "(PU − 500) × $1.57 + $5,860.00"; any other formula as the tariff states it."""
    from decimal import Decimal

    def money(x: str) -> str:
        return f"${Decimal(x):,.2f}"

    if re.fullmatch(_NUM, formula):
        return money(formula)
    if m := re.fullmatch(_NUM + r" × PU", formula):
        return f"${m.group(1)} × PU"
    if m := re.fullmatch(r"\(PU - " + _NUM + r"\) × " + _NUM + r" \+ " + _NUM, formula):
        return f"(PU − {m.group(1)}) × ${m.group(2)} + {money(m.group(3))}"
    return formula
