"""The language of a legislative session, measured: every bill of a folder (by default the 600 real
bills of ../shared/bills/nylg-sample/, read in place) read as an amending act, as `navlaw build` reads
one (compiler/frontend/acts.parse_act), then read again with each law it names replaced by "navigation
law", so that its targets go through the path a Navigation Law act's do.

    python benchmarks/acts.py [--part tune|held-out|all] [--folder DIR] [--show KIND] [--became-law DATE]

The sample is split once, by a hash of each file's name: a third is held out (never tuned on), two
thirds are for tuning. What is counted (a section's "first sentence" is its text up to "to read as
follows:", or its first sentence):
- bills read, tracebacks (an exception out of navlaw: a bug);
- builds refused: bills with at least one error, grouped by what the error says;
- effective-date clauses not read (an error from the act's effective-date section);
- instruction sentences (a first sentence saying something "is/are amended|repealed|renumbered|
  relettered|added") whose target is read; the same with the law's name replaced;
- sections that amend nothing (no such sentence) reported as amendments;
- instructions neither read nor diagnosed (taken for a section that amends nothing, or reported
  without their target read, with no error);
- Navigation Law instructions (after the replacement) reported as another law's.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import hashlib
import re
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from navlaw.diagnostics import Diagnostics, Severity  # noqa: E402
from navlaw.frontend import acts as A  # noqa: E402
from navlaw.frontend.load import SourceDocument  # noqa: E402
from navlaw.frontend.manifest import Entry  # noqa: E402

SAMPLE = ROOT.parent / "shared" / "bills" / "nylg-sample"
INSTRUCTION = re.compile(r"\b(?:is|are)\s+(?:hereby\s+)?(?:amended|repealed|renumbered|relettered|redesignated|added)\b", re.I)
# the law the acts are read against (each act's entry names it, as a corpus's manifest does: an act read with
# no law of its own amends none); an instruction for it is read, any other reported
CORPUS_LAW = "navigation law"
NAVIGATION_SUBJECT = re.compile(r"^(?:the\s+navigation\s+law\b|[^,:;]*?\bof\s+the\s+navigation\s+law\b)", re.I)


def part_of(name: str) -> str:
    """"held-out" for a third of the files (by the first byte of the SHA-256 of the name), else "tune"."""
    return "held-out" if hashlib.sha256(name.encode()).digest()[0] % 3 == 0 else "tune"


def first_sentence(text: str) -> str:
    m = re.search(r"to\s+read\s+as\s+follows\s*:", text, re.I)
    if m:
        return text[: m.end()]
    m = re.search(r"\.(?:\s+[A-Z(\[]|\s*$)", text)
    return text[: m.start() + 1] if m else text


def entry(name: str, became_law: dt.date) -> Entry:
    return Entry(name, "act", (), None, became_law, "in-force", "benchmark", "verified", "", "", "", "", "Nav. Law", (), (), 0)


def read(name: str, text: str, became_law: dt.date) -> tuple[A.Act | None, Diagnostics, str]:
    diags = Diagnostics()
    src = SourceDocument(name, text, hashlib.sha256(text.encode()).hexdigest(), len(text.encode()))
    try:
        return A.parse_act(src, entry(name, became_law), diags), diags, ""
    except Exception:  # noqa: BLE001 - a traceback is what this counts
        return None, diags, traceback.format_exc(limit=-3)


def group(message: str) -> str:
    """An error's kind: its message with quoted text, section numbers and ids taken out."""
    m = re.sub(r"'[^']*'|\"[^\"]*\"|'.*$", "…", message)
    m = re.sub(r"§ \d+ of the act", "§ N of the act", m)
    m = re.sub(r"\b\d[\w./-]*", "N", m)
    return m[:110]


def substituted(text: str, laws: set[str]) -> str:
    for law in sorted(laws, key=len, reverse=True):
        words = r"\s+".join(re.escape(w) for w in law.split())
        text = re.sub(rf"(?i)\b{words}\b", "navigation law", text)
    return text


