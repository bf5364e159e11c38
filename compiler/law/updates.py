"""LBDC update records: the lines of an LBDC update file that act on the law database rather than carry a
text ("..SO DOC NAV88-A            *REPEAL*                 LAWS(CONSOLIDATED)").

A record is an action, applied like an act's instruction: ``*REPEAL*`` of a section (or of an article:
each of its sections) ends its text on the record's date, after the same check an act gets (the section
must be in force the day before). Every other record is *not* applied and a warning names it: a record for
another law than the corpus's, a ``*DELETE*`` (LBDC deletes a record entered in error or moved: that is
not a repeal, and navlaw does not guess which), a ``*MASTER*`` (a whole law sent again) or an action navlaw
does not know. The record's date is its file's entry in the manifest (``effective``), else the date an
update file is named by ("20140923.UPDATE"); without either it is not applied, and an error says so.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model import codes
from navlaw.frontend.acts import codes_held
from navlaw.model.codes import Code
from navlaw.frontend.corpus import Corpus
from navlaw.frontend.formats.lbdc import record
from navlaw.frontend.formats.lbdc_update import UPDATE_RE
from navlaw.law.timeline import TextVersion, Timeline


_NAMED = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})\.UPDATE")


@dataclass(frozen=True)
class Update:
    file: str
    line: int
    raw: str  # the record line as received
    id: str  # "NAV88-A"
    action: str  # "REPEAL", "DELETE", …
    when: dt.date | None
    when_phrase: str


def updates_of(corpus: Corpus) -> list[Update]:
    """Every update record of the corpus's documents, in manifest order."""
    out: list[Update] = []
    for c in corpus.documents:
        if not (c.source.contains("..SO DOC") and c.source.contains("*")):  # searched without the whole text
            continue
        text = c.source.text
        e = c.entry
        when, phrase = (e.effective, "the manifest's effective date") if e is not None and e.effective else (
            _named_date(Path(c.source.path).name))
        for m in UPDATE_RE.finditer(text):
            out.append(Update(c.source.path, text.count("\n", 0, m.start()) + 1, m.group(0).rstrip(), m.group("id"),
                              m.group("action"), when, phrase))
    return out


def _named_date(name: str) -> tuple[dt.date | None, str]:
    """The date an update file is named by ("20140923.UPDATE"); a name that is no date (20270230) is said."""
    named = _NAMED.search(name)
    if named is None:
        return None, ""
    try:
        day = dt.date(*map(int, named.groups()))
    except ValueError:
        return None, f"its file is named by {''.join(named.groups())}, which is not a date"
    if day == dt.date.min:  # navlaw compares the law with the day before, and 0001-01-01 has none
        return None, f"its file is named by {day}, which has no day before it"
    return day, "the date the update file is named by"


def apply_updates(corpus: Corpus, versions: list[TextVersion], diags: Diagnostics) -> None:
    """Add the versions the corpus's applicable update records make (repeals), and say what is not applied."""
    held = codes_held(corpus.manifest.entries, corpus.documents)
    order = len(corpus.documents)
    for u in updates_of(corpus):
        order += 1

        def say(severity: Severity, message: str, hint: str = "") -> None:
            diags.add(Diagnostic(severity, f"the LBDC update record `{' '.join(u.raw.split())}` {message}", u.file,
                                 u.line, 1, u.raw, "lbdc-update", hint))

        r = record(u.raw)
        law = u.id[:3]
        code = _held(law, held)
        if code is None:
            say(Severity.WARNING, f"is for another law ({law}), not the one this corpus holds: not applied")
            continue
        if u.action != "REPEAL":
            why = {"DELETE": "deletes the record from the LBDC database, which is not a repeal (a record entered in "
                             "error, or moved)", "MASTER": "sends a whole law again"}.get(u.action, "is an action navlaw "
                                                                                               "does not know")
            say(Severity.WARNING, f"{why}: not applied", "if the law changed, add the act that changed it "
                "(kind = \"act\") or the law's new text")
            continue
        if u.when is None:
            say(Severity.ERROR, f"has no date{': ' + u.when_phrase if u.when_phrase else ''}: not applied",
                "give its file an effective date in the manifest, or keep the LBDC file name (YYYYMMDD.UPDATE)")
            continue
        day_before = u.when - dt.timedelta(days=1)
        current = Timeline(versions)
        if r.kind == "section":
            targets = [f"{code.prefix}/{r.number}" if code.prefix else r.number]
        elif r.kind == "article":
            targets = _article_sections(corpus, r.number)
        else:
            say(Severity.WARNING, "names no section or article: not applied")
            continue
        missing = [t for t in targets if current.section_on(t, day_before).section is None]
        if not targets or missing:
            what = f"§ {', '.join(missing)}" if missing else f"article {r.number} (no section of it in the corpus)"
            say(Severity.ERROR, f"repeals {what}, which is not in force on {day_before}: not applied",
                "the corpus must hold the text it repeals, as in force the day before")
            continue
        note = f"repealed {u.when} ({u.when_phrase}; LBDC update record {u.id} in {Path(u.file).name})"
        for t in targets:
            versions.append(TextVersion(t, None, u.file, u.when, True, None, note, order, confirms=True))
        say(Severity.INFO, f"repeals § {', '.join(targets)} from {u.when} ({u.when_phrase}): applied")


def _held(law_id: str, held: tuple[Code, ...]) -> Code | None:
    """The code of the corpus an LBDC law id ("NAV") is, through the table of codes (None: not the corpus's)."""
    named = codes.code_for(codes.law_of_record(law_id)) if codes.law_of_record(law_id) else None
    return next((c for c in held if named is not None and c.cite.lower() == named.cite.lower()), None)


def _article_sections(corpus: Corpus, number: str) -> list[str]:
    """The sections the corpus's texts place in an article."""
    out: list[str] = []
    for c in corpus.documents:
        for n in c.document.walk():
            if n.kind == "article" and (n.label or "").lower() == number.lower():
                out += [s.id for s in n.walk() if s.kind == "section" and s.id not in out]
    return out
