"""Whether navlaw understood a text: what it looks like when it is not plain law text (a bill or amending
act given as law text, an LBDC law dump or update file; JSON and HTML are refused by their formats,
formats/nysenate.py and formats/web.py), and how much of it the tree
holds as law (sections, provisions) against plain text. Never exit 0 with nothing said on a text
navlaw did not understand: each finding says what the file looks like and what to do.
"""

from __future__ import annotations

from dataclasses import dataclass

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.frontend.formats import bill, lbdc, lbdc_update
from navlaw.frontend.manifest import Entry
from navlaw.model.nodes import Document

# Text nodes that are navigation or record-keeping, not law left unread: contents entries, an LBDC
# chapter record's title lines, LBDC's "* NB" notes, a record line with nothing after it.
_NAVIGATION = {"toc", "chapter", "title", "editorial-note", "record", "chrome", "furniture"}


@dataclass(frozen=True)
class Summary:
    sections: int
    provisions: int
    text: int  # unlabelled paragraphs and lines the tree keeps as plain text
    tables: int
    contents: int = 0  # table-of-contents entries and title lines (navigation, not law)
    chrome: int = 0  # lines of the web page around the law (navigation, disclaimers, "Last modified")

    def line(self, diags: Diagnostics) -> str:
        counts = {s: sum(1 for d in diags if d.severity is s) for s in Severity}
        contents = f", {self.contents} contents line(s)" if self.contents else ""
        contents += f", {self.chrome} chrome/furniture line(s)" if self.chrome else ""
        return (f"{self.sections} section(s), {self.provisions} provision(s), {self.tables} table(s){contents}, "
                f"{self.text} paragraph(s) left as plain text; {counts[Severity.ERROR]} error(s), "
                f"{counts[Severity.WARNING]} warning(s), {counts[Severity.INFO]} note(s)")


def summarize(doc: Document) -> Summary:
    kinds: dict[str, int] = {}
    contents = chrome = 0
    for n in doc.walk():
        if n.kind == "text" and ("chrome" in n.flags or "furniture" in n.flags):
            chrome += 1
            continue
        if n.kind == "text" and _NAVIGATION.intersection(n.flags):
            contents += 1
            continue
        kinds[n.kind] = kinds.get(n.kind, 0) + 1
    return Summary(kinds.get("section", 0), kinds.get("provision", 0), kinds.get("text", 0), kinds.get("table", 0),
                   contents, chrome)


