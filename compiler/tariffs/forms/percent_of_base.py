"""Fees as percentages of a base rate ("5 percent per hour of the Zone 2 Base Rate … up to a maximum
charge of 35 percent"), launch and transport fees per pilotage unit, and the deleted [bracketed]
dollar amounts of an amended rule, kept as superseded."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterator

from navlaw.diagnostics import Severity
from navlaw.model.nodes import Node
from navlaw.model.tariffs import AnyTariff, Amount, Effective, FlatFee, Percentage, PerUnitFee
from navlaw.model import numbers as W
from navlaw.tariffs.reading import Ctx, slug, default_start, prose, rx


_PERCENT_RE = rx(r"(?i)(?P<p>\d+(?:\.\d+)?)\s*(?:percent|%)(?P<per>\s+per\s+hour)?\s+of\s+the\s+"
                         r"(?P<of>(?P<named>Zone\s+\d+)\s+Base\s+Rate|regular\s+pilotage\s+fee)"
                         r"(?:[^.;]*?up\s+to\s+a\s+maximum\s+charge\s+of\s+(?P<max>\d+)\s*(?:percent|%))?"
                         r"(?P<day>[^.;]*?for\s+each\s+24[\s-]+hours?(?P<period>\s+period)?)?")
_LAUNCH_RE = rx(r"(?i)\$(?P<rate>\d+\.\d+)\s+per\s+Pilotage\s+Unit(?:\s*\([^)]*\))?\s+for\s+(?:the\s+)?"
                        r"(?P<what>[A-Z][A-Za-z ]+?)(?=[,.]|\s+\()")
_TRANSPORT_RE = rx(r"(?i)when\s+the\s+(?P<station>Norrie Point|Yonkers)\s+Station\s+is\s+closed[^$]*?\$"
                           r"(?P<rate>\d+\.\d+)")
_UNIT_BOUNDS_RE = rx(r"(?i)minimum\s+of\s+(?P<min>\d+)\s+(?:pilotage\s+)?Units,?\s+(?:and\s+a\s+)?maximum\s+of\s+"
                             r"(?P<max>\d+)\s+(?:pilotage\s+)?Units")
_ZONE_RE = rx(r"(?i)Zone\s+(?P<z>\d)")


def _reading(text: str) -> tuple[str, list[int]]:
    """The amended reading: bracketed (deleted) matter dropped; a map from its offsets to ``text``'s."""
    out: list[str] = []
    where: list[int] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
            continue
        if ch == "]" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
            where.append(i)
    where.append(len(text))
    return "".join(out), where


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff]:
    """"5 percent per hour of the Zone 2 Base Rate … up to a maximum charge of 35 percent"; "$2.99 per
    Pilotage Unit for the Yonkers Pilot Station" (the zone's route); "when the Norrie Point Station is
    closed … $1.315"; and the dollar amounts in [deleted] matter, kept as superseded. Which quote option
    each percentage is comes from the manifest's [document.options]."""
    named = {pid: (option, choice) for pid, option, choice in (ctx.entry.options if ctx.entry else ())}
    bounds = _bounds(ctx)
    deleted = 0
    for start, end in prose(node):
        raw = ctx.text[start:end]
        text, where = _reading(raw)
        at = _At(ctx, start, where)
        eff = default_start(ctx, node)
        yield from _percentages(ctx, route, node, text, at, eff, named)
        yield from _launches(ctx, route, node, text, at, eff, bounds)
        yield from _transports(ctx, route, node, text, at, eff)
        # the superseded dollar amounts, in the bracketed (deleted) matter
        for m in re.finditer(r"\[([^\[\]]*\$[^\[\]]*)\]", raw):
            deleted += 1
            yield from _deleted(ctx, route, node, start, m, deleted, eff)


_PART_RE = rx(r"(?i)or (?:part|fraction) thereof")
_INSTEAD_RE = rx(r"(?i)dismissed without rendering services|(?:arrival|departure|arrival/departure) of a vessel is "
                 r"cancelled")


