"""The new text of each provision an instruction of an act names: an act's sentence may name several
("Subitems (iii), (iv), (v) and (vi) … are amended to read as follows:"), and then its text holds each one's
from its label to the next's; one that adds an article holds its sections, each from its "§" heading
(compiler/frontend/acts.py reads the instructions)."""

from __future__ import annotations

import re
from typing import Callable

from navlaw.frontend.instructions import Target

Err = Callable[..., None]  # err(line, message, hint=""): an error at a line of the act


def _label_forms(level: str, label: str) -> tuple[str, ...]:
    if level.startswith(("section",)):
        return (f"§ {label}.", f"§{label}.", f"Section {label}.", f"S {label}.", f"§ {label} ", f"§{label} ")
    return (f"{label}.", f"({label})", f"{label.upper()}.", f"({label.upper()})")


def split_bodies(targets: list[Target], paras: list[str], number: int, line: int, err: Err
                 ) -> list[tuple[Target, str]]:
    """The new text of each target: for several ("Subitems (iii), (iv), (v) and (vi) …"), the text from
    each one's label to the next's (an opening paragraph's or a heading's from where the one before it
    ends). A label starts a paragraph, or is run in after a stop ("… complaint; or (ii) their judgment",
    "Safety code. 1. The commissioner")."""
    if len(targets) <= 1:
        return [(targets[0], "\n".join(paras))] if targets else []
    text = "\n".join(paras)
    folded = text.lower()
    starts: list[int] = []
    at = 0
    for t in targets:
        if t.portion:
            starts.append(at)
            at += 1
            continue
        label = t.id.rsplit("/", 1)[-1]
        forms = [f.lower() for f in _label_forms(t.level, label)]
        found = [m.start(1) for f in forms
                 for m in [re.compile(r"(?:^|\n)\s*(" + re.escape(f).replace(r"\ ", r"\s+") + ")").search(folded, at),
                           re.compile(r"[.;:\]]\s*(?:(?:and|or)\s+)?(" + re.escape(f).replace(r"\ ", r"\s+") + r")\s").search(folded, at)]
                 if m is not None]
        if not found:
            err(line, f"§ {number} of the act names {t.id}, but its new text has no paragraph starting with its label")
            return []
        starts.append(min(found))
        at = min(found) + 1
    out = []
    for i, t in enumerate(targets):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((t, text[starts[i]:end].strip()))
    return out


def sections_of(paras: list[str]) -> list[tuple[str, str]]:
    """The sections in an added article's text ("ARTICLE 4-B", its contents "SECTION 79-D. …", then
    "§ 79-D. …" and its text, …): each section's text from its "§" heading to the next. A heading the
    print runs on from the line before (not indented) starts a section too."""
    text = "\n".join(paras)
    heads = list(re.finditer(r"(?:^|(?<=\s))(?:§|(?<=\n)S)\s*(\d+(?:[.-][A-Za-z0-9]+)*)\.?\s", text))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((m.group(1).lower(), text[m.start():end].rstrip()))
    return out
