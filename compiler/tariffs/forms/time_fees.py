"""A minimum/maximum "charge calculated on N pilotage units", a transporting charge as a fraction of
the rate, detention by the hour and days carried off."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator

from navlaw.model import numbers as W
from navlaw.model.nodes import Node
from navlaw.model.tariffs import AnyTariff, Amount, Effective, FractionOfRate, TimeFee
from navlaw.tariffs.reading import Ctx, fraction_in_words, number_in_words, prose, rx


_MIN_RE = rx(r"(?i)A (?P<which>minimum|maximum) charge calculated on (?P<n>[a-z\- \n]+?) pilotage units")
_MILES_RE = rx(r"(?i)piloted for less than (?P<n>[a-z\- \n]+?) miles shall pay a transporting charge equal to "
                       r"(?P<f>[a-z\- \n]+?) of the statutory rate")
_HOURLY_RE = rx(r"(?i)detained on board a vessel at berth for more than (?P<after>[a-z\- \n]+?) hours shall be "
                        r"paid at the rate of (?P<m>[a-z\- \n]+?dollars) per hour(?P<part> or fraction thereof)?")
_UNMEASURED_RE = rx(r"(?i)Failure to provide the measurements so required shall subject (?:the )?vessel to the maximum "
                    r"pilotage charge")
_RETURN_RE = rx(r"(?i)return transportation")
_DAILY_RE = rx(r"(?i)pilot carried off on board a vessel[^.]*? shall be paid (?P<m>[a-z\- \n]+?dollars) per day")


def read(ctx: Ctx, route: str, node: Node) -> Iterator[AnyTariff | tuple[str, Amount | str]]:
    """"A minimum charge calculated on N pilotage units" (a ("minimum", N) pair, applied to the route's
    base schedules), "Failure to provide the measurements … the maximum pilotage charge" (an
    ("unmeasured", citation) pair); the transporting charge, detention by the hour and carried-off days."""
    for start, end in prose(node):
        text = ctx.text[start:end]
        if _UNMEASURED_RE.search(text):  # the maximum charge for a vessel whose measurements are not given
            yield ("unmeasured", node.citation)
        for m in _MIN_RE.finditer(text):
            try:
                n = number_in_words(m["n"])
            except ValueError:
                continue
            yield (m["which"].lower(), ctx.amount(n, start + m.start("n"), start + m.end("n")))
        for m in _MILES_RE.finditer(text):
            try:
                miles = number_in_words(m["n"])
                frac = fraction_in_words(m["f"])
            except ValueError:
                continue
            yield FractionOfRate(
                id=f"{route}/{node.id}/transporting-charge", kind="fraction", route=route,
                series=f"{route}/transporting-charge", title=f"Transporting charge (under {miles} miles)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("\"Two-thirds of the statutory rate\" is charged instead of the pilotage fee: two-thirds of "
                       "the fee at the statutory rate (with the unit minimum and maximum), rounded once.",),
                numerator=frac.numerator, denominator=frac.denominator,
                fraction_source=ctx.src(start + m.start("f"), start + m.end("f")),
                condition_miles=ctx.amount(miles, start + m.start("n"), start + m.end("n")))
        for m in _HOURLY_RE.finditer(text):
            try:
                after = number_in_words(m["after"])
                money = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"{route}/{node.id}/detention", kind="time", route=route,
                series=f"{route}/detention", title="Pilot detained on board (per hour)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("Read as: once the detention exceeds two hours, every hour of it is paid, a part of an hour "
                       "counting as an hour.",),
                amount=ctx.amount(money, start + m.start("m"), start + m.end("m")), per="hour",
                after=ctx.amount(after, start + m.start("after"), start + m.end("after")),
                part_counts=bool(m["part"]))
        for m in _DAILY_RE.finditer(text):
            try:
                money = W.money(m["m"])
            except ValueError:
                continue
            yield TimeFee(
                id=f"{route}/{node.id}/carried-off", kind="time", route=route,
                series=f"{route}/carried-off", title="Pilot carried off (per day)",
                provision=node.id, citation=node.citation, file=ctx.doc.file,
                effective=Effective(None, None, "with", "in force with the rates of the same text"), status=ctx.status,
                notes=("Paid per whole day: the law says nothing of part days, so a fractional number of days is "
                       "refused rather than guessed.",) + ((
                    "Not included: the pilot's first class return transportation, which the law awards "
                    f"({node.citation}) but whose cost is not in the law text.",) if _RETURN_RE.search(text) else ()),
                amount=ctx.amount(money, start + m.start("m"), start + m.end("m")), per="day")