class _At:
    """Amounts of one prose chunk read in its amended reading: offsets mapped back to the raw text."""

    def __init__(self, ctx: Ctx, start: int, where: list[int]):
        self.ctx, self.start, self.where = ctx, start, where

    def amount(self, value: Decimal, a: int, b: int) -> Amount:
        return self.ctx.amount(value, self.start + self.where[a], self.start + self.where[b - 1] + 1)

    def offset(self, a: int) -> int:
        return self.start + self.where[a]


def _percentages(ctx: Ctx, route: str, node: Node, text: str, at: _At, eff: Effective,
                 named: dict[str, tuple[str, str]]) -> Iterator[AnyTariff]:
    percents = list(_PERCENT_RE.finditer(text))
    for k, m in enumerate(percents, 1):
        key = node.id if len(percents) == 1 else f"{node.id}#{k}"
        option, choice = named.get(key, ("", ""))
        if not option:
            ctx.diag(Severity.INFO, at.offset(m.start()), f"fee in {node.citation} has no quote option", "tariff-option")
        per = "hour" if m["per"] else "24 hours" if m["day"] else ""
        max_per = "24 hours" if m["per"] and m["day"] else ""
        of, words = ("base-rate", " ".join(m["named"].split())) if m["named"] else ("regular-fee", "")
        notes: list[str] = []
        if words:  # "the Zone 2 Base Rate": the base rate of the route those words select
            owner = ctx.routes.get(ctx.routes.select(route, words))
            notes.append(f"\"{words} Base Rate\" is read as the base pilotage charge of "
                         f"{owner.name if owner else f'the route of {words}'} for the vessel's pilotage units on the "
                         "same day (an interpretation: the rule does not define it).")
        free, free_reason, reading = _hours_reading(text, of, per, notes)
        yield Percentage(
            id=f"{route}/{key.replace('#', '/')}", kind="percentage", route=route, series=f"{route}/{slug(key)}",
            title=_title(ctx, option) + (f" ({choice})" if choice else ""), provision=node.id,
            citation=node.citation,
            file=ctx.doc.file, effective=eff, status=ctx.status, notes=tuple(notes),
            percent=at.amount(Decimal(m["p"]), m.start("p"), m.end("p")), of=of, of_words=words, per=per,
            max_percent=at.amount(Decimal(m["max"]), m.start("max"), m.end("max")) if m["max"] else None,
            max_per=max_per, option=option, choice=choice, free_hours=free, free_reason=free_reason,
            reading=reading, instead_of_pilotage=_instead(text), service=_service(ctx, node, text))


def _hours_reading(text: str, of: str, per: str, notes: list[str]) -> tuple[int, str, str]:
    """The hours that cost nothing and why, and the reading a charged line applies; adds their notes."""
    part_words = bool(_PART_RE.search(text))
    if per and part_words:
        notes.append(f"Charged per {per} or part thereof.")
    free, free_reason = _threshold(text)
    reading = ""
    if free_reason.startswith("services"):
        notes.append("No charge if the pilot's services are used within one hour.")
    elif free:
        late = _LATER_RE.search(text)
        assert late is not None
        reading = (f"charged only when the vessel is more than {late['n']} hour{'s' if free != 1 else ''} late "
                   f"(\"{' '.join(late.group(0).split())}\"); then every hour of the lateness is charged, a "
                   "part of an hour as an hour (an interpretation: the rule does not say whether the first "
                   "hour counts once the vessel is that late)")
        notes.append(reading[0].upper() + reading[1:] + ".")
    if of == "regular-fee" and re.search(r"(?i)require two pilots", text) and not reading:
        reading = ("one second pilot: given with the statute's second pilot, it is charged once (an "
                   "interpretation: the statute and the rule each price a second pilot)")
        notes.append(reading[0].upper() + reading[1:] + ".")
    if per == "hour" and not part_words and not reading:
        reading = ("a part of an hour is charged as a whole hour (an interpretation: the rule says \"per hour\" "
                   "and not how a part of an hour counts)")
        notes.append(reading[0].upper() + reading[1:] + ".")
    return free, free_reason, reading


