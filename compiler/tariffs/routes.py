"""Which route a tariff prices: the manifest's [[route]] table (DESIGN.md), asked by section and by words.

No section number lives in code: a section listed by one route prices that route; a section listed by
several routes prices their family (a fee of it applies to each), unless the text's own words select
one of them ("… per pilotage unit for Section 1", "Zone 1": the route's ``selectors``).
"""

from __future__ import annotations

from dataclasses import dataclass

from navlaw.frontend.manifest import Manifest, Route
from navlaw.frontend.options import OptionDecl, fee_kind


@dataclass(frozen=True)
class RouteTable:
    routes: tuple[Route, ...] = ()
    options: tuple[OptionDecl, ...] = ()  # the manifest's [[option]] table, in its order

    @classmethod
    def of(cls, manifest: Manifest) -> RouteTable:
        """The routes and the options a manifest declares."""
        return cls(manifest.routes, manifest.options)

    def option(self, name: str) -> OptionDecl | None:
        return next((o for o in self.options if o.name == name), None)

    def option_for(self, route: str, series: str) -> str:
        """The option that charges a fee a form read on ``route`` (by its series), or ""."""
        kind = fee_kind(route, series)
        return next((o.name for o in self.options if o.prices(kind)), "")

    def priced(self, section: str) -> str:
        """The route (or the family of routes) the tariffs of ``section`` price; "" for none."""
        owners = [r for r in self.routes if section in r.sections]
        if not owners:
            return ""
        if len(owners) == 1:
            return owners[0].id
        return owners[0].family or owners[0].id

    def select(self, priced: str, words: str) -> str:
        """The route of ``priced`` (a route or a family) that ``words`` name ("Section 2"), or ""."""
        want = " ".join(words.lower().split())
        for r in self.routes:
            if (r.id == priced or r.family == priced) and any(" ".join(s.lower().split()) == want for s in r.selectors):
                return r.id
        return ""

    def family(self, route: str) -> tuple[str, ...]:
        """The route ids a tariff of ``route`` (a route or a family) applies to, and what applies to the
        route: itself and its family."""
        r = self.get(route)
        return (route, r.family) if r is not None and r.family else (route,)

    def get(self, route: str) -> Route | None:
        return next((r for r in self.routes if r.id == route), None)

    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.routes)

    def key(self) -> str:
        """What extraction depends on, for the build cache."""
        return repr((self.routes, self.options))
