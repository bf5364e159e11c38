"""Amending acts applied to the law: each instruction checked like a patch against the provision as
in force the day before the act takes effect, then its new text added to the timeline from its
effective date (the act's text itself is read by compiler/frontend/acts.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from compiler.diagnostics import Diagnostic, Diagnostics, Severity
from compiler.frontend.acts import LEVELS, Act, Instruction, _TOKEN, new_text, old_words
from compiler.frontend.corpus import Compiled
from compiler.frontend.load import SourceDocument
from compiler.frontend.normalize import normalize
from compiler.frontend.nodes import NAV_LAW, Node
from compiler.frontend.tree import build


def words_of(node: Node) -> list[str]:
    return _TOKEN.findall(node.full_text())


def _label_line(level_index: int, label: str) -> str:
    return f"{label}." if LEVELS[level_index] == "subdivision" else f"({label})"


def build_provision(act: Act, ins: Instruction, text: str, diags: Diagnostics) -> tuple[Node | None, Compiled | None]:
    """Parse the new text as the provision ``ins.target``: it is put under synthetic lines naming its
    ancestors ("§ 89-b.", "4.") so labels nest as in the statute."""
    parts = ins.target.split("/")
    section, path = parts[0], parts[1:]
    prefix = [f"§ {section}."]
    for depth, label in enumerate(path[:-1], 1):
        prefix.append(_label_line(min(depth, len(LEVELS) - 1), label))
    synthetic = "\n".join(prefix) + "\n" + text + "\n"
    name = f"{act.file}#section-{ins.number}"
    nt = normalize(synthetic, "real")
    local = Diagnostics()
    doc = build(nt, name, NAV_LAW, section, local)
    node = doc.find(ins.target)
    if node is None:
        diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act: its new text does not read as "
                             f"{ins.target} (the first label of the new text must be the one amended)",
                             act.file, ins.line, 1, "", "act"))
        return None, None
    src = SourceDocument(name, synthetic, "", len(synthetic.encode()))
    return node, Compiled(src, doc, act.entry)


def apply_acts(corpus, timeline, diags: Diagnostics):  # type: ignore[no-untyped-def]
    """Check each act's instructions against the law the day before it takes effect, and add its versions."""
    from compiler.law.timeline import TextVersion, Timeline

    versions = [v for vs in timeline.versions.values() for v in vs]
    order = len(corpus.documents)
    for act in sorted(corpus.acts, key=lambda a: (a.effective or dt.date.max, a.file)):
        if act.effective is None:
            continue
        order += 1
        day_before = act.effective - dt.timedelta(days=1)
        current = Timeline(versions)
        for ins in act.instructions:
            section = ins.target.split("/")[0]
            comp = current.section_on(section, day_before)
            note = f"effective {act.effective} ({act.effective_phrase}; {Path(act.file).name})"
            if ins.action == "repeal":
                exists = comp.section is not None and (ins.target == section or comp.section.find(ins.target))
                if not exists:
                    diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act repeals {ins.target}, which is not "
                                         f"in force on {day_before}", act.file, ins.line, 1, "", "act-apply"))
                    continue
                versions.append(TextVersion(ins.target, None, act.file, act.effective, True, None, note, order,
                                            confirms=True))
                continue
            if ins.action == "amend":
                old = comp.section.find(ins.target) if comp.section is not None else None
                if old is None:
                    diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act amends {ins.target}, which is not "
                                         f"in force on {day_before}" + (f": {comp.message}" if comp.message else ""),
                                         act.file, ins.line, 1, "", "act-apply"))
                    continue
                want, have = old_words(ins.body), words_of(old)
                if want != have:
                    diags.add(_mismatch(act, ins, want, have, day_before))
                    continue
            else:
                if comp.section is None:
                    diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act adds to § {section}, which is not in "
                                         f"force on {day_before}", act.file, ins.line, 1, "", "act-apply"))
                    continue
                if comp.section.find(ins.target) is not None:
                    diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act adds {ins.target}, which already "
                                         f"exists on {day_before}", act.file, ins.line, 1, "", "act-apply"))
                    continue
                stray = [w for w in old_words(ins.body) if not w.isdigit() and len(w) > 1]
                if stray:
                    diags.add(Diagnostic(Severity.ERROR, f"§ {ins.number} of the act adds {ins.target}, but its text is "
                                         f"not all new matter (not in CAPITALS): {' '.join(stray[:12])}", act.file,
                                         ins.line, 1, "", "act-apply"))
                    continue
            node, compiled = build_provision(act, ins, new_text(ins.body), diags)
            if node is None:
                continue
            versions.append(TextVersion(ins.target, node, compiled.source.path if compiled else act.file,
                                        act.effective, True, None, note, order, compiled, confirms=ins.action == "amend"))
    return Timeline(versions)


def _mismatch(act: Act, ins: Instruction, want: list[str], have: list[str], day: dt.date) -> Diagnostic:
    i = next((k for k, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
    lo = max(0, i - 8)
    return Diagnostic(
        Severity.ERROR,
        f"§ {ins.number} of the act does not apply to {ins.target} as in force on {day}: from word {i + 1} the act's "
        f"old text reads \"… {' '.join(want[lo:i + 8])} …\" but the law reads \"… {' '.join(have[lo:i + 8])} …\"",
        act.file, ins.line, 1, "", "act-apply",
        "the act's text with CAPITALS removed and [brackets] dropped must be the provision as in force the day "
        "before it takes effect; check the target and the corpus dates")
