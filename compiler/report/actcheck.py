"""`navlaw act check FILE`: an amending act reviewed against the corpus before the manifest is touched.

The act is put, with the date it became law, into a copy of the corpus, and the copy compiled as
`navlaw build` would: so what is said here is what a build with the act would do. For each instruction:
as read (law, target, action, effective date), whether its old text is the law in force the day before,
the redline it makes and its change in words; the fees it changes in words; what is reported (another
law's) and what is refused (why). A verdict line counts them; the exit status is 0 only if every
instruction applies or is reported.
"""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from navlaw.diagnostics import Diagnostic, NavlawError, Severity
from navlaw.frontend.acts import Act, Instruction
from navlaw.frontend.load import read_regular
from navlaw.model.nodes import citation, section_of
from navlaw.law.amend import ActOutcome
from navlaw.law.timeline import Timeline
from navlaw.model.tariffs import AnyTariff


@dataclass
class Checked:
    file: str
    lines: list[str] = field(default_factory=list)
    read: int = 0
    applied: int = 0
    reported: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)  # what stops the act (formatted diagnostics)
    rejected: bool = False  # an instruction is refused: the act is applied in no part

    @property
    def ok(self) -> bool:
        return self.refused == 0 and not self.errors


def check(file: str | Path, corpus_dir: str | Path, became_law: dt.date | None,
          compile_law: Callable[[str], Any]) -> Checked:
    """The review of one act against the corpus in ``corpus_dir`` (which is not changed); ``compile_law``
    is the pipeline's (compiler/build.py), given by the command line."""
    path = Path(file)
    out = Checked(str(path))
    try:  # a regular file of at most the size the front end reads (not read or copied whole first)
        data = read_regular(path, str(path))
    except NavlawError as exc:
        out.errors += [d.format() for d in exc.diagnostics]
        return out
    corpus = Path(corpus_dir)
    if not (corpus / "manifest.toml").is_file():
        out.errors.append(f"navlaw act check: {corpus}/: no manifest.toml (give the corpus with --corpus DIR)")
        return out
    became = became_law or dt.date.today()
    with tempfile.TemporaryDirectory(prefix="navlaw-act-check-") as tmp:
        root = Path(tmp) / "corpus"
        try:
            shutil.copytree(corpus, root, ignore=_not_read, ignore_dangling_symlinks=True)
        except (OSError, shutil.Error) as exc:
            first = exc.args[0][0] if isinstance(exc, shutil.Error) and exc.args and exc.args[0] else (None, None, exc)
            out.errors.append(f"navlaw act check: {corpus}/: cannot copy the corpus to review the act in: {first[-1]}")
            return out
        name, same, added = _put_act(root, path, data, became, out)

        def say(d: Diagnostic) -> str:
            if added and Path(d.file).name == "manifest.toml" and d.line >= added:  # the entry act check added
                return f"navlaw act check: {path} with --became-law {became}: {d.message}"
            return _here(d, root / name, path, corpus)

        try:
            result = compile_law(str(root))
        except NavlawError as exc:
            out.errors += [say(d) for d in exc.diagnostics if d.severity >= Severity.ERROR]
            return out
        act = next((a for a in result.corpus.acts if Path(a.file).name == name), None)
        mine = list(dict.fromkeys(d for d in list(result.corpus.diagnostics) + list(result.diagnostics)
                                  if Path(d.file).name.split("#")[0] == Path(name).name))
        if act is None:
            out.errors += [say(d) for d in mine if d.severity >= Severity.ERROR] or [
                f"navlaw act check: {path}: not read as an act"]
            return out
        said = ("the corpus's entry" if same else "given" if became_law is not None
                else "assumed: today; say it with --became-law DATE")
        when = f"takes effect {act.effective} ({act.effective_phrase})" if act.effective else "no effective date read"
        out.lines.insert(0, f"act {path}" + (f" — AN ACT {act.title[:160]}" if act.title else ""))
        out.lines.append(f"  became law {act.entry.became_law or became} ({said}); {when}")
        _review(out, act, result.law.outcome(act), result.timeline, result.tariffs)
        notes = [say(d) for d in mine if d.severity >= Severity.WARNING]
        out.errors += [n for d, n in zip([d for d in mine if d.severity >= Severity.WARNING], notes)
                       if d.severity >= Severity.ERROR and d.code not in ("act-apply",)]
        out.lines += notes
        out.lines.append(f"{out.read} instruction(s) read: {out.applied} appl{'y' if out.applied != 1 else 'ies'}, "
                         f"{out.reported} reported, {out.refused} refused"
                         + (" — the act can be added to the corpus" if out.ok else
                            " — the act is refused as a whole: none of it would be applied" if out.rejected else
                            " — the act does not apply as it stands"))
    return out


