"""Whose law a text is: the one table of New York codes navlaw knows (name, how it is cited, its LBDC law
id), read from the manifest (``law = "Vehicle and Traffic Law"``) or from the text itself (an LBDC record
id, a page's title, a Westlaw "21 CRR-NY 51.1" line), and the :class:`Code` every citation is made with.

A code not in the table is still named as the text or the manifest names it; a text that says nothing of
its law, given alone, is cited by section only ("§ 98") and said so: never as some other law's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    """The body of law a document belongs to: how its ids start and how it is cited ("" when the text
    does not say whose law it is: cited by section only)."""

    prefix: str = ""  # id prefix, e.g. "21nycrr"; empty for the corpus's own chapter
    cite: str = ""  # "Nav. Law", "21 NYCRR"


@dataclass(frozen=True)
class Law:
    key: str  # the LBDC law id: "NAV", "VAT"
    name: str  # "Vehicle and Traffic Law"
    cite: str  # "Veh. & Traf. Law"
    words: str = ""  # other ways a title names it (a regex): "navigation code"


# One row per code. Consolidated laws cite as the New York Official Reports style abbreviates them.
LAWS: tuple[Law, ...] = (
    Law("NAV", "Navigation Law", "Nav. Law", r"navigation\s+code|\(NAV\)"),
    Law("VAT", "Vehicle and Traffic Law", "Veh. & Traf. Law", r"vehicle\s+(?:&|and)\s+traffic\s+code|VTL|\(VAT\)"),
    Law("ENV", "Environmental Conservation Law", "Envtl. Conserv. Law", r"\bECL\b|\(ENV\)"),
    Law("ABC", "Alcoholic Beverage Control Law", "Alco. Bev. Cont. Law", r"\(ABC\)"),
    Law("ABP", "Abandoned Property Law", "Aband. Prop. Law", r"\(ABP\)"),
    Law("CCO", "Cooperative Corporations Law", "Coop. Corp. Law", r"\(CCO\)"),
    Law("ELN", "Election Law", "Elec. Law", r"\(ELN\)"),
    Law("PBH", "Public Health Law", "Pub. Health Law", r"\(PBH\)"),
    Law("GMU", "General Municipal Law", "Gen. Mun. Law", r"\(GMU\)"),
    Law("EXC", "Executive Law", "Exec. Law", r"\(EXC\)"),
    Law("PEN", "Penal Law", "Penal Law", r"\(PEN\)"),
    Law("TAX", "Tax Law", "Tax Law", r"\(TAX\)"),
    Law("PRK", "Parks, Recreation and Historic Preservation Law", "Parks Rec. & Hist. Preserv. Law", r"\(PRK\)"),
)
_BY_KEY = {law.key: law for law in LAWS}
_BY_NAME = {law.name.lower(): law for law in LAWS}
_BY_CITE = {law.cite.lower(): law for law in LAWS}
_NYCRR_RE = re.compile(r"(?i)^\s*(?:title\s+)?(?P<t>\d{1,2})\s*(?:NYCRR|CRR-NY)\s*$")
# "21 CRR-NY 51.1" (Westlaw's line above each section), "21 NYCRR § 55.2", "Title 21 NYCRR"
NYCRR_TEXT_RE = re.compile(r"(?m)^[ \t]*(?P<t>\d{1,2})[ \t]+(?:CRR-NY|NYCRR)[ \t]+(?:§[ \t]*)?(?P<s>\d+(?:\.\d+)+)"
                           r"(?:[ \t]*NY-CRR)?[ \t]*$")
_TITLE_RE = re.compile("(?i)(?:" + "|".join(
    [re.escape(law.name).replace(r"\ ", r"\s+") for law in LAWS] + [law.words for law in LAWS if law.words]) + ")")


_LEAD_RE = re.compile(r"[ \t]*(?:(?:New[ \t]+York|N\.Y\.|NY)(?:[ \t]+State)?[ \t]+)?(?:Consolidated[ \t]+Laws[ \t]+of[ \t]+New[ \t]+York'?s?[ \t]+)?")


def lookup(name: str) -> Law | None:
    """A law by its LBDC id, its name or its citation ("VAT", "Vehicle and Traffic Law", "Veh. & Traf. Law")."""
    n = " ".join(name.split())
    return _BY_KEY.get(n.upper()) or _BY_NAME.get(n.lower()) or _BY_CITE.get(n.lower())


def code_for(name: str, own: bool = True) -> Code | None:
    """The Code citations of a text of this law are made with; ``own``: the corpus's own chapter, whose
    ids carry no prefix (another code's ids start with its key: "vat/2251", "21nycrr/51.1"). None if the
    name is neither in the table nor an NYCRR title."""
    m = _NYCRR_RE.match(name)
    if m:
        return Code(f"{int(m['t'])}nycrr", f"{int(m['t'])} NYCRR")
    law = lookup(name)
    if law is None:
        return None
    return Code("" if own else law.key.lower(), law.cite)


def named_in(text: str) -> tuple[str, int] | None:
    """The law a page's header names ("New York Navigation Law Section 98 - …", "Navigation (NAV) CHAPTER 37",
    "Vehicle and Traffic Law § 2251", "21 CRR-NY 51.1") and the offset where it does; None if none."""
    m = NYCRR_TEXT_RE.search(text) if "CRR-NY" in text or "NYCRR" in text else None
    if m:
        return f"{int(m['t'])} NYCRR", m.start("t")
    m = None
    prev = ""
    base = 0
    for k, line in enumerate(x for x in text.split("\n")[:40] if x.strip()):
        if k >= 6:
            break
        hit = _TITLE_RE.search(line) if len(line) <= 160 else None
        # a title names the law at its start ("New York Navigation Law Section 98 - …", "Navigation (NAV)
        # CHAPTER 37"); "Statutory authority:" / "Navigation Law, section 87" is a value, not a title
        if hit is not None and _LEAD_RE.fullmatch(line[: hit.start()]) and not prev.rstrip().endswith(":"):
            m = hit
            base = text.index(line)
            break
        prev = line
    if m is None:
        return None
    word = m.group()
    law = lookup(word) or next((x for x in LAWS if x.words and re.fullmatch(x.words, word, re.I)), None)
    return (law.name, base + m.start()) if law else None


# The code of a text read with no law named (``navlaw parse FILE`` without a manifest, a tree built in a
# test): no code is guessed, so its provisions cite as "§ 88(4)" and an act read so amends no law. A document
# of the corpus takes its law from the manifest or its own text (compiler/frontend/corpus.py).
NO_LAW = Code("", "")


def law_of_record(law_id: str) -> str:
    """An LBDC record's law id ("VAT" of "..SO DOC VAT2251") as a name, or "" if not in the table."""
    law = _BY_KEY.get(law_id.upper())
    return law.name if law else ""


def chapter_name(citation: str) -> str:
    """The law a citation names ("Veh. & Traf. Law § 2251" -> "Vehicle and Traffic Law"); "" if none."""
    head = citation.split(" §", 1)[0].strip()
    law = _BY_CITE.get(head.lower())
    return law.name if law else head


def without_code(citation: str) -> str:
    """A statute's citation as its own chapter's readers shorten it: "Nav. Law § 89-b(4)" -> "§ 89-b(4)";
    a rule keeps its code ("21 NYCRR § 55.2(d)"), which is not a chapter of the consolidated laws."""
    head, sep, rest = citation.partition(" §")
    return f"§{rest}" if sep and head.strip().lower() in _BY_CITE else citation
