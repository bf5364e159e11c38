"""The manifest's [[route]] table: each pilotage route a corpus declares, the sections that price it, and
the family and selectors that tell routes priced by the same sections apart (DESIGN.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol


class _Reader(Protocol):
    """What of the manifest's reader the route table needs: its lines, where each [[route]] starts, and
    where to say what is wrong (navlaw.frontend.manifest's reader)."""

    lines: list[str]
    route_headers: list[int]

    def error(self, line: int, message: str, hint: str = "") -> None: ...

ROUTE_KEYS = {"id", "name", "title", "sections", "family", "selectors", "part", "not_charged"}


@dataclass(frozen=True)
class Route:
    """A pilotage route, declared in the manifest: which sections' tariffs price it (DESIGN.md)."""

    id: str  # the name programs pass to navlaw_fees.quote
    name: str  # for people (the site)
    title: str  # what its base fee is called (quote lines, the module's docstrings)
    sections: tuple[str, ...]  # section ids whose tariffs price it: "89-b", "21nycrr/55.2"
    family: str = ""  # routes priced by the same sections share a family: their common fees carry its name
    selectors: tuple[str, ...] = ()  # words that choose this route within a shared section: "Section 1", "Zone 1"
    part: str = ""  # how a schedule title names the route within a shared section: "Section 1, Lower River"
    not_charged: tuple[str, ...] = ()  # fees of its family the route does not pay ("mid-river launch fee")
    line: int = 0


def read_routes(r: _Reader, given: object) -> tuple[Route, ...]:
    """The [[route]] table: each route's id, names and the sections that price it."""
    if not isinstance(given, list) or not all(isinstance(x, dict) for x in given):
        r.error(1 + next((n for n, l in enumerate(r.lines) if l.strip().startswith(("[route]", "route"))), 0),
                "`route` must be an array of tables: write each route under [[route]] (two brackets)")
        return ()
    out: list[Route] = []
    for i, d in enumerate(given):
        line = r.route_headers[i] if i < len(r.route_headers) else 1
        for k in sorted(set(d) - ROUTE_KEYS):
            r.error(line, f"unknown key {k!r} in a [[route]]", f"known keys: {', '.join(sorted(ROUTE_KEYS))}")
        rid, sections = d.get("id"), d.get("sections")
        if not isinstance(rid, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", rid):
            r.error(line, f"a [[route]] needs id = \"lowercase-words\" (the name programs pass to quote), not {rid!r}")
            continue
        if not isinstance(sections, list) or not sections or not all(isinstance(x, str) for x in sections):
            r.error(line, f"route {rid!r} needs sections = [\"12-a\", …]: the sections whose tariffs price it")
            continue
        texts = {k: d.get(k, "") for k in ("name", "title", "family", "part")}
        lists = {k: d.get(k, []) for k in ("selectors", "not_charged")}
        bad = [k for k, v in texts.items() if not isinstance(v, str)] + [
            k for k, v in lists.items() if not isinstance(v, list) or not all(isinstance(x, str) for x in v)]
        if bad:
            r.error(line, f"route {rid!r}: {', '.join(bad)} must be text in quotes (or a list of them)")
            continue
        out.append(Route(rid, str(texts["name"]) or rid, str(texts["title"]) or f"{rid} pilotage", tuple(sections),
                         str(texts["family"]), tuple(lists["selectors"]), str(texts["part"]),
                         tuple(x.lower() for x in lists["not_charged"]), line))
    ids = [x.id for x in out]
    for x in out:
        if ids.count(x.id) > 1 and x.line != next(y.line for y in out if y.id == x.id):
            r.error(x.line, f"route {x.id!r} is declared twice")
        shared = [y for y in out if y is not x and set(y.sections) & set(x.sections)]
        if shared and (not x.family or any(y.family != x.family for y in shared)):
            r.error(x.line, f"routes {x.id!r} and {shared[0].id!r} are priced by the same sections: give both the same "
                    "family = \"…\" and selectors = [\"words that choose each\"]")
    return tuple(out)