def _launches(ctx: Ctx, route: str, node: Node, text: str, at: _At, eff: Effective,
              bounds: dict[str, Amount]) -> Iterator[AnyTariff]:
    zone = _ZONE_RE.search(text)
    for m in _LAUNCH_RE.finditer(text):
        zoned = ctx.routes.select(route, f"Zone {zone['z']}") if zone else ""
        what = re.sub(r"(?i)^pilot transport fee at ", "", " ".join(m["what"].split()))
        clamp_note = (f"A minimum of {bounds['min'].value} and a maximum of {bounds['max'].value} units applies.",) \
            if "min" in bounds and "max" in bounds else ()
        yield PerUnitFee(
            id=f"{zoned or route}/{node.id}/{slug(what)}", kind="per-unit", route=zoned or route,
            series=f"{zoned or route}/launch/{slug(what)}",
            title=f"Launch fee: {what}", provision=node.id, citation=node.citation, file=ctx.doc.file,
            effective=eff, status=ctx.status, notes=clamp_note,
            rate=at.amount(Decimal(m["rate"]), m.start("rate"), m.end("rate")),
            min_units=bounds.get("min"), max_units=bounds.get("max"), choice=slug(what))


def _transports(ctx: Ctx, route: str, node: Node, text: str, at: _At, eff: Effective) -> Iterator[AnyTariff]:
    for m in _TRANSPORT_RE.finditer(text):
        b = _UNIT_BOUNDS_RE.search(text, m.end())
        station = slug(m["station"])
        shared = ctx.routes.get(route) is None and bool(ctx.routes.family(route))  # a family's fee
        reading = (f"charged on either river section: the rule names the {m['station']} Station but not the "
                   "section of the transit (an interpretation)") if shared else ""
        yield PerUnitFee(
            id=f"{route}/{node.id}/transport-{station}-closed", kind="per-unit", route=route,
            series=f"{route}/transport-{station}-closed", title=f"Pilot transport fee when {m['station']} Station is closed",
            provision=node.id, citation=node.citation, file=ctx.doc.file, effective=eff, status=ctx.status,
            notes=(reading[0].upper() + reading[1:] + ".",) if reading else (),
            rate=at.amount(Decimal(m["rate"]), m.start("rate"), m.end("rate")),
            min_units=at.amount(Decimal(b["min"]), b.start("min"), b.end("min")) if b else None,
            max_units=at.amount(Decimal(b["max"]), b.start("max"), b.end("max")) if b else None,
            choice=station, reading=reading)


def _deleted(ctx: Ctx, route: str, node: Node, start: int, m: re.Match[str], k: int,
             eff: Effective) -> Iterator[AnyTariff]:
    """The dollar amounts of the ``k``-th [bracketed] deleted matter: the fees before the amendment."""
    for j, d in enumerate(re.finditer(r"\$(\d[\d,]*(?:\.\d+)?)", m.group(1)), 1):
        a0 = start + m.start(1) + d.start(1)
        value = Decimal(d.group(1).replace(",", "").rstrip("."))
        cond = m.group(1)
        yield FlatFee(
            id=f"{route}/{node.id}/deleted-{k}-{j}", kind="flat", route=route,
            series=f"{route}/{slug(node.id)}/deleted-{k}-{j}", title=f"Former fee (deleted): {node.citation}",
            provision=node.id, citation=node.citation, file=ctx.doc.file,
            effective=Effective(None, eff.start, "unresolved", "in force before the amendment; its start is "
                                "not in the corpus", "manifest" if eff.start else "unresolved",
                                "replaced when the amendment took effect"),
            status="superseded", notes=("Deleted matter ([bracketed]) of the rule notice: the amount before "
                                        "the amendment.",),
            amount=ctx.amount(value, a0, a0 + len(d.group(1))), condition=" ".join(cond.split()))