def _put_act(root: Path, path: Path, data: bytes, became: dt.date, out: Checked) -> tuple[str, bool, int]:
    """The act into the corpus copy at ``root``: (its file name there, whether the corpus lists it already, the
    line of the manifest entry added for it, 0 when none was: the corpus's own entry dates it)."""
    same = next((f for f in _listed_acts(root) if (root / f).is_file() and (root / f).stat().st_size == len(data)
                 and (root / f).read_bytes() == data), None)
    if same is not None:  # the corpus holds this act already: it is reviewed as the corpus has it
        out.lines.append(f"  (the corpus lists this act already, as {same}: reviewed with its entry's date)")
        return same, True, 0
    name = path.name
    while (root / name).exists():
        name = "act-check-" + name
    (root / name).write_bytes(data)
    added = len((root / "manifest.toml").read_bytes().split(b"\n")) + 1  # the line of the entry added below
    with open(root / "manifest.toml", "a", encoding="utf-8") as m:
        m.write(f'\n[[document]]\nfile = {_toml_string(name)}\nkind = "act"\nbecame_law = {became.isoformat()}\n'
                f'status = "in-force"\nsource = "navlaw act check"\nconfidence = "inferred"\n')
    return name, False, added


def _review(out: Checked, act: Act, outcome: ActOutcome, timeline: Timeline, tariffs: list[AnyTariff]) -> None:
    """Each instruction as read and what it does, what is reported, the fee changes, and the counts."""
    from navlaw.report.changes import fee_changes

    reported = outcome.of("reported")
    results = [(k, w) for k, w in outcome.results if k != "reported"]
    for ins, (kind, what) in zip(act.instructions, results):
        out.lines += _instruction(act, ins, kind, what, outcome, timeline)
    for w in reported:
        out.lines.append(f"reported: {w}")
    fees = fee_changes(act, outcome, tariffs) if not outcome.rejected else []
    out.lines += ["fee changes:"] + [f"  {f}" for f in fees] if fees else ["fee changes: none"]
    out.read = len(act.instructions) + len(act.reported)
    out.applied = sum(1 for k, _ in results if k == "applied")
    out.rejected = outcome.rejected
    out.reported = len(reported)
    out.refused = sum(1 for k, _ in results if k == "refused")


