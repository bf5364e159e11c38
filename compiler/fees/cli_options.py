"""`navlaw fee ROUTE`'s route options on the command line, parsed by argparse from what the fee module
declares for the route (``navlaw_fees.option_forms``, ``navlaw_fees.options``): an unknown option, a
value that is not one of its choices or an option given too often is a usage error (exit 2) that
lists the route's options; ``navlaw fee ROUTE --help`` lists them with their help. Numbers are passed
on as written, for the module's one number grammar to read."""

from __future__ import annotations

import argparse
from typing import Any, Callable


class FeeUsage(Exception):
    """A route option the route does not take, or takes otherwise: exit 2."""


_METAVARS = {"count": "N", "hours": "HOURS", "miles": "MILES", "days": "DAYS", "amount": "DOLLARS"}


def _yes_no(text: str) -> bool:
    got = {"true": True, "yes": True, "false": False, "no": False}.get(text.lower())
    if got is None:
        raise argparse.ArgumentTypeError(f"{text!r}: expected yes or no (or the flag alone)")
    return got


def _yes_no_or_times(text: str) -> bool | str:
    """A count option: the flag alone (once), yes/no, or a number of times (checked by the module)."""
    return _yes_no(text) if text.lower() in ("true", "yes", "false", "no") else text


def route_parser(route: str, forms: dict[str, tuple[str, int, tuple[str, ...]]], helps: dict[str, str],
                 common: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """`navlaw fee ROUTE`'s options, from the options the fee module declares for the route: a flag, a
    count, a choice among the route's, or a number (read by the module's one number grammar)."""
    p = argparse.ArgumentParser(prog=f"navlaw fee {route}", add_help=False, parents=[common] if common else [],
                                description=f"Quote the pilotage fee for {route}, itemized with citations.")
    group = p.add_argument_group(f"options of {route}" if forms else f"options of {route}: none")
    for name, (form, most, choices) in forms.items():
        flag, many = "--" + name.replace("_", "-"), most > 1
        more = f" (up to {most}: give it once for each)" if many and form != "count" else ""
        if form == "flag":
            group.add_argument(flag, dest=name, nargs="?", const=True, type=_yes_no, action="append",
                               metavar="yes|no", help=helps.get(name, ""))
        elif form == "count":
            group.add_argument(flag, dest=name, nargs="?", const=True, type=_yes_no_or_times, action="append",
                               metavar="N", help=helps.get(name, "") + " (the flag alone: once; N: N times)")
        elif form == "choice":
            group.add_argument(flag, dest=name, choices=choices, action="append", metavar="{" + ",".join(choices) + "}",
                               help=helps.get(name, "") + more)
        else:
            group.add_argument(flag, dest=name, action="append", metavar=_METAVARS.get(form, "N"),
                               help=helps.get(name, "") + more)
    return p


def route_options(route: str, extra: list[str], nf: Any) -> dict[str, object]:
    """The route options of the command line, checked against the route's declared options; FeeUsage
    (exit 2) for an unknown option, a value that is not one of its choices, or an option given more
    often than the route takes it."""
    forms, helps = nf.option_forms(route), nf.options(route)
    parser = route_parser(route, forms, helps)
    listed = ", ".join("--" + n.replace("_", "-") for n in forms) or "none"

    def refuse(message: str) -> None:
        raise FeeUsage(f"{message}; the options of {route}: {listed} (see `navlaw fee {route} --help`)")

    parser.error = refuse  # type: ignore[method-assign, assignment]
    given, unknown = parser.parse_known_args(extra)
    if unknown:
        bad = [u for u in unknown if u.startswith("-")] or unknown
        refuse(f"{'unknown option' if bad[0].startswith('-') else 'unexpected argument'} {bad[0].split('=')[0]!r} "
               f"for {route}")
    out: dict[str, object] = {}
    for name, values in vars(given).items():
        if values is None:
            continue
        form, most, _ = forms[name]
        if len(values) > (1 if form in ("flag", "count") else most):
            refuse(f"--{name.replace('_', '-')} given {len(values)} times; {route} takes it "
                   + ("once" if form in ("flag", "count") or most == 1 else f"at most {most} times"))
        out[name] = values[0] if len(values) == 1 else values
    return out