def measure(files: list[Path], became_law: dt.date, show: str) -> dict[str, object]:
    c: collections.Counter[str] = collections.Counter()
    refused: collections.Counter[str] = collections.Counter()
    shown: list[str] = []

    def say(kind: str, line: str) -> None:
        if show and kind == show:
            shown.append(line)

    for path in files:
        text = path.read_text(encoding="utf-8")
        act, diags, tb = read(path.name, text, became_law)
        c["bills"] += 1
        if act is None:
            c["tracebacks"] += 1
            say("traceback", f"{path.name}: {tb.strip().splitlines()[-1]}")
            continue
        errors = diags.errors
        if errors:
            c["refused"] += 1
            if any("the manifest must give" not in d.message for d in errors):
                c["refused (language)"] += 1
            for kind in sorted({group(d.message) for d in errors}):
                refused[kind] += 1
            for d in errors:
                say("refused", f"{path.name}:{d.line}: {d.message[:220]}")
        by_line = collections.defaultdict(list)
        for d in errors:
            by_line[d.line].append(d)
        for s in act.sections:
            if s.kind == "effective" and any("the manifest must give" in d.message for d in by_line.get(s.line, [])):
                c["effective tied"] += 1
            if s.kind == "effective" and any("the manifest must give" not in d.message for d in by_line.get(s.line, [])):
                c["effective unread"] += 1
                say("effective", f"{path.name}:{s.line}: {by_line[s.line][0].message[:220]}")
        c["effective clauses"] += sum(1 for s in act.sections if s.kind == "effective")
        reported = {(r.number, r.line): r for r in act.reported}
        laws: set[str] = set()
        for s in act.sections:
            if s.kind == "effective":
                continue
            sentence = first_sentence(s.sentence)
            is_instruction = INSTRUCTION.search(sentence) is not None
            r = reported.get((s.number, s.line))
            if is_instruction:
                c["instructions"] += 1
                read_ok = s.kind == "instruction" or (s.kind == "reported" and r is not None and r.read)
                if read_ok:
                    c["targets read"] += 1
                    if r is not None and r.law and r.law != CORPUS_LAW and "chapter" not in r.law:
                        laws.add(r.law)
                else:
                    say("unread", f"{path.name}:{s.line}: {sentence[:240]}")
                if s.kind == "nothing" or (s.kind == "reported" and (r is None or not r.read)):
                    c["neither read nor diagnosed"] += 1
                    say("undiagnosed", f"{path.name}:{s.line}: [{s.kind}] {sentence[:240]}")
            elif s.kind in ("instruction", "reported"):
                c["nothing reported as amendment"] += 1
                say("nothing", f"{path.name}:{s.line}: {sentence[:240]}")
        # the same bill with each law it names replaced by the Navigation Law
        if not laws:
            for s in act.sections:
                if s.kind != "effective" and INSTRUCTION.search(first_sentence(s.sentence)):
                    c["instructions (replaced)"] += 1
                    r = reported.get((s.number, s.line))
                    c["targets read (replaced)"] += s.kind == "instruction" or (s.kind == "reported" and r is not None and r.read)
            continue
        act2, diags2, tb2 = read(path.name, substituted(text, laws), became_law)
        if act2 is None:
            c["tracebacks"] += 1
            say("traceback", f"{path.name} (replaced): {tb2.strip().splitlines()[-1]}")
            continue
        lines2 = {d.line for d in diags2.errors}
        reported2 = {(r.number, r.line): r for r in act2.reported}
        for s in act2.sections:
            sentence = first_sentence(s.sentence)
            if s.kind == "effective" or not INSTRUCTION.search(sentence):
                continue
            c["instructions (replaced)"] += 1
            r = reported2.get((s.number, s.line))
            ok = (s.kind == "instruction" and s.line not in lines2) or (s.kind == "reported" and r is not None and r.read)
            c["targets read (replaced)"] += ok
            if not ok:
                msg = next((d.message for d in diags2.errors if d.line == s.line), s.kind)
                say("unread-replaced", f"{path.name}:{s.line}: {sentence[:200]} -> {msg[:200]}")
            if s.kind == "reported" and r is not None and r.law != CORPUS_LAW and NAVIGATION_SUBJECT.search(sentence):
                c["navigation law reported as another's"] += 1
                say("misreported", f"{path.name}:{s.line}: as {r.law!r}: {sentence[:200]}")
    return {"counts": c, "refused": refused, "shown": shown}


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", default=str(SAMPLE))
    ap.add_argument("--part", choices=("tune", "held-out", "all"), default="tune")
    ap.add_argument("--became-law", default="2024-06-01", help="the date each bill is taken to have become law")
    ap.add_argument("--show", default="", help="list the cases of one kind: traceback, refused, effective, unread, "
                    "undiagnosed, nothing, unread-replaced, misreported")
    args = ap.parse_args()
    files = sorted(p for p in Path(args.folder).glob("*.md") if p.name != "README.md")
    if args.part != "all":
        files = [p for p in files if part_of(p.name) == args.part]
    r = measure(files, dt.date.fromisoformat(args.became_law), args.show)
    c: collections.Counter[str] = r["counts"]  # type: ignore[assignment]
    print(f"part: {args.part} ({len(files)} bills of {args.folder})")
    rows = [
        ("bills read", f"{c['bills'] - c['tracebacks']} of {c['bills']}"),
        ("tracebacks", str(c["tracebacks"])),
        ("builds refused (any error)", f"{c['refused']} ({pct(c['refused'], c['bills'])})"),
        ("  … for language navlaw does not read", f"{c['refused (language)']} ({pct(c['refused (language)'], c['bills'])})"),
        ("  … only for a date the manifest must give", f"{c['refused'] - c['refused (language)']}"),
        ("effective-date clauses not read", f"{c['effective unread']} of {c['effective clauses']}"),
        ("effective-date clauses a date the manifest must give", f"{c['effective tied']}"),
        ("instruction targets read", f"{c['targets read']} of {c['instructions']} ({pct(c['targets read'], c['instructions'])})"),
        ("  … law's name replaced", f"{c['targets read (replaced)']} of {c['instructions (replaced)']} "
                                    f"({pct(c['targets read (replaced)'], c['instructions (replaced)'])})"),
        ("sections amending nothing reported as amendments", str(c["nothing reported as amendment"])),
        ("instructions neither read nor diagnosed", str(c["neither read nor diagnosed"])),
        ("Navigation Law instructions reported as another law's", str(c["navigation law reported as another's"])),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    refused: collections.Counter[str] = r["refused"]  # type: ignore[assignment]
    if refused:
        print("refused, by what the errors say (bills):")
        for kind, n in refused.most_common(25):
            print(f"  {n:4}  {kind}")
    for line in r["shown"]:  # type: ignore[attr-defined]
        print(line)


if __name__ == "__main__":
    main()
