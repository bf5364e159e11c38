"""Quote options, declared in the manifest's [[option]] table: their names, kinds, words and the fees
of the law that price them (DESIGN.md, "Routes are data"). The fee generator, the command line, the
calculator and the site all read this one declaration; no option name lives in navlaw's code.

A fee a form reads is an option's when the fee's kind (the part of its series after the route: the
form's name for what it recognised) matches one of the option's ``fees`` patterns (shell-style, "*" for
any words), or when the document's [document.options] names the option at the fee's provision (a
rule's fees, which its text does not name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Callable

KINDS = ("flag", "hours", "choice", "miles", "days", "amount")  # what a caller gives: navlaw_fees.option_forms
OPTION_KEYS = {"name", "kind", "title", "help", "fees", "priced_as", "one_charge_with", "repeatable", "board_fees"}


@dataclass(frozen=True)
class OptionDecl:
    """One quote option of the corpus: what programs pass to navlaw_fees.quote and what people read."""

    name: str  # the keyword programs pass (an identifier)
    kind: str  # one of KINDS
    title: str  # what a quote line, a tariff title and the site call its charge
    help: str  # what it is, in words for people (nf.options, the calculator, `navlaw fee ROUTE --help`)
    fees: tuple[str, ...] = ()  # patterns of the fee kinds it charges (see the module's docstring)
    priced_as: str = ""  # another option whose fees price it (an undocking priced as a docking)
    one_charge_with: str = ""  # an option charging the same person: given together, this one adds nothing
    repeatable: bool = False  # a flag given as a count: each event is charged
    board_fees: tuple[str, ...] = ()  # fees a board sets whose "not included" note it answers, by title
    line: int = 0

    def prices(self, fee_kind: str) -> bool:
        return any(fnmatchcase(fee_kind, p) for p in self.fees)


def fee_kind(route: str, series: str) -> str:
    """The form's name for a fee: its series after the route ("transporting-charge", "launch/yonkers")."""
    return series[len(route) + 1:] if series.startswith(route + "/") else series


def read_options(given: object, lines: list[str], error: Callable[..., Any]) -> tuple[OptionDecl, ...]:
    """The [[option]] table, checked: a bad entry is an error at its line, never a quietly missing option."""
    if given in (None, []):
        return ()
    headers = [k + 1 for k, l in enumerate(lines) if l.strip() == "[[option]]"]
    if not isinstance(given, list) or not all(isinstance(x, dict) for x in given):
        error(headers[0] if headers else 1, "`option` must be an array of tables: write each option under [[option]]")
        return ()
    out: list[OptionDecl] = []
    for i, d in enumerate(given):
        line = headers[i] if i < len(headers) else 1
        for k in sorted(set(d) - OPTION_KEYS):
            error(line, f"unknown key {k!r} in an [[option]]", f"known keys: {', '.join(sorted(OPTION_KEYS))}")
        name, kind = d.get("name"), d.get("kind")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            error(line, f"an [[option]] needs name = \"lowercase_words\" (the keyword programs pass), not {name!r}")
            continue
        if kind not in KINDS:
            error(line, f"option {name!r}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
            continue
        texts = {k: d.get(k, "") for k in ("title", "help", "priced_as", "one_charge_with")}
        lists = {k: d.get(k, []) for k in ("fees", "board_fees")}
        bad = [k for k, v in texts.items() if not isinstance(v, str)] + [
            k for k, v in lists.items() if not isinstance(v, list) or not all(isinstance(x, str) for x in v)]
        if bad or not isinstance(d.get("repeatable", False), bool):
            error(line, f"option {name!r}: {', '.join(bad) or 'repeatable'} has the wrong type "
                  "(text in quotes, a list of them, or true/false for repeatable)")
            continue
        out.append(OptionDecl(name, str(kind), str(texts["title"]) or name, str(texts["help"]), tuple(lists["fees"]),
                              str(texts["priced_as"]), str(texts["one_charge_with"]), bool(d.get("repeatable", False)),
                              tuple(x.lower() for x in lists["board_fees"]), line))
    names = [o.name for o in out]
    for o in out:
        if names.count(o.name) > 1 and o.line != next(x.line for x in out if x.name == o.name):
            error(o.line, f"option {o.name!r} is declared twice")
        for k in ("priced_as", "one_charge_with"):
            if getattr(o, k) and getattr(o, k) not in names:
                error(o.line, f"option {o.name!r}: {k} names {getattr(o, k)!r}, which no [[option]] declares")
    return tuple(out)
