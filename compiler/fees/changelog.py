"""The generated module's changelog for programmers: what changed since the module it replaces.

Each generated ``navlaw_fees`` carries ``api.json``: its routes, each route's options and base
schedules (citation, dates, brackets as written) and the base quote (no options) for a few standard
vessel sizes at every date on which a schedule starts or ends (quotes change on no other day, so the
quote on any date is the one at the latest such date before it). ``CHANGES`` compares it with the
``api.json`` of the module being replaced (routes, options and schedules added or removed, and the
quotes that differ, before → after), and ``README.md`` repeats it under "Changes". A build that changes
nothing in the API keeps the earlier ``CHANGES``; so the text is deterministic, and the same corpus
gives the same bytes. Only JSON is read from the old module, never its code.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from navlaw.fees.package import EXAMPLE_ON, EXAMPLE_UNITS, About
from navlaw.fees.plans import Plan, established
from navlaw.fees.reference import reference_quote
from navlaw.runtime import FeeError

SIZES = (Decimal(50), Decimal(300), Decimal(1000))  # a small, a middling and a large vessel, in pilotage units
FORMAT = 1


def snapshot(plans: dict[str, Plan], version: str) -> dict[str, Any]:
    routes: dict[str, Any] = {}
    for route, plan in plans.items():
        scheds = established(plan)
        days = sorted({d for s in scheds for d in (s.effective.start, s.effective.end) if d is not None})
        quotes = []
        for d in days:
            for u in SIZES:
                try:
                    total = str(reference_quote(plans, route, units=u, on=d).total)
                except FeeError:
                    total = ""  # no schedule that day
                quotes.append([d.isoformat(), str(u), total])
        routes[route] = {
            "options": [o.name for o in plan.options],
            "schedules": _unique([{"citation": s.citation, "from": str(s.effective.start), "to": str(s.effective.end or ""),
                           "brackets": [[b.written, b.formula] for b in s.brackets],
                           "min_units": str(s.min_units.value) if s.min_units else "",
                           "max_units": str(s.max_units.value) if s.max_units else ""} for s in scheds]),
            "quotes": quotes,
        }
    return {"format": FORMAT, "version": version, "routes": routes}


def _unique(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One of each (an act restating a paragraph states its schedules again, the same)."""
    out: list[dict[str, Any]] = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def _quote_at(route: dict[str, Any], day: str, units: str) -> str | None:
    """The base quote on ``day`` from a snapshot: the one at the latest boundary on or before it; None
    before the first (no schedule)."""
    best: tuple[str, str] | None = None
    for d, u, total in route["quotes"]:
        if u == units and d <= day and (best is None or d >= best[0]):
            best = (d, total)
    return best[1] if best else None


def _money(total: str | None) -> str:
    return f"${Decimal(total):,.2f}" if total else "no schedule"


def _schedule(s: dict[str, Any]) -> str:
    when = f"{s['from']} to {s['to']}" if s["to"] else f"from {s['from']}"
    first = s["brackets"][-1] if s["brackets"] else ["", ""]
    return f"{s['citation']} {when} ({len(s['brackets'])} bracket(s); last: \"{first[0]}\": {first[1]})"


def changes(old: dict[str, Any] | None, new: dict[str, Any]) -> str:
    """What changed from ``old`` to ``new``, in words (deterministic)."""
    head = ["# Changes in navlaw_fees", ""]
    if old is None or old.get("format") != FORMAT:
        return "\n".join(head + [f"Version {new['version']}. The module it replaced carried no api.json (an earlier "
                                 "navlaw): nothing to compare with. From the next build on, this file says what "
                                 "changed in routes, options, schedules and quotes.", ""])
    out = head + [f"From {old['version']} to {new['version']}.", ""]
    o_routes, n_routes = old["routes"], new["routes"]
    added, removed = sorted(set(n_routes) - set(o_routes)), sorted(set(o_routes) - set(n_routes))
    out.append("## Routes")
    out.append(f"- added: {', '.join(added)}" if added else "- none added")
    out.append(f"- removed: {', '.join(removed)}" if removed else "- none removed")
    out += ["", "## Options"]
    said = False
    for r in sorted(set(o_routes) & set(n_routes)):
        a = [x for x in n_routes[r]["options"] if x not in o_routes[r]["options"]]
        g = [x for x in o_routes[r]["options"] if x not in n_routes[r]["options"]]
        if a or g:
            said = True
            out.append(f"- {r}: " + "; ".join(([f"added {', '.join(a)}"] if a else []) + ([f"removed {', '.join(g)}"] if g else [])))
    out += [] if said else ["- no option added or removed"]
    out += ["", "## Schedules"]
    said = False
    for r in sorted(set(o_routes) & set(n_routes)):
        olds, news = o_routes[r]["schedules"], n_routes[r]["schedules"]
        for s in news:
            if s not in olds:
                said = True
                was = next((x for x in olds if x["citation"] == s["citation"] and x["from"] == s["from"]), None)
                out.append(f"- {r}: " + (f"changed {_schedule(was)} → {_schedule(s)}" if was else f"added {_schedule(s)}"))
        for s in olds:
            if s not in news and not any(x["citation"] == s["citation"] and x["from"] == s["from"] for x in news):
                said = True
                out.append(f"- {r}: removed {_schedule(s)}")
    out += [] if said else ["- no schedule changed"]
    out += ["", f"## Base quotes that differ (no options; {', '.join(str(u) for u in SIZES)} pilotage units)"]
    said = False
    for r in sorted(set(o_routes) & set(n_routes)):
        days = sorted({d for d, _, _ in o_routes[r]["quotes"]} | {d for d, _, _ in n_routes[r]["quotes"]})
        for d in days:
            diffs = []
            for u in SIZES:
                before, after = _quote_at(o_routes[r], d, str(u)), _quote_at(n_routes[r], d, str(u))
                if before != after:
                    diffs.append(f"{u} PU {_money(before)} → {_money(after)}")
            if diffs:
                said = True
                out.append(f"- {r} on {d}: " + "; ".join(diffs))
    out += [] if said else ["- none"]
    return "\n".join(out) + "\n"