def assess(doc: Document, text: str, entry: Entry | None, diags: Diagnostics, encoding: str = "utf-8") -> None:
    """Warnings for a text navlaw read but may not have understood."""
    path = doc.file
    if encoding != "utf-8":
        diags.add(Diagnostic(Severity.INFO, f"decoded as {encoding.upper()}, the encoding of LBDC law files "
                             "(byte 0xF5 is §)", path, 1, 1, "", "input-encoding"))
    records = lbdc.holds_records(text)
    updates = lbdc_update.updates(text) if records else 0
    if updates:  # "..SO DOC ABC4   *REPEAL*": actions on the law, applied (or said not) by law/updates.py
        diags.add(Diagnostic(Severity.INFO, f"read as an LBDC update file: {updates} update record(s) (`*REPEAL*`, "
                             "`*DELETE*` …), actions on the law rather than its text", path, lbdc_update.first_update_line(text), 1,
                             "", "input-kind"))
    elif records:
        diags.add(Diagnostic(Severity.INFO, f"read as an LBDC law dump: {lbdc.records(text)} record(s) (`..SO DOC`); "
                             "chapter and article records are read as contents, section records as the sections their "
                             "ids name", path, lbdc.first_record_line(text), 1, "", "input-kind"))
    declared = entry.format if entry is not None else ""
    if declared == lbdc.name and not records:
        diags.add(Diagnostic(Severity.WARNING, "the manifest says format = \"lbdc\", but the file has no `..SO DOC` "
                             "record line: it is read as plain law text", path, 1, 1, "", "input-kind",
                             "check that this is the LBDC file as received, or drop the format key"))
    elif declared == "plain" and records:
        diags.add(Diagnostic(Severity.WARNING, "the manifest says format = \"plain\", but the file holds LBDC record "
                             "lines (`..SO DOC`): they are read as records", path, lbdc.first_record_line(text), 1, "",
                             "input-kind", "write format = \"lbdc\", or drop the format key"))
    # a bill names itself at its head (the footer: below); an LBDC chapter record quotes its chapter law's
    # enacting clause, which is not a bill
    named = None if records else bill.named(text)
    if (named or declared == bill.name) and (entry is None or entry.kind != "act"):
        why = f"\"{' '.join(named.group(0).split())}\"" if named else "the manifest says format = \"bill\""
        diags.add(Diagnostic(Severity.WARNING, f"this looks like a bill or an amending act, not the text of the law "
                             f"({why})", path, bill.first_named_line(text), 1, "",
                             "input-kind", "give it kind = \"act\" in corpus/manifest.toml, with the date it "
                             "became law, so its instructions amend the law from their effective date"))
    s = summarize(doc)
    texts = [n for n in doc.walk() if n.kind == "text"]  # one walk of the tree for what follows
    chrome = [n for n in texts if "chrome" in n.flags]
    furniture = [n for n in texts if "furniture" in n.flags]
    if furniture:
        diags.add(Diagnostic(Severity.INFO, f"{len(furniture)} line(s) of a bill print's furniture (EXPLANATION footer, "
                             f"LBD code, page headers) kept out of the law, the first: {furniture[0].text[:60]!r}", path,
                             furniture[0].line, furniture[0].column, "", "input-kind"))
    if chrome:
        first = chrome[0]
        diags.add(Diagnostic(Severity.INFO, f"{len(chrome)} line(s) of web-page chrome (breadcrumbs, citation lines, "
                             f"disclaimers) kept out of the law, the first: {first.text[:80]!r}", path, first.line,
                             first.column, "", "input-kind"))
    covered = entry is not None and (entry.section or entry.covers)
    plain = [n for n in texts if not n.flags or not _NAVIGATION.intersection(n.flags)]
    lines = ", ".join(str(n.line) for n in plain[:5]) + (" …" if len(plain) > 5 else "")
    if updates and s.sections == 0:
        pass  # an update file holds no text: its records are not contents
    elif s.sections == 0 and not covered and s.contents and not s.provisions and s.text <= s.contents:
        first = next((n for n in doc.walk() if "toc" in n.flags or "chapter" in n.flags), doc)
        diags.add(Diagnostic(Severity.INFO, f"the text holds contents only ({s.contents} line(s)): no section's text",
                             path, first.line or 1, first.column or 1, "", "input-kind"))
    elif s.sections == 0 and not covered:
        first = plain[0] if plain else next((n for n in doc.walk() if n.kind == "provision"), doc)
        diags.add(Diagnostic(Severity.WARNING, "no section heading (\"§ 12.\", \"Section 12.\") was recognized: the "
                             f"text is not a tree of sections (it begins here{'; plain text at lines ' + lines if plain else ''})",
                             path, first.line or 1, first.column or 1, "", "input-kind",
                             "if it is one section's text, name the section in the manifest (section = \"12\")"))
    elif s.text > 20 and s.text > 2 * (s.sections + s.provisions):
        first = plain[0] if plain else doc
        diags.add(Diagnostic(Severity.WARNING, f"most of the text is left as plain text ({s.text} paragraphs against "
                             f"{s.sections} section(s) and {s.provisions} provision(s), at lines {lines}): the layout "
                             "may not be one navlaw reads", path, first.line or 1, first.column or 1, "", "input-kind",
                             "check the outline (`navlaw parse FILE`); labels navlaw did not recognise stay text"))
