"""What the generated module needs to trace a quote: the law's words as constants, a Work per line.

Each number of the law a quote uses becomes a ``Words`` constant (its value, the characters it was read
from, the file relative to the corpus, line and column), each fee a ``Where`` (provision, citation, the
dates of the fee, the version of its text, its pages on the site); a quote line is made with a ``Work``:
format strings and the values they need, so a quote pays a tuple, and ``Quote.trace()`` the formatting.
All text from the corpus reaches the generated code as ``repr()`` literals only.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Callable

from navlaw.model.nodes import section_of
from navlaw.model.tariffs import Amount, AnyTariff, BracketSchedule, FractionOfRate, Source

# The date of the version of a section's text in force on a day (None: not known), and whether the site
# has a history page of the section; build.py gives them from the timeline.
Versions = Callable[[str, dt.date], "tuple[dt.date | None, bool]"]


def site_anchor(node_id: str) -> str:
    """The anchor of a provision on its section's page (as compiler/site/render.anchor; a test checks)."""
    return "p-" + re.sub(r"[^A-Za-z0-9-]+", "-", node_id.replace("*", "x")).strip("-")


def site_slug(section: str) -> str:
    """A section's page name (as compiler/site/render.section_slug; a test checks)."""
    return re.sub(r"[^a-z0-9.-]+", "-", re.sub(r"^(\d+)([a-z]+)/", r"\1-\2-", section.lower())).strip("-")


def fmt_literal(text: str) -> str:
    """Text (maybe from the corpus) inside a ``str.format`` template: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


@dataclass
class Traces:
    """The ``Words`` and ``Where`` constants of the generated module (name -> Python expression)."""

    sources: list[tuple[str, str]]  # the corpus files (manifest-relative names) the module is made from
    versions: Versions | None = None
    objects: dict[str, str] = field(default_factory=dict)

    def file(self, path: str) -> str:
        """A source path as the corpus names it: the manifest-relative name it ends with."""
        p = PurePosixPath(path.replace("\\", "/"))
        for name, _ in sorted(self.sources, key=lambda s: -len(s[0])):
            if p.as_posix() == name or p.as_posix().endswith("/" + name):
                return name
        return p.name

    def _put(self, name: str, expr: str) -> str:
        """A constant for ``expr`` named ``name`` (``name_2``, … when two texts of one provision differ)."""
        base, n = name, 1
        while name in self.objects and self.objects[name] != expr:
            n += 1
            name = f"{base}_{n}"
        self.objects[name] = expr
        return name

    def words_expr(self, what: str, value: Decimal | str, src: Source) -> str:
        return (f"Words({what!r}, {str(value)!r}, {src.text!r}, {self.file(src.file)!r}, {src.line}, "
                f"{src.column})")

    def words(self, name: str, items: list[tuple[str, Amount | None]], extra: tuple[str, ...] = ()) -> str:
        """A tuple constant of the words of ``items`` (what, amount; those without an amount left out), then
        ``extra`` (``words_expr`` expressions)."""
        exprs = [self.words_expr(what, a.value, a.source) for what, a in items if a is not None] + list(extra)
        return self._put(f"_WORDS_{name}", "(" + "".join(e + ", " for e in exprs) + ")")

    def fraction(self, t: FractionOfRate) -> tuple[str, ...]:
        """The words of a fraction ("two-thirds"), when the text gives where."""
        src = t.fraction_source
        return (self.words_expr("fraction", f"{t.numerator}/{t.denominator}", src),) if src else ()

    def where(self, name: str, t: AnyTariff) -> str:
        e = t.effective
        sec = section_of(t.provision)
        version, pages = self.versions(sec, e.start) if self.versions and e.start else (None, False)
        slug = site_slug(sec)
        history = f"history/{slug}/#v{version}" if version and pages else ""  # one version: no history page
        expr = (f"Where({t.provision!r}, {t.citation!r}, {str(e.start or '')!r}, {str(e.end or '')!r}, "
                f"{str(version or '')!r}, {f'law/{slug}/#{site_anchor(t.provision)}'!r}, {history!r})")
        return self._put(f"_WHERE_{name}", expr)

    def brackets(self, name: str, s: BracketSchedule) -> str:
        out = []
        for i, b in enumerate(s.brackets, 1):
            words = [self.words_expr("bracket", "", b.source)]
            roles = iter(["amount"] * len(b.amounts))
            words += [self.words_expr(next(roles, "number"), a.value, a.source) for a in b.amounts]
            high = f'Decimal("{b.high}")' if b.high is not None else "None"
            out.append(f'BracketWords(Decimal("{b.low}"), {high}, {b.low_inclusive}, {b.high_inclusive}, '
                       f"{b.written!r}, ({''.join(w + ', ' for w in words)}))")
        return self._put(f"_BRACKETS_{name}", "(" + "".join(x + ", " for x in out) + ")")


def work(fmt: list[str], args: list[str], words: str, where: str, pu: str = "None", brackets: str = "()") -> str:
    """The Python expression of a line's ``Work``: ``fmt`` are templates (``fmt_literal`` any corpus text
    in them), ``args`` Python expressions of the generated code (``args[0]`` the exact amount)."""
    tail = "" if pu == "None" and brackets == "()" else f", {pu}, {brackets}"
    return (f"Work(({''.join(repr(f) + ', ' for f in fmt)}), ({''.join(a + ', ' for a in args)}), {words}, {where}"
            f"{tail})")