def _dump(data: dict[str, Any]) -> str:
    """JSON a diff can read: a route per block, a schedule or a quote per line."""
    lines = ["{", f'"format": {data["format"]},', f'"version": {json.dumps(data["version"])},', '"routes": {']
    routes = sorted(data["routes"].items())
    for k, (route, r) in enumerate(routes):
        lines.append(f"{json.dumps(route)}: {{")
        lines.append(f'  "options": {json.dumps(r["options"], ensure_ascii=False)},')
        lines.append('  "schedules": [')
        lines += [f"    {json.dumps(s, ensure_ascii=False, sort_keys=True)}" + ("," if i < len(r["schedules"]) - 1 else "")
                  for i, s in enumerate(r["schedules"])]
        lines.append("  ],")
        lines.append('  "quotes": [')
        lines += [f"    {json.dumps(q)}" + ("," if i < len(r["quotes"]) - 1 else "") for i, q in enumerate(r["quotes"])]
        lines.append("  ]")
        lines.append("}" + ("," if k < len(routes) - 1 else ""))
    return "\n".join(lines + ["}", "}"]) + "\n"


def readme(changes_text: str, version: str, about: About = About()) -> str:
    on = EXAMPLE_ON
    return "\n".join([
        "# navlaw_fees", "",
        f"{about.fees_under()}, to the cent, with citations (version {version}). "
        "Generated by `navlaw build` from the law texts named at the top of `__init__.py`; do not edit.", "",
        "```python", "from datetime import date", "import navlaw_fees as nf", "",
        *([f'q = nf.quote("{about.example_route}", units={EXAMPLE_UNITS}, on=date({on.year}, {on.month}, {on.day}))',
           "q.total        # the sum of the lines, each rounded once to cents"] if about.example_route else []),
        "q.trace()      # each line's working and the words of the law every number was read from", "```", "",
        "`api.json` lists the routes, options, schedules and standard quotes as data; `CHANGES` says what changed "
        "since the module this one replaced, and is repeated below.", "",
        changes_text.replace("# Changes in navlaw_fees", "## Changes", 1).replace("\n## ", "\n### "),
    ])


def attach(files: dict[str, str], plans: dict[str, Plan], version: str, previous: Path | None,
           about: About = About()) -> dict[str, str]:
    """``files`` with api.json, CHANGES and README.md, against the module in ``previous`` (a directory)."""
    new = snapshot(plans, version)
    api = _dump(new)
    old: dict[str, Any] | None = None
    old_changes = ""
    if previous is not None:
        try:
            old = json.loads((previous / "api.json").read_text(encoding="utf-8"))
            old_changes = (previous / "CHANGES").read_text(encoding="utf-8")
        except (OSError, ValueError):
            pass
    if not isinstance(old, dict) or not isinstance(old.get("routes"), dict):
        old = None
    text = old_changes if old == new and old_changes else changes(old, new)
    return {**files, "api.json": api, "CHANGES": text, "README.md": readme(text, version, about)}


def changed(previous: Path | None, files: dict[str, str]) -> bool:
    """Whether the module's API differs from the one in ``previous`` (what ``navlaw build`` reports)."""
    try:
        return previous is None or json.loads((previous / "api.json").read_text(encoding="utf-8")) != json.loads(files["api.json"])
    except (OSError, ValueError):
        return True