def _instead(text: str) -> str:
    """The words by which a fee is charged instead of pilotage: no pilotage is rendered (a pilot
    "dismissed without rendering services", an arrival "cancelled")."""
    m = _INSTEAD_RE.search(text)
    return " ".join(m.group(0).split()) if m else ""


# what a pilot does for a vessel: a fee for it presupposes pilotage rendered (so it cannot go with a fee
# charged instead of pilotage); read in the provision's own words and the headings above it
_SERVICE_RE = rx(r"(?i)\b(?:docking|undocking|shift(?:s|ing)?\s+a\s+vessel|fee\s+for\s+shifting|anchors\s+a\s+vessel|"
                 r"fee\s+for\s+anchoring|(?:cargo|fueling)\s+stops?)\b")


def _service(ctx: Ctx, node: Node, text: str) -> str:
    """The words by which a fee pays for an act of pilotage ("" for a fee for waiting, notice or a delay)."""
    texts = [node.heading, text]
    pid = node.id
    while "/" in pid and ctx.section is not None:  # the headings and lead-ins above it: "(d) … for docking …"
        pid = pid.rsplit("/", 1)[0]
        up = ctx.section.find(pid)
        if up is not None:
            texts += [up.heading, up.text]
    for t in texts:
        m = _SERVICE_RE.search(t or "")
        if m:
            return re.sub(r"(?i)^fee for ", "", " ".join(m.group(0).split()))
    return ""


_WITHIN_RE = rx(r"(?i)used within one hour, no charge")
_LATER_RE = rx(r"(?i)more than (?P<n>[a-z-]{1,20}) hours? later than its scheduled (?P<what>arrival|departure) time")


def _threshold(text: str) -> tuple[int, str]:
    """The hours that cost nothing, and why: "if the pilot's services are used within one hour, no
    charge"; "If a vessel arrives … more than one hour later than its scheduled arrival time … there
    shall be a charge" (up to that lateness, no charge)."""
    if _WITHIN_RE.search(text):
        return 1, "services used within 1 hour"
    m = _LATER_RE.search(text)
    if m:
        try:
            n = W.parse(m["n"])[1]
        except ValueError:
            return 0, ""
        if isinstance(n, int):
            return n, f"the vessel is not more than {m['n']} hour{'s' if n != 1 else ''} later than its scheduled {m['what']} time"
    return 0, ""


def _unit_bounds(ctx: Ctx, node: Node) -> dict[str, Amount]:
    for start, end in prose(node):
        text = ctx.text[start:end]
        m = _UNIT_BOUNDS_RE.search(text)
        if m and re.search(r"(?i)launch fees", text):
            return {"min": ctx.amount(Decimal(m["min"]), start + m.start("min"), start + m.end("min")),
                    "max": ctx.amount(Decimal(m["max"]), start + m.start("max"), start + m.end("max"))}
    return {}


def _bounds(ctx: Ctx) -> dict[str, Amount]:
    """The rule's "minimum of 100 Units and a maximum of 500 Units" for launch fees, found once per
    document: in the first priced section that states it."""
    if not ctx.memo.get("bounds") and ctx.section is not None:
        ctx.memo["bounds"] = _unit_bounds(ctx, ctx.section) or next(
            (b for b in (_unit_bounds(ctx, n) for n in ctx.section.walk()) if b), {})
    found: dict[str, Amount] = ctx.memo.get("bounds") or {}
    return found


def _title(ctx: Ctx, option: str) -> str:
    """What the manifest's [[option]] calls the charge of ``option`` ("Fee" for a fee with none)."""
    decl = ctx.routes.option(option)
    return decl.title if decl is not None else "Fee"