def _instruction(act: Act, ins: Instruction, kind: str, what: str, outcome: ActOutcome, timeline: Timeline
                 ) -> list[str]:
    """One instruction: the law, target and action as read, its date; refused (why), or whether its old text
    is the law the day before, its change in words and its redline."""
    from navlaw.law.redline import compare, render_text
    from navlaw.report.changes import wording

    day, phrase = act.effective_of(ins)
    section = section_of(ins.target)
    before = timeline.section_on(section, day - dt.timedelta(days=1)) if day is not None else None
    cite = citation(ins.code, ins.target) or ins.target
    action = ins.action + (f" as {ins.renamed}" if ins.renamed else "")
    law = ins.code.cite if ins.code.prefix else f"the {ins.law}"  # "the navigation law", "21 NYCRR"
    lines = [f"§ {ins.number}{f' (part {ins.part})' if ins.part else ''}: {law}, {cite} "
             f"[{ins.target}]: {action}, effective {day or '(none read)'}" + (f" ({phrase})" if phrase else "")]
    if kind == "refused":
        return lines + [f"  REFUSED: {what.split(': ', 1)[-1]}"]
    if ins.action == "amend":
        lines.append(f"  old text: matches the law in force on {day - dt.timedelta(days=1)}" if day else "")
    if outcome.rejected:
        return lines + ["  applies, but is not applied: the act is refused as a whole"]
    made = outcome.made.get((ins.number, ins.target))
    if made and made[0]:
        lines += [f"  changes: {w}" for w in wording(*made)] or ["  changes: none in its wording"]
    if before is not None and day is not None:
        a, b = before, timeline.section_on(section, day)
        changes = [c for c in compare(a.section, b.section) if c.status != "same" and
                   (c.id == ins.target or c.id.startswith(ins.target + "/") or ins.target.startswith(c.id + "/")
                    or ins.renamed and c.id.startswith(ins.renamed))]
        if changes:
            lines += ["  redline:"] + ["    " + x for x in render_text(changes).split("\n")]
    return lines


def _here(d: Diagnostic, copy: Path, original: Path, corpus: Path | None = None) -> str:
    """A diagnostic of the copy, said of the file the user gave (and of the corpus directory given)."""
    text = d.format()
    if not d.file:
        return text
    text = text.replace(str(copy), str(original))
    if copy.name != original.name:
        text = text.replace(copy.name, original.name)
    return text.replace(str(copy.parent) + "/", f"{corpus}/") if corpus is not None else text


def table(results: list[Checked]) -> list[str]:
    """The acts side by side: instructions read, applied, reported, refused."""
    rows = [("act", "instructions read", "apply", "reported", "refused", "verdict")] + [
        (Path(r.file).name, str(r.read), str(r.applied), str(r.reported), str(r.refused),
         ("applies" if r.applied else "reported (other laws only)") if r.ok else
         "refused as a whole" if r.rejected or r.refused else "error: " + _first(r.errors))
        for r in results]
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return out


def _first(errors: list[str]) -> str:
    return errors[0].split(": error: ", 1)[-1].split("\n")[0][:70] if errors else ""


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (a file name may hold a quote, a backslash or a control character)."""
    import json

    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _not_read(folder: str, names: list[str]) -> set[str]:
    """What the corpus copy leaves out: what a build never reads (version control, caches) and what cannot be
    copied as a file: a FIFO, device or socket (a build refuses one it is given, without waiting) and a link to a
    folder (a link back up the tree would be copied without end)."""
    import os
    import stat

    left = {".git", "__pycache__"} & set(names)
    for name in names:
        path = os.path.join(folder, name)
        try:
            st = os.stat(path)
        except OSError:
            continue  # a dangling link: the copy skips it
        if os.path.islink(path) and stat.S_ISDIR(st.st_mode) or not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            left.add(name)
    return left


def _listed_acts(root: Path) -> list[str]:
    """The files the corpus's manifest lists as acts."""
    import tomllib

    try:
        data = tomllib.loads((root / "manifest.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [str(d.get("file", "")) for d in data.get("document", []) if isinstance(d, dict) and d.get("kind") == "act"]


# ---- the command line: `navlaw act check` ----------------------------------------------------------------

def run(args: Any, compile_law: Callable[[str], Any]) -> int:
    import sys

    results = []
    for file in args.files:
        r = check(file, args.corpus, args.became_law, compile_law)
        results.append(r)
        if r.lines:
            print("\n".join(r.lines))
        for e in r.errors:
            print(e, file=sys.stderr)
        if len(args.files) > 1:
            print()
    if len(results) > 1:
        print("\n".join(table(results)))
    return 0 if all(r.ok for r in results) else 1
